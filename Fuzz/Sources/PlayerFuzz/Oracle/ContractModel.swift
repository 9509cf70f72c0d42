import PlayerEngine
package import PlayerState

/// The oracle's own model of the engine contract, written from the rules and
/// properties in docs/machine.md, independently of the reducer under test (it
/// never calls `PlaybackState.handle` or `transition`).
///
/// It predicts, for each event, exactly which commands the engine must
/// receive, and keeps what the command log implies about the engine: which
/// entries the queue holds, which load is current and which is preloading,
/// whether the current one was told to start. The queue rules live in
/// ContractQueue.swift; the shuffled order is replayed from the documented
/// SplitMix64 / Fisher–Yates draw (see `ContractModel.shuffled(_:first:seed:)`).
package struct ContractModel: Hashable, Sendable {
  /// How far the engine has got with the current load, as the contract sees it.
  package enum Stage: UInt8, Hashable, Sendable {
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
    /// The load failed for want of the network and was stopped; a reload
    /// follows on the backoff timer or when the network is back.
    case waiting

    /// Whether the machine stopped the load (failed, or waiting for the
    /// network): nothing is sent to it any more.
    package var isStopped: Bool { self == .failed || self == .waiting }
  }

  /// The current load and what the engine was told and has reported about it.
  ///
  /// Trivially copyable (no references: the failure detail is held by its
  /// ``FailureKey``): the model reads it several times a step (each ignore
  /// reason, ``availableCommands`` eight times), and a copy of a struct with a
  /// reference costs a call through its type's value witnesses.
  package struct Current: Hashable, Sendable {
    /// The load.
    package var load: Load
    /// What the engine reported.
    package var stage: Stage
    /// The newest seek id sent to the engine for this load (0 if none).
    package var lastSeek: UInt32
    /// Whether the newest seek still awaits its completion.
    package var seekPending: Bool
    /// The newest watchdog armed for this load (0 if none).
    package var lastWatchdog: UInt32
    /// Whether the engine was told to `start` and not paused, stopped or ended since.
    package var started: Bool
    /// The last known position, in milliseconds.
    package var position: Int64
    /// The duration reported with `ready`, in milliseconds.
    package var duration: Int64?
    /// Whether the engine reported that the system paused this load on its own.
    package var systemPaused = false
    /// Reloads made for want of the network since the entry was last ready.
    package var attempts: UInt8 = 0
    /// Whether the engine is fading this load out into the user's pause
    /// (ContractFade.swift): told to ramp to 0, not yet paused; its newest
    /// timer (``lastWatchdog``) is the fade's.
    package var fadingOut = false
    /// The id of the newest fade timer armed for this load (0 if none): its
    /// expiry, once stale, must change nothing (for naming a violation).
    package var lastFadeTimer: UInt32 = 0
    /// The engine's own error of the newest failure, if it gave one.
    package var failure: FailureDetail? {
      get { failureKey.flatMap(FailureKey.detail) }
      set { failureKey = newValue.map(FailureKey.init) }
    }
    /// ``failure``, interned: equal details have equal keys.
    private var failureKey: FailureKey?
    /// Why the load failed, once it has.
    package var reason: FailureReason?
    /// The live window the engine last reported for this load (ContractLive.swift);
    /// nil while none was: on-demand media.
    package var window: LiveWindow?
    /// Whether the load was opened at its live edge and no window or position
    /// has come since: ``position`` is then the offset behind the edge.
    package var openedAtLiveEdge = false
    /// Whether the live load reached its edge playing and has not left it
    /// (a seek elsewhere, a stall, a step after which the engine does not play it).
    package var playsAtEdge = false

    /// A current load.
    package init(
      load: Load, stage: Stage, lastSeek: UInt32, seekPending: Bool, lastWatchdog: UInt32,
      started: Bool, position: Int64, duration: Int64?, systemPaused: Bool = false,
      attempts: UInt8 = 0, failure: FailureDetail? = nil, reason: FailureReason? = nil
    ) {
      self.load = load
      self.stage = stage
      self.lastSeek = lastSeek
      self.seekPending = seekPending
      self.lastWatchdog = lastWatchdog
      self.started = started
      self.position = position
      self.duration = duration
      self.systemPaused = systemPaused
      self.attempts = attempts
      self.failureKey = failure.map(FailureKey.init)
      self.reason = reason
    }
  }

  /// A failure detail as a number: details are interned once per process
  /// (equal details, one key), so a ``Current`` holding one stays trivially
  /// copyable and compares and hashes it by value. The table holds each
  /// distinct detail the process met (the generator uses three).
  package struct FailureKey: Hashable, Sendable {
    private let index: UInt32

    private static let table = Locked<(details: [FailureDetail], keys: [FailureDetail: UInt32])>(
      ([], [:]))

    /// The key of `detail`, interning it if it is new.
    init(_ detail: FailureDetail) {
      index = Self.table.withLock { table in
        if let known = table.keys[detail] { return known }
        let index = UInt32(truncatingIfNeeded: table.details.count)
        table.details.append(detail)
        table.keys[detail] = index
        return index
      }
    }

    /// The detail this key stands for.
    static func detail(_ key: FailureKey) -> FailureDetail? {
      table.withLock { table in
        Int(key.index) < table.details.count ? table.details[Int(key.index)] : nil
      }
    }
  }

  /// The next entry's load, loading ahead of the current one.
  package struct Preloading: Hashable, Sendable {
    /// The load.
    package var load: Load
    /// Buffering, ready, or failed (and stopped).
    package var stage: Stage
    /// The duration reported with its `ready`.
    package var duration: Int64?
    /// Why the preload failed, once it has.
    package var reason: FailureReason?
    /// Whether the preload reported a live window and was stopped for it
    /// (`PreloadStage.live`, ContractLive.swift): its ``stage`` is then `failed`
    /// (stopped, never promoted) with no ``reason``.
    package var live = false
  }

  /// A queue entry: the item id the machine issued and its media.
  package struct Entry: Hashable, Sendable {
    /// The item id.
    package var item: ItemID
    /// The media.
    package var media: MediaID
  }

  /// Whether the engine declared the `.preload` capability.
  package let canPreload: Bool
  /// How a load that failed for want of the network is retried.
  package let retry: RetryPolicy
  /// Whether an interruption of the operating system is in progress (one
  /// flag for the player, not per load).
  package internal(set) var interrupted = false
  /// The entries in play order.
  package internal(set) var entries: [Entry] = []
  /// The current position in ``entries``; nil exactly when the queue is empty.
  package internal(set) var position: Int?
  /// The repeat mode.
  package internal(set) var repeatMode: RepeatMode = .off
  /// The shuffle seed and the list order to restore, while shuffled.
  package internal(set) var shuffle: (seed: UInt64, list: [Entry])? {
    get { shuffleSeed.map { ($0, shuffleList) } }
    set {
      shuffleSeed = newValue?.seed
      shuffleList = newValue?.list ?? []
    }
  }
  private var shuffleSeed: UInt64?
  private var shuffleList: [Entry] = []
  /// The user's intent: play or stay paused; kept across entries.
  package internal(set) var playWhenReady = true
  /// The rate, in thousandths.
  package internal(set) var rate = PlaybackRate.normal
  /// The newest load token issued (0 before the first load).
  package internal(set) var issued: UInt32 = 0
  /// The newest item id issued.
  package internal(set) var issuedItems: UInt32 = 0
  /// The current load, or nil when idle.
  package internal(set) var current: Current?
  /// The preload, or nil.
  package internal(set) var preload: Preloading?
  /// The newest load issued (loaded or preloaded), stopped or not.
  package internal(set) var newest: Load?
  /// The load issued before ``newest``.
  package internal(set) var previous: Load?
  /// The newest preload that was dropped (stopped before it became current).
  package internal(set) var dropped: Load?
  /// The newest load of an entry that was removed from the queue.
  package internal(set) var removed: Load?
  /// The newest current load that was left (stopped, skipped, ended into the next entry).
  package internal(set) var left: Load?
  /// Every item's media, removed or not (for printing and generating).
  package internal(set) var media = MediaTable()
  /// The item each token issued in the case was issued for: token `t` at
  /// index `t - 1 - tokenBase` (``item(ofToken:)``).
  package internal(set) var tokenItems: [ItemID] = []
  /// The tokens issued before the case began (a start state's `issuedLoads`);
  /// 0 for a new player.
  package internal(set) var tokenBase: UInt32 = 0
  /// A restored entry's saved position, until its first load or another
  /// entry becomes current (ContractRestore.swift); nil otherwise.
  package internal(set) var resumePoint: ContractResumePoint?
  /// The armed sleep timer (for `afterEntries`, the ends still to go), or nil.
  package internal(set) var sleep: SleepTimer?
  /// The newest sleep countdown id issued (0 before the first).
  package internal(set) var issuedSleep: UInt32 = 0
  /// The user's volume (ContractVolume.swift).
  package internal(set) var volume = Volume(thousandths: 1000)
  /// Whether the user muted the player.
  package internal(set) var muted = false
  /// Whether a duck of the system is in progress (one flag for the player, as
  /// ``interrupted``).
  package internal(set) var ducked = false
  /// The player's duck policy (`PlayerConfiguration.ducking`), read from the case's configuration.
  package let ducking: DuckPolicy
  /// The player's fade in milliseconds (`PlayerConfiguration.fade`; 0: off),
  /// read from the case's configuration (ContractFade.swift).
  package let fade: Int64
  /// The player's crossfade in milliseconds (`PlayerConfiguration.crossfade`;
  /// 0: off), read from the case's configuration (ContractCrossfade.swift).
  package let crossfade: Int64
  /// A load fading out before its `stop`, and its timer's id: one the user
  /// stopped while it played (only while idle, ContractFade.swift), or the
  /// outgoing load of a crossfade (beside the current load, ContractCrossfade.swift).
  package internal(set) var leaving: FadingOut?

  /// The newest leaving load that was stopped, with its timer's id (history,
  /// for naming a violation; not part of the contract state).
  package internal(set) var stoppedLeaving: FadingOut?

  /// The player's `previousThreshold`, in milliseconds: `previous` restarts
  /// the entry past this position. Read from the case's configuration.
  package let previousThreshold: Int64

  /// A model of a new, idle player.
  /// - Parameters:
  ///   - canPreload: whether the engine declared `.preload`.
  ///   - retry: the player's retry policy for network failures.
  ///   - previousThreshold: the player's `previousThreshold`.
  ///   - ducking: the player's duck policy.
  ///   - fade: the player's fade (zero: off).
  ///   - crossfade: the player's crossfade (zero: off).
  package init(
    canPreload: Bool = false, retry: RetryPolicy = PlayerConfiguration().retry,
    previousThreshold: MediaTime = PlayerConfiguration().previousThreshold,
    ducking: DuckPolicy = PlayerConfiguration().ducking, fade: MediaTime = .zero,
    crossfade: MediaTime = .zero
  ) {
    self.canPreload = canPreload
    self.retry = retry
    self.previousThreshold = previousThreshold.milliseconds
    self.ducking = ducking
    self.fade = max(fade.milliseconds, 0)
    self.crossfade = max(crossfade.milliseconds, 0)
  }

  /// Whether two models are in the same contract state: queue, intent,
  /// counters, current load and preload (not the history kept for
  /// generating and naming: newest, previous, dropped, removed, left, media).
  package static func == (lhs: ContractModel, rhs: ContractModel) -> Bool {
    lhs.canPreload == rhs.canPreload && lhs.retry == rhs.retry
      && lhs.previousThreshold == rhs.previousThreshold && lhs.interrupted == rhs.interrupted
      && lhs.entries == rhs.entries
      && lhs.position == rhs.position
      && lhs.repeatMode == rhs.repeatMode && lhs.shuffleSeed == rhs.shuffleSeed
      && lhs.shuffleList == rhs.shuffleList && lhs.playWhenReady == rhs.playWhenReady
      && lhs.rate == rhs.rate && lhs.issued == rhs.issued && lhs.issuedItems == rhs.issuedItems
      && lhs.current == rhs.current && lhs.preload == rhs.preload && lhs.sleep == rhs.sleep
      && lhs.issuedSleep == rhs.issuedSleep && lhs.resumePoint == rhs.resumePoint
      && lhs.volume == rhs.volume && lhs.muted == rhs.muted && lhs.ducked == rhs.ducked
      && lhs.ducking == rhs.ducking && lhs.fade == rhs.fade && lhs.leaving == rhs.leaving
      && lhs.crossfade == rhs.crossfade
  }

  /// Hashes part of what `==` compares.
  package func hash(into hasher: inout Hasher) {
    hasher.combine(entries)
    hasher.combine(position)
    hasher.combine(current)
    hasher.combine(preload)
    hasher.combine(issued)
    hasher.combine(interrupted)
  }

  /// The named state the contract expects.
  package var kind: StateKind {
    guard let current else { return .idle }
    switch current.stage {
    case .buffering: return .buffering
    case .ready:
      guard playWhenReady else { return .paused }
      return suppressed ? .suppressed : .playing
    case .stalled: return .stalled
    case .ended: return .ended
    case .failed: return .failed
    case .waiting: return .waiting
    }
  }

  /// Whether the system holds playback: an interruption or a `.pause` duck in
  /// progress, or a system pause of the current load while it is ready or stalled.
  package var suppressed: Bool {
    if interrupted || duckHolds { return true }
    guard let current, current.systemPaused else { return false }
    return current.stage == .ready || current.stage == .stalled
  }

  /// Property 6, from the log: the engine was told to start the current load
  /// and not paused or stopped since, and has not reported a stall, the end or
  /// a failure since.
  package var engineIsPlaying: Bool {
    guard let current else { return false }
    // A fade-out into the user's pause is a paused player at once (the
    // engine plays on until the fade's end: ``Current/started``).
    return current.started && current.stage == .ready && !current.fadingOut
  }

  /// Whether a seek completion is awaited.
  package var seekPending: Bool { current?.seekPending ?? false }

  /// The queue as `A B* C` (play order, the current entry starred) or `none`.
  package var queueDescription: String {
    guard !entries.isEmpty else { return "none" }
    return entries.indices.map { "\(entries[$0].media)\($0 == position ? "*" : "")" }
      .joined(separator: " ")
  }

  /// The queue's ``FuzzObservation/fingerprint(items:current:repeatMode:shuffleSeed:)``.
  package var queueFingerprint: UInt64 {
    FuzzObservation.fingerprint(
      items: entries.lazy.map(\.item), current: position, repeatMode: repeatMode,
      shuffleSeed: shuffleSeed)
  }

  /// A command in its compact form, naming loads by their media (`load(A#2)`, `start(A#2)`).
  package func describe(_ command: EngineCommand) -> String {
    command.description(naming: { self.media[$0] })
  }

  /// The current and preloading loads, as `A#2, preload B#3`, or `none`.
  package var loadsDescription: String {
    let name = { (load: Load) in
      self.media[load.item].map { "\($0)#\(load.token)" } ?? load.description
    }
    guard let current else { return preload.map { "preload \(name($0.load))" } ?? "none" }
    return name(current.load) + (preload.map { ", preload \(name($0.load))" } ?? "")
  }

  /// Applies one event; appends the commands the engine must receive to
  /// `commands` and returns whether the event was accepted. An ignored event
  /// changes nothing and must send nothing (property 2).
  @discardableResult
  package mutating func apply(_ event: PlaybackEvent, commands: inout [EngineCommand]) -> Bool {
    process(event, commands: &commands) == nil
  }

  /// Applies one event unless the contract ignores it (``ignoreReason(for:)``,
  /// decided before anything changes); appends the commands the engine must
  /// receive to `commands`.
  /// - Returns: why the event was ignored, or nil when it was accepted.
  package mutating func process(
    _ event: PlaybackEvent, commands: inout [EngineCommand]
  ) -> IgnoreReason? {
    if let reason = ignoreReason(for: event) { return reason }
    let mark = commands.count
    let was = effectiveVolume
    // The rate the engine is told for a live load, before (ContractLive.swift);
    // the first window of a load sends its own.
    let playing = current.flatMap {
      $0.window == nil ? nil : (rate: playingRate(of: $0), load: $0.load)
    }
    switch event {
    case .user(let intent), .remote(let intent): user(intent, &commands)
    case .engine(let report): engine(report, &commands)
    case .watchdogExpired(let load, let id): watchdog(load, id.rawValue, &commands)
    case .system(let event): system(event, &commands)
    }
    sendVolumeChange(was: was, &commands)
    refreshPreload(&commands)
    forgetResumePoint()
    giveOpenedLoadsTheVolume(since: mark, &commands)
    keepLiveRateInStep(from: playing, since: mark, &commands)
    return nil
  }

  // MARK: Engine reports and timers

  private enum Named {
    case current(Current)
    case preloading(Preloading)
    case ignored
  }

  /// Identity first: the current load or the preload if `load` names it
  /// exactly (issued, same token, same item).
  private func identify(_ load: Load) -> Named {
    guard load.token.rawValue != 0, load.token.rawValue <= issued else { return .ignored }
    if let current, current.load.token == load.token {
      return current.load.item == load.item ? .current(current) : .ignored
    }
    if let preload, preload.load.token == load.token {
      return preload.load.item == load.item ? .preloading(preload) : .ignored
    }
    return .ignored
  }

  private mutating func engine(_ report: EngineReport, _ out: inout [EngineCommand]) {
    // Accepted about the load fading out: its end or failure (ContractIgnore).
    if let leaving, leaving.load == report.load { return leavingReported(&out) }
    var session: Current
    switch identify(report.load) {
    case .ignored: return
    case .preloading(var preload):
      switch report {
      case .ready(_, let duration) where preload.stage == .buffering:
        preload.stage = .ready
        preload.duration = duration?.milliseconds
      case .failed(_, let reason, _) where preload.stage != .failed:
        preload.stage = .failed
        preload.reason = reason
        out.append(.stop(preload.load))
      case .window where preload.stage != .failed:
        // The entry is live: stopped, loaded at its turn (ContractLive.swift).
        return preloadReportedWindow(&out)
      default: return
      }
      self.preload = preload
      return
    case .current(let named): session = named
    }
    switch report {
    case .ready(_, let duration):
      guard session.stage == .buffering else { return }
      session.stage = .ready
      // A live load (its window came first) has no duration (ContractLive.swift).
      session.duration = session.window == nil ? duration?.milliseconds : nil
      // Ready again: the entry's network attempts start over.
      session.attempts = 0
      startIfWanted(&session, &out)
    case .stalled:
      // Past the last watchdog id the stall is ignored (docs/machine.md, "Ids never wrap").
      guard session.stage == .ready, session.lastWatchdog < UInt32.max else { return }
      endFadeEarly(&session, &out)
      session.stage = .stalled
      // A stall leaves the live edge (ContractLive.swift).
      session.playsAtEdge = false
      session.lastWatchdog += 1
    case .resumed:
      guard session.stage == .stalled else { return }
      session.stage = .ready
    case .seekCompleted(_, let seek):
      // Property 5: only the newest seek completes, and only once.
      guard seek.rawValue == session.lastSeek, session.seekPending, !session.stage.isStopped
      else { return }
      session.seekPending = false
    case .position(_, let time):
      // Property 7: a position report never causes a command. A negative
      // position is not one (invariant 7: a position is never negative): ignored.
      guard !session.stage.isStopped, !session.seekPending, time >= .zero else { return }
      // Behind a DVR window's start: a reload at the edge (ContractLive.swift).
      if let window = session.window, fellBehind(session, at: time.milliseconds, window) {
        return reloadAtLiveEdge(&out)
      }
      session.position = time.milliseconds
      // At the edge (ContractLive.swift); before any window, the engine's own position.
      if let window = session.window, time >= window.end { session.playsAtEdge = true }
      session.openedAtLiveEdge = false
      // Except the one that starts a crossfade (ContractCrossfade.swift).
      if let next = crossfadeTarget(session, at: session.position) {
        return startCrossfade(from: session, into: next, &out)
      }
    case .reachedEnd:
      guard session.stage == .ready || session.stage == .stalled, !session.seekPending else {
        return
      }
      // The end ends a fade into a pause: the load, if still live, is sent the
      // effective volume after the end's own commands.
      let fading = session.fadingOut
      session.fadingOut = false
      current = session
      // The end of the incoming load stops the outgoing one first.
      stopCrossfade(&out)
      reachEnd(&out)
      if fading, let live = liveCurrent, live == session.load {
        out.append(.setVolume(live, effectiveVolume))
      }
      return
    case .failed(_, .behindLiveWindow, _)
    where session.stage == .ready || session.stage == .stalled:
      // The engine says the load fell behind its window, after it played:
      // a reload at the edge (ContractLive.swift).
      return reloadAtLiveEdge(&out)
    case .failed(_, let reason, let detail):
      switch session.stage {
      case .failed, .waiting: return
      case .buffering, .ready, .stalled:
        // Network failures wait while the policy allows (docs/machine.md,
        // "Waiting for the network"); the others fail at once.
        if reason == .network {
          waitForNetwork(&session, detail, &out)
        } else {
          fail(&session, reason, detail, &out)
        }
      case .ended:
        fail(&session, reason, detail, &out)
      }
    case .pausedBySystem:
      // The engine paused itself while it was told to play.
      guard session.stage == .ready || session.stage == .stalled, playWhenReady, !suppressed
      else { return }
      session.systemPaused = true
      session.started = false
    case .window(_, let window):
      guard session.stage == .buffering || session.stage == .ready || session.stage == .stalled,
        Self.isValid(window)
      else { return }
      return receiveWindow(window, &session, &out)
    }
    current = session
  }

  private mutating func watchdog(_ load: Load, _ id: UInt32, _ out: inout [EngineCommand]) {
    if let leaving, leaving.load == load, leaving.timer == id { return leavingExpired(&out) }
    guard case .current(var session) = identify(load), id == session.lastWatchdog else { return }
    if session.fadingOut { return fadeExpired(&session, &out) }
    switch session.stage {
    case .waiting:
      // The backoff expired: reload.
      reload(&out)
    case .buffering, .stalled:
      fail(&session, .timeout, nil, &out)
      current = session
    case .ready, .ended, .failed:
      return
    }
  }

  private func fail(
    _ session: inout Current, _ reason: FailureReason, _ detail: FailureDetail?,
    _ out: inout [EngineCommand]
  ) {
    session.stage = .failed
    session.reason = reason
    session.seekPending = false
    session.started = false
    // A failure ends a fade: the load is stopped (the fade's expiry is then stale).
    session.fadingOut = false
    session.failure = detail
    out.append(.stop(session.load))
  }

  /// Sends `start` for the current load when the user wants to play and no
  /// interruption or `.pause` duck holds the engine; a start ends a system pause.
  func startIfWanted(_ session: inout Current, _ out: inout [EngineCommand]) {
    guard playWhenReady, !interrupted, !duckHolds else { return }
    out.append(.start(session.load, rate: playingRate(of: session)))
    session.started = true
    session.systemPaused = false
  }

  // MARK: The system

  private mutating func system(_ event: SystemEvent, _ out: inout [EngineCommand]) {
    switch event {
    case .interruptionBegan:
      guard !interrupted else { return }
      // The outgoing load of a crossfade stops at once (ContractCrossfade.swift).
      stopCrossfade(&out)
      if var session = current, session.fadingOut {
        // The hold ends the fade at once.
        endFadeEarly(&session, &out)
        current = session
      } else if var session = current, playWhenReady,
        session.stage == .ready || session.stage == .stalled
      {
        if duckHolds {
          // A `.pause` duck paused the engine already.
        } else if session.systemPaused {
          // The engine is silent already: the interruption takes the pause over.
          session.systemPaused = false
        } else {
          out.append(.pause(session.load))
          session.started = false
        }
        current = session
      }
      interrupted = true
    case .interruptionEnded(let shouldResume):
      guard interrupted else { return }
      interrupted = false
      guard shouldResume else {
        // Without the hint the player stays paused: the intent becomes pause.
        playWhenReady = false
        return
      }
      if var session = current, playWhenReady, !session.systemPaused, !duckHolds,
        session.stage == .ready || session.stage == .stalled
      {
        out.append(.start(session.load, rate: playingRate(of: session)))
        session.started = true
        current = session
      }
    case .routeLost:
      // A pause the user did not make; it never resumes by itself, and is
      // silent at once (never a fade): a fade under way ends at once.
      if var session = current, session.fadingOut {
        endFadeEarly(&session, &out)
        current = session
        return
      }
      guard current != nil, playWhenReady else { return }
      stopCrossfade(&out)
      pause(fading: false, &out)
    case .networkLost:
      guard var session = current, session.stage == .buffering || session.stage == .stalled
      else { return }
      waitForNetwork(&session, nil, &out)
      current = session
    case .networkAvailable:
      guard current?.stage == .waiting else { return }
      reload(&out)
    case .sleepTimerExpired:
      expireSleep(&out)
    case .duckBegan: duckBegan(&out)
    case .duckEnded: duckEnded(&out)
    }
  }

  /// The load failed for want of the network: it is stopped, and waits (the
  /// backoff timer armed with the next watchdog id) if the policy allows
  /// another reload; otherwise it fails with `network`.
  private func waitForNetwork(
    _ session: inout Current, _ detail: FailureDetail?, _ out: inout [EngineCommand]
  ) {
    guard session.attempts < retry.attempts, session.lastWatchdog < UInt32.max else {
      return fail(&session, .network, detail, &out)
    }
    fail(&session, .network, detail, &out)
    session.stage = .waiting
    session.reason = nil
    session.lastWatchdog += 1
  }

  /// The backoff before the reload after `attempts` earlier reloads:
  /// `backoff × 2^attempts`, at most `maximumBackoff`, in milliseconds.
  package func backoff(after attempts: UInt8) -> Int64 {
    let maximum = retry.maximumBackoff.roundedMilliseconds
    var delay = retry.backoff.roundedMilliseconds
    for _ in 0..<attempts where delay < maximum {
      delay = delay > Int64.max / 2 ? Int64.max : delay * 2
    }
    return min(delay, maximum)
  }

  /// The network is back or the backoff expired: the same entry loads
  /// again at its last known position under a new token, one more attempt counted.
  private mutating func reload(_ out: inout [EngineCommand]) {
    guard let waiting = current, issued < UInt32.max else { return }
    current = nil
    left = waiting.load
    // A live load reloads at its edge: its old position has left the window (ContractLive.swift).
    if waiting.window != nil { enterAtLiveEdge(&out) } else { enter(from: waiting.position, &out) }
    current?.attempts = waiting.attempts + 1
  }
}
