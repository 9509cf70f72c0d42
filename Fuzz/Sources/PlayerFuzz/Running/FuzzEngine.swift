public import PlayerEngine
public import PlayerState

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The engine the harness gives each player under test: it records every
/// command, sends the reports the fuzz case scripts from inside `execute`
/// (re-entrantly) when asked to, and is the player's watchdog clock.
///
/// **Tokens are identities.** The player may number its loads any way that
/// never reuses a token (1, 2, 3 like Playhead's `Player`, or from a
/// process-wide counter): the engine maps each token to the contract's
/// numbering the first time a command names it (the first new token is the
/// contract's 1, the next its 2), and maps the reports it sends back. A
/// player that reuses a token for a new load fails, because that load then
/// carries the contract number of the old one.
///
/// **One numbering: the engine's.** Every load the harness sends the player
/// (reports, sent directly, re-entrantly or late; watchdog expiries that are
/// not the player's own timer: stale, never issued, forged) and every load
/// it reads back (``FuzzObservation/loads``, the events passed to
/// ``onProcessed``) is named by the token of the command the player sent
/// this engine, never by its reducer's token. A driver whose engine ids
/// differ from its reducer's re-tags at its boundary, both ways, with
/// `PlaybackEvent.withLoad(_:)` or `EngineReport.withLoad(_:)`:
///
/// ```swift
/// // In: the engine's ids to the reducer's loads (the driver keeps `loads` as it
/// // sends commands); out, the reverse.
/// let machineEvent = event.withLoad { engineLoad in loads[engineLoad.token] ?? engineLoad }
/// ```
///
/// A player that mixes the two up fails ``FuzzProperty/loadsInEngineNumbering``,
/// whose detail names the mix-up and states this rule: an observation naming
/// a load by a token no command carried, or by the contract's own number (a
/// new reducer's 1, 2, 3) where the engine's token differs; an event passed
/// to ``onProcessed`` that the harness never sent (the same report with the
/// reducer's token, or an id never issued).
///
/// **Watchdogs are requested, not sent on the player's behalf.** Hand
/// ``watchdog`` (or ``FuzzEngine/watchdog(for:)``) to your player as its
/// watchdog clock. The harness checks after every event that the player
/// requested exactly the watchdogs the contract asks for (one when a load
/// starts buffering, one when it stalls), and a `timeout` in a case fires the
/// closure the player scheduled, never an expiry the player did not ask for.
///
/// Thread-safe; the single-threaded runner only ever has one caller at a time.
public final class FuzzEngine: PlaybackEngine {
  /// Everything the engine records; ``FuzzEngine/reset(_:costlyReasons:)``
  /// sets every field back to its initial value (add a new one there too).
  struct Log {
    var commands: [EngineCommand] = []
    /// Reports armed by ``FuzzAction/reentrant(_:)``, sent inside the next `execute`
    /// (in the contract's numbering).
    var armed: [EngineReport] = []
    /// Reports sent from inside `execute`, in sending order (contract numbering).
    var sent: [EngineReport] = []
    /// Watchdog closures the player scheduled since the last drain, in order,
    /// with the delay it asked for.
    var scheduled: [ScheduledTimer] = []
    /// Watchdogs matched to the contract's requests: (load, id) in contract numbering.
    var timers = TimerTable()
    var tokens = TokenMap()
    /// Events in the order the player processed them (contract numbering), when recorded.
    var processed: [PlaybackEvent] = []
    /// Why each event the player reduced was ignored (nil: accepted), in
    /// processing order, since the runner last took them.
    var reasons: [IgnoreReason?] = []
    /// Each reduced event's notifications, as the player published them.
    var notified: [[PlayerNotification]] = []
    /// Commands being executed right now (concurrent mode): more than one
    /// means two threads drain at once, or a drain runs inside another.
    var executing = 0
    /// How many commands began while another was being executed.
    var overlaps = 0
    /// How many commands have finished executing (concurrent mode).
    var executed = 0
    /// Every event naming a load sent to the player (concurrent mode), in its
    /// engine's numbering: an event it says it processed must be one of them.
    var sentEvents: Set<PlaybackEvent> = []
    /// Those that named a load the engine had not been sent, with token 0: a
    /// driver that maps every such id to one unknown load of its own (as a
    /// wrapper of a reducer does) may pass such an event re-tagged back from it.
    var sentUnissued: Set<PlaybackEvent> = []
    /// The first event naming a load that the player passed `onProcessed`
    /// and was never sent (concurrent mode).
    var unsent: PlaybackEvent?
    /// What the case runs with (``FuzzEngine/reset(_:costlyReasons:)`` sets it).
    var setup = FuzzSetup()
    /// ``FuzzEngine/reportsCostlyReasons``.
    var costlyReasons = true
  }

  private let log = Locked(Log())
  private let recordsProcessing: Bool

  /// `.preload` when the engine was made with `canPreload`, and
  /// `.volumeRamp` when the case fades (``FuzzFeatures/fade``); otherwise none.
  public var capabilities: EngineCapabilities {
    let (preload, fades) = log.withLock {
      ($0.setup.canPreload, $0.setup.fadeLength > .zero || $0.setup.crossfadeLength > .zero)
    }
    var capabilities: EngineCapabilities = preload ? .preload : []
    if fades { capabilities.insert(.volumeRamp) }
    return capabilities
  }
  /// The retry policy the case runs with: give it to the player under test
  /// (``FuzzEngine/retry(for:)``), since the contract model waits for the
  /// network (or fails at once) exactly as it says.
  public var retry: RetryPolicy { log.withLock { $0.setup.retry } }
  /// The player configuration the case runs with (the `previous` threshold,
  /// the retry policy, whether the engine preloads): give it to the player under
  /// test (``FuzzEngine/configuration(for:)``); the contract model reads it.
  public var configuration: PlayerConfiguration { log.withLock { $0.setup.configuration } }
  /// What the case runs with.
  var setup: FuzzSetup { log.withLock { $0.setup } }
  /// Whether a subject whose ignore reasons cost a step record per event
  /// (Playhead's `Player`, through `onStep`) reports them in this case: in
  /// every replayed case, and in one random case in four (``Fuzzer``), so
  /// that a random run keeps its rate. Other subjects report them always.
  package var reportsCostlyReasons: Bool { log.withLock { $0.costlyReasons } }

