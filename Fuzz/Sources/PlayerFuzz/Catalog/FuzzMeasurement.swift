/// The harness's published figures, measured the same way by anyone who
/// calls them (player-bench does, in release mode). Not for tests: these
/// measure wall-clock time.
public enum FuzzMeasurement {
  /// How quickly one buggy player is caught and shrunk, over several seeds.
  package struct BugFigures: Sendable, CustomStringConvertible {
    /// The buggy player.
    package var player: BuggyPlayer
    /// Seeds tried.
    package var seeds: Int
    /// Seeds that found no failure within the case budget.
    package var missed: Int
    /// Median milliseconds to the first failing case.
    package var medianMillisecondsToFailure: Double
    /// Median milliseconds to the first failing case plus shrinking it.
    package var medianMillisecondsToShrunk: Double
    /// Median cases run up to and including the first failing one.
    package var medianCases: Double
    /// Median length of the shrunk case.
    package var medianShrunkLength: Double
    /// Seeds whose shrunk case has the known minimal length.
    package var seedsAtMinimalLength: Int
    /// Seeds whose shrunk case is at most one action longer than the minimal length.
    package var seedsWithinOneOfMinimal = 0
    /// The most actions a seed's shrunk case has over the minimal length (issue 39: the shrunk
    /// length against the known minimum, not only whether it is at it).
    package var mostOverMinimal = 0

    /// One table row.
    package var description: String {
      "\(player.name): median \(Self.format(medianMillisecondsToFailure)) ms / \(Self.format(medianCases)) cases to a failure, "
        + "\(Self.format(medianMillisecondsToShrunk)) ms to a shrunk one of median length \(Self.format(medianShrunkLength)) "
        + "(minimal \(player.minimalLength); \(seedsAtMinimalLength)/\(seeds) seeds at it, "
        + "\(seedsWithinOneOfMinimal)/\(seeds) within one, at most \(mostOverMinimal) over; \(missed) missed)"
    }

    static func format(_ value: Double) -> String { String((value * 100).rounded() / 100) }
  }

  /// Checked events per second against a subject (Playhead's `Player` by default), over `seconds`.
  /// - Parameters:
  ///   - subject: the player under test.
  ///   - seconds: how long to run.
  ///   - seed: the run's seed.
  ///   - features: the parts of the contract the player implements
  ///     (``FuzzFeatures``): only they are generated. All by default.
  ///   - jobs: threads running cases at once, each on its own player
  ///     (``FuzzConfiguration/jobs``), 1 to 64; 1 by default. The figure
  ///     counts the events of every thread.
  /// - Returns: the run's result (``FuzzResult/eventsPerSecond`` is the figure).
  public static func throughput(
    _ subject: FuzzSubject = .player, seconds: Double, seed: UInt64 = 1,
    features: FuzzFeatures = .all, jobs: Int = 1
  ) -> FuzzResult {
    var configuration = FuzzConfiguration(
      seed: seed, budget: .seconds(seconds), features: features)
    configuration.jobs = min(64, max(1, jobs))
    return Fuzzer.run(subject, configuration)
  }

  /// How quickly one subject's bug is caught and shrunk, over several seeds.
  public struct SubjectFigures: Sendable, CustomStringConvertible {
    /// The subject's name.
    public var subject: String
    /// Seeds tried.
    public var seeds: Int
    /// Seeds that found no failure within the case budget.
    public var missed: Int
    /// Median milliseconds to the first failing case.
    public var medianMillisecondsToFailure: Double
    /// Median milliseconds to the first failing case plus shrinking it.
    public var medianMillisecondsToShrunk: Double
    /// Median cases run up to and including the first failing one.
    public var medianCases: Double
    /// Median length of the shrunk case.
    public var medianShrunkLength: Double
    /// The shortest shrunk case over the seeds.
    public var shortest: Int?
    /// Seeds whose shrunk case is as short as ``shortest``.
    public var seedsAtShortest: Int

    /// One table row.
    public var description: String {
      "\(subject): median \(BugFigures.format(medianMillisecondsToFailure)) ms / \(BugFigures.format(medianCases)) cases to a failure, "
        + "\(BugFigures.format(medianMillisecondsToShrunk)) ms to a shrunk one of median length \(BugFigures.format(medianShrunkLength)) "
        + "(shortest \(shortest.map(String.init) ?? "-"); \(seedsAtShortest)/\(seeds) seeds at it; \(missed) missed)"
    }
  }

