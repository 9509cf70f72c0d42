public import PlayerState

/// One configuration class the explorer runs the player in: whether the
/// engine preloads, the retry policy, the previous threshold, the timeout
/// of the watchdog clock and the duck policy.
///
/// The classes are the ones the rules tell apart: an engine that preloads or
/// not; a retry policy that fails at once (`off`), allows one reload, reaches
/// its maximum backoff within its attempts (`capReached`: 2 reloads after 1 s
/// and 1.5 s, the second capped from 2 s), or the standard one (3 reloads
/// after 1 s, 2 s and 4 s, the cap of 30 s never reached); a previous
/// threshold of 3 s (the default: times below, at and past it differ) or 0
/// (every position but 0 is past it). Within a class the values do not
/// matter: the letters' times are relative to the threshold, and a policy's
/// delays are checked against what it says. No rule reads the watchdog
/// timeout, the player only passes it to its clock, where every delay is
/// checked: each threshold class runs with its own timeout (10 s with 3 s,
/// 1 s with 0), so a player that ignores it fails in half the classes.
public struct ExplorationConfiguration: Hashable, Sendable, CustomStringConvertible {
  /// The retry policy classes.
  public enum RetryClass: String, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    /// No waiting: a network failure fails at once.
    case off
    /// One reload after 1 s.
    case oneAttempt
    /// Two reloads after 1 s and 1.5 s: the maximum backoff is reached.
    case capReached
    /// ``PlayerState/RetryPolicy/standard``: three reloads after 1 s, 2 s and 4 s.
    case standard

    /// The policy the player and the model run with.
    public var policy: RetryPolicy {
      switch self {
      case .off: .off
      case .oneAttempt: RetryPolicy(attempts: 1, backoff: .seconds(1), maximumBackoff: .seconds(30))
      case .capReached:
        RetryPolicy(attempts: 2, backoff: .seconds(1), maximumBackoff: .milliseconds(1500))
      case .standard: .standard
      }
    }

