package import PlayerState

// The one place the core meets the machine's vocabulary (`Load`, `EngineCommand`,
// `EngineReport`, `SeekID`, `FailureReason`): when their shapes change, this file and
// `FailureMapping.reason(for:)` change, the rest of the core does not.

extension ItemCommand where Seek == SeekID {
  /// The item's part of a machine command: nil for `load`, `stop`, `setRate` and
  /// `setVolume`, which the shell
  /// performs itself.
  package init?(_ command: EngineCommand) {
    switch command {
    case .start: self = .start
    case .pause: self = .pause
    case .seek(_, let time, let seek): self = .seek(to: time.milliseconds, seek)
    case .load, .preload, .setRate, .stop, .setVolume: return nil
    }
  }
}

extension ItemSignal where Seek == SeekID {
  /// The report to send about `load`.
  /// - Parameter load: the load whose item produced the signal.
  /// - Returns: the engine report, with the failure's error mapped to a reason by
  ///   ``FailureMapping/reason(for:)`` and carried as ``FailureMapping/detail(for:)``.
  package func report(about load: Load) -> EngineReport {
    switch self {
    case .ready: .ready(load)
    case .stalled: .stalled(load)
    case .resumed: .resumed(load)
    case .seekCompleted(let seek): .seekCompleted(load, seek)
    case .reachedEnd: .reachedEnd(load)
    case .failed(let error):
      .failed(
        load, FailureMapping.reason(for: error), detail: FailureMapping.detail(for: error))
    case .pausedBySystem: .pausedBySystem(load)
    case .position(let time): .position(load, .milliseconds(time))
    case .window(let start, let end):
      .window(load, LiveWindow(start: .milliseconds(start), end: .milliseconds(end)))
    }
  }
}

extension LoadRequest {
  /// Where the shell seeks a new item before it plays, in milliseconds, or nil to leave
  /// it at its default position.
  ///
  /// A load at the live edge (``LoadRequest/atLiveEdge``: a reload after falling behind,
  /// a retry, a live entry resumed after its end) and a load from 0 are not seeked: a
  /// new `AVPlayerItem` of a live stream starts at its default position, the live edge
  /// (`configuredTimeOffsetFromLive` behind the live time: Apple's documentation of that
  /// property, "the offset from the live time to start playback"; RFC 8216, section
  /// 6.3.3, three target durations from the playlist's end unless `EXT-X-START` says
  /// otherwise), and on-demand media starts at 0. So no `seek(to: .positiveInfinity)`:
  /// it would only repeat what the item does by itself, and it is a seek whose
  /// completion nobody waits for. Any other start (a retry of on-demand media, a
  /// restored DVR position) is seeked to; the machine's first window moves a position
  /// the window no longer holds to the edge.
  package var initialSeek: MediaPosition? {
    atLiveEdge || start <= .zero ? nil : start.milliseconds
  }
}
