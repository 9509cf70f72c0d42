import PlayerEngine
package import PlayerState

/// Runs one fuzz case against a fresh player and checks every property after
/// every step: the oracle.
///
/// For each event the player processes, in arrival order (the outer event,
/// then any report the engine sent re-entrantly from inside `execute`), the
/// ``ContractModel`` predicts the commands; the engine's actual log must equal
/// the predicted one, and the player's observation must agree with the model.
package struct CaseRunner {
  /// The player under test (set with ``setTarget(_:playerTarget:)``, which
  /// keeps ``playerTarget`` in step).
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
  /// What the case runs with (the engine a relaunch or a hand-off makes has
  /// no start state: it numbers its loads from 1).
  private(set) var caseSetup: FuzzSetup
  /// How the subject restores its player after a relaunch; nil when it cannot.
  private var restore: (@Sendable (any PlaybackEngine, PlaybackSnapshot) -> (any FuzzTarget)?)?
  /// Where the current engine's commands begin in ``log`` (0 until a
  /// relaunch or a hand-off): the command properties read this life only.
  private(set) var life = 0
  /// Whether the current life began with a restore (a relaunch or a hand-off).
  private var restoredLife = false
  /// The saved entry and position of the current life's restore, when it had one.
  private var saved: ContractResumePoint?
  /// The player a hand-off left, with its engine and the reports held back
  /// for it: they reach it at the next `deliver`, and must cause nothing.
  private var retired: (target: any FuzzTarget, engine: FuzzEngine, later: [EngineReport])?
  /// The load the player a hand-off left was fading out into its stop, until
  /// its `stop`: its own `ended` or `failed`, held back for the old player,
  /// sends that one `stop` to the old engine (docs/machine.md, "How the
  /// outgoing load ends"; the same rule for a stop's fade).
  private var retiredLeaving: FadingOut?
  private var received: [EngineCommand] = []
  private var sent: [EngineReport] = []
  private var arrivals: [Arrival] = []
  /// The timers the contract armed in the current delivery, oldest first.
  var requests: [WatchdogClaim] = []
  /// The timers the player scheduled in the current delivery, oldest first.
  var scheduled: [ScheduledTimer] = []
  /// The model's queue fingerprint and what it was computed from: most events
  /// leave the queue as it was (the same buffer, compared in O(1)), so a step
  /// costs O(queue) only when it changes the queue, not on every report.
  private var queueCache: QueueCache?

  /// The entries and shuffle list orders of the player's and the contract's
  /// queues when they were last found equal: most events leave both as they
  /// were (the same buffers, recognised in O(1)), so comparing the whole public
  /// state costs O(queue) only on a step that rebuilt a queue, not on every event.
  private var agreedEntries: AgreedEntries?
  /// ``ContractModel/availableCommands`` of the model as it is, or nil when
  /// the model may have changed since it was computed: an event the contract
  /// ignores changes nothing, so it is not computed again.
  private var modelCommands: AvailableCommands?
  /// ``ContractModel/nowPlaying(anchor:)`` of the model and anchor as they
  /// are, or nil when either may have changed since (as ``modelCommands``).
  private var modelNowPlaying: ContractNowPlaying??
  /// The box of the last observation found to agree with the model as it
  /// still is, when it was not edited (nil once the model or the anchor may
  /// have changed, as ``modelCommands``): the same observation again agrees
  /// again, so it is not compared field by field. The box, not the
  /// observation: one reference is cheap to keep and to forget, where the
  /// observation's copy and destruction go through its value witnesses.
  private var agreed: StateBox?
  /// Whether the case asked a player whose ignore reasons cost a step
  /// record for them (``FuzzEngine/reportsCostlyReasons`` of every engine of
  /// the case, kept here: the engine reads it under its lock).
  private var costlyReasons = true
  /// The engine ``reset(_:setup:costlyReasons:)`` starts each case on, reset,
  /// when the subject's players can be restarted (``FuzzSubject/restart``).
  private var keptEngine: FuzzEngine?
  /// The players made on ``keptEngine``, with what their subject fixes when
  /// it makes one: the watchdog clock's timeout and whether step records are
  /// asked for (``FuzzSubject/restart``). A case restarts the one made for its
  /// own. A list searched in order, not a dictionary: a run makes a handful,
  /// and hashing the key cost more than the search; each is kept with its
  /// ``PlayerTarget`` cast once, not again for every case.
  private var keptTargets: [KeptTarget] = []

  /// A kept player and what it was made for.
  private struct KeptTarget {
    var timeout: MediaTime
    var costlyReasons: Bool
    var target: any FuzzTarget
    /// `target` when it is Playhead's player.
    var playerTarget: PlayerTarget?
  }

  /// Sets ``target`` and ``playerTarget``, its ``PlayerTarget`` cast
  /// (a kept player's is known: no dynamic cast each case).
  private mutating func setTarget(_ target: any FuzzTarget, playerTarget: PlayerTarget?) {
    self.target = target
    self.playerTarget = playerTarget
  }

  /// Sets ``target`` to `target`, cast once for ``playerTarget``.
  private mutating func setTarget(_ target: any FuzzTarget) {
    setTarget(target, playerTarget: target as? PlayerTarget)
  }

  /// The target when it is Playhead's player (``PlayerTarget``): its
  /// observation check reads the state directly (``playerAgrees(_:after:)``).
  private var playerTarget: PlayerTarget?
  /// The state Playhead's player was last found in agreeing with the model
  /// and the anchor (``playerAgrees(_:after:)``), when ``playerStateAgrees``:
  /// until either may have changed, the same state again agrees again. Kept
  /// in place, not forgotten (a flag says whether it holds): replacing it
  /// costs its references only, where a box per agreeing state cost an
  /// allocation and its freeing on most events.
  private var playerState = PlaybackState()
  /// Whether ``playerState`` agrees with the model and the anchor as they are.
  private var playerStateAgrees = false

  /// Forgets what was worked out from the model as it was (its available
  /// commands, its now playing, the observation that last agreed with it):
  /// the model or the anchor may have changed.
  private mutating func forgetModelDerivations() {
    modelCommands = nil
    // Tested first: forgetting a value that is there already costs a call
    // through the optional's value witnesses (on most accepted events).
    if case .some = modelNowPlaying { modelNowPlaying = nil }
    agreed = nil
    playerStateAgrees = false
  }

  private struct AgreedEntries {
    var player: QueueEntries
    /// The player's shuffle's list order, nil when not shuffled (an
    /// optional, not an empty list: making an empty `QueueEntries` cost a call
    /// an event; nil agrees only with nil, which can only ask for a full compare).
    var playerList: QueueEntries?
    var model: [ContractModel.Entry]
    var modelList: [ContractModel.Entry]

    /// Whether each collection is the very storage held here (and so still equal).
    func holds(
      _ player: QueueEntries, _ playerList: QueueEntries?, _ model: [ContractModel.Entry],
      _ modelList: [ContractModel.Entry]
    ) -> Bool {
      player.sharesStorage(with: self.player) && Self.same(playerList, self.playerList)
        && Self.same(model, self.model) && Self.same(modelList, self.modelList)
    }

    /// Whether two lists are both absent or share their storage, in O(1).
    private static func same(_ lhs: QueueEntries?, _ rhs: QueueEntries?) -> Bool {
      switch (lhs, rhs) {
      case (nil, nil): true
      case (let lhs?, let rhs?): lhs.sharesStorage(with: rhs)
      default: false
      }
    }

    /// Whether two arrays share their storage, in O(1) (false says nothing).
    /// The storage held here stays alive, so an equal address is the same buffer.
    private static func same<Element>(_ lhs: [Element], _ rhs: [Element]) -> Bool {
      guard lhs.count == rhs.count else { return false }
      if lhs.isEmpty { return true }
      return lhs.withUnsafeBufferPointer { left in
        rhs.withUnsafeBufferPointer { right in left.baseAddress == right.baseAddress }
      }
    }
  }

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
  struct Arrival {
    var offset: Int
    /// Why the contract ignored it; nil when it accepted it.
    var reason: IgnoreReason?
    /// The notifications the contract expects from it.
    var notes: ContractNotifications
    /// The current entry, when the sleep timer stopped at its end before the event.
    var stopsAt: ItemID?
    /// What fades had going before the event (CaseRunnerFade.swift).
    var fades = FadesBefore()
    var accepted: Bool { reason == nil }
  }

  /// What the player reported for each event of the current delivery.
  private var reasons: [IgnoreReason?] = []
  /// What the player notified for each event of the current delivery.
  private var notified: [[PlayerNotification]] = []
  /// The elapsed anchor the contract expects (docs/machine.md, "Remote controls").
  package private(set) var anchor: ContractAnchor
  /// The observables the player left unsaid in some step so far (one bit
  /// each, ``FuzzObservable``), kept across ``reset(_:setup:)`` (a parallel
  /// run clears it for each chunk of cases).
  package var unsaid: UInt16 = 0
  /// The observables the player left unsaid so far.
  package var notCompared: [FuzzObservable] { FuzzObservable.decode(unsaid) }

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
    caseSetup = setup
    restore = subject.restore
    engine = FuzzEngine(setup)
    model = ContractModel(setup)
    anchor = Self.anchor(model, setup)
    target = subject.make(engine)
    playerTarget = target as? PlayerTarget
    log.reserveCapacity(64)
    expected.reserveCapacity(64)
    trace.reserveCapacity(64)
  }

  /// What the case runs with.
  package var setup: FuzzSetup { caseSetup }

  /// The anchor a case starts with: the start state's own (an input, like
  /// its position), or 0.
  private static func anchor(_ model: ContractModel, _ setup: FuzzSetup) -> ContractAnchor {
    let start = setup.start
    let session = start?.session
    let elapsed = session?.anchor.milliseconds ?? 0
    return ContractAnchor(model, anchor: elapsed)
  }

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
  /// A subject whose players can be restarted (``FuzzSubject/restart``) has
  /// its player restarted on the runner's engine, reset, instead of a new one
  /// made: copies of a runner share those, so reset one copy only.
  /// - Parameter costlyReasons: whether a subject whose ignore reasons cost
  ///   a step record per event reports them (``FuzzEngine/reportsCostlyReasons``).
  package mutating func reset(
    _ subject: FuzzSubject, setup: FuzzSetup, costlyReasons: Bool = true
  ) {
    caseSetup = setup
    restore = subject.restore
    self.costlyReasons = costlyReasons
    life = 0
    restoredLife = false
    saved = nil
    retired = nil
    retiredLeaving = nil
    model = ContractModel(setup)
    anchor = Self.anchor(model, setup)
    if let restart = subject.restart {
      // One engine, reset, and the player made for this case's timeout and
      // step records, restarted (made the first time).
      let engine = keptEngine ?? FuzzEngine(setup, costlyReasons: costlyReasons)
      if keptEngine == nil {
        keptEngine = engine
      } else {
        engine.reset(setup, costlyReasons: costlyReasons)
      }
      self.engine = engine
      let timeout = setup.watchdogTimeout
      let index = keptTargets.firstIndex {
        $0.timeout == timeout && $0.costlyReasons == costlyReasons
      }
      if let index, restart(keptTargets[index].target, engine) {
        setTarget(keptTargets[index].target, playerTarget: keptTargets[index].playerTarget)
      } else {
        setTarget(subject.make(engine))
        let kept = KeptTarget(
          timeout: timeout, costlyReasons: costlyReasons, target: target,
          playerTarget: playerTarget)
        if let index { keptTargets[index] = kept } else { keptTargets.append(kept) }
      }
    } else {
      engine = FuzzEngine(setup, costlyReasons: costlyReasons)
      setTarget(subject.make(engine))
    }
    log.clear()
    expected.clear()
    trace.clear()
    effects.clear()
    events = 0
    later.clear()
    received.clear()
    sent.clear()
    arrivals.clear()
    requests.clear()
    scheduled.clear()
    reasons.clear()
    notified.clear()
    queueCache = nil
    agreedEntries = nil
    forgetModelDerivations()
  }

  /// The held-back reports waiting for a `deliver`.
  package var laterCount: Int { later.count + (retired?.later.count ?? 0) }

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
    case .lifecycle(let change):
      let (performed, violation) = perform(change, step: step)
      effects.append(performed)
      return violation
    case .deliver:
      if let violation = deliverRetired(step: step) {
        effects.append(true)
        return violation
      }
      let due = later
      later.clear()
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
    _ = engine.takeArmed()
    if !later.isEmpty || retired?.later.isEmpty == false,
      let violation = add(.deliver, observe: observe)
    {
      return violation
    }
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
        if let violation = add(.send(.system(.networkAvailable)), observe: observe) {
          return violation
        }
        continue
      case .ready, .ended, .failed:
        return steadyCheck(step: trace.count)
      }
      if let violation = add(.send(.engine(report)), observe: observe) { return violation }
    }
    return steadyCheck(step: trace.count)
  }

  /// An action ``finish(observe:)`` adds, performed and checked; `observe`
  /// is called after it when it kept every property. (A method, not a
  /// function nested in `finish`: capturing the runner copied it whole.)
  private mutating func add(
    _ action: FuzzAction,
    observe: ((ArraySlice<EngineCommand>, ContractModel, any FuzzTarget) -> Void)?
  ) -> FuzzViolation? {
    let before = log.count
    if let violation = perform(action) { return violation }
    observe?(log[before...], model, target)
    return nil
  }

  /// (Mutating only so that calling it from `finish` does not copy the runner.)
  private mutating func steadyCheck(step: Int) -> FuzzViolation? {
    func unsteady(_ kind: StateKind) -> Bool { kind == .buffering || kind == .stalled }
    // Playhead's player's kind read off its state (its observation's is the state's).
    let still =
      if let playerTarget {
        playerTarget.player.withState { unsteady($0.kind) }
      } else {
        unsteady(target.observation.kind)
      }
    guard still else { return nil }
    var violation = FuzzViolation(
      property: .reachesSteadyState, step: step, event: nil, expected: expected, actual: log,
      detail: "after cooperative reports the player is still \(target.stateDescription)")
    violation.media = model.media.dictionary
    return violation
  }

  // MARK: Checking one delivered event

  private mutating func deliver(_ event: PlaybackEvent, step: Int) -> FuzzViolation? {
    let mark = log.count
    // The reports of the previous delivery are kept until now: a violation
    // names its culprit from them.
    sent.clear()
    // Left over only by a delivery that stopped at a violation.
    reasons.clear()
    notified.clear()
    scheduled.clear()
    let fired = engine.deliver(event, to: target)
    // The commands and reports, and the reasons, notifications and timers
    // the checks below read, in one lock.
    engine.drain(
      commands: &received, sent: &sent, reasons: &reasons, notified: &notified,
      scheduled: &scheduled)
    if !received.isEmpty {
      log.append(contentsOf: received)
      received.clear()
    }

    arrivals.clear()
    record(event)
    for report in sent { record(.engine(report)) }
    events += arrivals.count

    if !logMatches(from: mark) {
      return commandViolation(step: step, from: mark, event: event)
    }
    if let violation = observationViolation(event, step: step) { return violation }
    if let violation = reasonViolation(event, step: step, fired: fired) { return violation }
    if let violation = notificationViolation(event, step: step) { return violation }
    return watchdogViolation(event, step: step)
  }

  /// Whether the commands logged from `mark` on are the ones expected from
  /// `mark` on (`log.count == expected.count && log[mark...] == expected[mark...]`,
  /// by index: comparing slices copies each command).
  private mutating func logMatches(from mark: Int) -> Bool {
    Self.same(log, expected, from: mark)
  }

  /// ``logMatches(from:)`` of `log` and `expected`. (Static, and the method
  /// mutating: a method that does not mutate, called from one that does,
  /// copies the whole runner first.)
  private static func same(
    _ log: [EngineCommand], _ expected: [EngineCommand], from mark: Int
  ) -> Bool {
    guard log.count == expected.count else { return false }
    var index = mark
    while index < log.count {
      if log[index] != expected[index] { return false }
      index += 1
    }
    return true
  }

  /// After one delivery: each event the player reduced was ignored exactly
  /// when the contract ignores it, and for its reason. A player that reports
  /// no reasons (``FuzzEngine/onReduced(for:)``) is not compared; one whose
  /// timer was cancelled may report nothing for its stale expiry.
  private mutating func reasonViolation(
    _ event: PlaybackEvent, step: Int, fired: Bool
  ) -> FuzzViolation? {
    // `reasons` holds the delivery's (taken by `deliver`).
    defer { reasons.clear() }
    if reasons.isEmpty {
      // Nothing said: not compared (unless this case did not ask, see
      // FuzzEngine.reportsCostlyReasons); a cancelled timer's closure sends nothing.
      if costlyReasons, !fired || arrivals.count > 1 || arrivals[0].accepted {
        unsaid |= FuzzObservable.ignoreReasons.bit
      }
      return nil
    }
    var culprit: Int?
    var said: IgnoreReason??
    if reasons.count != arrivals.count {
      culprit = min(reasons.count, arrivals.count) - 1
    } else {
      for index in arrivals.indices where reasons[index] != arrivals[index].reason {
        culprit = index
        said = .some(reasons[index])
        break
      }
    }
    guard let culprit else { return nil }
    let named = arrivalEvent(culprit, outer: event)
    let expected = arrivals[culprit].reason
    let property =
      sleepProperty(named, arrivals[culprit], from: log.count)
      ?? crossfadeObservationProperty(named) ?? .ignoreReasonMatchesContract
    let detail =
      said == nil
      ? "the player reported \(reasons.count) reduced events where the contract processed \(arrivals.count)"
      : "the player \(Self.verdict(said ?? nil)) \(named.description(naming: { model.media[$0] })); the contract \(Self.verdict(expected))"
    var violation = FuzzViolation(
      property: property, step: step, event: named, expected: self.expected,
      actual: log, detail: detail)
    violation.media = model.media.dictionary
    return violation
  }

  /// `accepted` or `ignored (reason)`, as in a report.
  private static func verdict(_ reason: IgnoreReason?) -> String {
    reason.map { "ignored (\($0.rawValue): \($0))" } ?? "accepted"
  }

  mutating func record(_ event: PlaybackEvent) {
    let offset = expected.count
    // What the step reads of the model before the event and after it, each
    // in one call on the model (`RecordedStep`): every call on the model from
    // here copies all of it first, and this took seven an event.
    let prior =
      recordsCoverage
      ? model.prior(recordingVariantsOf: event, into: &coverage) : model.prior()
    let leavingBefore = model.leaving
    let stoppedLeavingBefore = model.stoppedLeaving
    let reason = model.process(event, commands: &expected)
    let accepted = reason == nil
    if accepted { forgetModelDerivations() }
    let after = model.after(event, accepted: accepted, prior: prior, anchor: anchor)
    if accepted { anchor = after.anchor }
    if let request = after.request { requests.append(request) }
    if let leaving = model.leaving, leaving != leavingBefore {
      // A stop that fades arms the leaving load's timer, with the fade's length; a
      // crossfade, with the crossfade's.
      requests.append(
        WatchdogClaim(load: leaving.load, id: leaving.timer, delay: model.leavingDelay))
    }
    if model.issuedSleep != prior.issuedSleep, case .after(let delay)? = model.sleep {
      requests.append(.sleep(model.issuedSleep, delay: delay.roundedMilliseconds))
    }
    if !recordsCoverage {
      // Only the verdict is wanted.
    } else if accepted {
      coverage.record(
        from: prior.kind, event: event.kind, to: after.kind, commands: expected[offset...])
    } else {
      coverage.record(from: prior.kind, event: event.kind)
    }
    arrivals.append(
      Arrival(
        offset: offset, reason: reason, notes: after.notes, stopsAt: prior.stopsAt,
        fades: FadesBefore(prior.session, leaving: leavingBefore, stopped: stoppedLeavingBefore)))
  }

  /// The event of arrival `position` of a delivery whose outer event is `event`.
  private func arrivalEvent(_ position: Int, outer event: PlaybackEvent) -> PlaybackEvent {
    position == 0 ? event : .engine(sent[position - 1])
  }

  func commandViolation(step: Int, from mark: Int, event outer: PlaybackEvent)
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
    let base = FuzzViolation.classify(
      expected: expected, actual: log, from: mark, event: event, accepted: accepted, life: life)
    let property =
      sleepProperty(event, arrivals[culprit], from: mark)
      ?? fadeProperty(event, arrivals[culprit], from: mark)
      ?? liveProperty(event, arrivals[culprit], from: mark)
      ?? restoreProperty(from: mark)
      ?? volumeProperty(event, base: base, from: mark) ?? base
    var violation = FuzzViolation(
      property: property, step: step, event: event, expected: expected, actual: log,
      detail: accepted
        ? "" : "the contract ignores \(event.description(naming: { model.media[$0] }))")
    violation.media = model.media.dictionary
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

  /// ``ContractModel/difference(from:entriesAgree:)``, with the queue's
  /// entries compared only when a buffer changed since they last agreed.
  /// (The box, not its state: a state read out of it and passed along is copied.)
  private mutating func publicStateDifference(_ box: StateBox) -> PublicStateDifference? {
    let agree = entriesAgree(box.state)
    let found = box.difference(from: model, entriesAgree: agree)
    if found == nil, !agree { noteEntriesAgree(box.state) }
    return found
  }

  mutating func observationViolation(_ event: PlaybackEvent?, step: Int) -> FuzzViolation? {
    if let playerTarget {
      // The state read in place, under the player's lock (copied only when it agrees).
      let agrees = playerTarget.player.withState { playerAgrees($0, after: event) }
      #if DEBUG
        // The shortcut must say what the whole check says, both ways.
        let violation = observationViolation(of: target.observation, event, step: step)
        assert(
          agrees == (violation == nil),
          "CaseRunner.playerAgrees says \(agrees) where the observation check found \(violation.map { "\($0.property)" } ?? "nothing")"
        )
        return violation
      #else
        if agrees { return nil }
      #endif
    }
    return observationViolation(of: target.observation, event, step: step)
  }

  /// ``observationViolation(_:step:)`` of `seen`, the target's observation just read.
  private mutating func observationViolation(
    of observation: FuzzObservation, _ event: PlaybackEvent?, step: Int
  ) -> FuzzViolation? {
    var seen = observation
    engine.contract(&seen)
    if let agreed, seen.repeats(box: agreed), event != .stop || seen.kind == .idle {
      // Everything below compares the observation with the model (and the
      // anchor) only, both as they were when it last agreed; `stop` aside.
      return nil
    }
    unsaid |= FuzzObservable.unsaid(in: seen)
    let property: FuzzProperty
    var difference: PublicStateDifference?
    var controls: String?
    if event == .stop, seen.kind != .idle {
      property = .idleAfterStop
    } else if let pending = seen.seekPending, pending != model.seekPending {
      property =
        event?.kind == .seeked || sent.contains { PlaybackEvent.engine($0).kind == .seeked }
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
      // Loads said in another numbering than the engine's: their own error (FuzzEngine.swift).
      if let mixed = numberingViolation(event, step: step) { return mixed }
      property = .queueMatchesContract
    } else if let position = seen.position, position.milliseconds != model.current?.position {
      property = .queueMatchesContract
    } else if let ready = seen.preloadReady, ready != (model.preload?.stage == .ready) {
      property = .queueMatchesContract
    } else if let failure = seen.failure, failure != model.current?.failure {
      property = .stateMatchesContract
    } else if let box = seen.box, let found = publicStateDifference(box) {
      difference = found
      property = found.property
    } else if let found = controlsDifference(seen) {
      controls = found.text
      property = found.property
    } else {
      agreed = seen.uneditedBox
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
      + (difference.map { "; \($0.text)" } ?? "") + (controls.map { "; \($0)" } ?? "")
    let culprit = event.map { arrivalEvent(arrivals.count - 1, outer: $0) }
    let refined =
      culprit.flatMap { sleepProperty($0, arrivals[arrivals.count - 1], from: log.count) }
      ?? crossfadeObservationProperty(culprit) ?? volumeProperty(culprit, seen: seen)
    var violation = FuzzViolation(
      property: refined ?? property, step: step, event: culprit, expected: expected, actual: log,
      detail: detail)
    violation.media = model.media.dictionary
    return violation
  }
}

