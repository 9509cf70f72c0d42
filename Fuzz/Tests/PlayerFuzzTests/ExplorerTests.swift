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

  @Test func theShortestCounterexampleOfTheTwoBoolPlayerIsALateReady() throws {
    let proof = Explorer.explore(BuggyPlayer(.twoBools).subject, maxDepth: 4)
    let failure = try #require(proof.counterexample)
    // Breadth-first, in alphabet order: pause comes before stop.
    #expect(failure.actions.map(\.description) == ["play(A)", "pause", "ready(A#1)"])
    #expect(failure.property == .startOnlyWhenReadyAndWanted)
    #expect(proof.depth == 3)
  }
}
