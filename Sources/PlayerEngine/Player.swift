public import PlayerState

/// The driver: feeds events through the reducer and executes the commands
/// each transition implies on the engine.
///
/// Safe to call from any thread or task. Events are reduced one at a time in
/// the order they arrive, and none is lost. All commands of one transition
/// reach the engine, in order, before the next event is reduced. An engine
/// that reports from inside `execute` (re-entrantly, or from another thread
/// while a command runs) has its report queued and processed right after the
/// current transition, never recursively and never with a deadlock: senders
/// never wait for one another, the first one in drains the queue.
///
/// ```swift
/// let player = Player(engine: MyEngine())
/// player.send(.play("https://example.com/a.m3u8"))
/// for await state in player.latestStates() {
///   print(state.kind, state.isPlaying)
/// }
/// ```
public final class Player: Sendable {
  private let engine: any PlaybackEngine
  private let watchdog: WatchdogPolicy?
  private let onStep: (@Sendable (PlayerStep) -> Void)?
  private let core: Locked<Core>

  /// Creates a player.
  ///
  /// A state with a live load is taken without it
  /// (``/PlayerState/PlaybackState/withoutLoad``): the new engine never saw
  /// that load, so the player starts idle and paused on the same entry, and
  /// the first `resume` loads it from where it was. To come back after a
  /// relaunch, prefer a ``/PlayerState/PlaybackSnapshot``
  /// (``init(engine:restoring:configuration:watchdog:onStep:)``). For a new
  /// player with settings of its own (a retry policy), use
  /// ``init(engine:configuration:watchdog:onStep:)``.
  /// - Parameters:
  ///   - engine: the media back end that receives the commands.
  ///   - state: the initial state; a new player starts idle. Its
  ///     `configuration.canPreload` is set from the engine's capabilities,
  ///     and its `fade` to zero for an engine that cannot ramp.
  ///   - watchdog: how buffering and stall timeouts, the retry backoffs,
  ///     the sleep timer's countdown and progress ticks are scheduled; nil for
  ///     no timeouts (the backoffs, the countdown and the ticks are then
  ///     scheduled on a Dispatch global queue).
  ///   - onStep: called after every processed event once its commands have
  ///     been executed, in processing order, on the thread that drives the
  ///     player. Keep it short; use it for logs and timelines.
  public convenience init(
    engine: any PlaybackEngine, state: PlaybackState = PlaybackState(),
    watchdog: WatchdogPolicy? = nil, onStep: (@Sendable (PlayerStep) -> Void)? = nil
  ) {
    self.init(engine: engine, startingAt: state.withoutLoad, watchdog: watchdog, onStep: onStep)
  }

  /// Creates a new player with settings of its own: how network failures are
  /// retried, how far into an entry `previous` restarts it.
  ///
  /// The player starts idle, as ``init(engine:state:watchdog:onStep:)`` with
  /// `PlaybackState(configuration: configuration)`.
  ///
  /// ```swift
  /// let retry = RetryPolicy(attempts: 5, backoff: .milliseconds(500), maximumBackoff: .seconds(10))
  /// let player = Player(engine: MyEngine(), configuration: PlayerConfiguration(retry: retry))
  /// ```
  /// - Parameters:
  ///   - engine: the media back end that receives the commands.
  ///   - configuration: the settings the reducer reads; `canPreload` is set
  ///     from the engine's capabilities, and `fade` to zero for an engine
  ///     that cannot ramp (``EngineCapabilities/volumeRamp``).
  ///   - watchdog: how buffering and stall timeouts, the retry backoffs,
  ///     the sleep timer's countdown and progress ticks are scheduled. With
  ///     nil there are no buffering or stall timeouts, and the backoffs, the
  ///     countdown and the ticks are scheduled on a Dispatch global queue;
  ///     pass `.dispatch(timeout: .seconds(15))` for timeouts too.
  ///   - onStep: called after every processed event, as in ``init(engine:state:watchdog:onStep:)``.
  public convenience init(
    engine: any PlaybackEngine, configuration: PlayerConfiguration,
    watchdog: WatchdogPolicy? = nil, onStep: (@Sendable (PlayerStep) -> Void)? = nil
  ) {
    self.init(
      engine: engine, state: PlaybackState(configuration: configuration), watchdog: watchdog,
      onStep: onStep)
  }

