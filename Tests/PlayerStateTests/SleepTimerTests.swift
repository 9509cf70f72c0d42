import Foundation
import PlayerState
import Testing

/// `A#2` ready in the queue `A B C` with a sleep timer armed (a countdown as `sleep#1`).
func sleeping(_ timer: SleepTimer, play: Bool = true) -> PlaybackState {
  var state = queued(.ready, play: play)
  state.sleepTimer = timer
  state.issuedSleepTimers = 1
  return state
}

/// `C#2` ready, the last entry of `A B C`, at 0, with an end-of-queue timer.
let lastWithEndOfQueue = PlaybackState(
  queue: PlayQueue(entries: queueABC.entries, current: 2),
  session: Session(
    load: Load(3, 2), stage: .ready, lastSeek: SeekID(1), lastWatchdog: WatchdogID(1)),
  playWhenReady: true, issuedLoads: 2, issuedItems: 3, sleepTimer: .endOfQueue)

/// The table's rows of the sleep timer (issue 24), with literal results.
let sleepTimerCases: [TransitionCase] = [
  .init(idle2, .user(.setSleepTimer(.after(.seconds(1800)))), "idle", "none"),
  .init(
    queued(.buffering), .user(.setSleepTimer(.endOfEntry)),
    "buffering(A#2, autoplay, sleep endOfEntry)", "none"),
  .init(
    queued(.ready), .user(.setSleepTimer(.endOfQueue)), "playing(A#2, sleep endOfQueue)", "none"),
  .init(
    queued(.ready, play: false), .user(.setSleepTimer(.afterEntries(2))),
    "paused(A#2, sleep afterEntries(2))", "none"),
  .init(
    queued(.stalled), .user(.setSleepTimer(.after(.seconds(1800)))),
    "stalled(A#2, sleep after(1800000ms))", "none"),
  .init(
    queued(.ended), .user(.setSleepTimer(.endOfEntry)), "ended(A#2, autoplay, sleep endOfEntry)",
    "none"),
  .init(
    queued(.failed(.network)), .user(.setSleepTimer(.endOfEntry)),
    "failed(A#2, network, autoplay, sleep endOfEntry)", "none"),
  .init(
    queued(.waitingForNetwork), .user(.setSleepTimer(.endOfEntry)),
    "waiting(A#2, network, attempt 1, autoplay, sleep endOfEntry)", "none"),
  .init(
    queued(.ready, interrupted: true), .user(.setSleepTimer(.endOfEntry)),
    "suppressed(A#2, interrupted, sleep endOfEntry)", "none"),
  // Armed beside a preload, an end-of-entry timer drops it: nothing to roll into.
  .init(
    preloading(.ready), .user(.setSleepTimer(.endOfEntry)), "playing(A#2, sleep endOfEntry)",
    "stop(B#3)"),
  .init(
    preloading(.buffering, play: false), .user(.setSleepTimer(.endOfEntry)),
    "paused(A#2, sleep endOfEntry)", "stop(B#3)"),
  // The countdown's expiry pauses as the user would; while paused it only disarms.
  .init(
    sleeping(.after(.seconds(1800))), .system(.sleepTimerExpired(SleepTimerID(1))),
    "paused(A#2)", "pause(A#2)"),
  .init(
    sleeping(.after(.seconds(1800)), play: false), .system(.sleepTimerExpired(SleepTimerID(1))),
    "paused(A#2)", "none"),
  // The end of the entry it stops at: the next entry current, not loaded.
  .init(sleeping(.endOfEntry), .reachedEnd(a2), "idle", "stop(A#2)"),
  .init(sleeping(.afterEntries(1), play: false), .reachedEnd(a2), "idle", "stop(A#2)"),
  .init(
    lastWithEndOfQueue, .previous, "buffering(B#3, autoplay, sleep endOfQueue)",
    "stop(C#2) load(B#3)", watchdog: "watchdog(B#3, watchdog#1)"),
]

