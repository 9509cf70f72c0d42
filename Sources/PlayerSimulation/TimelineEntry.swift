public import PlayerState

/// Where a timeline event came from.
public enum TimelineSource: String, Hashable, Sendable, CaseIterable {
  /// A user intent (`play A`, `stop`, …).
  case user
  /// A report from the fake engine.
  case engine
  /// A watchdog expiry.
  case timer
  /// A report injected by the script's `report` line.
  case script
}

/// Something a run shows in its timeline.
public enum TimelineItem: Hashable, Sendable {
  /// A processed event.
  case event(TimelineEntry)
  /// A `note` line of the script, at a virtual time.
  case note(milliseconds: Int64, text: String)
  /// An `expect` or `wait until` line that held, at a virtual time, as in `expect state idle`.
  case check(milliseconds: Int64, line: Int, text: String)
}

/// One processed event of a simulation: when, from where, the state before
/// and after, the commands sent, and why it was ignored if it was.
public struct TimelineEntry: Hashable, Sendable, CustomStringConvertible {
  /// Virtual time since the start of the run, in milliseconds.
  public var milliseconds: Int64
  /// Where the event came from.
  public var source: TimelineSource
  /// The event.
  public var event: PlaybackEvent
  /// The state the event was reduced in.
  public var before: PlaybackState
  /// The state after the event.
  public var after: PlaybackState
  /// The engine commands the event led to, in order.
  public var commands: [EngineCommand]
  /// Why the event changed nothing, or nil if it was accepted.
  public var ignored: IgnoreReason?
  /// The event as printed, its loads named by media, as in `ready(A#1)`.
  public var eventText: String
  /// The commands as printed, as in `load(A#2, from 12000ms)`.
  public var commandTexts: [String]

  /// An entry.
  /// - Parameters:
  ///   - milliseconds: virtual time since the start of the run.
  ///   - source: where the event came from.
  ///   - event: the event.
  ///   - before: the state the event was reduced in.
  ///   - after: the state after the event.
  ///   - commands: the engine commands the event led to, in order.
  ///   - ignored: why the event changed nothing, or nil.
  ///   - name: the media of an item, for printing loads as `A#1` (the states
  ///     are asked next); an item nobody knows prints as `item7#1`.
  public init(
    milliseconds: Int64, source: TimelineSource, event: PlaybackEvent, before: PlaybackState,
    after: PlaybackState, commands: [EngineCommand], ignored: IgnoreReason?,
    naming name: (ItemID) -> MediaID? = { _ in nil }
  ) {
    self.milliseconds = milliseconds
    self.source = source
    self.event = event
    self.before = before
    self.after = after
    self.commands = commands
    self.ignored = ignored
    func lookUp(_ item: ItemID) -> MediaID? {
      name(item) ?? after.media(of: item) ?? before.media(of: item)
    }
    eventText = event.description(naming: lookUp)
    commandTexts = commands.map { $0.description(naming: lookUp) }
  }

  /// `0.300s engine ready(A#1): idle -> idle (ignored: stale load token)`.
  public var description: String {
    var text =
      "\(SimulatedTime.clockText(milliseconds: milliseconds)) \(source.rawValue) \(eventText): \(before) -> \(after)"
    if !commands.isEmpty { text += " [\(commandTexts.joined(separator: " "))]" }
    if let ignored { text += " (ignored: \(ignored))" }
    return text
  }

  /// The entry as one JSON object on one line, with exactly the keys `t_ms`,
  /// `source`, `event`, `before`, `after`, `commands` and `ignored` (null or
  /// the reason's identifier, such as `staleLoad`), in that order.
  public var json: String {
    let commandList = commandTexts.map { JSONText.string($0) }.joined(separator: ",")
    let reason = ignored.map { JSONText.string($0.rawValue) } ?? "null"
    return "{\"t_ms\":\(milliseconds),\"source\":\(JSONText.string(source.rawValue)),"
      + "\"event\":\(JSONText.string(eventText)),\"before\":\(JSONText.string(before.description)),"
      + "\"after\":\(JSONText.string(after.description)),\"commands\":[\(commandList)],\"ignored\":\(reason)}"
  }
}

/// Minimal JSON string encoding, so key order and spacing are exactly ours.
/// Exact, not terminal-escaped: every scalar survives a JSON decoder.
package enum JSONText {
  /// `text` as a JSON string literal, quotes included.
  package static func string(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      default:
        if scalar.value < 0x20 {
          let hex = String(scalar.value, radix: 16)
          result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        } else {
          result.unicodeScalars.append(scalar)
        }
      }
    }
    return result + "\""
  }
}