extension CaseRunner {
  /// Whether Playhead's player, in `state` (just read) after `event`, agrees
  /// with the contract on everything its observation says: the shortcut of
  /// ``observationViolation(_:step:)`` for ``PlayerTarget``, which reads the
  /// state itself instead of building, copying and freeing a
  /// ``FuzzObservation`` (every field of which derives from the state). The
  /// same comparisons, in the same terms; false whenever any differs, and the
  /// whole check then runs on the observation to name the violation (a debug
  /// build runs both every time and asserts they agree).
  ///
  /// The queue's fingerprint is not hashed here: it hashes the entries' items
  /// in play order, the current position, the repeat mode and the shuffle's
  /// seed (``FuzzObservation/fingerprint(items:current:repeatMode:shuffleSeed:)``,
  /// as ``ContractModel/queueFingerprint`` does the model's), and the public
  /// state compares each of them with the model's, the entries with their media.
  private mutating func playerAgrees(_ state: borrowing PlaybackState, after event: PlaybackEvent?)
    -> Bool
  {
    // Read into locals (see `FuzzObservation.init(_:itemsHash:)`).
    let kind = state.kind
    if case .user(.stop)? = event, kind != .idle { return false }
    // The state that last agreed, while the model and the anchor are as they were then.
    if playerStateAgrees, playerState.isSame(as: state) { return true }
    let session = state.session
    let preload = state.preload
    let current = model.current
    let expectedPreload = model.preload
    // Whether the queues' entries still agree (``agreedEntries``), worked out
    // first: the public state's difference then comes in the same call on the
    // model as its views (each call from here copies the whole model).
    let agree = entriesAgree(state)
    // The model's derived views in one call (``ContractView``).
    let view = model.view(
      anchor: anchor.value, commands: modelCommands, state: state, entriesAgree: agree)
    modelCommands = view.commands
    guard (session?.seekPending ?? false) == (current?.seekPending ?? false),
      state.isPlaying == view.engineIsPlaying, kind == view.kind
    else { return false }
    let loads = engine.contractLoads(session?.load, preload?.load)
    guard loads.current == current?.load, loads.preload == expectedPreload?.load else {
      return false
    }
    if let session, session.position.milliseconds != current?.position { return false }
    guard (preload?.stage == .ready) == (expectedPreload?.stage == .ready),
      state.failure == current?.failure, view.difference == nil
    else { return false }
    if !agree { noteEntriesAgree(state) }
    let nowPlaying = state.nowPlaying
    guard
      Self.controlsAgree(
        nowPlaying, isPlaying: state.isPlaying, commands: state.availableCommands, view)
    else { return false }
    playerState = copy state
    playerStateAgrees = true
    return true
  }

