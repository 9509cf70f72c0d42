import PlayerEngine
import PlayerFuzz
import PlayerState
import Testing

@Suite struct ExplorerTests {
  @Test func theRealPlayerHoldsForEveryTwoLetterSequenceAndTheSearchIsBounded() {
    for canPreload in [true, false] {
      let proof = Explorer.explore(.player, maxDepth: 2, canPreload: canPreload)
      #expect(proof.counterexample == nil, "\(proof)")
      #expect(proof.depth == 2)
      // Player vouches for its whole state: states are merged on it.
      #expect(proof.merged)
      // The queue has no fixpoint at useful depths: the result must not claim one.
      #expect(!proof.complete)
      #expect(proof.newAtLastLevel > 0)
      #expect(proof.description.contains("bounded at depth 2: level 2 still found"), "\(proof)")
      // No counterexample up to the depth: passed, though not a proof.
      #expect(proof.passed)
    }
  }

  @Test func theAlphabetHoldsEveryFailureReasonBurstsAndHeldReports() {
    // For queues of at most 3 entries: a queue letter per length, times at
    // every threshold boundary, every identity variant, failure reason,
    // burst and held report, the remote controls, the sleep timer and restore.
    #expect(Explorer.alphabetSize == 190)
    #expect(Explorer.maxHeld == 2)
    // Depth 1 from idle, on an engine that preloads: the letters that apply
    // there and resolve to distinct actions; with volume's seven letters (`volume(0.5)`,
    // `volume(1)`, `volume(1.5)`, `mute`, `unmute`, `duck`, `unduck`) since issue 37: 73 before.
    let proof = Explorer.explore(.player, maxDepth: 1)
    #expect(proof.sequences == 80)
    #expect(proof.coverage.hits(.idle, .failed, .upcoming) == 1)
  }

  @Test func aPlayerWithoutASnapshotIsNeverMergedNorComplete() throws {
    let proof = Explorer.explore(HiddenFlagPlayer.subject(.none), maxDepth: 2)
    #expect(!proof.merged)
    #expect(!proof.complete)
    #expect(proof.description.contains("exposes no snapshot"), "\(proof)")
    // Nothing merged: the stop that changed nothing visible is still extended,
    // and the play after it finds the hidden bug.
    let failure = try #require(proof.counterexample)
    #expect(failure.actions.map(\.description) == ["stop", "play(A)"])
    #expect(proof.depth == 2)
  }

  @Test func aSnapshotWithTheWholeStateFindsTheHiddenBug() throws {
    let proof = Explorer.explore(HiddenFlagPlayer.subject(.whole), maxDepth: 2)
    #expect(proof.merged)
    let failure = try #require(proof.counterexample)
    #expect(failure.actions.map(\.description) == ["stop", "play(A)"])
  }

  @Test func aSnapshotThatLeavesStateOutIsCaughtWhereItsIgnoredEventsLoop() throws {
    // This snapshot leaves the flag out, so `stop` from idle looks like no
    // step at all: it leads back to the start. The letters that loop back
    // are sent in a row and that concrete state is compared with the start
    // on every letter, where `play` breaks a property.
    let proof = Explorer.explore(HiddenFlagPlayer.subject(.partial), maxDepth: 2)
    #expect(proof.merged)
    #expect(!proof.complete && !proof.passed)
    let unsound = try #require(proof.unsound)
    #expect(
      unsound.hasPrefix("two paths reach the same canonical state, (the start) and queue(), "),
      "\(unsound)")
    #expect(unsound.contains(", stop, "), "\(unsound)")
    #expect(unsound.hasSuffix(", yet play(A) breaks a property"), "\(unsound)")
    #expect(proof.counterexample?.property == .commandsMatchContract)
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
    #expect(!proof.merged)
  }

  @Test func withoutReentrancyTheShortestIsAPauseWhileBuffering() throws {
    // Since issue 21 the whole public state is compared: the lost pause shows
    // in `playWhenReady` at once, before the ready that then starts playback.
    let proof = Explorer.explore(BuggyPlayer(.pauseLostWhileBuffering).subject, maxDepth: 4)
    let failure = try #require(proof.counterexample)
    #expect(failure.actions.map(\.description) == ["play(A)", "pause"])
    #expect(failure.property == .stateMatchesContract)
    #expect(proof.depth == 2)
  }
}

