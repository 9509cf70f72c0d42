import Dispatch
import PlayerEngine
import PlayerState
import PlayerTesting
import Testing

/// Faults only real time can show: an engine that blocks. The kit runs
/// commands on Dispatch threads, so it reports a blocked engine instead of
/// hanging; these tests wait out a 100 ms timeout each, then unblock it.
@Suite("The conformance kit reports engines that block")
struct RealTimeFaultTests {
  private static let kit = EngineConformance(
    .init(media: "A", timing: .realTime(timeout: .milliseconds(100), quietPeriod: .zero)))
  /// For engines whose reports must get through: a loaded 2-core CI machine
  /// can delay a thread hop past 100 ms, which would change what is named.
  private static let patientKit = EngineConformance(
    .init(media: "A", timing: .realTime(timeout: .seconds(2), quietPeriod: .zero)))

  /// `execute(load)` waits for something that never comes.
  final class BlockingEngine: PlaybackEngine {
    let gate = DispatchSemaphore(value: 0)

    func execute(_ command: EngineCommand, reports: ReportSink) {
      if case .load = command { gate.wait() }
    }
  }

  /// Reports from its own thread while holding its own (non-recursive) lock,
  /// so a command sent from inside the report callback deadlocks on it.
  ///
  /// Its thread is already waiting when the run starts, and `execute(load)`
  /// wakes it as the last thing it does: the `ready` needs one semaphore wake,
  /// not a thread to be started or a block to be scheduled. It answers the
  /// first load only; the run ends there (the engine is then deadlocked).
  final class LockHoldingEngine: PlaybackEngine {
    let lock = DispatchSemaphore(value: 1)
    /// Signalled by `execute(load)` once it has released the lock.
    private let loaded = DispatchSemaphore(value: 0)
    private let pending = Locked<(load: Load, reports: ReportSink)?>(nil)

    init() {
      let running = DispatchSemaphore(value: 0)
      // Its own thread, as a real back end has (and not the shared global pool).
      DispatchQueue(label: "lock-holding-engine").async { [lock, loaded, pending] in
        running.signal()
        loaded.wait()
        guard let load = pending.withLock({ $0 }) else { return }
        lock.wait()
        load.reports.send(.ready(load.load))  // a Player runs the next command right here
        lock.signal()
      }
      running.wait()  // the thread runs before the first command comes
    }

    func execute(_ command: EngineCommand, reports: ReportSink) {
      lock.wait()
      guard case .load = command else {
        lock.signal()
        return
      }
      let first = pending.withLock { pending -> Bool in
        guard pending == nil else { return false }
        pending = (command.load, reports)
        return true
      }
      lock.signal()
      if first { loaded.signal() }
    }
  }

  @Test func blockingExecuteIsNamedAndEndsTheRun() async {
    let engine = BlockingEngine()
    let report = await Self.kit.run(against: engine)
    engine.gate.signal()
    #expect(report.brokenNames == ["executeReturnsPromptly"])
    #expect(
      report.violations.map(\.description) == [
        "executeReturnsPromptly: execute(load(A#1)) did not return within 0.1 seconds"
      ])
  }

  /// The same outcome on every run: the engine's `ready` comes only once
  /// `execute(load)` has released its lock, and whether or not the kit is
  /// still finishing `execute(load)` then, the kit runs `start` on the
  /// reporting thread (waiting for `load` to finish first if need be), so the
  /// engine's lock always deadlocks it. The one timing assumption: the
  /// engine's waiting thread wakes within the kit's 2 s timeout.
  @Test func lockHeldWhileReportingIsNamed() async {
    let engine = LockHoldingEngine()
    let report = await Self.patientKit.run(against: engine)
    engine.lock.signal()  // lets the deadlocked `start` through
    #expect(report.brokenNames == ["executeReturnsPromptly", "commandFromReportCallback"])
    #expect(report.transcript == ["load(A#1)", "ready(A#1)", "start(A#1)", "stop(A#1)"])
  }
}
