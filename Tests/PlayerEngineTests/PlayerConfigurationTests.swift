import PlayerEngine
import PlayerState
import PlayerTesting
import Testing

/// Issue 40: a fresh player takes its configuration where a user looks,
/// `Player(engine:configuration:)`, and `Player(engine:)` means what it did.
@Suite("Driver: configuration of a fresh player")
struct PlayerConfigurationTests {
  private static let patient = RetryPolicy(
    attempts: 2, backoff: .milliseconds(250), maximumBackoff: .seconds(2))

  @Test func aRetryPolicyPassedByConfigurationTakesEffect() {
    let timers = ManualTimers()
    let spy = SpyEngine()
    let player = Player(
      engine: spy, configuration: PlayerConfiguration(retry: Self.patient), watchdog: timers.policy)
    #expect(player.state.description == "idle")
    #expect(player.state.configuration.retry == Self.patient)
    player.send(.play("A"))
    spy.report(.failed(Load(1, 1), .network))
    #expect(player.state.description == "waiting(A#1, network, attempt 1, autoplay)")
    // The load's watchdog (the policy's 5 s), then this configuration's first backoff.
    #expect(timers.delays == [.seconds(5), .milliseconds(250)])
    timers.fire(1)
    #expect(player.state.description == "buffering(A#2, autoplay)")
    spy.report(.failed(Load(1, 2), .network))
    #expect(timers.delays.last == .milliseconds(500))
  }

  @Test func theOtherSettingsAndTheEnginesPreloadTakeEffect() {
    let configuration = PlayerConfiguration(
      canPreload: true, previousThreshold: .seconds(10), retry: .off)
    let player = Player(engine: SpyEngine(), configuration: configuration)
    #expect(player.state.configuration.previousThreshold == .seconds(10))
    #expect(player.state.configuration.retry == .off)
    // `canPreload` is the engine's, whatever the configuration says.
    #expect(player.state.configuration.canPreload == false)
  }

  @Test func aPlayerWithoutAConfigurationIsUnchanged() {
    let timers = ManualTimers()
    let spy = SpyEngine()
    let player = Player(engine: spy, watchdog: timers.policy)
    #expect(player.state.configuration == PlayerConfiguration())
    #expect(player.state.configuration.retry == .standard)
    player.send(.play("A"))
    spy.report(.failed(Load(1, 1), .network))
    #expect(timers.delays == [.seconds(5), .seconds(1)])
    let plain = Player(engine: SpyEngine())
    #expect(plain.state == PlaybackState())
  }

  /// Without a watchdog policy there are no buffering timeouts, but the retry
  /// policy the user configured still runs: its backoff is scheduled on
  /// Dispatch, as a sleep countdown is, and the load is tried again.
  @Test func aBackoffRunsWithoutAWatchdogPolicy() async throws {
    let spy = SpyEngine()
    let quick = RetryPolicy(attempts: 1, backoff: .milliseconds(10), maximumBackoff: .seconds(1))
    let player = Player(engine: spy, configuration: PlayerConfiguration(retry: quick))
    player.send(.play("A"))
    spy.report(.failed(Load(1, 1), .network))
    #expect(player.state.description == "waiting(A#1, network, attempt 1, autoplay)")
    // The backoff fires 10 ms from now on a Dispatch queue; allow 10 s on a loaded machine.
    let deadline = ContinuousClock.now + .seconds(10)
    while player.state.description != "buffering(A#2, autoplay)", ContinuousClock.now < deadline {
      try await Task.sleep(for: .milliseconds(5))
    }
    #expect(player.state.description == "buffering(A#2, autoplay)")
    #expect(spy.commands.map(\.description) == ["load(A#1)", "stop(item1#1)", "load(A#2)"])
  }

  /// A countdown is kept to the millisecond: 1.5 ms is scheduled as 2 ms.
  @Test func aSleepCountdownIsScheduledToTheMillisecond() {
    let timers = ManualTimers()
    let player = Player(engine: SpyEngine.cooperative(.immediately), watchdog: timers.policy)
    player.send(.play("A"))
    player.send(.user(.setSleepTimer(.after(.microseconds(1500)))))
    #expect(timers.delays == [.seconds(5), .milliseconds(2)])
    #expect(player.state.description == "playing(A#1, sleep after(2ms))")
    #expect(player.state.sleepTimer == .after(.milliseconds(2)))
  }
}
