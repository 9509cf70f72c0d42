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
  /// current one changes nothing and issues no command.
  /// - Precondition: `invariantViolation == nil`. Every state the reducer
  ///   returns, and every decoded one, keeps the invariants; a state built by
  ///   hand with the memberwise initializers may not (a current position
  ///   outside the queue traps here).
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
    let ignored: IgnoreReason?
    switch event {
    case .user(let intent): ignored = apply(intent, &effects)
    case .engine(let report): ignored = apply(report, &effects)
    case .watchdogExpired(let load, let id): ignored = expire(load, id, &effects)
    case .system(let event): ignored = apply(event, &effects)
    }
    effects.ignored = ignored
    // The detail belongs to the current load's failure: gone with it (a new
    // load, a reload, a stop). Touched only when there is one.
    if failure != nil, !(session?.stage.isStopped ?? false) { failure = nil }
  }
}

// The rules below mutate `self` and append to `effects`; each returns the
// reason when it ignores the event, and must then have changed nothing.
extension PlaybackState {
  // MARK: User intents

  private mutating func apply(_ intent: UserIntent, _ effects: inout Effects) -> IgnoreReason? {
    switch intent {
    case .play(let media, let time):
      guard time >= .zero else { return .invalidArgument }
      if time == .zero, queue.entries.count == 1, queue.entries[0].media == media,
        let session, !session.stage.isStopped
      {
        return apply(.resume, &effects)
      }
      return replace(CollectionOfOne(media), start: 0, from: time, playWhenReady: true, &effects)

    case .replaceQueue(let media, let start, let time, let play):
      guard time >= .zero else { return .invalidArgument }
      if media.isEmpty { return apply(.clear, &effects) }
      guard media.indices.contains(start) else { return .invalidPosition }
      return replace(media, start: start, from: time, playWhenReady: play, &effects)

    case .append(let media):
      return insert(media, at: queue.entries.count, &effects)

    case .insert(let media, let position):
      guard (0...queue.entries.count).contains(position) else { return .invalidPosition }
      return insert(media, at: position, &effects)

    case .remove(let position):
      guard queue.entries.indices.contains(position) else { return .invalidPosition }
      let removesCurrent = position == queue.current
      let wasLoaded = session != nil
      let reloads = removesCurrent && wasLoaded && position + 1 < queue.entries.count
      let promotes = reloads && preloadUsable(for: position + 1, from: .zero)
      if reloads, !promotes, !tokenAvailable { return .idsExhausted }
      if removesCurrent {
        stopCurrent(&effects)
        if !promotes { dropPreload(&effects) }
      }
      queue.remove(at: position)
      // The entry that took its place plays, unless the removed one was the last.
      if reloads { _ = enterCurrent(from: .zero, &effects) }

    case .move(let source, let destination):
      let indices = queue.entries.indices
      guard indices.contains(source), indices.contains(destination) else {
        return .invalidPosition
      }
      if source == destination { return .noEffect }
      queue.move(from: source, to: destination)

    case .jump(let position, let time):
      guard time >= .zero else { return .invalidArgument }
      guard queue.entries.indices.contains(position) else { return .invalidPosition }
      if position == queue.current {
        guard let session else { return .noEffect }
        if !session.stage.isStopped { return apply(.seek(to: time), &effects) }
      }
      return go(to: position, from: time, &effects)

    case .next:
      guard let current = queue.current,
        let target = queue.index(after: current, wrap: queue.repeatMode == .all),
        target != current
      else { return .noEffect }
      return go(to: target, from: .zero, &effects)

    case .previous:
      guard let current = queue.current else { return .noEffect }
      if let session, !session.stage.isStopped,
        session.position > configuration.previousThreshold
          || queue.index(before: current, wrap: queue.repeatMode == .all) == nil
      {
        return apply(.seek(to: .zero), &effects)
      }
      guard let target = queue.index(before: current, wrap: queue.repeatMode == .all) else {
        // At the first entry and not loaded (idle) or failed: reload it from the start.
        guard session != nil else { return .noEffect }
        return go(to: current, from: .zero, &effects)
      }
      return go(to: target, from: .zero, &effects)

    case .setRepeat(let mode):
      guard mode != queue.repeatMode else { return .noEffect }
      queue.repeatMode = mode

    case .setShuffle(let seed):
      if let seed {
        queue.shuffle(seed: seed)
      } else {
        guard queue.shuffle != nil else { return .noEffect }
        queue.unshuffle()
      }

    case .setRate(let newRate):
      guard newRate.thousandths > 0 else { return .invalidArgument }
      guard newRate != rate else { return .noEffect }
      rate = newRate
      // Only to an engine told to play (a rate change would start an AVPlayer
      // the system holds).
      if enginePlays, let session { effects.commands.append(.setRate(session.load, newRate)) }

    case .clear:
      guard !queue.entries.isEmpty || session != nil else { return .noEffect }
      stopCurrent(&effects)
      dropPreload(&effects)
      // The repeat mode and the shuffle are settings, not contents: they stay.
      queue.entries.removeAll(keepingCapacity: true)
      queue.current = nil
      if let seed = queue.shuffle?.seed { queue.shuffle = Shuffle(seed: seed, unshuffled: []) }

    case .pause:
      guard var session, playWhenReady else { return .noEffect }
      // Held by the system, the engine is paused already: the user's pause takes over.
      if enginePlays { effects.commands.append(.pause(session.load)) }
      playWhenReady = false
      session.systemPaused = false
      self.session = session

    case .resume:
      guard var session else {
        guard queue.current != nil else { return .noEffect }
        guard tokenAvailable else { return .idsExhausted }
        playWhenReady = true
        return enterCurrent(from: .zero, &effects)
      }
      switch session.stage {
      case .ended:
        guard let seek = session.lastSeek.successor else { return .idsExhausted }
        session.lastSeek = seek
        session.seekPending = true
        session.stage = .ready
        session.position = .zero
        effects.commands.append(.seek(session.load, to: .zero, seek))
        if !interrupted { effects.commands.append(.start(session.load, rate: rate)) }
      case .buffering, .ready, .stalled, .failed, .waitingForNetwork:
        // Paused by the system, `resume` is the user's way to play again.
        guard !playWhenReady || session.systemPaused else { return .noEffect }
        session.systemPaused = false
        if !interrupted, session.stage.isStarted {
          effects.commands.append(.start(session.load, rate: rate))
        }
      }
      playWhenReady = true
      self.session = session

    case .stop:
      guard session != nil || preload != nil else { return .noEffect }
      stopCurrent(&effects)
      dropPreload(&effects)

    case .seek(let time):
      guard time >= .zero else { return .invalidArgument }
      guard var session, !session.stage.isStopped else { return .noEffect }
      guard let seek = session.lastSeek.successor else { return .idsExhausted }
      session.lastSeek = seek
      session.seekPending = true
      session.position = time
      effects.commands.append(.seek(session.load, to: time, seek))
      if session.stage == .ended {
        session.stage = .ready
        startIfWanted(session.load, &effects)
      }
      self.session = session

    case .retry:
      guard let session, session.stage.isStopped else { return .noEffect }
      if let reason = enterCurrent(from: session.position, &effects) { return reason }
    }
    refreshPreload(&effects)
    return nil
  }

