import PlayerEngine
import PlayerState
import PlayerTesting
import Testing

@Suite("Driver: observation and watchdogs")
struct ObservationTests {
  @Test func stateChangesStartWithTheCurrentStateAndMissNothing() async {
    let spy = SpyEngine()
    let player = Player(engine: spy)
    let changes = player.stateChanges()
    player.send(.play("A"))
    player.send(.pause)
    player.send(.pause)  // no change: not published
    spy.report(.ready(Load(1, 1)))
    player.send(.stop)
    var seen: [String] = []
    for await state in changes.prefix(5) { seen.append(state.description) }
    #expect(
      seen == ["idle", "buffering(A#1, autoplay)", "buffering(A#1, paused)", "paused(A#1)", "idle"])
  }

  @Test func latestStatesSkipToTheNewest() async {
    let spy = SpyEngine.cooperative(.immediately)
    let player = Player(engine: spy)
    let latest = player.latestStates()
    player.send(.play("A"))
    player.send(.play("B"))
    var iterator = latest.makeAsyncIterator()
    #expect(await iterator.next()?.description == "playing(B#2)")
  }

  @Test func ignoredReportsCarryTheirReason() async {
    let spy = SpyEngine()
    let player = Player(engine: spy)
    let ignored = player.ignoredReports()
    player.send(.play("A"))
    player.send(.pause)
    player.send(.pause)  // a no-op intent, not a report: not listed
    player.send(.stop)
    spy.report(.ready(Load(1, 1)))
    spy.report(.ready(Load(1, 9)))
    var seen: [String] = []
    for await report in ignored.prefix(2) { seen.append(report.description) }
    #expect(
      seen == [
        "ready(A#1) ignored in idle: stale load token",
        "ready(A#9) ignored in idle: load token never issued",
      ])
  }

  @Test func stepsAreNumberedInProcessingOrder() async {
    let spy = SpyEngine.cooperative(.immediately)
    let player = Player(engine: spy)
    let steps = player.steps()
    player.send(.play("A"))
    var seen: [String] = []
    for await step in steps.prefix(2) { seen.append(step.description) }
    #expect(
      seen == [
        "#1 play(A): idle -> buffering(A#1, autoplay) [load(A#1)]",
        "#2 ready(A#1): buffering(A#1, autoplay) -> playing(A#1) [start(A#1)]",
      ])
  }

  @Test func streamsFinishWhenThePlayerGoesAway() async {
    var player: Player? = Player(engine: SpyEngine())
    let changes = player?.stateChanges()
    player?.send(.play("A"))
    player = nil
    var count = 0
    if let changes { for await _ in changes { count += 1 } }
    #expect(count == 2)
  }

  @Test func expiredWatchdogFailsTheLoadAndStopsIt() {
    let timers = ManualTimers()
    let spy = SpyEngine()
    let player = Player(engine: spy, watchdog: timers.policy)
    player.send(.play("A"))
    #expect(timers.delays == [.seconds(5)])
    timers.fire(0)
    #expect(player.state.description == "failed(A#1, timeout, autoplay)")
    #expect(spy.commandLog == ["load(A#1)", "stop(A#1)"])
  }

  @Test func watchdogThatFiresAfterReadyIsStale() {
    let timers = ManualTimers()
    let spy = SpyEngine()
    let player = Player(engine: spy, watchdog: timers.policy)
    player.send(.play("A"))
    spy.report(.ready(Load(1, 1)))
    timers.fire(0)
    #expect(player.state.description == "playing(A#1)")
    #expect(spy.commandLog == ["load(A#1)", "start(A#1)"])
    #expect(player.statistics.ignoredReports == 1)
  }

  @Test func aNetworkWaitIsScheduledWithTheBackoffAndReloadsWhenItFires() {
    let timers = ManualTimers()
    let spy = SpyEngine()
    let player = Player(engine: spy, watchdog: timers.policy)
    player.send(.play("A"))
    spy.report(.position(Load(1, 1), .seconds(7)))
    spy.report(.failed(Load(1, 1), .network))
    #expect(player.state.description == "waiting(A#1, network, attempt 1, autoplay)")
    // The load's watchdog (the policy's 5 s), then the backoff (the machine's 1 s).
    #expect(timers.delays == [.seconds(5), .seconds(1)])
    timers.fire(1)
    #expect(player.state.description == "buffering(A#2, autoplay)")
    #expect(spy.commandLog == ["load(A#1)", "stop(A#1)", "load(A#2, from 7000ms)"])
  }

  @Test func dispatchWatchdogPolicyKeepsItsTimeout() {
    #expect(WatchdogPolicy.dispatch(timeout: .seconds(8)).timeout == .seconds(8))
  }
}
