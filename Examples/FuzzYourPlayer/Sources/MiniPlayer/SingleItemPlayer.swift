public import PlayerEngine
public import PlayerState
import Synchronization

/// A single-item player written by hand from docs/machine.md ("Identity
/// first", "The current load", "Ids never wrap"), without PlayerState's
/// reducer: the contract's single-item core and nothing more.
///
/// - **One entry, one current load.** `play(M)` makes M the entry (a new item
///   id) and loads it; `stop` keeps the entry, so `resume` loads it again.
///   Load tokens, item ids, seek ids and watchdog ids are its own: 1, 2, 3…,
///   never reused; an event that would need one past the last is ignored.
/// - **Identity first.** A report or expiry naming a token it never issued, a
///   load that is not the current one (stopped, replaced) or the right token
///   with another item is ignored, and sends nothing.
/// - **Watchdogs** on the clock it is given: one when a load starts
///   buffering, one more at each stall; only the newest counts.
/// - **Not implemented** (an app that needs them uses Playhead's `Player`):
///   the queue's intents, preloading, the remote controls, the sleep timer,
///   the system's events and waiting for the network (a network failure
///   fails the load at once, as with `RetryPolicy.off`). Each is ignored and
///   changes nothing: an intent as `noEffect`, `pausedBySystem` as
///   `unexpected`, an interruption's end as `notInterrupted` and a sleep
///   countdown's expiry as `staleWatchdog` (none ever began).
/// - **Thread safety**: one `Mutex`; any thread may send, the engine from
///   inside `execute` too (queued, and processed after the current event).
///
/// `bug` plants a mistake, for the tests that show the harness catches it.
public final class SingleItemPlayer: Sendable {
  /// A planted mistake.
  public enum Bug: Sendable {
    /// A report is matched to the current load by its item alone, not its
    /// token: a late `ready` of a stopped load of the same entry starts the
    /// load that replaced it.
    case matchesReportsByItem
  }

  /// What the engine has reached with the current load.
  public enum Stage: Hashable, Sendable {
    /// Loading, not ready yet.
    case buffering
    /// Ready (playing or paused, as the intent says).
    case ready
    /// Rebuffering after a stall.
    case stalled
    /// At the end of the media.
    case ended
    /// Failed, and stopped when it failed.
    case failed(FailureReason)

    /// Whether the load failed (and so was stopped).
    var isFailed: Bool { if case .failed = self { true } else { false } }
  }

  /// The entry: the item id issued when it was played, and its media.
  public struct Entry: Hashable, Sendable {
    /// The item id.
    public let item: ItemID
    /// The media.
    public let media: MediaID
  }

  /// The current load and what the engine reported about it.
  public struct Session: Hashable, Sendable {
    /// The load: the entry's item id and its token.
    public internal(set) var load: Load
    /// What the engine has reached.
    public internal(set) var stage = Stage.buffering
    /// The newest seek id issued for this load (0: none).
    public internal(set) var lastSeek: UInt32 = 0
    /// Whether the newest seek still awaits its completion.
    public internal(set) var seekPending = false
    /// The newest watchdog id armed for this load.
    public internal(set) var lastWatchdog: UInt32 = 1
    /// The last known position.
    public internal(set) var position: MediaTime
    /// The duration the engine reported with `ready`.
    public internal(set) var duration: MediaTime?
    /// The engine's own error, while failed.
    public internal(set) var failure: FailureDetail?
  }

  /// Everything the player holds.
  public struct State: Hashable, Sendable {
    /// The entry (its item id and media), kept by `stop`; nil before the first `play`.
    public internal(set) var entry: Entry?
    /// The current load, or nil when idle.
    public internal(set) var session: Session?
    /// The user's intent: play (true) or stay paused.
    public internal(set) var playWhenReady = true
    /// The rate the user asked for.
    public internal(set) var rate = PlaybackRate.normal
    /// The newest load token and item id issued.
    public internal(set) var issuedLoads: UInt32 = 0, issuedItems: UInt32 = 0

    /// The named state.
    public var kind: StateKind {
      switch session?.stage {
      case nil: .idle
      case .buffering: .buffering
      case .ready: playWhenReady ? .playing : .paused
      case .stalled: .stalled
      case .ended: .ended
      case .failed: .failed
      }
    }
    /// Whether media plays: ready, and the user wants it to.
    public var isPlaying: Bool { kind == .playing }
  }

  private struct Core {
    var state = State()
    var pending: [PlaybackEvent] = []
    var draining = false
  }

  /// One event's effects: its commands, a watchdog to arm, why it was ignored.
  private struct Step {
    var commands: [EngineCommand] = []
    var watchdog: (load: Load, id: WatchdogID)?
    var ignored: IgnoreReason?
  }

