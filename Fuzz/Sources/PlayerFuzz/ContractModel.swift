public import PlayerState

/// The oracle's own model of the engine contract, written from the rules and
/// properties in docs/machine.md, independently of the reducer under test (it
/// never calls `PlaybackState.transition`).
///
/// It predicts, for each event, exactly which commands the engine must receive,
/// and keeps what the command log implies about the engine: which load is
/// current, whether it was told to start, whether it reported a stall.
public struct ContractModel: Hashable, Sendable {
  /// How far the engine has got with the current load, as the contract sees it.
  public enum Stage: UInt8, Hashable, Sendable {
    /// Loaded, waiting for the first `ready`.
    case buffering
    /// Ready.
    case ready
    /// Rebuffering after a `stalled` report.
    case stalled
    /// The end was reported.
    case ended
    /// The load failed and was stopped.
    case failed
  }

  /// The current load and what the engine was told and has reported about it.
  public struct Current: Hashable, Sendable {
    /// The load.
    public var load: Load
    /// What the engine reported.
    public var stage: Stage
    /// The user's last intent for this load: play (true) or pause.
    public var wantsPlay: Bool
    /// The newest seek id sent to the engine for this load (0 if none).
    public var lastSeek: UInt32
    /// Whether the newest seek still awaits its completion.
    public var seekPending: Bool
    /// The newest watchdog armed for this load.
    public var lastWatchdog: UInt32
    /// Whether the engine was told to `start` and not paused, stopped or ended since.
    public var started: Bool
  }

  /// The newest load token issued (0 before the first load).
  public private(set) var issued: UInt32 = 0
  /// The current load, or nil when idle.
  public private(set) var current: Current?
  /// The newest load issued, stopped or not.
  public private(set) var newest: Load?
  /// The load issued before ``newest``.
  public private(set) var previous: Load?

  /// A model of a new, idle player.
  public init() {}

  /// The named state the contract expects.
  public var kind: StateKind {
    guard let current else { return .idle }
    switch current.stage {
    case .buffering: return .buffering
    case .ready: return current.wantsPlay ? .playing : .paused
    case .stalled: return .stalled
    case .ended: return .ended
    case .failed: return .failed
    }
  }

  /// Property 6, from the log: the engine was told to start the current load
  /// and not paused or stopped since, and has not reported a stall, the end or
  /// a failure since.
  public var engineIsPlaying: Bool {
    guard let current else { return false }
    return current.started && current.stage == .ready
  }

  /// Whether a seek completion is awaited.
  public var seekPending: Bool { current?.seekPending ?? false }

  /// Applies one event; appends the commands the engine must receive to
  /// `commands` and returns whether the event was accepted (changed the state
  /// or sent a command). An ignored event must send nothing (property 2).
  @discardableResult
  public mutating func apply(_ event: PlaybackEvent, commands: inout [EngineCommand]) -> Bool {
    let before = self
    let count = commands.count
    switch event {
    case .user(let intent): user(intent, &commands)
    case .engine(let report): engine(report, &commands)
    case .watchdogExpired(let load, let id): watchdog(load, id.rawValue, &commands)
    }
    return commands.count != count || self != before
  }

  // MARK: User intents

