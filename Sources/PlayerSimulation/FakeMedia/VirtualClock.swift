import Foundation
import PlayerEngine

/// How fast a ``VirtualClock`` advances compared with the wall clock.
public enum SimulationPace: Hashable, Sendable {
  /// As fast as possible: no waiting at all (the default, for tests and scripts).
  case instant
  /// In real time, scaled by `speed` (2 is twice as fast), so a person can watch.
  case realTime(speed: Double)
}

/// A discrete-event clock: virtual time that moves only when advanced, and a
/// queue of actions due at virtual times.
///
/// Actions run in order of due time, and in scheduling order for equal times,
/// on the thread that advances the clock. An action may schedule more actions,
/// including for the current time; they run in the same advance. Deterministic
/// and instant: nothing sleeps unless the pace is ``SimulationPace/realTime(speed:)``.
///
/// ```swift
/// let clock = VirtualClock()
/// clock.schedule(after: .milliseconds(200)) { print("ready at", clock.now) }
/// clock.advance(by: .milliseconds(100))   // nothing yet
/// clock.advance(by: .milliseconds(100))   // prints "ready at 0.2 seconds"
/// ```
public final class VirtualClock: Sendable {
  private struct State {
    var now: Int64 = 0
    var sequence: UInt64 = 0
    var queue = ActionQueue()
  }

  private let state = Locked(State())

  /// A clock at time zero with nothing scheduled.
  public init() {}

  /// The current virtual time since the clock was made.
  public var now: Duration { .milliseconds(state.withLock { $0.now }) }

  /// The current virtual time in whole milliseconds.
  public var milliseconds: Int64 { state.withLock { $0.now } }

  /// How many actions are waiting.
  public var pendingCount: Int { state.withLock { $0.queue.count } }

  /// When the next action is due, if any.
  public var nextDue: Duration? {
    state.withLock { $0.queue.first.map { .milliseconds($0.due) } }
  }

  /// Schedules `action` to run once the clock reaches `now + delay`.
  /// - Parameters:
  ///   - delay: how far in the future; negative counts as zero. Whole milliseconds.
  ///   - action: what to run, on the thread that advances the clock.
  public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) {
    let milliseconds = max(delay.wholeMilliseconds, 0)
    state.withLock { state in
      state.sequence &+= 1
      state.queue.insert(
        ScheduledAction(
          due: state.now.addingSaturated(milliseconds), sequence: state.sequence, run: action))
    }
  }

  /// Moves the clock forward by `interval`, running every action that falls
  /// due, in order, and stops at exactly `now + interval`.
  /// - Parameters:
  ///   - interval: how far to move; negative counts as zero.
  ///   - pace: instant (default), or real time for a person to watch.
  ///   - afterEach: called after each action, for streaming output.
  /// - Returns: how many actions ran.
  @discardableResult
  public func advance(
    by interval: Duration, pace: SimulationPace = .instant, afterEach: () -> Void = {}
  ) -> Int {
    let target = state.withLock { $0.now.addingSaturated(max(interval.wholeMilliseconds, 0)) }
    var ran = 0
    while let action = popDue(upTo: target, pace: pace) {
      action.run()
      ran += 1
      afterEach()
    }
    let remaining = state.withLock { state -> Int64 in
      defer { state.now = max(state.now, target) }
      return target - state.now
    }
    Self.pause(milliseconds: remaining, pace: pace)
    return ran
  }

  /// Moves the clock forward action by action until `condition` holds, for
  /// at most `interval`. Stops right after the action that made it hold.
  /// - Parameters:
  ///   - interval: the longest time to advance; the clock ends there if the
  ///     condition never holds.
  ///   - pace: instant (default), or real time for a person to watch.
  ///   - afterEach: called after each action, for streaming output.
  ///   - condition: checked before the first action and after each one.
  /// - Returns: whether the condition held.
  public func advance(
    atMost interval: Duration, pace: SimulationPace = .instant, afterEach: () -> Void = {},
    until condition: () -> Bool
  ) -> Bool {
    if condition() { return true }
    let target = state.withLock { $0.now.addingSaturated(max(interval.wholeMilliseconds, 0)) }
    while let action = popDue(upTo: target, pace: pace) {
      action.run()
      afterEach()
      if condition() { return true }
    }
    state.withLock { $0.now = max($0.now, target) }
    return false
  }

  /// Runs actions until none is left or `limit` have run, advancing the clock
  /// to each one's due time.
  /// - Parameters:
  ///   - limit: the most actions to run, a guard against endless schedules.
  ///   - pace: instant (default), or real time.
  ///   - afterEach: called after each action.
  /// - Returns: how many actions ran.
  @discardableResult
  public func runUntilIdle(
    limit: Int = 100_000, pace: SimulationPace = .instant, afterEach: () -> Void = {}
  ) -> Int {
    var ran = 0
    while ran < limit, let action = popDue(upTo: .max, pace: pace) {
      action.run()
      ran += 1
      afterEach()
    }
    return ran
  }

  private func popDue(upTo target: Int64, pace: SimulationPace) -> ScheduledAction? {
    let (action, gap) = state.withLock { state -> (ScheduledAction?, Int64) in
      guard let first = state.queue.first, first.due <= target else { return (nil, 0) }
      let gap = first.due - state.now
      state.now = max(state.now, first.due)
      return (state.queue.removeFirst(), gap)
    }
    if action != nil { Self.pause(milliseconds: gap, pace: pace) }
    return action
  }

  private static func pause(milliseconds: Int64, pace: SimulationPace) {
    guard case .realTime(let speed) = pace, speed > 0, milliseconds > 0 else { return }
    Thread.sleep(forTimeInterval: min(Double(milliseconds) / 1000 / speed, 3600))
  }
}

/// An action waiting in a ``VirtualClock``.
struct ScheduledAction: Sendable {
  let due: Int64
  let sequence: UInt64
  let run: @Sendable () -> Void

  func precedes(_ other: ScheduledAction) -> Bool {
    (due, sequence) < (other.due, other.sequence)
  }
}

/// A binary min-heap of scheduled actions, ordered by (due, sequence).
struct ActionQueue: Sendable {
  private var heap: [ScheduledAction] = []

  var count: Int { heap.count }
  var first: ScheduledAction? { heap.first }

  mutating func insert(_ action: ScheduledAction) {
    heap.append(action)
    var child = heap.count - 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard heap[child].precedes(heap[parent]) else { break }
      heap.swapAt(child, parent)
      child = parent
    }
  }

  /// Removes and returns the earliest action.
  /// - Precondition: the queue is not empty (callers check ``first``).
  mutating func removeFirst() -> ScheduledAction {
    let top = heap[0]
    let last = heap.removeLast()
    guard !heap.isEmpty else { return top }
    heap[0] = last
    var parent = 0
    while true {
      let left = 2 * parent + 1
      let right = left + 1
      var smallest = parent
      if left < heap.count, heap[left].precedes(heap[smallest]) { smallest = left }
      if right < heap.count, heap[right].precedes(heap[smallest]) { smallest = right }
      if smallest == parent { break }
      heap.swapAt(parent, smallest)
      parent = smallest
    }
    return top
  }
}
