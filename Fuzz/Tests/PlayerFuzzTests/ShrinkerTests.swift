import PlayerFuzz
import PlayerState
import Testing

@Suite struct ShrinkerTests {
  @Test func aLongCaseShrinksToTheSeedsHostileOrder() throws {
    let subject = BuggyPlayer(.twoBools).subject
    let actions = try FailureFile.parse(
      """
      play(B)
      seek(1000ms)
      later ready(B#1)
      resume
      play(A)
      stalled(A#2)
      stop
      resume
      deliver
      ready(A#2)
      """)
    let violation = try #require(CaseRunner.check(subject, actions))
    let outcome = Shrinker.shrink(subject, actions, violation: violation)
    #expect(outcome.actions.map(\.description) == ["play(A)", "stop", "ready(A#1)"])
    #expect(outcome.violation.property == .nothingAfterStop)
  }

  @Test func aPassingCaseHasNothingToShrink() {
    #expect(
      CaseRunner.check(.player, [.send(.play("A")), .send(.stop), .send(.ready(Load("A", 1)))])
        == nil)
  }
}
