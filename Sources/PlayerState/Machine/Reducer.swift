// The coordinator. Each event goes to the concern that owns it; the files of
// this folder are those concerns, in docs/machine.md's own terms:
//
//   Reducer.swift          entry points, dispatch by source, the post-pass
//   LoadMachine.swift      one load's lifecycle: its reports, seeks and timers
//   QueueEdits.swift       the queue's contents: new queues, insert, remove, move, repeat, shuffle
//   QueueNavigation.swift  where to go: next, previous, jump, the end of an entry
//   EntrySwitch.swift      the only code that leaves and enters entries
//   Preloader.swift        the preload, kept in step after every accepted event
//   PlayGate.swift         whether the engine plays: intent, interruptions, system pauses
//   NetworkRetry.swift     waiting for the network and reloading
//   Controls.swift         the remote-control intents: toggle, skip, setPosition
//   SleepTimer.swift       the sleep timer: a countdown with identity, a stop at an entry's end
//   VolumeAndDucking.swift the user's volume and mute, the duck, the effective volume
//   Crossfade.swift        the crossfade's start, its outgoing load's end
//
// What the state implies for a lock screen, a headset or MPRIS (now playing,
// the available commands, the notifications of a step) is derived, not
// stored, in ../Derived; the one stored part is a load's elapsed anchor,
// re-set here in the post-pass whenever the published rate changes.
//
// Every rule decides whether an event applies before it changes anything,
// and returns the reason when it does not: an ignored event changes nothing.

extension PlaybackState {
  /// The reducer in its plainest form: the state after `event`.
  ///
  /// Use ``transition(on:)`` when you also need the commands.
  public static func reduce(_ state: PlaybackState, _ event: PlaybackEvent) -> PlaybackState {
    var next = state
    _ = next.handle(event)
    return next
  }

  /// Reduces one event: the next state, the engine commands it implies, a
  /// watchdog to arm, and why the event was ignored if it was.
  ///
  /// Total over the states the reducer can reach: every (state, event) pair
  /// is defined. An engine report or a watchdog whose identity is not the
  /// current one changes nothing and issues no command. Every state a caller
  /// can hold is one of those: the state's fields are read-only outside the
  /// package, and the ways in (``init(configuration:)``, the checking
  /// initializer and the decoder) check ``invariantViolation``.
  ///
  /// ```swift
  /// var state = PlaybackState()
  /// state = state.transition(on: .play("A")).next           // buffering(A#1, autoplay)
  /// state = state.transition(on: .stop).next                // idle
  /// let late = state.transition(on: .ready(Load(1, 1)))
  /// // late.next == state, late.commands is empty, late.ignored == .staleLoad
  /// ```
  public func transition(on event: PlaybackEvent) -> Transition {
    var next = self
    let effects = next.handle(event)
    return Transition(next: next, effects: effects)
  }

  /// Reduces one event in place and returns what it implies: the form the
  /// driver and the benchmarks use, since it copies no state.
  ///
  /// An ignored event leaves the state unchanged.
  /// - Complexity: O(1) and no allocation for engine reports and watchdogs;
  ///   intents that edit the queue are O(n) in its length and may allocate.
  public mutating func handle(_ event: PlaybackEvent) -> Effects {
    var effects = Effects()
    handle(event, into: &effects)
    return effects
  }

  /// Reduces one event in place and writes what it implies into `effects`,
  /// replacing what it held: the form for hot loops, which reuse one
  /// `Effects` instead of building and copying a new one per event.
  ///
  /// ```swift
  /// var effects = Effects()
  /// for event in events {
  ///   state.handle(event, into: &effects)
  ///   for command in effects.commands { engine.execute(command) }
  /// }
  /// ```
  /// - Complexity: as ``handle(_:)``.
  public mutating func handle(_ event: PlaybackEvent, into effects: inout Effects) {
    effects.commands.removeAll()
    effects.watchdog = nil
    effects.sleepTimer = nil
    // A live load's step is wrapped (LiveStreams): one test here keeps the
    // rest of the hot path free of the rate at the live edge.
    if session?.window != nil {
      stepLive(event, &effects)
    } else {
      step(event, &effects)
    }
  }

