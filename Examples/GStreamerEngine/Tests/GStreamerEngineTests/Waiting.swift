import Dispatch
import PlayerEngine
import PlayerState

/// Thrown when an awaited condition does not hold in time.
struct TimedOut: Error, CustomStringConvertible {
  let what: String
  var description: String { "timed out waiting for \(what)" }
}

/// The kinds of the states a player's state stream yields, until one of kind
/// `last` that also satisfies `condition` (or a failure), waiting at most `timeout`.
func kinds(
  in states: AsyncStream<PlaybackState>, until last: StateKind,
  where condition: @escaping @Sendable (PlaybackState) -> Bool = { _ in true },
  timeout: Duration = .seconds(10)
) async throws -> [StateKind] {
  try await withThrowingTaskGroup(of: [StateKind]?.self) { group in
    group.addTask {
      var kinds: [StateKind] = []
      for await state in states {
        kinds.append(state.kind)
        if (state.kind == last && condition(state)) || state.kind == .failed { return kinds }
      }
      return nil
    }
    group.addTask {
      try await Task.sleep(for: timeout)  // A deadline, not a pause: the other task usually wins.
      return nil
    }
    defer { group.cancelAll() }
    guard let kinds = try await group.next() ?? nil else {
      throw TimedOut(what: "\(last)")
    }
    return kinds
  }
}

/// The event descriptions of the next steps, through the first whose event
/// is `last` (or to the end of the stream).
func events(
  _ steps: inout AsyncStream<PlayerStep>.Iterator, through last: String
) async -> [String] {
  var events: [String] = []
  while let step = await steps.next() {
    events.append(step.event.description(naming: step.media(of:)))
    if events.last == last { break }
  }
  return events
}

/// A one-shot signal between a pipeline thread and an async test.
final class Signal: Sendable {
  private let semaphore = DispatchSemaphore(value: 0)
  /// Waits on a thread of its own, never on the shared pool async tasks run on.
  private let waiter = DispatchQueue(label: "signal-waiter")

  func fire() { semaphore.signal() }

  /// Blocks the calling (non-async) thread until fired.
  func block() { semaphore.wait() }

  /// Suspends until fired, without blocking a thread of the task pool.
  func wait() async {
    await withCheckedContinuation { continuation in
      waiter.async {
        self.semaphore.wait()
        continuation.resume()
      }
    }
  }
}