  /// A player that starts from `state` as it is, a live load included: for
  /// the package's harness, whose engine plays the part of the one that
  /// issued that load (a generated start state, an explored state).
  package init(
    engine: any PlaybackEngine, startingAt state: PlaybackState,
    watchdog: WatchdogPolicy? = nil, onStep: (@Sendable (PlayerStep) -> Void)? = nil
  ) {
    self.engine = engine
    self.watchdog = watchdog
    self.onStep = onStep
    var state = state
    state.configuration = state.configuration.fitted(to: engine.capabilities)
    core = Locked(Core(state: state))
  }

  /// A player restored from a snapshot, as after a relaunch: idle and paused,
  /// and it sends the engine **nothing** until the user resumes. The first
  /// `resume` (or `toggle`) loads the saved entry from the saved position,
  /// once; the snapshot's play intent is information for the app (playback
  /// never starts on its own).
  ///
  /// ```swift
  /// let saved = player.state.snapshot             // encode it with JSONEncoder
  /// let restored = try Player(engine: engine, restoring: saved)
  /// restored.send(.resume)                        // load(A#1 from 95000ms)
  /// ```
  /// - Parameters:
  ///   - engine: the media back end.
  ///   - snapshot: what was saved (``/PlayerState/PlaybackState/snapshot``).
  ///   - configuration: the settings the reducer reads (`canPreload` is set
  ///     from the engine's capabilities, and `fade` to zero for an engine
  ///     that cannot ramp).
  ///   - watchdog: how timeouts and timers are scheduled, as in
  ///     ``init(engine:state:watchdog:onStep:)``; nil for no timeouts.
  ///   - onStep: called after every processed event, as in ``init(engine:state:watchdog:onStep:)``.
  /// - Throws: ``/PlayerState/InvalidStateError`` for a snapshot a restore cannot use.
  public convenience init(
    engine: any PlaybackEngine, restoring snapshot: PlaybackSnapshot,
    configuration: PlayerConfiguration = PlayerConfiguration(), watchdog: WatchdogPolicy? = nil,
    onStep: (@Sendable (PlayerStep) -> Void)? = nil
  ) throws(InvalidStateError) {
    let state = try PlaybackState(restoring: snapshot, configuration: configuration)
    self.init(engine: engine, state: state, watchdog: watchdog, onStep: onStep)
  }

  /// Moves playback to another engine (a speaker, a cast device), in one call:
  /// takes the snapshot, stops this player's load and preload, and returns a
  /// player on `engine` restored from it that loads the current entry from
  /// its position at once and starts on `ready` if the user wanted to play.
  /// This player is left idle: its engine is sent nothing more unless this
  /// player is sent new intents. A sleep timer that stops at an entry's end
  /// moves to the new player; a countdown (``/PlayerState/SleepTimer/after(_:)``)
  /// does not: its clock was this player's, so arm it again with what is left.
  ///
  /// The take-over is events like any other, processed before this returns:
  /// the sleep timer, `resume`, and `pause` if the user was paused. So the
  /// new `onStep` sees them as its first steps, and a paused user's hand-off
  /// gives a step that flips the play intent on and one that flips it back
  /// (``PlayerStep/notifications``). Streams subscribed to the returned
  /// player start after them: its ``notifications(bufferingPolicy:)`` tells
  /// the app nothing about the hand-off, whose entry and intent it already has.
  /// - Parameters:
  ///   - engine: the engine that takes over.
  ///   - watchdog: the new player's timeouts; nil for none.
  ///   - onStep: the new player's step callback.
  /// - Returns: the player now playing on `engine`.
  /// - Throws: ``/PlayerState/InvalidStateError`` when the queue is longer than
  ///   ``/PlayerState/PlaybackSnapshot/maximumEntries``; nothing is stopped then.
  public func handOff(
    to engine: any PlaybackEngine, watchdog: WatchdogPolicy? = nil,
    onStep: (@Sendable (PlayerStep) -> Void)? = nil
  ) throws(InvalidStateError) -> Player {
    let current = state
    let snapshot = current.snapshot
    // The same settings; `canPreload` is the new engine's.
    let next = try Player(
      engine: engine, restoring: snapshot, configuration: current.configuration,
      watchdog: watchdog, onStep: onStep)
    send(.stop)
    for event in current.handOffEvents { next.send(event) }
    return next
  }