  /// An engine with an empty log.
  /// - Parameters:
  ///   - canPreload: whether it declares the `.preload` capability.
  ///   - retry: the retry policy the player under test must use.
  public convenience init(canPreload: Bool = false, retry: RetryPolicy = .standard) {
    self.init(FuzzSetup(canPreload: canPreload, retry: retry), recordsProcessing: false)
  }

  convenience init(canPreload: Bool, retry: RetryPolicy = .standard, recordsProcessing: Bool) {
    self.init(FuzzSetup(canPreload: canPreload, retry: retry), recordsProcessing: recordsProcessing)
  }

  /// An engine for a case set up as `setup` says.
  init(_ setup: FuzzSetup, recordsProcessing: Bool = false, costlyReasons: Bool = true) {
    self.recordsProcessing = recordsProcessing
    log.withLock { log in
      log.setup = setup
      log.costlyReasons = costlyReasons
      // A start state's tokens are their own numbers: the player goes on from them.
      if let start = setup.start { log.tokens = TokenMap(issued: start.issuedLoads) }
      log.commands.reserveCapacity(64)
      log.sent.reserveCapacity(8)
    }
  }

  /// Empties the engine for a new case set up as `setup` says, as if it were
  /// new (``init(_:recordsProcessing:costlyReasons:)``, its mode kept): no
  /// command, report, timer or token is left from the case before, and the
  /// buffers keep their capacity. The random run resets one engine per runner
  /// instead of making one per case, and restarts its players on it
  /// (``FuzzSubject/restart``).
  func reset(_ setup: FuzzSetup, costlyReasons: Bool) {
    log.withLock { log in
      // Field by field, in place: the buffers, the timers' table and the
      // sets keep their storage (a new table per case, grown timer by
      // timer, cost a case more than its timers).
      log.commands.removeAll(keepingCapacity: true)
      log.armed.removeAll(keepingCapacity: true)
      log.sent.removeAll(keepingCapacity: true)
      log.scheduled.removeAll(keepingCapacity: true)
      // Kept while small: a case that armed many timers gives its storage back.
      log.timers.removeAll(keepingCapacity: log.timers.capacity <= 64)
      // A start state's tokens are their own numbers: the player goes on from them.
      log.tokens = setup.start.map { TokenMap(issued: $0.issuedLoads) } ?? TokenMap()
      log.processed.removeAll(keepingCapacity: true)
      log.reasons.removeAll(keepingCapacity: true)
      log.notified.removeAll(keepingCapacity: true)
      log.executing = 0
      log.overlaps = 0
      log.executed = 0
      log.sentEvents.removeAll(keepingCapacity: true)
      log.sentUnissued.removeAll(keepingCapacity: true)
      log.unsent = nil
      log.setup = setup
      log.costlyReasons = costlyReasons
    }
  }

  /// Records the command, then sends every armed report through `reports`.
  public func execute(_ command: EngineCommand, reports: ReportSink) {
    if recordsProcessing {
      // Concurrent mode: a command begun while another runs is a second drain.
      log.withLock { log in
        log.executing += 1
        if log.executing > 1 { log.overlaps += 1 }
      }
      // A command takes a while (a real engine's does): a second drainer,
      // if there is one, gets in meanwhile and is seen.
      var overlapping = false
      for _ in 0..<Self.commandSpins where !overlapping {
        overlapping = log.withLock { $0.executing > 1 }
      }
    }
    defer {
      if recordsProcessing {
        log.withLock { log in
          log.executing -= 1
          log.executed += 1
        }
      }
    }
    // Nil, not an empty array, when nothing is armed: releasing `[]` after
    // each command was a runtime call per command.
    let due = log.withLock { log -> [EngineReport]? in
      log.commands.append(log.tokens.contract(command))
      guard !log.armed.isEmpty else { return nil }
      var due = log.armed
      log.armed.removeAll(keepingCapacity: true)
      if !log.tokens.isIdentity {
        // A report about a load this transition is about to create has no
        // token in the player's numbering until a command names it: it waits
        // for that command (with 1, 2, 3 the token is known in advance).
        log.armed = due.filter { log.tokens.isUpcoming($0.load.token.rawValue) }
        due.removeAll { log.tokens.isUpcoming($0.load.token.rawValue) }
      }
      log.sent.append(contentsOf: due)
      let reports = due.map { log.tokens.player($0) }
      if recordsProcessing { for report in reports { log.remember(sent: .engine(report)) } }
      return reports
    }
    guard let due else { return }
    for report in due { reports.send(report) }
  }

  /// The commands received since the harness last collected them (the
  /// harness's `CaseRunner.log` holds the whole case), in order, with
  /// tokens in the contract's numbering.
  public var commands: [EngineCommand] { log.withLock { $0.commands } }

  // MARK: The player's clocks

  /// The watchdog clock to give the player under test: `schedule` hands the
  /// expiry closure to the harness, which checks that it was requested where
  /// the contract says and runs it when the case says the watchdog expires.
  /// Its timeout is the case's (drawn per case): every load and stall watchdog
  /// must be scheduled with it, and every backoff with the retry policy's delay.
  public var watchdog: WatchdogPolicy {
    // Holds the log, not the engine (weakly): loading a weak reference took
    // and released a strong one per timer. The log holds no player.
    WatchdogPolicy(timeout: .milliseconds(log.withLock { $0.setup.watchdogTimeout.milliseconds })) {
      [log] after, fire in
      log.withLock {
        $0.scheduled.append(ScheduledTimer(after: after, fire: Fire(run: fire)))
      }
    }
  }

