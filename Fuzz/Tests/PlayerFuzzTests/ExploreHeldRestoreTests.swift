import PlayerEngine
import PlayerFuzz
import PlayerState
import Testing

/// Restore letters while a report is held back: a relaunch drops the report with the old
/// engine; a hand-off leaves it for the old player, which it reaches at the next `deliver`
/// (and which must send its old engine nothing then), as in the random runs.
@Suite struct ExploreHeldRestoreTests {
  /// The core alphabet of the search's own tests with a relaunch and a hand-off (28
  /// letters), one class: no preload, retry off, threshold 0.
  static func core(held: Int = 1, features: FuzzFeatures = .all, depth: Int? = nil)
    -> ExplorationScope
  {
    var scope = ExplorationScope(
      entries: 1, held: held,
      configurations: [ExplorationConfiguration(canPreload: false, retry: .off, threshold: .zero)],
      features: features, maxDepth: depth)
    scope.coreAlphabet = true
    scope.coreRestore = true
    return scope
  }

  /// The planted bug is reachable only by a report held back across a hand-off: the shortest
  /// case holds one, hands off, then delivers it to the player handed off. (Until 2026-12-03
  /// the restore letters waited for a held report's delivery, so no scope reached it.)
  @Test func aLateReportThatRestartsThePlayerHandedOffIsFound() throws {
    let search = Explorer.explore(
      LateReportRestartsPlayer.subject, scope: Self.core(depth: 4))
    let failure = try #require(search.counterexample, "\(search)")
    #expect(failure.property == .nothingAfterStop)
    #expect(
      failure.actions.map(\.description) == [
        "play(A)", "later ready(item1#1)", "handoff", "deliver",
      ])
    #expect(search.results[0].merged && search.results[0].canonical)
    // Delivered before the hand-off, the report reaches the current player: nothing breaks.
    let delivered: [FuzzAction] = [
      .send(.play("A")), .later(.ready(Load(1, 1))), .deliver, .lifecycle(.handoff), .deliver,
    ]
    #expect(CaseRunner.check(LateReportRestartsPlayer.subject, delivered) == nil)
  }

  /// A proof with a report held across a relaunch or a hand-off: Playhead's `Player`, the
  /// core's letters within `restore` with a relaunch and a hand-off, one class, to a
  /// fixpoint, with every retired player's reports delivered right after its hand-off (the
  /// key keeps only how many wait). The same search stopped one level short has found every
  /// state, yet has not extended the last level's: it is not complete.
  @Test func aHeldReportAcrossAHandOffIsCompleteOnlyAtItsFixpoint() throws {
    let proof = Explorer.explore(.player, scope: Self.core(features: .restore))
    let result = try #require(proof.results.first)
    #expect(proof.complete, "\(proof)")
    #expect(proof.passed)
    #expect(result.fixpoint && result.unsound == nil)
    #expect(result.probes > 0)
    #expect(result.states == 1_579)
    #expect(result.distinctStates == 612)
    #expect(result.depth == 13)
    #expect(
      proof.verdict
        == "complete for queues ≤ 1, ≤ 1 held-back report, configurations {no preload} × "
        + "{retry off} × {threshold 0ms, watchdog 1000ms}, features restore")

    let short = Explorer.explore(.player, scope: Self.core(features: .restore, depth: 12))
    let cut = try #require(short.results.first)
    #expect(!short.complete)
    #expect(short.passed)
    #expect(!cut.fixpoint && cut.unsound == nil)
    #expect(cut.states == 1_579)
    #expect(cut.newAtLastLevel > 0)
    #expect(short.verdict.contains("no fixpoint"), "\(short.verdict)")
  }
}

/// Playhead's `Player` with a planted bug that only a late report after a hand-off reaches:
/// the player handed off takes any report of its old engine as a `resume`, and loads its
/// entry again on the engine it left.
final class LateReportRestartsPlayer: FuzzTarget {
  let inner: PlayerTarget
  private var handedOff = false

  init(_ inner: PlayerTarget) { self.inner = inner }

  static let subject = FuzzSubject(name: "LateReportRestarts") { engine in
    LateReportRestartsPlayer(PlayerTarget(FuzzEngine.player(for: engine)))
  }.restoring { engine, snapshot in
    let player = try? Player(
      engine: engine, restoring: snapshot, configuration: FuzzEngine.configuration(for: engine),
      watchdog: FuzzEngine.watchdog(for: engine))
    return player.map { LateReportRestartsPlayer(PlayerTarget($0)) }
  }

  func send(_ event: PlaybackEvent) {
    if handedOff, case .engine = event {
      inner.send(.user(.resume))
    } else {
      inner.send(event)
    }
  }

  var observation: FuzzObservation { inner.observation }

  var stateDescription: String { inner.stateDescription }

  var snapshot: AnyHashable? { inner.snapshot }

  var playbackSnapshot: PlaybackSnapshot? { inner.playbackSnapshot }

  func handOff(to engine: any PlaybackEngine) -> (any FuzzTarget)? {
    guard let next = inner.handOff(to: engine) as? PlayerTarget else { return nil }
    handedOff = true
    return LateReportRestartsPlayer(next)
  }
}
