import PlayerFuzz
import PlayerState
import Testing

@Suite struct ExplorerTests {
  @Test func theRealPlayerHoldsAtEveryDepthAndReachesEveryDeclaredTransition() {
    let proof = Explorer.explore(.player, maxDepth: 12)
    #expect(proof.counterexample == nil, "\(proof)")
    #expect(proof.complete, "\(proof)")
    #expect(proof.unreached.isEmpty, "\(proof)")
    print(proof)
  }

  @Test func theShortestCounterexampleOfTheTwoBoolPlayerIsAReadyDuringStop() throws {
    let proof = Explorer.explore(BuggyPlayer(.twoBools).subject, maxDepth: 4)
    let failure = try #require(proof.counterexample)
    // Two steps: play, then stop while the engine reports ready from inside
    // the stop command: the seeds' hostile order, delivered re-entrantly.
    #expect(failure.actions.map(\.description) == ["play(A)", "reentrant ready(A#1)", "stop"])
    #expect(failure.property == .nothingAfterStop)
    #expect(proof.depth == 2)
  }

  @Test func withoutReentrancyTheShortestIsAReadyAfterPause() throws {
    let proof = Explorer.explore(BuggyPlayer(.pauseLostWhileBuffering).subject, maxDepth: 4)
    let failure = try #require(proof.counterexample)
    #expect(failure.actions.map(\.description) == ["play(A)", "pause", "ready(A#1)"])
    #expect(failure.property == .startOnlyWhenReadyAndWanted)
    #expect(proof.depth == 3)
  }
}