  /// One event's step: dispatched to the concern that owns it, then the post-pass.
  @inline(__always)
  mutating func step(_ event: PlaybackEvent, _ effects: inout Effects) {
    let publishedRate = self.publishedRate
    let ignored: IgnoreReason?
    switch event {
    case .user(let intent), .remote(let intent): ignored = apply(intent, &effects)
    case .engine(let report): ignored = apply(report, &effects)
    case .watchdogExpired(let load, let id): ignored = expire(load, id, &effects)
    case .system(let event): ignored = apply(event, &effects)
    }
    effects.ignored = ignored
    guard ignored == nil else { return }
    // The post-pass: what holds after every accepted event, written once.
    // (Tested here first: most players cannot preload, and the call is the
    // costliest part of the check on the hot path.)
    if configuration.canPreload || preload != nil { keepPreloadInStep(&effects) }
    // A load opened by this step (the preload's included, so after it) starts
    // at full volume in the engine: its `setVolume` comes last when it must.
    if effects.commands.opensLoad { setVolumeOfOpenedLoad(&effects) }
    // The detail belongs to the current load's failure: gone with it (a new
    // load, a reload, a stop). Touched only when there is one.
    if failure != nil, !(session?.stage.isStopped ?? false) { failure = nil }
    // The elapsed anchor moves at a discontinuity only: a rate the lock screen
    // extrapolates with has changed (a start, a pause, a stall, its end, a rate
    // change, a system hold). Loads, seeks and replays set it where they begin.
    if publishedRate != self.publishedRate, let position = session?.position {
      session?.anchor = position
    }
    // A restored entry's saved position is used once, by its own first load.
    if let point = resumePoint, session != nil || queue.currentEntry?.item != point.item {
      resumePoint = nil
    }
  }
}

// MARK: Dispatch

extension PlaybackState {
  /// A user intent, sent to the concern that owns it.
  private mutating func apply(_ intent: UserIntent, _ effects: inout Effects) -> IgnoreReason? {
    switch intent {
    case .play(let media, let time): play(media, from: time, &effects)
    case .replaceQueue(let media, let start, let time, let play):
      replaceQueue(media, start: start, from: time, playWhenReady: play, &effects)
    case .append(let media): insert(media, at: queue.entries.count)
    case .insert(let media, let position):
      (0...queue.entries.count).contains(position)
        ? insert(media, at: position) : .invalidPosition
    case .remove(let position): remove(at: position, &effects)
    case .move(let source, let destination): move(from: source, to: destination)
    case .clear: clear(&effects)
    case .setRepeat(let mode): setRepeat(mode)
    case .setShuffle(let seed): setShuffle(seed)
    case .jump(let position, let time): jump(to: position, from: time, &effects)
    case .next: next(&effects)
    case .previous: previous(&effects)
    case .pause: pause(fading: true, &effects)
    case .resume: resume(&effects)
    case .setRate(let rate): setRate(rate, &effects)
    case .stop: stop(&effects)
    case .seek(let time): seek(to: time, &effects)
    case .retry: retry(&effects)
    case .toggle: toggle(&effects)
    case .skip(let delta): skip(by: delta, &effects)
    case .setPosition(let item, let time): setPosition(item, time, &effects)
    case .setSleepTimer(let timer): setSleepTimer(timer, &effects)
    case .setVolume(let volume): setVolume(volume, &effects)
    case .setMuted(let mute): setMuted(mute, &effects)
    case .goToLive: goToLive(&effects)
    }
  }

  /// The session or preload that `load` names, or why it names neither.
  private enum Identified {
    case current(Session)
    case preloading(Preload)
    case leaving(FadingLoad)
    case ignored(IgnoreReason)
  }

  private func identify(_ load: Load) -> Identified {
    if load.token.rawValue == 0 || load.token.rawValue > issuedLoads {
      return .ignored(.neverIssuedLoad)
    }
    if let session, session.load.token == load.token {
      return session.load.item == load.item ? .current(session) : .ignored(.itemMismatch)
    }
    if let preload, preload.load.token == load.token {
      return preload.load.item == load.item ? .preloading(preload) : .ignored(.itemMismatch)
    }
    if let leaving, leaving.load.token == load.token {
      return leaving.load.item == load.item ? .leaving(leaving) : .ignored(.itemMismatch)
    }
    return .ignored(.staleLoad)
  }

