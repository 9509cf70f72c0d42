import MiniPlayer
import PlayerFuzz
import Testing

/// MiniPlayer through every mode of the harness, and its planted bug caught.
@Suite struct FuzzModesTests {
  @Test func randomRunsPass() {
    let result = Fuzzer.run(MiniSubjects.player, FuzzConfiguration(seed: 1, budget: .cases(3_000)))
    #expect(result.failure == nil, "\(result.failure?.report ?? "")")
    #expect(result.cases == 3_000)
  }

  @Test func explorationFindsNoCounterexample() {
    for canPreload in [false, true] {
      let proof = Explorer.explore(MiniSubjects.player, maxDepth: 2, canPreload: canPreload)
      #expect(proof.counterexample == nil, "\(proof)")
      #expect(proof.depth == 2)
    }
  }

  @Test func aGivenCasePasses() throws {
    let fuzzCase = try FailureFile.parseCase(
      """
      engine preload=yes
      queue(A B)
      ready(A#1)
      insert(C, at 2)
      ready(B#2)
      reentrant ready(C#3)
      later ended(A#1)
      deliver
      timeout(A#1, watchdog#1)
      """)
    #expect(Fuzzer.check(MiniSubjects.player, fuzzCase) == nil)
  }

  @Test func severalThreadsAtOnce() throws {
    let result = try ConcurrentFuzz.run(
      MiniSubjects.player, seed: 1, rounds: 10, threads: 4, eventsPerThread: 300)
    #expect(result.violation == nil, "\(result)")
    #expect(result.events == 12_000)
  }

  @Test func theLibFuzzerEntryTakesTheSubject() {
    // What a MiniPlayerFuzzer target's LLVMFuzzerTestOneInput would do with these bytes.
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    for _ in 0..<50 {
      var bytes = (0..<200).map { _ -> UInt8 in
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return UInt8(truncatingIfNeeded: state >> 56)
      }
      #expect(LibFuzzerEntry.testOneInput(MiniSubjects.player, &bytes, bytes.count) == 0)
    }
  }

  @Test func thePlantedBugIsCaughtOnEverySeed() {
    let figures = FuzzMeasurement.catching(MiniSubjects.buggy, seeds: 5, caseBudget: 20_000)
    #expect(figures.missed == 0, "\(figures)")
    // ready(A#2) after play(A): a report about a load never issued.
    #expect(figures.shortest == 2, "\(figures)")
  }

  @Test func thePrintedTestNamesThePlayerThatFailed() throws {
    let result = Fuzzer.run(MiniSubjects.buggy, FuzzConfiguration(seed: 1, budget: .cases(20_000)))
    let failure = try #require(result.failure)
    #expect(failure.subject == "MiniPlayer(unknownIdMeansCurrent)")
    #expect(failure.swiftTest.contains("let failure = Fuzzer.check(MiniSubjects.buggy, fuzzCase)"))
    #expect(
      FailureFile.format(failure).contains(
        "# replay: Fuzzer.check(MiniSubjects.buggy, try FailureFile.parseCase(text))"))
    // The saved case fails on the buggy player and passes on the correct one.
    let saved = try FailureFile.parseCase(FailureFile.format(failure))
    #expect(Fuzzer.check(MiniSubjects.buggy, saved) != nil)
    #expect(Fuzzer.check(MiniSubjects.player, saved) == nil)
  }

  @Test func fuzz_noCommandForIgnoredReport_2() throws {
    // Pasted as FuzzFailure.swiftTest printed it for MiniSubjects.buggy (seed 1, case 4);
    // only `withKnownIssue` is added: the test fails while the bug is there.
    let fuzzCase = try FailureFile.parseCase(
      """
      engine preload=no
      play(A)
      timeout(item5#6, watchdog#1)
      """)
    let failure = Fuzzer.check(MiniSubjects.buggy, fuzzCase)
    withKnownIssue { #expect(failure == nil, "\(failure?.report ?? "")") }
    // The same case on the correct player passes.
    #expect(Fuzzer.check(MiniSubjects.player, fuzzCase) == nil)
  }
}
