// The remote-control intents: the play/pause button, relative skips and an
// MPRIS `SetPosition`. Each is decided from the machine's own state and then
// handed to the rule that owns the move (the play gate, the load's seek, the
// retry), so a button never reads the state and acts on it later.

extension PlaybackState {
  /// `toggle`, Media3's play/pause rule (`Util.shouldShowPlayButton`): pause
  /// exactly when the user wants to play, a load exists, it has neither ended
  /// nor failed, and nothing suppresses playback; otherwise play.
  mutating func toggle(_ effects: inout Effects) -> IgnoreReason? {
    if let session, playWhenReady, session.stage != .ended, !session.stage.isFailed,
      suppression == nil
    {
      return pause(&effects)
    }
    if let session, session.stage.isFailed {
      // A failed load plays again the only way it can: reloaded, with the intent to play.
      let ignored = retry(&effects)
      if ignored == nil { playWhenReady = true }
      return ignored
    }
    return resume(&effects)
  }

  /// `skip(by:)`: a seek from the machine's own target (the pending seek's,
  /// else the last known position), clamped to [0, duration].
  mutating func skip(by delta: MediaTime, _ effects: inout Effects) -> IgnoreReason? {
    guard let session, !session.stage.isStopped else { return .noEffect }
    let (sum, overflow) = session.position.milliseconds.addingReportingOverflow(delta.milliseconds)
    var target = overflow ? (delta.milliseconds < 0 ? Int64.min : Int64.max) : sum
    target = max(0, target)
    if let duration = session.duration { target = min(target, duration.milliseconds) }
    return seek(to: .milliseconds(target), &effects)
  }

  /// `setPosition`: a seek of the named entry only while it is current.
  mutating func setPosition(
    _ item: ItemID, _ time: MediaTime, _ effects: inout Effects
  ) -> IgnoreReason? {
    guard queue.currentEntry?.item == item else { return .notCurrentEntry }
    if let duration = session?.duration, time > duration { return .invalidArgument }
    return seek(to: time, &effects)
  }

  /// The rate a lock screen extrapolates the elapsed time with, in thousandths:
  /// the user's rate while media is playing, else 0.
  var publishedRate: Int32 { isPlaying ? rate.thousandths : 0 }
}

extension EngineStage {
  /// Failed, whatever the reason (waiting for the network is not failed).
  var isFailed: Bool {
    if case .failed = self { return true }
    return false
  }
}
