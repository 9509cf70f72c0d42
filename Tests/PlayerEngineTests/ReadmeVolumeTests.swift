import PlayerEngine
import PlayerState
import PlayerTesting
import Testing

/// The README's volume example ("Volume, mute and ducking"), replayed: if this
/// test fails, the output written in that example's comments is wrong too.
@Suite("The README's volume example")
struct ReadmeVolumeTests {
  @Test func theCommentsShowWhatTheEngineGets() {
    let spy = SpyEngine { command in
      guard case .load(let request) = command else { return [] }
      return [SpyEngine.Reply(.ready(request.load), .immediately)]
    }
    let music = Player(engine: spy)
    music.send(.play("song.mp3"))
    #expect(spy.commands.map(\.description) == ["load(song.mp3#1)", "start(item1#1)"])
    music.send(.setVolume(0.5))
    music.send(.system(.duckBegan))
    music.send(.setVolume(0.8))
    music.send(.system(.duckEnded))
    music.send(.mute)
    #expect(
      spy.commands.dropFirst(2).map(\.description) == [
        "setVolume(item1#1, 0.5)", "setVolume(item1#1, 0.1)", "setVolume(item1#1, 0.16)",
        "setVolume(item1#1, 0.8)", "setVolume(item1#1, 0)",
      ])
    #expect("\(music.state.volume) \(music.state.effectiveVolume)" == "0.8 0")
    #expect(music.state.playWhenReady)
  }

  @Test func theFadeExampleSendsWhatItsCommentsSay() {
    var gentle = PlaybackState(configuration: PlayerConfiguration(fade: .milliseconds(200)))
    _ = gentle.handle(.play("song.mp3"))
    _ = gentle.handle(.ready(Load(1, 1)))
    #expect(gentle.handle(.pause).commands.description == "setVolume(item1#1, 0, ramp 200ms)")
    #expect(gentle.handle(.resume).commands.description == "setVolume(item1#1, 1, ramp 200ms)")
    let late = gentle.handle(.watchdogExpired(Load(1, 1), WatchdogID(2)))
    #expect("\(late.commands.isEmpty) \(late.ignored == .staleWatchdog)" == "true true")
  }

  @Test func theCrossfadeExampleSendsWhatItsCommentsSay() {
    var mix = PlaybackState(
      configuration: PlayerConfiguration(canPreload: true, crossfade: .seconds(2)))
    _ = mix.handle(.queue(["a.mp3", "b.mp3", "c.mp3"]))
    #expect(
      "\(mix.handle(.ready(Load(1, 1), duration: .seconds(180))).commands)"
        == "start(item1#1) preload(b.mp3#2)")
    #expect(mix.handle(.ready(Load(2, 2), duration: .seconds(200))).commands.isEmpty)
    #expect(
      "\(mix.handle(.position(Load(1, 1), .seconds(178))).commands)"
        == "setVolume(item2#2, 0) start(item2#2) setVolume(item2#2, 1, ramp 2000ms) "
        + "setVolume(item1#1, 0, ramp 2000ms)")
    #expect("\(mix)" == "playing(b.mp3#2, crossfade from a.mp3#1)")
    #expect("\(mix.handle(.reachedEnd(Load(1, 1))).commands)" == "stop(item1#1) preload(c.mp3#3)")
    #expect(mix.handle(.reachedEnd(Load(1, 1))).ignored == .staleLoad)
  }

  @Test func aPlayerOnAnEngineThatCannotRampNeverFades() {
    let spy = SpyEngine { command in
      guard case .load(let request) = command else { return [] }
      return [SpyEngine.Reply(.ready(request.load), .immediately)]
    }
    let player = Player(engine: spy, configuration: PlayerConfiguration(fade: .milliseconds(200)))
    #expect(player.state.configuration.fade == .zero)
    player.send(.play("A"))
    player.send(.pause)
    #expect(spy.commands.map(\.description) == ["load(A#1)", "start(item1#1)", "pause(item1#1)"])
  }
}
