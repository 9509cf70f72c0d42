import Foundation
import PlayerEngine
import PlayerSimulation
import PlayerState
import Testing

/// Issue 39: an outside 8-thread storm of remote intents saw the notification stream and
/// `onStep` differ by 2 of 319,771 notifications, compared while watchdogs and engine callbacks
/// were still arriving. Compared at quiescence (every sender returned, every timer and callback
/// planned on the virtual clock run, nothing left), they are the same, once each, in order:
/// exactly once is a promise.
@Suite struct NotificationQuiescenceTests {
  @Test func eightThreadsWithTimersAndLateCallbacksNotifyExactlyOnceAtQuiescence() async {
    let clock = VirtualClock()
    let engine = FakeMediaEngine(clock: clock, hostile: HostileMode(seed: 39))
    let watchdog = WatchdogPolicy(timeout: .seconds(5)) { after, fire in
      clock.schedule(after: after, fire)
    }
    let seen = Locked<[PlayerNotification]>([])
    let player = Player(
      engine: engine, state: PlaybackState(), watchdog: watchdog,
      onStep: { step in seen.withLock { $0 += step.notifications } })
    let notifications = player.notifications(bufferingPolicy: .unbounded)
    player.send(.queue(["A", "B", "C"]))
    // Eight senders, and a ninth thread moving the clock: reports, duplicates and watchdogs
    // arrive while the intents do.
    DispatchQueue.concurrentPerform(iterations: 9) { thread in
      guard thread < 8 else {
        for _ in 0..<2_000 { clock.advance(by: .milliseconds(37)) }
        return
      }
      for round in 0..<2_000 {
        switch (thread + round) % 5 {
        case 0: player.send(.remote(.toggle))
        case 1: player.send(.remote(.skip(by: .seconds(15))))
        case 2: player.send(.remote(.next))
        case 3: player.send(.remote(.previous))
        default: player.send(.remote(.setSleepTimer(.after(.milliseconds(300)))))
        }
      }
    }
    // Quiescence: whatever is still planned runs (the queue ends: nothing repeats).
    clock.runUntilIdle(limit: 1_000_000)
    #expect(clock.pendingCount == 0)
    let expected = seen.withLock { $0 }
    var streamed: [PlayerNotification] = []
    for await notification in notifications.prefix(expected.count) {
      streamed.append(notification)
    }
    #expect(streamed == expected)
    #expect(expected.count > 2_000, "\(expected.count) notifications")
  }
}
