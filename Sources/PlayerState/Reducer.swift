extension PlaybackState {
  /// The reducer in its plainest form: the state after `event`.
  ///
  /// Use ``transition(on:)`` when you also need the commands.
  /// - Complexity: O(1), no allocation.
  public static func reduce(_ state: PlaybackState, _ event: PlaybackEvent) -> PlaybackState {
    state.transition(on: event).next
  }

  /// Reduces one event: the next state, the engine commands it implies, a
  /// watchdog to arm, and why the event was ignored if it was.
  ///
  /// Total: every (state, event) pair is defined. An engine report or a
  /// watchdog whose identity is not the current one changes nothing and
  /// issues no command.
  ///
  /// ```swift
  /// var state = PlaybackState()
  /// state = state.transition(on: .play("A")).next           // buffering(A#1, autoplay)
  /// state = state.transition(on: .stop).next                // idle
  /// let late = state.transition(on: .ready(Load("A", 1)))
  /// // late.next == idle, late.commands is empty, late.ignored == .staleLoad
  /// ```
  /// - Complexity: O(1), no allocation.
  public func transition(on event: PlaybackEvent) -> Transition {
    switch event {
    case .user(let intent): apply(intent)
    case .engine(let report): apply(report)
    case .watchdogExpired(let load, let id): expire(load, id)
    }
  }

  // MARK: User intents

  private func apply(_ intent: UserIntent) -> Transition {
    guard var session else {
      if case .play(let media) = intent { return startLoad(media, playWhenReady: true) }
      return ignoring(.noEffect)
    }
    let load = session.load
    var commands = CommandList()
    switch intent {
    case .play(let media):
      if media != load.media { return startLoad(media, playWhenReady: true) }
      if case .failed = session.stage { return startLoad(media, playWhenReady: true) }
      return apply(.resume)

    case .pause:
      guard session.playWhenReady else { return ignoring(.noEffect) }
      session.playWhenReady = false
      // The engine was told to start only in these stages.
      if session.stage == .ready || session.stage == .stalled { commands.append(.pause(load)) }

    case .resume:
      switch session.stage {
      case .ended:
        guard let seek = session.lastSeek.successor else { return ignoring(.idsExhausted) }
        session.lastSeek = seek
        session.seekPending = true
        session.stage = .ready
        commands.append(.seek(load, to: .zero, session.lastSeek))
        commands.append(.start(load))
      case .buffering, .ready, .stalled, .failed:
        guard !session.playWhenReady else { return ignoring(.noEffect) }
        if session.stage == .ready || session.stage == .stalled { commands.append(.start(load)) }
      }
      session.playWhenReady = true

    case .stop:
      if case .failed = session.stage {} else { commands.append(.stop(load)) }
      return Transition(
        next: PlaybackState(session: nil, issuedLoads: issuedLoads), commands: commands)

    case .seek(let time):
      if case .failed = session.stage { return ignoring(.noEffect) }
      guard let seek = session.lastSeek.successor else { return ignoring(.idsExhausted) }
      session.lastSeek = seek
      session.seekPending = true
      commands.append(.seek(load, to: time, session.lastSeek))
      if session.stage == .ended {
        session.stage = .ready
        if session.playWhenReady { commands.append(.start(load)) }
      }

    case .retry:
      guard case .failed = session.stage else { return ignoring(.noEffect) }
      return startLoad(load.media, playWhenReady: session.playWhenReady)
    }
    return Transition(
      next: PlaybackState(session: session, issuedLoads: issuedLoads), commands: commands)
  }

  /// Issues a new token and loads `media`, stopping the current load first
  /// unless it already failed (a failed load was stopped when it failed).
  private func startLoad(_ media: MediaID, playWhenReady: Bool) -> Transition {
    var commands = CommandList()
    if let session {
      if case .failed = session.stage {} else { commands.append(.stop(session.load)) }
    }
    // Tokens are never reused: after 2^32 - 1 loads (or a state built with
    // that count) a player can load nothing more, and says so.
    guard issuedLoads < UInt32.max else { return ignoring(.idsExhausted) }
    let token = issuedLoads + 1
    let load = Load(media: media, token: LoadToken(token))
    commands.append(.load(load))
    let watchdog = WatchdogID(1)
    let session = Session(
      load: load, stage: .buffering, playWhenReady: playWhenReady, lastWatchdog: watchdog)
    return Transition(
      next: PlaybackState(session: session, issuedLoads: token), commands: commands,
      watchdog: WatchdogRequest(load: load, id: watchdog))
  }

  // MARK: Engine reports

  /// The current session if `load` names it, or why it does not.
  private func identify(_ load: Load) -> Identified {
    if load.token.rawValue == 0 || load.token.rawValue > issuedLoads {
      return .ignored(.neverIssuedLoad)
    }
    guard let session, session.load.token == load.token else { return .ignored(.staleLoad) }
    guard session.load.media == load.media else { return .ignored(.mediaMismatch) }
    return .current(session)
  }

  private func apply(_ report: EngineReport) -> Transition {
    var session: Session
    switch identify(report.load) {
    case .current(let current): session = current
    case .ignored(let reason): return ignoring(reason)
    }
    let load = session.load
    var commands = CommandList()
    var watchdog: WatchdogRequest?
    switch (report, session.stage) {
    case (.ready, .buffering):
      session.stage = .ready
      if session.playWhenReady { commands.append(.start(load)) }

    case (.stalled, .ready):
      guard let next = session.lastWatchdog.successor else { return ignoring(.idsExhausted) }
      session.stage = .stalled
      session.lastWatchdog = next
      watchdog = WatchdogRequest(load: load, id: session.lastWatchdog)

    case (.resumed, .stalled):
      session.stage = .ready

    case (.seekCompleted(_, let seek), _):
      if case .failed = session.stage { return ignoring(.unexpected) }
      if seek.rawValue == 0 || seek > session.lastSeek { return ignoring(.neverIssuedSeek) }
      if seek < session.lastSeek { return ignoring(.supersededSeek) }
      guard session.seekPending else { return ignoring(.unexpected) }
      session.seekPending = false

    case (.reachedEnd, .ready), (.reachedEnd, .stalled):
      if session.seekPending { return ignoring(.seekPending) }
      session.stage = .ended

    case (.failed(_, let reason), .buffering), (.failed(_, let reason), .ready),
      (.failed(_, let reason), .stalled), (.failed(_, let reason), .ended):
      session.stage = .failed(reason)
      session.seekPending = false
      commands.append(.stop(load))

    case (.ready, _), (.stalled, _), (.resumed, _), (.reachedEnd, _), (.failed, _):
      return ignoring(.unexpected)
    }
    return Transition(
      next: PlaybackState(session: session, issuedLoads: issuedLoads), commands: commands,
      watchdog: watchdog)
  }

  private func expire(_ load: Load, _ id: WatchdogID) -> Transition {
    var session: Session
    switch identify(load) {
    case .current(let current): session = current
    case .ignored(let reason): return ignoring(reason)
    }
    guard id == session.lastWatchdog, session.stage == .buffering || session.stage == .stalled
    else { return ignoring(.staleWatchdog) }
    session.stage = .failed(.timeout)
    session.seekPending = false
    var commands = CommandList()
    commands.append(.stop(load))
    return Transition(
      next: PlaybackState(session: session, issuedLoads: issuedLoads), commands: commands)
  }

  private enum Identified {
    case current(Session)
    case ignored(IgnoreReason)
  }

  private func ignoring(_ reason: IgnoreReason) -> Transition {
    Transition(next: self, ignored: reason)
  }
}

extension SeekID {
  /// The next id, or nil when every id has been issued (ids never wrap).
  var successor: SeekID? { rawValue < UInt32.max ? SeekID(rawValue + 1) : nil }
}

extension WatchdogID {
  /// The next id, or nil when every id has been issued (ids never wrap).
  var successor: WatchdogID? { rawValue < UInt32.max ? WatchdogID(rawValue + 1) : nil }
}
