import PlayerEngine
import PlayerState

/// A catalog of deliberately broken players: the proof that the harness
/// catches real bugs, and a yardstick for how fast (see docs/fuzzing.md).
///
/// Each is Playhead's reducer behind a driver with one classic mistake, so
/// that everything else is right and the harness must find the one ordering
/// that exposes it. ``minimalLength`` is the length of the shortest failing
/// case, which the shrinker is expected to reach.
package struct BuggyPlayer: Hashable, Sendable, CustomStringConvertible {
  /// The mistakes.
  package enum Bug: String, Hashable, Sendable, CaseIterable {
    /// The seeds' two-Bool player: a late `ready` starts playback whatever the
    /// user did since (stop, pause), because the callback is treated as a command.
    case twoBools
    /// Reports are applied to the current load whatever load they name.
    case ignoresIdentity
    /// Reports are matched on media only, so a token of another load of the
    /// same media (another entry, or a token never issued) passes.
    case checksMediaNotToken
    /// A repeated `ready` for the current load starts the engine again.
    case doubleStartOnRepeatedReady
    /// A user `stop` goes idle without telling the engine.
    case stopNotSent
    /// `pause` during the first buffering is dropped, so `ready` starts playback.
    case pauseLostWhileBuffering
    /// `stalled` and `ended` reports are applied whatever load they name.
    case staleStallOrEndAccepted
    /// A report sent from inside `execute` is processed at once, recursively,
    /// against the state from before the command; the outer step then overwrites it.
    case reentrantProcessedRecursively
    /// A seek completion counts whatever seek id it names.
    case supersededSeekCompletes
    /// A watchdog expiry fails the current load whatever its id and stage.
    case staleWatchdogFires
    /// A duplicated `ended` of the entry just left is applied to the new
    /// current entry: the queue advances twice.
    case advanceTwiceOnDuplicatedEnd
    /// A `ready` for a dropped preload (stopped by an edit) marks the new preload ready.
    case droppedPreloadReportAccepted
    /// Repeat one restarts the entry at its end with `start` alone, without
    /// the seek to zero (so it plays on from the end, or from wherever the engine is).
    case repeatOneStartsWithoutSeek
    /// Removing the current entry while its load is live is dropped: the load
    /// keeps playing an entry the user removed.
    case removeCurrentKeepsLoad
    /// `previous` always goes to the previous entry, even past the threshold
    /// (where it must restart the current one).
    case previousIgnoresThreshold
    /// The shuffled order is not the documented draw from the seed (the
    /// entries after the current one come reversed): a run does not replay.
    case shuffleNotReplayable
    /// The system-pause flag lives on the player, not on the load: after a
    /// `pausedBySystem` the next item is held too, so its `ready` starts the
    /// engine while the player says it is suppressed.
    case systemPauseKeptAcrossItems
    /// An interruption's end with the resume hint resumes whatever the user
    /// did during the interruption (the player remembers "was playing" when it began).
    case resumesAfterUserPauseInInterruption
    /// A `ready` that arrives during an interruption starts the engine (the
    /// ready callback does not look at the interruption).
    case readyDuringInterruptionStarts
    /// The backoff timer is not cancelled by a stop: it fires later and reloads
    /// the entry the user stopped.
    case staleBackoffReloads
    /// An interruption's end without the resume hint resumes anyway (the hint is not read).
    case interruptionEndWithoutHintResumes
    /// Route loss is handled as an interruption, not as a pause: the player
    /// still wants to play and resumes when a later interruption ends.
    case routeLossResumesLater
    /// The reload after waiting for the network reuses the waiting load's token.
    case retryReusesToken
    /// The reducer is built with `previous`'s threshold at 3 s whatever the
    /// configuration says (`PlayerConfiguration.previousThreshold` ignored).
    case ignoresPreviousThreshold
    /// The backoff doubles without its cap (`RetryPolicy.maximumBackoff` ignored).
    case backoffCapIgnored
    /// The driver schedules every watchdog at once, instead of after the clock's
    /// timeout: in production every load fails the moment it starts.
    case watchdogAtZero
  }

  /// The mistake.
  package let bug: Bug

  /// A buggy player.
  package init(_ bug: Bug) { self.bug = bug }

  /// Every buggy player.
  package static let catalog = Bug.allCases.map(BuggyPlayer.init)

  /// The bug's name, as in `twoBools`.
  package var name: String { bug.rawValue }

  /// The length of the shortest case that exposes the bug.
  package var minimalLength: Int {
    switch bug {
    case .twoBools: 2  // queue(A, paused), ready(A#1)
    case .ignoresIdentity: 2  // play(A), ready(B#1)
    case .checksMediaNotToken: 2  // play(A), ready(A#2)
    case .doubleStartOnRepeatedReady: 3  // play(A), ready(A#1), ready(A#1)
    case .stopNotSent: 2  // play(A), stop
    case .pauseLostWhileBuffering: 3  // play(A), pause, ready(A#1)
    case .staleStallOrEndAccepted: 3  // play(A), ready(A#1), stalled(A#2)
    case .reentrantProcessedRecursively: 2  // reentrant ready(A#1), play(A)
    case .supersededSeekCompletes: 3  // play(A), seek(0ms), seeked(A#1, seek#2)
    case .staleWatchdogFires: 2  // play(A), timeout(A#1, watchdog#2)
    // queue(A B), ready(A#1), ended(A#1), ready(B#2), ended(A#1)
    case .advanceTwiceOnDuplicatedEnd: 5
    // engine preload=yes: queue(A B), ready(A#1), insert(C, at 2), ready(B#2)
    case .droppedPreloadReportAccepted: 4
    case .repeatOneStartsWithoutSeek: 4  // play(A), repeat(one), ready(A#1), ended(A#1)
    case .removeCurrentKeepsLoad: 2  // queue(A B), remove(1)
    case .previousIgnoresThreshold: 2  // queue(A B, start 2, from 3001ms), previous
    case .shuffleNotReplayable: 2  // queue(A B C), shuffle(seed 1)
    // play(A), ready(A#1), pausedBySystem(A#1), play(B), ready(B#2)
    case .systemPauseKeptAcrossItems: 5
    // interrupt begin, queue(A, paused), interrupt end resume, ready(A#1)
    case .resumesAfterUserPauseInInterruption: 4
    case .readyDuringInterruptionStarts: 3  // play(A), interrupt begin, ready(A#1)
    // play(A), failed(A#1, network), stop, timeout(A#1, watchdog#2)
    case .staleBackoffReloads: 4
    // play(A), ready(A#1), interrupt begin, interrupt end
    case .interruptionEndWithoutHintResumes: 4
    case .routeLossResumesLater: 3  // play(A), ready(A#1), route lost
    case .retryReusesToken: 3  // play(A), failed(A#1, network), network available
    // engine preload=no previous=1000ms: queue(A B, start 2, from 2000ms), previous
    case .ignoresPreviousThreshold: 2
    // engine preload=no retry=3/500ms/800ms: play(A), failed(A#1, network),
    // network available, failed(A#2, network) (the second backoff is capped)
    case .backoffCapIgnored: 4
    case .watchdogAtZero: 1  // play(A)
    }
  }

  /// The player as a fuzz subject.
  package var subject: FuzzSubject {
    let bug = bug
    return FuzzSubject(
      name: bug.rawValue, swiftExpression: "BuggyPlayer(.\(bug.rawValue)).subject"
    ) { (engine: any PlaybackEngine) -> any FuzzTarget in CatalogPlayer(bug: bug, engine: engine) }
    .reading(.all)
  }

  /// The player as a thread-safe fuzz subject, for ``ConcurrentFuzz``: its
  /// driver is already serial (the thread that finds it idle drains every
  /// event sent meanwhile, in arrival order), and it reports each event it
  /// reduces through ``FuzzEngine/onProcessed(for:)``. (The recursive driver
  /// of `reentrantProcessedRecursively` is not serial: the concurrent mode
  /// reports its events as lost.)
  package var concurrentSubject: FuzzSubject {
    let bug = bug
    return FuzzSubject.threadSafe(
      name: bug.rawValue, swiftExpression: "BuggyPlayer(.\(bug.rawValue)).concurrentSubject"
    ) { (engine: any PlaybackEngine) -> any FuzzTarget & Sendable in
      CatalogPlayer(bug: bug, engine: engine)
    }
    .reading(.all)
  }

  /// The bug's name.
  package var description: String { name }
}