  private let engine: any PlaybackEngine
  private let watchdog: WatchdogPolicy
  private let bug: Bug?
  private let onStep: (@Sendable (PlaybackEvent, IgnoreReason?) -> Void)?
  private let core = Mutex(Core())

  /// A player.
  /// - Parameters:
  ///   - engine: the media back end (never asked to preload).
  ///   - watchdog: the clock for buffering and stall timeouts.
  ///   - bug: a planted mistake, nil for none.
  ///   - onStep: called after each event's commands ran, in processing order,
  ///     with why it was ignored (nil: accepted).
  public init(
    engine: any PlaybackEngine, watchdog: WatchdogPolicy, bug: Bug? = nil,
    onStep: (@Sendable (PlaybackEvent, IgnoreReason?) -> Void)? = nil
  ) {
    self.engine = engine
    self.watchdog = watchdog
    self.bug = bug
    self.onStep = onStep
  }

  /// The player's state, read under its lock.
  public var state: State { core.withLock { $0.state } }

  /// Sends an event; reports and expiries name loads by this player's tokens.
  public func send(_ event: PlaybackEvent) {
    var work = core.withLock { core -> (PlaybackEvent, Step)? in
      guard !core.draining else {
        core.pending.append(event)
        return nil
      }
      core.draining = true
      return (event, reduce(event, &core.state))
    }
    let sink = ReportSink { [weak self] report in self?.send(.engine(report)) }
    while let (event, step) = work {
      for command in step.commands { engine.execute(command, reports: sink) }
      if let (load, id) = step.watchdog {
        watchdog.schedule(watchdog.timeout) { [weak self] in
          self?.send(.watchdogExpired(load, id))
        }
      }
      onStep?(event, step.ignored)
      work = core.withLock { core -> (PlaybackEvent, Step)? in
        guard !core.pending.isEmpty else {
          core.draining = false
          return nil
        }
        let next = core.pending.removeFirst()
        return (next, reduce(next, &core.state))
      }
    }
  }

  // MARK: The rules

  private func reduce(_ event: PlaybackEvent, _ state: inout State) -> Step {
    var step = Step()
    switch event {
    case .user(let intent), .remote(let intent): step.ignored = user(intent, &state, &step)
    case .engine(let report): step.ignored = engine(report, &state, &step)
    case .watchdogExpired(let load, let id):
      step.ignored = identify(load, state) ?? expire(id, &state, &step)
    case .system(.interruptionEnded): step.ignored = .notInterrupted
    case .system(.duckEnded): step.ignored = .notDucked
    case .system(.sleepTimerExpired): step.ignored = .staleWatchdog
    case .system(.interruptionBegan), .system(.routeLost), .system(.networkLost),
      .system(.networkAvailable), .system(.duckBegan):
      step.ignored = .noEffect
    }
    return step
  }

  private func user(_ intent: UserIntent, _ state: inout State, _ step: inout Step)
    -> IgnoreReason?
  {
    let live = state.session.map { !$0.stage.isFailed } ?? false
    switch intent {
    case .play(let media, let time):
      if time < .zero { return .invalidArgument }
      if time == .zero, live, state.entry?.media == media {
        return user(.resume, &state, &step)
      }
      guard state.issuedItems < .max, state.issuedLoads < .max else { return .idsExhausted }
      stopCurrent(&state, &step)
      state.issuedItems += 1
      state.entry = Entry(item: ItemID(state.issuedItems), media: media)
      state.playWhenReady = true
      load(from: time, &state, &step)
    case .pause:
      guard let session = state.session, state.playWhenReady else { return .noEffect }
      if session.stage == .ready || session.stage == .stalled {
        step.commands.append(.pause(session.load))
      }
      state.playWhenReady = false
    case .resume:
      guard var session = state.session else {
        guard state.entry != nil else { return .noEffect }
        guard state.issuedLoads < .max else { return .idsExhausted }
        state.playWhenReady = true
        load(from: .zero, &state, &step)
        return nil
      }
      if session.stage == .ended {
        // Replays from the start: a seek to 0, then start.
        guard session.lastSeek < .max else { return .idsExhausted }
        seek(&session, to: .zero, &step)
        session.stage = .ready
      } else if state.playWhenReady {
        return .noEffect
      }
      state.playWhenReady = true
      if session.stage == .ready || session.stage == .stalled {
        step.commands.append(.start(session.load, rate: state.rate))
      }
      state.session = session
    case .stop:
      guard state.session != nil else { return .noEffect }
      stopCurrent(&state, &step)
    case .seek(let time):
      if time < .zero { return .invalidArgument }
      guard live, var session = state.session else { return .noEffect }
      guard session.lastSeek < .max else { return .idsExhausted }
      seek(&session, to: time, &step)
      if session.stage == .ended {
        session.stage = .ready
        if state.playWhenReady { step.commands.append(.start(session.load, rate: state.rate)) }
      }
      state.session = session
    case .retry:
      guard let session = state.session, session.stage.isFailed else { return .noEffect }
      guard state.issuedLoads < .max else { return .idsExhausted }
      load(from: session.position, &state, &step)
    case .setRate(let rate):
      if rate.thousandths <= 0 { return .invalidArgument }
      guard rate != state.rate else { return .noEffect }
      state.rate = rate
      if let session = state.session, state.playWhenReady,
        session.stage == .ready || session.stage == .stalled
      {
        step.commands.append(.setRate(session.load, rate))
      }
    case .replaceQueue, .append, .insert, .remove, .move, .jump, .next, .previous, .setRepeat,
      .setShuffle, .clear, .toggle, .skip, .setPosition, .setSleepTimer, .setVolume, .setMuted,
      .goToLive:
      return .noEffect
    }
    return nil
  }

