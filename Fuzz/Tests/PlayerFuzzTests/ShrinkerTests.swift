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
      pause
      deliver
      ready(A#2)
      """)
    let violation = try #require(CaseRunner.check(subject, actions))
    let outcome = Shrinker.shrink(subject, actions, violation: violation)
    // The shortest: a queue that stays paused, and its ready.
    #expect(FuzzCase(outcome.actions).lines == ["queue(A, paused)", "ready(A#1)"])
    #expect(outcome.violation.property == .startOnlyWhenReadyAndWanted)
  }

  @Test func aReportIsReAimedAtTheLoadInTheSameRoleWhenEarlierLoadsGo() throws {
    // Two skips before the duplicated end: deleting them renumbers the
    // tokens, and the later reports follow their roles (current, left).
    let subject = BuggyPlayer(.advanceTwiceOnDuplicatedEnd).subject
    let actions = try FailureFile.parse(
      """
      queue(A B C)
      next
      previous
      ready(A#3)
      ended(A#3)
      ready(B#4)
      ended(A#3)
      """)
    let violation = try #require(CaseRunner.check(subject, actions))
    let outcome = Shrinker.shrink(subject, actions, violation: violation)
    // Media become A and the unused C goes: the tokens follow their roles.
    #expect(
      FuzzCase(outcome.actions).lines == [
        "queue(A A)", "ready(A#1)", "ended(A#1)", "ready(A#2)", "ended(A#1)",
      ])
    #expect(outcome.actions.count == BuggyPlayer(.advanceTwiceOnDuplicatedEnd).minimalLength)
  }

  @Test func aPassingCaseHasNothingToShrink() {
    #expect(
      CaseRunner.check(.player, [.send(.play("A")), .send(.stop), .send(.ready(Load(1, 1)))])
        == nil)
  }
}