/// Playhead's reducer behind a driver with one mistake.
final class CatalogPlayer: FuzzTarget, Sendable {
  private struct Core {
    var state = PlaybackState()
    var lastLoaded: Load?
    /// Each loaded item's media, from the `load` and `preload` commands.
    var media: [ItemID: MediaID] = [:]
    /// The load of the newest accepted `ended` that left its entry.
    var lastEnded: Load?
    /// Preloads stopped before they became current.
    var droppedPreloads: Set<Load> = []
    var queue: [PlaybackEvent] = []
    var draining = false
    /// The watchdog the last reduced event asks for, scheduled after its commands.
    var requested: WatchdogRequest?
    /// systemPauseKeptAcrossItems: the player-wide system-pause flag.
    var heldBySystem = false
    /// resumesAfterUserPauseInInterruption: whether the user wanted to play when the interruption began.
    var wasPlaying = false
    /// staleBackoffReloads: the backoff timers armed, never cancelled.
    var backoffs: Set<Load> = []
  }

  private let bug: BuggyPlayer.Bug
  private let engine: any PlaybackEngine
  private let watchdog: WatchdogPolicy
  /// The concurrent mode's record of the processing order; nil otherwise.
  private let processed: (@Sendable (PlaybackEvent) -> Void)?
  private let core = Locked(Core())

