/// Why a load failed.
public enum FailureReason: Hashable, Sendable, Codable, CustomStringConvertible {
  /// The media could not be fetched.
  case network
  /// The media could not be decoded.
  case decoding
  /// The format or codec is not supported by the engine.
  case unsupported
  /// The media does not exist.
  case notFound
  /// The machine's watchdog expired while the engine was buffering or stalled,
  /// or the engine gave up waiting on its own (the GStreamer example's
  /// preroll timeout).
  case timeout
  /// A live load fell behind its window: the media at its position is gone
  /// (Media3's `BehindLiveWindowException`). A load that played reloads at
  /// the live edge (docs/machine.md, "Live and DVR streams").
  case behindLiveWindow
  /// An engine-specific error code, for anything the cases above do not name.
  case engine(code: Int32)

  /// The compact form: `network`, `timeout`, `engine(-11800)`.
  public var description: String {
    switch self {
    case .network: "network"
    case .decoding: "decoding"
    case .unsupported: "unsupported"
    case .notFound: "notFound"
    case .timeout: "timeout"
    case .behindLiveWindow: "behindLiveWindow"
    case .engine(let code): "engine(\(code))"
    }
  }
}

/// What the engine's own error said, beside the class the machine decides on:
/// an app can tell a URL-level error (`NSURLErrorDomain`, -1009) from a decoder
/// error (`AVFoundationErrorDomain`, -11800) and show the message.
///
/// A class, so that a state or report without one (every hot-path event)
/// carries only a nil reference; it exists only on failures.
public final class FailureDetail: Hashable, Sendable, Codable, CustomStringConvertible {
  /// The error's domain, such as `NSURLErrorDomain` or `gst-resource-error-quark`.
  public let domain: String
  /// The error's code in its domain.
  public let code: Int
  /// The error's message, for people.
  public let message: String

  /// The most UTF-8 bytes kept of the domain and of the message, each; a
  /// longer text is cut at a character boundary and ends with "…". So a
  /// detail, and every state, step and stream element holding one, stays
  /// bounded whatever the engine says (docs/memory.md).
  public static let maximumTextBytes = 1_024

  /// Describes an engine error; a domain or message longer than
  /// ``maximumTextBytes`` UTF-8 bytes is cut.
  public init(domain: String, code: Int, message: String) {
    self.domain = Self.bounded(domain)
    self.code = code
    self.message = Self.bounded(message)
  }

  private enum CodingKeys: String, CodingKey { case domain, code, message }

  /// Decodes a detail, cutting its texts as ``init(domain:code:message:)`` does.
  public convenience init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      domain: try container.decode(String.self, forKey: .domain),
      code: try container.decode(Int.self, forKey: .code),
      message: try container.decode(String.self, forKey: .message))
  }

  /// Encodes the domain, code and message.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(domain, forKey: .domain)
    try container.encode(code, forKey: .code)
    try container.encode(message, forKey: .message)
  }

  /// `text`, or its longest prefix of whole characters that fits in
  /// ``maximumTextBytes`` with the "…" (3 bytes) that marks the cut.
  static func bounded(_ text: String) -> String {
    guard text.utf8.count > maximumTextBytes else { return text }
    var kept = 0
    var end = text.startIndex
    for index in text.indices {
      let next = text.index(after: index)
      let bytes = text.utf8.distance(from: index, to: next)
      if kept + bytes > maximumTextBytes - 3 { break }
      kept += bytes
      end = next
    }
    return String(text[..<end]) + "…"
  }

  /// Whether both name the same error with the same message.
  public static func == (lhs: FailureDetail, rhs: FailureDetail) -> Bool {
    lhs.domain == rhs.domain && lhs.code == rhs.code && lhs.message == rhs.message
  }

  /// Hashes the domain, code and message.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(domain)
    hasher.combine(code)
    hasher.combine(message)
  }

  /// `NSURLErrorDomain -1009 "offline"`; the message as given (printers escape it).
  public var description: String { "\(domain) \(code) \"\(message)\"" }
}

