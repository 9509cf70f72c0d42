package import PlayerState

// Fades (issue 37, item 2), from docs/machine.md "Fades" (and invariant 13),
// written without the reducer's rules:
//
// - the fade is `PlayerConfiguration.fade` (0: off); off, nothing below applies;
// - the user's `pause` (the remote's, `toggle`'s, the sleep countdown's) while the
//   engine plays a ready load at an effective volume above 0 is
//   `setVolume(L, 0, ramp d)` and a timer with the load's next timer id; the
//   intent is pause at once; the engine plays on. At the last timer id the pause
//   is sent at once. Route loss and every hold of the system never fade;
// - the newest timer's expiry while the load still fades: `pause(L)`, then
//   `setVolume(L, effective)`; any other expiry is stale and changes nothing;
// - `resume` during the fade: `setVolume(L, effective, ramp d)`, no `start`
//   (the engine was never paused), the expiry then stale;
// - `resume` of a ready load the user paused, heard and not held: the fade-in
//   `setVolume(L, 0)`, `start(L, rate)`, `setVolume(L, effective, ramp d)`;
// - a stall, an interruption or a `.pause` duck end the fade at once (`pause(L)`,
//   `setVolume(L, effective)`), the end sends its own commands and then the
//   effective volume to `L` if it is still live; a failure, a skip, a new queue, a
//   removal and `clear` stop it as usual; a seek leaves it alone; a change of the
//   effective volume is not sent to it (its target is 0);
// - `stop` while the engine plays (or fades into a pause) a ready, heard load:
//   idle at once, the preload stopped, `setVolume(L, 0, ramp d)` and a timer
//   with the load's next id; the load is `leaving`: its `ended` or `failed`
//   sends its one `stop` (docs/machine.md, "How the outgoing load ends": the
//   machine stops every failed load), every other report about it is stale,
//   its timer's expiry sends that `stop` if nothing did first, and any
//   transition that opens a load sends it first.

/// A load fading out into a stop (`PlaybackState.leaving`) and its timer's id.
package struct FadingOut: Hashable, Sendable {
  /// The load.
  package var load: Load
  /// The id of the timer whose expiry stops it.
  package var timer: UInt32
}

extension ContractModel {
  /// The fade's ramp, as a command carries it.
  private var ramp: Duration { .milliseconds(fade) }

  /// Whether the current load is heard: a fade only runs on a load at an
  /// effective volume above 0.
  private var heard: Bool { effectiveVolume.thousandths > 0 }

  /// The pause of the user (`fading`: the user's, the remote's, the sleep
  /// countdown's) or of route loss (never fading). Held by the system, the
  /// engine is silent already: the user's pause takes over.
  mutating func pause(fading: Bool, _ out: inout [EngineCommand]) {
    guard var session = current else { return }
    if !suppressed, session.stage == .ready || session.stage == .stalled {
      if fading, fade > 0, session.stage == .ready, heard, session.lastWatchdog < UInt32.max {
        out.append(.setVolume(session.load, Volume(thousandths: 0), ramp: ramp))
        session.lastWatchdog += 1
        session.lastFadeTimer = session.lastWatchdog
        session.fadingOut = true
      } else {
        out.append(.pause(session.load))
        session.started = false
      }
    }
    playWhenReady = false
    session.systemPaused = false
    current = session
  }

  /// The fade into a pause ran out: the engine is paused, then given the
  /// effective volume back (nothing is heard while paused).
  mutating func fadeExpired(_ session: inout Current, _ out: inout [EngineCommand]) {
    out.append(.pause(session.load))
    out.append(.setVolume(session.load, effectiveVolume))
    session.fadingOut = false
    session.started = false
    current = session
  }

  /// A stall or a hold of the system ends a fade into a pause at once.
  func endFadeEarly(_ session: inout Current, _ out: inout [EngineCommand]) {
    guard session.fadingOut else { return }
    out.append(.pause(session.load))
    out.append(.setVolume(session.load, effectiveVolume))
    session.fadingOut = false
    session.started = false
  }

  /// `resume` during a fade into a pause: the engine ramps back from where it
  /// is, and is not started (it was never paused).
  mutating func resumeDuringFade(_ session: inout Current, _ out: inout [EngineCommand]) {
    playWhenReady = true
    session.fadingOut = false
    out.append(.setVolume(session.load, effectiveVolume, ramp: ramp))
    current = session
  }

  /// Whether `resume` of `session` fades in: a ready load the user paused,
  /// not held by the system, heard.
  func fadesIn(_ session: Current) -> Bool {
    fade > 0 && session.stage == .ready && !playWhenReady && !session.systemPaused
      && !interrupted && !duckHolds && heard
  }

  /// Whether `stop` of `session` fades: the engine plays it (or fades it into
  /// a pause), it is ready and heard, and a timer id is left.
  func fadesIntoStop(_ session: Current) -> Bool {
    fade > 0 && session.stage == .ready && session.started && !suppressed && heard
      && session.lastWatchdog < UInt32.max
  }

  /// `stop` with a fade: idle at once, the preload stopped, the load leaving.
  mutating func stopFading(_ session: Current, _ out: inout [EngineCommand]) {
    left = session.load
    current = nil
    dropPreload(&out)
    out.append(.setVolume(session.load, Volume(thousandths: 0), ramp: ramp))
    leaving = FadingOut(load: session.load, timer: session.lastWatchdog + 1)
  }

  /// The leaving load ended or failed: its one `stop`, as at its timer's expiry.
  mutating func leavingReported(_ out: inout [EngineCommand]) {
    stopLeaving(&out)
  }

  /// The leaving load's timer ran out: its one `stop`.
  mutating func leavingExpired(_ out: inout [EngineCommand]) {
    stopLeaving(&out)
  }

  /// Stops the leaving load, if any (its timer's expiry, or a transition that
  /// opens a load: it is never heard beside another).
  mutating func stopLeaving(_ out: inout [EngineCommand]) {
    guard let leaving else { return }
    out.append(.stop(leaving.load))
    stoppedLeaving = leaving
    self.leaving = nil
  }
}
