public import PlayerState

/// One configuration class the explorer runs the player in: whether the
/// engine preloads, the retry policy, and the previous threshold.
///
/// The classes are the ones the rules tell apart: an engine that preloads or
/// not; a retry policy that fails at once (`off`), allows one reload, reaches
/// its maximum backoff within its attempts (`capReached`: 2 reloads after 1 s
/// and 1.5 s, the second capped from 2 s), or the standard one (3 reloads
/// after 1 s, 2 s and 4 s, the cap of 30 s never reached). Within a class the
/// values do not matter: the letters' times are relative to the threshold, and
/// a policy's delays are checked against what it says.
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

  /// Whether the engine declares `.preload`.
  public var canPreload: Bool
  /// The player's retry policy for network failures.
  public var retry: RetryPolicy
  /// `previous` restarts the entry past this position. The contract model
  /// reads 3 s (``PlayerState/PlayerConfiguration``'s default) until the
  /// oracle reads the configuration, so 3 s is the one class explored.
  public var previousThreshold: MediaTime

  /// A configuration class.
  /// - Parameters:
  ///   - canPreload: whether the engine declares `.preload`.
  ///   - retry: the retry policy.
  ///   - previousThreshold: the previous threshold (3 s).
  public init(
    canPreload: Bool = true, retry: RetryPolicy = .standard,
    previousThreshold: MediaTime = .seconds(3)
  ) {
    self.canPreload = canPreload
    self.retry = retry
    self.previousThreshold = previousThreshold
  }

  /// A configuration of one retry class.
  public init(canPreload: Bool, retry: RetryClass) {
    self.init(canPreload: canPreload, retry: retry.policy)
  }

  /// Every class: an engine that preloads and one that does not, times every retry class.
  public static let all: [ExplorationConfiguration] = [true, false].flatMap { preload in
    RetryClass.allCases.map { ExplorationConfiguration(canPreload: preload, retry: $0) }
  }

  /// The retry class of ``retry``, if it is one of them.
  public var retryClass: RetryClass? { RetryClass.allCases.first { $0.policy == retry } }

  /// `preload, retry standard, threshold 3000ms`.
  public var description: String {
    let retry =
      retryClass?.description
      ?? "retry \(self.retry.attempts) after \(self.retry.backoff)…\(self.retry.maximumBackoff)"
    return "\(canPreload ? "preload" : "no preload"), \(retry), threshold \(previousThreshold)"
  }
}

/// What the explorer covers: queues of at most ``entries`` entries, at most
/// ``held`` held-back reports waiting at once, every configuration class in
/// ``configurations``, and (when given) at most ``maxDepth`` letters or
/// ``seconds`` of search.
///
/// Within the scope the search is exhaustive: every sequence of letters over
/// the alphabet, of any length, from a fresh player. It is **complete** when
/// it reaches a fixpoint (no new canonical state) in every configuration and
/// the differential check of merged states found nothing.
public struct ExplorationScope: Hashable, Sendable, CustomStringConvertible {
  /// The most queue entries: letters that would make the queue longer do not apply.
  public var entries: Int
  /// The most held-back reports waiting for a `deliver` at once.
  public var held: Int
  /// The configuration classes, each searched on its own.
  public var configurations: [ExplorationConfiguration]
  /// The longest sequence searched, or nil for no limit (the fixpoint ends the search).
  public var maxDepth: Int?
  /// A time limit for the whole search, or nil.
  public var seconds: Double?
  /// Whether the search uses the small alphabet of the tests of the search
  /// itself (``Explorer/Letter/core``) instead of the whole one.
  package var coreAlphabet = false

  /// A scope.
  /// - Parameters:
  ///   - entries: the most queue entries (at least 1).
  ///   - held: the most held-back reports at once.
  ///   - configurations: the configuration classes; every class by default.
  ///   - maxDepth: the longest sequence, or nil for none.
  ///   - seconds: a time limit for the whole search, or nil.
  public init(
    entries: Int, held: Int = 1, configurations: [ExplorationConfiguration] = ExplorationConfiguration.all,
    maxDepth: Int? = nil, seconds: Double? = nil
  ) {
    self.entries = max(1, entries)
    self.held = max(0, held)
    self.configurations = configurations
    self.maxDepth = maxDepth
    self.seconds = seconds
  }

  /// `queues ≤ 2, ≤ 1 held-back report, configurations {…}`.
  public var description: String {
    "queues ≤ \(entries), ≤ \(held) held-back report\(held == 1 ? "" : "s"), configurations "
      + Self.describe(configurations)
  }

  /// The configurations as `{preload, no preload} × {retry off, …} × {threshold 3000ms}`
  /// when they are a product, or listed.
  static func describe(_ configurations: [ExplorationConfiguration]) -> String {
    var preloads: [Bool] = []
    var retries: [String] = []
    var thresholds: [MediaTime] = []
    for configuration in configurations {
      if !preloads.contains(configuration.canPreload) { preloads.append(configuration.canPreload) }
      let retry = configuration.description.split(separator: ", ")[1]
      if !retries.contains(String(retry)) { retries.append(String(retry)) }
      if !thresholds.contains(configuration.previousThreshold) {
        thresholds.append(configuration.previousThreshold)
      }
    }
    guard preloads.count * retries.count * thresholds.count == Set(configurations).count else {
      return "{" + configurations.map(\.description).joined(separator: "; ") + "}"
    }
    return "{" + preloads.map { $0 ? "preload" : "no preload" }.joined(separator: ", ") + "} × {"
      + retries.joined(separator: ", ") + "} × {"
      + thresholds.map { "threshold \($0)" }.joined(separator: ", ") + "}"
  }
}
