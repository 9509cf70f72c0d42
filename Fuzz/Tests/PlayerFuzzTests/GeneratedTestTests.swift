// Two tests exactly as FuzzFailure.swiftTest printed them (seed 1, buggy
// players twoBools and reentrantProcessedRecursively), pasted unchanged: the
// generated code compiles, and Playhead's Player passes it.
import PlayerEngine
import PlayerFuzz
import PlayerState
import PlayerTesting
import Testing

@Suite struct GeneratedTestTests {
  @Test func fuzz_startOnlyWhenReadyAndWanted_3() {
    // Found by PlayerFuzz (seed 1, case 4 (case seed 0xe87f6269c6a42db8)): startOnlyWhenReadyAndWanted.
    let spy = SpyEngine()
    let player = Player(engine: spy)
    player.send(.play("A"))
    player.send(.pause)
    player.send(.ready(Load("A", 1)))
    #expect(spy.commandLog == ["load(A#1)"])
    #expect(player.state.kind == .paused)
    #expect(player.state.isPlaying == false)
  }

  @Test func fuzz_commandsMatchContract_2() throws {
    // Found by PlayerFuzz (seed 1, case 7 (case seed 0xa7a9ab3e76afa2ee)): commandsMatchContract.
    let actions = try FailureFile.parse(
      """
      reentrant ready(A#1)
      play(A)
      """)
    let failure = Fuzzer.check(.player, actions)
    #expect(failure == nil, "\(failure?.report ?? "")")
  }

  @Test func theGeneratedTestIsWhatWasPasted() throws {
    let result = Fuzzer.run(
      BuggyPlayer(.twoBools).subject, FuzzConfiguration(seed: 1, budget: .cases(100)))
    let failure = try #require(result.failure)
    #expect(failure.swiftTest.contains("#expect(spy.commandLog == [\"load(A#1)\"])"))
    #expect(failure.swiftTest.hasPrefix("@Test func fuzz_startOnlyWhenReadyAndWanted_3() {"))
  }
}
