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
      later ready(A#2)
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
    // (The duplicate applied to B#2 is ignored for the wrong reason while B#2
    // buffers: since issue 21 the reasons are compared, so its ready goes.)
    #expect(
      FuzzCase(outcome.actions).lines == ["queue(A A)", "ready(A#1)", "ended(A#1)", "ended(A#1)"])
    #expect(outcome.actions.count == BuggyPlayer(.advanceTwiceOnDuplicatedEnd).minimalLength)
  }

  @Test func aCaseLongerThanTenActionsStillShrinksToTheMinimum() throws {
    // Fourteen actions: skips and a seek before the duplicated end, which
    // deleting renumbers; delete-and-repair runs at any length.
    let subject = BuggyPlayer(.advanceTwiceOnDuplicatedEnd).subject
    let actions = try FailureFile.parse(
      """
      queue(A B C)
      pause
      next
      previous
      resume
      seek(1000ms)
      ready(A#3)
      seeked(A#3, seek#1)
      stalled(A#3)
      resumed(A#3)
      ended(A#3)
      ready(B#4)
      position(B#4, 5000ms)
      ended(A#3)
      """)
    #expect(actions.count == 14)
    let violation = try #require(CaseRunner.check(subject, actions))
    let outcome = Shrinker.shrink(subject, actions, violation: violation)
    #expect(
      FuzzCase(outcome.actions).lines == ["queue(A A)", "ready(A#1)", "ended(A#1)", "ended(A#1)"])
  }

  @Test func aReentrantReportIsSentDirectlyAfterTheCommandThatFiresIt() throws {
    // The stale stall is armed before the pause whose command fires it.
    let subject = BuggyPlayer(.staleStallOrEndAccepted).subject
    let actions = try FailureFile.parse(
      """
      play(A)
      ready(A#1)
      reentrant stalled(A#2)
      pause
      """)
    let violation = try #require(CaseRunner.check(subject, actions))
    let outcome = Shrinker.shrink(subject, actions, violation: violation)
    // Sent directly, the stale stall is ignored for the wrong reason even
    // while A#1 buffers (issue 21 compares the reasons): its ready goes too.
    #expect(FuzzCase(outcome.actions).lines == ["play(A)", "stalled(A#2)"])
  }

  @Test func aHeldBackReportGoesWhereItIsDelivered() throws {
    let subject = BuggyPlayer(.ignoresIdentity).subject
    let actions = try FailureFile.parse(
      """
      play(A)
      later ready(A#2)
      pause
      deliver
      """)
    let violation = try #require(CaseRunner.check(subject, actions))
    let outcome = Shrinker.shrink(subject, actions, violation: violation)
    #expect(FuzzCase(outcome.actions).lines == ["play(A)", "ready(A#2)"])
  }

  /// Three cases the catalog's seeds 1...200 left above the minimum before
  /// the passes that fix them (the seed in each comment).
  @Test(arguments: [
    // reentrantProcessedRecursively seed 23: the re-entrant report armed earlier.
    (
      BuggyPlayer.Bug.reentrantProcessedRecursively,
      "queue(A A, paused)\nready(A#1)\nreentrant ended(A#1)\nended(A#1)",
      // (Since issue 21 the recursive end's wrong reason shows: it stays an end.)
      ["reentrant ended(A#1)", "play(A)"]
    ),
    // droppedPreloadReportAccepted seed 169: a failure and an end become one edit.
    (
      .droppedPreloadReportAccepted,
      "engine preload=yes\nqueue(A A A)\nready(A#1)\nfailed(A#2, network)\nended(A#1)\nready(A#3)\nready(A#2)",
      ["queue(A A)", "ready(A#1)", "insert(A, at 2)", "ready(A#2)"]
    ),
    // shuffleNotReplayable seed 38: two edits of an empty queue become one append.
    (
      .shuffleNotReplayable, "insert(C A, at 1)\ninsert(A, at 1)\nshuffle(seed 1)",
      ["append(A C A)", "shuffle(seed 1)"]
    ),
  ])
  func aCaseOnceStuckAboveTheMinimumReachesIt(
    _ bug: BuggyPlayer.Bug, _ text: String, _ expected: [String]
  ) throws {
    let buggy = BuggyPlayer(bug)
    let fuzzCase = try FailureFile.parseCase(text)
    let violation = try #require(
      CaseRunner.check(buggy.subject, fuzzCase.actions, canPreload: fuzzCase.canPreload))
    let outcome = Shrinker.shrink(
      buggy.subject, fuzzCase.actions, violation: violation, canPreload: fuzzCase.canPreload)
    #expect(FuzzCase(outcome.actions, canPreload: fuzzCase.canPreload).lines == expected)
    #expect(outcome.actions.count == buggy.minimalLength)
  }

  @Test func aReportAndASystemEventBecomeOneIntent() throws {
    // systemPauseKeptAcrossItems seed 4 stopped here, one above the minimum:
    // the failure and the network's return load A again, a second load after
    // the system pause. No pass replaced two adjacent actions by one intent;
    // now `play(B)` takes their place (the ready after it re-aimed at B#2),
    // and the same-length rewrites then say it `play(B, from 5000ms)`, then
    // with one media, `play(A, from 5000ms)`.
    let buggy = BuggyPlayer(.systemPauseKeptAcrossItems)
    let fuzzCase = try FailureFile.parseCase(
      """
      engine preload=yes retry=2/500ms/800ms
      play(A)
      ready(A#1)
      pausedBySystem(A#1)
      failed(A#1, network)
      network available
      ready(A#2)
      """)
    let violation = try #require(
      CaseRunner.check(
        buggy.subject, fuzzCase.actions, canPreload: fuzzCase.canPreload, retry: fuzzCase.retry))
    let outcome = Shrinker.shrink(
      buggy.subject, fuzzCase.actions, violation: violation, canPreload: fuzzCase.canPreload,
      retry: fuzzCase.retry)
    // (Since issue 21 the new load's system pause shows in the state at once:
    // B's ready is no longer needed.)
    #expect(
      FuzzCase(outcome.actions, canPreload: true).lines == [
        "play(A)", "ready(A#1)", "pausedBySystem(A#1)", "play(B)",
      ])
    #expect(outcome.actions.count == buggy.minimalLength)
  }

  @Test func shrinkingStopsWhenItsTimeIsSpent() throws {
    let subject = BuggyPlayer(.stopNotSent).subject
    let actions: [FuzzAction] = [.send(.play("A")), .send(.pause), .send(.stop)]
    let violation = try #require(CaseRunner.check(subject, actions))
    let outcome = Shrinker.shrink(subject, actions, violation: violation, seconds: 0)
    #expect(outcome.actions == actions)
    #expect(outcome.attempts == 0)
  }

  @Test func aPassingCaseHasNothingToShrink() {
    #expect(
      CaseRunner.check(.player, [.send(.play("A")), .send(.stop), .send(.ready(Load(1, 1)))])
        == nil)
  }
}