  /// Whether the entries and shuffle list orders of `state`'s queue and the
  /// model's are the ones ``agreedEntries`` holds. (A method of its own: the
  /// queue read here is released at its end, not kept across the checks.)
  private mutating func entriesAgree(_ state: borrowing PlaybackState) -> Bool {
    let queue = state.queue
    let playerList = queue.shuffle?.unshuffled
    let modelList = model.shuffle?.list ?? []
    return agreedEntries?.holds(queue.entries, playerList, model.entries, modelList) ?? false
  }

  /// Keeps the entries of `state`'s queue and the model's, found to agree.
  private mutating func noteEntriesAgree(_ state: borrowing PlaybackState) {
    let queue = state.queue
    agreedEntries = AgreedEntries(
      player: queue.entries, playerList: queue.shuffle?.unshuffled, model: model.entries,
      modelList: model.shuffle?.list ?? [])
  }

  /// ``controlsDifference(_:)`` == nil, for a player that says both
  /// (``playerAgrees(_:after:)``): the same comparisons, without the words,
  /// against the model's `view`, without copying either now playing (nor
  /// keeping the contract's: the state is compared again only once the
  /// model changed).
  private static func controlsAgree(
    _ said: NowPlaying?, isPlaying: Bool, commands: AvailableCommands, _ view: ContractView
  ) -> Bool {
    let rate = said?.rate.thousandths ?? 0
    return (rate > 0) == isPlaying && view.nowPlaying.matches(said) && commands == view.commands
  }

