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
  /// The machine's watchdog expired while the engine was buffering or stalled.
  case timeout
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
    case .engine(let code): "engine(\(code))"
    }
  }
}

/// Something the user asked for. Intents are commands from the user, and the
/// machine always honours the newest one.
public enum UserIntent: Hashable, Sendable, Codable, CustomStringConvertible {
  /// Play this media: load it if it is not the current media, otherwise resume it.
  case play(MediaID)
  /// Pause, or stay paused once buffering finishes.
  case pause
  /// Resume playing the current media; from `ended`, replay it from the start.
  case resume
  /// Stop and unload the current media.
  case stop
  /// Move the current media to a position.
  case seek(to: MediaTime)
  /// Load the failed media again, with a new load token.
  case retry

  /// The compact form: `play(A)`, `pause`, `seek(2000ms)`.
  public var description: String {
    switch self {
    case .play(let media): "play(\(media))"
    case .pause: "pause"
    case .resume: "resume"
    case .stop: "stop"
    case .seek(let time): "seek(\(time))"
    case .retry: "retry"
    }
  }
}

/// Something the engine says has happened to one load. A report is a fact about
/// the past, never a command: it counts only if its load is the current one.
public enum EngineReport: Hashable, Sendable, Codable, CustomStringConvertible {
  /// The load finished its first buffering and can play.
  case ready(Load)
  /// Playback stopped to rebuffer.
  case stalled(Load)
  /// Rebuffering finished.
  case resumed(Load)
  /// The seek with this id finished.
  case seekCompleted(Load, SeekID)
  /// Playback reached the end of the media.
  case reachedEnd(Load)
  /// The load failed.
  case failed(Load, FailureReason)

  /// The load the report is about.
  public var load: Load {
    switch self {
    case .ready(let load), .stalled(let load), .resumed(let load), .seekCompleted(let load, _),
      .reachedEnd(let load), .failed(let load, _):
      load
    }
  }

  /// The compact form: `ready(A#1)`, `seeked(A#1, seek#2)`, `failed(A#1, network)`.
  public var description: String {
    switch self {
    case .ready(let load): "ready(\(load))"
    case .stalled(let load): "stalled(\(load))"
    case .resumed(let load): "resumed(\(load))"
    case .seekCompleted(let load, let seek): "seeked(\(load), \(seek))"
    case .reachedEnd(let load): "ended(\(load))"
    case .failed(let load, let reason): "failed(\(load), \(reason))"
    }
  }
}

/// Everything the machine reacts to: user intents, engine reports and the
/// expiry of a watchdog it asked for.
public enum PlaybackEvent: Hashable, Sendable, Codable, CustomStringConvertible {
  /// The user asked for something.
  case user(UserIntent)
  /// The engine reported something about a load.
  case engine(EngineReport)
  /// A watchdog the machine armed has expired. Time is an event like any other.
  case watchdogExpired(Load, WatchdogID)

  /// Where an event comes from.
  public enum Source: String, Hashable, Sendable, Codable {
    /// The user (or the app on the user's behalf).
    case user
    /// The media engine.
    case engine
    /// A watchdog timer.
    case timer
  }

  /// Where this event comes from.
  public var source: Source {
    switch self {
    case .user: .user
    case .engine: .engine
    case .watchdogExpired: .timer
    }
  }

  /// The compact form of the intent or report; `timeout(A#1, watchdog#2)` for a watchdog.
  public var description: String {
    switch self {
    case .user(let intent): intent.description
    case .engine(let report): report.description
    case .watchdogExpired(let load, let id): "timeout(\(load), \(id))"
    }
  }
}

extension PlaybackEvent {
  /// Play this media.
  public static func play(_ media: MediaID) -> PlaybackEvent { .user(.play(media)) }
  /// Pause.
  public static let pause = PlaybackEvent.user(.pause)
  /// Resume.
  public static let resume = PlaybackEvent.user(.resume)
  /// Stop.
  public static let stop = PlaybackEvent.user(.stop)
  /// Seek to a position.
  public static func seek(to time: MediaTime) -> PlaybackEvent { .user(.seek(to: time)) }
  /// Retry a failed load.
  public static let retry = PlaybackEvent.user(.retry)
  /// The engine reports the load ready.
  public static func ready(_ load: Load) -> PlaybackEvent { .engine(.ready(load)) }
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
}
