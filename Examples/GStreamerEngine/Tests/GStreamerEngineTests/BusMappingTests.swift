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
    (GStreamerError(domain: .resource, code: 5), .network),
    (GStreamerError(domain: .resource, code: 15), .network),
    (GStreamerError(domain: .resource, code: 14), .engine(code: 3014)),
    (GStreamerError(domain: .stream, code: 9), .decoding),
    (GStreamerError(domain: .stream, code: 1), .decoding),
    (GStreamerError(domain: .other, code: 5), .engine(code: 5)),
  ]

  @Test(arguments: errors)
  func errorReason(_ error: GStreamerError, _ reason: FailureReason) {
    #expect(error.reason == reason)
  }

  @Test func theDetailKeepsTheQuarkTheCodeAndTheText() {
    let parsed = GStreamerError(
      domain: .resource, code: 3, text: "Resource not found.", quark: "gst-resource-error-quark")
    #expect(
      parsed.detail
        == FailureDetail(
          domain: "gst-resource-error-quark", code: 3, message: "Resource not found."))
    // Without the message's quark, the domain's own; an element's own domain is kept.
    #expect(GStreamerError(domain: .stream, code: 7).detail.domain == "gst-stream-error-quark")
    let foreign = GStreamerError(domain: .other, code: 2, text: "x", quark: "g-io-error-quark")
    #expect(foreign.detail.description == "g-io-error-quark 2 \"x\"")
    #expect(foreign.reason == .engine(code: 2))
  }

  @Test func aFailureReportCarriesTheDetail() {
    var progress = PipelineProgress()
    let error = GStreamerError(domain: .stream, code: 9, text: "Internal data stream error.")
    #expect(
      progress.report(for: .error(error), of: Load(1, 1))?.description(naming: { _ in "A" })
        == "failed(A#1, decoding, gst-stream-error-quark 9 \"Internal data stream error.\")")
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
      ["failed(A#1, notFound, gst-resource-error-quark 3 \"\")"]
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
