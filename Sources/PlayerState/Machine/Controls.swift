// The remote-control intents: the play/pause button, relative skips and an
// MPRIS `SetPosition`. Each is decided from the machine's own state and then
// handed to the rule that owns the move (the play gate, the load's seek, the
// retry), so a button never reads the state and acts on it later.

/// What the play/pause button does in a state (``PlaybackState/toggleMove``).
enum ToggleMove: Equatable {
  /// `pause`.
  case pause
  /// A failed load plays again the only way it can: `retry`, with the intent to play.
  case retry
  /// `resume`.
  case resume
}

extension PlaybackState {
  /// What `toggle` does, Media3's play/pause rule (`Util.shouldShowPlayButton`):
  /// pause exactly when the user wants to play, a load exists, it has neither
  /// ended nor failed, and nothing suppresses playback; retry a failed load;
  /// otherwise play.
  var toggleMove: ToggleMove {
    guard let session else { return .resume }
    if playWhenReady, session.stage != .ended, !session.stage.isFailed, suppression == nil {
      return .pause
    }
    return session.stage.isFailed ? .retry : .resume
  }

  /// Whether `toggle` changes anything: whether the move it makes does.
  var canToggle: Bool {
    switch toggleMove {
    case .pause: canPause
    case .retry: canRetry
    case .resume: canResume
    }
  }

  /// `toggle`: the ``toggleMove``.
  mutating func toggle(_ effects: inout Effects) -> IgnoreReason? {
    switch toggleMove {
    case .pause:
      return pause(fading: true, &effects)
    case .retry:
      let ignored = retry(&effects)
      if ignored == nil { playWhenReady = true }
      return ignored
    case .resume:
      return resume(&effects)
    }
  }

  /// `skip(by:)`: a seek from the machine's own target (the pending seek's,
  /// else the last known position), clamped to [0, duration].
  mutating func skip(by delta: MediaTime, _ effects: inout Effects) -> IgnoreReason? {
    guard canSeek, let session else { return .noEffect }
    let (sum, overflow) = session.position.milliseconds.addingReportingOverflow(delta.milliseconds)
    var target = overflow ? (delta.milliseconds < 0 ? Int64.min : Int64.max) : sum
    target = max(0, target)
    // A live load's window clamps it (LiveStreams, in `seek`).
    if let duration = session.duration { target = min(target, duration.milliseconds) }
    return seek(to: .milliseconds(target), &effects)
  }

  /// `setPosition`: a seek of the named entry only while it is current.
  mutating func setPosition(
    _ item: ItemID, _ time: MediaTime, _ effects: inout Effects
  ) -> IgnoreReason? {
    guard queue.currentEntry?.item == item else { return .notCurrentEntry }
    if let duration = session?.duration, time > duration { return .invalidArgument }
    if let window = session?.window, canSeek {
      guard window.isSeekable else { return .notSeekable }
      guard window.contains(time) else { return .invalidArgument }
    }
    return seek(to: time, &effects)
  }

  /// The rate a lock screen extrapolates the elapsed time with, in thousandths:
  /// the user's rate while media is playing, else 0.
  package var publishedRate: Int32 { isPlaying ? playingRate.thousandths : 0 }
}

extension EngineStage {
  /// Failed, whatever the reason (waiting for the network is not failed).
  var isFailed: Bool {
    if case .failed = self { return true }
    return false
  }
}
