import PlayerEngine
import PlayerState
import PlayerTesting
import Testing

/// An engine that ramps, answering every load with `ready` at once.
private func rampingEngine() -> SpyEngine {
  SpyEngine(capabilities: [.volumeRamp]) { command in
    guard case .load(let request) = command else { return [] }
    return [SpyEngine.Reply(.ready(request.load), .immediately)]
  }
}

/// A player fading over 250 ms on a ramping engine, its timers fired by hand.
private func fadingPlayer() -> (Player, SpyEngine, ManualTimers) {
  let timers = ManualTimers()
  let engine = rampingEngine()
  let player = Player(
    engine: engine, configuration: PlayerConfiguration(fade: .milliseconds(250)),
    watchdog: timers.policy)
  return (player, engine, timers)
}

/// Issue 37, item 2, through the driver: the fade's timer is scheduled with
/// the fade's delay and its expiry sent back in; a stale one changes nothing.
@Suite("Driver: fades")
struct FadeDriverTests {
  @Test func aPauseFadesAndTheTimerPausesTheEngine() {
    let (player, engine, timers) = fadingPlayer()
    player.send(.play("A"))
    player.send(.pause)
    // The load's watchdog, then the fade's timer with the fade's own delay.
    #expect(timers.delays == [.seconds(5), .milliseconds(250)])
    #expect(player.state.description == "paused(A#1, fading out)")
    timers.fire(1)
    #expect(player.state.description == "paused(A#1)")
    #expect(
      engine.commands.map(\.description) == [
        "load(A#1)", "start(item1#1)", "setVolume(item1#1, 0, ramp 250ms)", "pause(item1#1)",
        "setVolume(item1#1, 1)",
      ])
  }

  @Test func theOldTimerOfAFadeTheUserResumedChangesNothing() {
    let (player, engine, timers) = fadingPlayer()
    player.send(.play("A"))
    player.send(.pause)
    player.send(.resume)
    timers.fire(1)
    #expect(player.state.description == "playing(A#1)")
    #expect(player.statistics.ignoredReports == 1)
    #expect(
      engine.commands.map(\.description) == [
        "load(A#1)", "start(item1#1)", "setVolume(item1#1, 0, ramp 250ms)",
        "setVolume(item1#1, 1, ramp 250ms)",
      ])
  }

  @Test func aStoppedLoadIsStoppedOnceAtTheFadesEnd() {
    let (player, engine, timers) = fadingPlayer()
    player.send(.play("A"))
    player.send(.stop)
    #expect(player.state.description == "idle(fading out A#1)")
    timers.fire(1)
    timers.fire(1)
    #expect(player.state.description == "idle")
    #expect(
      engine.commands.map(\.description) == [
        "load(A#1)", "start(item1#1)", "setVolume(item1#1, 0, ramp 250ms)", "stop(item1#1)",
      ])
  }
}

/// A player's settings changed while it runs (a settings screen's fade).
@Suite("Driver: reconfigure")
struct ReconfigureTests {
  @Test func aFadeSetWhilePlayingAppliesToTheNextPause() throws {
    let engine = rampingEngine()
    let player = Player(engine: engine)
    player.send(.play("A"))
    var settings = player.configuration
    settings.fade = .milliseconds(300)
    try player.reconfigure(settings)
    player.send(.pause)
    #expect(player.configuration.fade == .milliseconds(300))
    #expect(
      engine.commands.map(\.description) == [
        "load(A#1)", "start(item1#1)", "setVolume(item1#1, 0, ramp 300ms)",
      ])
  }

  @Test func settingsTheReducerCannotTakeAreRefusedAndNothingChanges() {
    let player = Player(engine: rampingEngine())
    var settings = player.configuration
    settings.ducking = .lower(to: Volume(thousandths: 1500))
    settings.fade = .seconds(1)
    #expect(throws: InvalidStateError(reason: "duck level 1.5 is outside 0...1")) {
      try player.reconfigure(settings)
    }
    #expect(player.configuration == PlayerConfiguration())
  }

  @Test func anEngineThatCannotRampKeepsNoFadeAndItsOwnPreload() throws {
    let player = Player(engine: SpyEngine(capabilities: [.preload]))
    try player.reconfigure(PlayerConfiguration(canPreload: false, fade: .seconds(1)))
    #expect(player.configuration == PlayerConfiguration(canPreload: true))
  }
}

/// Issue 37, item 3, through the driver: the crossfade's timer for the
/// outgoing load is kept beside the current load's own timers, so a stall of
/// the incoming load (its watchdog) does not cancel it.
@Suite("Driver: crossfade")
struct CrossfadeDriverTests {
  @Test func anEngineWithoutPreloadAndRampsNeverCrossfades() {
    let settings = PlayerConfiguration(crossfade: .seconds(3))
    let fitted = { (capabilities: EngineCapabilities) in
      Player(engine: SpyEngine(capabilities: capabilities), configuration: settings)
        .configuration.crossfade
    }
    #expect(fitted([]) == .zero)
    #expect(fitted([.preload]) == .zero)
    #expect(fitted([.volumeRamp]) == .zero)
    #expect(fitted([.preload, .volumeRamp]) == .seconds(3))
  }

  @Test func theOutgoingLoadsTimerSurvivesTheIncomingLoadsWatchdog() {
    let timers = VirtualTimers()
    let engine = SpyEngine(capabilities: [.preload, .volumeRamp]) { command in
      switch command {
      case .load(let request), .preload(let request):
        [SpyEngine.Reply(.ready(request.load, duration: .seconds(10)), .immediately)]
      default: []
      }
    }
    let player = Player(
      engine: engine,
      configuration: PlayerConfiguration(canPreload: true, crossfade: .seconds(2)),
      watchdog: timers.policy())
    player.send(.queue(["A", "B", "C"]))
    player.send(.position(Load(1, 1), .seconds(8)))
    #expect(player.state.description == "playing(B#2, crossfade from A#1)")
    // B stalls: its watchdog is scheduled, and A's fade timer is still pending.
    player.send(.stalled(Load(2, 2)))
    #expect(timers.dueTimes == [.seconds(2), .seconds(5)])
    timers.advance(by: .seconds(2))
    // Stopped by its timer; no preload while B is stalled.
    #expect(player.state.description == "stalled(B#2)")
    #expect(
      engine.commands.map(\.description) == [
        "load(A#1)", "start(item1#1)", "preload(B#2)", "setVolume(item2#2, 0)",
        "start(item2#2)", "setVolume(item2#2, 1, ramp 2000ms)",
        "setVolume(item1#1, 0, ramp 2000ms)", "stop(item1#1)",
      ])
  }
}