  /// Replaces the queue with new entries and loads the one at `start`.
  private mutating func replace(
    _ media: some Collection<MediaID>, start: Int, from time: MediaTime, playWhenReady play: Bool,
    _ effects: inout Effects
  ) -> IgnoreReason? {
    guard tokenAvailable, UInt32.max - issuedItems >= media.count else { return .idsExhausted }
    stopCurrent(&effects)
    dropPreload(&effects)
    // Refilled in place: a player reduced in place (the driver) reuses the
    // queue's storage, so `play(M)` allocates nothing once the queue has room.
    let seed = queue.shuffle?.seed
    queue.shuffle = nil
    // Entries are overwritten where the old queue had some (cheaper than
    // emptying and appending: `play(M)` over a queue of one is one store).
    var index = 0
    for name in media {
      issuedItems += 1
      let entry = QueueEntry(item: ItemID(issuedItems), media: name)
      if index < queue.entries.count {
        queue.entries[index] = entry
      } else {
        queue.entries.append(entry)
      }
      index += 1
    }
    if index < queue.entries.count { queue.entries.removeLast(queue.entries.count - index) }
    queue.current = start
    if let seed { queue.shuffle(seed: seed) }
    playWhenReady = play
    _ = enterCurrent(from: time, &effects)
    refreshPreload(&effects)
    return nil
  }

  private mutating func insert(
    _ media: [MediaID], at position: Int, _ effects: inout Effects
  ) -> IgnoreReason? {
    guard !media.isEmpty else { return .noEffect }
    guard let entries = issueEntries(media) else { return .idsExhausted }
    queue.insert(entries, at: position)
    refreshPreload(&effects)
    return nil
  }