  /// What the player publishes to a remote control (now playing, the commands
  /// offered) against the contract, when it says them: the broken property
  /// and the difference in words, or nil.
  private mutating func controlsDifference(_ seen: borrowing FuzzObservation)
    -> (property: FuzzProperty, text: String)?
  {
    if let said = seen.nowPlaying {
      let rate = said?.rate.thousandths ?? 0
      if (rate > 0) != seen.isPlaying {
        return (
          .publishedRateOnlyWhilePlaying,
          "the player publishes rate \(rate) while isPlaying is \(seen.isPlaying)"
        )
      }
      let expected = modelNowPlaying ?? model.nowPlaying(anchor: anchor.value)
      modelNowPlaying = .some(expected)
      switch (said, expected) {
      case (nil, nil): break
      case (let said?, nil):
        return (
          .nowPlayingMatchesContract, "now playing: the player's \(said), the contract's none"
        )
      case (nil, let expected?):
        return (
          .nowPlayingMatchesContract, "now playing: the player's none, the contract's \(expected)"
        )
      case (let said?, let expected?):
        if let text = expected.difference(from: said) {
          return (.nowPlayingMatchesContract, "now playing \(text)")
        }
        if said.elapsed.milliseconds != expected.elapsed {
          return (
            .elapsedAnchorAtDiscontinuities,
            "now playing's elapsed anchor: the player's \(said.elapsed), the contract's \(expected.elapsed)ms"
          )
        }
      }
    }
    if let said = seen.availableCommands {
      let expected = modelCommands ?? model.availableCommands
      modelCommands = expected
      if said != expected {
        return (
          .availableCommandsMatchContract,
          "available commands: the player's [\(said)], the contract's [\(expected)]"
        )
      }
    }
    return nil
  }

