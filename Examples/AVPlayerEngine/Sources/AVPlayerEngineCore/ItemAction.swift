/// What ``ItemMachine`` asks the shell to do, in order.
package enum ItemAction<Seek: Equatable & Sendable>: Equatable, Sendable {
  /// Send this report about the item's load.
  case report(ItemSignal<Seek>)
  /// Call `AVPlayer.play()`.
  case play
  /// Call `AVPlayer.pause()`.
  case pause
  /// Call `seek(to:toleranceBefore:toleranceAfter:completionHandler:)` now, exactly
  /// (zero tolerance), and feed its completion back as
  /// ``ItemFact/seekFinished(_:finished:)`` with this seek.
  case seek(to: MediaPosition, Seek)
}

/// A report about the item's load, before it names the load: the shell's mapping
/// (``ItemSignal/report(about:)``) adds the load identity.
package enum ItemSignal<Seek: Equatable & Sendable>: Equatable, Sendable {
  /// The load can play: report `ready`.
  case ready
  /// Playback is starved: report `stalled`.
  case stalled
  /// The stall is over: report `resumed`.
  case resumed
  /// The newest seek is done: report `seekCompleted` with its id.
  case seekCompleted(Seek)
  /// Playback reached the end: report `reachedEnd`.
  case reachedEnd
  /// The load failed with this error: report `failed`.
  case failed(AVErrorDetail)
  /// The player paused by itself while the user wanted to play (not an interruption
  /// the shell saw, not a stall, not the end): report `pausedBySystem`.
  case pausedBySystem
  /// A live item is at this position of its timeline, in milliseconds: report
  /// `position`. Sent just before each ``window(start:end:)``, so the machine judges
  /// whether a load fell behind its window from where it is, not from where it was
  /// when it last seeked.
  case position(MediaPosition)
  /// A live item can seek within `start…end` now, `end` being the live edge: report
  /// `window`.
  case window(start: MediaPosition, end: MediaPosition)
}
