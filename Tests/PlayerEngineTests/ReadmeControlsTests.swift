import PlayerEngine
import PlayerState
import PlayerTesting
import Testing

/// The README's remote-control example ("The lock screen, a headset, MPRIS"),
/// replayed: if this test fails, the output written in its comments is wrong too.
@Suite("The README's remote-control example")
struct ReadmeControlsTests {
  @Test func theCommentsShowWhatTheEngineGets() {
    let spy = SpyEngine()
    let player = Player(engine: spy)
    player.send(.queue(["a.mp3", "b.mp3"]))
    player.send(.remote(.toggle))
    player.send(.engine(.ready(Load(1, 1), duration: .seconds(200))))
    #expect(spy.commands.map(\.description) == ["load(a.mp3#1)"])
    player.send(.remote(.toggle))
    player.send(.remote(.skip(by: .seconds(15))))
    player.send(.remote(.skip(by: .seconds(15))))
    #expect(
      spy.commands.map(\.description) == [
        "load(a.mp3#1)", "start(item1#1)", "seek(item1#1, 15000ms, seek#1)",
        "seek(item1#1, 30000ms, seek#2)",
      ])
    #expect(player.state.nowPlaying?.description == "a.mp3 1/2 at 30000ms 1x of 200000ms")
    #expect(
      player.state.availableCommands.description == "next pause previous seek skip stop toggle")
  }
}