  /// After one delivery: each reduced event notified exactly what the
  /// contract expects (nothing for an ignored one). A player that reports no
  /// notifications (``FuzzEngine/onNotified(for:)``) is not compared.
  private mutating func notificationViolation(_ event: PlaybackEvent, step: Int) -> FuzzViolation? {
    // `notified` holds the delivery's (taken by `deliver`).
    defer { notified.clear() }
    if notified.isEmpty {
      if costlyReasons { unsaid |= FuzzObservable.notifications.bit }
      return nil
    }
    var culprit: Int?
    if notified.count != arrivals.count {
      culprit = min(notified.count, arrivals.count) - 1
    } else {
      culprit = arrivals.indices.first { !arrivals[$0].notes.matches(notified[$0]) }
    }
    guard let culprit, culprit >= 0 else { return nil }
    let named = arrivalEvent(culprit, outer: event)
    let arrival = arrivals[culprit]
    let said = culprit < notified.count ? notified[culprit] : []
    let property: FuzzProperty =
      sleepProperty(named, arrival, from: log.count)
      ?? (!arrival.accepted && !said.isEmpty
        ? .noNotificationForIgnoredEvent : .notificationsMatchContract)
    let words = { (list: [ContractNotification]) in
      list.isEmpty ? "none" : list.map(\.description).joined(separator: ", ")
    }
    let detail =
      notified.count != arrivals.count
      ? "the player notified for \(notified.count) reduced events where the contract processed \(arrivals.count)"
      : "the player notified \(words(said.map(ContractNotification.init))) for "
        + "\(named.description(naming: { model.media[$0] })); the contract expects \(words(arrival.notes.list))"
    var violation = FuzzViolation(
      property: property, step: step, event: named, expected: expected, actual: log,
      detail: detail)
    violation.media = model.media.dictionary
    return violation
  }

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

extension Array {
  /// Empties the array and keeps its capacity; an empty one is left as it
  /// is (`removeAll(keepingCapacity:)` costs a call even then, and the
  /// runner clears a dozen buffers a case and several an event).
  fileprivate mutating func clear() {
    if !isEmpty { removeAll(keepingCapacity: true) }
  }
}

// MARK: Snapshot, relaunch, hand-off (issue 24)

extension CaseRunner {
  /// Performs a ``FuzzLifecycle`` action and checks it.
  /// - Returns: whether it did anything (a subject that cannot restore is
  ///   sent nothing: its actions are skipped), and the first broken property.
  private mutating func perform(_ change: FuzzLifecycle, step: Int) -> (Bool, FuzzViolation?) {
    guard let said = target.playbackSnapshot else { return (false, nil) }
    if let difference = model.snapshotDifference(said) {
      return (true, violation(.snapshotMatchesContract, step: step, detail: difference))
    }
    switch change {
    case .snapshot: return (false, nil)
    case .relaunch:
      guard let restore else { return (false, nil) }
      return (true, relaunch(said, restore, step: step))
    // The contract's snapshot equals the player's (`snapshotDifference` compares every
    // field), so the hand-off restores the model from the player's: one snapshot of the
    // model's queue per hand-off, not two (issue 39, R15).
    case .handoff: return handOff(step: step, snapshot: said)
    }
  }

