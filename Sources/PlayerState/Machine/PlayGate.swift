// The play gate: whether the engine plays. The user's intent
// (`playWhenReady`), an interruption in progress (`interrupted`), a duck under
// the `.pause` policy (`duckHolds`: VolumeAndDucking.swift owns `ducked`) and the
// system's pause of the current load (`Session.systemPaused`) meet here, and
// this is the only code that sends `start`, `pause` or `setRate`, and the
// only code that writes `interrupted`, `systemPaused` or `fadingOut`.
//
// Fades (`configuration.fade`): the user's pause of a playing load is a
// ramp to 0 and a timer with identity (`TimerPurpose.fadeOut`), and the
// `pause` follows at its expiry, or at once when anything silences the load
// first (`finishFadeOut`); a resume meanwhile ramps back up without a
// `start`; the user's resume of a load they paused ramps up from 0. The
// intent changes at once: a load fading out is paused for everyone but the
// engine, for which it still plays (`enginePlays`).

extension PlaybackState {
  /// Whether the engine plays `session` (or should, once told to): it is
  /// ready or stalled, the user wants to play, and the system holds nothing
  /// (no interruption, no duck under the `.pause` policy, no system pause).
  func plays(_ session: Session) -> Bool {
    playWhenReady && !interrupted && !duckHolds && !session.systemPaused
      && session.stage.isStarted
  }

  /// Whether the engine plays the current load: what `setRate`, `pause`, an
  /// interruption and its end act on. A load fading out into a pause plays
  /// until the fade ends.
  var enginePlays: Bool {
    guard let session else { return false }
    return enginePlays(session)
  }

  /// Whether the engine plays `session` (a copy not yet stored): as ``enginePlays``.
  func enginePlays(_ session: Session) -> Bool {
    plays(session) || session.fadingOut
  }

  /// Whether a user's pause or stop of `session` fades out: fades are on,
  /// the engine plays it, it is ready (stalled or held, nothing is heard)
  /// and audible.
  func fadesOut(_ session: Session) -> Bool {
    configuration.fadeLength > .zero && (plays(session) || session.fadingOut)
      && session.stage == .ready && effectiveVolume != .silent
  }

  /// Ends a fade-out into a pause, at its expiry or early (a stall, a
  /// system hold): `pause`, then the effective volume, since the load is
  /// live and paused (nothing is heard); nothing when it is not fading.
  func finishFadeOut(_ session: inout Session, _ effects: inout Effects) {
    guard session.fadingOut else { return }
    session.fadingOut = false
    effects.commands.append(.pause(session.load))
    effects.commands.append(.setVolume(session.load, effectiveVolume))
  }

  /// Sends `start` when the engine should play `session` (the state's
  /// intent and interruption, the session's own stage and system pause):
  /// the one place a transition starts the engine.
  func startIfPlays(_ session: Session, _ effects: inout Effects) {
    if plays(session) {
      effects.commands.append(.start(session.load, rate: playingRate(of: session)))
    }
  }

  // MARK: The user's intents

  /// Whether `pause` changes anything: a load exists and the user wants to play.
  var canPause: Bool { session != nil && playWhenReady }

  /// `pause` (and route loss): the intent becomes pause; a system pause is
  /// taken over by the user's. With `fading`, a playing load fades out
  /// first (``PlayerConfiguration/fade``): route loss must be silent at once.
  mutating func pause(fading: Bool, _ effects: inout Effects) -> IgnoreReason? {
    guard canPause else { return .noEffect }
    stopOutgoing(&effects)
    guard var session else { return .noEffect }
    if fading, fadesOut(session),
      let timer = session.arm(.fadeOut, wait: configuration.fadeLength)
    {
      effects.commands.append(.setVolume(session.load, .silent, ramp: configuration.fade))
      effects.watchdog = timer
      session.fadingOut = true
    } else if enginePlays {
      effects.commands.append(.pause(session.load))
    }
    playWhenReady = false
    session.systemPaused = false
    self.session = session
    return nil
  }

  /// Route loss (the headphones are out): the user's pause, never faded; a
  /// fade under way ends at once, since its tail would play from the speaker.
  mutating func routeLost(_ effects: inout Effects) -> IgnoreReason? {
    guard var session, session.fadingOut else { return pause(fading: false, &effects) }
    finishFadeOut(&session, &effects)
    self.session = session
    return nil
  }

  /// Whether `resume` changes anything: idle with a current entry to load,
  /// or a load that ended, that the user paused or that the system holds.
  var canResume: Bool {
    guard let session else { return queue.current != nil }
    return session.stage == .ended || !playWhenReady || session.systemPaused
  }

