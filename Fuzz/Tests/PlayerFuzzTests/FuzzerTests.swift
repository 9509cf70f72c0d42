import PlayerEngine
import PlayerFuzz
import PlayerState
import Testing

@Suite struct FuzzerTests {
  @Test func theRealPlayerPassesAFixedSeed() {
    let result = Fuzzer.run(.player, FuzzConfiguration(seed: 1, budget: .cases(2_000)))
    #expect(result.passed, "\(result)")
    #expect(result.cases == 2_000)
    #expect(result.events > 20_000)
  }

  @Test func theSameSeedGivesTheSameRun() {
    let first = Fuzzer.run(.player, FuzzConfiguration(seed: 7, budget: .cases(200)))
    let second = Fuzzer.run(.player, FuzzConfiguration(seed: 7, budget: .cases(200)))
    #expect(first.events == second.events)
    #expect(first.coverage == second.coverage)
  }

  @Test func progressIsReportedEvery1024Cases() {
    var reports: [Int] = []
    let result = Fuzzer.run(.player, FuzzConfiguration(seed: 5, budget: .cases(3_000))) {
      reports.append($0.cases)
    }
    #expect(reports == [1024, 2048])
    #expect(result.cases == 3_000)
  }

  @Test func theHostileOrderOfTheSeedsPasses() {
    let actions: [FuzzAction] = [.send(.play("A")), .send(.stop), .send(.ready(Load(1, 1)))]
    let failure = Fuzzer.check(.player, actions)
    #expect(failure == nil, "\(failure?.report ?? "")")
  }

  @Test func bothEnginesAreDrawn() {
    let preload = Fuzzer.run(
      .player, FuzzConfiguration(seed: 3, budget: .cases(200), preload: true))
    let plain = Fuzzer.run(.player, FuzzConfiguration(seed: 3, budget: .cases(200), preload: false))
    #expect(preload.passed && plain.passed)
    // Only an engine that preloads reaches the preload's rows of the table.
    #expect(preload.coverage.exercisedCount > plain.coverage.exercisedCount)
  }

  /// Seed 1 of each player here; the catalog's 20 seeds run with
  /// PLAYHEAD_FUZZ_CATALOG=1 (CampaignTests) and in player-bench.
  @Test(arguments: BuggyPlayer.catalog)
  func everyBuggyPlayerIsCaughtAndShrunk(_ buggy: BuggyPlayer) throws {
    let result = Fuzzer.run(buggy.subject, FuzzConfiguration(seed: 1, budget: .cases(20_000)))
    let failure = try #require(result.failure, "\(buggy) was not caught")
    #expect(failure.actions.count == buggy.minimalLength, "\(failure.report)")
  }
}
