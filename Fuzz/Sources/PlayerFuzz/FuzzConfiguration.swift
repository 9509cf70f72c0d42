/// How long a run lasts.
public enum FuzzBudget: Hashable, Sendable, CustomStringConvertible {
  /// A fixed number of cases: the same work on every machine.
  case cases(Int)
  /// A wall-clock time: for CI and long campaigns.
  case seconds(Double)

  /// `1000 cases` or `60.0 s`.
  public var description: String {
    switch self {
    case .cases(let count): "\(count) cases"
    case .seconds(let seconds): "\(seconds) s"
    }
  }
}

/// What a random run does.
public struct FuzzConfiguration: Hashable, Sendable {
  /// The run's seed: case `i` is decoded from `SplitMix64.caseSeed(run: seed, case: i)`.
  public var seed: UInt64
  /// How long to run.
  public var budget: FuzzBudget
  /// The longest case, in actions.
  public var maxLength: Int
  /// Whether each case disables a random part of the alphabet (swarm testing).
  public var swarm: Bool
  /// Whether a failure is shrunk before it is reported.
  public var shrink: Bool
  /// Whether a run that leaves a declared transition unexercised fails.
  public var requireFullCoverage: Bool
  /// Whether the engine declares `.preload`: true or false for every case,
  /// nil to draw it per case (half the cases each way).
  public var preload: Bool?

  /// A configuration.
  /// - Parameters:
  ///   - seed: the run's seed; always printed with the result.
  ///   - budget: how long to run.
  ///   - maxLength: the longest case, in actions.
  ///   - swarm: whether each case disables a random part of the alphabet.
  ///   - shrink: whether a failure is shrunk.
  ///   - requireFullCoverage: whether unexercised declared transitions fail the run.
  ///   - preload: whether the engine preloads; nil draws it per case.
  public init(
    seed: UInt64, budget: FuzzBudget = .cases(1_000), maxLength: Int = 32, swarm: Bool = true,
    shrink: Bool = true, requireFullCoverage: Bool = false, preload: Bool? = nil
  ) {
    self.preload = preload
    self.seed = seed
    self.budget = budget
    self.maxLength = maxLength
    self.swarm = swarm
    self.shrink = shrink
    self.requireFullCoverage = requireFullCoverage
  }
}
