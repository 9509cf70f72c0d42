// Live and DVR streams: a load the engine reports a window for
// (`EngineReport.window`) is live; its window is what it can seek to now and
// its end the live edge. This file owns the window, falling behind it (a
// reload at the edge, once), `goToLive` and the rate at the edge; the rules
// it changes elsewhere (seeks, `previous`, the end of an entry, the preload,
// the retry, the snapshot, the sleep timer) read `Session.window` where they
// are. docs/machine.md, "Live and DVR streams".

extension PlaybackState {
  /// A window report about the current load (`session`, a copy), valid and
  /// in buffering, ready or stalled: kept; the first moves a position the
  /// window does not hold to the edge; a later one the position has fallen
  /// behind reloads at the edge.
  mutating func receiveWindow(
    _ window: LiveWindow, _ session: Session, _ effects: inout Effects
  ) -> IgnoreReason? {
    guard window.isValid else { return .invalidArgument }
    var session = session
    if session.openedAtLiveEdge {
      // Opened that far behind the edge: where the engine started, in the window.
      session.openedAtLiveEdge = false
      session.position = window.clamp(window.end - session.position)
      session.anchor = session.position
    } else if session.window == nil {
      // Where the engine started: a load from a position the window has
      // left (or from 0, the engine's default position) is at the edge.
      if session.position < window.start {
        session.position = window.end
        session.anchor = window.end
      }
    } else if !(plays(session) && session.stage == .ready),
      fellBehind(session, at: session.position, window)
    {
      // Only a load the engine does not play forward (paused, held, stalled)
      // is known to stay where it was: a playing load's last report trails it.
      return reloadAtLiveEdge(&effects)
    }
    let first = session.window == nil
    session.window = window
    // A live load has no duration: the window replaces it.
    session.duration = nil
    // At the edge only while the engine plays it (as `stepLive` keeps it
    // after later events: the first window finds the load on demand).
    if session.position >= window.end, enginePlays(session) {
      session.playsAtEdge = true
    }
    // The first window of a load the engine plays faster than 1x at its edge.
    if first, rate > .normal, plays(session), playingRate(of: session) == .normal {
      effects.commands.append(.setRate(session.load, .normal))
    }
    self.session = session
    return nil
  }

  /// A position report about a live load (`session`, a copy, with a window):
  /// one behind the window's start reloads at the edge.
  mutating func moveLive(
    to time: MediaTime, _ window: LiveWindow, _ session: Session, _ effects: inout Effects
  ) -> IgnoreReason? {
    if fellBehind(session, at: time, window) { return reloadAtLiveEdge(&effects) }
    self.session?.position = time
    if time >= window.end { self.session?.playsAtEdge = true }
    return nil
  }

  /// Whether a load at `time` has fallen behind `window`: it played (ready or
  /// stalled), no seek is pending, and the start of a DVR window has passed
  /// it (for a window report, the caller also asks that the engine not play
  /// the load forward). A window without DVR has no length to fall out of (its start is the
  /// edge, which every position trails by the engine's report interval): there
  /// only the engine's `failed(behindLiveWindow)` says so.
  private func fellBehind(_ session: Session, at time: MediaTime, _ window: LiveWindow) -> Bool {
    window.isSeekable && session.stage.isStarted && !session.seekPending && time < window.start
  }

  /// The current entry's live load opens again at the live edge: the old one
  /// stopped, a new token, its load watchdog; the play intent kept.
  mutating func reloadAtLiveEdge(_ effects: inout Effects) -> IgnoreReason? {
    guard tokenAvailable else { return .idsExhausted }
    leave(keepingPreload: false, &effects)
    return enterCurrent(from: .zero, atLiveEdge: true, &effects)
  }

  /// `goToLive`: a DVR load seeks to its live edge.
  mutating func goToLive(_ effects: inout Effects) -> IgnoreReason? {
    guard canSeek, let session, session.stage != .ended else { return .noEffect }
    guard let window = session.window else { return .notLive }
    guard window.isSeekable else { return .notSeekable }
    guard session.seekPending || session.position < window.end else { return .noEffect }
    return seek(to: window.end, &effects)
  }

  /// What kind of media the current load is; nil with no load.
  public var streamKind: StreamKind? { session?.kind }

  /// The rate the engine is told for the current load: the user's, but 1x
  /// for a live load at its live edge (nothing ahead to play faster).
  var playingRate: PlaybackRate {
    // The window tested in place first: a copy of the session only for a live one.
    guard rate > .normal, session?.window != nil, let session else { return rate }
    return playingRate(of: session)
  }

  /// The rate the engine is told for `session`: 1x at a live edge when the
  /// user's is faster (always, without DVR: such a load is at its edge).
  func playingRate(of session: Session) -> PlaybackRate {
    guard rate > .normal, let window = session.window, !window.isSeekable || session.playsAtEdge
    else { return rate }
    return .normal
  }

  /// The step of an event that finds a live load current: the event's own
  /// step, then the edge kept in step. A load the engine no longer plays (a
  /// pause, a hold) has left its edge; and one whose ``playingRate`` moved
  /// (it reached the edge, or left it) is sent the new rate, once, unless the
  /// step started it or sent its rate already. (The first window of a load,
  /// which finds it on demand, sends its own rate.)
  mutating func stepLive(_ event: PlaybackEvent, _ effects: inout Effects) {
    // The rate before the event: read only above 1x.
    var before: (PlaybackRate, Load)?
    if rate > .normal, let session { before = (playingRate(of: session), session.load) }
    step(event, &effects)
    guard effects.ignored == nil else { return }
    if session?.playsAtEdge == true, !enginePlays { session?.playsAtEdge = false }
    guard let (before, load) = before else { return }
    let now = playingRate
    guard now != before, enginePlays, let session, session.load == load else { return }
    for command in effects.commands {
      switch command {
      case .start(load, _), .setRate(load, _): return
      default: continue
      }
    }
    effects.commands.append(.setRate(load, now))
  }
}