  /// "Identity first": nil when `load` is the current load.
  private func identify(_ load: Load, _ state: State) -> IgnoreReason? {
    if load.token.rawValue == 0 || load.token.rawValue > state.issuedLoads {
      return .neverIssuedLoad
    }
    guard let current = state.session?.load else { return .staleLoad }
    if bug == .matchesReportsByItem, current.item == load.item { return nil }
    guard current.token == load.token else { return .staleLoad }
    return current.item == load.item ? nil : .itemMismatch
  }

  private func engine(_ report: EngineReport, _ state: inout State, _ step: inout Step)
    -> IgnoreReason?
  {
    if let reason = identify(report.load, state) { return reason }
    guard var session = state.session else { return .staleLoad }
    let stage = session.stage
    if stage.isFailed { return .unexpected }
    switch report {
    case .ready(_, let duration):
      guard stage == .buffering else { return .unexpected }
      session.stage = .ready
      session.duration = duration
      if state.playWhenReady { step.commands.append(.start(session.load, rate: state.rate)) }
    case .stalled:
      guard stage == .ready else { return .unexpected }
      guard session.lastWatchdog < .max else { return .idsExhausted }
      session.stage = .stalled
      session.lastWatchdog += 1
      step.watchdog = (session.load, WatchdogID(session.lastWatchdog))
    case .resumed:
      guard stage == .stalled else { return .unexpected }
      session.stage = .ready
    case .seekCompleted(_, let id):
      if id.rawValue == 0 || id.rawValue > session.lastSeek { return .neverIssuedSeek }
      if id.rawValue < session.lastSeek { return .supersededSeek }
      guard session.seekPending else { return .unexpected }
      session.seekPending = false
    case .position(_, let time):
      if time < .zero { return .unexpected }
      if session.seekPending { return .seekPending }
      session.position = time
    case .reachedEnd:
      guard stage == .ready || stage == .stalled else { return .unexpected }
      if session.seekPending { return .seekPending }
      // One entry, no repeat: the end of the queue.
      session.stage = .ended
      session.position = session.duration ?? session.position
    case .failed(_, let reason, let detail):
      fail(&session, reason, detail, &step)
    // On-demand media only: the fuzzer fuzzes it without the live feature.
    case .pausedBySystem, .window:
      return .unexpected
    }
    state.session = session
    return nil
  }

  private func expire(_ id: WatchdogID, _ state: inout State, _ step: inout Step) -> IgnoreReason? {
    guard var session = state.session, id.rawValue == session.lastWatchdog,
      session.stage == .buffering || session.stage == .stalled
    else { return .staleWatchdog }
    fail(&session, .timeout, nil, &step)
    state.session = session
    return nil
  }

  // MARK: Effects

  /// Loads the entry under a new token from `time`, with its load watchdog.
  private func load(from time: MediaTime, _ state: inout State, _ step: inout Step) {
    guard let entry = state.entry else { return }
    state.issuedLoads += 1
    let load = Load(item: entry.item, token: LoadToken(state.issuedLoads))
    step.commands.append(.load(LoadRequest(load: load, media: entry.media, start: time)))
    step.watchdog = (load, WatchdogID(1))
    state.session = Session(load: load, position: time)
  }

  /// Stops the current load (a failed one was stopped when it failed): idle.
  private func stopCurrent(_ state: inout State, _ step: inout Step) {
    if let session = state.session, !session.stage.isFailed {
      step.commands.append(.stop(session.load))
    }
    state.session = nil
  }

  private func seek(_ session: inout Session, to time: MediaTime, _ step: inout Step) {
    session.lastSeek += 1
    session.seekPending = true
    session.position = time
    step.commands.append(.seek(session.load, to: time, SeekID(session.lastSeek)))
  }

  private func fail(
    _ session: inout Session, _ reason: FailureReason, _ detail: FailureDetail?,
    _ step: inout Step
  ) {
    session.stage = .failed(reason)
    session.seekPending = false
    session.failure = detail
    step.commands.append(.stop(session.load))
  }
}