  /// The retry policy of the case when `engine` is the harness's engine (as in
  /// a ``FuzzSubject/make`` closure: configure the player with it, as in
  /// `PlayerConfiguration(retry: FuzzEngine.retry(for: engine))`); otherwise
  /// ``PlayerState/RetryPolicy/standard``.
  /// - Parameter engine: the engine handed to ``FuzzSubject/make``.
  public static func retry(for engine: any PlaybackEngine) -> RetryPolicy {
    (engine as? FuzzEngine)?.retry ?? .standard
  }

  /// The player configuration of the case when `engine` is the harness's
  /// engine (as in a ``FuzzSubject/make`` closure: build the player with it,
  /// and say so with ``FuzzSubject/Inputs/configuration``); otherwise a new
  /// `PlayerConfiguration` with the engine's `.preload` capability.
  /// - Parameter engine: the engine handed to ``FuzzSubject/make``.
  public static func configuration(for engine: any PlaybackEngine) -> PlayerConfiguration {
    (engine as? FuzzEngine)?.configuration
      ?? PlayerConfiguration(canPreload: engine.capabilities.contains(.preload))
  }

  /// The state the case starts from when `engine` is the harness's engine
  /// (as in a ``FuzzSubject/make`` closure: build the player with it, and say
  /// so with ``FuzzSubject/Inputs/startState``): a new player's with the case's
  /// configuration, or a generated valid state (ids near exhaustion
  /// included); otherwise a new player's with ``configuration(for:)``.
  /// - Parameter engine: the engine handed to ``FuzzSubject/make``.
  public static func state(for engine: any PlaybackEngine) -> PlaybackState {
    (engine as? FuzzEngine)?.startState ?? PlaybackState(configuration: configuration(for: engine))
  }

  /// ``state(for:)`` of this engine: for a caller that has it as a
  /// `FuzzEngine`, without the cast (and the existential's copy and retain).
  var startState: PlaybackState { log.withLock { $0.setup.state } }

  /// Playhead's `Player` on `engine` as the case wants it: built from
  /// ``state(for:)`` as it is (a generated start state's live load
  /// included, since this engine plays the part of the one that issued it;
  /// `Player(engine:state:)` would take the state without it) with
  /// ``watchdog(for:)``. For a subject that wraps `Player` and says
  /// ``FuzzSubject/Inputs/all``.
  /// - Parameters:
  ///   - engine: the engine handed to ``FuzzSubject/make``.
  ///   - onStep: the player's step callback.
  public static func player(
    for engine: any PlaybackEngine, onStep: (@Sendable (PlayerStep) -> Void)? = nil
  ) -> Player {
    Player(
      engine: engine, startingAt: state(for: engine), watchdog: watchdog(for: engine),
      onStep: onStep)
  }

  /// The harness's watchdog clock when `engine` is the harness's engine (as in
  /// a ``FuzzSubject/make`` closure); otherwise a clock that never fires.
  /// - Parameter engine: the engine handed to ``FuzzSubject/make``.
  public static func watchdog(for engine: any PlaybackEngine) -> WatchdogPolicy {
    (engine as? FuzzEngine)?.watchdog ?? WatchdogPolicy(timeout: .seconds(10)) { _, _ in }
  }

  /// Call after processing each event, in processing order, from the thread
  /// that processed it (Playhead's `Player` does it through `onStep`). Only
  /// ``ConcurrentFuzz`` reads it (the order in which threads' events were
  /// processed); nil in the other modes, so a player can skip the work.
  ///
  /// Pass each event as the harness sent it: its load in the engine's
  /// numbering (the tokens of the commands the player sent this engine), not
  /// re-tagged to the reducer's. A driver that maps every id it never issued
  /// to one unknown load of its own may pass such an event re-tagged back
  /// from it. An event naming a load that the harness never sent fails
  /// ``FuzzProperty/loadsInEngineNumbering``, which says what was mixed up.
  public var onProcessed: (@Sendable (PlaybackEvent) -> Void)? {
    guard recordsProcessing else { return nil }
    return { [weak self] event in
      self?.log.withLock { log in
        // An event processed while a command runs: a second drain, or one
        // inside another (a serial driver runs an event's commands between events).
        if log.executing > 0 { log.overlaps += 1 }
        // An event in another numbering than the one it was sent in (One numbering).
        if log.unsent == nil, !log.wasSent(event) { log.unsent = event }
        log.processed.append(log.tokens.contract(event))
      }
    }
  }

  /// The harness's step observer when `engine` is the harness's engine and
  /// the run is concurrent; otherwise nil.
  /// - Parameter engine: the engine handed to ``FuzzSubject/make``.
  public static func onProcessed(for engine: any PlaybackEngine)
    -> (@Sendable (PlaybackEvent) -> Void)?
  {
    (engine as? FuzzEngine)?.onProcessed
  }

  /// Call after reducing each event, in processing order, from the thread
  /// that reduced it, with why it was ignored (nil when it was accepted):
  /// the harness compares each with the contract's reason
  /// (``FuzzProperty/ignoreReasonMatchesContract``). Playhead's `Player` does
  /// it through `onStep` (`step.transition.ignored`).
  public var onReduced: @Sendable (IgnoreReason?) -> Void {
    { [weak self] reason in self?.record(reason) }
  }

  /// Records why the event the player just reduced was ignored (nil: accepted).
  func record(_ reason: IgnoreReason?) {
    log.withLock { $0.reasons.append(reason) }
  }

  /// The harness's reason recorder when `engine` is the harness's engine (as
  /// in a ``FuzzSubject/make`` closure); otherwise nil. A player that never
  /// calls it has its reasons left uncompared (``FuzzResult/notCompared``).
  /// - Parameter engine: the engine handed to ``FuzzSubject/make``.
  public static func onReduced(for engine: any PlaybackEngine)
    -> (@Sendable (IgnoreReason?) -> Void)?
  {
    (engine as? FuzzEngine)?.onReduced
  }