/// What the operating system did to playback: not the user's intent, and not a
/// report about one load.
public enum SystemEvent: Hashable, Sendable, Codable, CustomStringConvertible {
  /// An interruption began (a call, an alarm, another app took the audio).
  case interruptionBegan
  /// The interruption ended; `shouldResume` is the system's hint that playback may resume.
  case interruptionEnded(shouldResume: Bool)
  /// The audio output went away (headphones unplugged): a pause, as if the user paused.
  case routeLost
  /// The network went away.
  case networkLost
  /// The network is back.
  case networkAvailable
  /// The sleep timer's countdown with this id ran out (sent by the driver,
  /// ``SleepTimerRequest``): the user's intent becomes pause, if this
  /// countdown is still the armed one.
  case sleepTimerExpired(SleepTimerID)
  /// The system asks the app to duck: another app's short sound (a navigation
  /// prompt, a notification) needs the foreground for a moment and allows
  /// this app to keep playing lower (Android's transient focus loss that may
  /// duck; AVAudioSession's secondary-audio hint). What the machine does is
  /// ``PlayerConfiguration/ducking``; the play intent never changes.
  case duckBegan
  /// The duck is over: the user's volume (or playback, under
  /// ``DuckPolicy/pause``) comes back.
  case duckEnded

  /// `interruption(began)`, `interruption(ended, resume)`, `route(lost)`, `network(lost)`.
  public var description: String {
    switch self {
    case .interruptionBegan: "interruption(began)"
    case .interruptionEnded(let resume):
      resume ? "interruption(ended, resume)" : "interruption(ended)"
    case .routeLost: "route(lost)"
    case .networkLost: "network(lost)"
    case .networkAvailable: "network(available)"
    case .sleepTimerExpired(let id): "sleepTimer(expired, \(id))"
    case .duckBegan: "duck(began)"
    case .duckEnded: "duck(ended)"
    }
  }
}

