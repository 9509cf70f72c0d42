import Dispatch
import PlayerEngine
import PlayerState

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Drives one engine for ``EngineConformance``: executes commands one at a
/// time the way a ``Player`` does, records every report, judges each one as
/// it arrives, and lets the kit wait for a condition.
///
/// Commands are executed like ``Player`` executes them: never two at once;
/// the first sender drains the queue, and a command sent while another runs
/// (from inside `execute`) is queued and run by the thread already draining.
/// The harness's lock is never held while the engine runs, so re-entrant
/// reports cannot deadlock on it.
///
/// One difference makes the kit deterministic where a `Player` is not: when
/// the `ready` of the re-entrant check comes from another thread while a
/// command is still finishing, the reporting thread waits for that command
/// to return and then runs `start` itself. A `Player` would run it on the
/// reporting thread only if that thread came a moment later; the kit always
/// takes that path, so an engine that holds a lock while reporting is named
/// on every run, not on some.
final class ConformanceHarness: Sendable {
  private let engine: any PlaybackEngine
  private let timing: EngineConformance.Timing
  private let state = Locked(State())
  /// Runs commands in real time. A serial queue of its own, not a global or
  /// concurrent one: libdispatch gives a serial queue an overcommitting
  /// thread, so a busy machine (every thread of the width-limited global pool
  /// that Swift concurrency runs on under Linux taken by CPU-bound work) never
  /// delays a command, and an engine that blocks in `execute` holds this
  /// queue's thread only.
  private let commands = DispatchQueue(label: "playhead.conformance.commands")
  /// Runs the timeouts of ``wait(until:)``: apart from `commands`, so that a
  /// blocked engine cannot hold them back.
  private let timers = DispatchQueue(label: "playhead.conformance.timers")

  init(engine: any PlaybackEngine, timing: EngineConformance.Timing) {
    self.engine = engine
    self.timing = timing
  }

  /// What the engine declared it can do beyond the basic commands.
  var capabilities: EngineCapabilities { engine.capabilities }

  /// The report sink handed to the engine with every command.
  private var sink: ReportSink {
    ReportSink { [weak self] report in self?.receive(report) }
  }

  // MARK: Commands

  /// Queues a command and starts executing the queue: inline when the timing
  /// is driven (deterministic), otherwise on a Dispatch thread so that an
  /// engine that blocks cannot block the kit. Returns the command's id.
  @discardableResult
  func send(_ command: EngineCommand) -> Int {
    let id = state.withLock { $0.enqueue(command) }
    switch timing {
    case .driven: drain()
    case .realTime: commands.async { self.drain() }
    }
    return id
  }

  /// Runs queued commands until the queue is empty, unless another thread is
  /// already doing so (that thread will run them). Hands the queue over to a
  /// reporting thread that asked for it (see ``receive(_:)``).
  private func drain() {
    let thread = ThreadID.current
    var job = state.withLock { state -> (Int, EngineCommand)? in
      guard !state.draining, let first = state.dequeue() else { return nil }
      state.draining = true
      state.executing = Executing(thread: thread, command: first.1)
      return first
    }
    while let (id, command) = job {
      engine.execute(command, reports: sink)
      let (next, due, handOff) = state.withLock { state -> AfterReturn in
        state.executing = nil
        state.returned(id, command)
        if let handOff = state.handOff {
          state.handOff = nil
          state.draining = false
          return (nil, state.satisfiedWaiters(), handOff)
        }
        let next = state.dequeue()
        if let next {
          state.executing = Executing(thread: thread, command: next.1)
        } else {
          state.draining = false
        }
        return (next, state.satisfiedWaiters(), nil)
      }
      for waiter in due { waiter.resume(returning: true) }
      handOff?.signal()
      job = next
    }
  }

  // MARK: Reports

  private func receive(_ report: EngineReport) {
    let thread = ThreadID.current
    typealias Decision = (AfterReport, [CheckedContinuation<Bool, Never>])
    let (action, due) = state.withLock { state -> Decision in
      let executing = state.executing.flatMap { $0.thread == thread ? $0.command : nil }
      guard state.judge(report, insideExecute: executing) else {
        return (.nothing, state.satisfiedWaiters())
      }
      // The re-entrant check's `start` is queued. Run it as a Player would.
      if !state.draining { return (.drain, state.satisfiedWaiters()) }
      // From inside `execute`: the draining thread (this one) runs it after.
      if executing != nil { return (.nothing, state.satisfiedWaiters()) }
      let handOff = DispatchSemaphore(value: 0)
      state.handOff = handOff
      return (.takeOver(handOff), state.satisfiedWaiters())
    }
    for waiter in due { waiter.resume(returning: true) }
    switch action {
    case .nothing:
      break
    case .drain:
      // A Player that is not busy processes the report on the reporting
      // thread and executes the resulting command right there.
      drain()
    case .takeOver(let handOff):
      // Another thread is finishing a command (an engine thread reporting
      // just as `execute` returns). Wait for it, then drive from here.
      if handOff.wait(timeout: .now() + .nanoseconds(handOffTimeout)) == .timedOut {
        let abandoned = state.withLock { state in
          guard state.handOff === handOff else { return false }
          state.handOff = nil
          return true
        }
        // Still not handed over: the draining thread will run the command.
        if abandoned { return }
      }
      drain()
    }
  }

  /// How long a reporting thread waits for a command to return before
  /// leaving its own command to the draining thread.
  private var handOffTimeout: Int {
    switch timing {
    case .realTime(let timeout, _): timeout.clampedNanoseconds
    case .driven: Duration.seconds(5).clampedNanoseconds
    }
  }

