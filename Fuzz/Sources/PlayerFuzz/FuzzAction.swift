public import PlayerState

/// One step of a fuzz case: what the harness does next.
///
/// Events are concrete (`ready(A#1)`, not "ready for the current load"): the
/// decoder resolves identities relative to what was issued so far, and the
/// case then replays, shrinks and prints as written. The text form of each
/// action is one line of a saved failure (see ``FailureFile``):
///
/// ```text
/// play(A)                 the user sends an intent directly
/// ready(A#1)              the engine reports, from the test thread
/// reentrant ready(A#2)    the engine reports from inside its next `execute`
/// later ended(A#1)        the engine queues a report for the next `deliver`
/// deliver                 the engine sends its queued reports, oldest first
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

  /// The line form: `play(A)`, `reentrant ready(A#1)`, `later ended(A#1)`, `deliver`.
  public var description: String {
    switch self {
    case .send(let event): event.description
    case .reentrant(let report): "reentrant \(report)"
    case .later(let report): "later \(report)"
    case .deliver: "deliver"
    }
  }

  /// Parses the line form written by ``description``.
  /// - Parameter line: one action, surrounding spaces allowed.
  /// - Throws: ``FuzzParseError`` naming the column and what was expected.
  public init(parsing line: String) throws(FuzzParseError) {
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
        String(trimmed.dropFirst(prefix.count)), column: indent + prefix.count + 1)
      guard case .engine(let report) = event else {
        throw FuzzParseError(
          column: indent + 1,
          message: "`\(prefix.dropLast())` needs an engine report such as ready(A#1)")
      }
      self = make(report)
      return
    }
    self = .send(try EventParser.parse(trimmed, column: indent + 1))
  }
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

/// Parses the compact forms `PlaybackEvent.description` prints.
enum EventParser {
  static func parse(_ text: String, column: Int) throws(FuzzParseError) -> PlaybackEvent {
    switch text {
    case "pause": return .pause
    case "resume": return .resume
    case "stop": return .stop
    case "retry": return .retry
    default: break
    }
    guard let open = text.firstIndex(of: "("), text.hasSuffix(")") else {
      throw FuzzParseError(
        column: column,
        message:
          "expected an action such as play(A), pause, ready(A#1), reentrant ready(A#1), deliver; got `\(text)`"
      )
    }
    let name = String(text[..<open])
    let inner = String(text[text.index(after: open)..<text.index(before: text.endIndex)])
    let argColumn = column + name.count + 1
    let parts = inner.split(separator: ",", maxSplits: 1).map {
      String($0.drop(while: { $0 == " " }))
    }
    func one() throws(FuzzParseError) -> String {
      guard parts.count == 1 else {
        throw FuzzParseError(column: argColumn, message: "`\(name)` takes one argument")
      }
      return parts[0]
    }
    func two() throws(FuzzParseError) -> (Load, String) {
      guard parts.count == 2 else {
        throw FuzzParseError(column: argColumn, message: "`\(name)` takes two arguments")
      }
      return (try load(parts[0], column: argColumn), parts[1])
    }
    switch name {
    case "play":
      let media = try one()
      guard !media.isEmpty else {
        throw FuzzParseError(column: argColumn, message: "play needs a media id")
      }
      return .play(MediaID(media))
    case "seek":
      let value = try one()
      guard value.hasSuffix("ms"), let ms = Int64(value.dropLast(2)) else {
        throw FuzzParseError(
          column: argColumn, message: "expected a time such as 1000ms; got `\(value)`")
      }
      return .seek(to: .milliseconds(ms))
    case "ready": return .ready(try load(one(), column: argColumn))
    case "stalled": return .stalled(try load(one(), column: argColumn))
    case "resumed": return .resumed(try load(one(), column: argColumn))
    case "ended": return .reachedEnd(try load(one(), column: argColumn))
    case "seeked":
      let (load, id) = try two()
      return .seekCompleted(load, SeekID(try number(id, prefix: "seek#", column: argColumn)))
    case "timeout":
      let (load, id) = try two()
      return .watchdogExpired(
        load, WatchdogID(try number(id, prefix: "watchdog#", column: argColumn)))
    case "failed":
      let (load, reason) = try two()
      return .failed(load, try failure(reason, column: argColumn))
    default:
      throw FuzzParseError(column: column, message: "unknown event `\(name)`")
    }
  }

  static func load(_ text: String, column: Int) throws(FuzzParseError) -> Load {
    guard let hash = text.lastIndex(of: "#"), hash != text.startIndex,
      let token = UInt32(text[text.index(after: hash)...])
    else {
      throw FuzzParseError(column: column, message: "expected a load such as A#1; got `\(text)`")
    }
    return Load(MediaID(String(text[..<hash])), token)
  }

  static func number(_ text: String, prefix: String, column: Int) throws(FuzzParseError) -> UInt32 {
    guard text.hasPrefix(prefix), let value = UInt32(text.dropFirst(prefix.count)) else {
      throw FuzzParseError(column: column, message: "expected \(prefix)N; got `\(text)`")
    }
    return value
  }

  static func failure(_ text: String, column: Int) throws(FuzzParseError) -> FailureReason {
    switch text {
    case "network": return .network
    case "decoding": return .decoding
    case "unsupported": return .unsupported
    case "notFound": return .notFound
    case "timeout": return .timeout
    default:
      if text.hasPrefix("engine("), text.hasSuffix(")"),
        let code = Int32(text.dropFirst(7).dropLast())
      {
        return .engine(code: code)
      }
      throw FuzzParseError(
        column: column,
        message:
          "expected a reason (network, decoding, unsupported, notFound, timeout, engine(N)); got `\(text)`"
      )
    }
  }
}

extension PlaybackEvent {
  /// The load a report or a watchdog expiry names; nil for a user intent.
  public var load: Load? {
    switch self {
    case .user: nil
    case .engine(let report): report.load
    case .watchdogExpired(let load, _): load
    }
  }
}