  deinit {
    // Finished outside the lock, as `perform` yields outside it: `finish()`
    // resumes a waiting consumer under the runtime's lock for that task, and
    // a consumer cancelled at this moment holds that lock while its
    // `onTermination` waits for ours (issue 23, R1: a deadlock).
    let (subscribers, timers) = core.withLock { ($0.takeSubscribers(), $0.takeTimers()) }
    for subscriber in subscribers { subscriber.finish() }
    // Nothing the player scheduled is needed any more: with a policy that
    // can cancel, its closures (and Dispatch's sources) are released now,
    // not when each would have fallen due (R16).
    for timer in timers { timer.cancel() }
  }

  /// The current state: the result of every event processed so far.
  public var state: PlaybackState { core.withLock { $0.state } }

  /// The settings the reducer reads, as this player's engine can carry them out.
  public var configuration: PlayerConfiguration { core.withLock { $0.state.configuration } }

  /// Changes the settings while the player runs: a settings screen's fade, a
  /// duck policy for spoken content, a retry policy. They apply to every
  /// event reduced after this returns; nothing is sent to the engine, and a
  /// fade or a retry already under way ends as it began. `canPreload` stays
  /// the engine's, and `fade` is zero for an engine without
  /// ``EngineCapabilities/volumeRamp``.
  ///
  /// ```swift
  /// var settings = player.configuration
  /// settings.fade = .milliseconds(300)
  /// try player.reconfigure(settings)
  /// ```
  /// - Parameter configuration: the new settings.
  /// - Throws: ``/PlayerState/InvalidStateError`` for settings the reducer
  ///   cannot take (a retry backoff not above 0, a duck level outside 0…1);
  ///   nothing changes then.
  public func reconfigure(_ configuration: PlayerConfiguration) throws(InvalidStateError) {
    let settings = configuration.fitted(to: engine.capabilities)
    if let violation = settings.violation { throw InvalidStateError(reason: violation) }
    core.withLock { $0.state.configuration = settings }
  }

  /// Counts of processed and ignored events.
  public var statistics: PlayerStatistics { core.withLock { $0.statistics } }

  /// The queue buffer's capacity in events, for tests and benchmarks that
  /// check a burst's memory is given back once it has drained.
  package var pendingCapacityForTesting: Int { core.withLock { $0.pending.capacity } }

  /// The queue capacity, in events, kept after a burst drains; a larger
  /// buffer is freed.
  package static var retainedQueueCapacityForTesting: Int { EventQueue.retainedCapacity }

  /// Events queued now and not yet reduced.
  package var pendingCountForTesting: Int { core.withLock { $0.pending.count } }

  /// Streams currently subscribed, for tests of subscribe and cancel churn.
  package var subscriberCountForTesting: Int { core.withLock { $0.subscribers.count } }