  init(bug: BuggyPlayer.Bug, engine: any PlaybackEngine) {
    self.bug = bug
    self.engine = engine
    watchdog = FuzzEngine.watchdog(for: engine)
    processed = FuzzEngine.onProcessed(for: engine)
    var configuration = FuzzEngine.configuration(for: engine)
    switch bug {
    case .ignoresPreviousThreshold: configuration.previousThreshold = .seconds(3)
    case .backoffCapIgnored: configuration.retry.maximumBackoff = .milliseconds(.max)
    default: break
    }
    core.withLock { $0.state.configuration = configuration }
  }

  /// What `FuzzObservation(state)` says, read in place under the lock: the
  /// state is not copied out (it was a third of a catalog run's time).
  var observation: FuzzObservation {
    core.withLock { core in
      let session = core.state.session
      let queue = core.state.queue
      return FuzzObservation(
        kind: core.state.kind, isPlaying: core.state.isPlaying,
        seekPending: session?.seekPending ?? false,
        queue: FuzzObservation.fingerprint(
          items: queue.entries.lazy.map(\.item), current: queue.current,
          repeatMode: queue.repeatMode, shuffleSeed: queue.shuffle?.seed),
        loads: (session?.load, core.state.preload?.load), position: session?.position,
        preloadReady: core.state.preload?.stage == .ready, failure: .some(core.state.failure))
    }
  }

  var stateDescription: String { core.withLock { $0.state.description } }

  func send(_ event: PlaybackEvent) {
    if bug == .reentrantProcessedRecursively {
      // The mistake: reduce now, run the commands (whose re-entrant reports
      // recurse into `send` and see the old state), then commit.
      let transition = core.withLock { $0.state.transition(on: event) }
      perform(Array(transition.commands))
      core.withLock { $0.state = transition.next }
      schedule(transition.watchdog)
      return
    }
    var commands = core.withLock { core -> [EngineCommand]? in
      guard !core.draining else {
        core.queue.append(event)
        return nil
      }
      core.draining = true
      return reduce(event, &core)
    }
    while let current = commands {
      perform(current)
      schedule(
        core.withLock { core in
          defer { core.requested = nil }
          return core.requested
        })
      commands = core.withLock { core -> [EngineCommand]? in
        guard !core.queue.isEmpty else {
          core.draining = false
          return nil
        }
        return reduce(core.queue.removeFirst(), &core)
      }
    }
  }

