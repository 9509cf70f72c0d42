import PlayerState

/// The bus messages the adapter acts on, already parsed: the only GStreamer
/// input to ``PipelineSession/handle(_:)``, so the mapping to reports can be
/// tested without a pipeline.
enum BusMessage: Hashable, Sendable {
  /// `GST_MESSAGE_ASYNC_DONE`: an asynchronous state change (the first
  /// preroll to PAUSED) or a flushing seek has completed.
  case asyncDone
  /// `GST_MESSAGE_EOS`: playback reached the end.
  case endOfStream
  /// `GST_MESSAGE_ERROR`: the pipeline failed.
  case error(GStreamerError)
  /// `GST_MESSAGE_BUFFERING` with its percentage.
  case buffering(percent: Int32)
  /// `GST_MESSAGE_STREAM_START`: a stream began; after a gapless switch, the next entry's.
  /// The session handles it (the progress of one load ignores it).
  case streamStart
  /// `GST_MESSAGE_DURATION_CHANGED`: the stream's duration may have changed; an HLS live
  /// stream posts it at each playlist refresh, when its seekable window moves. The session
  /// checks the window at once (``PipelineMachine/windowReport(for:)``); no report of its own.
  case durationChanged
}

/// What the session knows about its pipeline, only touched on its thread.
/// Deciding the report for a message is a pure function of this and the message.
struct PipelineProgress: Hashable, Sendable {
  /// The first ASYNC_DONE (preroll) has arrived.
  var prerolled = false
  /// The load was answered `ready`: at the preroll, or before it for a preload
  /// (whose pipeline prerolls again when it becomes current without the gapless path).
  var answered = false
  /// The load failed; nothing more is reported for it.
  var failed = false
  /// The pipeline is rebuffering (reported `stalled`, not yet `resumed`).
  var stalled = false
  /// The stream is live (the latency query said so): BUFFERING below 100% is no stall.
  /// GStreamer's advice for live pipelines: never pause one to rebuffer, which would only put
  /// it behind its window (an HLS live stream posts BUFFERING all the time as hlsdemux's queue
  /// fills and drains; paused on each, it fell behind its window at once and reloaded, over
  /// and over: found by the live HLS test).
  var live = false
  /// The newest seek sent to the pipeline, awaiting its ASYNC_DONE.
  var pendingSeek: SeekID?

  /// The report for a message, if any, and the progress after it.
  ///
  /// ASYNC_DONE answers the load (`ready`) the first time, then completes
  /// the newest pending seek (several seeks in flight complete once, with the
  /// newest id: the machine only waits for that one). BUFFERING below 100%
  /// after preroll is a stall, 100% ends it; before preroll it is part of the
  /// first buffering. An ERROR is reported once and silences the load.
  mutating func report(for message: BusMessage, of load: Load) -> EngineReport? {
    guard !failed else { return nil }
    switch message {
    case .asyncDone:
      if !prerolled {
        prerolled = true
        if answered { return nil }
        answered = true
        return .ready(load)
      }
      guard let seek = pendingSeek else { return nil }
      pendingSeek = nil
      return .seekCompleted(load, seek)
    case .endOfStream:
      return prerolled ? .reachedEnd(load) : nil
    case .error(let error):
      failed = true
      return .failed(load, error.reason, detail: error.detail)
    case .buffering(let percent):
      guard prerolled else { return nil }
      if percent < 100, !stalled, !live {
        stalled = true
        return .stalled(load)
      }
      if percent >= 100, stalled {
        stalled = false
        return .resumed(load)
      }
      return nil
    case .streamStart, .durationChanged:
      return nil
    }
  }
}
