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
/// One difference keeps the process alive where a `Player` would not: the
/// command the kit sends from inside a report callback (the `start` of the
/// re-entrant check) is not executed on the reporting thread, as a `Player`
/// executes it, but on a thread of the kit's own while the reporting thread
/// waits in the callback, for up to the timeout. If `execute` returns, the
/// engine holds nothing while reporting that `execute` needs, and running it
/// on the reporting thread is safe too. If it returns only once the callback
/// has, `execute` waits for something the reporting thread holds: a lock held
/// while reporting (a `Player` deadlocks there) or the serial queue the engine
/// reports from, entered with `queue.sync` (a `Player` traps there, in
/// libdispatch's "dispatch_sync called on queue already owned by current
/// thread"). The kit names that ``EnginePromise/commandFromReportCallback``;
/// the wait then ends, the callback returns and releases what it held, the
/// command runs, and the run goes on. The timeout decides only a case that is
/// otherwise a deadlock.
///
/// And one difference makes the kit deterministic where a `Player` is not:
/// when the `ready` of the re-entrant check comes from another thread while a
/// command is still finishing, the reporting thread waits for that command to
/// return and then has `start` run as above. A `Player` would leave `start` to
/// the thread finishing the command unless the report came a moment later;
/// the kit always takes that path, so an engine that holds a lock or its queue
/// while reporting is named on every run, not on some.
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
  /// Runs a command sent from inside a report callback while the reporting
  /// thread waits (see the type's documentation): apart from `commands`, and
  /// never the reporting thread, so `queue.sync` in `execute` cannot trap.
  private let callbacks = DispatchQueue(label: "playhead.conformance.callbacks")

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
  /// already doing so (that thread will run them).
  private func drain() {
    let claimed = state.withLock { state -> Bool in
      guard !state.draining, !state.queue.isEmpty else { return false }
      state.draining = true
      return true
    }
    if claimed { drainClaimed() }
  }

  /// Runs queued commands until the queue is empty, for a drain already
  /// claimed (`draining` set) for this thread. Hands the queue over to a
  /// reporting thread that asked for it (see ``receive(_:)``): the drain then
  /// stays claimed, for that thread.
  private func drainClaimed() {
    let thread = ThreadID.current
    var job = state.withLock { state -> (Int, EngineCommand)? in
      guard let first = state.dequeue() else {
        state.draining = false
        return nil
      }
      state.executing = Executing(id: first.0, thread: thread, command: first.1)
      return first
    }
    while let (id, command) = job {
      engine.execute(command, reports: sink)
      let (next, due, handOff) = state.withLock { state -> AfterReturn in
        state.executing = nil
        state.returned(id, command)
        if let handOff = state.handOff {
          state.handOff = nil
          return (nil, state.satisfiedWaiters(), handOff)
        }
        let next = state.dequeue()
        if let next {
          state.executing = Executing(id: next.0, thread: thread, command: next.1)
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
      // The re-entrant check's `start` is queued. Run it as a Player would:
      // from inside the callback, while it runs.
      if !state.draining {
        state.draining = true
        state.record.callbackWaits = true
        return (.runBeside(report), state.satisfiedWaiters())
      }
      // From inside `execute`: the draining thread (this one) runs it after.
      if executing != nil { return (.nothing, state.satisfiedWaiters()) }
      let handOff = DispatchSemaphore(value: 0)
      state.handOff = handOff
      state.record.callbackWaits = true
      return (.takeOver(handOff, report), state.satisfiedWaiters())
    }
    for waiter in due { waiter.resume(returning: true) }
    switch action {
    case .nothing:
      break
    case .runBeside(let report):
      // A Player that is not busy processes the report on the reporting
      // thread and executes the resulting command right there.
      runBesideCallback(of: report)
    case .takeOver(let handOff, let report):
      // Another thread is finishing a command (an engine thread reporting
      // just as `execute` returns). Wait for it, then drive from here.
      if handOff.wait(timeout: .now() + .nanoseconds(callbackTimeout.clampedNanoseconds))
        == .timedOut
      {
        let (abandoned, due) = state.withLock {
          state -> (Bool, [CheckedContinuation<Bool, Never>]) in
          guard state.handOff === handOff else { return (false, []) }
          state.handOff = nil
          // Still running: if it returns only once this callback has, the
          // command waited for something this thread holds.
          if let executing = state.executing {
            let text =
              "\(state.record.describe(executing.command)), still running when the "
              + "\(state.record.describe(report)) callback began,"
            state.heldBack[executing.id] = Self.heldBack(text, waited: callbackTimeout)
          }
          state.record.callbackStoppedWaiting()
          return (true, state.satisfiedWaiters())
        }
        for waiter in due { waiter.resume(returning: true) }
        // Still not handed over: the draining thread will run the command.
        if abandoned { return }
      }
      runBesideCallback(of: report)
    }
  }

  /// Runs the queue, claimed for this thread, on the kit's own thread while
  /// this (reporting) thread waits inside the callback, for up to the
  /// timeout. A command that has not returned by then, and returns only once
  /// the callback has, is named when it returns (``State/returned(_:_:)``).
  private func runBesideCallback(of report: EngineReport) {
    let first = state.withLock { $0.queue.first }
    let finished = DispatchSemaphore(value: 0)
    callbacks.async {
      self.drainClaimed()
      finished.signal()
    }
    let timeout = callbackTimeout
    let timedOut = finished.wait(timeout: .now() + .nanoseconds(timeout.clampedNanoseconds))
    let due = state.withLock { state in
      state.record.callbackStoppedWaiting()
      if timedOut == .timedOut, let (id, command) = first, !state.record.returned.contains(id) {
        let text =
          "\(state.record.describe(command)), sent from inside the "
          + "\(state.record.describe(report)) callback,"
        state.heldBack[id] = Self.heldBack(text, waited: timeout)
      }
      return state.satisfiedWaiters()
    }
    for waiter in due { waiter.resume(returning: true) }
  }

  /// How long a reporting thread waits, inside its callback, for a command
  /// to return: the timeout in real time, 5 seconds when driven.
  private var callbackTimeout: Duration {
    switch timing {
    case .realTime(let timeout, _): timeout
    case .driven: .seconds(5)
    }
  }

  /// The violation of a command that returned only once a report callback
  /// had: what waited, and what to change.
  /// - Parameters:
  ///   - what: the command and the callback, as in `start(A#1), sent from
  ///     inside the ready(A#1) callback,`.
  ///   - waited: how long the callback waited.
  private static func heldBack(_ what: String, waited: Duration) -> String {
    "\(what) returned only after the callback did (the kit ran it on another thread and waited "
      + "\(waited)): execute waits for something the reporting thread holds. A Player runs it on "
      + "the reporting thread, inside the callback, where that is a crash or a deadlock: "
      + "queue.sync on the serial queue the engine reports from traps (\"dispatch_sync called on "
      + "queue already owned by current thread\"), and a lock held while reporting never comes "
      + "free. Make execute enqueue its work with queue.async instead of queue.sync, and send "
      + "reports with no lock held."
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
    /// Commands still running when a report callback stopped waiting for
    /// them, by id, with the violation to record if they return: they then
    /// returned only once the callback had.
    var heldBack: [Int: String] = [:]
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
      if let detail = heldBack.removeValue(forKey: id) {
        record.violate(.commandFromReportCallback, detail)
      }
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
  /// Run the queue, claimed for it, beside the callback of this report.
  case runBeside(EngineReport)
  /// Wait for the draining thread to hand the queue over, then run it beside
  /// the callback of this report.
  case takeOver(DispatchSemaphore, EngineReport)
}

/// The command inside `execute`, its id, and the thread running it.
private struct Executing: Sendable {
  let id: Int
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
