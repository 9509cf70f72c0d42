import PlayerState

/// What a pipeline's queries say about a live stream, already read (``PipelineSession`` asks
/// GStreamer; this is the value the decision is made on, so it is tested without a pipeline).
struct LiveQuery: Hashable, Sendable {
  /// Whether the stream is live: the prerolled pipeline knows no duration (an HLS playlist
  /// with no `#EXT-X-ENDLIST`, a radio stream), as AVPlayer's indefinite duration means live.
  /// Not the latency query's live flag, which a sink that syncs to the clock sets for any
  /// media (a WAV file played with `sync` answers live).
  var isLive: Bool
  /// The seeking query's seekable flag, in time.
  var isSeekable = false
  /// The start of the seekable range, nil when unknown (GStreamer's -1).
  var start: MediaTime?
  /// The end of the seekable range: for HLS, the live edge, hlsdemux's default position
  /// (three target durations before the playlist's end), nil when unknown.
  var end: MediaTime?
  /// The pipeline's position, nil when unknown: a window without DVR is at it.
  var position: MediaTime?
}

/// The live window a pipeline reports for its load, as a value: the query's answer in, the
/// window to report (only when it moved) out.
///
/// | query | window |
/// | --- | --- |
/// | not live | none: on-demand media reports no window |
/// | live, seekable, `0 ≤ start ≤ end` | `start…end` (DVR when `start < end`) |
/// | live, anything else (not seekable, or the range unknown or backwards) | `p…p` at the position `p`: live without DVR, no seeking; none while the position is unknown |
///
/// A window equal to the one reported last is not reported again. A window without DVR moves
/// with the position, so it is reported at each check while the stream plays. Once a DVR window
/// was reported, a query that is not seekable reports nothing (the last window stays): a stream
/// does not lose its window, and a pipeline in the middle of a flushing seek may answer so.
struct PipelineLiveWindow: Hashable, Sendable {
  /// The window reported last; nil before the first.
  private(set) var reported: LiveWindow?

  /// The window to report for `query`, if any, and it becomes the one reported.
  mutating func window(for query: LiveQuery) -> LiveWindow? {
    guard query.isLive else { return nil }
    let window: LiveWindow
    if query.isSeekable, let start = query.start, let end = query.end, start >= .zero,
      start <= end
    {
      window = LiveWindow(start: start, end: end)
    } else if reported?.isSeekable == true {
      return nil
    } else if let position = query.position {
      let edge = max(position, .zero)
      window = LiveWindow(start: edge, end: edge)
    } else {
      return nil
    }
    guard window != reported else { return nil }
    reported = window
    return window
  }
}
