import PlayerEngine
import PlayerFuzz
import PlayerState
import Testing

/// Issue 24, item 5: the contract's snapshot, restore and hand-off
/// (Oracle/ContractRestore.swift), checked against Playhead's player and the
/// catalog's restore bugs.
@Suite struct RestoreOracleTests {
  /// Each restore bug, the property that catches it, and the end of its shrunk case (seed 1).
  static let bugs: [(bug: BuggyPlayer.Bug, property: FuzzProperty, lines: [String])] = [
    // The first load after the relaunch is another entry's (after a play from a
    // time): it starts at the saved position.
    (.positionIntoWrongEntry, .savedPositionOnlyForItsEntry, ["relaunch", "play(A)"]),
    // The restored player loads before any intent.
    (.restoreAutoPlays, .restoreSendsNothing, ["play(A)", "relaunch"]),
    // The UI's resume and the restore's both load.
    (.uiPlayAndRestoreBothLoad, .resumeLoadsSavedPositionOnce, ["relaunch", "resume"]),
  ]

  @Test(arguments: bugs.indices)
  func eachRestoreBugIsCaughtByItsProperty(_ index: Int) throws {
    let (bug, property, lines) = Self.bugs[index]
    let failure = try CatalogBugChecks.caughtOnSeedOne(bug, by: property)
    #expect(FuzzCase(failure.actions).lines.suffix(lines.count) == lines, "\(failure.report)")
  }

  /// Hand-made cases through snapshots at every stage, relaunches and
  /// hand-offs, on Playhead's player: every step agrees with the contract.
  @Test(arguments: [
    // A relaunch mid-entry, then the saved position, once.
    "play(A, from 4000ms)\nready(A#1)\nposition(A#1, 5000ms)\nsnapshot\nrelaunch\nsnapshot\nresume\nsnapshot\nstop\nresume",
    // Right after next: the new entry at its start.
    "queue(A B)\nready(A#1)\nposition(A#1, 5000ms)\nnext\nsnapshot\nrelaunch\nresume",
    // The saved position is not another entry's.
    "queue(A B, from 4000ms)\nrelaunch\nnext\nresume\nready(B#1)",
    // An ended entry is saved at 0; a shuffled queue keeps its order.
    "queue(A B C)\nshuffle(seed 2)\nready(A#1)\nended(A#1)\nsnapshot\nrelaunch\nsnapshot\ntoggle",
    // A hand-off while playing, the old engine's late report to the old player.
    "queue(A B)\nready(A#1)\nlater ready(A#1)\nposition(A#1, 2000ms)\nhandoff\ndeliver\nready(A#1)",
    // A hand-off while paused: the new engine loads and stays paused.
    "play(A)\nready(A#1)\npause\nhandoff\nready(A#1)\nresume",
    // An empty player: nothing to restore or resume.
    "relaunch\nresume\nhandoff",
  ])
  func playheadsPlayerRestoresAsTheContractSays(_ text: String) throws {
    let actions = try FailureFile.parse(text)
    let (_, violation) = CaseRunner.replay(.player, actions)
    #expect(violation == nil, "\(violation.map(\.description) ?? "")")
  }

  /// The new actions' spellings parse back to what prints them.
  @Test func lifecycleLinesRoundTrip() throws {
    let lines = ["play(A)", "snapshot", "relaunch", "ready(A#1)", "handoff", "deliver"]
    let actions = try FailureFile.parse(lines.joined(separator: "\n"))
    #expect(actions[1] == .lifecycle(.snapshot))
    #expect(actions[2] == .lifecycle(.relaunch))
    #expect(actions[4] == .lifecycle(.handoff))
    #expect(FuzzCase(actions).lines == lines)
  }

  /// A player that cannot restore is sent no lifecycle action, and a saved
  /// one does nothing to it.
  @Test func aSubjectWithoutRestoreIsNotFailed() throws {
    let plain = FuzzSubject(
      name: "Plain",
      make: { engine in
        PlainTarget(player: Player(engine: engine, watchdog: FuzzEngine.watchdog(for: engine)))
      })
    let actions = try FailureFile.parse("play(A)\nrelaunch\nhandoff\nsnapshot\nready(A#1)")
    #expect(CaseRunner.replay(plain, actions).violation == nil)
  }
}

/// A player adapter that says nothing of snapshots.
private final class PlainTarget: FuzzTarget {
  let player: Player
  init(player: Player) { self.player = player }
  func send(_ event: PlaybackEvent) { player.send(event) }
  var observation: FuzzObservation { FuzzObservation(player.state) }
  var stateDescription: String { player.state.description }
}
