public import PlayerState

/// One step of a fuzz case: what the harness does next.
///
/// Events are concrete (`ready(A#1)` names item and token, not "ready for the
/// current load"): the decoder resolves identities relative to what was issued
/// so far, and the case then replays, shrinks and prints as written. The text
/// form of each action is one line of a saved failure (see ``FailureFile``);
/// a load prints as `MEDIA#TOKEN` (``FuzzCase`` says how a name is resolved to
/// an item) or, when its media does not name it, `item3#2`:
///
/// ```text
/// queue(A B C)            the user sends an intent directly
/// ready(A#1)              the engine reports, from the test thread
/// reentrant ready(A#2)    the engine reports from inside its next `execute`
/// later ended(A#1)        the engine queues a report for the next `deliver`
/// deliver                 the engine sends its queued reports, oldest first
/// interrupt begin         the operating system's events, spelled as in player-sim
/// interrupt end resume    (also: interrupt end, route lost, network lost, network available)
/// ```
public enum FuzzAction: Hashable, Sendable, CustomStringConvertible {
  /// An event sent directly to the player: an intent, a report or a watchdog expiry.
  case send(PlaybackEvent)
  /// A report the engine sends from inside the next command it executes (re-entrantly).
  case reentrant(EngineReport)
  /// A report the engine holds back until the next ``deliver``: a delayed callback.
  case later(EngineReport)
  /// The engine sends every held-back report, oldest first.
  case deliver

  /// The event this action carries, if any.
  public var event: PlaybackEvent? {
    switch self {
    case .send(let event): event
    case .reentrant(let report), .later(let report): .engine(report)
    case .deliver: nil
    }
  }

  /// The load the action's report or expiry names, if any.
  public var load: Load? { event?.load }

  /// The line form without media names: `play(A)`, `ready(item1#1)`,
  /// `reentrant ready(item1#2)`, `deliver`. ``FuzzCase/text`` prints names.
  public var description: String { description(naming: { _ in nil }) }

  /// The line form, spelling the action's load `MEDIA#TOKEN` when `name`
  /// gives a media for it, `item3#2` otherwise.
  /// - Parameter name: the media to spell a load with, or nil.
  public func description(naming name: (Load) -> MediaID?) -> String {
    func text(_ event: PlaybackEvent) -> String {
      if case .system(let system) = event { return EventParser.spelling(system) }
      guard let load = event.load else { return event.description }
      let media = name(load)
      if case .engine(.failed(_, let reason, let detail)) = event, detail != nil {
        return EventParser.spelling(
          failed: load.description(naming: { _ in media }), reason, detail)
      }
      // A report or an expiry names exactly one load.
      return event.description(naming: { _ in media })
    }
    switch self {
    case .send(let event): return text(event)
    case .reentrant(let report): return "reentrant \(text(.engine(report)))"
    case .later(let report): return "later \(text(.engine(report)))"
    case .deliver: return "deliver"
    }
  }

  /// Parses the line form, resolving `MEDIA#TOKEN` with `resolve`.
  /// - Parameters:
  ///   - line: one action, surrounding spaces allowed.
  ///   - resolve: the load a spelled name stands for (see ``FuzzCase``); by
  ///     default `itemN#T` is item N and `MEDIA#T` is item 0.
  /// - Throws: ``FuzzParseError`` naming the column and what was expected.
  public init(
    parsing line: String,
    resolve: (LoadName) -> Load = { Load(item: $0.item ?? ItemID(0), token: $0.token) }
  ) throws(FuzzParseError) {
    let text = Substring(line).drop(while: { $0 == " " || $0 == "\t" })
    let indent = line.count - text.count
    let trimmed = String(
      text.reversed().drop(while: { $0 == " " || $0 == "\t" || $0 == "\r" }).reversed())
    if trimmed == "deliver" {
      self = .deliver
      return
    }
    for (prefix, make) in [("reentrant ", FuzzAction.reentrant), ("later ", FuzzAction.later)]
    where trimmed.hasPrefix(prefix) {
      let event = try EventParser.parse(
        String(trimmed.dropFirst(prefix.count)), column: indent + prefix.count + 1,
        resolve: resolve)
      guard case .engine(let report) = event else {
        throw FuzzParseError(
          column: indent + 1,
          message: "`\(prefix.dropLast())` needs an engine report such as ready(A#1)")
      }
      self = make(report)
      return
    }
    self = .send(try EventParser.parse(trimmed, column: indent + 1, resolve: resolve))
  }
}

/// A load as spelled in a case: `A#2` (a media name) or `item3#2` (an item id).
public struct LoadName: Hashable, Sendable {
  /// The media name, for `A#2`.
  public var media: MediaID?
  /// The item id, for `item3#2`.
  public var item: ItemID?
  /// The token.
  public var token: LoadToken
}

/// A line of a saved case that is not an action.
public struct FuzzParseError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The file the line came from, when known.
  public var file: String?
  /// The 1-based line, when known.
  public var line: Int?
  /// The 1-based column where the problem starts.
  public var column: Int
  /// What was expected.
  public var message: String

  /// An error at a column of the current line.
  public init(file: String? = nil, line: Int? = nil, column: Int, message: String) {
    self.file = file
    self.line = line
    self.column = column
    self.message = message
  }

  /// `file:line:column: error: message`, leaving out what is unknown.
  public var description: String {
    var place = file ?? "<input>"
    if let line { place += ":\(line)" }
    place += ":\(column)"
    return "\(place): error: \(message)"
  }
}
