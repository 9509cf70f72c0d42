import Dispatch
import PlayerEngine
import PlayerState

/// An adapter over a fake back end that keeps its state behind a serial
/// `DispatchQueue` and reports from `queue.asyncAfter` blocks on that queue:
/// the most common way to write one. How `execute` enters the queue is the
/// variable, and decides what a ``Player`` does with it.
///
/// The back end answers a `load` with `ready` (or `failed(notFound)` for the
/// media `missing`) and a `seek` with its completion, 1 ms later, on the
/// queue, if the load is still live: it reports nothing after `stop`, and
/// nothing for loads it never had.
final class QueueEngine: PlaybackEngine {
  /// How `execute` enters the queue.
  enum Entry: String, CaseIterable, Sendable, CustomStringConvertible {
    /// `queue.sync { … }`, always: the newcomer's adapter (review of
    /// 2026-12-06, item 4). A Player traps in it: a report sent from the
    /// queue makes the player run the next command on that queue, inside the
    /// report callback, and `queue.sync` there is dispatch_sync on the current
    /// queue.
    case sync
    /// `queue.async { … }`: `execute` only enqueues; safe on any thread.
    case async
    /// Inline when already on the queue (a `DispatchSpecificKey` set on it),
    /// `queue.sync { … }` otherwise: safe with a Player, which runs a command
    /// sent from the callback inline, on the queue.
    case inlineWhenOnQueue

    var description: String { rawValue }
  }

  /// What the back end holds. Only touched on `queue`: the lock only makes
  /// that checkable by the compiler (it is never contended).
  private struct BackEnd {
    var live: Set<Load> = []
  }

  let entry: Entry
  private let queue = DispatchQueue(label: "queue-engine")
  private let onQueue = DispatchSpecificKey<Bool>()
  private let backEnd = Locked(BackEnd())

  init(_ entry: Entry) {
    self.entry = entry
    queue.setSpecific(key: onQueue, value: true)
  }

  func execute(_ command: EngineCommand, reports: ReportSink) {
    switch entry {
    case .sync:
      queue.sync { apply(command, reports) }
    case .async:
      queue.async { self.apply(command, reports) }
    case .inlineWhenOnQueue:
      if DispatchQueue.getSpecific(key: onQueue) == true {
        apply(command, reports)
      } else {
        queue.sync { apply(command, reports) }
      }
    }
  }

  /// Applies a command to the back end. On `queue` only.
  private func apply(_ command: EngineCommand, _ reports: ReportSink) {
    switch command {
    case .load(let request), .preload(let request):
      backEnd.withLock { _ = $0.live.insert(request.load) }
      let answer: EngineReport =
        request.media == "missing" ? .failed(request.load, .notFound) : .ready(request.load)
      reportLater(answer, reports)
    case .seek(let load, _, let seek):
      reportLater(.seekCompleted(load, seek), reports)
    case .stop(let load):
      backEnd.withLock { _ = $0.live.remove(load) }
    case .start, .setRate, .pause, .setVolume:
      break
    }
  }

  /// Sends `report` from the queue 1 ms from now, if its load is still live.
  private func reportLater(_ report: EngineReport, _ reports: ReportSink) {
    queue.asyncAfter(deadline: .now() + .milliseconds(1)) { [backEnd] in
      guard backEnd.withLock({ $0.live.contains(report.load) }) else { return }
      reports.send(report)  // a Player runs its next command right here, on the queue
    }
  }
}

/// The lock-based adapter: its state behind a lock taken only to read or
/// write it, never while reporting; reports from a queue of its own, 1 ms
/// later. Otherwise the same back end as ``QueueEngine``.
final class LockEngine: PlaybackEngine {
  private let live = Locked<Set<Load>>([])
  private let reporter = DispatchQueue(label: "lock-engine")

  func execute(_ command: EngineCommand, reports: ReportSink) {
    switch command {
    case .load(let request), .preload(let request):
      live.withLock { _ = $0.insert(request.load) }
      let answer: EngineReport =
        request.media == "missing" ? .failed(request.load, .notFound) : .ready(request.load)
      reportLater(answer, reports)
    case .seek(let load, _, let seek):
      reportLater(.seekCompleted(load, seek), reports)
    case .stop(let load):
      live.withLock { _ = $0.remove(load) }
    case .start, .setRate, .pause, .setVolume:
      break
    }
  }

  private func reportLater(_ report: EngineReport, _ reports: ReportSink) {
    reporter.asyncAfter(deadline: .now() + .milliseconds(1)) { [live] in
      // The lock is released before the report goes out.
      guard live.withLock({ $0.contains(report.load) }) else { return }
      reports.send(report)
    }
  }
}

/// Enters its queue with `queue.sync` twice in `execute(load)`, and the load's
/// `ready` runs on the queue in between: the thread finishing `load` then waits
/// for the queue while the callback holds it. (A Player does not trap on this
/// order, but on the one where `ready` comes after `load` returned: then it
/// runs `start` inside the callback.) Seeks complete from the queue.
final class InterleavedSyncEngine: PlaybackEngine {
  private let queue = DispatchQueue(label: "interleaved-sync-engine")

  func execute(_ command: EngineCommand, reports: ReportSink) {
    switch command {
    case .load(let request):
      let reporting = DispatchSemaphore(value: 0)
      queue.sync {
        queue.async {
          reporting.signal()
          reports.send(.ready(request.load))
        }
      }
      reporting.wait()  // the ready's block holds the queue now
      queue.sync {}  // so this waits for the callback to return
    case .seek(let load, _, let seek):
      queue.sync { queue.async { reports.send(.seekCompleted(load, seek)) } }
    case .preload, .start, .setRate, .pause, .stop, .setVolume:
      queue.sync {}
    }
  }
}