@Suite("Sleep timer")
struct SleepTimerTests {
  @Test func aCountdownPausesOnceAndAStaleOneChangesNothing() {
    var result = run([
      .play("A"), .ready(Load(1, 1)), .user(.setSleepTimer(.after(.seconds(60)))),
      .user(.setSleepTimer(.after(.seconds(30)))),
    ])
    #expect(result.state.description == "playing(A#1, sleep after(30000ms))")
    #expect(result.state.issuedSleepTimers == 2)
    // The replaced countdown's expiry is stale.
    let stale = result.state.transition(on: .system(.sleepTimerExpired(SleepTimerID(1))))
    #expect(stale.ignored == .staleWatchdog)
    #expect(stale.next == result.state)
    let expiry = result.state.transition(on: .system(.sleepTimerExpired(SleepTimerID(2))))
    #expect(expiry.description == "paused(A#1) [pause(A#1)]")
    #expect(expiry.next.sleepTimer == nil)
    // Once expired, the same id again is stale too: it pauses once.
    #expect(
      expiry.next.transition(on: .system(.sleepTimerExpired(SleepTimerID(2)))).ignored
        == .staleWatchdog)
    result = run([.user(.setSleepTimer(nil))], from: result.state)
    #expect(result.state.sleepTimer == nil)
  }

  @Test func armingACountdownAsksTheDriverForIt() {
    let armed = PlaybackState().transition(on: .user(.setSleepTimer(.after(.seconds(1800)))))
    #expect(armed.sleepTimer == SleepTimerRequest(id: SleepTimerID(1), delay: .seconds(1800)))
    #expect(armed.description == "idle +sleep(sleep#1, 1800000ms)")
    #expect(armed.commands.isEmpty)
    // Modes without a countdown ask for nothing.
    #expect(PlaybackState().transition(on: .user(.setSleepTimer(.endOfEntry))).sleepTimer == nil)
  }

  @Test func badTimersAreRefusedAndIdsNeverWrap() {
    let state = PlaybackState()
    #expect(state.transition(on: .user(.setSleepTimer(.after(.zero)))).ignored == .invalidArgument)
    #expect(
      state.transition(on: .user(.setSleepTimer(.after(.milliseconds(-1))))).ignored
        == .invalidArgument)
    #expect(
      state.transition(on: .user(.setSleepTimer(.afterEntries(0)))).ignored == .invalidArgument)
    #expect(state.transition(on: .user(.setSleepTimer(nil))).ignored == .noEffect)
    var exhausted = state
    exhausted.issuedSleepTimers = .max
    #expect(
      exhausted.transition(on: .user(.setSleepTimer(.after(.seconds(1))))).ignored
        == .idsExhausted)
    // A never-issued id is stale, as is id 0.
    let armed = PlaybackState.reduce(state, .user(.setSleepTimer(.after(.seconds(1)))))
    #expect(
      armed.transition(on: .system(.sleepTimerExpired(SleepTimerID(2)))).ignored == .staleWatchdog)
    #expect(
      armed.transition(on: .system(.sleepTimerExpired(SleepTimerID(0)))).ignored == .staleWatchdog)
    // The same mode twice is no change.
    let end = PlaybackState.reduce(state, .user(.setSleepTimer(.endOfEntry)))
    #expect(end.transition(on: .user(.setSleepTimer(.endOfEntry))).ignored == .noEffect)
  }

  @Test func endOfEntryStopsAtTheEndWithoutPreloadingOrLoadingTheNext() {
    let a1 = Load(1, 1)
    var player = PlaybackState(configuration: PlayerConfiguration(canPreload: true))
    var log: [String] = []
    func send(_ event: PlaybackEvent) {
      let transition = player.transition(on: event)
      log += transition.commands.map { $0.description(naming: transition.next.media(of:)) }
      player = transition.next
    }
    send(.queue(["A", "B", "C"]))
    send(.ready(a1, duration: .seconds(100)))
    #expect(log == ["load(A#1)", "start(A#1)", "preload(B#2)"])
    send(.user(.setSleepTimer(.endOfEntry)))
    #expect(log.last == "stop(B#2)")
    #expect(player.preload == nil)
    send(.reachedEnd(a1))
    #expect(log.suffix(1) == ["stop(A#1)"])
    #expect(player.description == "idle")
    #expect(player.queue.currentEntry?.media == "B")
    #expect(player.playWhenReady == false)
    #expect(player.sleepTimer == nil)
    // The morning's tap loads B from its start, and nothing before it.
    send(.resume)
    #expect(log.suffix(1) == ["load(B#3)"])
  }

  @Test func theStopIsNotifiedAsTheSleepTimersAndTheEntryChangeAsAuto() {
    let before = sleeping(.endOfEntry)
    let transition = before.transition(on: .reachedEnd(a2))
    let notified = Notifications(
      before: before, event: .reachedEnd(a2), after: transition.next, ignored: transition.ignored)
    #expect(
      notified.map(\.description) == [
        "entryChanged(A -> B, auto)", "playIntent(false, sleepTimer)",
      ])
    let countdown = sleeping(.after(.seconds(5)))
    let expiry = PlaybackEvent.system(.sleepTimerExpired(SleepTimerID(1)))
    let paused = countdown.transition(on: expiry)
    let said = Notifications(before: countdown, event: expiry, after: paused.next, ignored: nil)
    #expect(said.map(\.description) == ["playIntent(false, sleepTimer)"])
    #expect(said.map(\.source) == [.system])
  }

  @Test func afterEntriesCountsNaturalEndsOnly() {
    var result = run(
      [.queue(["A", "B", "C", "D"]), .ready(Load(1, 1)), .user(.setSleepTimer(.afterEntries(2)))])
    // A skip does not count.
    result = run([.next, .ready(Load(2, 2))], from: result.state)
    #expect(result.state.sleepTimer == .afterEntries(2))
    result = run([.reachedEnd(Load(2, 2)), .ready(Load(3, 3))], from: result.state)
    #expect(result.state.description == "playing(C#3, sleep afterEntries(1))")
    result = run([.reachedEnd(Load(3, 3))], from: result.state)
    #expect(result.state.description == "idle")
    #expect(result.state.queue.currentEntry?.media == "D")
    #expect(result.commands == ["stop(C#3)"])
  }

  @Test func endOfQueueStopsAtTheLastEntryInsteadOfWrapping() {
    var result = run([
      .queue(["A", "B"]), .user(.setRepeat(.all)), .ready(Load(1, 1)),
      .user(.setSleepTimer(.endOfQueue)), .reachedEnd(Load(1, 1)),
    ])
    // Not the last entry: the end advances as usual.
    #expect(result.state.description == "buffering(B#2, autoplay, sleep endOfQueue)")
    result = run([.ready(Load(2, 2)), .reachedEnd(Load(2, 2))], from: result.state)
    // The last one: repeat all would wrap to A; the timer makes A current, unloaded.
    #expect(result.state.description == "idle")
    #expect(result.state.queue.currentEntry?.media == "A")
    #expect(result.state.playWhenReady == false)
    #expect(result.commands.suffix(1) == ["stop(B#2)"])
  }

  @Test func repeatOneReplaysPausedAndAQueueEndEndsPaused() {
    let replay = run([
      .play("A"), .user(.setRepeat(.one)), .ready(Load(1, 1)),
      .user(.setSleepTimer(.endOfEntry)), .reachedEnd(Load(1, 1)),
    ])
    #expect(replay.state.description == "paused(A#1, seek#1)")
    #expect(replay.commands.suffix(1) == ["seek(A#1, 0ms, seek#1)"])
    let last = run([
      .play("A"), .ready(Load(1, 1)), .user(.setSleepTimer(.endOfQueue)), .reachedEnd(Load(1, 1)),
    ])
    #expect(last.state.description == "ended(A#1)")
    #expect(last.state.sleepTimer == nil)
  }

  @Test func stopAndClearDisarmItAndSkipsKeepIt() {
    let armed = run([.queue(["A", "B"]), .user(.setSleepTimer(.endOfEntry))])
    #expect(run([.next], from: armed.state).state.sleepTimer == .endOfEntry)
    #expect(run([.play("C")], from: armed.state).state.sleepTimer == .endOfEntry)
    #expect(run([.stop], from: armed.state).state.sleepTimer == nil)
    #expect(run([.user(.clear)], from: armed.state).state.sleepTimer == nil)
    // With only a timer armed, `stop` is accepted to turn it off.
    let idle = PlaybackState.reduce(PlaybackState(), .user(.setSleepTimer(.endOfEntry)))
    let stopped = idle.transition(on: .stop)
    #expect(stopped.ignored == nil)
    #expect(stopped.next.sleepTimer == nil)
  }

  @Test func snapshotsCarryNoTimerAndWithoutLoadDropsACountdown() throws {
    let countdown = sleeping(.after(.seconds(60)))
    #expect(try PlaybackState(restoring: countdown.snapshot).sleepTimer == nil)
    #expect(countdown.withoutLoad.sleepTimer == nil)
    #expect(countdown.withoutLoad.issuedSleepTimers == 1)
    #expect(sleeping(.endOfEntry).withoutLoad.sleepTimer == .endOfEntry)
  }

  @Test func anArmedTimerRoundTripsThroughCodable() throws {
    let state = sleeping(.afterEntries(3))
    let data = try JSONEncoder().encode(state)
    #expect(try JSONDecoder().decode(PlaybackState.self, from: data) == state)
    var bad = state
    bad.sleepTimer = .afterEntries(0)
    #expect(bad.invariantViolation == "a sleep timer after 0 entries")
    var unissued = state
    unissued.sleepTimer = .after(.seconds(1))
    unissued.issuedSleepTimers = 0
    #expect(unissued.invariantViolation == "a sleep countdown armed but none was issued")
  }
}