/// Something the user asked for. Intents are commands from the user, and the
/// machine always honours the newest one.
///
/// Positions are 0-based indices in play order (the shuffled order while
/// shuffled); an intent naming a position outside the queue is ignored with
/// ``IgnoreReason/invalidPosition``.
public enum UserIntent: Hashable, Sendable, Codable, CustomStringConvertible {
  /// Play this media from a position: a queue of that one media. While it is
  /// already the only entry and not failed, it resumes instead.
  case play(MediaID, from: MediaTime = .zero)
  /// Replace the queue, make the entry at `start` current and load it from `from`;
  /// `playWhenReady` false stays paused once it is ready. An empty list clears.
  case replaceQueue([MediaID], start: Int = 0, from: MediaTime = .zero, playWhenReady: Bool = true)
  /// Add entries at the end of the queue.
  case append([MediaID])
  /// Insert entries so that the first ends at `position`.
  case insert([MediaID], at: Int)
  /// Remove the entry at a position.
  case remove(at: Int)
  /// Move the entry at `source` so that it ends at `destination`.
  case move(from: Int, to: Int)
  /// Make the entry at a position current, from a position in it.
  case jump(to: Int, from: MediaTime = .zero)
  /// Go to the next entry.
  case next
  /// Go to the previous entry, or restart the current one when past the threshold.
  case previous
  /// Set what happens at the end of an entry.
  case setRepeat(RepeatMode)
  /// Shuffle with a seed (the current entry first), or restore the list order with nil.
  case setShuffle(seed: UInt64?)
  /// Set the playback rate, kept across entries: `.setRate(1.5)`. A rate of
  /// zero or below is ignored with ``IgnoreReason/invalidArgument``.
  case setRate(PlaybackRate)
  /// Empty the queue and stop: idle.
  case clear
  /// Pause, or stay paused once buffering finishes.
  case pause
  /// Resume playing the current entry; from `ended`, replay it from the start;
  /// while idle with a queue, load the current entry.
  case resume
  /// Stop and unload the current load; the queue stays.
  case stop
  /// Move the current load to a position.
  case seek(to: MediaTime)
  /// Load the failed entry again, with a new load token, at the last known position.
  case retry
  /// The play/pause button, decided by the machine from its own state (Media3's rule):
  /// pause when the user wants to play, a load exists, it has neither ended nor
  /// failed and nothing suppresses it; otherwise play — `resume` (which loads an
  /// idle entry, replays an ended one and clears a system pause), or for a failed
  /// load `retry` with the intent to play.
  case toggle
  /// Seek relative to the machine's own target: the pending seek's target, else
  /// the last known position; so N presses land at p + NΔ whatever the engine has
  /// completed. Clamped to 0 and to the duration when known (a skip past the end
  /// seeks to the end, and the entry ends as usual). Negative goes back:
  /// `.skip(by: -.seconds(15))`.
  case skip(by: MediaTime)
  /// Seek within one entry (MPRIS `SetPosition`): ignored with
  /// ``IgnoreReason/notCurrentEntry`` unless that entry is current, and with
  /// ``IgnoreReason/invalidArgument`` for a position below 0 or past the known duration.
  case setPosition(ItemID, MediaTime)
  /// Arm a sleep timer, replacing any armed one, or turn it off with nil
  /// (docs/machine.md, "Sleep timer").
  case setSleepTimer(SleepTimer?)
  /// Set the user's volume, 0 to 1 (docs/machine.md, "Volume, mute and
  /// ducking"); ignored with ``IgnoreReason/invalidArgument`` outside that range.
  /// A duck lowers what the engine plays, never this.
  case setVolume(Volume)
  /// Mute (true) or unmute (false): the engine plays silent while muted, and
  /// the user's volume is kept for the unmute.
  case setMuted(Bool)
  /// Seek a live load with a window (DVR) to its live edge; the play intent
  /// is kept (docs/machine.md, "Live and DVR streams"). Ignored with
  /// ``IgnoreReason/notSeekable`` on a live stream without DVR and with
  /// ``IgnoreReason/notLive`` on on-demand media.
  case goToLive

  /// The compact form: `play(A)`, `queue(A B, start 2)`, `pause`, `seek(2000ms)`.
  ///
  /// Positions print 1-based, as the user counts; total for every value,
  /// even one the reducer refuses (`remove(Int.max)` prints `remove(9223372036854775808)`).
  public var description: String { description(naming: { _ in nil }) }

  /// The compact form, naming the entry of `setPosition` by its media too when
  /// known: `setPosition(A item3, 1000ms)`.
  /// - Parameter name: the media of an item, if known.
  public func description(naming name: (ItemID) -> MediaID?) -> String {
    func from(_ time: MediaTime) -> String { time == .zero ? "" : ", from \(time)" }
    func list(_ media: [MediaID]) -> String { media.map(\.description).joined(separator: " ") }
    // `position + 1` without overflow: Int.max + 1 is printed from its UInt.
    func ordinal(_ position: Int) -> String {
      position < Int.max ? String(position + 1) : String(UInt(position) + 1)
    }
    switch self {
    case .play(let media, let time): return "play(\(media)\(from(time)))"
    case .replaceQueue(let media, let start, let time, let play):
      return "queue(\(list(media))\(start == 0 ? "" : ", start \(ordinal(start))")\(from(time))"
        + "\(play ? "" : ", paused"))"
    case .append(let media): return "append(\(list(media)))"
    case .insert(let media, let position): return "insert(\(list(media)), at \(ordinal(position)))"
    case .remove(let position): return "remove(\(ordinal(position)))"
    case .move(let source, let destination):
      return "move(\(ordinal(source)), to \(ordinal(destination)))"
    case .jump(let position, let time): return "jump(\(ordinal(position))\(from(time)))"
    case .next: return "next"
    case .previous: return "previous"
    case .setRepeat(let mode): return "repeat(\(mode.rawValue))"
    case .setShuffle(let seed): return seed.map { "shuffle(seed \($0))" } ?? "shuffle(off)"
    case .setRate(let rate): return "rate(\(rate))"
    case .clear: return "clear"
    case .pause: return "pause"
    case .resume: return "resume"
    case .stop: return "stop"
    case .seek(let time): return "seek(\(time))"
    case .retry: return "retry"
    case .toggle: return "toggle"
    case .skip(let delta): return "skip(\(delta.milliseconds >= 0 ? "+" : "")\(delta))"
    case .setPosition(let item, let time):
      let entry = name(item).map { "\($0) \(item)" } ?? item.description
      return "setPosition(\(entry), \(time))"
    case .setSleepTimer(let timer): return "sleepTimer(\(timer?.description ?? "off"))"
    case .setVolume(let volume): return "volume(\(volume))"
    case .setMuted(let muted): return muted ? "mute" : "unmute"
    case .goToLive: return "goToLive"
    }
  }
}

