import PlayerEngine
import PlayerState

/// A watchdog scheduler the test fires by hand: every scheduled timer is kept,
/// with its delay, in the order the driver scheduled it.
final class ManualTimers: Sendable {
  private let pending = Locked<[(Duration, @Sendable () -> Void)]>([])

  var policy: WatchdogPolicy {
    WatchdogPolicy(timeout: .seconds(5)) { after, fire in
      self.pending.withLock { $0.append((after, fire)) }
    }
  }

  var delays: [Duration] { pending.withLock { $0.map(\.0) } }

  func fire(_ index: Int) {
    let fire = pending.withLock { $0[index].1 }
    fire()
  }
}