  /// `resume`: loads the current entry if idle (a restored entry from its
  /// saved position), replays an ended one from the start, and is the user's
  /// way to play again after a system pause.
  mutating func resume(_ effects: inout Effects) -> IgnoreReason? {
    guard canResume else { return .noEffect }
    guard var session else {
      guard tokenAvailable else { return .idsExhausted }
      playWhenReady = true
      // A resume point is always the current entry's (an invariant the post-pass keeps).
      if let offset = resumePoint?.liveOffset {
        return enterCurrent(from: offset, atLiveEdge: true, &effects)
      }
      return enterCurrent(from: resumePoint?.position ?? .zero, &effects)
    }
    if session.fadingOut {
      // The engine was never paused: it ramps back up from where it is.
      session.fadingOut = false
      playWhenReady = true
      effects.commands.append(
        .setVolume(session.load, effectiveVolume, ramp: configuration.fade))
      self.session = session
      return nil
    }
    // The user's own pause of a ready load ends with a fade-in.
    let fadesIn =
      !playWhenReady && session.stage == .ready && configuration.fadeLength > .zero
      && effectiveVolume != .silent
    if session.stage == .ended, session.window != nil {
      // A live broadcast that ended: reloaded at its edge, never replayed from 0.
      guard tokenAvailable else { return .idsExhausted }
      playWhenReady = true
      return reloadAtLiveEdge(&effects)
    }
    if session.stage == .ended {
      guard session.issueSeek(to: .zero, &effects) else { return .idsExhausted }
      session.stage = .ready
    }
    session.systemPaused = false
    playWhenReady = true
    if fadesIn, plays(session) {
      effects.commands.append(.setVolume(session.load, .silent))
      startIfPlays(session, &effects)
      effects.commands.append(
        .setVolume(session.load, effectiveVolume, ramp: configuration.fade))
    } else {
      startIfPlays(session, &effects)
    }
    self.session = session
    return nil
  }

  /// `setRate`: kept for every `start`; sent now only to an engine told to
  /// play (a rate change would start an AVPlayer the system holds).
  mutating func setRate(_ newRate: PlaybackRate, _ effects: inout Effects) -> IgnoreReason? {
    guard newRate.thousandths > 0 else { return .invalidArgument }
    guard newRate != rate else { return .noEffect }
    let before = playingRate
    rate = newRate
    // A live load at its edge plays at 1x whatever the user's rate (LiveStreams).
    if enginePlays, let session, playingRate != before {
      effects.commands.append(.setRate(session.load, playingRate))
    }
    return nil
  }

  // MARK: The system

  /// An interruption began: the engine was playing, pause it. (Paused by the
  /// system, it is silent already; the engine's pause and the interruption's
  /// notification come in either order, so the interruption takes that pause
  /// over, and its end decides.)
  mutating func interruptionBegan(_ effects: inout Effects) -> IgnoreReason? {
    guard !interrupted else { return .noEffect }
    beginHold(&effects)
    interrupted = true
    return nil
  }

  /// A system hold is about to begin (an interruption, or a duck under the
  /// `.pause` policy; called before its flag is set): the engine was playing,
  /// pause it; paused by the system, the hold takes that pause over.
  mutating func beginHold(_ effects: inout Effects) {
    stopOutgoing(&effects)
    if var session, session.fadingOut {
      finishFadeOut(&session, &effects)
      self.session = session
    } else if enginePlays, let session {
      effects.commands.append(.pause(session.load))
    } else if suppression == .systemPause, playWhenReady {
      session?.systemPaused = false
    }
  }

  /// A system hold ended (its flag already cleared): whatever is current
  /// plays again if the user still wants it and nothing else holds it.
  func endHold(_ effects: inout Effects) {
    if let session { startIfPlays(session, &effects) }
  }

  /// An interruption ended: with the hint, whatever is current plays again if
  /// the user still wants it; without, the platform's guideline is to stay
  /// paused, so the intent becomes pause.
  mutating func interruptionEnded(resume: Bool, _ effects: inout Effects) -> IgnoreReason? {
    guard interrupted else { return .notInterrupted }
    interrupted = false
    if resume { endHold(&effects) } else { playWhenReady = false }
    return nil
  }

  /// The engine says the system paused `session` on its own: held while the
  /// user wants to play and nothing else holds it; nil when it does not apply.
  func holdBySystem(_ session: Session) -> Session? {
    guard playWhenReady, suppression == nil else { return nil }
    var held = session
    held.systemPaused = true
    return held
  }

  /// The end of a load ends its system pause: a replay starts the engine
  /// again, and an ended load is not held by the system.
  func endSystemPause(_ session: inout Session) {
    session.systemPaused = false
  }
}