/// Something the engine says has happened to one load. A report is a fact about
/// the past, never a command: it counts only if its load is the current one (or,
/// for `ready` and `failed`, the preloading one).
public enum EngineReport: Hashable, Sendable, Codable, CustomStringConvertible {
  /// The load finished its first buffering and can play; with its duration if known.
  case ready(Load, duration: MediaTime? = nil)
  /// Playback stopped to rebuffer.
  case stalled(Load)
  /// Rebuffering finished.
  case resumed(Load)
  /// The seek with this id finished.
  case seekCompleted(Load, SeekID)
  /// Playback reached the end of the media.
  case reachedEnd(Load)
  /// The load failed: the class the machine acts on, and the engine's own error if it has one.
  case failed(Load, FailureReason, detail: FailureDetail? = nil)
  /// Where playback is now. Updates the last known position; never a command.
  case position(Load, MediaTime)
  /// The engine (the system under it) paused or suppressed playback of this load on its own,
  /// as AVPlayer does when its rate drops to 0 without being asked.
  case pausedBySystem(Load)
  /// The load is live, and this is the window it can seek in now; its end is
  /// the live edge. Sent after `ready` and whenever the window moves
  /// (docs/machine.md, "Live and DVR streams").
  case window(Load, LiveWindow)

  /// The load the report is about.
  public var load: Load {
    switch self {
    case .ready(let load, _), .stalled(let load), .resumed(let load), .seekCompleted(let load, _),
      .reachedEnd(let load), .failed(let load, _, _), .position(let load, _),
      .pausedBySystem(let load), .window(let load, _):
      load
    }
  }

  /// The same report about another load: how a driver that numbers loads its own way
  /// re-tags a report between its numbering and the machine's (every other field is kept).
  ///
  /// ```swift
  /// // The engine reports with its own ids; the machine wants its tokens back.
  /// let report = EngineReport.ready(engineLoad, duration: .seconds(30))
  /// player.send(.engine(report.withLoad(machineLoad)))
  /// ```
  /// - Parameter load: the load the returned report is about.
  /// - Returns: this report, about `load`.
  public func withLoad(_ load: Load) -> EngineReport {
    switch self {
    case .ready(_, let duration): .ready(load, duration: duration)
    case .stalled: .stalled(load)
    case .resumed: .resumed(load)
    case .seekCompleted(_, let id): .seekCompleted(load, id)
    case .reachedEnd: .reachedEnd(load)
    case .failed(_, let reason, let detail): .failed(load, reason, detail: detail)
    case .position(_, let time): .position(load, time)
    case .pausedBySystem: .pausedBySystem(load)
    case .window(_, let window): .window(load, window)
    }
  }

  /// The compact form without names: `ready(item1#1)`.
  public var description: String { description(naming: { _ in nil }) }