  // MARK: Checks' access to the record

  /// Reads or changes the record under the lock.
  func withRecord<R: Sendable>(_ body: @Sendable (inout Record) -> R) -> R {
    state.withLock { body(&$0.record) }
  }

  /// Waits until `condition` holds for the record: drives the engine when the
  /// timing is driven, otherwise waits up to the timeout for it to become
  /// true as reports and returns arrive. Returns whether it held.
  func wait(until condition: @escaping @Sendable (Record) -> Bool) async -> Bool {
    switch timing {
    case .driven(let step):
      while !state.withLock({ condition($0.record) }) {
        guard step() else { return false }
      }
      return true
    case .realTime(let timeout, _):
      return await withCheckedContinuation { continuation in
        let id = state.withLock { state -> Int? in
          if condition(state.record) { return nil }
          return state.addWaiter(condition, continuation)
        }
        guard let id else { return continuation.resume(returning: true) }
        let nanoseconds = timeout.clampedNanoseconds
        timers.asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) {
          let expired = self.state.withLock { $0.removeWaiter(id) }
          expired?.resume(returning: false)
        }
      }
    }
  }

  /// Lets reports that must not come have their chance to come: drives the
  /// engine until it is idle, or waits the quiet period in real time.
  func settle() async {
    switch timing {
    case .driven(let step):
      while step() {}
    case .realTime(_, let quietPeriod):
      try? await Task.sleep(for: quietPeriod)
    }
  }

  /// The outcome so far.
  var report: ConformanceReport { state.withLock { $0.record.report } }
}

extension Duration {
  /// Whole nanoseconds, clamped to `Int`; negative becomes 0.
  var clampedNanoseconds: Int {
    let (seconds, attoseconds) = components
    if seconds < 0 { return 0 }
    if seconds >= Int64(Int.max / 1_000_000_000) { return Int.max }
    return Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
  }
}

extension ConformanceHarness {
  /// The harness's mutable state, only touched under its lock.
  fileprivate struct State: Sendable {
    var record = Record()
    var queue: [(Int, EngineCommand)] = []
    var draining = false
    /// The command inside `execute` right now, and the thread running it.
    var executing: Executing?
    /// Set by a reporting thread that waits to run the queue itself.
    var handOff: DispatchSemaphore?
    var nextCommand = 0
    var waiters: [Waiter] = []
    var nextWaiter = 0

    struct Waiter: Sendable {
      let id: Int
      let condition: @Sendable (Record) -> Bool
      let continuation: CheckedContinuation<Bool, Never>
    }

    mutating func enqueue(_ command: EngineCommand) -> Int {
      nextCommand += 1
      queue.append((nextCommand, command))
      record.sent(command)
      return nextCommand
    }

    mutating func dequeue() -> (Int, EngineCommand)? {
      queue.isEmpty ? nil : queue.removeFirst()
    }

    mutating func returned(_ id: Int, _ command: EngineCommand) {
      record.returned.insert(id)
      if case .stop(let load) = command, record.issued[load.token] != nil {
        record.stopped.insert(load.token)
      }
    }

    /// Records and judges a report; true when it asks for a re-entrant command.
    mutating func judge(_ report: EngineReport, insideExecute: EngineCommand?) -> Bool {
      record.judge(report, insideExecute: insideExecute)
      guard case .ready(let load, _) = report, load == record.reentrantLoad,
        record.reentrantCommand == nil
      else { return false }
      record.reentrantCommand = enqueue(.start(load))
      return true
    }

    mutating func addWaiter(
      _ condition: @escaping @Sendable (Record) -> Bool,
      _ continuation: CheckedContinuation<Bool, Never>
    ) -> Int {
      nextWaiter += 1
      waiters.append(Waiter(id: nextWaiter, condition: condition, continuation: continuation))
      return nextWaiter
    }

    mutating func removeWaiter(_ id: Int) -> CheckedContinuation<Bool, Never>? {
      guard let index = waiters.firstIndex(where: { $0.id == id }) else { return nil }
      return waiters.remove(at: index).continuation
    }

    /// Removes and returns the waiters whose condition now holds.
    mutating func satisfiedWaiters() -> [CheckedContinuation<Bool, Never>] {
      guard !waiters.isEmpty else { return [] }
      var due: [CheckedContinuation<Bool, Never>] = []
      waiters.removeAll { waiter in
        guard waiter.condition(record) else { return false }
        due.append(waiter.continuation)
        return true
      }
      return due
    }
  }
}

/// What the draining thread does once a command returned: the next command
/// to run, the waiters to resume, and the reporting thread to hand over to.
private typealias AfterReturn = (
  next: (Int, EngineCommand)?, due: [CheckedContinuation<Bool, Never>], handOff: DispatchSemaphore?
)

/// What a reporting thread does once the harness's lock is released.
private enum AfterReport {
  case nothing
  case drain
  case takeOver(DispatchSemaphore)
}

/// The command inside `execute`, and the thread running it.
private struct Executing: Sendable {
  let thread: UInt
  let command: EngineCommand
}

/// The calling thread's identity, to tell a report sent from inside
/// `execute` (on the thread running it) from one sent by another thread.
private enum ThreadID {
  static var current: UInt {
    #if canImport(Glibc)
      UInt(pthread_self())  // pthread_t is an integer on glibc
    #else
      UInt(bitPattern: pthread_self())  // a pointer on Darwin and musl
    #endif
  }
}