  /// Moves the reasons the player reported since the last call into
  /// `buffer` (which must be empty), without copying.
  func takeReasons(into buffer: inout [IgnoreReason?]) {
    log.withLock { swap(&$0.reasons, &buffer) }
  }

  /// Call after reducing each event, in processing order, with the
  /// notifications the player published for it (none for an ignored event):
  /// the harness compares them with the contract's
  /// (``FuzzProperty/notificationsMatchContract``). Playhead's `Player` does it
  /// through `onStep` (`step.notifications`).
  public var onNotified: @Sendable ([PlayerNotification]) -> Void {
    { [weak self] notifications in self?.log.withLock { $0.notified.append(notifications) } }
  }

  /// The harness's notification recorder when `engine` is the harness's
  /// engine (as in a ``FuzzSubject/make`` closure); otherwise nil. A player
  /// that never calls it has its notifications left uncompared
  /// (``FuzzResult/notCompared``).
  /// - Parameter engine: the engine handed to ``FuzzSubject/make``.
  public static func onNotified(for engine: any PlaybackEngine)
    -> (@Sendable ([PlayerNotification]) -> Void)?
  {
    (engine as? FuzzEngine)?.onNotified
  }

  /// Records why the event the player just reduced was ignored and its
  /// notifications, in one lock (Playhead's `Player`, through `onStep`).
  func record(_ reason: IgnoreReason?, notifications: Notifications) {
    // Slot by slot: an empty step allocates nothing, and `isEmpty` and
    // `Array(_:)` of the sequence cost ~600 instructions a step.
    var list: [PlayerNotification] = []
    if let entryChanged = notifications.entryChanged { list.append(entryChanged) }
    if let queueEnded = notifications.queueEnded { list.append(queueEnded) }
    if let playIntentChanged = notifications.playIntentChanged { list.append(playIntentChanged) }
    log.withLock { log in
      log.reasons.append(reason)
      log.notified.append(list)
    }
  }

  /// Moves the notifications the player published since the last call into
  /// `buffer` (which must be empty), one list per reduced event.
  func takeNotified(into buffer: inout [[PlayerNotification]]) {
    log.withLock { swap(&$0.notified, &buffer) }
  }

  /// The events the player processed so far, in order, in the contract's numbering.
  var processed: [PlaybackEvent] { log.withLock { $0.processed } }

  /// At a moment of quiescence (concurrent mode): events processed, reports
  /// sent from inside `execute`, and commands begun while another ran.
  var quiescence: (processed: Int, fired: Int, overlaps: Int) {
    log.withLock { ($0.processed.count, $0.sent.count, $0.overlaps) }
  }

  /// The processed events and the commands recorded so far (concurrent
  /// mode), all of them, into `events` and `commands` (kept between calls:
  /// only what is new is appended).
  func progress(events: inout [PlaybackEvent], commands: inout [EngineCommand]) {
    log.withLock { log in
      events.append(contentsOf: log.processed[events.count...])
      commands.append(contentsOf: log.commands[commands.count...])
    }
  }

  /// How long a command takes in the concurrent mode, in lock reads (~1 µs).
  static let commandSpins = 40

  /// How many commands have finished executing (concurrent mode): a sender
  /// that trails a drain waits for this to move.
  var executed: Int { log.withLock { $0.executed } }

  // MARK: For the runner

  /// Arms a report (contract numbering) to be sent from inside the next `execute`.
  func arm(_ report: EngineReport) { log.withLock { $0.armed.append(report) } }

  /// The newest load a `load` command named (contract numbering), or nil:
  /// the concurrent mode's senders aim reports at it, so that they name the
  /// current load often enough for readiness, and what the system's events
  /// do to a playing load, to come up. Scans back to the newest `load`.
  var newestLoad: Load? {
    log.withLock { log in
      for command in log.commands.reversed() {
        if case .load(let request) = command { return request.load }
      }
      return nil
    }
  }

  /// Takes the armed reports that no command fired.
  func takeArmed() -> [EngineReport] {
    log.withLock { log in
      defer { log.armed.removeAll(keepingCapacity: true) }
      return log.armed
    }
  }

  /// Moves the commands and the re-entrant reports recorded since the last
  /// call into the caller's buffers (which must be empty), without copying.
  func drain(commands: inout [EngineCommand], sent: inout [EngineReport]) {
    log.withLock { log in
      swap(&log.commands, &commands)
      swap(&log.sent, &sent)
    }
  }

  /// ``drain(commands:sent:)``, and with it, under the same lock, what
  /// ``takeReasons(into:)``, ``takeNotified(into:)`` and
  /// ``takeScheduled(into:)`` take: one lock a delivery instead of four.
  /// Every buffer must be empty.
  func drain(
    commands: inout [EngineCommand], sent: inout [EngineReport], reasons: inout [IgnoreReason?],
    notified: inout [[PlayerNotification]],
    scheduled: inout [ScheduledTimer]
  ) {
    log.withLock { log in
      swap(&log.commands, &commands)
      swap(&log.sent, &sent)
      swap(&log.reasons, &reasons)
      swap(&log.notified, &notified)
      swap(&log.scheduled, &scheduled)
    }
  }

  /// Sends `event` (contract numbering) to `target`: a watchdog expiry runs
  /// the closure the player scheduled for it, if it scheduled one; any other
  /// event, or an expiry the player never asked for (stale, forged), is sent
  /// with its tokens in the player's numbering.
  /// - Returns: whether it ran a timer the player scheduled.
  @discardableResult
  func deliver(_ event: PlaybackEvent, to target: any FuzzTarget) -> Bool {
    switch event {
    case .user, .remote, .system(.interruptionBegan), .system(.interruptionEnded),
      .system(.routeLost), .system(.networkLost), .system(.networkAvailable),
      .system(.duckBegan), .system(.duckEnded):
      // No load to renumber and no timer to run (`TokenMap.player(_:)` leaves it
      // as it is): sent without the lock.
      target.send(event)
      return false
    case .engine, .watchdogExpired, .system(.sleepTimerExpired): break
    }
    let (event, fire) = log.withLock { log -> (PlaybackEvent, (@Sendable () -> Void)?) in
      if case .watchdogExpired(let load, let id) = event,
        let fire = log.timers[TimerKey(load: load, id: id.rawValue)]
      {
        return (event, fire.run)
      }
      // A sleep countdown the player scheduled runs its own closure too.
      if case .system(.sleepTimerExpired(let id)) = event,
        let fire = log.timers[TimerKey(load: WatchdogClaim.sleepLoad, id: id.rawValue, sleep: true)]
      {
        return (event, fire.run)
      }
      return (log.tokens.player(event), nil)
    }
    if let fire { fire() } else { target.send(event) }
    return fire != nil
  }

