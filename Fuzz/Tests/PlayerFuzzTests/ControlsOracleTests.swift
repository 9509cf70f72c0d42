import PlayerEngine
import PlayerFuzz
import PlayerState
import Testing

/// Issue 22, item 4: the model's now playing, available commands and
/// notifications, checked against Playhead's player and the catalog's bugs.
@Suite struct ControlsOracleTests {
  /// Each remote-control bug, the property that catches it, and its shrunk case (seed 1;
  /// since issue 24's relaunches and sleep timers the seed draws other cases, of the same lengths).
  static let bugs: [(bug: BuggyPlayer.Bug, property: FuzzProperty, lines: [String])] = [
    // The state is still ended after the end: a level-triggered driver notifies again,
    // even for an event the contract ignores.
    (
      .queueEndedTwice, .noNotificationForIgnoredEvent,
      ["queue(A A, start 2)", "ready(A#1)", "ended(A#1)", "interrupt end resume"]
    ),
    // A seek inside the entry: no entry change.
    (.entryChangedOnSeek, .notificationsMatchContract, ["play(A)", "seek(0ms)"]),
    (.rateWhileBuffering, .publishedRateOnlyWhilePlaying, ["play(A)"]),
    // The skip seeks from the last completed position (0), not the pending seek's target.
    (
      .skipFromStaleTime, .commandsMatchContract,
      ["play(A)", "seek(2999ms)", "skip(+15000ms)"]
    ),
    // Buffering with the intent to play: the button must pause.
    (.toggleReadsIsPlaying, .stateMatchesContract, ["play(A)", "toggle"]),
    // A position report while buffering: the anchor stays at the load's start.
    (
      .elapsedFromLastReport, .elapsedAnchorAtDiscontinuities,
      ["play(A)", "position(A#1, 10001ms)"]
    ),
    // At the last entry with repeat off, next does nothing: not offered.
    (.nextOfferedAtLastEntry, .availableCommandsMatchContract, ["queue(A A, start 2)"]),
  ]

  @Test(arguments: bugs.indices)
  func eachRemoteControlBugIsCaughtByItsProperty(_ index: Int) throws {
    let (bug, property, lines) = Self.bugs[index]
    let failure = try CatalogBugChecks.caughtOnSeedOne(bug, by: property)
    #expect(FuzzCase(failure.actions).lines == lines, "\(failure.report)")
  }

  /// Hand-made cases through every notification reason and source, on
  /// Playhead's player: a replay compares each step's notifications.
  @Test(arguments: [
    // auto, then queueEnded; the intent stays.
    "queue(A B)\nready(A#1)\nended(A#1)\nready(B#2)\nended(B#2)",
    // repeat: from == to.
    "play(A)\nrepeat(one)\nready(A#1)\nended(A#1)",
    // skip, removed, queue, clear.
    "queue(A B C)\nnext\nremove(2)\nplay(D)\nclear",
    // The same media twice: two entries, a change.
    "queue(A A)\nnext\nprevious",
    // user, remote, routeLost, interruption.
    "play(A)\nready(A#1)\nremote(toggle)\nremote(toggle)\nroute lost\nresume\ninterrupt begin\ninterrupt end",
    // Skips pile up from the pending target; a SetPosition of an entry no longer current.
    "queue(A B)\nready(A#1, duration 60000ms)\nremote(skip(+15000ms))\nskip(+15000ms)\nskip(-60000ms)\nremote(setPosition(A item1, 1000ms))\nnext\nsetPosition(A item1, 1000ms)",
    // Ignored events notify nothing: a stale end, a duplicate end.
    "play(A)\nready(A#1)\nended(A#1)\nended(A#1)\nplay(B)\nended(A#1)",
  ])
  func playheadsPlayerNotifiesAsTheContractSays(_ text: String) throws {
    let actions = try FailureFile.parse(text)
    let (runner, violation) = CaseRunner.replay(.player, actions)
    #expect(violation == nil, "\(violation.map(\.description) ?? "")")
    // Everything was compared: now playing, the commands, the notifications.
    #expect(!runner.notCompared.contains(.notifications))
    #expect(!runner.notCompared.contains(.nowPlaying))
    #expect(!runner.notCompared.contains(.availableCommands))
  }

  /// The remote-control spellings parse back to what prints them.
  @Test func remoteControlLinesRoundTrip() throws {
    let lines = [
      "toggle", "skip(+15000ms)", "skip(-10000ms)", "setPosition(item3, 1000ms)",
      "remote(toggle)", "remote(next)", "remote(seek(1000ms))", "remote(skip(+5000ms))",
    ]
    let actions = try FailureFile.parse(lines.joined(separator: "\n"))
    #expect(FuzzCase(actions).lines == lines)
  }

  /// The model's elapsed anchor: set at the load's start, at a seek issued
  /// and at each change of the published rate; a position report leaves it.
  @Test func theAnchorMovesOnlyAtDiscontinuities() throws {
    let actions = try FailureFile.parse(
      "play(A, from 2000ms)\nready(A#1)\nposition(A#1, 5000ms)\npause\nseek(9000ms)\nposition(A#1, 9500ms)"
    )
    var runner = CaseRunner(.player)
    var anchors: [Int64] = []
    for action in actions {
      #expect(runner.perform(action) == nil)
      anchors.append(runner.anchor.value)
    }
    // load at 2 s; start (rate 0 -> 1x) at 2 s; a report: kept; pause at 5 s; seek 9 s; kept.
    #expect(anchors == [2000, 2000, 2000, 5000, 9000, 9000])
  }
}
