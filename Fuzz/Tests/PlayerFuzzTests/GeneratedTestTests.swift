// Tests exactly as FuzzFailure.swiftTest printed them (seed 1, buggy players
// twoBools and reentrantProcessedRecursively), pasted unchanged: the generated
// code compiles, Playhead's Player passes it, and the test printed for a buggy
// player replays on that player and fails there. That last one's closing
// `#expect(failure == nil, …)` is replaced by an expectation of the failure, so
// that the suite's default run records no known issue (review 2026-12-06).
import PlayerEngine
import PlayerFuzz
import PlayerState
import PlayerTesting
import Testing

@Suite struct GeneratedTestTests {
  @Test func fuzz_startOnlyWhenReadyAndWanted_2() {
    // Found by PlayerFuzz (seed 1, case 0 (case seed 0x910a2dec89025cc1)): startOnlyWhenReadyAndWanted.
    let spy = SpyEngine()
    let player = Player(engine: spy)
    player.send(.queue(["A"], start: 0, playWhenReady: false))
    player.send(.ready(Load(1, 1)))
    #expect(spy.commandLog == ["load(A#1)"])
    #expect(player.state.kind == .paused)
    #expect(player.state.isPlaying == false)
  }

  @Test func fuzz_queueMatchesContract_2() throws {
    // Found by PlayerFuzz (seed 1, case 0 (case seed 0x910a2dec89025cc1)): queueMatchesContract.
    let fuzzCase = try FailureFile.parseCase(
      """
      engine preload=no
      reentrant position(A#1, 1000ms)
      play(A)
      """)
    let failure = Fuzzer.check(.player, fuzzCase)
    #expect(failure == nil, "\(failure?.report ?? "")")
  }

  @Test func fuzz_startOnlyWhenReadyAndWanted_2_onTwoBools() throws {
    // Found by PlayerFuzz in twoBools (seed 1, case 0 (case seed 0x910a2dec89025cc1)): startOnlyWhenReadyAndWanted.
    let fuzzCase = try FailureFile.parseCase(
      """
      engine preload=no
      queue(A, paused)
      ready(A#1)
      """)
    let failure = Fuzzer.check(BuggyPlayer(.twoBools).subject, fuzzCase)
    // As printed, the test ends `#expect(failure == nil, …)` and fails while the bug is
    // there: that is the point. Here the failure it would report is the expectation.
    #expect(failure?.property == .startOnlyWhenReadyAndWanted)
    #expect(failure?.actions.count == 2)
  }

  @Test func theGeneratedTestIsWhatWasPasted() throws {
    let result = Fuzzer.run(
      BuggyPlayer(.twoBools).subject,
      FuzzConfiguration(seed: 1, budget: .cases(100), preload: false))
    let failure = try #require(result.failure)
    #expect(failure.swiftTest.hasPrefix("@Test func fuzz_startOnlyWhenReadyAndWanted_2() throws {"))
    // The test replays on the subject that failed, not on Playhead's Player.
    #expect(
      failure.swiftTest.contains(
        "let failure = Fuzzer.check(BuggyPlayer(.twoBools).subject, fuzzCase)"))
    #expect(!failure.swiftTest.contains("Player(engine: spy)"))
    #expect(
      FailureFile.format(failure).contains(
        "# replay: Fuzzer.check(BuggyPlayer(.twoBools).subject, try FailureFile.parseCase(text))"))
  }

  @Test func playheadsPlayerGetsTheLiteralTest() throws {
    let fuzzCase = try FailureFile.parseCase("queue(A, paused)\nready(A#1)\n")
    let violation = try #require(
      CaseRunner.check(BuggyPlayer(.twoBools).subject, fuzzCase.actions))
    // The same failure, as if Playhead's Player had it: the literal SpyEngine form.
    let failure = FuzzFailure(
      subject: .player, origin: .given, original: fuzzCase.actions, actions: fuzzCase.actions,
      violation: violation, shrinkAttempts: 0, timeline: "")
    #expect(failure.swiftTest.contains("let player = Player(engine: spy)"))
    #expect(failure.swiftTest.contains("#expect(spy.commandLog == [\"load(A#1)\"])"))
  }

  @Test func aSubjectWithoutAnExpressionGetsAPlaceholder() throws {
    let mine = FuzzSubject(name: "Mine", make: BuggyPlayer(.twoBools).subject.make)
    let failure = try #require(
      Fuzzer.run(mine, FuzzConfiguration(seed: 1, budget: .cases(100))).failure)
    #expect(failure.swiftTest.contains("Fuzzer.check(<#FuzzSubject for Mine#>, fuzzCase)"))
  }
}