  /// A violation at `step` with no event, the logs as they are.
  private func violation(_ property: FuzzProperty, step: Int, detail: String) -> FuzzViolation {
    var violation = FuzzViolation(
      property: property, step: step, event: nil, expected: expected, actual: log, detail: detail)
    violation.media = model.media.dictionary
    return violation
  }

  /// A new engine for the next life: the case's setup without its start state.
  private func freshEngine() -> FuzzEngine {
    var setup = caseSetup
    setup.start = nil
    return FuzzEngine(setup, costlyReasons: costlyReasons)
  }

  /// Starts a life on `engine` with `target` and the model `model`: the
  /// caches of the old queue go, the anchor starts at 0.
  private mutating func begin(
    _ engine: FuzzEngine, _ target: any FuzzTarget, _ model: ContractModel
  ) {
    self.engine = engine
    setTarget(target)
    self.model = model
    anchor = ContractAnchor(model)
    life = log.count
    restoredLife = true
    saved = model.resumePoint
    queueCache = nil
    agreedEntries = nil
    forgetModelDerivations()
  }

  /// Drops whatever the player reported about its steps since the last
  /// delivery on `engine` (the lifecycle's own steps are not compared).
  private mutating func discardReports(of engine: FuzzEngine) {
    engine.takeReasons(into: &reasons)
    reasons.clear()
    engine.takeNotified(into: &notified)
    notified.clear()
  }