  /// Sends an event: a user intent, or an engine report injected by hand.
  ///
  /// Returns once the event has been processed, or at once if another thread
  /// (or an enclosing call on this one) is processing; that thread then
  /// processes this event after the ones that arrived before it. The thread
  /// that finds the player idle drains the queue, so while other threads keep
  /// sending it keeps reducing their events and running their commands; send
  /// from a thread that may do that work (not one with a frame deadline) when
  /// many threads send at once.
  /// - Parameter event: the event, such as `.play("A")` or `.stop`.
  public func send(_ event: PlaybackEvent) {
    let observed = onStep != nil
    // One job, reused for every event this call drains: the reducer writes
    // the commands straight into it (under the lock), and they are performed
    // from it (outside the lock), so no step copies them.
    var job = Job()
    var draining = core.withLock { core -> Bool in
      guard !core.draining else {
        core.enqueue(event)
        return false
      }
      core.draining = true
      core.reduce(event, observed: observed, into: &job)
      return true
    }
    while draining {
      perform(&job)
      // Released here, outside the lock: the step's subscriber list may hold
      // the last reference to a stream's continuation. (Tested first: most
      // jobs have none, and assigning nil still calls the runtime's release.)
      if job.observation != nil { job.observation = nil }
      draining = core.withLock { core -> Bool in
        guard let next = core.dequeue() else {
          core.draining = false
          return false
        }
        core.reduce(next, observed: observed, into: &job)
        return true
      }
    }
  }

  /// Schedules backoffs, a sleep timer's countdown and progress ticks for a
  /// player without a watchdog policy.
  private static let dispatchClock = WatchdogPolicy.dispatch(timeout: .zero)

  /// Where the player's timers are scheduled and its progress timed: the
  /// policy, or Dispatch without one. Read only where a timer is scheduled or
  /// progress read, never per event.
  var clock: WatchdogPolicy { watchdog ?? Self.dispatchClock }

  /// The clock's current instant.
  func now() -> Duration { clock.now() }

  /// Performs what `job` says. Takes it `inout` although it only reads it:
  /// passed by value, the caller's job (a variable its locked closures
  /// write) was copied first (~60 instructions an event).
  private func perform(_ job: inout Job) {
    let count = job.effects.commands.count
    if count > 0 {
      // Made only when needed: forming the weak reference costs ~50 instructions.
      let sink = ReportSink(player: self)
      // By index: a `for … in` would copy the list into an iterator.
      for index in 0..<count { engine.execute(job.effects.commands[index], reports: sink) }
    }
    // Only when a timer is due (never per event): a watchdog waits the policy's timeout (none without a policy); a retry
    // backoff (waiting for the network) waits what the machine's retry policy
    // asked for, on the policy's clock or, with none, on Dispatch, as a sleep
    // countdown does: the user configured it.
    if let request = job.effects.watchdog, let after = request.delay ?? watchdog?.timeout {
      let timer = clock.schedule(after) { [weak self] in
        self?.send(.watchdogExpired(request.load, request.id))
      }
      // The newest timer replaces the one before, whose expiry would be
      // stale: the current load's its own, and a load fading out beside it
      // (a crossfade's) its own, so neither cancels the other. The state is
      // the step's still: the next event is reduced after this.
      let replaced = core.withLock { core in
        if core.state.leaving?.load == request.load {
          defer { core.leavingTimer = timer }
          return core.leavingTimer
        }
        defer { core.watchdogTimer = timer }
        return core.watchdogTimer
      }
      replaced?.cancel()
    }
    if let request = job.effects.sleepTimer {
      // The user asked for it: with no policy of its own, the player schedules it on Dispatch.
      let timer = clock.schedule(request.delay) { [weak self] in
        self?.send(.system(.sleepTimerExpired(request.id)))
      }
      // Cancelled (`keepExtras`) by the event that replaces or disarms it.
      core.withLock { $0.sleepCountdown = SleepCountdown(id: request.id, timer: timer) }
    }
    job.observation?.publish(to: onStep)
  }