  /// Moves the watchdogs the player scheduled since the last call, oldest
  /// first, into `buffer` (which must be empty), without copying.
  func takeScheduled(into buffer: inout [ScheduledTimer]) {
    log.withLock { swap(&$0.scheduled, &buffer) }
  }

  /// Records `fire` as the player's timer for `load` (contract numbering) and
  /// `id`: a `timeout(load, id)` in the case runs it.
  func register(
    _ fire: @escaping @Sendable () -> Void, load: Load, id: UInt32, sleep: Bool = false
  ) {
    register(Fire(run: fire), load: load, id: id, sleep: sleep)
  }

  /// `register(_:load:id:sleep:)` of a timer as the
  /// player's clock took it (``ScheduledTimer/fire``), not wrapped again.
  func register(_ fire: Fire, load: Load, id: UInt32, sleep: Bool = false) {
    log.withLock { $0.timers[TimerKey(load: load, id: id, sleep: sleep)] = fire }
  }

  /// An observation with its loads in the contract's numbering.
  func contract(_ observation: FuzzObservation) -> FuzzObservation {
    var observation = observation
    contract(&observation)
    return observation
  }

  /// An observation with its loads in the contract's numbering, renumbered
  /// in place (an engine that numbers as the contract does leaves it as it is).
  func contract(_ observation: inout FuzzObservation) {
    guard let loads = observation.loads else { return }
    let renamed = log.withLock { log -> (current: Load?, preload: Load?)? in
      guard !log.tokens.isIdentity else { return nil }
      return (
        loads.current.map { log.tokens.contract($0) }, loads.preload.map { log.tokens.contract($0) }
      )
    }
    if let renamed { observation.loads = renamed }
  }

  /// A current load and a preload as the player names them, in the
  /// contract's numbering (as ``contract(_:)-(inout FuzzObservation)``
  /// renumbers an observation's loads).
  func contractLoads(_ current: Load?, _ preload: Load?) -> (current: Load?, preload: Load?) {
    log.withLock { log in
      guard !log.tokens.isIdentity else { return (current, preload) }
      return (current.map { log.tokens.contract($0) }, preload.map { log.tokens.contract($0) })
    }
  }

  /// An event the player processed (player numbering) in the contract's numbering.
  func contract(_ event: PlaybackEvent) -> PlaybackEvent {
    log.withLock { $0.tokens.contract(event) }
  }

  /// An event in the contract's numbering as the player must receive it.
  func player(_ event: PlaybackEvent) -> PlaybackEvent {
    log.withLock { $0.tokens.player(event) }
  }

  /// ``player(_:)``, and in the concurrent mode the event is remembered as
  /// sent, so that ``unsentNumberingMistake`` can tell an event the player
  /// renumbered before passing it to ``onProcessed``.
  func sending(_ event: PlaybackEvent) -> PlaybackEvent {
    log.withLock { log in
      let event = log.tokens.player(event)
      if recordsProcessing { log.remember(sent: event) }
      return event
    }
  }

  // MARK: One numbering

  /// The numbering rule, as every numbering error states it.
  static let numberingRule =
    "One numbering: every load the harness sends the player (reports, watchdog expiries, "
    + "stale and forged ones) and every load it reads back (FuzzObservation.loads, the events "
    + "passed to FuzzEngine.onProcessed) is named by the token of the command the player sent "
    + "the harness's engine, not by its reducer's token; re-tag at the boundary with "
    + "PlaybackEvent.withLoad or EngineReport.withLoad."

  /// Why the loads an observation says (the player's numbering, as read)
  /// are in another numbering than the engine's, or nil when they are not
  /// (they may still be wrong: the caller's comparison says so).
  ///
  /// Two mix-ups are told apart: a token no command carried (never issued to
  /// the engine), and the contract's own numbers (a new reducer's 1, 2, 3)
  /// where the engine's tokens differ. A load the engine was sent is taken as
  /// the contract's number only when both loads match the contract's numbers,
  /// so a player that shows a stale load of its own is left to the comparison.
  /// - Parameters:
  ///   - said: the observation's loads, as the player said them.
  ///   - expected: the contract's current load and preload (contract numbering).
  ///   - media: every item's media, to name loads as `A#2`.
  package func numberingMistake(
    _ said: (current: Load?, preload: Load?), expected: (current: Load?, preload: Load?),
    media: [ItemID: MediaID]
  ) -> String? {
    log.withLock { log in
      let name = { (load: Load) in media[load.item].map { "\($0)#\(load.token)" } ?? "\(load)" }
      let engine = (
        expected.current.map { log.tokens.player($0) },
        expected.preload.map { log.tokens.player($0) }
      )
      let wholePairInContract =
        said.current == expected.current && said.preload == expected.preload
        && (said.current != engine.0 || said.preload != engine.1)
      let slots = [
        ("current load", said.current, expected.current, engine.0),
        ("preload", said.preload, expected.preload, engine.1),
      ]
      for (slot, said, expected, engine) in slots {
        guard let said, said != engine else { continue }
        let issued = log.tokens.knows(token: said.token.rawValue)
        if said == expected, let engine, !issued || wholePairInContract {
          return "FuzzObservation.loads names the \(slot) \(name(said)), its number in the "
            + "contract's numbering (a new reducer's 1, 2, 3); the player's engine was sent it as "
            + "\(name(engine)). " + Self.numberingRule
        }
        if !issued {
          return "FuzzObservation.loads names the \(slot) \(name(said)), a token no command "
            + "the player sent its engine carried (the contract's \(slot) is "
            + "\(engine.map(name) ?? "none") in the engine's numbering). " + Self.numberingRule
        }
      }
      return nil
    }
  }