  private func schedule(_ request: WatchdogRequest?) {
    guard let request else { return }
    var after = request.delay.map { Duration.milliseconds($0.milliseconds) } ?? watchdog.timeout
    if bug == .watchdogAtZero, request.delay == nil { after = .zero }
    watchdog.schedule(after) { [weak self] in
      self?.send(.watchdogExpired(request.load, request.id))
    }
  }

  private func perform(_ commands: [EngineCommand]) {
    let sink = ReportSink { [weak self] report in self?.send(.engine(report)) }
    for command in commands { engine.execute(command, reports: sink) }
  }

  private func reduce(_ event: PlaybackEvent, _ core: inout Core) -> [EngineCommand] {
    // Under the lock, so in processing order.
    processed?(event)
    // Reads of the state before the event, without copying it: the reducer
    // then runs in place.
    let session = core.state.session
    let preloadBefore = core.state.preload?.load
    var event = event
    switch (bug, event) {
    case (.twoBools, .engine(.ready(let load, _))) where load == core.lastLoaded:
      // The callback is taken as a command: start, whatever the user did since.
      if var session, session.load == load {
        session.stage = .ready
        core.state.playWhenReady = true
        core.state.session = session
      }
      return [.start(load, rate: core.state.rate)]
    case (.ignoresIdentity, .engine(let report)):
      if let session { event = .engine(report.withLoad(session.load)) }
    case (.ignoresIdentity, .watchdogExpired(_, let id)):
      if let session { event = .watchdogExpired(session.load, id) }
    case (.checksMediaNotToken, .engine(let report)):
      if let session, let media = core.media[session.load.item],
        core.media[report.load.item] == media
      {
        event = .engine(report.withLoad(session.load))
      }
    case (.doubleStartOnRepeatedReady, .engine(.ready(let load, _))):
      if let session, session.load == load, session.stage == .ready, core.state.playWhenReady {
        return [.start(load, rate: core.state.rate)]
      }
    case (.stopNotSent, .user(.stop)):
      _ = core.state.handle(event)
      return []
    case (.pauseLostWhileBuffering, .user(.pause)):
      if session?.stage == .buffering { return [] }
    case (.staleStallOrEndAccepted, .engine(.stalled)),
      (.staleStallOrEndAccepted, .engine(.reachedEnd)):
      if let session, case .engine(let report) = event {
        event = .engine(report.withLoad(session.load))
      }
    case (.supersededSeekCompletes, .engine(.seekCompleted(let load, _))):
      if let session { event = .seekCompleted(load, session.lastSeek) }
    case (.advanceTwiceOnDuplicatedEnd, .engine(.reachedEnd(let load))):
      if load == core.lastEnded, let session, session.load != load {
        event = .reachedEnd(session.load)
      }
    case (.droppedPreloadReportAccepted, .engine(.ready(let load, let duration))):
      if core.droppedPreloads.contains(load), let preload = core.state.preload {
        event = .ready(preload.load, duration: duration)
      }
    case (.removeCurrentKeepsLoad, .user(.remove(let at))):
      if session != nil, at == core.state.queue.current { return [] }
    case (.previousIgnoresThreshold, .user(.previous)):
      if let session, let at = core.state.queue.current, at > 0,
        session.position > core.state.configuration.previousThreshold
      {
        if case .failed = session.stage { break }
        event = .user(.jump(to: at - 1))
      }
    case (.resumesAfterUserPauseInInterruption, .system(.interruptionBegan)):
      if !core.state.interrupted { core.wasPlaying = core.state.playWhenReady }
    case (.resumesAfterUserPauseInInterruption, .system(.interruptionEnded(shouldResume: true))):
      // The mistake: the intent from before the interruption comes back.
      if core.state.interrupted, core.wasPlaying { core.state.playWhenReady = true }
    case (.readyDuringInterruptionStarts, .engine(.ready(let load, _))):
      if let session, session.load == load, session.stage == .buffering, core.state.interrupted,
        core.state.playWhenReady
      {
        _ = core.state.handle(event)
        return [.start(load, rate: core.state.rate)]
      }
    case (.staleBackoffReloads, .watchdogExpired(let load, _)):
      // The mistake: a backoff armed before a stop still reloads.
      if session == nil, core.backoffs.contains(load) { event = .resume }
    case (.interruptionEndWithoutHintResumes, .system(.interruptionEnded(shouldResume: false))):
      event = .system(.interruptionEnded(shouldResume: true))
    case (.routeLossResumesLater, .system(.routeLost)):
      event = .system(.interruptionBegan)
    case (.staleWatchdogFires, .watchdogExpired(let load, _)):
      if var session, session.load == load {
        if case .failed = session.stage { break }
        session.stage = .failed(.timeout)
        session.seekPending = false
        core.state.session = session
        return [.stop(load)]
      }
    default:
      break
    }
    var effects = core.state.handle(event)
    if bug == .repeatOneStartsWithoutSeek, case .engine(.reachedEnd) = event,
      effects.ignored == nil, var next = core.state.session, next.seekPending,
      effects.commands.contains(where: { $0.kind == .seek })
    {
      // The mistake: replay with `start` alone, no seek.
      next.seekPending = false
      core.state.session = next
      var commands = CommandList()
      for command in effects.commands where command.kind != .seek { commands.append(command) }
      effects.commands = commands
    }
    if bug == .shuffleNotReplayable, case .user(.setShuffle(.some)) = event,
      effects.ignored == nil, core.state.queue.entries.count > 2
    {
      // The mistake: the entries after the current one come reversed.
      let queue = core.state.queue
      let first = Array(queue.entries.prefix(1))
      core.state.queue = PlayQueue(
        entries: first + queue.entries.dropFirst().reversed(), current: queue.current,
        repeatMode: queue.repeatMode, shuffle: queue.shuffle)
    }
    if case .engine(.reachedEnd(let load)) = event, effects.ignored == nil,
      core.state.session?.load != load
    {
      core.lastEnded = load
    }
    if let preload = preloadBefore, core.state.session?.load != preload,
      core.state.preload?.load != preload
    {
      core.droppedPreloads.insert(preload)
    }
    if bug == .systemPauseKeptAcrossItems, let now = core.state.session {
      // The mistake: the flag is the player's, so a new load inherits it.
      if now.load == session?.load {
        core.heldBySystem = now.systemPaused
      } else if core.heldBySystem {
        core.state.session?.systemPaused = true
      }
    }
    if let request = effects.watchdog, request.delay != nil { core.backoffs.insert(request.load) }
    if bug == .retryReusesToken, let before = session, before.stage == .waitingForNetwork,
      let now = core.state.session, now.load.item == before.load.item, now.load != before.load
    {
      // The mistake: the reload goes out under the waiting load's token.
      var commands = CommandList()
      for command in effects.commands {
        if case .load(let request) = command, request.load == now.load {
          commands.append(
            .load(LoadRequest(load: before.load, media: request.media, start: request.start)))
        } else {
          commands.append(command)
        }
      }
      effects.commands = commands
    }
    core.requested = effects.watchdog
    for command in effects.commands {
      switch command {
      case .load(let request):
        core.lastLoaded = request.load
        core.media[request.load.item] = request.media
      case .preload(let request):
        core.media[request.load.item] = request.media
      default: break
      }
    }
    return Array(effects.commands)
  }
}