  /// The compact form: `ready(A#1)`, `seeked(A#1, seek#2)`, `failed(A#1, network)`,
  /// `position(A#1, 12000ms)`.
  /// - Parameter name: the media of an item, if known.
  public func description(naming name: (ItemID) -> MediaID?) -> String {
    let load = load.description(naming: name)
    switch self {
    case .ready(_, let duration):
      return duration.map { "ready(\(load), duration \($0))" } ?? "ready(\(load))"
    case .stalled: return "stalled(\(load))"
    case .resumed: return "resumed(\(load))"
    case .seekCompleted(_, let seek): return "seeked(\(load), \(seek))"
    case .reachedEnd: return "ended(\(load))"
    case .failed(_, let reason, let detail):
      return detail.map { "failed(\(load), \(reason), \($0))" } ?? "failed(\(load), \(reason))"
    case .position(_, let time): return "position(\(load), \(time))"
    case .pausedBySystem: return "pausedBySystem(\(load))"
    case .window(_, let window): return "window(\(load), \(window))"
    }
  }
}

/// Everything the machine reacts to: user intents, engine reports and the
/// expiry of a watchdog it asked for.
public enum PlaybackEvent: Hashable, Sendable, Codable, CustomStringConvertible {
  /// The user asked for something.
  case user(UserIntent)
  /// A remote control asked for something on the user's behalf: the lock screen,
  /// Control Center, a headset button, CarPlay, MPRIS. The same rules as
  /// ``user(_:)``; only the source differs, and steps and notifications carry it.
  case remote(UserIntent)
  /// The engine reported something about a load.
  case engine(EngineReport)
  /// A timer the machine armed has expired: a watchdog, or the backoff before a
  /// retry while waiting for the network. Time is an event like any other.
  case watchdogExpired(Load, WatchdogID)
  /// The operating system interrupted playback, took the output away, or
  /// changed the network.
  case system(SystemEvent)

  /// Where an event comes from.
  public enum Source: String, Hashable, Sendable, Codable {
    /// The user (or the app on the user's behalf).
    case user
    /// A remote control (lock screen, headset, MPRIS) on the user's behalf.
    case remote
    /// The media engine.
    case engine
    /// A watchdog timer.
    case timer
    /// The operating system.
    case system
  }

  /// Where this event comes from.
  public var source: Source {
    switch self {
    case .user: .user
    case .remote: .remote
    case .engine: .engine
    case .watchdogExpired: .timer
    case .system: .system
    }
  }

  /// The intent of a user or remote event; nil for any other.
  public var intent: UserIntent? {
    switch self {
    case .user(let intent), .remote(let intent): intent
    case .engine, .watchdogExpired, .system: nil
    }
  }

  /// The load an engine report or a watchdog expiry names; nil for a user intent or a
  /// system event, which name none.
  public var load: Load? {
    switch self {
    case .engine(let report): report.load
    case .watchdogExpired(let load, _): load
    case .user, .remote, .system: nil
    }
  }

  /// The same event with the load it names re-tagged by `transform` (an engine report or a
  /// watchdog expiry, whose watchdog id is kept); a user intent or a system event unchanged.
  ///
  /// The one re-tagging a driver with its own load ids needs, in either direction: every
  /// event it hands the machine must name the machine's loads (the tokens of the commands it
  /// was sent), and every event it shows outside in its own numbering.
  /// - Parameter transform: the load to name instead of the event's.
  /// - Returns: the event about `transform(load)`.
  public func withLoad(_ transform: (Load) -> Load) -> PlaybackEvent {
    switch self {
    case .engine(let report): .engine(report.withLoad(transform(report.load)))
    case .watchdogExpired(let load, let id): .watchdogExpired(transform(load), id)
    case .user, .remote, .system: self
    }
  }

  /// The compact form without names.
  public var description: String { description(naming: { _ in nil }) }

  /// The compact form of the intent or report; `timeout(A#1, watchdog#2)` for a watchdog.
  /// - Parameter name: the media of an item, if known.
  public func description(naming name: (ItemID) -> MediaID?) -> String {
    switch self {
    case .user(let intent): intent.description(naming: name)
    case .remote(let intent): "remote(\(intent.description(naming: name)))"
    case .engine(let report): report.description(naming: name)
    case .watchdogExpired(let load, let id): "timeout(\(load.description(naming: name)), \(id))"
    case .system(let event): event.description
    }
  }
}

