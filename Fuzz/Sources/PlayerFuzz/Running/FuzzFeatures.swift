package import PlayerState

/// The parts of Playhead's contract a player implements, beyond the
/// single-item core: a run generates only what they allow, and the oracle
/// (unchanged) judges the player on that.
///
/// The core is always on: `play` of one media (from a time or not), `pause`,
/// `resume`, `stop`, `seek`, `retry`, the rate, every engine report of the
/// current load and its timers (`ready`, `stalled`, `resumed`, `ended`,
/// `position`, `failed` for any reason, `seeked`, watchdog expiries).
/// Each feature adds:
/// - ``queue``: the queue's intents (`queue` of several entries, `append`,
///   `insert`, `remove`, `move`, `jump`, `next`, `previous`, `repeat`,
///   `shuffle`, `clear`), and start states of more than one entry or with a
///   repeat mode;
/// - ``preload``: engines that declare `.preload` (otherwise none does, so
///   the next entry is never preloaded);
/// - ``system``: the system's events (interruptions with and without the
///   resume hint, route loss, `pausedBySystem`), and start states that are
///   interrupted or paused by the system;
/// - ``network``: the network's events (`networkLost`, `networkAvailable`)
///   and retry policies that wait for it (otherwise every case runs with
///   `RetryPolicy.off`, so a network failure fails the load at once);
/// - ``controls``: the remote-control intents (`toggle`, `skip`,
///   `setPosition`) and intents sent as a remote control's
///   (`PlaybackEvent.remote`);
/// - ``restore``: snapshots, relaunches and hand-offs (``FuzzLifecycle``),
///   for a subject that can restore (``FuzzSubject/restoring(_:)``; others
///   are never sent them);
/// - ``sleepTimer``: the sleep timer's intents (`setSleepTimer`) and its
///   countdowns' expiries, for a subject that schedules the countdown on the
///   harness's clock (``FuzzSubject/Inputs/sleepTimer``; others are never sent them);
/// - ``volume``: the user's volume and mute (`setVolume`, `setMuted`), the
///   system's ducks (`duckBegan`, `duckEnded`) under a duck policy drawn per case,
///   and start states with a volume, muted or ducked, for a subject that does
///   volume (``FuzzSubject/Inputs/volume``; others are never sent them);
/// - ``fade``: fades (issue 37, item 2): the player is configured with a
///   200 ms `PlayerConfiguration.fade` (the engine line's `fade=200ms`) and the
///   harness's engine declares `EngineCapabilities.volumeRamp`, so the user's
///   pause, resume and stop fade, and the fade's timers expire (the newest and
///   stale ones); for a subject that does fades (``FuzzSubject/Inputs/fade``;
///   others run without a fade). It adds no event kind;
/// - ``crossfade``: crossfade (issue 37, item 3): a case whose engine preloads
///   runs with a 1 s `PlayerConfiguration.crossfade` (the engine line's
///   `crossfade=1000ms`; the engine then declares `EngineCapabilities.volumeRamp`),
///   `ready` reports carry durations of 10 s, 1.5 s (shorter than twice the
///   crossfade) or none, and position reports land inside the end's window
///   and outside it; the outgoing load's `ended` and its timer come up; for a
///   subject that does crossfade (``FuzzSubject/Inputs/crossfade``; others run
///   without one). It adds no event kind, and brings engines that preload with
///   it (a crossfade needs one) even without ``preload``;
/// - ``live``: live and DVR streams (issue 38): the engine reports windows
///   (`window(L, start…end)`) for media of each kind (on demand: none; `C`
///   live without DVR: a window of zero length; `D` with a DVR window) that
///   move forward with time, shrink and jump back, and bad ones (start below
///   0, end before start) with invalid arguments on; `goToLive`;
///   `failed(L, behindLiveWindow)`; windows of the preload; position reports
///   and seeks around the window (behind its start, inside, past its edge).
///
/// Spelled as a comma-separated list of their names,
/// `queue,preload,system,network,controls,restore,sleepTimer,volume,fade,crossfade,live`
/// (``init(parsing:)``, ``description``); `none` is the core alone.
public struct FuzzFeatures: OptionSet, Hashable, Sendable, LosslessStringConvertible {
  /// The features, one bit each.
  public let rawValue: UInt16

