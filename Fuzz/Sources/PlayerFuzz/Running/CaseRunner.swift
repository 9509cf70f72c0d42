package import PlayerState

/// Runs one fuzz case against a fresh player and checks every property after
/// every step: the oracle.
///
/// For each event the player processes, in arrival order (the outer event,
/// then any report the engine sent re-entrantly from inside `execute`), the
/// ``ContractModel`` predicts the commands; the engine's actual log must equal
/// the predicted one, and the player's observation must agree with the model.
package struct CaseRunner {
  /// The player under test.
  package private(set) var target: any FuzzTarget
  /// Its engine.
  package private(set) var engine: FuzzEngine
  /// The oracle's model, after the steps so far.
  package private(set) var model: ContractModel
  /// Every command the engine received.
  package private(set) var log: [EngineCommand] = []
  /// Every command the contract expects.
  package private(set) var expected: [EngineCommand] = []
  /// The actions performed so far.
  package private(set) var trace: [FuzzAction] = []
  /// For each performed action, whether any event it delivered was accepted.
  package private(set) var effects: [Bool] = []
  /// Events checked so far, including re-entrant reports and the settling ones.
  package private(set) var events = 0
  /// Which (state, event) pairs and transitions were exercised.
  package var coverage = FuzzCoverage()
  /// Whether ``coverage`` records: a replay that only wants the verdict (the
  /// shrinker's) turns it off, since a fresh coverage allocates its whole
  /// table on the first record, which costs more than a short case.
  package var recordsCoverage = true

  private var later: [EngineReport] = []
  private var received: [EngineCommand] = []
  private var sent: [EngineReport] = []
  private var arrivals: [Arrival] = []
  /// The timers the contract armed in the current delivery, oldest first.
  var requests: [WatchdogClaim] = []
  /// The timers the player scheduled in the current delivery, oldest first.
  var scheduled: [(after: Duration, fire: @Sendable () -> Void)] = []
  /// The model's queue fingerprint and what it was computed from: most events
  /// leave the queue as it was (the same buffer, compared in O(1)), so a step
  /// costs O(queue) only when it changes the queue, not on every report.
  private var queueCache: QueueCache?

  private struct QueueCache {
    var entries: [ContractModel.Entry]
    var position: Int?
    var repeatMode: RepeatMode
    var seed: UInt64?
    var fingerprint: UInt64
  }

  /// One event the player processed in the current delivery: the outer
  /// event first, then ``sent``'s reports in order. Trivial to store and
  /// clear (the events themselves are not copied on the hot path).
  private struct Arrival {
    var offset: Int
    var accepted: Bool
  }

  /// A runner around a fresh player made by `subject`.
  /// - Parameters:
  ///   - subject: the player under test.
  ///   - canPreload: whether the engine declares the `.preload` capability.
  ///   - retry: the player's retry policy for network failures.
  package init(_ subject: FuzzSubject, canPreload: Bool = false, retry: RetryPolicy = .standard) {
    self.init(subject, setup: FuzzSetup(canPreload: canPreload, retry: retry))
  }

  /// A runner around a fresh player made by `subject`, for a case set up as `setup` says.
  package init(_ subject: FuzzSubject, setup: FuzzSetup) {
    engine = FuzzEngine(setup)
    model = ContractModel(setup)
    target = subject.make(engine)
    log.reserveCapacity(64)
    expected.reserveCapacity(64)
    trace.reserveCapacity(64)
  }

  /// What the case runs with.
  package var setup: FuzzSetup { engine.setup }

  /// Starts over with a fresh player made by `subject` and a fresh model,
  /// keeping the buffers' capacity (a random run resets one runner per case
  /// instead of allocating a new one) and the coverage.
  /// - Parameters:
  ///   - subject: the player under test.
  ///   - canPreload: whether the engine declares the `.preload` capability.
  ///   - retry: the player's retry policy for network failures.
  package mutating func reset(
    _ subject: FuzzSubject, canPreload: Bool, retry: RetryPolicy = .standard
  ) {
    reset(subject, setup: FuzzSetup(canPreload: canPreload, retry: retry))
  }

  /// Starts over for a case set up as `setup` says (see ``reset(_:canPreload:retry:)``).
  package mutating func reset(_ subject: FuzzSubject, setup: FuzzSetup) {
    engine = FuzzEngine(setup)
    model = ContractModel(setup)
    target = subject.make(engine)
    log.removeAll(keepingCapacity: true)
    expected.removeAll(keepingCapacity: true)
    trace.removeAll(keepingCapacity: true)
    effects.removeAll(keepingCapacity: true)
    events = 0
    later.removeAll(keepingCapacity: true)
    received.removeAll(keepingCapacity: true)
    sent.removeAll(keepingCapacity: true)
    arrivals.removeAll(keepingCapacity: true)
    requests.removeAll(keepingCapacity: true)
    scheduled.removeAll(keepingCapacity: true)
    queueCache = nil
  }

  /// The held-back reports waiting for a `deliver`.
  package var laterCount: Int { later.count }

  /// Performs one action and checks every property.
  /// - Returns: the first broken property, or nil.
  package mutating func perform(_ action: FuzzAction) -> FuzzViolation? {
    trace.append(action)
    let step = trace.count
    switch action {
    case .send(let event):
      let violation = deliver(event, step: step)
      effects.append(arrivals.contains { $0.accepted })
      return violation
    case .reentrant(let report):
      engine.arm(report)
      effects.append(true)
      return nil
    case .later(let report):
      later.append(report)
      effects.append(true)
      return nil
    case .deliver:
      let due = later
      later.removeAll(keepingCapacity: true)
      var accepted = false
      for report in due {
        if let violation = deliver(.engine(report), step: step) {
          effects.append(true)
          return violation
        }
        accepted = accepted || arrivals.contains { $0.accepted }
      }
      effects.append(accepted)
      return nil
    }
  }

  /// Ends the case: sends the held-back reports, then lets a cooperative
  /// engine answer what is outstanding (liveness). Re-entrant reports that no
  /// command fired are dropped. Every event sent here is appended to
  /// ``trace`` as an explicit action, so that a failure found here replays
  /// and prints like any other.
  /// - Returns: the first broken property, or nil.
  package mutating func finish() -> FuzzViolation? {
    finish(observe: nil)
  }

  /// ``finish()``, calling `observe` after each action it adds that kept
  /// every property, with the commands it caused, the model and the player
  /// (a timeline's rows, without replaying the case).
  package mutating func finish(
    observe: ((ArraySlice<EngineCommand>, ContractModel, any FuzzTarget) -> Void)?
  ) -> FuzzViolation? {
    func add(_ action: FuzzAction) -> FuzzViolation? {
      let before = log.count
      if let violation = perform(action) { return violation }
      observe?(log[before...], model, target)
      return nil
    }
    _ = engine.takeArmed()
    if !later.isEmpty, let violation = add(.deliver) { return violation }
    for _ in 0..<4 {
      guard let current = model.current else { break }
      let report: EngineReport
      switch current.stage {
      case .buffering: report = .ready(current.load, duration: nil)
      case .stalled: report = .resumed(current.load)
      case .ready where current.seekPending:
        report = .seekCompleted(current.load, SeekID(current.lastSeek))
      case .waiting:
        // The network comes back: the entry reloads.
        if let violation = add(.send(.system(.networkAvailable))) { return violation }
        continue
      case .ready, .ended, .failed:
        return steadyCheck(step: trace.count)
      }
      if let violation = add(.send(.engine(report))) { return violation }
    }
    return steadyCheck(step: trace.count)
  }

  private func steadyCheck(step: Int) -> FuzzViolation? {
    let kind = target.observation.kind
    guard kind == .buffering || kind == .stalled else { return nil }
    var violation = FuzzViolation(
      property: .reachesSteadyState, step: step, event: nil, expected: expected, actual: log,
      detail: "after cooperative reports the player is still \(target.stateDescription)")
    violation.media = model.media
    return violation
  }

  // MARK: Checking one delivered event

  private mutating func deliver(_ event: PlaybackEvent, step: Int) -> FuzzViolation? {
    let mark = log.count
    // The reports of the previous delivery are kept until now: a violation
    // names its culprit from them.
    sent.removeAll(keepingCapacity: true)
    engine.deliver(event, to: target)
    engine.drain(commands: &received, sent: &sent)
    log.append(contentsOf: received)
    received.removeAll(keepingCapacity: true)

    arrivals.removeAll(keepingCapacity: true)
    record(event)
    for report in sent { record(.engine(report)) }
    events += arrivals.count

    if log.count != expected.count || log[mark...] != expected[mark...] {
      return commandViolation(step: step, from: mark, event: event)
    }
    if let violation = observationViolation(event, step: step) { return violation }
    return watchdogViolation(event, step: step)
  }

  private mutating func record(_ event: PlaybackEvent) {
    let before = model.kind
    let offset = expected.count
    if recordsCoverage { coverage.record(variantsOf: event, at: model) }
    let session = model.current
    let accepted = model.apply(event, commands: &expected)
    if let request = model.watchdogRequest(since: session) { requests.append(request) }
    if !recordsCoverage {
      // Only the verdict is wanted.
    } else if accepted {
      coverage.record(
        from: before, event: event.kind, to: model.kind, commands: expected[offset...])
    } else {
      coverage.record(from: before, event: event.kind)
    }
    arrivals.append(Arrival(offset: offset, accepted: accepted))
  }

  /// The event of arrival `position` of a delivery whose outer event is `event`.
  private func arrivalEvent(_ position: Int, outer event: PlaybackEvent) -> PlaybackEvent {
    position == 0 ? event : .engine(sent[position - 1])
  }

  private func commandViolation(step: Int, from mark: Int, event outer: PlaybackEvent)
    -> FuzzViolation
  {
    var index = mark
    while index < log.count, index < expected.count, log[index] == expected[index] { index += 1 }
    // The first arrival whose predicted commands reach past the divergence;
    // failing that, the earliest one that ends exactly there (an extra command).
    var culprit = 0
    var exact: Int?
    for position in arrivals.indices {
      let end = position + 1 < arrivals.count ? arrivals[position + 1].offset : expected.count
      if end > index {
        culprit = position
        exact = nil
        break
      }
      if end == index, exact == nil { exact = position }
    }
    if let exact { culprit = exact }
    let accepted = arrivals[culprit].accepted
    let event = arrivalEvent(culprit, outer: outer)
    let property = FuzzViolation.classify(
      expected: expected, actual: log, from: mark, event: event, accepted: accepted)
    var violation = FuzzViolation(
      property: property, step: step, event: event, expected: expected, actual: log,
      detail: accepted
        ? "" : "the contract ignores \(event.description(naming: { model.media[$0] }))")
    violation.media = model.media
    return violation
  }

  /// ``ContractModel/queueFingerprint``, from ``queueCache`` when the queue is unchanged.
  private mutating func modelQueueFingerprint() -> UInt64 {
    let seed = model.shuffle?.seed
    if let cache = queueCache, cache.position == model.position,
      cache.repeatMode == model.repeatMode, cache.seed == seed, cache.entries == model.entries
    {
      return cache.fingerprint
    }
    let fingerprint = model.queueFingerprint
    queueCache = QueueCache(
      entries: model.entries, position: model.position, repeatMode: model.repeatMode, seed: seed,
      fingerprint: fingerprint)
    return fingerprint
  }

  private mutating func observationViolation(_ event: PlaybackEvent, step: Int)
    -> FuzzViolation?
  {
    let seen = engine.contract(target.observation)
    let property: FuzzProperty
    if event == .stop, seen.kind != .idle {
      property = .idleAfterStop
    } else if let pending = seen.seekPending, pending != model.seekPending {
      property =
        event.kind == .seeked || sent.contains { PlaybackEvent.engine($0).kind == .seeked }
        ? .newestSeekOnly : .stateMatchesContract
    } else if seen.isPlaying != model.engineIsPlaying {
      property = .isPlayingMatchesEngine
    } else if seen.kind != model.kind {
      property = .stateMatchesContract
    } else if let queue = seen.queue, queue != modelQueueFingerprint() {
      property = .queueMatchesContract
    } else if let loads = seen.loads,
      loads.current != model.current?.load || loads.preload != model.preload?.load
    {
      property = .queueMatchesContract
    } else if let position = seen.position, position.milliseconds != model.current?.position {
      property = .queueMatchesContract
    } else if let ready = seen.preloadReady, ready != (model.preload?.stage == .ready) {
      property = .queueMatchesContract
    } else if let failure = seen.failure, failure != model.current?.failure {
      property = .stateMatchesContract
    } else {
      return nil
    }
    let detail =
      "the player is \(target.stateDescription) (kind \(seen.kind), isPlaying \(seen.isPlaying)"
      + "\(seen.seekPending.map { ", seek pending \($0)" } ?? "")); the contract expects kind \(model.kind), "
      + "isPlaying \(model.engineIsPlaying), seek pending \(model.seekPending), "
      + "queue \(model.queueDescription), loads \(model.loadsDescription)"
      + "\(model.preload.map { ", preload \($0.stage)" } ?? "")"
      + "\(model.current.map { ", position \($0.position)ms" } ?? "")"
      + Self.failureDescription(seen: seen.failure, expected: model.current?.failure)
    let culprit = arrivalEvent(arrivals.count - 1, outer: event)
    var violation = FuzzViolation(
      property: property, step: step, event: culprit, expected: expected, actual: log,
      detail: detail)
    violation.media = model.media
    return violation
  }
}