  /// An engine report: the load decides what it means for itself, and its
  /// outcome is lifted here into what it means for the player.
  private mutating func apply(_ report: EngineReport, _ effects: inout Effects) -> IgnoreReason? {
    var session: Session
    switch identify(report.load) {
    case .current(let current): session = current
    case .preloading(let preload): return applyToPreload(report, preload, &effects)
    // Fading out (stopped by the user, or a crossfade's outgoing load).
    case .leaving: return applyToLeaving(report, &effects)
    case .ignored(let reason): return reason
    }
    switch session.outcome(of: report) {
    case .ignored(let reason):
      return reason
    case .moved(let time):
      if let window = session.window { return moveLive(to: time, window, session, &effects) }
      // Reported before the first window: a real position, no longer an offset.
      if session.openedAtLiveEdge { self.session?.openedAtLiveEdge = false }
      // The commonest report: one field written in place, no session copied back.
      self.session?.position = time
      if configuration.crossfades { crossfadeIfDue(&effects) }
      return nil
    case .ready(let duration):
      session.becomeReady(duration: duration)
      startIfPlays(session, &effects)
    case .stalled:
      guard let timer = session.arm(.stallWatchdog) else { return .idsExhausted }
      // A stall leaves the live edge behind.
      session.playsAtEdge = false
      // Nothing is heard: a fade-out into a pause ends here (its timer is stale now).
      finishFadeOut(&session, &effects)
      session.stage = .stalled
      effects.watchdog = timer
    case .resumed:
      session.stage = .ready
    case .seekCompleted:
      session.seekPending = false
    case .ended:
      // A fade-out into a pause ran into the end: the engine stopped there.
      guard session.fadingOut else { return reachEnd(session, &effects) }
      session.fadingOut = false
      if let ignored = reachEnd(session, &effects) { return ignored }
      // Still live (replayed or at the end of the queue): back at the effective volume.
      if let live = self.session, live.load == session.load {
        effects.commands.append(.setVolume(live.load, effectiveVolume))
      }
      return nil
    case .failedForNetwork:
      session.fadingOut = false
      return waitForNetwork(session, report.failureDetail, &effects)
    case .failed(let reason):
      // Fallen behind its live window after it played: reloaded at the edge, once.
      if reason == .behindLiveWindow, session.stage != .buffering, session.stage != .ended {
        return reloadAtLiveEdge(&effects)
      }
      session.fadingOut = false
      session.fail(reason, &effects)
      failure = report.failureDetail
    case .pausedBySystem:
      guard let held = holdBySystem(session) else { return .unexpected }
      session = held
    case .window:
      guard case .window(_, let window) = report else { return .unexpected }
      return receiveWindow(window, session, &effects)
    }
    self.session = session
    return nil
  }

  /// A timer expired: dispatched on what it was armed for, never on the stage.
  private mutating func expire(
    _ load: Load, _ id: WatchdogID, _ effects: inout Effects
  ) -> IgnoreReason? {
    var session: Session
    switch identify(load) {
    case .current(let current): session = current
    case .preloading: return .staleWatchdog
    case .leaving(let leaving):
      // The fade (into a stop, or a crossfade's) is over: the load is stopped, once.
      guard id == leaving.timer else { return .staleWatchdog }
      effects.commands.append(.stop(leaving.load))
      self.leaving = nil
      return nil
    case .ignored(let reason): return reason
    }
    guard id == session.lastWatchdog, id.rawValue != 0 else { return .staleWatchdog }
    switch session.timerPurpose {
    case .networkBackoff:
      return reloadAfterWaiting(&effects)
    case .fadeOut:
      // Cancelled by a resume, or ended early by a stall or a hold: stale.
      guard session.fadingOut else { return .staleWatchdog }
      finishFadeOut(&session, &effects)
      self.session = session
      return nil
    case .loadWatchdog, .stallWatchdog:
      guard session.isWatched(by: session.timerPurpose) else { return .staleWatchdog }
      session.fail(.timeout, &effects)
      self.session = session
      return nil
    }
  }

  /// A system event: the network's belong to the retry, the sleep timer's
  /// expiry to the sleep timer, a duck's to the volume, the rest to the play gate.
  private mutating func apply(_ event: SystemEvent, _ effects: inout Effects) -> IgnoreReason? {
    switch event {
    case .interruptionBegan: interruptionBegan(&effects)
    case .interruptionEnded(let shouldResume): interruptionEnded(resume: shouldResume, &effects)
    case .routeLost: routeLost(&effects)
    case .networkLost: networkLost(&effects)
    case .networkAvailable: networkAvailable(&effects)
    case .sleepTimerExpired(let id): expireSleepTimer(id, &effects)
    case .duckBegan: duckBegan(&effects)
    case .duckEnded: duckEnded(&effects)
    }
  }
}

extension EngineReport {
  /// The engine's error detail of a `failed` report; nil for any other report.
  fileprivate var failureDetail: FailureDetail? {
    if case .failed(_, _, let detail) = self { return detail }
    return nil
  }
}
