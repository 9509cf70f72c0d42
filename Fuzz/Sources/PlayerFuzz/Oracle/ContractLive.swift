import PlayerState

// Live and DVR streams, written from docs/machine.md, "Live and DVR streams
// (issue 38)", apart from the reducer: the window per load (a load is live
// once the engine reports a window about it; `start == end` is live without
// DVR, `start < end` a DVR window), the first-window rule, falling behind the
// window (a reload at the live edge, once), `goToLive`, the rate at the edge,
// and the live rules' reasons. The rules this section changes elsewhere
// (seeks, `previous`, the end of an entry, the preload, the retry, the sleep
// timer, the snapshot, Now Playing) read ``ContractModel/Current/window`` where
// they are, each marked "(ContractLive.swift)".

extension ContractModel {
  // MARK: What is live

  /// Whether the current load is live (a window was reported for it), stopped or not.
  package var isLive: Bool { current?.window != nil }

  /// Whether `window` is one the machine keeps: a start of at least 0 and an
  /// end not before it (otherwise the engine's bug, `invalidArgument`).
  static func isValid(_ window: LiveWindow) -> Bool {
    window.start >= .zero && window.start <= window.end
  }

  /// Whether `session` at `time` fell behind `window`: it played (ready or
  /// stalled), no seek is pending, and the start of a window with DVR has
  /// passed it. A window without DVR has no length to fall out of: there
  /// only the engine's `failed(behindLiveWindow)` says so.
  func fellBehind(_ session: Current, at time: Int64, _ window: LiveWindow) -> Bool {
    window.isSeekable && (session.stage == .ready || session.stage == .stalled)
      && !session.seekPending && time < window.start.milliseconds
  }

  // MARK: Reasons

  /// Why a `window` report about the current load is ignored: not in
  /// buffering, ready or stalled (`unexpected`), the engine's bad window
  /// (`invalidArgument`), or a reload at the edge with no token left.
  func windowIgnoreReason(_ window: LiveWindow, _ session: Current) -> IgnoreReason? {
    guard session.stage == .buffering || session.stage == .ready || session.stage == .stalled
    else { return .unexpected }
    guard Self.isValid(window) else { return .invalidArgument }
    let playsForward = playWhenReady && !suppressed && session.stage == .ready
    if session.window != nil, !session.openedAtLiveEdge, !playsForward,
      fellBehind(session, at: session.position, window), issued == UInt32.max
    {
      return .idsExhausted
    }
    return nil
  }

  /// Why a `window` report about the preload is ignored: one already
  /// stopped (failed, or live) is `unexpected`; a bad window `invalidArgument`.
  func windowIgnoreReason(_ window: LiveWindow, preload: Preloading) -> IgnoreReason? {
    guard preload.stage == .buffering || preload.stage == .ready else { return .unexpected }
    return Self.isValid(window) ? nil : .invalidArgument
  }

  /// `goToLive`: nothing to go to (idle, stopped, ended, or at the edge
  /// already) is `noEffect`; on-demand media `notLive`; live without DVR `notSeekable`.
  var goToLiveIgnoreReason: IgnoreReason? {
    guard let current, !current.stage.isStopped, current.stage != .ended else {
      return .noEffect
    }
    guard let window = current.window else { return .notLive }
    guard window.isSeekable else { return .notSeekable }
    guard current.seekPending || current.position < window.end.milliseconds else {
      return .noEffect
    }
    return current.lastSeek == UInt32.max ? .idsExhausted : nil
  }

  // MARK: The window

  /// A valid `window` report about the current load in buffering, ready or
  /// stalled: the first moves a position the window does not hold (below its
  /// start) to the edge; a later one the position has fallen behind reloads
  /// at the edge; the load's duration is dropped.
  mutating func receiveWindow(
    _ window: LiveWindow, _ session: inout Current, _ out: inout [EngineCommand]
  ) {
    let playsForward = playWhenReady && !suppressed && session.stage == .ready
    if session.openedAtLiveEdge {
      // Opened that far behind the edge: there, within the window.
      session.openedAtLiveEdge = false
      session.position =
        window.clamp(.milliseconds(window.end.milliseconds - session.position))
        .milliseconds
    } else if session.window == nil {
      if session.position < window.start.milliseconds { session.position = window.end.milliseconds }
    } else if !playsForward, fellBehind(session, at: session.position, window) {
      // Only a load the engine does not play forward stays where it was.
      current = session
      return reloadAtLiveEdge(&out)
    }
    let first = session.window == nil
    session.window = window
    session.duration = nil
    if session.position >= window.end.milliseconds { session.playsAtEdge = true }
    // The first window of a load the engine plays faster than 1x, at its edge.
    let plays =
      playWhenReady && !suppressed && (session.stage == .ready || session.stage == .stalled)
    if first, rate > .normal, plays, playingRate(of: session) == .normal {
      out.append(.setRate(session.load, .normal))
    }
    current = session
  }