  /// Features from their bits (bits beyond the eleven features are dropped).
  /// - Parameter rawValue: one bit a feature, as in ``queue``'s.
  public init(rawValue: UInt16) { self.rawValue = rawValue & 0x7FF }

  /// The queue's intents and queues of several entries.
  public static let queue = FuzzFeatures(rawValue: 1)
  /// Engines that preload the next entry.
  public static let preload = FuzzFeatures(rawValue: 2)
  /// The system's events: interruptions, route loss, pauses by the system.
  public static let system = FuzzFeatures(rawValue: 4)
  /// The network's events and waiting for the network before a retry.
  public static let network = FuzzFeatures(rawValue: 8)
  /// The remote-control intents and intents from a remote control.
  public static let controls = FuzzFeatures(rawValue: 16)
  /// Snapshots, relaunches and hand-offs.
  public static let restore = FuzzFeatures(rawValue: 32)
  /// The sleep timer: its intents and its countdowns' expiries.
  public static let sleepTimer = FuzzFeatures(rawValue: 64)
  /// Volume, mute and ducking.
  public static let volume = FuzzFeatures(rawValue: 128)
  /// Fades: the user's pause, resume and stop fade (a 200 ms fade), and the
  /// fade's timers expire.
  public static let fade = FuzzFeatures(rawValue: 256)
  /// Crossfade: a 1 s crossfade with a preloading engine, durations and
  /// position reports around the end's window, the outgoing load's `ended`
  /// and timer.
  public static let crossfade = FuzzFeatures(rawValue: 512)
  /// Live and DVR streams: the engine's window reports (moving, shrinking,
  /// jumping back, bad), `goToLive`, `failed(behindLiveWindow)`.
  public static let live = FuzzFeatures(rawValue: 1024)
  /// The whole contract (the default).
  public static let all: FuzzFeatures = [
    .queue, .preload, .system, .network, .controls, .restore, .sleepTimer, .volume, .fade,
    .crossfade, .live,
  ]
  /// The single-item core alone.
  public static let core: FuzzFeatures = []

  /// Each feature with its name, in the order ``description`` lists them.
  public static let named: [(name: String, feature: FuzzFeatures)] = [
    ("queue", .queue), ("preload", .preload), ("system", .system), ("network", .network),
    ("controls", .controls), ("restore", .restore), ("sleepTimer", .sleepTimer),
    ("volume", .volume), ("fade", .fade), ("crossfade", .crossfade), ("live", .live),
  ]

