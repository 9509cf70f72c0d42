import PlayerEngine
import PlayerState
import PlayerTesting
import Testing

/// Issue 24 (first part): restore after a relaunch and hand-off between
/// engines, through the real driver.
@Suite("Driver: restore and hand-off")
struct HandOffTests {
  @Test func aRelaunchedPlayerSendsNothingUntilTheUserResumes() throws {
    let first = SpyEngine.cooperative(.immediately)
    let player = Player(engine: first)
    player.send(.queue(["A", "B"]))
    player.send(.position(Load(1, 1), .seconds(95)))
    let saved = player.state.snapshot
    let second = SpyEngine.cooperative(.immediately)
    let relaunched = try Player(engine: second, restoring: saved)
    #expect(second.commands.isEmpty)
    #expect(relaunched.state.description == "idle")
    relaunched.send(.remote(.toggle))
    #expect(
      second.commands.map(\.description) == ["load(A#1, from 95000ms)", "start(item1#1)"])
    #expect(first.commands.map(\.description) == ["load(A#1)", "start(item1#1)"])
  }

  @Test func aHandOffStopsTheFirstAndLoadsTheSecondFromThePosition() throws {
    let phone = SpyEngine.cooperative(.immediately)
    let player = Player(engine: phone)
    player.send(.queue(["A", "B"]))
    player.send(.position(Load(1, 1), .seconds(30)))
    let speaker = SpyEngine()
    let moved = try player.handOff(to: speaker)
    #expect(phone.commands.map(\.description) == ["load(A#1)", "start(item1#1)", "stop(item1#1)"])
    #expect(speaker.commands.map(\.description) == ["load(A#1, from 30000ms)"])
    speaker.report(.ready(Load(1, 1)))
    #expect(speaker.commands.map(\.description).last == "start(item1#1)")
    #expect(moved.state.description == "playing(A#1)")
    #expect(player.state.description == "idle")
  }

  @Test func aPausedHandOffLoadsAndStaysPaused() throws {
    let phone = SpyEngine.cooperative(.immediately)
    let player = Player(engine: phone)
    player.send(.play("A"))
    player.send(.pause)
    let speaker = SpyEngine()
    let moved = try player.handOff(to: speaker)
    speaker.report(.ready(Load(1, 1)))
    #expect(speaker.commands.map(\.description) == ["load(A#1)"])
    #expect(moved.state.description == "paused(A#1)")
  }
}
