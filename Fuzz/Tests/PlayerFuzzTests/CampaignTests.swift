import Dispatch
import Foundation
import PlayerEngine
import PlayerFuzz
import Testing

/// The long runs, for a person at a terminal. They do nothing under a plain `swift test`
/// (no budget set), so the package's test run stays fast. Fuzz/ci.sh runs the same
/// campaign in release through player-sim: `fuzz --seed S --budget 60000 --require-coverage`
/// (randomRunsWithFullCoverage), `explore --depth 3` (exhaustiveExploration) and
/// `fuzz --threads 4 --rounds 200 --seed S` (threadsAtOnce).
///
/// Environment: PLAYHEAD_FUZZ_BUDGET (seconds per seed), PLAYHEAD_FUZZ_CASES
/// (cases per seed instead of seconds: the same cases, so the same coverage,
/// on any machine; Fuzz/ci.sh sets it), PLAYHEAD_FUZZ_SEED
/// (first seed, default 1), PLAYHEAD_FUZZ_SEEDS (seeds run at once, default 1),
/// PLAYHEAD_FUZZ_DEPTH (exhaustive depth, default 3: the queue has no
/// fixpoint, each level multiplies the work by the alphabet), PLAYHEAD_FUZZ_CASE
/// (a case seed to replay alone, as printed by a failure), PLAYHEAD_FUZZ_CATALOG
/// (every buggy player on 20 seeds, each caught and shrunk to its minimal
/// length; use `swift test -c release`), PLAYHEAD_FUZZ_FIGURES (print the
/// published figures; use `swift test -c release`).
@Suite struct CampaignTests {
  static let environment = ProcessInfo.processInfo.environment
  static let budget = environment["PLAYHEAD_FUZZ_BUDGET"].flatMap(Double.init)
  static let cases = environment["PLAYHEAD_FUZZ_CASES"].flatMap { Int($0) }
  static let firstSeed = environment["PLAYHEAD_FUZZ_SEED"].flatMap { UInt64($0) } ?? 1
  static let seeds = environment["PLAYHEAD_FUZZ_SEEDS"].flatMap { Int($0) } ?? 1
  static let depth = environment["PLAYHEAD_FUZZ_DEPTH"].flatMap { Int($0) } ?? 3
  static let figures = environment["PLAYHEAD_FUZZ_FIGURES"] != nil
  static let catalog = environment["PLAYHEAD_FUZZ_CATALOG"] != nil
  static let caseSeed = environment["PLAYHEAD_FUZZ_CASE"].flatMap {
    UInt64($0.hasPrefix("0x") ? String($0.dropFirst(2)) : $0, radix: 16)
  }

  static func reproduce(seed: UInt64) -> String {
    let limit = cases.map { "PLAYHEAD_FUZZ_CASES=\($0) " } ?? ""
    return
      "PLAYHEAD_FUZZ_BUDGET=\(budget ?? 60) \(limit)PLAYHEAD_FUZZ_SEED=\(seed) swift test --filter PlayerFuzzTests.CampaignTests"
  }