  private mutating func user(_ intent: UserIntent, _ out: inout [EngineCommand]) {
    guard var session = current else {
      if case .play(let media) = intent { load(media, wantsPlay: true, &out) }
      return
    }
    switch intent {
    case .play(let media):
      if session.stage == .failed || media != session.load.media {
        load(media, wantsPlay: true, &out)
      } else {
        user(.resume, &out)
      }
      return
    case .pause:
      guard session.wantsPlay else { return }
      session.wantsPlay = false
      if session.stage == .ready || session.stage == .stalled {
        out.append(.pause(session.load))
        session.started = false
      }
    case .resume:
      if session.stage == .ended {
        // docs/machine.md, "Ids never wrap": past the last seek id the intent is ignored.
        guard session.lastSeek < UInt32.max else { return }
        session.lastSeek += 1
        session.seekPending = true
        session.stage = .ready
        out.append(.seek(session.load, to: .zero, SeekID(session.lastSeek)))
        out.append(.start(session.load))
        session.started = true
      } else {
        guard !session.wantsPlay else { return }
        if session.stage == .ready || session.stage == .stalled {
          out.append(.start(session.load))
          session.started = true
        }
      }
      session.wantsPlay = true
    case .stop:
      if session.stage != .failed { out.append(.stop(session.load)) }
      current = nil
      return
    case .seek(let time):
      guard session.stage != .failed, session.lastSeek < UInt32.max else { return }
      session.lastSeek += 1
      session.seekPending = true
      out.append(.seek(session.load, to: time, SeekID(session.lastSeek)))
      if session.stage == .ended {
        session.stage = .ready
        if session.wantsPlay {
          out.append(.start(session.load))
          session.started = true
        }
      }
    case .retry:
      guard session.stage == .failed else { return }
      load(session.load.media, wantsPlay: session.wantsPlay, &out)
      return
    }
    current = session
  }

  /// Stops the current load unless it failed (it was stopped then), and loads `media`.
  private mutating func load(_ media: MediaID, wantsPlay: Bool, _ out: inout [EngineCommand]) {
    // Past the last load token the intent is ignored: no stop, no load (docs/machine.md).
    guard issued < UInt32.max else { return }
    if let session = current, session.stage != .failed { out.append(.stop(session.load)) }
    issued += 1
    let load = Load(media: media, token: LoadToken(issued))
    out.append(.load(load))
    previous = newest
    newest = load
    current = Current(
      load: load, stage: .buffering, wantsPlay: wantsPlay, lastSeek: 0, seekPending: false,
      lastWatchdog: 1, started: false)
  }

  // MARK: Engine reports and timers

  /// The current load if `load` names it exactly: issued, current, same media.
  private func identify(_ load: Load) -> Current? {
    guard load.token.rawValue != 0, load.token.rawValue <= issued, let session = current,
      session.load.token == load.token, session.load.media == load.media
    else { return nil }
    return session
  }

  private mutating func engine(_ report: EngineReport, _ out: inout [EngineCommand]) {
    guard var session = identify(report.load) else { return }
    switch report {
    case .ready:
      guard session.stage == .buffering else { return }
      session.stage = .ready
      if session.wantsPlay {
        out.append(.start(session.load))
        session.started = true
      }
    case .stalled:
      // Past the last watchdog id the stall is ignored (docs/machine.md, "Ids never wrap").
      guard session.stage == .ready, session.lastWatchdog < UInt32.max else { return }
      session.stage = .stalled
      session.lastWatchdog += 1
    case .resumed:
      guard session.stage == .stalled else { return }
      session.stage = .ready
    case .seekCompleted(_, let seek):
      // Property 5: only the newest seek completes, and only once.
      guard seek.rawValue == session.lastSeek, session.seekPending, session.stage != .failed
      else { return }
      session.seekPending = false
    case .reachedEnd:
      guard session.stage == .ready || session.stage == .stalled, !session.seekPending else {
        return
      }
      session.stage = .ended
      session.started = false
    case .failed:
      guard session.stage != .failed else { return }
      fail(&session, &out)
    }
    current = session
  }

  private mutating func watchdog(_ load: Load, _ id: UInt32, _ out: inout [EngineCommand]) {
    guard var session = identify(load), id == session.lastWatchdog,
      session.stage == .buffering || session.stage == .stalled
    else { return }
    fail(&session, &out)
    current = session
  }

  private func fail(_ session: inout Current, _ out: inout [EngineCommand]) {
    session.stage = .failed
    session.seekPending = false
    session.started = false
    out.append(.stop(session.load))
  }
}
