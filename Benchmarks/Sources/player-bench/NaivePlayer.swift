import PlayerState

/// The engine the naive player talks to: one method per action, called inline.
protocol NaiveEngine: AnyObject {
  func load(_ url: String)
  func start()
  func pause()
  func seek(to milliseconds: Int64)
  func stop()
}

/// A naive engine that does nothing. Its methods are kept out of line, as a
/// real engine in another module would be, so the baseline pays for the calls
/// it makes just as `Player` pays for `execute`.
final class NoOpNaiveEngine: NaiveEngine {
  @inline(never) func load(_ url: String) {}
  @inline(never) func start() {}
  @inline(never) func pause() {}
  @inline(never) func seek(to milliseconds: Int64) {}
  @inline(never) func stop() {}
}

/// The baseline: the seeds' "before" code, written the way it is written there.
///
/// Two Bools, and the engine called inline from the callbacks. It is wrong on
/// purpose (a late `bufferingDidFinish` after Stop starts the engine, and a
/// report's identity is never checked); it is here only so that the table can
/// show what Playhead costs over code that checks nothing. Not thread-safe.
final class NaivePlayer {
  private(set) var isBuffering = false
  private(set) var isPlaying = false
  private(set) var engineCalls = 0
  private var url: String?
  private let engine: any NaiveEngine

  init(engine: any NaiveEngine) { self.engine = engine }

  func playTapped(_ url: String) {
    self.url = url
    isBuffering = true
    isPlaying = false
    call { $0.load(url) }
  }

  func pauseTapped() {
    isPlaying = false
    call { $0.pause() }
  }

  func resumeTapped() {
    isPlaying = true
    call { $0.start() }
  }

  // The seeds' bug: stopping never ends the buffering.
  func stopTapped() {
    isPlaying = false
    call { $0.stop() }
  }

  func seekTapped(to milliseconds: Int64) { call { $0.seek(to: milliseconds) } }

  func retryTapped() {
    if let url { playTapped(url) }
  }

  // The seeds' bug: a callback treated as a command.
  func bufferingDidFinish() {
    isBuffering = false
    isPlaying = true
    call { $0.start() }
  }

  func bufferingDidStall() { isBuffering = true }
  func bufferingDidResume() { isBuffering = false }
  func seekDidFinish() {}
  func playbackDidEnd() { isPlaying = false }

  func playbackDidFail() {
    isPlaying = false
    isBuffering = false
  }

  // What such code does with the system, as public reports show it: pause on
  // an interruption, resume on its end whatever the user did meanwhile.
  func interruptionBegan() { pauseTapped() }
  func interruptionEnded() { resumeTapped() }
  func systemPaused() { isPlaying = false }

  func timerFired() {
    guard isBuffering else { return }
    isBuffering = false
    call { $0.stop() }
  }

  private func call(_ action: (any NaiveEngine) -> Void) {
    engineCalls &+= 1
    action(engine)
  }

  /// Feeds one event of the shared stream to the matching method. Identities
  /// are dropped: the naive code has none.
  func handle(_ event: PlaybackEvent) {
    switch event {
    case .user(.play(let media, _)): playTapped(media.rawValue)
    case .user(.pause): pauseTapped()
    case .user(.resume): resumeTapped()
    case .user(.stop): stopTapped()
    case .user(.seek(let time)): seekTapped(to: time.milliseconds)
    case .user(.retry): retryTapped()
    case .engine(.ready): bufferingDidFinish()
    case .engine(.stalled): bufferingDidStall()
    case .engine(.resumed): bufferingDidResume()
    case .engine(.seekCompleted): seekDidFinish()
    case .engine(.reachedEnd): playbackDidEnd()
    case .engine(.failed): playbackDidFail()
    case .engine(.pausedBySystem): systemPaused()
    case .watchdogExpired: timerFired()
    case .system(.interruptionBegan), .system(.routeLost): interruptionBegan()
    case .system(.interruptionEnded): interruptionEnded()
    // The seeds had no queue, rate or position reports, no network events and no sleep timer.
    case .user, .remote, .engine(.position), .engine(.window), .system(.networkLost),
      .system(.networkAvailable),
      .system(.sleepTimerExpired), .system(.duckBegan), .system(.duckEnded):
      break
    }
  }
}
