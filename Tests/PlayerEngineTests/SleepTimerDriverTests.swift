import PlayerEngine
import PlayerState
import PlayerTesting
import Testing

/// Issue 24: the driver schedules the sleep timer's countdown on its clock and
/// sends the expiry back in; a stale one changes nothing.
@Suite("Driver: sleep timer")
struct SleepTimerDriverTests {
  @Test func theCountdownIsScheduledAndItsExpiryPauses() {
    let timers = ManualTimers()
    let engine = SpyEngine.cooperative(.immediately)
    let player = Player(engine: engine, watchdog: timers.policy)
    player.send(.play("A"))
    player.send(.user(.setSleepTimer(.after(.seconds(1800)))))
    player.send(.user(.setSleepTimer(.after(.seconds(600)))))
    // The load's watchdog, then the two countdowns, each with its own delay.
    #expect(timers.delays == [.seconds(5), .seconds(1800), .seconds(600)])
    timers.fire(1)  // the replaced countdown: stale
    #expect(player.state.description == "playing(A#1, sleep after(600000ms))")
    timers.fire(2)
    #expect(player.state.description == "paused(A#1)")
    #expect(
      engine.commands.map(\.description) == ["load(A#1)", "start(item1#1)", "pause(item1#1)"])
  }

  @Test func aPlayerWithoutAPolicyStillRunsTheCountdown() async throws {
    let engine = SpyEngine.cooperative(.immediately)
    let player = Player(engine: engine)
    player.send(.play("A"))
    player.send(.user(.setSleepTimer(.after(.milliseconds(20)))))
    for _ in 0..<500 where player.state.playWhenReady {
      try await Task.sleep(for: .milliseconds(10))
    }
    #expect(player.state.description == "paused(A#1)")
  }
}