  // MARK: Observation
  //
  // Every stream buffers what its consumer has not read yet. By default that
  // buffer is bounded (``defaultBufferLimit`` elements, the oldest dropped
  // first), so a consumer that stalls costs a fixed amount of memory, not
  // one element per event forever; pass `.unbounded` to keep everything.
  // Measured costs per buffered element are in docs/memory.md.

  /// How many elements a stream buffers for a slow consumer by default: 1024.
  /// Past that, the oldest buffered element is dropped for each new one.
  public static let defaultBufferLimit = 1024

  /// Every processed event, in processing order, accepted or ignored.
  ///
  /// Drops by default: a consumer more than ``defaultBufferLimit`` steps
  /// behind loses the oldest unread steps (the newest are kept); the gap
  /// shows in ``PlayerStep/sequence``. About 630 bytes per buffered step,
  /// and after a queue edit the queue nodes the edit copied, about 2 KB
  /// (O(log n): steps share the rest of the queue; docs/memory.md).
  /// - Parameter bufferingPolicy: what to keep when the consumer falls
  ///   behind; `.unbounded` drops nothing and grows by one step per event.
  public func steps(
    bufferingPolicy: AsyncStream<PlayerStep>.Continuation.BufferingPolicy = .bufferingNewest(
      defaultBufferLimit)
  ) -> AsyncStream<PlayerStep> {
    let (stream, continuation) = AsyncStream.makeStream(
      of: PlayerStep.self, bufferingPolicy: bufferingPolicy)
    register(continuation, as: .steps(continuation))
    return stream
  }

  /// Every state change, starting with the current state.
  ///
  /// Drops by default: a consumer more than ``defaultBufferLimit`` states
  /// behind loses the oldest unread states; the newest state is never
  /// dropped, so the consumer always ends at the current state. About 200
  /// bytes per buffered state, and after a queue edit the queue nodes the
  /// edit copied, about 2 KB (O(log n); docs/memory.md).
  /// - Parameter bufferingPolicy: what to keep when the consumer falls
  ///   behind; `.unbounded` drops nothing and grows by one state per change.
  public func stateChanges(
    bufferingPolicy: AsyncStream<PlaybackState>.Continuation.BufferingPolicy = .bufferingNewest(
      defaultBufferLimit)
  ) -> AsyncStream<PlaybackState> {
    stateStream(bufferingPolicy)
  }

  /// The newest state only, starting with the current state: a consumer that
  /// falls behind skips to the newest state instead of replaying old ones.
  /// Use this for UIs. The same as
  /// `stateChanges(bufferingPolicy: .bufferingNewest(1))`: one state buffered.
  public func latestStates() -> AsyncStream<PlaybackState> {
    stateStream(.bufferingNewest(1))
  }

  /// Every engine report and watchdog expiry the machine ignored, with the reason.
  ///
  /// Drops by default: a consumer more than ``defaultBufferLimit`` reports
  /// behind loses the oldest unread ones; ``statistics`` still counts every
  /// ignored report. About 220 to 310 bytes per buffered report.
  /// - Parameter bufferingPolicy: what to keep when the consumer falls
  ///   behind; `.unbounded` drops nothing and grows by one per ignored report.
  public func ignoredReports(
    bufferingPolicy: AsyncStream<IgnoredReport>.Continuation.BufferingPolicy = .bufferingNewest(
      defaultBufferLimit)
  ) -> AsyncStream<IgnoredReport> {
    let (stream, continuation) = AsyncStream.makeStream(
      of: IgnoredReport.self, bufferingPolicy: bufferingPolicy)
    register(continuation, as: .ignored(continuation))
    return stream
  }

