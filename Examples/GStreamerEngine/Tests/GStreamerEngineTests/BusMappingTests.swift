import PlayerState
import Testing

@testable import GStreamerEngine

/// The mapping from GStreamer's bus messages and errors to reports, without a pipeline.
@Suite struct BusMappingTests {
  static let errors: [(GStreamerError, FailureReason)] = [
    (GStreamerError(domain: .resource, code: 3), .notFound),
    (GStreamerError(domain: .resource, code: 9), .network),
    (GStreamerError(domain: .stream, code: 4), .unsupported),
    (GStreamerError(domain: .stream, code: 6), .unsupported),
    (GStreamerError(domain: .stream, code: 7), .decoding),
    (GStreamerError(domain: .core, code: 12), .unsupported),
    (GStreamerError(domain: .resource, code: 15), .engine(code: 3015)),
    (GStreamerError(domain: .other, code: 5), .engine(code: 5)),
  ]

  @Test(arguments: errors)
  func errorReason(_ error: GStreamerError, _ reason: FailureReason) {
    #expect(error.reason == reason)
  }

  static let sequences: [([BusMessage], [String])] = [
    ([.asyncDone, .endOfStream], ["ready(A#1)", "ended(A#1)"]),
    // Buffering before the preroll is the first buffering, not a stall.
    (
      [
        .buffering(percent: 10), .asyncDone, .buffering(percent: 40), .buffering(percent: 60),
        .buffering(percent: 100),
      ], ["ready(A#1)", "stalled(A#1)", "resumed(A#1)"]
    ),
    // An ASYNC_DONE with no seek pending (a pause's re-preroll) reports nothing.
    ([.asyncDone, .asyncDone], ["ready(A#1)"]),
    // After an error the load is silent.
    (
      [.error(GStreamerError(domain: .resource, code: 3)), .asyncDone, .endOfStream],
      ["failed(A#1, notFound)"]
    ),
    ([.endOfStream, .asyncDone], ["ready(A#1)"]),
  ]

  @Test(arguments: sequences)
  func messagesToReports(_ messages: [BusMessage], _ expected: [String]) {
    var progress = PipelineProgress()
    let reports = messages.compactMap { progress.report(for: $0, of: Load(1, 1)) }
    #expect(reports.map { $0.description(naming: { _ in "A" }) } == expected)
  }

  @Test func asyncDoneCompletesTheNewestPendingSeek() {
    var progress = PipelineProgress()
    #expect(progress.report(for: .asyncDone, of: Load(1, 1)) == .ready(Load(1, 1)))
    progress.pendingSeek = SeekID(3)
    #expect(
      progress.report(for: .asyncDone, of: Load(1, 1)) == .seekCompleted(Load(1, 1), SeekID(3)))
    #expect(progress.pendingSeek == nil)
  }
}