  /// The first event naming a load the player passed ``onProcessed`` that the
  /// harness never sent it (concurrent mode), with the mix-up in words; nil
  /// when every such event is one it was sent. An event sent twice or lost
  /// is not this (``FuzzProperty/driverIsSerial`` counts those).
  var unsentNumberingMistake: (event: PlaybackEvent, detail: String)? {
    log.withLock { log in
      guard let event = log.unsent, let load = event.load else { return nil }
      // Read as the contract's number, the load may be one the engine was sent.
      let renamed = log.tokens.issuedPlayerToken(forContract: load.token.rawValue).map { token in
        event.withLoad { Load(item: $0.item, token: LoadToken(token)) }
      }
      let named = event.description(naming: { _ in nil })
      if let renamed, renamed != event, log.sentEvents.contains(renamed) {
        let engineLoad = renamed.load.map { "\($0)" } ?? ""
        return (
          event,
          "the player passed FuzzEngine.onProcessed \(named), an event the harness never sent "
            + "it: it sent \(renamed.description(naming: { _ in nil })), the same event with "
            + "the load in the engine's numbering (\(load) is \(engineLoad)'s number in the "
            + "contract's numbering, a new reducer's 1, 2, 3). " + Self.numberingRule
        )
      }
      let why =
        log.tokens.knows(token: load.token.rawValue)
        ? "it sent no such event about \(load)" : "\(load) is no load the player sent its engine"
      return (
        event,
        "the player passed FuzzEngine.onProcessed \(named), an event the harness never sent "
          + "it (\(why)): each event must be passed as it was sent. " + Self.numberingRule
      )
    }
  }
}

extension FuzzEngine.Log {
  /// Remembers an event naming a load as sent to the player (concurrent mode).
  mutating func remember(sent event: PlaybackEvent) {
    guard let load = event.load else { return }
    sentEvents.insert(event)
    if !tokens.knows(token: load.token.rawValue) { sentUnissued.insert(event.unissued) }
  }

  /// Whether the player may say it processed `event`: it names no load, or it
  /// is an event the harness sent, or it names a load the engine was never
  /// sent and the harness sent the same event about such a load.
  func wasSent(_ event: PlaybackEvent) -> Bool {
    guard let load = event.load, !sentEvents.contains(event) else { return true }
    return !tokens.knows(token: load.token.rawValue) && sentUnissued.contains(event.unissued)
  }
}

extension PlaybackEvent {
  /// The event about its load with token 0 (a load never issued).
  fileprivate var unissued: PlaybackEvent {
    withLoad { Load(item: $0.item, token: LoadToken(0)) }
  }
}

/// A timer the player scheduled: the load and the watchdog id (contract
/// numbering), or a sleep countdown's id.
struct TimerKey: Hashable {
  var load: Load
  var id: UInt32
  /// Whether it is a sleep countdown (a `timeout(item0#0, watchdog#1)` must
  /// not run the countdown sleep#1's closure).
  var sleep = false
}

/// The timers the player scheduled, by key: an array searched newest first.
/// A case arms a few dozen timers at most (one per watchdog or countdown the
/// contract requests, each key once), and an expiry names one of the newest,
/// so a scan costs less than hashing the key into a dictionary (about 700
/// instructions a timer). Registering a key again replaces its closure.
struct TimerTable {
  private var entries: [(key: TimerKey, fire: Fire)] = []

  /// The closure registered for `key`, if any; setting one replaces it.
  subscript(key: TimerKey) -> Fire? {
    get {
      var index = entries.count
      while index > 0 {
        index -= 1
        if entries[index].key == key { return entries[index].fire }
      }
      return nil
    }
    set {
      var index = entries.count
      while index > 0 {
        index -= 1
        guard entries[index].key == key else { continue }
        if let newValue { entries[index].fire = newValue } else { entries.remove(at: index) }
        return
      }
      if let newValue { entries.append((key, newValue)) }
    }
  }

  /// The storage's capacity, in timers.
  var capacity: Int { entries.capacity }

  /// Forgets every timer.
  mutating func removeAll(keepingCapacity keep: Bool) {
    entries.removeAll(keepingCapacity: keep)
  }
}

/// A timer the player scheduled on the harness's clock, as the clock took
/// it: a struct, not a tuple, whose closure field an array would wrap in a
/// thunk on the way in and again on the way out (each a context to free).
struct ScheduledTimer {
  /// The delay the player asked for.
  var after: Duration
  /// What runs when the timer expires.
  var fire: Fire
}

/// A timer's closure, as the timers' table holds it: a closure stored as a
/// dictionary's value is wrapped in a reabstraction thunk (one allocation
/// more per timer, and one more context to free), a struct's field is not.
struct Fire {
  /// Runs the timer: the closure the player scheduled.
  let run: @Sendable () -> Void
}

/// The two numberings of load tokens: the player's (any scheme that never
/// reuses a token) and the contract's (1, 2, 3 in the order the player first
/// names them). Free while the player numbers 1, 2, 3 itself.
struct TokenMap {
  /// Whether every token seen so far is its own contract number.
  private(set) var isIdentity = true
  /// How many tokens have been seen.
  private var count: UInt32 = 0
  /// Once not the identity: the tokens 1…`kept` stay their own numbers (the
  /// ones seen while it was the identity, and a start state's).
  private var kept: UInt32 = 0
  /// Player token to contract token, once not the identity (above ``kept``).
  private var toContract: [UInt32: UInt32] = [:]
  /// Contract token to player token, once not the identity (above ``kept``).
  private var toPlayer: [UInt32: UInt32] = [:]