/// Playhead's `Player` with a planted bug behind state it does not report:
/// a `stop` while idle (which the contract ignores) sets a hidden flag, and
/// the next `play` is then dropped. It says nothing about a pending seek, as
/// the README allows.
final class HiddenFlagPlayer: FuzzTarget {
  enum Snapshot { case none, partial, whole }

  let player: Player
  let kind: Snapshot
  var stoppedWhileIdle = false

  init(_ engine: any PlaybackEngine, _ kind: Snapshot) {
    player = Player(
      engine: engine, state: .fuzzed(by: engine), watchdog: FuzzEngine.watchdog(for: engine))
    self.kind = kind
  }

  static func subject(_ kind: Snapshot) -> FuzzSubject {
    FuzzSubject(name: "HiddenFlag") { HiddenFlagPlayer($0, kind) }
  }

  func send(_ event: PlaybackEvent) {
    if event == .stop, player.state.kind == .idle { stoppedWhileIdle = true }
    if stoppedWhileIdle, case .user(.play) = event {
      stoppedWhileIdle = false
      return
    }
    player.send(event)
  }

  var observation: FuzzObservation {
    var seen = FuzzObservation(player.state)
    seen.seekPending = nil
    return seen
  }

  var stateDescription: String { player.state.description }

  var snapshot: AnyHashable? {
    switch kind {
    case .none: nil
    case .partial: player.state
    case .whole: [AnyHashable(player.state), AnyHashable(stoppedWhileIdle)]
    }
  }
}

/// A driver mistake around a switch: the engine adapter drops a report that
/// names a load it has not been told to load yet. An engine that answers a
/// new load at once sends `ready(B#2)` from inside `stop(A#1)`, the first
/// command of the switch, before `load(B#2)`: the shortest case is 3 steps,
/// `play(A)`, `reentrant ready(B#2)`, `play(B)`, reachable only because the
/// harness names the load the next intent will create.
final class EarlyReportDroppingEngine: PlaybackEngine {
  let inner: any PlaybackEngine
  let loaded = Locked(Set<Load>())

  init(_ inner: any PlaybackEngine) { self.inner = inner }

  var capabilities: EngineCapabilities { inner.capabilities }

  func execute(_ command: EngineCommand, reports: ReportSink) {
    switch command {
    case .load(let request), .preload(let request):
      loaded.withLock { _ = $0.insert(request.load) }
    default: break
    }
    let loaded = self.loaded
    inner.execute(
      command,
      reports: ReportSink { report in
        if loaded.withLock({ $0.contains(report.load) }) { reports.send(report) }
      })
  }

  static let subject = FuzzSubject(name: "EarlyReportDropping") { engine in
    PlayerTarget(
      Player(
        engine: EarlyReportDroppingEngine(engine), state: .fuzzed(by: engine),
        watchdog: FuzzEngine.watchdog(for: engine)))
  }
}

@Suite struct SwitchOrderingTests {
  @Test func theExplorerFindsTheEarlyReportInTwoLetters() throws {
    let proof = Explorer.explore(EarlyReportDroppingEngine.subject, maxDepth: 3)
    let failure = try #require(proof.counterexample)
    #expect(proof.depth == 2)
    #expect(
      FuzzCase(failure.actions, canPreload: true).lines == [
        "play(A)", "reentrant ready(B#2)", "play(B)",
      ])
  }

  @Test func threeStepsSufficeAndTheRandomRunsFindIt() throws {
    let subject = EarlyReportDroppingEngine.subject
    let minimal: [FuzzAction] = [
      .send(.play("A")), .reentrant(.ready(Load(2, 2))), .send(.play("B")),
    ]
    #expect(CaseRunner.check(subject, minimal)?.property == .commandsMatchContract)
    #expect(CaseRunner.check(.player, minimal) == nil)
    let result = Fuzzer.run(subject, FuzzConfiguration(seed: 1, budget: .cases(5000)))
    let failure = try #require(result.failure)
    // 188 since issue 22: the alphabet has the remote-control intents, and a
    // quarter of the intents come from a remote control (253 before).
    #expect(result.cases == 188)
    // Shrunk to `queue(A A)`, `ready(A#1)`, `reentrant ready(A#2)`, `ended(A#1)`:
    // replacing the advance by an intent is the shrinker's part (issue 11, item 3).
    #expect(failure.actions.count <= 4, "\(failure.report)")
  }
}