    /// `retry off`, `retry 1 attempt`, `retry cap reached`, `retry standard`.
    public var description: String {
      switch self {
      case .off: "retry off"
      case .oneAttempt: "retry 1 attempt"
      case .capReached: "retry cap reached"
      case .standard: "retry standard"
      }
    }
  }

  /// The previous-threshold classes, each with the watchdog timeout it runs with.
  public enum ThresholdClass: String, CaseIterable, Hashable, Sendable {
    /// 3 s, the default: positions below, at and past it differ. Watchdog timeout 10 s.
    case standard
    /// 0: every position but the start is past it. Watchdog timeout 1 s.
    case zero

    /// The previous threshold.
    public var threshold: MediaTime { self == .standard ? .seconds(3) : .zero }
    /// The watchdog clock's timeout this class runs with.
    public var watchdogTimeout: MediaTime { self == .standard ? .seconds(10) : .seconds(1) }
  }

  /// Whether the engine declares `.preload`.
  public var canPreload: Bool
  /// The player's retry policy for network failures.
  public var retry: RetryPolicy
  /// `previous` restarts the entry past this position.
  public var previousThreshold: MediaTime
  /// The timeout of the harness's watchdog clock: every load and stall
  /// watchdog must be scheduled with it.
  public var watchdogTimeout: MediaTime
  /// The player's duck policy (`PlayerConfiguration.ducking`): the default,
  /// lower to 0.2, or pause as an interruption. Only a scope with the volume
  /// feature searches both (``ExplorationScope/init(entries:held:configurations:features:maxDepth:seconds:maxStates:reach:)``).
  public var ducking: DuckPolicy = PlayerConfiguration().ducking
  /// The player's fade (`PlayerConfiguration.fade`; zero, the default, is off):
  /// 200 ms in a search of a scope that fades (`ExplorationScope.fades`) of a
  /// subject that does fades.
  public var fade: MediaTime = .zero
  /// The player's crossfade (`PlayerConfiguration.crossfade`; zero, the
  /// default, is off): 1 s in a search of a scope that crossfades
  /// (`ExplorationScope.crossfades`) of a subject that does crossfade, for an
  /// engine that preloads.
  public var crossfade: MediaTime = .zero
  /// The state the player starts from (its configuration is this class's), or nil for a new
  /// player: ``ExplorationReach/nearExhaustion`` searches each class from
  /// ``Explorer/nearExhaustionStarts`` too.
  public var start: PlaybackState?

  /// A configuration class.
  /// - Parameters:
  ///   - canPreload: whether the engine declares `.preload`.
  ///   - retry: the retry policy.
  ///   - previousThreshold: the previous threshold (3 s by default).
  ///   - watchdogTimeout: the watchdog clock's timeout (10 s by default).
  public init(
    canPreload: Bool = true, retry: RetryPolicy = .standard,
    previousThreshold: MediaTime = .seconds(3), watchdogTimeout: MediaTime = .seconds(10)
  ) {
    self.canPreload = canPreload
    self.retry = retry
    self.previousThreshold = previousThreshold
    self.watchdogTimeout = watchdogTimeout
  }

  /// A configuration of one retry class and one threshold class.
  /// - Parameters:
  ///   - canPreload: whether the engine declares `.preload`.
  ///   - retry: the retry class.
  ///   - threshold: the threshold class (with its watchdog timeout).
  public init(canPreload: Bool, retry: RetryClass, threshold: ThresholdClass = .standard) {
    self.init(
      canPreload: canPreload, retry: retry.policy, previousThreshold: threshold.threshold,
      watchdogTimeout: threshold.watchdogTimeout)
  }

  /// Every class: an engine that preloads and one that does not, times every
  /// retry class, times every threshold class (16).
  public static let all: [ExplorationConfiguration] = ThresholdClass.allCases.flatMap { threshold in
    [true, false].flatMap { preload in
      RetryClass.allCases.map {
        ExplorationConfiguration(canPreload: preload, retry: $0, threshold: threshold)
      }
    }
  }

  /// The retry class of ``retry``, if it is one of them.
  public var retryClass: RetryClass? { RetryClass.allCases.first { $0.policy == retry } }

  /// What the harness runs a case of this class with.
  package var setup: FuzzSetup {
    var setup = FuzzSetup(
      canPreload: canPreload, previousThreshold: previousThreshold, retry: retry,
      watchdogTimeout: watchdogTimeout, start: start)
    setup.ducking = ducking
    setup.fadeLength = fade
    setup.crossfadeLength = crossfade
    return setup
  }

  /// `preload, retry standard, threshold 3000ms, watchdog 10000ms`, then `, duck pause` for a
  /// class whose duck policy is not the default (`, duck lower 0.5` for another level), then
  /// `, from start(…)` for a class searched from a start state.
  public var description: String {
    "\(canPreload ? "preload" : "no preload"), \(retryDescription), \(timesDescription)"
      + (ducking == PlayerConfiguration().ducking ? "" : ", \(duckingDescription)")
      + (fade == .zero ? "" : ", fade \(fade.milliseconds)ms")
      + (crossfade == .zero ? "" : ", crossfade \(crossfade.milliseconds)ms")
      + (start.map { ", from \(FuzzStart.spelling($0))" } ?? "")
  }

  /// `duck lower 0.2` or `duck pause`.
  var duckingDescription: String {
    switch ducking {
    case .lower(let level): "duck lower \(level)"
    case .pause: "duck pause"
    }
  }

  /// This class with the `.pause` duck policy.
  var pausingOnDuck: ExplorationConfiguration {
    var pausing = self
    pausing.ducking = .pause
    return pausing
  }

  /// This class from a new player.
  var fresh: ExplorationConfiguration {
    var fresh = self
    fresh.start = nil
    return fresh
  }

  /// `retry standard`, or the policy's numbers when it is none of the classes.
  var retryDescription: String {
    retryClass?.description
      ?? "retry \(retry.attempts) after \(retry.backoff)…\(retry.maximumBackoff)"
  }

  /// `threshold 3000ms, watchdog 10000ms`.
  var timesDescription: String { "threshold \(previousThreshold), watchdog \(watchdogTimeout)" }
}