  /// Every notification, exactly once and in step order: all of one step's
  /// before any of the next one's (``PlayerStep/notifications``), each with
  /// the source of the event that caused it.
  ///
  /// Drops by default: a consumer more than ``defaultBufferLimit``
  /// notifications behind loses the oldest unread ones.
  /// - Parameter bufferingPolicy: what to keep when the consumer falls
  ///   behind; `.unbounded` drops nothing.
  public func notifications(
    bufferingPolicy: AsyncStream<PlayerNotification>.Continuation.BufferingPolicy =
      .bufferingNewest(defaultBufferLimit)
  ) -> AsyncStream<PlayerNotification> {
    let (stream, continuation) = AsyncStream.makeStream(
      of: PlayerNotification.self, bufferingPolicy: bufferingPolicy)
    register(continuation, as: .notifications(continuation))
    return stream
  }

  private func stateStream(
    _ policy: AsyncStream<PlaybackState>.Continuation.BufferingPolicy
  ) -> AsyncStream<PlaybackState> {
    let (stream, continuation) = AsyncStream.makeStream(
      of: PlaybackState.self, bufferingPolicy: policy)
    register(continuation, as: .states(continuation))
    return stream
  }

  /// Subscribes a progress stream's ticker; it is told of every step
  /// (``ProgressTicker/moves(_:)``) and finished with the player.
  func register(
    _ ticker: ProgressTicker, _ continuation: AsyncStream<PlaybackProgress>.Continuation
  ) {
    let id = core.withLock { $0.add(.progress(ticker)) }
    // Holds the ticker until the stream ends (the stream then drops this
    // closure), so its pending tick is cancelled whoever goes first.
    continuation.onTermination = { [weak self] _ in
      ticker.finish()
      self?.core.withLock { $0.remove(id) }
    }
  }

  /// The progress at `instant` on the policy's clock, starting the anchor's
  /// timing on the first call (``Player/progress``).
  func readProgress(at instant: Duration) -> PlaybackProgress? {
    core.withLock { core in
      if core.progressClock == nil {
        core.progressClock = clock.now
        core.progress.start(core.state, at: instant)
      }
      return core.progress.progress(of: core.state, at: instant)
    }
  }

  private func register<Element>(
    _ continuation: AsyncStream<Element>.Continuation, as kind: Subscriber.Kind
  ) {
    let id = core.withLock { core in
      // Yielding under the lock keeps the current state ahead of any later
      // one. It cannot block: the stream is not handed out yet, so no
      // consumer waits on it, and a yield then only buffers the element.
      // Nothing else touches a continuation under the lock.
      if case .states(let states) = kind { states.yield(core.state) }
      return core.add(kind)
    }
    // Runs when the consumer stops (cancelled, or the stream dropped), maybe
    // under the runtime's lock for the consumer's task: it takes the
    // player's lock only to forget the subscriber, and the player never
    // finishes or yields to a waiting consumer while holding its lock.
    continuation.onTermination = { [weak self] _ in
      self?.core.withLock { $0.remove(id) }
    }
  }
}

/// The player's mutable state, only touched under its lock.
private struct Core {
  var state: PlaybackState
  var draining = false
  var pending = EventQueue()
  var subscribers: [Subscriber] = []
  var nextSubscriberID = 0
  var statistics = PlayerStatistics()
  /// The sleep countdown scheduled last, until the machine replaces or disarms it.
  var sleepCountdown: SleepCountdown? {
    didSet { keepsExtras = sleepCountdown != nil || progressClock != nil }
  }
  /// The watchdog, backoff or fade scheduled last for the current load.
  var watchdogTimer: TimerHandle?
  /// The fade scheduled last for a load fading out (``PlaybackState/leaving``).
  var leavingTimer: TimerHandle?
  /// When the progress anchor was set (``Player/progress``).
  var progress = ProgressClock()
  /// The policy's clock, once progress is tracked (set with the first read).
  var progressClock: (@Sendable () -> Duration)? {
    didSet { keepsExtras = sleepCountdown != nil || progressClock != nil }
  }
  /// Whether `keepExtras` has anything to do: one test per event otherwise.
  private var keepsExtras = false

  init(state: PlaybackState) { self.state = state }

  mutating func enqueue(_ event: PlaybackEvent) {
    pending.append(event)
    statistics.maxQueued = max(statistics.maxQueued, pending.count)
  }