  /// Catches a broken subject (your player with a planted bug) with seeds 1…`seeds`.
  /// - Parameters:
  ///   - subject: the player under test.
  ///   - seeds: seeds to run.
  ///   - caseBudget: the most cases one seed may run.
  ///   - features: the parts of the contract the player implements
  ///     (``FuzzFeatures``): only they are generated, and a failure shrinks
  ///     within them. All by default.
  /// - Returns: the medians over the seeds.
  public static func catching(
    _ subject: FuzzSubject, seeds: Int = 20, caseBudget: Int = 100_000,
    features: FuzzFeatures = .all
  ) -> SubjectFigures {
    let runs = samples(subject, seeds: seeds, caseBudget: caseBudget, features: features)
    let shortest = runs.lengths.min()
    return SubjectFigures(
      subject: subject.name, seeds: max(1, seeds), missed: runs.missed,
      medianMillisecondsToFailure: median(runs.toFailure),
      medianMillisecondsToShrunk: median(runs.toShrunk), medianCases: median(runs.cases),
      medianShrunkLength: median(runs.lengths.map(Double.init)),
      shortest: shortest, seedsAtShortest: runs.lengths.filter { $0 == shortest }.count)
  }

  /// Catches each buggy player with seeds 1…`seeds`.
  /// - Parameters:
  ///   - players: the players to measure; the whole catalog by default.
  ///   - seeds: seeds per player.
  ///   - caseBudget: the most cases one seed may run.
  /// - Returns: one row per player.
  package static func buggyPlayers(
    _ players: [BuggyPlayer] = BuggyPlayer.catalog, seeds: Int = 20, caseBudget: Int = 100_000
  ) -> [BugFigures] {
    players.map { player in
      let runs = samples(player.subject, seeds: seeds, caseBudget: caseBudget)
      return BugFigures(
        player: player, seeds: seeds, missed: runs.missed,
        medianMillisecondsToFailure: median(runs.toFailure),
        medianMillisecondsToShrunk: median(runs.toShrunk), medianCases: median(runs.cases),
        medianShrunkLength: median(runs.lengths.map(Double.init)),
        seedsAtMinimalLength: runs.lengths.filter { $0 == player.minimalLength }.count,
        seedsWithinOneOfMinimal: runs.lengths.filter { $0 <= player.minimalLength + 1 }.count,
        mostOverMinimal: runs.lengths.map { $0 - player.minimalLength }.max() ?? 0)
    }
  }

  /// What seeds 1…`seeds` gave a subject: for each seed that found a failure,
  /// milliseconds to it and to it shrunk, cases run and the shrunk length.
  private struct Samples {
    var toFailure: [Double] = []
    var toShrunk: [Double] = []
    var cases: [Double] = []
    var lengths: [Int] = []
    /// Seeds that found no failure within the case budget.
    var missed = 0
  }

  /// Runs seeds 1…`seeds` (at least one) on `subject`, `caseBudget` cases each
  /// at the most, generating only `features`.
  private static func samples(
    _ subject: FuzzSubject, seeds: Int, caseBudget: Int, features: FuzzFeatures = .all
  ) -> Samples {
    var samples = Samples()
    for seed in 1...UInt64(max(1, seeds)) {
      let result = Fuzzer.run(
        subject, FuzzConfiguration(seed: seed, budget: .cases(caseBudget), features: features))
      guard let failure = result.failure else {
        samples.missed += 1
        continue
      }
      samples.toFailure.append(result.seconds * 1000)
      samples.toShrunk.append((result.seconds + result.shrinkSeconds) * 1000)
      samples.cases.append(Double(result.cases))
      samples.lengths.append(failure.actions.count)
    }
    return samples
  }

  /// Explores a subject (Playhead's `Player` by default) as deep as `seconds` allow.
  /// - Parameters:
  ///   - subject: the player under test.
  ///   - seconds: the time budget.
  ///   - maxDepth: the deepest level to explore.
  ///   - features: the parts of the contract the player implements
  ///     (``FuzzFeatures``): letters outside them are not sent; without
  ///     ``FuzzFeatures/preload`` the engine does not preload, and without
  ///     ``FuzzFeatures/network`` the player retries nothing
  ///     (`RetryPolicy.off`). All by default (a preloading engine and the
  ///     standard retry policy, as ``Explorer/explore(_:maxDepth:seconds:canPreload:retry:features:)``).
  /// - Returns: what the search found, in its one configuration.
  public static func exhaustive(
    _ subject: FuzzSubject = .player, seconds: Double = 10, maxDepth: Int = 64,
    features: FuzzFeatures = .all
  ) -> Exploration {
    guard features != .all else {
      return Explorer.explore(subject, maxDepth: maxDepth, seconds: seconds)
    }
    let configuration = ExplorationConfiguration(
      canPreload: features.contains(.preload),
      retry: features.contains(.network) ? .standard : .off)
    let scope = ExplorationScope(
      entries: Explorer.boundedEntries, held: Explorer.maxHeld, configurations: [configuration],
      features: features, maxDepth: max(1, maxDepth), seconds: seconds)
    return Explorer.explore(subject, scope: scope).results[0]
  }

  static func median(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return .nan }
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
  }
}