/// What the explorer covers: queues of at most ``entries`` entries, at most
/// ``held`` held-back reports waiting at once, every configuration class in
/// ``configurations``, and (when given) at most ``maxDepth`` letters or
/// ``seconds`` of search.
///
/// Within the scope the search is exhaustive: every sequence of letters over
/// the alphabet, of any length, from a fresh player (and, with ``reach``'s
/// ``ExplorationReach/nearExhaustion``, from start states near id exhaustion too). It is **complete** when
/// it reaches a fixpoint (no new canonical state) in every configuration and
/// the differential check of merged states found nothing.
public struct ExplorationScope: Hashable, Sendable, CustomStringConvertible {
  /// The most queue entries: letters that would make the queue longer do not apply.
  public var entries: Int
  /// The most held-back reports waiting for a `deliver` at once.
  public var held: Int
  /// The configuration classes, each searched on its own.
  public var configurations: [ExplorationConfiguration]
  /// What the player implements: letters outside these features are not sent, and a
  /// configuration class outside them (a preloading engine without `.preload`, a retry
  /// policy without `.network`) is not searched. Every feature by default.
  public var features: FuzzFeatures
  /// The longest sequence searched, or nil for no limit (the fixpoint ends the search).
  public var maxDepth: Int?
  /// A time limit for the whole search, or nil.
  public var seconds: Double?
  /// The most states one configuration class's search may hold: past it (by
  /// at most one state's successors) the search stops, not complete
  /// (``Exploration/stateLimit``), unless every state was extended. Nil for no
  /// limit. A search holds about 4 KB a state (its fingerprints, rows and the
  /// runners it keeps; docs/memory.md, "The explorer"), so this bounds its
  /// memory; with several classes at once (`jobs`), each has its own.
  public var maxStates: Int?
  /// Whether the search uses the small alphabet of the tests of the search
  /// itself (``Explorer/Letter/core``) instead of the whole one.
  package var coreAlphabet = false
  /// Whether the search fades (issue 37, item 2): its features have `fade`
  /// and are not every feature (whose searches are the largest: fades are
  /// proven by the scopes that name them, as the `.pause` duck policy is).
  /// Its player then runs with a 200 ms fade and its alphabet gains
  /// ``Explorer/Letter/fadeLetters``.
  package var fades: Bool { features.contains(.fade) && features != .all }
  /// Whether the search crossfades (issue 37, item 3): its features have
  /// `crossfade` and are not every feature. Its player then runs with a 1 s
  /// crossfade in the classes whose engine preloads, and its alphabet gains
  /// ``Explorer/Letter/crossfadeLetters`` and ``Explorer/Letter/fadeLetters``.
  package var crossfades: Bool { features.contains(.crossfade) && features != .all }
  /// Whether the search sends live streams' letters (issue 38): its features
  /// have `live` and are not every feature (whose searches are the largest:
  /// live streams are proven by the scopes that name them). Its alphabet then
  /// gains ``Explorer/Letter/liveLetters``.
  package var lives: Bool { features.contains(.live) && features != .all }
  /// With ``coreAlphabet``: the core's letters and a relaunch and a hand-off
  /// (``Explorer/Letter/coreRestore``), for the tests of reports held back
  /// across them.
  package var coreRestore = false
  /// Where the search reaches beyond the standard alphabet and a new player
  /// (``ExplorationReach``): letters it adds, and start states near id exhaustion. None by
  /// default, so that the standard scopes are as they were.
  public var reach: ExplorationReach

  /// A scope.
  /// - Parameters:
  ///   - entries: the most queue entries (at least 1).
  ///   - held: the most held-back reports at once.
  ///   - configurations: the configuration classes; every class by default. Those outside
  ///     `features` are dropped.
  ///   - features: what the player implements; every feature by default.
  ///   - maxDepth: the longest sequence, or nil for none.
  ///   - seconds: a time limit for the whole search, or nil.
  ///   - maxStates: the most states a class's search may find, or nil for no limit.
  ///   - reach: letters and start states beyond the standard ones (``ExplorationReach``); with
  ///     ``ExplorationReach/nearExhaustion`` each class is searched from a new player and then
  ///     from each of ``Explorer/nearExhaustionStarts`` (those within `features`).
  public init(
    entries: Int, held: Int = 1,
    configurations: [ExplorationConfiguration] = ExplorationConfiguration.all,
    features: FuzzFeatures = .all, maxDepth: Int? = nil, seconds: Double? = nil,
    maxStates: Int? = nil, reach: ExplorationReach = []
  ) {
    self.entries = max(1, entries)
    self.held = max(0, held)
    self.features = features
    self.reach = reach
    var classes = configurations
    // The duck policy is a class dimension of the volume scopes only, so that every other
    // scope has the classes it had. The every-feature scope keeps its classes too (each
    // with the default policy): its searches are the largest, and the `.pause` policy is
    // proven by the volume scopes (`--features volume`).
    if features.contains(.volume), features != .all {
      classes = classes.flatMap { configuration in
        configuration.ducking == PlayerConfiguration().ducking
          ? [configuration, configuration.pausingOnDuck] : [configuration]
      }
    }
    if reach.contains(.nearExhaustion) {
      for start in Explorer.nearExhaustionStarts {
        classes += configurations.filter { $0.start == nil }.map { configuration in
          var configuration = configuration
          configuration.start = start
          return configuration
        }
      }
    }
    self.configurations = classes.filter { features.admits($0.setup) }
    self.maxDepth = maxDepth
    self.seconds = seconds
    self.maxStates = maxStates.map { max(1, $0) }
  }