  /// The app is relaunched: the old player and engine are gone (with the
  /// reports held back and armed), a player restored from `snapshot` runs
  /// on a new engine, and must send it nothing.
  private mutating func relaunch(
    _ snapshot: PlaybackSnapshot,
    _ restore: @Sendable (any PlaybackEngine, PlaybackSnapshot) -> (any FuzzTarget)?, step: Int
  ) -> FuzzViolation? {
    _ = engine.takeArmed()
    later.clear()
    retired = nil
    retiredLeaving = nil
    let fresh = freshEngine()
    guard let restored = restore(fresh, snapshot) else {
      return violation(
        .restoreSendsNothing, step: step,
        detail: "the subject could not restore the snapshot its player gave")
    }
    // The player's snapshot, equal to the contract's (compared before): not taken again.
    begin(fresh, restored, model.restored(from: snapshot))
    sent.clear()
    arrivals.clear()
    engine.drain(commands: &received, sent: &sent)
    log.append(contentsOf: received)
    defer { received.clear() }
    discardReports(of: engine)
    if !received.isEmpty {
      let commands = FuzzViolation.format(received, model.media.dictionary)
      return violation(
        .restoreSendsNothing, step: step,
        detail: "the restored player sent \(commands) before any intent")
    }
    if let violation = observationViolation(nil, step: step) { return violation }
    engine.takeScheduled(into: &scheduled)
    return watchdogViolation(nil, step: step)
  }

  /// `Player.handOff(to:)`: the old engine gets the `stop` of the old load and
  /// preload (and the old player processes any report it fires), the new one
  /// the restored player's resume; the old player keeps the reports held
  /// back for it.
  /// - Parameter snapshot: the contract's snapshot now (the player's, found equal).
  private mutating func handOff(step: Int, snapshot: PlaybackSnapshot) -> (Bool, FuzzViolation?) {
    let fresh = freshEngine()
    // A stop at an entry's end moves with playback; a countdown stays with the old clock.
    let timer = model.sleep.flatMap { $0.isCountdown ? nil : $0 }
    guard let next = target.handOff(to: fresh) else { return (false, nil) }
    // The old engine: its load and preload stopped, reports it fires then ignored.
    let mark = log.count
    sent.clear()
    engine.drain(commands: &received, sent: &sent)
    log.append(contentsOf: received)
    received.clear()
    arrivals.clear()
    record(.user(.stop))
    for report in sent { record(.engine(report)) }
    discardReports(of: engine)
    engine.takeScheduled(into: &scheduled)
    scheduled.clear()
    requests.clear()
    if log.count != expected.count || log[mark...] != expected[mark...] {
      return (true, commandViolation(step: step, from: mark, event: .user(.stop)))
    }
    retired = (target, engine, later)
    retiredLeaving = model.leaving
    later.clear()
    // The new engine: the restored player resumes with the intent kept.
    let restored = model.restored(from: snapshot)
    begin(fresh, next, restored)
    let start = log.count
    sent.clear()
    arrivals.clear()
    engine.drain(commands: &received, sent: &sent)
    log.append(contentsOf: received)
    received.clear()
    if let timer { record(.user(.setSleepTimer(timer))) }
    if snapshot.current != nil {
      record(.user(.resume))
      if !snapshot.playWhenReady {
        // The pause of a buffering load sends nothing; it is the resume's delivery.
        _ = model.process(.pause, commands: &expected)
        forgetModelDerivations()
        anchor.step(model)
      }
    }
    discardReports(of: engine)
    if log.count != expected.count || log[start...] != expected[start...] {
      return (true, commandViolation(step: step, from: start, event: .user(.resume)))
    }
    if let violation = observationViolation(nil, step: step) { return (true, violation) }
    engine.takeScheduled(into: &scheduled)
    return (true, watchdogViolation(nil, step: step))
  }

  /// At a `deliver` after a hand-off: the reports held back for the old
  /// player reach it; the old engine must be sent nothing, but the one `stop`
  /// of a load it was fading out, at that load's `ended` or `failed`.
  private mutating func deliverRetired(step: Int) -> FuzzViolation? {
    guard let old = retired, !old.later.isEmpty else { return nil }
    retired?.later.removeAll()
    for report in old.later {
      old.engine.deliver(.engine(report), to: old.target)
      var commands: [EngineCommand] = []
      var fired: [EngineReport] = []
      old.engine.drain(commands: &commands, sent: &fired)
      discardReports(of: old.engine)
      // The old player's fading load: its `ended` or `failed` sends its one `stop`
      // (to the old engine only, whose loads the log does not number).
      var allowed: [EngineCommand] = []
      if let leaving = retiredLeaving, report.load == leaving.load {
        switch report {
        case .reachedEnd, .failed:
          allowed = [.stop(leaving.load)]
          retiredLeaving = nil
        default: break
        }
      }
      guard commands != allowed else { continue }
      guard commands.isEmpty else {
        log.append(contentsOf: commands)
        let named = PlaybackEvent.engine(report)
        var violation = FuzzViolation(
          property: .nothingAfterStop, step: step, event: named, expected: expected, actual: log,
          detail:
            "the player handed off sent its old engine \(FuzzViolation.format(commands)) on a late report after the hand-off; the contract: nothing"
        )
        violation.media = model.media.dictionary
        return violation
      }
    }
    return nil
  }