  /// A map for a new player.
  init() {}

  /// A map for a player that starts with `issued` tokens issued: they are
  /// their own contract numbers.
  init(issued: UInt32) { count = issued }

  /// The contract's number for a token the player names (in a command: a
  /// token seen for the first time gets the next number).
  mutating func contract(token: UInt32) -> UInt32 {
    if isIdentity {
      if token <= count, token != 0 { return token }
      if token == count &+ 1, count < UInt32.max {
        count += 1
        return token
      }
      // The first token off the 1, 2, 3 scheme: keep the table from now on.
      isIdentity = false
      kept = count
    }
    if token != 0, token <= kept { return token }
    if let known = toContract[token] { return known }
    guard count < UInt32.max else { return 0 }
    count += 1
    toContract[token] = count
    toPlayer[count] = token
    return count
  }

  /// Whether a command of the player named `token` (or it is one of a start
  /// state's): a load the engine was sent.
  func knows(token: UInt32) -> Bool {
    guard token != 0 else { return false }
    if isIdentity { return token <= count }
    return token <= kept || toContract[token] != nil
  }

  /// The player's token for a contract number it has issued, or nil.
  func issuedPlayerToken(forContract token: UInt32) -> UInt32? {
    guard token != 0 else { return nil }
    if isIdentity { return token <= count ? token : nil }
    return token <= kept ? token : toPlayer[token]
  }

  /// The contract's number for a token the player names outside a command
  /// (an observation, an event it processed): an unseen token is none of the
  /// contract's (0 when the map is not the identity).
  func lookup(token: UInt32) -> UInt32 {
    if isIdentity || (token != 0 && token <= kept) { return token }
    return toContract[token] ?? 0
  }

  /// Whether a contract number is one of the next two the player will issue
  /// (a load and a preload of one transition).
  func isUpcoming(_ token: UInt32) -> Bool {
    token > count && UInt64(token) <= UInt64(count) + 2
  }

  /// The player's token for a contract number; a number the player has not
  /// issued yet becomes a token the player has not used either.
  func player(token: UInt32) -> UInt32 {
    if isIdentity || (token != 0 && token <= kept) { return token }
    if let known = toPlayer[token] { return known }
    var candidate = token
    while toContract[candidate] != nil || (candidate != 0 && candidate <= kept) {
      candidate = candidate &- 0x1000_0001
    }
    return candidate
  }

  /// A load a command names, numbered for the contract (a new token gets the next number).
  mutating func issue(_ load: Load) -> Load {
    Load(item: load.item, token: LoadToken(contract(token: load.token.rawValue)))
  }

  func player(_ load: Load) -> Load {
    Load(item: load.item, token: LoadToken(player(token: load.token.rawValue)))
  }

  mutating func contract(_ command: EngineCommand) -> EngineCommand {
    if isIdentity {
      let token = command.load.token.rawValue
      if token != 0, token <= count { return command }
      if token == count &+ 1, count < UInt32.max {
        count += 1
        return command
      }
    }
    switch command {
    case .load(let request):
      return .load(
        LoadRequest(
          load: issue(request.load), media: request.media, start: request.start,
          atLiveEdge: request.atLiveEdge))
    case .preload(let request):
      return .preload(
        LoadRequest(
          load: issue(request.load), media: request.media, start: request.start,
          atLiveEdge: request.atLiveEdge))
    case .start(let load, let rate): return .start(issue(load), rate: rate)
    case .setRate(let load, let rate): return .setRate(issue(load), rate)
    case .pause(let load): return .pause(issue(load))
    case .seek(let load, let time, let id): return .seek(issue(load), to: time, id)
    case .stop(let load): return .stop(issue(load))
    case .setVolume(let load, let volume, let ramp):
      return .setVolume(issue(load), volume, ramp: ramp)
    }
  }

  func player(_ report: EngineReport) -> EngineReport {
    isIdentity ? report : report.withLoad(player(report.load))
  }

  func player(_ event: PlaybackEvent) -> PlaybackEvent {
    guard !isIdentity else { return event }
    switch event {
    case .user, .remote, .system: return event
    case .engine(let report): return .engine(player(report))
    case .watchdogExpired(let load, let id): return .watchdogExpired(player(load), id)
    }
  }

  func contract(_ load: Load) -> Load {
    Load(item: load.item, token: LoadToken(lookup(token: load.token.rawValue)))
  }

  func contract(_ event: PlaybackEvent) -> PlaybackEvent {
    guard !isIdentity else { return event }
    switch event {
    case .user, .remote, .system: return event
    case .engine(let report): return .engine(report.withLoad(contract(report.load)))
    case .watchdogExpired(let load, let id): return .watchdogExpired(contract(load), id)
    }
  }
}

extension CaseRunner {
  /// When the observation's loads differ from the contract's because the
  /// player said them in another numbering than its engine's (a token no
  /// command carried, or the contract's 1, 2, 3 where the engine's tokens
  /// differ): the ``FuzzProperty/loadsInEngineNumbering`` violation that
  /// says which, and the rule. Nil otherwise (the comparison's own property
  /// applies). Read only once the loads differ, so it costs nothing on a pass.
  func numberingViolation(_ event: PlaybackEvent?, step: Int) -> FuzzViolation? {
    guard let said = target.observation.loads,
      let detail = engine.numberingMistake(
        said, expected: (model.current?.load, model.preload?.load), media: model.media.dictionary)
    else { return nil }
    var violation = FuzzViolation(
      property: .loadsInEngineNumbering, step: step, event: event, expected: expected,
      actual: log, detail: detail)
    violation.media = model.media.dictionary
    return violation
  }
}

