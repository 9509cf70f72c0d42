import PlayerEngine
import PlayerFuzz
import PlayerState
import Testing

/// The *Fuzzing your own player* article's wrapper (review 2026-12-06, item 7): an app's layer
/// over Playhead's `Player` is fuzzed only where the target routes events through it. Routed,
/// a read-then-act `toggle` is caught and shrunk to two actions; forwarded straight to
/// `player.send`, the same wrapper passes, because only Playhead was tested.
@Suite struct WrapperRoutingTests {
  /// The app's own layer, with a planted read-then-act bug: it reads `isPlaying` and acts on
  /// it, where the machine's `toggle` decides from the whole state (a tap while buffering
  /// pauses).
  final class AudioController: Sendable {
    let player: Player
    init(player: Player) { self.player = player }

    func toggle() {
      if player.state.isPlaying { player.send(.pause) } else { player.send(.resume) }
    }
  }

  /// The harness's view of the wrapper, as the article's `AudioControllerTarget`: `routed` sends the toggle through the
  /// wrapper, otherwise every event goes straight to the player.
  final class AudioControllerTarget: FuzzTarget, Sendable {
    let controller: AudioController
    let routed: Bool

    init(engine: any PlaybackEngine, routed: Bool) {
      controller = AudioController(player: FuzzEngine.player(for: engine))
      self.routed = routed
    }

    func send(_ event: PlaybackEvent) {
      switch event {
      case .user(.toggle) where routed, .remote(.toggle) where routed: controller.toggle()
      default: controller.player.send(event)
      }
    }

    var observation: FuzzObservation { FuzzObservation(controller.player.state) }
    var stateDescription: String { controller.player.state.description }
    var snapshot: AnyHashable? { controller.player.state }
  }

  static let routed = FuzzSubject(
    name: "AudioController", swiftExpression: "WrapperRoutingTests.routed"
  ) { engine in AudioControllerTarget(engine: engine, routed: true) }.reading(.all)

  static let forwarded = FuzzSubject(
    name: "AudioController (forwarded)", swiftExpression: "WrapperRoutingTests.forwarded"
  ) { engine in AudioControllerTarget(engine: engine, routed: false) }.reading(.all)

  @Test func aRoutedToggleIsCaughtAndShrunkToTwoActions() throws {
    let result = Fuzzer.run(Self.routed, FuzzConfiguration(seed: 42))
    let failure = try #require(result.failure)
    #expect(failure.actions.map(\.description) == ["play(A)", "toggle"])
  }

  @Test func aForwardedToggleTestsOnlyPlayhead() {
    let result = Fuzzer.run(Self.forwarded, FuzzConfiguration(seed: 42))
    #expect(result.passed)
  }
}
