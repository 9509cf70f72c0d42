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
  /// A remote control on the user's behalf (a script's `remote` line).
  case remote
  /// The operating system: an interruption, a lost output route or a change
  /// of the network (a script's `interrupt`, `route` or `network` line, or the
  /// fake network of a media profile).
  case system
}

/// Something a run shows in its timeline.
public enum TimelineItem: Hashable, Sendable {
  /// A processed event.
  case event(TimelineEntry)
  /// A `note` line of the script, at a virtual time.
  case note(milliseconds: Int64, text: String)
  /// An `expect` or `wait until` line that held, at a virtual time, as in `expect state idle`.
  case check(milliseconds: Int64, line: Int, text: String)
  /// A `relaunch` or `handoff` line: a new player (and fake engine) took over.
  case playerChange(PlayerChange)
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
  /// The timer the event armed, if any: a watchdog, or the backoff before a
  /// reload while waiting for the network.
  public var timer: WatchdogRequest?
  /// The backoff the event armed, as printed, as in `backoff(A#1, watchdog#2, 1000ms)`;
  /// nil for a watchdog or no timer (watchdogs are not shown).
  public var backoffText: String?
  /// The sleep timer's countdown the event armed, if any (a `sleep-timer TIME`
  /// line): the driver sends its expiry on the virtual clock.
  public var sleepTimer: SleepTimerRequest?
  /// The player that processed the event, numbered from 1: each `relaunch`
  /// or `handoff` line of a script makes the next one, with an engine of its own.
  public var player: Int
  /// Whether that player had handed playback off to another (a `handoff`
  /// line) when it processed the event: the event is a late callback of its
  /// engine (or a timer of its own), which the new player never sees.
  public var isRetired: Bool

  /// An entry.
  /// - Parameters:
  ///   - milliseconds: virtual time since the start of the run.
  ///   - source: where the event came from.
  ///   - event: the event.
  ///   - before: the state the event was reduced in.
  ///   - after: the state after the event.
  ///   - commands: the engine commands the event led to, in order.
  ///   - ignored: why the event changed nothing, or nil.
  ///   - timer: the watchdog or backoff the event armed, if any.
  ///   - sleepTimer: the sleep timer's countdown the event armed, if any.
  ///   - player: the player that processed the event, from 1.
  ///   - isRetired: whether that player had handed playback off to another.
  ///   - name: the media of an item, for printing loads as `A#1` (the states
  ///     are asked next); an item nobody knows prints as `item7#1`.
  public init(
    milliseconds: Int64, source: TimelineSource, event: PlaybackEvent, before: PlaybackState,
    after: PlaybackState, commands: [EngineCommand], ignored: IgnoreReason?,
    timer: WatchdogRequest? = nil, sleepTimer: SleepTimerRequest? = nil, player: Int = 1,
    isRetired: Bool = false,
    naming name: (ItemID) -> MediaID? = { _ in nil }
  ) {
    self.sleepTimer = sleepTimer
    self.player = player
    self.isRetired = isRetired
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
    self.timer = timer
    backoffText = timer.flatMap { $0.delay == nil ? nil : $0.description(naming: lookUp) }
  }

  /// What the step tells an app once (an entry change, the end of the queue,
  /// a flip of the play intent), derived from the event and the states
  /// before and after it; none for an ignored event. Allocates nothing.
  public var notifications: Notifications {
    Notifications(before: before, event: event, after: after, ignored: ignored)
  }

  /// The engine's error the current load failed with, in the state after the
  /// event: kept while the load is failed or waiting for the network.
  public var failure: FailureDetail? { after.failure }

  /// `0.300s engine ready(A#1): idle -> idle (ignored: stale load token)`;
  /// a backoff shows as `+backoff(A#1, watchdog#2, 1000ms)` after the commands,
  /// a sleep countdown as `+sleep(sleep#1, 1800000ms)`, and an event of a
  /// player that handed off ends `{player 1, handed off}`.
  public var description: String {
    var text =
      "\(SimulatedTime.clockText(milliseconds: milliseconds)) \(source.rawValue) \(eventText): \(before) -> \(after)"
    if !commands.isEmpty { text += " [\(commandTexts.joined(separator: " "))]" }
    if let backoffText { text += " +\(backoffText)" }
    if let sleepTimer { text += " +\(sleepTimer)" }
    if let ignored { text += " (ignored: \(ignored))" }
    if isRetired { text += " {\(retiredText)}" }
    return text
  }

  /// `player 1, handed off`: what the table and ``description`` add to an
  /// event of a player that handed playback off.
  public var retiredText: String { "player \(player), handed off" }