extension CaseRunner {
  /// The failure details, said and expected, when the player says one and
  /// either is there (empty otherwise, so most reports stay as they were).
  static func failureDescription(seen: FailureDetail??, expected: FailureDetail?) -> String {
    guard let seen, seen != nil || expected != nil else { return "" }
    return "; the player's failure detail: \(seen.map(\.description) ?? "none"), "
      + "the contract's: \(expected.map(\.description) ?? "none")"
  }

  /// Replays `actions` on a fresh player made by `subject`, finishing the case.
  /// - Parameters:
  ///   - subject: the player under test.
  ///   - actions: the case.
  ///   - canPreload: whether the engine declares `.preload`.
  ///   - retry: the player's retry policy.
  /// - Returns: the first violation, or nil when every property held.
  package static func check(
    _ subject: FuzzSubject, _ actions: [FuzzAction], canPreload: Bool = false,
    retry: RetryPolicy = .standard
  ) -> FuzzViolation? {
    replay(subject, actions, setup: FuzzSetup(canPreload: canPreload, retry: retry)).violation
  }

  /// Replays `actions` on a fresh player made by `subject`, set up as
  /// `setup` says, finishing the case.
  /// - Returns: the first violation, or nil when every property held.
  package static func check(
    _ subject: FuzzSubject, _ actions: [FuzzAction], setup: FuzzSetup
  ) -> FuzzViolation? {
    replay(subject, actions, setup: setup).violation
  }

