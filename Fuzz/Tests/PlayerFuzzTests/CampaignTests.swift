import Dispatch
import Foundation
import PlayerEngine
import PlayerFuzz
import Testing

/// The long runs Fuzz/ci.sh starts. They do nothing under a plain `swift test`
/// (no budget set), so the package's test run stays fast.
///
/// Environment: PLAYHEAD_FUZZ_BUDGET (seconds per seed), PLAYHEAD_FUZZ_SEED
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
  static let firstSeed = environment["PLAYHEAD_FUZZ_SEED"].flatMap { UInt64($0) } ?? 1
  static let seeds = environment["PLAYHEAD_FUZZ_SEEDS"].flatMap { Int($0) } ?? 1
  static let depth = environment["PLAYHEAD_FUZZ_DEPTH"].flatMap { Int($0) } ?? 3
  static let figures = environment["PLAYHEAD_FUZZ_FIGURES"] != nil
  static let catalog = environment["PLAYHEAD_FUZZ_CATALOG"] != nil
  static let caseSeed = environment["PLAYHEAD_FUZZ_CASE"].flatMap {
    UInt64($0.hasPrefix("0x") ? String($0.dropFirst(2)) : $0, radix: 16)
  }

  static func reproduce(seed: UInt64) -> String {
    "PLAYHEAD_FUZZ_BUDGET=\(budget ?? 60) PLAYHEAD_FUZZ_SEED=\(seed) swift test --filter PlayerFuzzTests.CampaignTests"
  }

  @Test(.enabled(if: budget != nil))
  func randomRunsWithFullCoverage() {
    let seconds = Self.budget ?? 0
    let results = Locked<[FuzzResult]>([])
    DispatchQueue.concurrentPerform(iterations: max(1, Self.seeds)) { index in
      let seed = Self.firstSeed + UInt64(index)
      let configuration = FuzzConfiguration(
        seed: seed, budget: .seconds(seconds), requireFullCoverage: true)
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
        .player, fuzzCase.actions, violation: violation, canPreload: fuzzCase.canPreload)
      let failure = FuzzFailure(
        subject: FuzzSubject.player, origin: .given, original: fuzzCase.actions,
        actions: outcome.actions,
        violation: outcome.violation, shrinkAttempts: outcome.attempts,
        timeline: Fuzzer.timeline(
          .player, FuzzCase(outcome.actions, canPreload: fuzzCase.canPreload)),
        canPreload: fuzzCase.canPreload)
      Issue.record("\(failure.report)")
    }
  }

  /// Every buggy player, seeds 1 to 20: caught each time, and shrunk to its
  /// known minimal length each time (docs/fuzzing.md). Run it in release mode.
  @Test(.enabled(if: catalog))
  func everyBuggyPlayerOnTwentySeeds() {
    for row in FuzzMeasurement.buggyPlayers(seeds: 20) {
      print(row)
      #expect(row.missed == 0, "\(row)")
      #expect(row.seedsAtMinimalLength == 20, "\(row)")
    }
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