  /// The entry as one JSON object on one line, with exactly the keys `t_ms`,
  /// `source`, `event`, `before`, `after`, `commands`, `ignored` (null or
  /// the reason's identifier, such as `staleLoad`), `backoff` (null or the
  /// backoff armed, as in `backoff(A#1, watchdog#2, 1000ms)`), `failure`
  /// (null or the engine's error the current load failed with, as
  /// `{"domain":"NSURLErrorDomain","code":-1009,"message":"offline"}`),
  /// `notifications` (the step's, in order, as
  /// `{"kind":"entryChanged","from":"A","to":"B","reason":"auto"}`,
  /// `{"kind":"queueEnded"}` and `{"kind":"playIntentChanged","value":false,"reason":"remote"}`),
  /// `now_playing` (after the step: null, or
  /// `{"media":"A","elapsed_ms":0,"rate":1.5,"duration_ms":null,"index":1,"count":2,"is_live":false,"window_ms":null}`,
  /// `rate` the multiplier as a JSON number, 0 unless playing, `index` 1-based, `is_live`
  /// whether the load is a live stream and `window_ms` its window, `[start, end]`, or null),
  /// `available` (the commands available after the step, sorted by name),
  /// `player` (the player that processed the event, from 1; see ``player``),
  /// `sleep` (null or the sleep countdown armed, as in `sleep(sleep#1, 1800000ms)`) and
  /// `volume` (the effective volume after the step, ``PlayerState/PlaybackState/effectiveVolume``,
  /// as a JSON number from 0 to 1: `1`, `0.5`, `0`), in that order.
  public var json: String {
    let commandList = commandTexts.map { JSONText.string($0) }.joined(separator: ",")
    let reason = ignored.map { JSONText.string($0.rawValue) } ?? "null"
    let backoff = backoffText.map { JSONText.string($0) } ?? "null"
    let detail = Self.json(failure)
    return "{\"t_ms\":\(milliseconds),\"source\":\(JSONText.string(source.rawValue)),"
      + "\"event\":\(JSONText.string(eventText)),\"before\":\(JSONText.string(before.description)),"
      + "\"after\":\(JSONText.string(after.description)),\"commands\":[\(commandList)],\"ignored\":\(reason),"
      + "\"backoff\":\(backoff),\"failure\":\(detail),"
      + "\"notifications\":[\(notifications.map(Self.json).joined(separator: ","))],"
      + "\"now_playing\":\(after.nowPlaying.map(Self.json) ?? "null"),"
      + "\"available\":\(Self.json(after.availableCommands)),\"player\":\(player),"
      + "\"sleep\":\(sleepTimer.map { JSONText.string($0.description) } ?? "null"),"
      + "\"volume\":\(JSONText.volume(after.effectiveVolume))}"
  }

  /// An engine's error as a JSON object, or `null`.
  static func json(_ failure: FailureDetail?) -> String {
    failure.map {
      "{\"domain\":\(JSONText.string($0.domain)),\"code\":\($0.code),"
        + "\"message\":\(JSONText.string($0.message))}"
    } ?? "null"
  }

  /// The commands available, sorted by name, as a JSON array.
  static func json(_ available: AvailableCommands) -> String {
    "[\(available.names.map { JSONText.string($0) }.joined(separator: ","))]"
  }

  /// A notification as a JSON object: its kind, then its fields.
  static func json(_ notification: PlayerNotification) -> String {
    switch notification.kind {
    case .entryChanged(let from, let to, let reason):
      let name = { (entry: QueueEntry?) in entry.map { JSONText.string($0.media.description) } }
      return "{\"kind\":\"entryChanged\",\"from\":\(name(from) ?? "null"),"
        + "\"to\":\(name(to) ?? "null"),\"reason\":\(JSONText.string(reason.rawValue))}"
    case .queueEnded:
      return "{\"kind\":\"queueEnded\"}"
    case .playIntentChanged(let value, let reason):
      return "{\"kind\":\"playIntentChanged\",\"value\":\(value),"
        + "\"reason\":\(JSONText.string(reason.rawValue))}"
    }
  }

  /// What a lock screen shows, as a JSON object.
  static func json(_ nowPlaying: NowPlaying) -> String {
    "{\"media\":\(JSONText.string(nowPlaying.entry.media.description)),"
      + "\"elapsed_ms\":\(nowPlaying.elapsed.milliseconds),\"rate\":\(JSONText.rate(nowPlaying.rate)),"
      + "\"duration_ms\":\(nowPlaying.duration.map { String($0.milliseconds) } ?? "null"),"
      + "\"index\":\(nowPlaying.index + 1),\"count\":\(nowPlaying.count),"
      + "\"is_live\":\(nowPlaying.isLive),\"window_ms\":\(nowPlaying.window.map(Self.json) ?? "null")}"
  }

  /// A live window as a JSON array of its start and end in milliseconds: `[60000,120000]`.
  static func json(_ window: LiveWindow) -> String {
    "[\(window.start.milliseconds),\(window.end.milliseconds)]"
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

  /// A rate as a JSON number, the multiplier: `1`, `1.5`, `0.75`, `0`.
  package static func rate(_ rate: PlaybackRate) -> String {
    thousandths(Int64(rate.thousandths))
  }

  /// A volume as a JSON number: `1`, `0.5`, `0.16`, `0`.
  package static func volume(_ volume: Volume) -> String {
    thousandths(Int64(volume.thousandths))
  }

  /// A number of thousandths as a JSON number, without trailing zeros: `1`, `0.5`, `-0.25`.
  private static func thousandths(_ thousandths: Int64) -> String {
    let whole = String(thousandths / 1000)
    var fraction = String(abs(thousandths % 1000))
    while fraction.unicodeScalars.count < 3 { fraction = "0" + fraction }
    while fraction.hasSuffix("0") { fraction.removeLast() }
    let sign = thousandths < 0 && thousandths > -1000 ? "-" : ""
    return fraction.isEmpty ? whole : "\(sign)\(whole).\(fraction)"
  }
}
