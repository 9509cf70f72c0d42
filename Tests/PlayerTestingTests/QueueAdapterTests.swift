import PlayerEngine
import PlayerState
import PlayerTesting
import Testing

/// Every promise the kit checks for an engine without `.preload`, with unplayable media
/// configured, in check order.
private let everyPromiseButPreload: [EnginePromise] = [
  .executeReturnsPromptly, .loadAnswered, .reportNamesIssuedLoad, .systemPauseNamesPlayingLoad,
  .commandFromReportCallback, .seekCompletionCarriesSeekID, .stopDuringBufferingStops,
  .unknownLoadHarmless, .stoppedLoadHarmless, .unplayableMediaFails,
]

/// Adapters that keep their state behind a serial `DispatchQueue` and report from it
/// (newcomer review of 2026-12-06, item 4), and the lock-based one beside them.
///
/// In real time, with a 2 s timeout: each wait ends as soon as its report comes (1 ms
/// later), so a passing run takes milliseconds; the timeout only decides the one case
/// that is otherwise a deadlock (a command waiting for the queue its callback holds), and
/// is long enough that a busy CI machine never delays a thread hop past it.
@Suite("The conformance kit and adapters over a serial DispatchQueue")
struct QueueAdapterTests {
  private static let kit = EngineConformance(
    .init(
      media: "A", unplayableMedia: "missing",
      timing: .realTime(timeout: .seconds(2), quietPeriod: .zero)))

  /// The newcomer's adapter: `queue.sync` in `execute`, reports from
  /// `queue.asyncAfter`. It used to abort the test process (the kit ran `start` on the
  /// reporting thread, inside the queue). Now the kit names the hazard, the process
  /// lives, and every later check still runs and is reported.
  @Test func queueSyncInExecuteIsNamedNotACrash() async {
    let report = await Self.kit.run(against: QueueEngine(.sync))
    #expect(report.brokenNames == ["commandFromReportCallback"], "\(report)")
    #expect(report.violations.count == 1, "\(report)\n\(report.transcript)")
    let detail = report.violations.first?.description ?? ""
    #expect(
      detail.hasPrefix(
        "commandFromReportCallback: start(A#1), sent from inside the ready(A#1) callback, "
          + "returned only after the callback did (the kit ran it on another thread and waited "
          + "2.0 seconds): execute waits for something the reporting thread holds."),
      "\(detail)")
    #expect(detail.contains("queue.sync on the serial queue the engine reports from traps"))
    #expect(
      detail.hasSuffix(
        "Make execute enqueue its work with queue.async instead of queue.sync, and send "
          + "reports with no lock held."))
    // The run went on after the violation: every check ran, to the unplayable media.
    #expect(report.checked == everyPromiseButPreload)
    #expect(report.skipped == [:])
    #expect(report.failures == [.failed(Load(7, 7), .notFound)])
    #expect(report.transcript.prefix(4) == ["load(A#1)", "ready(A#1)", "start(A#1)", "stop(A#1)"])
    #expect(report.transcript.last == "stop(missing#7)")
  }

  /// The corrected adapter: `execute` enqueues with `queue.async`. It passes.
  @Test func queueAsyncInExecutePasses() async {
    let report = await Self.kit.run(against: QueueEngine(.async))
    #expect(report.brokenNames == [], "\(report)")
    #expect(report.checked == everyPromiseButPreload)
    #expect(report.skipped == [:])
  }

  /// The lock-based adapter (the lock never held while reporting) still passes.
  @Test func lockBasedAdapterPasses() async {
    let report = await Self.kit.run(against: LockEngine())
    #expect(report.brokenNames == [], "\(report)")
    #expect(report.checked == everyPromiseButPreload)
    #expect(report.skipped == [:])
  }

  /// Inline when already on the queue, `queue.sync` otherwise: a Player, which runs the
  /// command inline on the queue, is safe with it. The kit names it all the same: seen
  /// from outside, it waits for its queue exactly as the `queue.sync` adapter does, and
  /// the only call that would tell them apart, `execute` on the queue itself, traps the
  /// other one. `queue.async` passes both ways.
  @Test func inlineWhenOnQueueIsNamedLikeQueueSync() async {
    let report = await Self.kit.run(against: QueueEngine(.inlineWhenOnQueue))
    #expect(report.brokenNames == ["commandFromReportCallback"], "\(report)")
    #expect(report.checked == everyPromiseButPreload)
  }

  /// The kit's other path: `ready(A#1)` comes while the kit is still inside
  /// `execute(load(A#1))`, which then waits for the queue the callback holds, while the
  /// callback waits for `load` to finish so as to run `start` itself. The callback gives
  /// up after the timeout, and `load` returning only then is named: the same hazard, on
  /// every run. The kit's own wait for `load` outlasts the callback's.
  @Test func commandStillRunningWhenTheCallbackBeganIsNamed() async {
    let kit = EngineConformance(
      .init(media: "A", timing: .realTime(timeout: .seconds(2), quietPeriod: .zero)))
    let report = await kit.run(against: InterleavedSyncEngine())
    #expect(report.brokenNames == ["commandFromReportCallback"], "\(report)")
    #expect(
      report.violations.map(\.description).first?.hasPrefix(
        "commandFromReportCallback: load(A#1), still running when the ready(A#1) callback "
          + "began, returned only after the callback did (the kit ran it on another thread and "
          + "waited 2.0 seconds): execute waits for something the reporting thread holds.")
        == true, "\(report)")
    #expect(report.violations.count == 1, "\(report)")
    #expect(report.transcript.prefix(4) == ["load(A#1)", "ready(A#1)", "start(A#1)", "stop(A#1)"])
    #expect(report.checked.last == .stoppedLoadHarmless)
  }
}