  /// A list that does not parse, with what was expected.
  public struct ParseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The word that is not a feature (empty for an empty item, as in `queue,,system`).
    public var word: String
    /// The error in words, as in ``FuzzFeatures/ParseError/description``:
    /// `unknown feature 'x'; expected a comma-separated subset of queue, preload, system, network`.
    public var description: String {
      let names = FuzzFeatures.named.map(\.name).joined(separator: ", ")
      let what = word.isEmpty ? "an empty feature" : "unknown feature '\(word)'"
      return "\(what); expected a comma-separated subset of \(names) (or none)"
    }
  }

  /// Parses a comma-separated list of feature names, as in `queue,system`;
  /// `none` is the core alone. Names may repeat; spaces around them are allowed.
  /// - Parameter list: the list.
  /// - Throws: ``ParseError`` naming the first word that is not a feature.
  public init(parsing list: String) throws(ParseError) {
    var features = FuzzFeatures.core
    let trimmed = list.trimmingSpaces
    if trimmed == "none" {
      self = features
      return
    }
    for part in trimmed.split(separator: ",", omittingEmptySubsequences: false) {
      let word = String(part).trimmingSpaces
      guard let feature = Self.named.first(where: { $0.name == word })?.feature else {
        throw ParseError(word: word)
      }
      features.insert(feature)
    }
    self = features
  }

  /// ``init(parsing:)``, nil when the list does not parse.
  /// - Parameter description: a comma-separated list of feature names.
  public init?(_ description: String) {
    guard let features = try? FuzzFeatures(parsing: description) else { return nil }
    self = features
  }

  /// The names, comma-separated in the order `queue,preload,system,network`;
  /// `none` for the core alone.
  public var description: String {
    let names = Self.named.filter { contains($0.feature) }.map(\.name)
    return names.isEmpty ? "none" : names.joined(separator: ",")
  }

  /// The event kinds a case may send (see ``FuzzFeatures``).
  package var kinds: Set<EventKind> { Set(EventKind.allCases.filter(sends)) }

  /// Whether a case may send events of `kind` (see ``FuzzFeatures``): the
  /// core's always, the others with their feature. A switch, not a set, since
  /// the explorer asks it for every letter it sends.
  package func sends(_ kind: EventKind) -> Bool {
    switch kind {
    case .play, .pause, .resume, .stop, .seek, .retry, .rate, .ready, .stalled, .resumed,
      .seeked, .ended, .failed, .position, .timeout:
      true
    case .queue, .append, .insert, .remove, .move, .jump, .next, .previous, .repeat, .shuffle,
      .clear:
      contains(.queue)
    case .interruptionBegan, .interruptionEnded, .routeLost, .pausedBySystem: contains(.system)
    case .networkLost, .networkAvailable: contains(.network)
    case .toggle, .skip, .setPosition: contains(.controls)
    case .setSleepTimer, .sleepTimerExpired: contains(.sleepTimer)
    case .volume, .mute, .duckBegan, .duckEnded: contains(.volume)
    case .goToLive, .window: contains(.live)
    }
  }

  /// Whether a case set up as `setup` says, with these actions, stays within
  /// the features: its engine, retry policy, start state and every event.
  package func admits(_ actions: [FuzzAction], setup: FuzzSetup) -> Bool {
    guard self != .all else { return true }
    guard admits(setup) else { return false }
    return actions.allSatisfy { action in
      switch action {
      case .send(let event):
        sends(event.kind) && (contains(.controls) || event.source != .remote)
          && (contains(.live) || !Self.fallsBehind(event))
      case .reentrant(let report), .later(let report):
        sends(PlaybackEvent.engine(report).kind)
          && (contains(.live) || !Self.fallsBehind(.engine(report)))
      case .deliver: true
      case .lifecycle: contains(.restore)
      }
    }
  }

  /// Whether `event` is the engine's `failed(L, behindLiveWindow)`: a failure
  /// only ``live`` sends (the core's `failed` sends every other reason).
  static func fallsBehind(_ event: PlaybackEvent) -> Bool {
    if case .engine(.failed(_, .behindLiveWindow, _)) = event { return true }
    return false
  }

  /// Whether a setup stays within the features.
  package func admits(_ setup: FuzzSetup) -> Bool {
    // A crossfade needs an engine that preloads: the feature brings such engines with it.
    if !contains(.preload), !contains(.crossfade), setup.canPreload { return false }
    if !contains(.network), setup.retry.attempts != 0 { return false }
    if !contains(.volume), setup.ducking != PlayerConfiguration().ducking { return false }
    if !contains(.fade), setup.fadeLength != .zero { return false }
    if !contains(.crossfade), setup.crossfadeLength != .zero { return false }
    guard let start = setup.start else { return true }
    if !contains(.queue), start.queue.entries.count > 1 || start.queue.repeatMode != .off {
      return false
    }
    if !contains(.system), start.interrupted || start.session?.systemPaused == true {
      return false
    }
    if !contains(.network), start.session?.stage == .waitingForNetwork { return false }
    if !contains(.sleepTimer), start.sleepTimer != nil { return false }
    if !contains(.volume), start.volume.thousandths != 1000 || start.muted || start.ducked {
      return false
    }
    if !contains(.fade), start.leaving != nil || start.session?.fadingOut == true { return false }
    if !contains(.crossfade), start.leaving != nil, start.session != nil { return false }
    if !contains(.live), start.session?.window != nil || start.preload?.stage == .live {
      return false
    }
    return true
  }
}

extension String {
  /// The string without leading and trailing spaces.
  fileprivate var trimmingSpaces: String {
    String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
  }
}