  @Test(.enabled(if: budget != nil))
  func randomRunsWithFullCoverage() {
    let seconds = Self.budget ?? 0
    let results = Locked<[FuzzResult]>([])
    DispatchQueue.concurrentPerform(iterations: max(1, Self.seeds)) { index in
      let seed = Self.firstSeed + UInt64(index)
      let configuration = FuzzConfiguration(
        seed: seed, budget: Self.cases.map { .cases($0) } ?? .seconds(seconds),
        requireFullCoverage: true)
      let result = Fuzzer.run(.player, configuration)
      results.withLock { $0.append(result) }
    }
    for result in results.withLock({ $0 }).sorted(by: {
      $0.configuration.seed < $1.configuration.seed
    }) {
      print(result)
      if let failure = result.failure, case .random(_, _, let caseSeed) = failure.origin {
        print("reproduce the run:  \(Self.reproduce(seed: result.configuration.seed))")
        print(
          "replay the case:    PLAYHEAD_FUZZ_CASE=0x\(String(caseSeed, radix: 16)) swift test --filter PlayerFuzzTests.CampaignTests"
        )
      }
      #expect(
        result.passed,
        "seed \(result.configuration.seed) failed; reproduce: \(Self.reproduce(seed: result.configuration.seed))"
      )
    }
  }

  @Test(.enabled(if: budget != nil))
  func exhaustiveExploration() {
    let proof = Explorer.explore(.player, maxDepth: Self.depth)
    print(proof)
    #expect(
      proof.counterexample == nil,
      "reproduce: PLAYHEAD_FUZZ_BUDGET=1 PLAYHEAD_FUZZ_DEPTH=\(Self.depth) swift test --filter PlayerFuzzTests.CampaignTests/exhaustiveExploration"
    )
  }

  /// What `player-sim fuzz --threads 4 --rounds 200 --seed S` runs (Fuzz/ci.sh, in release).
  @Test(.enabled(if: budget != nil))
  func threadsAtOnce() {
    let result = ConcurrentFuzz.run(
      seed: Self.firstSeed, rounds: 200, threads: 4, eventsPerThread: 500)
    print(result)
    #expect(result.violation == nil)
  }

  @Test(.enabled(if: caseSeed != nil))
  func replayOneCase() {
    guard let caseSeed = Self.caseSeed else { return }
    let configuration = FuzzConfiguration(seed: Self.firstSeed)
    let (fuzzCase, violation) = Fuzzer.replayFuzzCase(.player, caseSeed: caseSeed, configuration)
    print(FailureFile.format(fuzzCase, comments: ["case seed 0x\(String(caseSeed, radix: 16))"]))
    if let violation {
      let outcome = Shrinker.shrink(
        .player, fuzzCase.actions, violation: violation, canPreload: fuzzCase.canPreload,
        retry: fuzzCase.retry)
      let failure = FuzzFailure(
        subject: FuzzSubject.player, origin: .given, original: fuzzCase.actions,
        actions: outcome.actions,
        violation: outcome.violation, shrinkAttempts: outcome.attempts,
        timeline: Fuzzer.timeline(
          .player,
          FuzzCase(outcome.actions, canPreload: fuzzCase.canPreload, retry: fuzzCase.retry)),
        canPreload: fuzzCase.canPreload, retry: fuzzCase.retry)
      Issue.record("\(failure.report)")
    }
  }

  /// Every buggy player, seeds 1 to 20: caught each time, shrunk to its
  /// known minimal length on every seed (docs/fuzzing.md). Run it in release mode;
  /// PLAYHEAD_FUZZ_PLAYER=name runs one player only,
  /// PLAYHEAD_FUZZ_CATALOG_SEEDS=N seeds 1…N (the same bounds, scaled). Each seed that stays
  /// above the minimum prints its shrunk case.
  @Test(.enabled(if: catalog))
  func everyBuggyPlayerOnTwentySeeds() {
    let only = Self.environment["PLAYHEAD_FUZZ_PLAYER"]
    let seeds = Self.environment["PLAYHEAD_FUZZ_CATALOG_SEEDS"].flatMap { Int($0) } ?? 20
    for player in BuggyPlayer.catalog where only == nil || only == player.name {
      let lengths = Locked<[UInt64: Int]>([:])
      let costs = Locked<
        [(find: Double, shrink: Double, attempts: Int, original: Int, cases: Int)]
      >([])
      let clock = ContinuousClock()
      let started = clock.now
      // One seed at a time, so that the times printed are not shared.
      for index in 0..<max(1, seeds) {
        let seed = UInt64(index + 1)
        let result = Fuzzer.run(
          player.subject, FuzzConfiguration(seed: seed, budget: .cases(100_000)))
        guard let failure = result.failure else { continue }
        lengths.withLock { $0[seed] = failure.actions.count }
        costs.withLock {
          $0.append(
            (
              result.seconds * 1000, result.shrinkSeconds * 1000, failure.shrinkAttempts,
              failure.original.count, result.cases
            ))
        }
        if failure.actions.count > player.minimalLength {
          let text = FailureFile.format(failure.fuzzCase, comments: [])
          print(
            "\(player.name) seed \(seed): \(failure.original.count) -> \(failure.actions.count)\n\(text)"
          )
        }
      }
      let found = lengths.withLock { $0 }
      let atMinimal = found.values.filter { $0 == player.minimalLength }.count
      let withinOne = found.values.filter { $0 <= player.minimalLength + 1 }.count
      // The shrunk length against the known minimum (issue 39): the most actions over it.
      let mostOver = found.values.map { $0 - player.minimalLength }.max() ?? 0
      print(
        "\(player.name): found \(found.count)/\(seeds), at minimal \(player.minimalLength) "
          + "\(atMinimal)/\(seeds), within one \(withinOne)/\(seeds), at most \(mostOver) over, "
          + "\(clock.now - started); medians: " + Self.medians(costs.withLock { $0 }))
      #expect(found.count == seeds, "\(player.name) missed seeds")
      #expect(atMinimal == seeds, "\(player.name): \(found.sorted { $0.key < $1.key })")
      #expect(withinOne == found.count, "\(player.name): \(found.sorted { $0.key < $1.key })")
    }
  }

  /// Every planted race (RacyPlayer), seeds 1 to 20: the concurrent mode
  /// finds each on every seed (issue 21, item 4), with two senders, within the
  /// CI campaign's first 80 rounds (500 events a sender, one a burst).
  /// Run it in release mode.
  @Test(.enabled(if: catalog))
  func everyPlantedRaceOnTwentySeeds() throws {
    for racy in RacyPlayer.catalog {
      var missed: [UInt64] = []
      var rounds: [Int] = []
      let clock = ContinuousClock()
      let started = clock.now
      for seed in UInt64(1)...20 {
        let result = try ConcurrentFuzz.run(racy.subject, seed: seed, rounds: 80, threads: 2)
        if let round = result.failedRound { rounds.append(round + 1) } else { missed.append(seed) }
      }
      print(
        "\(racy): found \(20 - missed.count)/20, rounds to find: \(rounds.sorted()), "
          + "\(clock.now - started)")
      #expect(missed.isEmpty, "\(racy) missed on seeds \(missed)")
    }
  }

  /// Median milliseconds to find and to shrink, shrink attempts and original length.
  static func medians(
    _ costs: [(find: Double, shrink: Double, attempts: Int, original: Int, cases: Int)]
  ) -> String {
    func median(_ values: [Double]) -> Double {
      guard !values.isEmpty else { return 0 }
      return values.sorted()[values.count / 2]
    }
    let find = median(costs.map(\.find))
    let shrink = median(costs.map(\.shrink))
    let attempts = median(costs.map { Double($0.attempts) })
    let original = median(costs.map { Double($0.original) })
    let cases = median(costs.map { Double($0.cases) })
    return "find \(find) ms (\(cases) cases), shrink \(shrink) ms, \(attempts) attempts, "
      + "original length \(original)"
  }

  /// A fixed amount of work against the real `Player` (PLAYHEAD_FUZZ_CASES
  /// cases of seed 1), for comparing the runner's cost under a profiler or
  /// `time`: a measurement, nothing is asserted about time.
  @Test(.enabled(if: environment["PLAYHEAD_FUZZ_CASES"] != nil))
  func fixedWorkAgainstThePlayer() {
    let cases = Self.environment["PLAYHEAD_FUZZ_CASES"].flatMap { Int($0) } ?? 100_000
    let result = Fuzzer.run(.player, FuzzConfiguration(seed: 1, budget: .cases(cases)))
    print(result)
    #expect(result.passed)
  }

  /// Prints the published figures (docs/fuzzing.md). A measurement, not a
  /// test: nothing is asserted about time. Run it in release mode.
  @Test(.enabled(if: figures))
  func printFigures() {
    print(FuzzMeasurement.throughput(seconds: 10))
    for row in FuzzMeasurement.buggyPlayers() { print(row) }
    print(FuzzMeasurement.exhaustive(seconds: 10))
  }
}