  /// The oldest queued event; nil once drained, when the queue gives back
  /// the memory a burst made it take.
  mutating func dequeue() -> PlaybackEvent? {
    pending.popFirst()
  }

  /// Reduces `event` into `job`, what to perform outside the lock. The
  /// step record is built only when someone observes: `observed` (an
  /// `onStep` callback) or a subscriber.
  mutating func reduce(_ event: PlaybackEvent, observed: Bool, into job: inout Job) {
    // The state before is kept only for a step record, and that only when someone observes.
    // `job.observation` is nil here: `send` clears it after performing each job.
    guard observed || !subscribers.isEmpty else {
      state.handle(event, into: &job.effects)
      count(event, ignored: job.effects.ignored != nil)
      return
    }
    let before = state
    state.handle(event, into: &job.effects)
    count(event, ignored: job.effects.ignored != nil)
    job.observation = Observation(
      step: PlayerStep(
        sequence: statistics.processed, event: event, before: before,
        transition: Transition(next: state, effects: job.effects)),
      subscribers: subscribers)
  }

  /// What the driver keeps beside the state (``count(_:ignored:)`` calls it
  /// while there is any): the countdown it scheduled, cancelled once the
  /// machine no longer arms it; the progress marks' times.
  private mutating func keepExtras() {
    if let countdown = sleepCountdown,
      !(state.sleepTimer?.isCountdown == true && state.issuedSleepTimers == countdown.id.rawValue)
    {
      // Cancelled under the lock (the policy's `cancel` must not call into
      // the player): carrying it out to `perform` cost every event a field.
      sleepCountdown = nil
      countdown.timer.cancel()
    }
    if let clock = progressClock {
      progress.note(state)
      // The policy's clock, read under the lock so the marks are timed in
      // processing order; it must not call into the player.
      if progress.wantsInstant { progress.stamp(clock()) }
    }
  }

  /// Every timer the player may still have pending, forgotten: the player's
  /// `deinit` cancels them outside the lock.
  mutating func takeTimers() -> [TimerHandle] {
    defer {
      sleepCountdown = nil
      watchdogTimer = nil
      leavingTimer = nil
    }
    return [sleepCountdown?.timer, watchdogTimer, leavingTimer].compactMap { $0 }
  }

  /// Counts a processed event, then keeps the driver's extras, if any.
  /// Given whether it was ignored, not the effects: passing those copied them
  /// (~60 instructions an event). The extras are tested here, in a call every
  /// event makes anyway: a test of its own in `reduce` cost 7 instructions
  /// an event.
  private mutating func count(_ event: PlaybackEvent, ignored: Bool) {
    statistics.processed += 1
    if ignored, event.intent == nil { statistics.ignoredReports += 1 }
    if keepsExtras { keepExtras() }
  }

  mutating func add(_ kind: Subscriber.Kind) -> Int {
    nextSubscriberID += 1
    subscribers.append(Subscriber(id: nextSubscriberID, kind: kind))
    return nextSubscriberID
  }

  mutating func remove(_ id: Int) {
    subscribers.removeAll { $0.id == id }
  }

  /// The subscribers, forgotten: the player's `deinit` finishes them
  /// outside the lock.
  mutating func takeSubscribers() -> [Subscriber] {
    let taken = subscribers
    subscribers = []
    return taken
  }
}

/// One reduced event waiting to be performed outside the lock. A local of
/// ``Player/send(_:)``, written in place by the reducer and reused for each
/// event it drains: never copied on the hot path.
private struct Job {
  /// The commands, the watchdog request and whether the event was ignored.
  var effects = Effects()
  /// What observers are told; nil when nobody observes.
  var observation: Observation?
}

/// The sleep countdown a player scheduled: its id and how to cancel it.
private struct SleepCountdown {
  let id: SleepTimerID
  let timer: TimerHandle
}

