// One load's lifecycle: what a report about the current load means, its
// seeks and its timers. A report is decided on a copy of the session
// (`outcome(of:)` mutates nothing); the coordinator lifts the outcome.

/// What a report about the current load means for that load. Plain data
/// (the engine's failure detail stays in the report), so deciding costs no
/// reference counting on the hot path.
enum LoadOutcome {
  /// A position report: the last known position moves.
  case moved(MediaTime)
  /// The first buffering finished.
  case ready(duration: MediaTime?)
  /// A stall began.
  case stalled
  /// A stall ended.
  case resumed
  /// The newest seek completed.
  case seekCompleted
  /// The media reached its end.
  case ended
  /// The load failed for want of the network (the retry decides).
  case failedForNetwork
  /// The load failed for another reason, or for the network after its end.
  /// (A live load that played and fell behind its window, `behindLiveWindow`
  /// in ready or stalled, is reloaded at its edge instead: the coordinator
  /// decides, which keeps this function small enough for the optimizer to inline.)
  case failed(FailureReason)
  /// The engine says the system paused it (the play gate decides).
  case pausedBySystem
  /// The engine reports the load's live window (LiveStreams decides, and
  /// reads it from the report: a payload here would grow every outcome).
  case window
  /// The report does not apply to this load now.
  case ignored(IgnoreReason)
}

extension Session {
  /// What `report` (already identified as about this load) means, decided
  /// from the stage and the seek; nothing changes.
  @inline(__always) func outcome(of report: EngineReport) -> LoadOutcome {
    switch (report, stage) {
    case (.position(_, let time), _):
      if stage.isStopped || time < .zero { return .ignored(.unexpected) }
      if seekPending { return .ignored(.seekPending) }
      return .moved(time)

    case (.ready(_, let duration), .buffering):
      return .ready(duration: duration)

    case (.stalled, .ready):
      return .stalled

    case (.resumed, .stalled):
      return .resumed

    case (.seekCompleted(_, let seek), _):
      if stage.isStopped { return .ignored(.unexpected) }
      if seek.rawValue == 0 || seek > lastSeek { return .ignored(.neverIssuedSeek) }
      if seek < lastSeek { return .ignored(.supersededSeek) }
      return seekPending ? .seekCompleted : .ignored(.unexpected)

    case (.reachedEnd, .ready), (.reachedEnd, .stalled):
      return seekPending ? .ignored(.seekPending) : .ended

    case (.window, .buffering), (.window, .ready), (.window, .stalled):
      return .window

    case (.failed(_, .network, _), .buffering), (.failed(_, .network, _), .ready),
      (.failed(_, .network, _), .stalled):
      return .failedForNetwork

    case (.failed(_, let reason, _), .buffering), (.failed(_, let reason, _), .ready),
      (.failed(_, let reason, _), .stalled), (.failed(_, let reason, _), .ended):
      return .failed(reason)

    case (.pausedBySystem, .ready), (.pausedBySystem, .stalled):
      return .pausedBySystem

    case (.ready, _), (.stalled, _), (.resumed, _), (.reachedEnd, _), (.failed, _),
      (.pausedBySystem, _), (.window, _):
      return .ignored(.unexpected)
    }
  }

  /// A new load of `load`, buffering from `time` (at the live edge: `time`
  /// behind it), its load watchdog armed.
  @inline(__always)
  static func opening(
    _ load: Load, from time: MediaTime, atLiveEdge: Bool = false
  ) -> (Session, WatchdogRequest) {
    var session = Session(
      load: load, stage: .buffering, position: time, openedAtLiveEdge: atLiveEdge)
    guard let request = session.arm(.loadWatchdog) else {
      preconditionFailure("a new session for \(load) has issued no timer id, yet none is left")
    }
    return (session, request)
  }

  /// The first buffering finished.
  mutating func becomeReady(duration: MediaTime?) {
    stage = .ready
    // A live load (its window came first) has no duration.
    self.duration = window == nil ? duration : nil
    networkAttempts = 0
  }

  /// Fails the load and stops it (a failed load is sent nothing more).
  mutating func fail(_ reason: FailureReason, _ effects: inout Effects) {
    stage = .failed(reason)
    seekPending = false
    effects.commands.append(.stop(load))
  }

  /// Issues the next seek to `time`: the one place a seek id is issued.
  /// Returns false, changing nothing, when every seek id has been issued.
  mutating func issueSeek(to time: MediaTime, _ effects: inout Effects) -> Bool {
    guard let seek = lastSeek.successor else { return false }
    lastSeek = seek
    seekPending = true
    position = time
    anchor = time
    effects.commands.append(.seek(load, to: time, seek))
    return true
  }

  /// Arms the next timer for `purpose`: the one place a timer id is issued.
  /// Nil, changing nothing, when every timer id has been issued.
  mutating func arm(_ purpose: TimerPurpose, wait: ClockMilliseconds? = nil) -> WatchdogRequest? {
    guard let id = lastWatchdog.successor else { return nil }
    lastWatchdog = id
    timerPurpose = purpose
    return WatchdogRequest(load: load, id: id, purpose: purpose, wait: wait)
  }

  /// Whether a watchdog for `purpose` still watches this load: a load
  /// watchdog while the first buffering lasts, a stall watchdog while the stall does.
  func isWatched(by purpose: TimerPurpose) -> Bool {
    switch purpose {
    case .loadWatchdog: stage == .buffering
    case .stallWatchdog: stage == .stalled
    case .networkBackoff, .fadeOut: false
    }
  }
}

// MARK: The user's intents about the current load

extension PlaybackState {
  /// Whether a seek (and a skip, and `previous`'s restart) changes anything:
  /// a current load that is not stopped.
  var canSeek: Bool { session.map { !$0.stage.isStopped } ?? false }

  /// `seek(to:)`: a seek of the current load; from its end, it plays again.
  mutating func seek(to time: MediaTime, _ effects: inout Effects) -> IgnoreReason? {
    guard time >= .zero else { return .invalidArgument }
    guard canSeek, var session else { return .noEffect }
    var time = time
    if let window = session.window {
      // A live load seeks within its window, and only if it has one to seek in.
      guard window.isSeekable else { return .notSeekable }
      time = window.clamp(time)
    }
    guard session.issueSeek(to: time, &effects) else { return .idsExhausted }
    // At the live edge only if it sought there.
    if let window = session.window { session.playsAtEdge = time >= window.end }
    if session.stage == .ended {
      session.stage = .ready
      startIfPlays(session, &effects)
    }
    self.session = session
    return nil
  }
}

extension EngineStage {
  /// Ready or stalled: the stages in which the engine was told to play if the
  /// user wanted to (a system pause is only held in these).
  var isStarted: Bool {
    switch self {
    case .ready, .stalled: true
    case .buffering, .ended, .failed, .waitingForNetwork: false
    }
  }

  /// Whether the load has been stopped by the machine: failed (whatever the
  /// reason) or waiting for the network. Nothing is sent to it any more.
  var isStopped: Bool {
    switch self {
    case .failed, .waitingForNetwork: true
    case .buffering, .ended, .ready, .stalled: false
    }
  }
}
