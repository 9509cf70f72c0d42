import PlayerEngine
import PlayerState

/// A cancellable scheduler on virtual time, for tests that count timers:
/// time moves only with ``advance(by:)``, which runs what falls due in order.
final class VirtualTimers: Sendable {
  private struct Timer: Sendable {
    let id: Int
    let due: Duration
    let fire: @Sendable () -> Void
  }

  private struct State: Sendable {
    var now = Duration.zero
    var nextID = 0
    var pending: [Timer] = []
    var scheduled = 0
    var cancelled = 0
  }

  private let state = Locked(State())

  /// A policy on this clock whose watchdog timeout is `timeout`.
  func policy(timeout: Duration = .seconds(5)) -> WatchdogPolicy {
    WatchdogPolicy(timeout: timeout, now: { [self] in now }) { [self] after, fire in
      let id = state.withLock { state -> Int in
        state.nextID += 1
        state.scheduled += 1
        state.pending.append(Timer(id: state.nextID, due: state.now + after, fire: fire))
        return state.nextID
      }
      return TimerHandle { [self] in
        state.withLock { state in
          guard let index = state.pending.firstIndex(where: { $0.id == id }) else { return }
          state.pending.remove(at: index)
          state.cancelled += 1
        }
      }
    }
  }

  /// The virtual time.
  var now: Duration { state.withLock { $0.now } }
  /// Timers scheduled and neither fired nor cancelled.
  var pendingCount: Int { state.withLock { $0.pending.count } }
  /// Timers scheduled so far.
  var scheduledCount: Int { state.withLock { $0.scheduled } }
  /// Timers cancelled before they fired.
  var cancelledCount: Int { state.withLock { $0.cancelled } }
  /// The pending timers' due times, earliest first.
  var dueTimes: [Duration] { state.withLock { $0.pending.map(\.due).sorted() } }

  /// Moves time forward by `interval`, running each timer that falls due, in
  /// order of due time (then scheduling order), outside the lock.
  func advance(by interval: Duration) {
    let target = now + interval
    while let timer = state.withLock({ state -> Timer? in
      guard
        let index = state.pending.indices.min(by: {
          (state.pending[$0].due, state.pending[$0].id) < (
            state.pending[$1].due, state.pending[$1].id
          )
        }), state.pending[index].due <= target
      else { return nil }
      state.now = max(state.now, state.pending[index].due)
      return state.pending.remove(at: index)
    }) {
      timer.fire()
    }
    state.withLock { $0.now = max($0.now, target) }
  }
}