extension PlaybackEvent {
  /// Play this media.
  public static func play(_ media: MediaID, from time: MediaTime = .zero) -> PlaybackEvent {
    .user(.play(media, from: time))
  }
  /// Replace the queue.
  public static func queue(
    _ media: [MediaID], start: Int = 0, from time: MediaTime = .zero, playWhenReady: Bool = true
  ) -> PlaybackEvent {
    .user(.replaceQueue(media, start: start, from: time, playWhenReady: playWhenReady))
  }
  /// Pause.
  public static let pause = PlaybackEvent.user(.pause)
  /// Resume.
  public static let resume = PlaybackEvent.user(.resume)
  /// Stop.
  public static let stop = PlaybackEvent.user(.stop)
  /// Next entry.
  public static let next = PlaybackEvent.user(.next)
  /// Previous entry.
  public static let previous = PlaybackEvent.user(.previous)
  /// Seek to a position.
  public static func seek(to time: MediaTime) -> PlaybackEvent { .user(.seek(to: time)) }
  /// Retry a failed load.
  public static let retry = PlaybackEvent.user(.retry)
  /// The play/pause button.
  public static let toggle = PlaybackEvent.user(.toggle)
  /// Seek relative to the machine's own target.
  public static func skip(by delta: MediaTime) -> PlaybackEvent { .user(.skip(by: delta)) }
  /// Set the playback rate: `player.send(.setRate(1.5))`.
  public static func setRate(_ rate: PlaybackRate) -> PlaybackEvent { .user(.setRate(rate)) }
  /// Arm a sleep timer, or turn it off with nil: `.setSleepTimer(.after(.seconds(1800)))`
  /// (wall-clock time) or `.setSleepTimer(.endOfEntry)`.
  public static func setSleepTimer(_ timer: SleepTimer?) -> PlaybackEvent {
    .user(.setSleepTimer(timer))
  }
  /// Set the user's volume, 0 to 1: `player.send(.setVolume(0.5))`.
  public static func setVolume(_ volume: Volume) -> PlaybackEvent { .user(.setVolume(volume)) }
  /// Mute: the engine plays silent; the user's volume is kept.
  public static let mute = PlaybackEvent.user(.setMuted(true))
  /// Unmute: the user's volume (lowered by a duck in progress) comes back.
  public static let unmute = PlaybackEvent.user(.setMuted(false))
  /// Seek a DVR stream to its live edge.
  public static let goToLive = PlaybackEvent.user(.goToLive)
  /// The engine reports a live load's window.
  public static func window(_ load: Load, _ window: LiveWindow) -> PlaybackEvent {
    .engine(.window(load, window))
  }
  /// The engine reports the load ready.
  public static func ready(_ load: Load, duration: MediaTime? = nil) -> PlaybackEvent {
    .engine(.ready(load, duration: duration))
  }
  /// The engine reports a stall.
  public static func stalled(_ load: Load) -> PlaybackEvent { .engine(.stalled(load)) }
  /// The engine reports the stall over.
  public static func resumed(_ load: Load) -> PlaybackEvent { .engine(.resumed(load)) }
  /// The engine reports a seek completed.
  public static func seekCompleted(_ load: Load, _ seek: SeekID) -> PlaybackEvent {
    .engine(.seekCompleted(load, seek))
  }
  /// The engine reports the end of the media.
  public static func reachedEnd(_ load: Load) -> PlaybackEvent { .engine(.reachedEnd(load)) }
  /// The engine reports a failure.
  public static func failed(_ load: Load, _ reason: FailureReason) -> PlaybackEvent {
    .engine(.failed(load, reason))
  }
  /// The engine reports its position.
  public static func position(_ load: Load, _ time: MediaTime) -> PlaybackEvent {
    .engine(.position(load, time))
  }
}
