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

    /// One table row.
    package var description: String {
      "\(player.name): median \(Self.format(medianMillisecondsToFailure)) ms / \(Self.format(medianCases)) cases to a failure, "
        + "\(Self.format(medianMillisecondsToShrunk)) ms to a shrunk one of median length \(Self.format(medianShrunkLength)) "
        + "(minimal \(player.minimalLength); \(seedsAtMinimalLength)/\(seeds) seeds at it, "
        + "\(seedsWithinOneOfMinimal)/\(seeds) within one; \(missed) missed)"
    }

    static func format(_ value: Double) -> String { String((value * 100).rounded() / 100) }
  }

  /// Checked events per second against a subject (Playhead's `Player` by default), over `seconds`.
  /// - Parameters:
  ///   - subject: the player under test.
  ///   - seconds: how long to run.
  ///   - seed: the run's seed.
  /// - Returns: the run's result (``FuzzResult/eventsPerSecond`` is the figure).
  public static func throughput(
    _ subject: FuzzSubject = .player, seconds: Double, seed: UInt64 = 1
  ) -> FuzzResult {
    Fuzzer.run(subject, FuzzConfiguration(seed: seed, budget: .seconds(seconds)))
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
  /// - Returns: the medians over the seeds.
  public static func catching(
    _ subject: FuzzSubject, seeds: Int = 20, caseBudget: Int = 100_000
  ) -> SubjectFigures {
    var toFailure: [Double] = []
    var toShrunk: [Double] = []
    var cases: [Double] = []
    var lengths: [Int] = []
    var missed = 0
    for seed in 1...UInt64(max(1, seeds)) {
      let result = Fuzzer.run(subject, FuzzConfiguration(seed: seed, budget: .cases(caseBudget)))
      guard let failure = result.failure else {
        missed += 1
        continue
      }
      toFailure.append(result.seconds * 1000)
      toShrunk.append((result.seconds + result.shrinkSeconds) * 1000)
      cases.append(Double(result.cases))
      lengths.append(failure.actions.count)
    }
    let shortest = lengths.min()
    return SubjectFigures(
      subject: subject.name, seeds: max(1, seeds), missed: missed,
      medianMillisecondsToFailure: median(toFailure), medianMillisecondsToShrunk: median(toShrunk),
      medianCases: median(cases), medianShrunkLength: median(lengths.map(Double.init)),
      shortest: shortest, seedsAtShortest: lengths.filter { $0 == shortest }.count)
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
      var toFailure: [Double] = []
      var toShrunk: [Double] = []
      var cases: [Double] = []
      var lengths: [Double] = []
      var missed = 0
      var atMinimal = 0
      var withinOne = 0
      for seed in 1...UInt64(max(1, seeds)) {
        let result = Fuzzer.run(
          player.subject, FuzzConfiguration(seed: seed, budget: .cases(caseBudget)))
        guard let failure = result.failure else {
          missed += 1
          continue
        }
        toFailure.append(result.seconds * 1000)
        toShrunk.append((result.seconds + result.shrinkSeconds) * 1000)
        cases.append(Double(result.cases))
        lengths.append(Double(failure.actions.count))
        if failure.actions.count == player.minimalLength { atMinimal += 1 }
        if failure.actions.count <= player.minimalLength + 1 { withinOne += 1 }
      }
      return BugFigures(
        player: player, seeds: seeds, missed: missed,
        medianMillisecondsToFailure: median(toFailure),
        medianMillisecondsToShrunk: median(toShrunk), medianCases: median(cases),
        medianShrunkLength: median(lengths), seedsAtMinimalLength: atMinimal,
        seedsWithinOneOfMinimal: withinOne)
    }
  }

  /// Explores a subject (Playhead's `Player` by default) as deep as `seconds` allow.
  /// - Parameters:
  ///   - subject: the player under test.
  ///   - seconds: the time budget.
  ///   - maxDepth: the deepest level to explore.
  public static func exhaustive(
    _ subject: FuzzSubject = .player, seconds: Double = 10, maxDepth: Int = 64
  ) -> Exploration {
    Explorer.explore(subject, maxDepth: maxDepth, seconds: seconds)
  }

  static func median(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return .nan }
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
  }
}