  /// Makes the entry at `position` current; loads it if a load was live.
  private mutating func go(
    to position: Int, from time: MediaTime, _ effects: inout Effects
  ) -> IgnoreReason? {
    let wasLoaded = session != nil
    let promotes = preloadUsable(for: position, from: time)
    if wasLoaded, !(promotes || tokenAvailable) { return .idsExhausted }
    stopCurrent(&effects)
    if !promotes { dropPreload(&effects) }
    queue.current = position
    if wasLoaded { _ = enterCurrent(from: time, &effects) }
    refreshPreload(&effects)
    return nil
  }

  // MARK: Engine reports

  private enum Identified {
    case current(Session)
    case preloading(Preload)
    case ignored(IgnoreReason)
  }

  /// The session or preload that `load` names, or why it names neither.
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
    return .ignored(.staleLoad)
  }

  private mutating func apply(_ report: EngineReport, _ effects: inout Effects) -> IgnoreReason? {
    var session: Session
    switch identify(report.load) {
    case .current(let current): session = current
    case .preloading(let preload): return applyToPreload(report, preload, &effects)
    case .ignored(let reason): return reason
    }
    let load = session.load
    switch (report, session.stage) {
    case (.position(_, let time), _):
      if session.stage.isStopped || time < .zero { return .unexpected }
      if session.seekPending { return .seekPending }
      self.session?.position = time
      return nil

    case (.ready(_, let duration), .buffering):
      session.stage = .ready
      session.duration = duration
      session.networkAttempts = 0
      startIfWanted(load, &effects)

    case (.stalled, .ready):
      guard let watchdog = session.lastWatchdog.successor else { return .idsExhausted }
      session.stage = .stalled
      session.lastWatchdog = watchdog
      effects.watchdog = WatchdogRequest(load: load, id: watchdog)

    case (.resumed, .stalled):
      session.stage = .ready

    case (.seekCompleted(_, let seek), _):
      if session.stage.isStopped { return .unexpected }
      if seek.rawValue == 0 || seek > session.lastSeek { return .neverIssuedSeek }
      if seek < session.lastSeek { return .supersededSeek }
      guard session.seekPending else { return .unexpected }
      session.seekPending = false
      self.session = session
      return nil

    case (.reachedEnd, .ready), (.reachedEnd, .stalled):
      if session.seekPending { return .seekPending }
      return reachEnd(session, &effects)

    case (.failed(_, .network, let detail), .buffering), (.failed(_, .network, let detail), .ready),
      (.failed(_, .network, let detail), .stalled):
      if let reason = waitForNetwork(&session, detail, &effects) { return reason }

    case (.failed(_, let reason, let detail), .buffering),
      (.failed(_, let reason, let detail), .ready),
      (.failed(_, let reason, let detail), .stalled), (.failed(_, let reason, let detail), .ended):
      session.stage = .failed(reason)
      session.seekPending = false
      failure = detail
      effects.commands.append(.stop(load))

    case (.pausedBySystem, .ready), (.pausedBySystem, .stalled):
      guard playWhenReady, suppression == nil else { return .unexpected }
      session.systemPaused = true

    case (.ready, _), (.stalled, _), (.resumed, _), (.reachedEnd, _), (.failed, _),
      (.pausedBySystem, _):
      return .unexpected
    }
    self.session = session
    refreshPreload(&effects)
    return nil
  }

  /// The current entry ended: replay it, advance, or end the queue.
  private mutating func reachEnd(_ ended: Session, _ effects: inout Effects) -> IgnoreReason? {
    var session = ended
    session.position = session.duration ?? session.position
    // The end ends a system pause too: a replay (repeat one) starts the engine
    // again, and an ended load is not held by the system.
    session.systemPaused = false
    guard let current = queue.current else { return .unexpected }
    let next = queue.index(after: current, wrap: queue.repeatMode == .all)
    if queue.repeatMode == .one || next == current {
      guard let seek = session.lastSeek.successor else { return .idsExhausted }
      session.lastSeek = seek
      session.seekPending = true
      session.position = .zero
      // Replayed from a frame the engine has: ready, whatever stage it ended in.
      session.stage = .ready
      effects.commands.append(.seek(session.load, to: .zero, seek))
      startIfWanted(session.load, &effects)
      self.session = session
      return nil
    }
    guard let next else {
      session.stage = .ended
      self.session = session
      refreshPreload(&effects)
      return nil
    }
    // Ids never wrap: advancing needs a new token, and there is none left.
    let promotes = preloadUsable(for: next, from: .zero)
    if !promotes, !tokenAvailable { return .idsExhausted }
    self.session = session
    stopCurrent(&effects)
    if !promotes { dropPreload(&effects) }
    queue.current = next
    _ = enterCurrent(from: .zero, &effects)
    refreshPreload(&effects)
    return nil
  }

  private mutating func applyToPreload(
    _ report: EngineReport, _ preload: Preload, _ effects: inout Effects
  ) -> IgnoreReason? {
    switch (report, preload.stage) {
    case (.ready(_, let duration), .buffering):
      self.preload?.stage = .ready
      self.preload?.duration = duration
    case (.failed(_, let reason, _), .buffering), (.failed(_, let reason, _), .ready):
      self.preload?.stage = .failed(reason)
      effects.commands.append(.stop(preload.load))
    default:
      return .unexpected
    }
    return nil
  }

  private mutating func expire(
    _ load: Load, _ id: WatchdogID, _ effects: inout Effects
  ) -> IgnoreReason? {
    var session: Session
    switch identify(load) {
    case .current(let current): session = current
    case .preloading: return .staleWatchdog
    case .ignored(let reason): return reason
    }
    guard id == session.lastWatchdog else { return .staleWatchdog }
    if session.stage == .waitingForNetwork { return reloadAfterWaiting(&effects) }
    guard session.stage == .buffering || session.stage == .stalled else { return .staleWatchdog }
    session.stage = .failed(.timeout)
    session.seekPending = false
    effects.commands.append(.stop(session.load))
    self.session = session
    refreshPreload(&effects)
    return nil
  }

  // MARK: Building blocks

  /// Whether a new load token can be issued.
  private var tokenAvailable: Bool { issuedLoads < UInt32.max }

  /// New entries with fresh item ids, or nil if the ids would run out.
  private mutating func issueEntries(_ media: [MediaID]) -> [QueueEntry]? {
    guard UInt32.max - issuedItems >= media.count else { return nil }
    var entries: [QueueEntry] = []
    entries.reserveCapacity(media.count)
    for name in media {
      issuedItems += 1
      entries.append(QueueEntry(item: ItemID(issuedItems), media: name))
    }
    return entries
  }

  /// Stops the current load (a failed one was stopped when it failed); idle.
  private mutating func stopCurrent(_ effects: inout Effects) {
    guard let session else { return }
    if !session.stage.isStopped { effects.commands.append(.stop(session.load)) }
    self.session = nil
  }

  /// Stops the preload (a failed one was stopped when it failed).
  private mutating func dropPreload(_ effects: inout Effects) {
    guard let preload else { return }
    if case .failed = preload.stage {} else { effects.commands.append(.stop(preload.load)) }
    self.preload = nil
  }

  /// Whether the preload is of the entry at `position` and can start it from `time`.
  private func preloadUsable(for position: Int, from time: MediaTime) -> Bool {
    guard let preload, time == .zero, queue.entries[position].item == preload.load.item else {
      return false
    }
    if case .failed = preload.stage { return false }
    return true
  }

  /// Opens the current queue entry, with no load live: promotes the preload
  /// if it is of this entry, or issues a new load.
  private mutating func enterCurrent(
    from time: MediaTime, _ effects: inout Effects
  ) -> IgnoreReason? {
    guard let position = queue.current else { return .noEffect }
    if preloadUsable(for: position, from: time), let preload {
      self.preload = nil
      let ready = preload.stage == .ready
      var session = Session(
        load: preload.load, stage: ready ? .ready : .buffering, duration: preload.duration)
      if ready {
        startIfWanted(preload.load, &effects)
      } else {
        session.lastWatchdog = WatchdogID(1)
        effects.watchdog = WatchdogRequest(load: preload.load, id: session.lastWatchdog)
      }
      self.session = session
      return nil
    }
    guard tokenAvailable else { return .idsExhausted }
    issuedLoads += 1
    let load = Load(item: queue.entries[position].item, token: LoadToken(issuedLoads))
    effects.commands.appendOpening(load, media: queue.entries[position].media, start: time)
    session = Session(
      load: load, stage: .buffering, lastWatchdog: WatchdogID(1), position: time)
    effects.watchdog = WatchdogRequest(load: load, id: WatchdogID(1))
    return nil
  }

  /// Keeps the preload in step with the queue: drops one whose entry is no
  /// longer next, and preloads the next entry once the current one is ready.
  private mutating func refreshPreload(_ effects: inout Effects) {
    // Indices and item ids only: copying a `QueueEntry` would copy its string.
    var wanted: Int?
    if configuration.canPreload, let stage = session?.stage {
      switch stage {
      case .buffering, .ready, .stalled: wanted = queue.nextIndex
      case .ended, .failed, .waitingForNetwork: wanted = nil
      }
    }
    if let preload {
      if let wanted, queue.entries[wanted].item == preload.load.item { return }
      dropPreload(&effects)
    }
    guard let wanted, session?.stage == .ready, tokenAvailable else { return }
    issuedLoads += 1
    let load = Load(item: queue.entries[wanted].item, token: LoadToken(issuedLoads))
    effects.commands.appendOpening(
      load, media: queue.entries[wanted].media, start: .zero, preload: true)
    preload = Preload(load: load, stage: .buffering)
  }
}

