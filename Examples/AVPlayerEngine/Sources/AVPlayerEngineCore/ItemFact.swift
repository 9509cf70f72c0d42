/// Something AVFoundation said about the player or the current item, as a value.
///
/// The shell reads each one on the main actor, from the *current* property values
/// (not the KVO change's `new`, which may be stale by the time the main queue runs the
/// handler), and feeds it to ``ItemMachine``. `Seek` is the shell's seek identity (the
/// machine's `SeekID`); the core only compares it.
package enum ItemFact<Seek: Equatable & Sendable>: Equatable, Sendable {
  /// KVO `AVPlayerItem.status`.
  case itemStatus(ItemStatus)
  /// KVO `AVPlayerItem.isPlaybackLikelyToKeepUp` or `isPlaybackBufferFull` changed;
  /// carries whether either is true now (a full buffer plays even when the
  /// prediction says no: see `AVPlayer.WaitingReason.toMinimizeStalls`).
  case bufferingChanged(canKeepUp: Bool)
  /// KVO `AVPlayer.timeControlStatus` (with `reasonForWaitingToPlay`).
  case timeControl(TimeControl)
  /// `AVPlayerItem.playbackStalledNotification`, with the player's `timeControlStatus`
  /// read when the main actor handles it: a notification that arrives after playback
  /// went on again must not start a stall nobody will end.
  case playbackStalled(now: TimeControl)
  /// The completion handler of `seek(to:toleranceBefore:toleranceAfter:completionHandler:)`
  /// for this seek ran with `finished`.
  case seekFinished(Seek, finished: Bool)
  /// `AVPlayerItem.didPlayToEndTimeNotification`.
  case playedToEnd
  /// `AVPlayerItem.failedToPlayToEndTimeNotification`, with the error under
  /// `AVPlayerItemFailedToPlayToEndTimeErrorKey` (not `item.error`, which is nil unless
  /// the item's status is `.failed`).
  case failedToPlayToEnd(AVErrorDetail)
  /// The shell read, when handling a `.paused` time control, that the item's current
  /// time is at its duration: that pause is the end's (`actionAtItemEnd` `.pause`),
  /// whichever of it and `didPlayToEndTimeNotification` the main queue runs first. The
  /// shell delivers it just before that `.timeControl(.paused)`.
  case pausedAtEnd
  /// The audio session's interruption began (`true`) or ended (`false`), as the shell
  /// saw `AVAudioSession.interruptionNotification` (iOS, tvOS). While one is active, a
  /// pause the player makes by itself is the interruption's: the app's ``Player`` hears
  /// of it as the system event, not as `pausedBySystem`.
  case interruption(active: Bool)
  /// KVO `AVPlayer.status` became `.failed` (for example after a media services reset),
  /// with `player.error`. The player cannot play anything any more.
  case playerFailed(AVErrorDetail)
  /// The item's timeline, read now: on KVO of `seekableTimeRanges` or `duration`, and
  /// with each status change. A live item (`duration` `.indefinite`) is reported as a
  /// window (``LiveWindowRule``).
  case timing(ItemTiming)
}

/// `AVPlayerItem.Status`, with the item's error when it failed.
package enum ItemStatus: Equatable, Sendable {
  /// `.unknown`: not loaded yet.
  case unknown
  /// `.readyToPlay`: the item can be played and seeked.
  case readyToPlay
  /// `.failed`, with `item.error`: "the item no longer plays due to an error".
  case failed(AVErrorDetail)
}

/// `AVPlayer.TimeControlStatus`, with the reason while waiting.
package enum TimeControl: Equatable, Sendable {
  /// `.paused`: rate 0, by `pause()`, the end of the item, an interruption, or a
  /// stall in file-based playback.
  case paused
  /// `.waitingToPlayAtSpecifiedRate` with `reasonForWaitingToPlay`.
  case waiting(WaitingReason)
  /// `.playing`: the clock is moving.
  case playing
}

/// `AVPlayer.WaitingReason`, the cases this adapter tells apart.
package enum WaitingReason: Equatable, Sendable {
  /// `.toMinimizeStalls`: not enough media to play without stalling. This is the
  /// buffering a user sees; the adapter reports it as a stall.
  case toMinimizeStalls
  /// `.evaluatingBufferingRate`: a brief measurement before playback starts. Apple's
  /// documentation recommends not showing it as waiting; not a stall.
  case evaluatingBufferingRate
  /// `.noItemToPlay`: the player has no current item (between loads).
  case noItemToPlay
  /// Any other reason (an interstitial event, coordinated playback, a newer one, or
  /// none given): the media is not starved, so not a stall.
  case other
}

/// A command of the machine's, as far as the item is concerned. `load` and `stop` are
/// the shell's alone: they make and drop the item, and with it the ``ItemMachine``.
package enum ItemCommand<Seek: Equatable & Sendable>: Equatable, Sendable {
  /// `start(L)`: the user wants to play.
  case start
  /// `pause(L)`: the user wants to be paused.
  case pause
  /// `seek(L, t, s)`.
  case seek(to: MediaPosition, Seek)
}

/// A position to seek to, in milliseconds (the machine's `MediaTime`, kept as a plain
/// number here so the core's inputs do not depend on how the machine spells time).
package typealias MediaPosition = Int64