  /// The part of this scope that shard `index` of `count` searches: the
  /// configuration classes whose place in ``configurations`` is `index`
  /// modulo `count`, with everything else as it is.
  ///
  /// The classes are independent searches, so the `count` shards cover the
  /// scope exactly: each class is searched by one shard, to the same result as
  /// in the whole search, and the scope is complete when every shard is
  /// (`player-sim explore --merge` checks this). A class is not split: with
  /// more shards than classes, the shards past the last class have none.
  ///
  /// ```swift
  /// let scope = ExplorationScope(entries: 2, held: 0)
  /// let halves = [scope.shard(0, of: 2), scope.shard(1, of: 2)]  // 8 classes each
  /// ```
  /// - Parameters:
  ///   - index: the shard, from 0 to `count - 1` (taken modulo `count`).
  ///   - count: how many shards the scope is cut into (at least 1).
  /// - Returns: the scope with only this shard's configuration classes.
  public func shard(_ index: Int, of count: Int) -> ExplorationScope {
    let count = max(1, count)
    let index = ((index % count) + count) % count
    var part = self
    part.configurations = configurations.enumerated().filter { $0.offset % count == index }.map(
      \.element)
    return part
  }

  /// `queues ≤ 2, ≤ 1 held-back report, configurations {…}`, then `, features …` when the
  /// player does only part of the contract and `, reach …` when the search reaches further.
  public var description: String {
    "queues ≤ \(entries), ≤ \(held) held-back report\(held == 1 ? "" : "s"), configurations "
      + Self.describe(configurations) + featuresSuffix
  }

  /// `, features queue,system` (`, features none` for the single-item core), or nothing
  /// when every feature is in; then `, reach …` when the search reaches further
  /// (``ExplorationReach``).
  var featuresSuffix: String {
    (features == .all ? "" : ", features \(features)") + (reach.isEmpty ? "" : ", reach \(reach)")
  }

  /// The configurations as `{preload, no preload} × {retry off, …} × {threshold
  /// 3000ms, watchdog 10000ms; …}` when they are a product, or listed.
  static func describe(_ configurations: [ExplorationConfiguration]) -> String {
    // From start states too: `{…} × {a new player; start(…)}` when each start has the classes
    // a new player has, in the same order.
    var starts: [PlaybackState?] = []
    for configuration in configurations where !starts.contains(configuration.start) {
      starts.append(configuration.start)
    }
    if starts.contains(where: { $0 != nil }) {
      let fresh = configurations.filter { $0.start == nil }
      let alike = starts.allSatisfy { start in
        configurations.filter { $0.start == start }.map(\.fresh) == fresh
      }
      guard alike, !fresh.isEmpty else {
        return "{" + configurations.map(\.description).joined(separator: "; ") + "}"
      }
      return describe(fresh) + " × {"
        + starts.map { $0.map(FuzzStart.spelling) ?? "a new player" }.joined(separator: "; ")
        + "}"
    }
    var preloads: [Bool] = []
    var retries: [String] = []
    var times: [String] = []
    var ducks: [String] = []
    for configuration in configurations {
      if !ducks.contains(configuration.duckingDescription) {
        ducks.append(configuration.duckingDescription)
      }
      if !preloads.contains(configuration.canPreload) { preloads.append(configuration.canPreload) }
      if !retries.contains(configuration.retryDescription) {
        retries.append(configuration.retryDescription)
      }
      if !times.contains(configuration.timesDescription) {
        times.append(configuration.timesDescription)
      }
    }
    guard preloads.count * retries.count * times.count * ducks.count == Set(configurations).count
    else {
      return "{" + configurations.map(\.description).joined(separator: "; ") + "}"
    }
    // The duck policies only when they are not the default alone (a scope without volume).
    let defaultDuck = ExplorationConfiguration().duckingDescription
    return "{" + preloads.map { $0 ? "preload" : "no preload" }.joined(separator: ", ") + "} × {"
      + retries.joined(separator: ", ") + "} × {" + times.joined(separator: "; ") + "}"
      + (ducks == [defaultDuck] ? "" : " × {" + ducks.joined(separator: ", ") + "}")
  }
}