  /// The restore's property a command divergence from `mark` breaks, if it
  /// is one: a `load` the contract did not expect, from the saved position,
  /// of another entry (the position applied to the wrong entry) or of the
  /// saved one again; or a second load where the contract has one.
  private func restoreProperty(from mark: Int) -> FuzzProperty? {
    guard restoredLife, mark >= life else { return nil }
    guard let saved else {
      return loads(in: log[mark...]) > loads(in: expected[mark...])
        && loads(in: expected[life..<mark]) == 0 ? .resumeLoadsSavedPositionOnce : nil
    }
    var index = mark
    while index < expected.count, index < log.count, expected[index] == log[index] { index += 1 }
    for command in log[index...] {
      guard case .load(let request) = command, request.start.milliseconds == saved.position,
        !expected[mark...].contains(command)
      else { continue }
      return request.load.item == saved.item
        ? .resumeLoadsSavedPositionOnce : .savedPositionOnlyForItsEntry
    }
    if loads(in: log[mark...]) > loads(in: expected[mark...]), loads(in: expected[life..<mark]) == 0
    {
      return .resumeLoadsSavedPositionOnce
    }
    return nil
  }

  private func loads(in commands: ArraySlice<EngineCommand>) -> Int {
    commands.reduce(0) { count, command in
      if case .load = command { return count + 1 }
      return count
    }
  }
}

// MARK: The sleep timer (issue 24)

extension CaseRunner {
  /// The sleep timer's property a divergence at `arrival` (whose event is
  /// `event`) breaks, if it is one: anything a countdown's expiry the contract
  /// ignores does (it acts only if it is the armed countdown's); a `preload`,
  /// or a `load` or `start` of another entry, while the timer stops at the end
  /// of the current one (end-of-entry never starts another entry).
  private func sleepProperty(_ event: PlaybackEvent, _ arrival: Arrival, from mark: Int)
    -> FuzzProperty?
  {
    if case .system(.sleepTimerExpired) = event, !arrival.accepted {
      return .sleepExpiryOnlyIfCurrent
    }
    guard let item = arrival.stopsAt, mark < log.count else { return nil }
    var index = mark
    while index < expected.count, index < log.count, expected[index] == log[index] { index += 1 }
    guard index < log.count else { return nil }
    switch log[index] {
    case .preload: return .endOfEntryStartsNothing
    case .load(let request) where request.load.item != item: return .endOfEntryStartsNothing
    case .start(let load, _) where load.item != item: return .endOfEntryStartsNothing
    default: return nil
    }
  }
}

/// What ``CaseRunner/record(_:)`` reads of the model before an event
/// (``ContractModel/prior(recordingVariantsOf:into:)``) and after it
/// (``ContractModel/after(_:accepted:prior:anchor:)``), each in one call: a
/// call on the model from the runner copies the whole model first (344
/// bytes), so one call instead of up to seven an event.
struct RecordedStep {
  /// Before the event: the named state, the current load, the current
  /// entry's item, the intent, the newest sleep countdown issued, and the
  /// current entry when the sleep timer stops at its end.
  struct Prior {
    var kind: StateKind
    var session: ContractModel.Current?
    var item: ItemID?
    var playWhenReady: Bool
    var issuedSleep: UInt32
    var stopsAt: ItemID?
  }

  /// After it: the named state, the notifications expected (none for an
  /// ignored event), the anchor stepped (as it was for an ignored event), and
  /// the watchdog the contract asks for.
  struct After {
    var kind: StateKind
    var notes: ContractNotifications
    var anchor: ContractAnchor
    var request: WatchdogClaim?
  }
}

extension ContractModel {
  /// ``RecordedStep/Prior`` of the model as it is.
  fileprivate func prior() -> RecordedStep.Prior {
    let item = position.map { entries[$0].item }
    return RecordedStep.Prior(
      kind: kind, session: current, item: item, playWhenReady: playWhenReady,
      issuedSleep: issuedSleep, stopsAt: sleep == nil || !sleepStopsHere ? nil : item)
  }

  /// ``prior()``, recording into `coverage` the variants of `event` in the model as it is first.
  fileprivate func prior(
    recordingVariantsOf event: PlaybackEvent, into coverage: inout FuzzCoverage
  )
    -> RecordedStep.Prior
  {
    let kind = kind
    coverage.record(variantsOf: event, at: self)
    var prior = prior()
    prior.kind = kind
    return prior
  }

  /// ``RecordedStep/After`` of the model after `event`, `prior` read before it.
  fileprivate func after(
    _ event: PlaybackEvent, accepted: Bool, prior: RecordedStep.Prior, anchor: ContractAnchor
  ) -> RecordedStep.After {
    var stepped = anchor
    var notes = ContractNotifications.none
    if accepted {
      notes = ContractNotifications(
        before: prior.item, playWhenReady: prior.playWhenReady, event: event, after: self)
      stepped.step(self)
    }
    return RecordedStep.After(
      kind: kind, notes: notes, anchor: stepped, request: watchdogRequest(since: prior.session))
  }
}

/// What the contract says a player shows, derived from the model in one call
/// (``ContractModel/view(anchor:commands:state:entriesAgree:)``) for the observation check of
/// Playhead's player: a call on the model from the runner copies the whole
/// model first, and the check made five.
struct ContractView {
  /// ``ContractModel/kind``.
  var kind: StateKind
  /// ``ContractModel/engineIsPlaying``.
  var engineIsPlaying: Bool
  /// ``ContractModel/nowPlaying(anchor:)``.
  var nowPlaying: ContractNowPlaying?
  /// ``ContractModel/availableCommands``.
  var commands: AvailableCommands
  /// ``ContractModel/difference(from:entriesAgree:)`` of the player's state.
  var difference: PublicStateDifference?
}

extension ContractModel {
  /// The ``ContractView`` of the model with the elapsed anchor `anchor`,
  /// against the player's `state` (`entriesAgree` as in
  /// ``difference(from:entriesAgree:)``); `known`, when given, is its
  /// available commands, already worked out.
  fileprivate func view(
    anchor: Int64, commands known: AvailableCommands?, state: borrowing PlaybackState,
    entriesAgree: Bool
  ) -> ContractView {
    ContractView(
      kind: kind, engineIsPlaying: engineIsPlaying, nowPlaying: nowPlaying(anchor: anchor),
      commands: known ?? availableCommands,
      difference: difference(from: state, entriesAgree: entriesAgree))
  }
}
