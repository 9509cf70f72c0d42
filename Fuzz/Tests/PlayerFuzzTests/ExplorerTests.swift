import PlayerFuzz
import PlayerState
import Testing

@Suite struct ExplorerTests {
  @Test func theRealPlayerHoldsForEveryTwoLetterSequenceAndSaysTheSearchIsNotComplete() {
    for canPreload in [true, false] {
      let proof = Explorer.explore(.player, maxDepth: 2, canPreload: canPreload)
      #expect(proof.counterexample == nil, "\(proof)")
      #expect(proof.depth == 2)
      // The queue has no fixpoint at useful depths: the result must not claim one.
      #expect(!proof.complete)
      #expect(proof.newAtLastLevel > 0)
      #expect(proof.description.contains("NOT complete"), "\(proof)")
      // No counterexample up to the depth: passed, though not a proof.
      #expect(proof.passed)
    }
  }

  @Test func theTwoBoolPlayerFailsInOneLetterWhenTheEngineAnswersTheLoadAtOnce() throws {
    let proof = Explorer.explore(BuggyPlayer(.twoBools).subject, maxDepth: 4)
    let failure = try #require(proof.counterexample)
    // The engine answers the first load with ready from inside `execute`:
    // the two-Bool player starts at once and forgets the preload.
    #expect(
      FuzzCase(failure.actions, canPreload: true).lines == ["reentrant ready(A#1)", "queue(A B C)"])
    #expect(failure.property == .commandsMatchContract)
    #expect(proof.depth == 1)
  }

  @Test func withoutReentrancyTheShortestIsAReadyAfterPause() throws {
    let proof = Explorer.explore(BuggyPlayer(.pauseLostWhileBuffering).subject, maxDepth: 4)
    let failure = try #require(proof.counterexample)
    #expect(failure.actions.map(\.description) == ["play(A)", "pause", "ready(item1#1)"])
    #expect(failure.property == .startOnlyWhenReadyAndWanted)
    #expect(proof.depth == 3)
  }
}
