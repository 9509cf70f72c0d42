import PlayerState

// MARK: Fades (issue 37, item 2)

/// What fades had going before an event, for naming the property a command
/// divergence at that event breaks (``CaseRunner/fadeProperty(_:_:from:)``).
struct FadesBefore {
  /// The load fading out into the user's pause, if one was.
  var fading: Load?
  /// The current load and its newest fade timer's id (0 if none).
  var fadeTimer: (load: Load, id: UInt32)?
  /// The load fading out into a stop, if one was.
  var leaving: FadingOut?
  /// The newest leaving load stopped before the event.
  var stopped: FadingOut?

  /// Nothing fading.
  init() {}

  /// What `session` (the current load before the event) and the leaving
  /// loads say.
  init(_ session: ContractModel.Current?, leaving: FadingOut?, stopped: FadingOut?) {
    if let session {
      if session.fadingOut { fading = session.load }
      if session.lastFadeTimer != 0 { fadeTimer = (session.load, session.lastFadeTimer) }
    }
    self.leaving = leaving
    self.stopped = stopped
  }

  /// Whether `load`'s timer `id` is a fade's: the current load's newest, or a
  /// leaving load's (fading now, or stopped already).
  func isFadeTimer(_ load: Load, _ id: UInt32) -> Bool {
    if let fadeTimer, fadeTimer.load == load, fadeTimer.id == id { return true }
    if let leaving, leaving.load == load, leaving.timer == id { return true }
    if let stopped, stopped.load == load, stopped.timer == id { return true }
    return false
  }
}

extension CaseRunner {
  /// Fades' property a command divergence from `mark` at `event` breaks, if
  /// it is one: ``FuzzProperty/staleFadeExpiryChangesNothing`` for a fade
  /// timer's expiry the contract ignores; ``FuzzProperty/noStartDuringFade``
  /// for a `start` of the load that was fading out into a pause;
  /// ``FuzzProperty/oneAudibleLoad`` for a load opened while the leaving load
  /// is not stopped; ``FuzzProperty/leavingLoadStoppedOnce`` for the leaving
  /// load's `stop` missing at its expiry, or sent twice.
  func fadeProperty(_ event: PlaybackEvent, _ arrival: Arrival, from mark: Int) -> FuzzProperty? {
    let fades = arrival.fades
    let stops = { (load: Load) in
      self.log[self.life...].filter { $0 == .stop(load) }.count
    }
    // A leaving load stopped twice (its `ended` and its timer, say) is named
    // first: its second `stop` comes at a stale expiry.
    for leaving in [fades.leaving, fades.stopped].compactMap({ $0 }) where stops(leaving.load) > 1 {
      return .leavingLoadStoppedOnce
    }
    if case .watchdogExpired(let load, let id) = event, !arrival.accepted,
      fades.isFadeTimer(load, id.rawValue)
    {
      return .staleFadeExpiryChangesNothing
    }
    var index = mark
    while index < expected.count, index < log.count, expected[index] == log[index] { index += 1 }
    if let property = crossfadeProperty(event, arrival, divergence: index) { return property }
    if let fading = fades.fading,
      log[mark...].contains(where: { $0.kind == .start && $0.load == fading })
    {
      return .noStartDuringFade
    }
    guard let leaving = fades.leaving, index < expected.count,
      expected[index] == .stop(leaving.load)
    else { return nil }
    if log[index...].contains(where: { $0.kind == .load }) { return .oneAudibleLoad }
    return .leavingLoadStoppedOnce
  }
}

// MARK: Crossfade (issue 37, item 3)

extension CaseRunner {
  /// Crossfade's property a command divergence at `index` breaks, if it is
  /// one: ``FuzzProperty/lateEndNeverAdvances`` for commands at the `ended` of a
  /// leaving load that the contract ignores (after its `stop`), or a load,
  /// start or stop of another load at one it accepts (inside the fade: its own
  /// `stop` only); ``FuzzProperty/oneAudibleLoad`` for a preload issued while a
  /// crossfade's outgoing load leaves (a third live load).
  func crossfadeProperty(_ event: PlaybackEvent, _ arrival: Arrival, divergence index: Int)
    -> FuzzProperty?
  {
    let fades = arrival.fades
    if case .engine(.reachedEnd(let load)) = event,
      load == fades.stopped?.load || load == fades.leaving?.load
    {
      if !arrival.accepted, index < log.count { return .lateEndNeverAdvances }
      let advances = log[min(index, log.count)...].contains { command in
        switch command {
        case .load, .preload, .start: true
        case .stop(let other): other != load
        default: false
        }
      }
      if arrival.accepted, advances { return .lateEndNeverAdvances }
    }
    if model.crossfading, log[min(index, log.count)...].contains(where: { $0.kind == .preload }) {
      return .oneAudibleLoad
    }
    return nil
  }

  /// Crossfade's property an observation or ignore-reason divergence at
  /// `event` breaks, if it is one: ``FuzzProperty/lateEndNeverAdvances`` when
  /// the event is the `ended` of a load that left in a crossfade (the player
  /// took it for the current entry's where the contract did not).
  func crossfadeObservationProperty(_ event: PlaybackEvent?) -> FuzzProperty? {
    guard case .engine(.reachedEnd(let load))? = event, model.crossfade > 0 else { return nil }
    if load == model.stoppedLeaving?.load {
      return .lateEndNeverAdvances
    }
    return nil
  }
}