  /// A `window` report about the preload: the entry is live, so the preload
  /// is stopped and kept as a record (``Preloading/live``): the entry loads
  /// plainly when its turn comes.
  mutating func preloadReportedWindow(_ out: inout [EngineCommand]) {
    guard var preload else { return }
    out.append(.stop(preload.load))
    preload.stage = .failed
    preload.live = true
    preload.reason = nil
    self.preload = preload
  }

  /// The current entry opens again at its live edge: the outgoing load of a
  /// crossfade, the current load and the preload stopped, a new token
  /// `load(M#n, at live edge)` with its load watchdog; the play intent kept.
  mutating func reloadAtLiveEdge(_ out: inout [EngineCommand]) {
    guard issued < UInt32.max else { return }
    stopCrossfade(&out)
    stopCurrent(&out)
    dropPreload(&out)
    enterAtLiveEdge(&out)
  }

  /// The current entry loads at its live edge (from 0, flagged), or `behind`
  /// that far behind it (a restored DVR entry), never by promoting its preload.
  mutating func enterAtLiveEdge(behind offset: Int64 = 0, _ out: inout [EngineCommand]) {
    guard let at = position else { return }
    let entry = entries[at]
    if preload?.load.item == entry.item {
      // A stopped preload's record; a live one is stopped before.
      dropPreload(&out)
    }
    stopLeaving(&out)
    let load = newToken(entry.item)
    out.append(
      .load(
        LoadRequest(
          load: load, media: entry.media, start: .milliseconds(offset), atLiveEdge: true)))
    current = Current(
      load: load, stage: .buffering, lastSeek: 0, seekPending: false, lastWatchdog: 1,
      started: false, position: offset, duration: nil)
    current?.openedAtLiveEdge = true
  }

  // MARK: Go to live

  /// `goToLive`, accepted: a seek to the live edge (the play intent kept).
  mutating func goToLive(_ out: inout [EngineCommand]) {
    guard let window = current?.window else { return }
    user(.seek(to: window.end), &out)
  }

  // MARK: The rate at the edge

  /// The rate the engine is told for `session`: the user's, but 1x for a
  /// live load at its edge (its last known position at or past the window's
  /// end; always, without DVR) when the user's is faster.
  func playingRate(of session: Current) -> PlaybackRate {
    guard rate > .normal, let window = session.window, !window.isSeekable || session.playsAtEdge
    else { return rate }
    return .normal
  }

  /// Whether the engine plays `session`: told to play and not held, in ready
  /// or stalled, or fading out into a pause (it plays until the fade's end).
  func enginePlays(_ session: Current) -> Bool {
    session.fadingOut
      || (playWhenReady && !suppressed && (session.stage == .ready || session.stage == .stalled))
  }

  /// After a step: when the rate the engine is told for the load it plays
  /// changed (a report reached or left the edge, a seek, a window), the step
  /// sends `setRate(L, r)` once, unless it started the load or sent its rate.
  mutating func keepLiveRateInStep(
    from before: (rate: PlaybackRate, load: Load)?, since mark: Int, _ out: inout [EngineCommand]
  ) {
    // A live load the engine no longer plays has left its edge.
    if let session = current, session.window != nil, session.playsAtEdge, !enginePlays(session) {
      current?.playsAtEdge = false
    }
    guard let before, let session = current, session.load == before.load, enginePlays(session)
    else { return }
    let now = playingRate(of: session)
    guard now != before.rate else { return }
    for command in out[mark...] {
      switch command {
      case .start(let load, _), .setRate(let load, _): if load == session.load { return }
      default: continue
      }
    }
    out.append(.setRate(session.load, now))
  }
}