extension ContractModel {
  /// The watchdog the contract asks the player to request for the event just
  /// applied: when a load starts buffering (a new load, or a preload promoted
  /// before its `ready`) and when it stalls; and the backoff timer when a load
  /// starts waiting for the network, with its delay.
  /// - Parameter before: the current load before the event.
  /// - Returns: the load, the watchdog id (contract numbering), and the
  ///   backoff's delay in milliseconds (nil for a watchdog: any timeout will do).
  func watchdogRequest(since before: Current?) -> WatchdogClaim? {
    if let after = current, after.fadingOut {
      // A fade into a pause: its timer, with the fade's length (ContractFade.swift).
      guard let before, before.load == after.load, before.lastWatchdog == after.lastWatchdog
      else { return WatchdogClaim(load: after.load, id: after.lastWatchdog, delay: fade) }
      return nil
    }
    guard let after = current, after.lastWatchdog > 0,
      after.stage == .buffering || after.stage == .stalled || after.stage == .waiting
    else { return nil }
    guard let before, before.load == after.load, before.lastWatchdog == after.lastWatchdog else {
      let delay = after.stage == .waiting ? backoff(after: after.attempts) : nil
      return WatchdogClaim(load: after.load, id: after.lastWatchdog, delay: delay)
    }
    return nil
  }
}

/// A timer the contract asks the player to request: a watchdog, the
/// backoff before a reload (with its delay), or a sleep timer's countdown.
struct WatchdogClaim: Hashable {
  /// The load, in the contract's numbering (``sleepLoad`` for a sleep countdown).
  var load: Load
  /// The watchdog id, or the sleep countdown's id.
  var id: UInt32
  /// The backoff's or the countdown's delay in milliseconds; nil for a watchdog.
  var delay: Int64?
  /// Whether it is a sleep timer's countdown.
  var sleep = false

  /// The key a sleep countdown's timer is registered under: no load has token 0.
  static let sleepLoad = Load(item: ItemID(0), token: LoadToken(0))

  /// The countdown `setSleepTimer(.after(delay))` armed with id `id`.
  static func sleep(_ id: UInt32, delay: Int64) -> WatchdogClaim {
    WatchdogClaim(load: sleepLoad, id: id, delay: delay, sleep: true)
  }
}

extension CaseRunner {
  /// After one delivery (an event and the reports the engine sent from inside
  /// its commands): the player's timers agree with the contract's requests.
  ///
  /// The player is judged on the expiries it can deliver, not on how many
  /// timers it arms: a request superseded within the delivery (by a newer one,
  /// or by a stage that no longer watches it) may be coalesced or left out.
  /// The schedules are matched to the requests newest first; each must have
  /// the delay the contract gives its request (the clock's timeout for a
  /// watchdog, the retry policy's delay for a backoff); the newest request
  /// must be scheduled while it still watches the current load; and the
  /// player may not schedule more timers than the contract armed.
  mutating func watchdogViolation(_ event: PlaybackEvent?, step: Int) -> FuzzViolation? {
    // The timers the player scheduled in this delivery are in `scheduled`
    // already (taken with its commands, `FuzzEngine.drain`).
    guard !scheduled.isEmpty || !requests.isEmpty else { return nil }
    defer {
      scheduled.removeAll(keepingCapacity: true)
      requests.removeAll(keepingCapacity: true)
    }
    // Loads are named only in a violation's detail (`Self.name`): a closure in a
    // constant allocated its context, and a local function capturing the
    // runner copied it, on every delivery with a timer.
    var detail: String?
    if scheduled.count > requests.count {
      let extra = scheduled.count - requests.count
      detail =
        "the player requested \(extra) watchdog\(extra == 1 ? "" : "s") the contract does not arm here"
    } else {
      for offset in 0..<scheduled.count {
        let request = requests[requests.count - 1 - offset]
        let timer = scheduled[scheduled.count - 1 - offset]
        let after = timer.after
        let expected = request.delay ?? caseSetup.watchdogTimeout.milliseconds
        guard after == .milliseconds(expected) else {
          detail =
            request.sleep
            ? "the contract arms the sleep countdown sleep#\(request.id) for \(expected)ms (setSleepTimer's delay); the player asked for \(after)"
            : request.delay == nil
              ? "the contract arms watchdog#\(request.id) for \(Self.name(request.load, media: model.media.dictionary)) with the clock's timeout, \(expected)ms (FuzzEngine.watchdog's); the player asked for \(after)"
              : "the contract arms the backoff watchdog#\(request.id) for \(Self.name(request.load, media: model.media.dictionary)) after \(expected)ms (the retry policy's delay); the player asked for \(after)"
          break
        }
        engine.register(timer.fire, load: request.load, id: request.id, sleep: request.sleep)
      }
      if detail == nil, scheduled.isEmpty, let newest = requests.last, model.watches(newest) {
        detail =
          newest.sleep
          ? "the contract arms the sleep countdown sleep#\(newest.id) here; the player scheduled nothing on the harness's clock (FuzzEngine.watchdog)"
          : "the contract arms watchdog#\(newest.id) for \(Self.name(newest.load, media: model.media.dictionary)) here; the player requested no watchdog from the harness's clock (FuzzEngine.watchdog)"
      }
    }
    guard let detail else { return nil }
    var violation = FuzzViolation(
      property: .watchdogRequested, step: step, event: event, expected: expected,
      actual: log, detail: detail)
    violation.media = model.media.dictionary
    return violation
  }
}

extension CaseRunner {
  /// `load` as `A#2`, by its item's media.
  fileprivate static func name(_ load: Load, media: [ItemID: MediaID]) -> String {
    media[load.item].map { "\($0)#\(load.token)" } ?? load.description
  }
}

extension ContractModel {
  /// Whether `claim` is the current load's newest timer and its stage still
  /// waits for it (buffering, stalled, or waiting for the network).
  func watches(_ claim: WatchdogClaim) -> Bool {
    if claim.sleep {
      guard case .after = sleep else { return false }
      return issuedSleep == claim.id
    }
    if let leaving, leaving.load == claim.load { return leaving.timer == claim.id }
    guard let current, current.load == claim.load, current.lastWatchdog == claim.id else {
      return false
    }
    if current.fadingOut { return true }
    return current.stage == .buffering || current.stage == .stalled || current.stage == .waiting
  }
}