/// A processed step and who to tell. A class, so that a `Job` without
/// observers stays small; it is allocated only when someone observes.
private final class Observation: Sendable {
  let step: PlayerStep
  /// The subscribers when the event was reduced.
  let subscribers: [Subscriber]

  init(step: PlayerStep, subscribers: [Subscriber]) {
    self.step = step
    self.subscribers = subscribers
  }

  /// Tells `onStep` and the subscribers. A method, so that the step is read
  /// in place (read out of the class by the caller, it was copied: ~500
  /// instructions a step).
  func publish(to onStep: (@Sendable (PlayerStep) -> Void)?) {
    onStep?(step)
    for subscriber in subscribers { subscriber.deliver(step) }
  }
}

private struct Subscriber: Sendable {
  enum Kind: Sendable {
    case steps(AsyncStream<PlayerStep>.Continuation)
    case states(AsyncStream<PlaybackState>.Continuation)
    case ignored(AsyncStream<IgnoredReport>.Continuation)
    case notifications(AsyncStream<PlayerNotification>.Continuation)
    case progress(ProgressTicker)
  }

  let id: Int
  let kind: Kind

  func deliver(_ step: PlayerStep) {
    switch kind {
    case .steps(let continuation):
      continuation.yield(step)
    case .states(let continuation):
      if step.after != step.before { continuation.yield(step.after) }
    case .ignored(let continuation):
      if let reason = step.transition.ignored, step.event.intent == nil {
        continuation.yield(IgnoredReport(event: step.event, reason: reason, state: step.before))
      }
    case .notifications(let continuation):
      for notification in step.notifications { continuation.yield(notification) }
    case .progress(let ticker):
      if ProgressTicker.moves(step) { ticker.refresh() }
    }
  }

  func finish() {
    switch kind {
    case .steps(let continuation): continuation.finish()
    case .states(let continuation): continuation.finish()
    case .ignored(let continuation): continuation.finish()
    case .notifications(let continuation): continuation.finish()
    case .progress(let ticker): ticker.finish()
    }
  }
}

// MARK: The package's fuzzer

extension Player {
  /// Starts this player over from `state` as it is, as if it had just been
  /// made with `init(engine:startingAt:watchdog:onStep:)` on the same engine,
  /// watchdog and step callback: no event queued, the statistics at zero,
  /// any stream finished, and `configuration.canPreload` and `fade` fitted
  /// to the engine's capabilities. For the package's fuzzer, which runs many cases
  /// one after another on one player instead of making one per case.
  /// - Parameter state: the state to start from, a live load included.
  /// - Returns: false, changing nothing, while an event is being processed.
  package func restart(from state: consuming PlaybackState) -> Bool {
    // Taken owned and moved in: a borrowed state, and a `Core` assigned from
    // a captured constant, were each copied (a retain per reference they hold).
    var start = state
    start.configuration = start.configuration.fitted(to: engine.capabilities)
    var fresh = Core(state: consume start)
    let finished = core.withLock { core -> [Subscriber]? in
      guard !core.draining else { return nil }
      let subscribers = core.takeSubscribers()
      // Swapped, not assigned: the old core is freed after the lock, with `fresh`.
      swap(&core, &fresh)
      return subscribers
    }
    guard let finished else { return false }
    // Finished outside the lock, as in `deinit`, and the old timers cancelled.
    for subscriber in finished { subscriber.finish() }
    for timer in fresh.takeTimers() { timer.cancel() }
    return true
  }
}

extension Player {
  /// Calls `body` with the current state, read in place under the player's
  /// lock (``state`` copies it out): for the package's fuzzer, which compares
  /// the state with its model after every event and keeps a copy only when it
  /// needs one. `body` must not call into this player (its lock is held).
  /// - Returns: what `body` returns.
  package func withState(_ body: (borrowing PlaybackState) -> Bool) -> Bool {
    core.withLock { body($0.state) }
  }
}