// MARK: The system: interruptions, the output route, the network

extension PlaybackState {
  /// Whether the engine plays (or should, once it is told to): the current load
  /// is ready or stalled, the user wants to play, and the system holds nothing.
  /// What `setRate`, `pause`, an interruption and its end act on.
  fileprivate var enginePlays: Bool {
    guard let session, playWhenReady, suppression == nil else { return false }
    return session.stage.isStarted
  }

  /// Appends `start` when the user wants to play and no interruption holds the
  /// engine: the one place a transition decides to start a load.
  fileprivate func startIfWanted(_ load: Load, _ effects: inout Effects) {
    if playWhenReady, !interrupted { effects.commands.append(.start(load, rate: rate)) }
  }

  fileprivate mutating func apply(_ event: SystemEvent, _ effects: inout Effects) -> IgnoreReason? {
    switch event {
    case .interruptionBegan:
      guard !interrupted else { return .noEffect }
      // The engine was playing: pause it. (Paused by the system, it is silent
      // already; the engine's pause and the interruption's notification come
      // in either order, so the interruption takes that pause over, and its
      // end decides.)
      if enginePlays, let session {
        effects.commands.append(.pause(session.load))
      } else if suppression == .systemPause, playWhenReady {
        session?.systemPaused = false
      }
      interrupted = true

    case .interruptionEnded(let shouldResume):
      guard interrupted else { return .notInterrupted }
      interrupted = false
      if !shouldResume {
        // The platform's guideline: without the hint, stay paused; the intent becomes pause.
        playWhenReady = false
      } else if enginePlays, let session {
        effects.commands.append(.start(session.load, rate: rate))
      }

    case .routeLost:
      // A user pause that the user did not make: it never resumes by itself.
      return apply(.pause, &effects)

    case .networkLost:
      guard var session, session.stage == .buffering || session.stage == .stalled else {
        return .noEffect
      }
      if let reason = waitForNetwork(&session, nil, &effects) { return reason }
      self.session = session
      refreshPreload(&effects)

    case .networkAvailable:
      guard session?.stage == .waitingForNetwork else { return .noEffect }
      return reloadAfterWaiting(&effects)
    }
    return nil
  }