  /// Replays `actions` on a fresh player made by `subject`, finishing the case.
  /// - Parameters:
  ///   - subject: the player under test.
  ///   - actions: the case.
  ///   - canPreload: whether the engine declares `.preload`.
  ///   - retry: the player's retry policy.
  /// - Returns: the runner afterwards (its ``trace`` holds the actions up to
  ///   the failure, plus those the end of the case added) and the first violation.
  package static func replay(
    _ subject: FuzzSubject, _ actions: [FuzzAction], canPreload: Bool = false,
    retry: RetryPolicy = .standard
  ) -> (runner: CaseRunner, violation: FuzzViolation?) {
    replay(subject, actions, setup: FuzzSetup(canPreload: canPreload, retry: retry))
  }

  /// Replays `actions` on a fresh player made by `subject`, set up as
  /// `setup` says, finishing the case.
  /// - Returns: the runner afterwards and the first violation.
  package static func replay(
    _ subject: FuzzSubject, _ actions: [FuzzAction], setup: FuzzSetup
  ) -> (runner: CaseRunner, violation: FuzzViolation?) {
    var runner = CaseRunner(subject, setup: setup)
    runner.recordsCoverage = false
    for action in actions {
      if let violation = runner.perform(action) { return (runner, violation) }
    }
    let violation = runner.finish()
    return (runner, violation)
  }
}
