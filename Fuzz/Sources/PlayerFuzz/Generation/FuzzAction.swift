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
/// snapshot                the player's snapshot is taken and checked (FuzzLifecycle)
/// relaunch                the player is snapshotted, discarded, and restored on a new engine
/// handoff                 the player hands off to a new engine (Player.handOff(to:))
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
  /// A snapshot, a relaunch or a hand-off (``FuzzLifecycle``).
  case lifecycle(FuzzLifecycle)

  /// The event this action carries, if any.
  public var event: PlaybackEvent? {
    switch self {
    case .send(let event): event
    case .reentrant(let report), .later(let report): .engine(report)
    case .deliver, .lifecycle: nil
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
    case .lifecycle(let step): return step.rawValue
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
    if let step = FuzzLifecycle(rawValue: trimmed) {
      self = .lifecycle(step)
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

/// What happens to the player itself, between events (issue 24): spelled
/// `snapshot`, `relaunch`, `handoff` in a saved case.
public enum FuzzLifecycle: String, Hashable, Sendable, CaseIterable {
  /// The player's snapshot (`PlaybackState.snapshot`) is taken and compared with
  /// the contract's: the current entry and its position from the same step.
  case snapshot
  /// The app is relaunched: the player's snapshot is taken, the player and its
  /// engine are discarded (held-back reports with them), and a player restored
  /// from the snapshot runs on a new engine that numbers its loads from 1. The
  /// restored player must send nothing.
  case relaunch
  /// The player hands off to a new engine (`Player.handOff(to:)`): the old
  /// player stops its load and preload and is sent nothing more, while the
  /// reports it held back still reach it at the next `deliver`; the new one
  /// resumes with the intent kept.
  case handoff
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