  /// A load failed for want of the network: wait (stop it, arm the backoff) if
  /// the policy allows another reload, or fail with `network`. Writes `session`.
  fileprivate mutating func waitForNetwork(
    _ session: inout Session, _ detail: FailureDetail?, _ effects: inout Effects
  ) -> IgnoreReason? {
    let waits = session.networkAttempts < configuration.retry.attempts
    // Decided before anything changes: an ignored event sends nothing.
    let timer = session.lastWatchdog.successor
    if waits, timer == nil { return .idsExhausted }
    session.seekPending = false
    failure = detail
    effects.commands.append(.stop(session.load))
    guard waits, let timer else {
      session.stage = .failed(.network)
      return nil
    }
    session.stage = .waitingForNetwork
    session.lastWatchdog = timer
    effects.watchdog = WatchdogRequest(
      load: session.load, id: timer,
      delay: configuration.retry.delay(before: session.networkAttempts + 1))
    return nil
  }

  /// The network is back or the backoff expired: a new load of the same entry
  /// at its last known position, one more attempt counted.
  fileprivate mutating func reloadAfterWaiting(_ effects: inout Effects) -> IgnoreReason? {
    guard let waiting = session else { return .unexpected }
    guard tokenAvailable else { return .idsExhausted }
    self.session = nil
    _ = enterCurrent(from: waiting.position, &effects)
    session?.networkAttempts = waiting.networkAttempts + 1
    refreshPreload(&effects)
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
    case .buffering, .ready, .stalled, .ended: false
    }
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
