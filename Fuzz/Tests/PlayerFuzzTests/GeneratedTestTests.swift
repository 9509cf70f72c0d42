// Two tests exactly as FuzzFailure.swiftTest printed them (seed 1, buggy
// players twoBools and reentrantProcessedRecursively), pasted unchanged: the
// generated code compiles, and Playhead's Player passes it.
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

  @Test func theGeneratedTestIsWhatWasPasted() throws {
    let result = Fuzzer.run(
      BuggyPlayer(.twoBools).subject,
      FuzzConfiguration(seed: 1, budget: .cases(100), preload: false))
    let failure = try #require(result.failure)
    #expect(failure.swiftTest.contains("#expect(spy.commandLog == [\"load(A#1)\"])"))
    #expect(
      failure.swiftTest.contains("player.send(.queue([\"A\"], start: 0, playWhenReady: false))"))
    #expect(failure.swiftTest.hasPrefix("@Test func fuzz_startOnlyWhenReadyAndWanted_2() {"))
  }
}
