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

/// A slice of a run's case indices, so that several processes (CI jobs, machines)
/// can share one seed without running any case twice.
///
/// Shard `index` of `count` runs the cases whose index `k` has
/// `k % count == index`, in increasing order: shard 1/4 runs cases 1, 5, 9, …
/// The shards of one count are disjoint and together run every case of the
/// unsharded run; a case keeps its index (and so its case seed,
/// `SplitMix64.caseSeed(run: seed, case: k)`) whatever shard runs it, so a
/// failure found in a shard replays from its seed and case index alone.
/// Interleaving (rather than contiguous blocks) needs no total case count in
/// advance, so it works for time budgets, and every shard starts with small
/// indices: the shards of a time budget together run every case below the
/// lowest index any of them stopped at.
public struct FuzzShard: Hashable, Sendable, LosslessStringConvertible {
  /// Which slice this is, in `0..<count`.
  public let index: Int
  /// How many slices the run is cut into, at least 1.
  public let count: Int

  /// The whole run: one shard of one.
  public static let whole = FuzzShard(validIndex: 0, count: 1)

  /// Shard `index` of `count`, or nil unless `count >= 1` and `0 <= index < count`.
  public init?(index: Int, count: Int) {
    guard count >= 1, (0..<count).contains(index) else { return nil }
    self.init(validIndex: index, count: count)
  }

  /// Parses `I/N` (two unsigned decimal numbers, as `--shard` takes them): nil
  /// for anything else or for a shard out of range (`0/0`, `3/2`).
  public init?(_ description: String) {
    let parts = description.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2,
      parts.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy { (48...57).contains($0) } }),
      let index = Int(parts[0]), let count = Int(parts[1])
    else { return nil }
    self.init(index: index, count: count)
  }

  private init(validIndex: Int, count: Int) {
    self.index = validIndex
    self.count = count
  }

  /// `I/N`, as `--shard` takes it.
  public var description: String { "\(index)/\(count)" }

  /// Whether this is the whole run (`0/1`).
  public var isWhole: Bool { count == 1 }

  /// Whether case `caseIndex` of the run is in this shard.
  public func contains(caseIndex: Int) -> Bool { caseIndex >= 0 && caseIndex % count == index }

  /// The case indices of this shard below `limit`, in the order they run.
  public func caseIndices(below limit: Int) -> StrideTo<Int> {
    stride(from: index, to: max(index, limit), by: count)
  }
}

/// What a random run does.
public struct FuzzConfiguration: Hashable, Sendable {
  /// The run's seed: case `i` is decoded from `SplitMix64.caseSeed(run: seed, case: i)`.
  public var seed: UInt64
  /// How long to run. A case budget counts case indices of the whole run, not
  /// cases of the shard: `.cases(1000)` in shard 1/4 runs cases 1, 5, …, 997
  /// (250 cases), so the shards of one budget together run exactly the
  /// unsharded run's cases. A time budget is each shard's own.
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
  /// Which slice of the case indices this run covers (``FuzzShard/whole`` by default).
  public var shard: FuzzShard
  /// The parts of the contract the player implements (``FuzzFeatures``): cases
  /// are generated within them, and a failure shrinks within them. All of
  /// them by default; without ``FuzzFeatures/preload`` no engine preloads
  /// (whatever ``preload`` says), without ``FuzzFeatures/network`` every case
  /// runs with `RetryPolicy.off`.
  public var features: FuzzFeatures
  /// How many threads run the cases (1 by default; below 2, the calling
  /// thread alone; `player-sim fuzz --jobs` takes 1 to 64): the cases
  /// are independent, so `jobs` threads run `jobs` at a time, each on its own
  /// player. The result is the same as one thread's: the same first failing
  /// case (the lowest failing index) and, with a case budget, the same case
  /// and event counts; only a failing run's coverage may also hold cases
  /// run past the failure before it was found.
  public var jobs: Int = 1

  /// A configuration.
  /// - Parameters:
  ///   - seed: the run's seed; always printed with the result.
  ///   - budget: how long to run.
  ///   - maxLength: the longest case, in actions.
  ///   - swarm: whether each case disables a random part of the alphabet.
  ///   - shrink: whether a failure is shrunk.
  ///   - requireFullCoverage: whether unexercised declared transitions fail the run.
  ///   - preload: whether the engine preloads; nil draws it per case.
  ///   - shard: the slice of case indices to run; the whole run by default.
  ///   - features: the parts of the contract the player implements; all by default.
  public init(
    seed: UInt64, budget: FuzzBudget = .cases(1_000), maxLength: Int = 32, swarm: Bool = true,
    shrink: Bool = true, requireFullCoverage: Bool = false, preload: Bool? = nil,
    shard: FuzzShard = .whole, features: FuzzFeatures = .all
  ) {
    self.features = features
    self.shard = shard
    self.preload = preload
    self.seed = seed
    self.budget = budget
    self.maxLength = maxLength
    self.swarm = swarm
    self.shrink = shrink
    self.requireFullCoverage = requireFullCoverage
  }
}
