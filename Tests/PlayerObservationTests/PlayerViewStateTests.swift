import PlayerObservation
import PlayerState
import Testing

/// The published values as derived from one state, pure: the flags for each
/// named state, the failure, the position, and the notifications' numbering.
@Suite("PlayerViewState")
struct PlayerViewStateTests {
  struct Case: CustomTestStringConvertible, Sendable {
    let name: String
    let events: [PlaybackEvent]
    let kind: StateKind
    let isPlaying: Bool
    let isBuffering: Bool
    let playWhenReady: Bool
    let commands: String
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(
      name: "a new player", events: [], kind: .idle, isPlaying: false, isBuffering: false,
      playWhenReady: true, commands: ""),
    Case(
      name: "loading", events: [.play("A")], kind: .buffering, isPlaying: false,
      isBuffering: true, playWhenReady: true, commands: "pause previous seek skip stop toggle"),
    Case(
      name: "playing", events: [.play("A"), .ready(Load(1, 1))], kind: .playing,
      isPlaying: true, isBuffering: false, playWhenReady: true,
      commands: "pause previous seek skip stop toggle"),
    Case(
      name: "paused", events: [.play("A"), .ready(Load(1, 1)), .pause], kind: .paused,
      isPlaying: false, isBuffering: false, playWhenReady: false,
      commands: "play previous seek skip stop toggle"),
    Case(
      name: "stalled", events: [.play("A"), .ready(Load(1, 1)), .stalled(Load(1, 1))],
      kind: .stalled, isPlaying: false, isBuffering: true, playWhenReady: true,
      commands: "pause previous seek skip stop toggle"),
    Case(
      name: "interrupted",
      events: [.play("A"), .ready(Load(1, 1)), .system(.interruptionBegan)], kind: .suppressed,
      isPlaying: false, isBuffering: false, playWhenReady: true,
      commands: "pause previous seek skip stop"),
    Case(
      name: "waiting for the network", events: [.play("A"), .failed(Load(1, 1), .network)],
      kind: .waiting, isPlaying: false, isBuffering: true, playWhenReady: true,
      commands: "pause previous stop toggle"),
    Case(
      name: "failed", events: [.play("A"), .failed(Load(1, 1), .decoding)], kind: .failed,
      isPlaying: false, isBuffering: false, playWhenReady: true,
      commands: "pause previous stop toggle"),
    Case(
      name: "ended", events: [.play("A"), .ready(Load(1, 1)), .reachedEnd(Load(1, 1))],
      kind: .ended, isPlaying: false, isBuffering: false, playWhenReady: true,
      commands: "pause play previous seek skip stop toggle"),
  ]

  @Test(arguments: cases)
  func theFlagsOfEachNamedState(_ example: Case) {
    var state = PlaybackState()
    for event in example.events { _ = state.handle(event) }
    let values = PlayerViewState(state: state)
    #expect(values.kind == example.kind)
    #expect(values.isPlaying == example.isPlaying)
    #expect(values.isBuffering == example.isBuffering)
    #expect(values.playWhenReady == example.playWhenReady)
    #expect(values.availableCommands.description == example.commands)
    #expect(values.state == state)
    #expect(values.lastNotification == nil)
  }

  @Test func theErrorIsTheCurrentFailureOnly() {
    var state = PlaybackState()
    _ = state.handle(.play("A"))
    _ = state.handle(.failed(Load(1, 1), .notFound))
    #expect(PlayerViewState(state: state).error?.description == "A failed: notFound")
    _ = state.handle(.retry)
    #expect(PlayerViewState(state: state).error == nil)
  }

  @Test func thePositionIsTheLastKnownOneOrARestoredEntrysSavedOne() throws {
    var state = PlaybackState()
    #expect(PlayerViewState(state: state).position == .zero)
    _ = state.handle(.play("A"))
    _ = state.handle(.ready(Load(1, 1), duration: .seconds(60)))
    _ = state.handle(.position(Load(1, 1), .seconds(9)))
    #expect(PlayerViewState(state: state).position == .seconds(9))
    #expect(PlayerViewState(state: state).duration == .seconds(60))
    // Relaunched: no load, the saved position.
    let restored = try PlaybackState(restoring: state.snapshot)
    #expect(PlayerViewState(state: restored).kind == .idle)
    #expect(PlayerViewState(state: restored).position == .seconds(9))
  }

  /// The user's volume and mute as the state keeps them, and the volume the engine plays at:
  /// lowered by a duck (to 0.2 of the user's, the default policy), 0 while muted.
  @Test func theVolumeTheMuteAndWhatIsHeard() {
    var state = PlaybackState()
    let fresh = PlayerViewState(state: state)
    #expect(fresh.volume == .full)
    #expect(fresh.isMuted == false)
    #expect(fresh.effectiveVolume == .full)
    _ = state.handle(.play("A"))
    _ = state.handle(.ready(Load(1, 1)))
    _ = state.handle(.setVolume(0.5))
    _ = state.handle(.system(.duckBegan))
    let ducked = PlayerViewState(state: state)
    #expect(ducked.volume == 0.5)
    #expect(ducked.isMuted == false)
    #expect(ducked.effectiveVolume == 0.1)
    _ = state.handle(.mute)
    let muted = PlayerViewState(state: state)
    #expect(muted.volume == 0.5)
    #expect(muted.isMuted == true)
    #expect(muted.effectiveVolume == .silent)
    _ = state.handle(.unmute)
    _ = state.handle(.system(.duckEnded))
    #expect(PlayerViewState(state: state).effectiveVolume == 0.5)
  }

  @Test func aNumberedNotificationPrintsItsNumber() {
    let notification = NumberedNotification(
      id: 7, notification: PlayerNotification(.queueEnded, source: .engine))
    #expect(notification.description == "#7 queueEnded")
  }
}
