import Dispatch
import PlayerEngine
import PlayerState
import PlayerTesting
import Testing

/// Issue 22: the notifications through the real driver — exactly once, all of
/// one step's before the next step's, on the steps stream and their own stream.
@Suite("Driver: notifications")
struct NotificationStreamTests {
  /// A re-entrant `ready` (the engine answers inside `execute`) and a remote
  /// toggle: every notification once, in step order, with its source.
  @Test func notificationsArriveOnceInStepOrder() async {
    let spy = SpyEngine.cooperative(.immediately)
    let player = Player(engine: spy)
    let notifications = player.notifications()
    player.send(.queue(["A", "B"]))
    player.send(.remote(.toggle))
    player.send(.next)
    spy.report(.reachedEnd(Load(2, 2)))
    player.send(.stop)  // never queueEnded: a stop is not an end
    player.send(.resume)
    var seen: [String] = []
    for await notification in notifications.prefix(5) {
      seen.append("\(notification) [\(notification.source.rawValue)]")
    }
    #expect(
      seen == [
        "entryChanged(none -> A, queue) [user]", "playIntent(false, remote) [remote]",
        "entryChanged(A -> B, skip) [user]", "queueEnded [engine]", "playIntent(true, user) [user]",
      ])
  }

  /// The steps stream carries the same notifications, step by step.
  @Test func stepsCarryTheirNotifications() async {
    let spy = SpyEngine.cooperative(.immediately)
    let player = Player(engine: spy)
    let steps = player.steps()
    player.send(.play("A"))
    player.send(.system(.routeLost))
    var seen: [String] = []
    for await step in steps.prefix(3) { seen.append("#\(step.sequence) \(step.notifications)") }
    #expect(
      seen == ["#1 entryChanged(none -> A, queue)", "#2 ", "#3 playIntent(false, routeLost)"])
  }

  /// Eight threads toggling and skipping remotely while the engine reports:
  /// the notifications equal those derived from the steps, once each, in order.
  @Test func concurrentRemoteIntentsNotifyExactlyOnce() async {
    let spy = SpyEngine.cooperative(.immediately)
    let player = Player(engine: spy)
    let steps = player.steps(bufferingPolicy: .unbounded)
    let notifications = player.notifications(bufferingPolicy: .unbounded)
    player.send(.queue(["A", "B", "C"]))
    let rounds = 2_000
    DispatchQueue.concurrentPerform(iterations: 8) { thread in
      for round in 0..<rounds {
        switch (thread + round) % 4 {
        case 0: player.send(.remote(.toggle))
        case 1: player.send(.remote(.skip(by: .seconds(15))))
        case 2: player.send(.remote(.next))
        default: player.send(.previous)
        }
      }
    }
    let total = Int(player.statistics.processed)
    var fromSteps: [PlayerNotification] = []
    var sequence: UInt64 = 0
    for await step in steps.prefix(total) {
      sequence += 1
      #expect(step.sequence == sequence)
      fromSteps += step.notifications
    }
    var streamed: [PlayerNotification] = []
    for await notification in notifications.prefix(fromSteps.count) {
      streamed.append(notification)
    }
    #expect(streamed == fromSteps)
    #expect(fromSteps.count > 1_000)
  }
}
