import PlayerEngine
import PlayerFuzz
import PlayerState
import Testing

/// Every entry point takes the same features (review 2026-12-06, item 6): the depth-bounded
/// `Explorer.explore(_:maxDepth:…)` had none, so a player that implements only part of the
/// contract was flagged for letters it never claimed while `Fuzzer.run` with its features
/// passed.
@Suite struct BoundedFeaturesTests {
  /// Playhead's `Player` without the remote controls: `toggle`, `skip`, `setPosition` and every
  /// intent a remote control sends are dropped, as a player that does not implement them would.
  final class NoRemoteControls: FuzzTarget, Sendable {
    let player: Player

    init(engine: any PlaybackEngine) { player = FuzzEngine.player(for: engine) }

    func send(_ event: PlaybackEvent) {
      if event.source == .remote { return }
      switch event.kind {
      case .toggle, .skip, .setPosition: return
      default: player.send(event)
      }
    }

    var observation: FuzzObservation { FuzzObservation(player.state) }
    var stateDescription: String { player.state.description }
    var snapshot: AnyHashable? { player.state }
  }

  static let subject = FuzzSubject(
    name: "NoRemoteControls", swiftExpression: "BoundedFeaturesTests.subject"
  ) { engine in NoRemoteControls(engine: engine) }.reading(.all)

  static let features = FuzzFeatures.all.subtracting(.controls)

  @Test func theRandomRunPassesWithinItsFeatures() {
    let result = Fuzzer.run(
      Self.subject, FuzzConfiguration(seed: 1, budget: .cases(300), features: Self.features))
    #expect(result.passed, "\(result)")
  }

  @Test func theBoundedExplorerPassesWithinTheSameFeatures() {
    let exploration = Explorer.explore(Self.subject, maxDepth: 2, features: Self.features)
    #expect(exploration.counterexample == nil, "\(exploration)")
    #expect(exploration.depth == 2)
  }

  @Test func withoutTheFeaturesTheBoundedExplorerFlagsTheControls() throws {
    let exploration = Explorer.explore(Self.subject, maxDepth: 2)
    let failure = try #require(exploration.counterexample)
    // After play(A) the player buffers; the contract's toggle pauses it, this player drops it.
    #expect(failure.actions.map(\.description) == ["play(A)", "toggle"])
  }

  /// Without `.preload` the engine does not preload, and without `.network` the retry policy is
  /// off, as in the random runs: the one configuration is within the features.
  @Test func theConfigurationStaysWithinTheFeatures() {
    let core = Explorer.explore(.player, maxDepth: 1, features: .core)
    #expect(core.configuration.canPreload == false)
    #expect(core.configuration.retry == .off)
    let all = Explorer.explore(.player, maxDepth: 1)
    #expect(all.configuration.canPreload == true)
    #expect(all.configuration.retry == .standard)
  }
}
