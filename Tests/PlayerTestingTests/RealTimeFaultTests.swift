import Dispatch
import PlayerEngine
import PlayerState
import PlayerTesting
import Testing

/// Faults only real time can show: an engine that blocks. The kit runs
/// commands on Dispatch threads, so it reports a blocked engine instead of
/// hanging; these tests wait out a timeout each (100 ms, or 2 s where a report must
/// get through first).
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

  /// Reports from its own queue while holding its own (non-recursive) lock, so
  /// a command sent from inside the report callback waits for that lock: a
  /// Player, which runs it on the reporting thread, deadlocks there. It
  /// answers every load with `ready` and every seek with its completion.
  final class LockHoldingEngine: PlaybackEngine {
    private let lock = DispatchSemaphore(value: 1)
    private let reporter = DispatchQueue(label: "lock-holding-engine")

    func execute(_ command: EngineCommand, reports: ReportSink) {
      lock.wait()
      defer { lock.signal() }
      let report: EngineReport? =
        switch command {
        case .load(let request): .ready(request.load)
        case .seek(let load, _, let seek): .seekCompleted(load, seek)
        case .preload, .start, .setRate, .pause, .stop, .setVolume: nil
        }
      guard let report else { return }
      reporter.async { [lock] in
        lock.wait()
        reports.send(report)  // a Player runs the next command right here
        lock.signal()
      }
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

  /// The same outcome on every run: whether or not the kit is still
  /// finishing `execute(load)` when `ready(A#1)` comes, it has `start` run
  /// while the reporting thread waits inside the callback (on a thread of its
  /// own, so nothing deadlocks for good); `start` waits for the engine's lock
  /// until the callback gives up and returns. The run then goes on to the end.
  /// The one timing assumption: a thread hop takes less than the kit's 2 s.
  @Test func lockHeldWhileReportingIsNamed() async {
    let report = await Self.patientKit.run(against: LockHoldingEngine())
    #expect(report.brokenNames == ["commandFromReportCallback"], "\(report)")
    #expect(
      report.violations.first?.description.hasPrefix(
        "commandFromReportCallback: start(A#1), sent from inside the ready(A#1) callback, "
          + "returned only after the callback did") == true, "\(report)")
    #expect(
      report.transcript.prefix(5) == [
        "load(A#1)", "ready(A#1)", "start(A#1)", "stop(A#1)", "load(A#2)",
      ])
    #expect(report.checked.last == .stoppedLoadHarmless)
  }
}
