import Dispatch
import PlayerEngine
import PlayerState
import PlayerTesting
import Testing

/// Issue 39, R16: the player cancels the timers it no longer needs, so a
/// replaced countdown costs nothing, and nothing stays pending after it goes.
@Suite("Driver: timer cancellation")
struct TimerCancellationTests {
  @Test func tenThousandReArmsLeaveOneCountdownPending() {
    let timers = VirtualTimers()
    var player: Player? = Player(
      engine: SpyEngine.cooperative(.immediately), watchdog: timers.policy())
    player?.send(.play("A"))
    #expect(timers.dueTimes == [.seconds(5)])  // the load's watchdog
    for _ in 0..<10_000 { player?.send(.user(.setSleepTimer(.after(.seconds(3600))))) }
    // The watchdog and the newest countdown; the 9,999 replaced ones cancelled.
    #expect(timers.dueTimes == [.seconds(5), .seconds(3600)])
    #expect(timers.scheduledCount == 10_001)
    #expect(timers.cancelledCount == 9_999)
    player = nil
    #expect(timers.pendingCount == 0)
    #expect(timers.cancelledCount == 10_001)
  }

  @Test func aDisarmedCountdownIsCancelled() {
    let timers = VirtualTimers()
    let player = Player(engine: SpyEngine.cooperative(.immediately), watchdog: timers.policy())
    player.send(.play("A"))
    player.send(.user(.setSleepTimer(.after(.seconds(600)))))
    #expect(timers.pendingCount == 2)
    // Another kind of timer in its place disarms the countdown.
    player.send(.user(.setSleepTimer(.endOfEntry)))
    #expect(timers.dueTimes == [.seconds(5)])
    player.send(.user(.setSleepTimer(.after(.seconds(600)))))
    player.send(.user(.setSleepTimer(nil)))
    #expect(timers.dueTimes == [.seconds(5)])
    #expect(timers.cancelledCount == 2)
  }

  @Test func anExpiredCountdownPausesAndLeavesNothingPending() {
    let timers = VirtualTimers()
    let player = Player(engine: SpyEngine.cooperative(.immediately), watchdog: timers.policy())
    player.send(.play("A"))
    player.send(.user(.setSleepTimer(.after(.seconds(2)))))
    timers.advance(by: .seconds(2))
    #expect(player.state.description == "paused(A#1)")
    #expect(timers.dueTimes == [.seconds(5)])
    #expect(timers.cancelledCount == 0)
  }

  @Test func aNewWatchdogCancelsTheOneItReplaces() {
    let timers = VirtualTimers()
    // Never ready: every load keeps its watchdog armed.
    let player = Player(engine: SpyEngine(), watchdog: timers.policy())
    player.send(.play("A"))
    timers.advance(by: .seconds(1))
    player.send(.play("B"))
    timers.advance(by: .seconds(1))
    player.send(.play("C"))
    #expect(timers.dueTimes == [.seconds(7)])
    #expect(timers.cancelledCount == 2)
  }

  @Test func aPolicyThatCannotCancelStillWorks() {
    let timers = ManualTimers()
    let player = Player(engine: SpyEngine.cooperative(.immediately), watchdog: timers.policy)
    player.send(.play("A"))
    player.send(.user(.setSleepTimer(.after(.seconds(60)))))
    player.send(.user(.setSleepTimer(.after(.seconds(30)))))
    #expect(timers.delays == [.seconds(5), .seconds(60), .seconds(30)])
    timers.fire(1)  // the replaced countdown, never cancelled: stale
    #expect(player.state.description == "playing(A#1, sleep after(30000ms))")
  }

  @Test func aCancelledDispatchTimerReleasesItsClosureAtOnce() {
    let policy = WatchdogPolicy.dispatch(timeout: .seconds(1))
    var token: Token? = Token()
    weak let watched = token
    let handle = policy.schedule(.seconds(3600)) { [token] in _ = token }
    token = nil
    #expect(watched != nil)  // held by the pending timer only
    handle.cancel()
    #expect(watched == nil)
    handle.cancel()  // twice is harmless
  }

  @Test func aDispatchTimerNobodyCancelsFires() async {
    let policy = WatchdogPolicy.dispatch(timeout: .seconds(1), queue: DispatchQueue(label: "t"))
    let before = policy.now()
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
      policy.schedule(.milliseconds(5)) { done.resume() }
    }
    #expect(policy.now() - before >= .milliseconds(5))
  }
}

private final class Token: Sendable {}
