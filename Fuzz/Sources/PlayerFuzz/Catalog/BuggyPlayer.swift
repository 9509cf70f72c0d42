import PlayerEngine
import PlayerState

/// A catalog of deliberately broken players: the proof that the harness
/// catches real bugs, and a yardstick for how fast (see docs/fuzzing.md).
///
/// Each is Playhead's reducer behind a driver with one classic mistake, so
/// that everything else is right and the harness must find the one ordering
/// that exposes it. ``minimalLength`` is the length of the shortest failing
/// case, which the shrinker is expected to reach.
package struct BuggyPlayer: PlantedMistakes {
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
    /// A `pause` while the system holds the load (`pausedBySystem`) leaves the
    /// system-pause flag set: the commands are right, the state says
    /// `paused(A#1, system pause)`.
    case pauseKeepsSystemPause
    /// The identity check does not tell a token never issued from a stale one:
    /// both are ignored as `staleLoad`.
    case neverIssuedCalledStale
    /// At the last seek id a seek is refused (`idsExhausted`), but its target
    /// is kept as the last known position: an ignored event changes the state.
    /// Only a start state reaches it (``startsFromGivenStates``).
    case exhaustedSeekMovesPosition
    /// `queueEnded` is published from the state, not from the step (level,
    /// not edge): every event reduced while the last entry is ended publishes
    /// it again, an ignored duplicate `ended` included (RNTP #2060).
    case queueEndedTwice
    /// A seek inside an entry is published as an entry change (`A -> A`,
    /// skip), as a position discontinuity taken for a transition (RNTP #2409,
    /// androidx/media #3248).
    case entryChangedOnSeek
    /// Now playing publishes `playWhenReady ? rate : 0` (SwiftAudioEx): the
    /// lock screen's time runs while the entry loads or stalls (RNTP #1426).
    case rateWhileBuffering
    /// `skip(by:)` seeks from the last completed position, not from the
    /// pending seek's target: two presses land on the same time (SwiftAudioEx,
    /// feishin #2083).
    case skipFromStaleTime
    /// `toggle` reads `isPlaying` and acts: a buffering player that wants to
    /// play is "not playing", so the button plays again instead of pausing
    /// (gumroad-mobile #189).
    case toggleReadsIsPlaying
    /// Now playing publishes the last reported position as the elapsed time,
    /// not the anchor: the lock screen's time jumps at every position report
    /// (the anchor must move only at a discontinuity).
    case elapsedFromLastReport
    /// `next` is offered whenever the queue holds more than one entry, even
    /// at the last with repeat off, where it does nothing (RNTP #508,
    /// androidx/media #1708).
    case nextOfferedAtLastEntry
    /// The saved position is applied to whatever entry is current when the
    /// restored player first loads, not only to the entry it was saved with
    /// (tempus PR #1055, Musify PR #956).
    case positionIntoWrongEntry
    /// A restored player resumes on its own, as if the app's restore were a
    /// play: it loads the saved entry at once, before any intent.
    case restoreAutoPlays
    /// After a relaunch, the first intent that loads (a UI play) and the
    /// restore's own resume both load: the engine gets two loads, the second
    /// without a stop of the first.
    case uiPlayAndRestoreBothLoad
    /// A countdown's expiry is acted on whatever countdown it names: the
    /// timer of a countdown the user cancelled or replaced is not cancelled,
    /// and pauses (and disarms) when it fires.
    case staleSleepExpiryPauses
    /// The preload ignores the sleep timer: a gapless engine is handed the
    /// next entry while the timer stops at the end of this one (it would roll
    /// into it at the end).
    case endOfEntryLosesToGapless
    /// The duck is applied to the user's volume, not kept apart as a
    /// multiplier (what react-native-track-player leaves to each app): the
    /// lowered level is written over the user's volume, so the duck's end
    /// restores the lowered level and the volume stays low after the call.
    case duckOverwritesVolume
    /// The duck's end restores the volume saved when it began: a volume the
    /// user set during the duck is lost (Media3's AudioFocusManager keeps the
    /// duck as a separate multiplier for this).
    case duckEndRestoresStaleVolume
    /// A new load is not given the volume: the engine starts it at full volume,
    /// so after a skip while at 0.5 (or muted, or ducked) the next entry plays at 1.
    case newLoadAtFullVolume
    /// A duck with the `.pause` policy is taken for the user's pause: the play
    /// intent becomes pause, so the duck's end does not resume.
    case pauseDuckFlipsIntent
    /// A resume during a fade-out the user's pause started is taken for a
    /// resume of a paused load (the pause button's handler remembers "I paused"):
    /// the engine, which never stopped playing, is sent `setVolume(L, 0)` and
    /// `start` again (a restart from silence, not a ramp back from where it is).
    case resumeDuringFadeStarts
    /// The fade's timer is not cancelled by a resume: when it fires it pauses
    /// the load the user resumed (the classic race of a fade's timer).
    case staleFadeExpiryPauses
    /// A new load opens without the `stop` of the load fading out into a stop:
    /// two loads are audible, and the leaving one is never stopped.
    case stopFadeNeverStopped
    /// The fade's expiry pauses the load and leaves it at 0: the next resume
    /// plays silent.
    case fadeExpiryForgetsVolume
    /// The outgoing load of a crossfade calls back `ended` after its `stop`,
    /// and the driver (one `ended` handler for "the player") takes it for the
    /// current entry's end: the queue advances a second time (the classic race
    /// of two rotating players).
    case crossfadeLateEndAdvances
    /// A skip (any transition that opens a load) during a crossfade stops the
    /// incoming load but forgets the outgoing one: it plays on beside the new entry.
    case crossfadeSkipKeepsOutgoing
    /// The crossfade's start issues the next entry's preload at once, as a
    /// gapless advance would: three live loads.
    case crossfadePreloadsAtStart
    /// The driver stops the outgoing load when its own timer fires, whatever
    /// stopped it first: a load that ended inside the fade is stopped twice.
    case crossfadeStopsOutgoingTwice
    /// The driver sends a seek of a DVR load as the user asked: not clamped
    /// to the window (the engine is asked for media past the live edge, or
    /// the window has left).
    case seekPastLiveEdge
    /// The snapshot keeps the last known position of a live load whatever the
    /// window holds (the on-demand rule): a relaunch opens the stream at a
    /// position it no longer has.
    case restoreIntoVanishedPosition
    /// A load that fell behind its window is reloaded from its old position
    /// (Media3's `prepare()` without `seekToDefaultPosition()`), not at the
    /// live edge.
    case reloadAtOldPositionAfterFallingBehind
    /// The lock screen shows a live load as on-demand media: not live, with
    /// the duration its `ready` carried.
    case progressShownForLive
  }

  /// The mistake.
  package let bug: Bug

  /// A buggy player.
  package init(_ bug: Bug) { self.bug = bug }

  /// The mistake (``PlantedMistakes``).
  package var mistake: Bug { bug }

  /// The length of the shortest case that exposes the bug.
  package var minimalLength: Int {
    switch bug {
    case .twoBools: 2  // queue(A, paused), ready(A#1)
    case .ignoresIdentity: 2  // play(A), ready(B#1)
    case .checksMediaNotToken: 2  // play(A), ready(A#2)
    case .doubleStartOnRepeatedReady: 3  // play(A), ready(A#1), ready(A#1)
    case .stopNotSent: 2  // play(A), stop
    // play(A), pause: the intent is visible before the ready that starts playback.
    case .pauseLostWhileBuffering: 2
    // play(A), stalled(A#2): ignored for the wrong reason (unexpected, not never issued).
    case .staleStallOrEndAccepted: 2
    case .reentrantProcessedRecursively: 2  // reentrant ready(A#1), play(A)
    case .supersededSeekCompletes: 3  // play(A), seek(0ms), seeked(A#1, seek#2)
    case .staleWatchdogFires: 2  // play(A), timeout(A#1, watchdog#2)
    // queue(A B), ready(A#1), ended(A#1), ended(A#1): the duplicate, applied
    // to the buffering B#2, is ignored as unexpected, not as stale.
    case .advanceTwiceOnDuplicatedEnd: 4
    // engine preload=yes: queue(A B), ready(A#1), insert(C, at 2), ready(B#2)
    case .droppedPreloadReportAccepted: 4
    case .repeatOneStartsWithoutSeek: 4  // play(A), repeat(one), ready(A#1), ended(A#1)
    case .removeCurrentKeepsLoad: 2  // queue(A B), remove(1)
    case .previousIgnoresThreshold: 2  // queue(A B, start 2, from 3001ms), previous
    case .shuffleNotReplayable: 2  // queue(A B C), shuffle(seed 1)
    // play(A), ready(A#1), pausedBySystem(A#1), play(B): B#2 starts system-paused.
    case .systemPauseKeptAcrossItems: 4
    // interrupt begin, queue(A, paused), interrupt end resume: the intent comes back.
    case .resumesAfterUserPauseInInterruption: 3
    case .readyDuringInterruptionStarts: 3  // play(A), interrupt begin, ready(A#1)
    // play(A), failed(A#1, network), stop, timeout(A#1, watchdog#2)
    case .staleBackoffReloads: 4
    // interrupt begin, interrupt end: the intent stays play.
    case .interruptionEndWithoutHintResumes: 2
    case .routeLossResumesLater: 1  // route lost: interrupted, where the contract ignores it
    case .retryReusesToken: 3  // play(A), failed(A#1, network), network available
    // engine preload=no previous=1000ms: queue(A B, start 2, from 2000ms), previous
    case .ignoresPreviousThreshold: 2
    // engine preload=no retry=3/500ms/800ms: play(A), failed(A#1, network),
    // network available, failed(A#2, network) (the second backoff is capped)
    case .backoffCapIgnored: 4
    case .watchdogAtZero: 1  // play(A)
    // play(A), ready(A#1), pausedBySystem(A#1), pause
    case .pauseKeepsSystemPause: 4
    case .neverIssuedCalledStale: 1  // ready(item1#1)
    // start(… session=N:ready seek=4294967295 …): seek(0ms)
    case .exhaustedSeekMovesPosition: 1
    // play(A), ready(A#1), ended(A#1), ended(A#1): the ignored duplicate notifies again.
    case .queueEndedTwice: 4
    case .entryChangedOnSeek: 2  // play(A), seek(0ms)
    case .rateWhileBuffering: 1  // play(A): buffering, published at 1x
    case .skipFromStaleTime: 3  // play(A), skip(+15s), skip(+15s): 15 s, not 30 s
    case .toggleReadsIsPlaying: 2  // play(A), toggle: plays again instead of pausing
    case .elapsedFromLastReport: 2  // play(A), position(A#1, 1000ms): the anchor stays at 0
    case .nextOfferedAtLastEntry: 1  // queue(A A, start 2): next does nothing there
    // play(A, from 1000ms), relaunch, play(A): the new entry loads from 1000 ms.
    case .positionIntoWrongEntry: 3
    case .restoreAutoPlays: 2  // play(A), relaunch: load(A#1) before any intent
    case .uiPlayAndRestoreBothLoad: 3  // play(A), relaunch, resume: load(A#1) load(A#2)
    // setSleepTimer(after(1000ms)), setSleepTimer(off), sleepTimer(expired, sleep#1): accepted.
    case .staleSleepExpiryPauses: 3
    // engine preload=yes: setSleepTimer(endOfEntry), queue(A B), ready(A#1): preload(B#2).
    case .endOfEntryLosesToGapless: 3
    case .duckOverwritesVolume: 1  // duck: the user's volume becomes the lowered level
    // duck, volume(0.5), unduck: the volume from before the duck comes back.
    case .duckEndRestoresStaleVolume: 3
    case .newLoadAtFullVolume: 2  // volume(0.5), play(A): load(A#1) without its setVolume
    case .pauseDuckFlipsIntent: 2  // engine duck=pause: play(A), duck: paused
    // engine fade=200ms: play(A), ready(A#1), pause, resume: start(A#1) again.
    case .resumeDuringFadeStarts: 4
    // play(A), ready(A#1), pause, resume, timeout(A#1, watchdog#2): paused.
    case .staleFadeExpiryPauses: 5
    case .stopFadeNeverStopped: 4  // play(A), ready(A#1), stop, resume: load(A#2) beside A#1
    // play(A), ready(A#1), pause, timeout(A#1, watchdog#2): no setVolume(A#1, 1).
    case .fadeExpiryForgetsVolume: 4
    // engine preload=yes crossfade=1000ms: queue(A B), ready(A#1, duration 10000ms), ready(B#2),
    // position(A#1, 9500ms), timeout(A#1, watchdog#2), ended(A#1): B#2 ends too.
    case .crossfadeLateEndAdvances: 6
    // queue(A B), ready(A#1, duration 10000ms), ready(B#2), position(A#1, 9500ms), previous:
    // load(A#3) beside the outgoing A#1.
    case .crossfadeSkipKeepsOutgoing: 5
    // queue(A B C), ready(A#1, duration 10000ms), ready(B#2), position(A#1, 9500ms): preload(C#3).
    case .crossfadePreloadsAtStart: 4
    // queue(A B), ready(A#1, duration 10000ms), ready(B#2), position(A#1, 9500ms), ended(A#1),
    // timeout(A#1, watchdog#2): stop(A#1) again.
    case .crossfadeStopsOutgoingTwice: 6
    // play(A), window(A#1, 60000ms…120000ms), seek(0ms): seek(A#1, 0ms), not 60000 ms.
    case .seekPastLiveEdge: 3
    // play(A), window(A#1, 120000ms…120000ms), snapshot: position 120000 ms, not none.
    case .restoreIntoVanishedPosition: 3
    // play(A), ready(A#1), failed(A#1, behindLiveWindow): load(A#2) from 0, not at live edge.
    case .reloadAtOldPositionAfterFallingBehind: 3
    case .progressShownForLive: 2  // play(A), window(A#1, 120000ms…120000ms): not live
    }
  }

  /// Whether the player starts from generated states (``FuzzSubject/Inputs/startState``)
  /// in the catalog's runs: only where the bug needs one (ids near
  /// exhaustion). The others start from a new player, so that their minimal
  /// lengths count the actions from one (a start state stands for any prefix).
  package var startsFromGivenStates: Bool { bug == .exhaustedSeekMovesPosition }

  /// Whether the mistake is one of volume's (issue 37).
  package var isVolumeBug: Bool {
    switch bug {
    case .duckOverwritesVolume, .duckEndRestoresStaleVolume, .newLoadAtFullVolume,
      .pauseDuckFlipsIntent:
      true
    default: false
    }
  }

  /// Whether the mistake is one of fades' (issue 37, item 2).
  package var isFadeBug: Bool {
    switch bug {
    case .resumeDuringFadeStarts, .staleFadeExpiryPauses, .stopFadeNeverStopped,
      .fadeExpiryForgetsVolume:
      true
    default: false
    }
  }

  /// Whether the mistake is one of crossfade's (issue 37, item 3).
  package var isCrossfadeBug: Bool {
    switch bug {
    case .crossfadeLateEndAdvances, .crossfadeSkipKeepsOutgoing, .crossfadePreloadsAtStart,
      .crossfadeStopsOutgoingTwice:
      true
    default: false
    }
  }

  /// Whether the mistake is one of live streams' (issue 38).
  package var isLiveBug: Bool {
    switch bug {
    case .seekPastLiveEdge, .restoreIntoVanishedPosition, .reloadAtOldPositionAfterFallingBehind,
      .progressShownForLive:
      true
    default: false
    }
  }

  /// What the catalog's player reads from the harness (every one schedules
  /// its sleep countdowns on the harness's clock). Every player takes volume,
  /// fades, crossfade and live streams, but only their own mistakes say so (each its own):
  /// the others are fuzzed without them and draw exactly the cases they drew
  /// before them (so their measured figures stand).
  private var inputs: FuzzSubject.Inputs {
    var inputs: FuzzSubject.Inputs =
      startsFromGivenStates
      ? .all : [.retryPolicy, .configuration, .sleepTimer, .volume, .fade, .crossfade, .live]
    if !isVolumeBug { inputs.remove(.volume) }
    if !isLiveBug { inputs.remove(.live) }
    if !isFadeBug { inputs.remove(.fade) }
    if !isCrossfadeBug { inputs.remove(.crossfade) }
    return inputs
  }

  /// The player as a fuzz subject.
  package var subject: FuzzSubject {
    let bug = bug
    return FuzzSubject(
      name: bug.rawValue, swiftExpression: "BuggyPlayer(.\(bug.rawValue)).subject"
    ) { (engine: any PlaybackEngine) -> any FuzzTarget in CatalogPlayer(bug: bug, engine: engine) }
    .reading(inputs)
    .restoring { engine, snapshot in CatalogPlayer(bug: bug, engine: engine, restoring: snapshot) }
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
    .reading(inputs)
  }
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
    /// The sleep countdown the last reduced event arms, scheduled after its watchdog.
    var requestedSleep: SleepTimerRequest?
    /// systemPauseKeptAcrossItems: the player-wide system-pause flag.
    var heldBySystem = false
    /// resumesAfterUserPauseInInterruption: whether the user wanted to play when the interruption began.
    var wasPlaying = false
    /// staleBackoffReloads: the backoff timers armed, never cancelled.
    var backoffs: Set<Load> = []
    /// Why the event being reduced was ignored (nil: accepted).
    var ignored: IgnoreReason?
    /// skipFromStaleTime: the current load and its position when no seek was pending.
    var settled: (load: Load, position: MediaTime)?
    /// positionIntoWrongEntry: the saved position, until the first load after a restore.
    var savedPosition: MediaTime?
    /// uiPlayAndRestoreBothLoad: a relaunch's restore not yet acted on.
    var restorePending = false
    /// duckEndRestoresStaleVolume: the user's volume when the duck began.
    var volumeAtDuck: Volume?
    /// staleFadeExpiryPauses: the fade timers armed, never cancelled.
    var fadeTimers: Set<WatchdogRequest> = []
    /// resumeDuringFadeStarts: the load the user's pause (or toggle) faded out.
    var pausedByUser: Load?
    /// The crossfades' outgoing loads and their timers.
    var crossfadedOut: [Load: WatchdogID] = [:]
    /// progressShownForLive: the duration each load's `ready` carried.
    var readyDurations: [Load: MediaTime] = [:]
  }

  private let bug: BuggyPlayer.Bug
  private let engine: any PlaybackEngine
  private let watchdog: WatchdogPolicy
  /// The concurrent mode's record of the processing order; nil otherwise.
  private let processed: (@Sendable (PlaybackEvent) -> Void)?
  /// The harness's record of each event's ignore reason; nil outside it.
  private let reduced: (@Sendable (IgnoreReason?) -> Void)?
  /// The harness's record of each event's notifications; nil outside it.
  private let notified: (@Sendable ([PlayerNotification]) -> Void)?
  private let core = Locked(Core())

  /// A player restored from `snapshot` (a relaunch, or a hand-off when
  /// `handingOff`), or nil when the snapshot cannot be restored.
  convenience init?(
    bug: BuggyPlayer.Bug, engine: any PlaybackEngine, restoring snapshot: PlaybackSnapshot,
    handingOff: Bool = false
  ) {
    guard
      let state = try? PlaybackState(
        restoring: snapshot, configuration: FuzzEngine.configuration(for: engine))
    else { return nil }
    self.init(bug: bug, engine: engine, state: state)
    core.withLock { core in
      if bug == .positionIntoWrongEntry, snapshot.position > .zero {
        core.savedPosition = snapshot.position
      }
      core.restorePending =
        bug == .uiPlayAndRestoreBothLoad && !handingOff && snapshot.current != nil
    }
    // The mistake: the restore is taken for a play.
    if bug == .restoreAutoPlays, !handingOff { send(.resume) }
  }

  /// The player's snapshot (`PlaybackState.snapshot`).
  var playbackSnapshot: PlaybackSnapshot? {
    core.withLock { core in
      var snapshot = core.state.snapshot
      if bug == .restoreIntoVanishedPosition, let session = core.state.session,
        session.window != nil, session.stage != .ended, snapshot.current != nil
      {
        // The mistake: the on-demand rule, whatever the window holds.
        snapshot.position = session.position
      }
      return snapshot
    }
  }

  /// As `Player.handOff(to:)`: a restored player on `engine`, this one stopped.
  func handOff(to engine: any PlaybackEngine) -> (any FuzzTarget)? {
    let state = core.withLock { $0.state }
    guard
      let next = CatalogPlayer(
        bug: bug, engine: engine, restoring: state.snapshot, handingOff: true)
    else { return nil }
    send(.stop)
    for event in state.handOffEvents { next.send(event) }
    return next
  }

  init(bug: BuggyPlayer.Bug, engine: any PlaybackEngine, state given: PlaybackState? = nil) {
    self.bug = bug
    self.engine = engine
    watchdog = FuzzEngine.watchdog(for: engine)
    processed = FuzzEngine.onProcessed(for: engine)
    reduced = FuzzEngine.onReduced(for: engine)
    notified = FuzzEngine.onNotified(for: engine)
    var state = given ?? FuzzEngine.state(for: engine)
    switch bug {
    case .ignoresPreviousThreshold: state.configuration.previousThreshold = .seconds(3)
    case .backoffCapIgnored: state.configuration.retry.maximumBackoff = .milliseconds(Int64.max)
    default: break
    }
    core.withLock { $0.state = state }
  }

  /// What `FuzzObservation(state)` says, read in place under the lock: the
  /// state is not copied out (it was a third of a catalog run's time).
  var observation: FuzzObservation {
    core.withLock { core in
      let session = core.state.session
      let queue = core.state.queue
      var nowPlaying = core.state.nowPlaying
      if bug == .rateWhileBuffering, nowPlaying != nil {
        // The mistake: the intent's rate, not the playing one.
        nowPlaying?.rate = core.state.playWhenReady ? core.state.rate : PlaybackRate(thousandths: 0)
      }
      if bug == .elapsedFromLastReport, let session, nowPlaying?.entry.item == session.load.item {
        // The mistake: the newest report, not the position at the last discontinuity.
        nowPlaying?.elapsed = session.position
      }
      if bug == .progressShownForLive, let window = nowPlaying?.window {
        // The mistake: shown as on-demand media, with the duration `ready` carried.
        nowPlaying?.window = nil
        nowPlaying?.duration = session.flatMap { core.readyDurations[$0.load] } ?? window.end
      }
      var available = core.state.availableCommands
      if bug == .nextOfferedAtLastEntry, queue.entries.count > 1 {
        // The mistake: "there is a queue" taken for "there is a next entry".
        available.insert(.next)
      }
      return FuzzObservation(
        kind: core.state.kind, isPlaying: core.state.isPlaying,
        seekPending: session?.seekPending ?? false,
        queue: FuzzObservation.fingerprint(
          items: queue.entries.lazy.map(\.item), current: queue.current,
          repeatMode: queue.repeatMode, shuffleSeed: queue.shuffle?.seed),
        loads: (session?.load, core.state.preload?.load), position: session?.position,
        preloadReady: core.state.preload?.stage == .ready, failure: .some(core.state.failure),
        state: core.state, nowPlaying: .some(nowPlaying), availableCommands: available)
    }
  }

  var stateDescription: String { core.withLock { $0.state.description } }

  func send(_ event: PlaybackEvent) {
    if bug == .reentrantProcessedRecursively {
      // The mistake: reduce now, run the commands (whose re-entrant reports
      // recurse into `send` and see the old state), then commit.
      let transition = core.withLock { $0.state.transition(on: event) }
      reduced?(transition.ignored)
      perform(Array(transition.commands))
      core.withLock { $0.state = transition.next }
      schedule(transition.watchdog)
      schedule(transition.sleepTimer)
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
      let (watchdog, sleep) = core.withLock { core in
        defer {
          core.requested = nil
          core.requestedSleep = nil
        }
        return (core.requested, core.requestedSleep)
      }
      schedule(watchdog)
      schedule(sleep)
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
    var after = request.delay ?? watchdog.timeout
    if bug == .watchdogAtZero, request.delay == nil { after = .zero }
    watchdog.schedule(after) { [weak self] in
      self?.send(.watchdogExpired(request.load, request.id))
    }
  }

  /// Schedules a sleep countdown on the harness's clock, as `Player` does.
  private func schedule(_ request: SleepTimerRequest?) {
    guard let request else { return }
    watchdog.schedule(request.delay) { [weak self] in
      self?.send(.system(.sleepTimerExpired(request.id)))
    }
  }

  private func perform(_ commands: [EngineCommand]) {
    let sink = ReportSink { [weak self] report in self?.send(.engine(report)) }
    for command in commands { engine.execute(command, reports: sink) }
  }

  private func reduce(_ event: PlaybackEvent, _ core: inout Core) -> [EngineCommand] {
    // Under the lock, so in processing order.
    processed?(event)
    core.ignored = nil
    let before = notified == nil ? nil : core.state
    let commands = reduceWithBug(event, &core)
    if bug == .neverIssuedCalledStale, core.ignored == .neverIssuedLoad {
      core.ignored = .staleLoad
    }
    reduced?(core.ignored)
    if let session = core.state.session, !session.seekPending {
      core.settled = (session.load, session.position)
    }
    if let notified, let before {
      notified(notifications(before: before, event: event, core))
    }
    return commands
  }

  /// The step's notifications as this driver publishes them.
  private func notifications(
    before: PlaybackState, event: PlaybackEvent, _ core: Core
  ) -> [PlayerNotification] {
    let derived = Notifications(
      before: before, event: event, after: core.state, ignored: core.ignored)
    var list = derived.isEmpty ? [] : Array(derived)
    switch bug {
    case .queueEndedTwice:
      // The mistake: published whenever the last entry is ended, not when it ends.
      let queue = core.state.queue
      if derived.queueEnded == nil, core.state.session?.stage == .ended,
        queue.current == queue.entries.count - 1
      {
        list.append(PlayerNotification(.queueEnded, source: event.source))
      }
    case .entryChangedOnSeek:
      // The mistake: a seek issued is taken for a transition.
      if core.ignored == nil, event.intent != nil, derived.entryChanged == nil,
        let session = core.state.session, session.seekPending,
        session.lastSeek != before.session?.lastSeek, let entry = core.state.currentEntry
      {
        list.insert(
          PlayerNotification(
            .entryChanged(from: entry, to: entry, reason: .skip), source: event.source), at: 0)
      }
    default: break
    }
    return list
  }

  private func reduceWithBug(_ event: PlaybackEvent, _ core: inout Core) -> [EngineCommand] {
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
      core.ignored = core.state.handle(event).ignored
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
    case (.crossfadeLateEndAdvances, .engine(.reachedEnd(let load))):
      // The mistake: the old player's late `ended` is taken for the current entry's.
      if core.crossfadedOut[load] != nil, core.state.leaving?.load != load, let session,
        session.load != load
      {
        event = .reachedEnd(session.load)
      }
    case (.crossfadeStopsOutgoingTwice, .watchdogExpired(let load, let id)):
      // The mistake: the driver's own timer stops the old player whatever stopped it first.
      if core.crossfadedOut[load] == id, core.state.leaving?.load != load {
        core.ignored = core.state.handle(event).ignored
        return [.stop(load)]
      }
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
        core.ignored = core.state.handle(event).ignored
        return [.start(load, rate: core.state.rate)]
      }
    case (.staleBackoffReloads, .watchdogExpired(let load, _)):
      // The mistake: a backoff armed before a stop still reloads.
      if session == nil, core.backoffs.contains(load) { event = .resume }
    case (.interruptionEndWithoutHintResumes, .system(.interruptionEnded(shouldResume: false))):
      event = .system(.interruptionEnded(shouldResume: true))
    case (.routeLossResumesLater, .system(.routeLost)):
      event = .system(.interruptionBegan)
    case (.skipFromStaleTime, .user(.skip(let delta))),
      (.skipFromStaleTime, .remote(.skip(let delta))):
      // The mistake: from the last completed position, not the pending target.
      if let session, session.seekPending, let settled = core.settled,
        settled.load == session.load
      {
        var target = max(0, settled.position.milliseconds &+ delta.milliseconds)
        if let duration = session.duration { target = min(target, duration.milliseconds) }
        let seek = UserIntent.seek(to: .milliseconds(target))
        event = event.source == .remote ? .remote(seek) : .user(seek)
      }
    case (.toggleReadsIsPlaying, .user(.toggle)), (.toggleReadsIsPlaying, .remote(.toggle)):
      // The mistake: the button reads isPlaying, then acts.
      let intent: UserIntent = core.state.isPlaying ? .pause : .resume
      event = event.source == .remote ? .remote(intent) : .user(intent)
    case (.staleSleepExpiryPauses, .system(.sleepTimerExpired(let id))):
      // The mistake: a countdown cancelled or replaced still fires, and is taken for the armed one.
      let newest = core.state.issuedSleepTimers
      if id.rawValue != 0, id.rawValue <= newest {
        if case .after = core.state.sleepTimer, id.rawValue == newest { break }
        core.state.sleepTimer = .after(.seconds(1))
        event = .system(.sleepTimerExpired(SleepTimerID(newest)))
      }
    case (.endOfEntryLosesToGapless, .engine(let report)):
      // The mistake: the preload rule does not read the timer: the engine's
      // reports (but the end itself) are reduced as if none were armed.
      if case .reachedEnd = report { break }
      if let timer = core.state.sleepTimer {
        core.state.sleepTimer = nil
        let effects = core.state.handle(event)
        core.ignored = effects.ignored
        if core.state.sleepTimer == nil { core.state.sleepTimer = timer }
        core.requested = effects.watchdog
        core.requestedSleep = effects.sleepTimer
        let commands = Array(effects.commands)
        record(commands, &core)
        return commands
      }
    case (.duckEndRestoresStaleVolume, .system(.duckBegan)):
      if !core.state.ducked { core.volumeAtDuck = core.state.volume }
    case (.duckEndRestoresStaleVolume, .system(.duckEnded)):
      // The mistake: the volume saved when the duck began comes back.
      if core.state.ducked, let saved = core.volumeAtDuck { core.state.volume = saved }
    case (.pauseDuckFlipsIntent, .system(.duckBegan)):
      if core.state.configuration.ducking == .pause, !core.state.ducked,
        core.state.playWhenReady, core.state.session != nil
      {
        // The mistake: the duck is taken for the user's pause, then held.
        let paused = core.state.handle(.pause)
        let held = core.state.handle(event)
        core.ignored = held.ignored
        core.requested = held.watchdog ?? paused.watchdog
        core.requestedSleep = held.sleepTimer ?? paused.sleepTimer
        let commands = Array(paused.commands) + Array(held.commands)
        record(commands, &core)
        return commands
      }
    case (.resumeDuringFadeStarts, .user(.pause)), (.resumeDuringFadeStarts, .remote(.pause)),
      (.resumeDuringFadeStarts, .user(.toggle)), (.resumeDuringFadeStarts, .remote(.toggle)):
      core.pausedByUser = session?.load
    case (.resumeDuringFadeStarts, _):
      if let session, session.fadingOut, case .ready = session.stage,
        core.pausedByUser == session.load
      {
        let effects = core.state.handle(event)
        core.ignored = effects.ignored
        core.requested = effects.watchdog
        core.requestedSleep = effects.sleepTimer
        var commands = Array(effects.commands)
        if effects.ignored == nil, core.state.playWhenReady,
          core.state.session?.load == session.load
        {
          // The mistake: the ramp back is taken for a fade-in of a paused load.
          commands =
            [.setVolume(session.load, Volume(thousandths: 0))]
            + [.start(session.load, rate: core.state.rate)] + commands
        }
        record(commands, &core)
        return commands
      }
    case (.staleFadeExpiryPauses, .watchdogExpired(let load, let id)):
      // The mistake: a fade's timer the user's resume made stale still pauses.
      if let session, session.load == load, !session.fadingOut, case .ready = session.stage,
        core.fadeTimers.contains(where: { $0.load == load && $0.id == id })
      {
        core.state.playWhenReady = false
        return [.pause(load)]
      }
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
    if bug == .progressShownForLive, case .engine(.ready(let load, let duration?)) = event {
      core.readyDurations[load] = duration
    }
    let leavingBefore = core.state.leaving?.load
    var effects = core.state.handle(event)
    core.ignored = effects.ignored
    if bug == .seekPastLiveEdge, effects.ignored == nil, let intent = event.intent,
      case .seek(let asked) = intent, session?.window?.isSeekable == true
    {
      // The mistake: the user's time, not clamped to the window.
      var commands = CommandList()
      for command in effects.commands {
        if case .seek(let load, _, let id) = command {
          commands.append(.seek(load, to: asked, id))
        } else {
          commands.append(command)
        }
      }
      effects.commands = commands
    }
    if bug == .reloadAtOldPositionAfterFallingBehind, effects.ignored == nil,
      case .engine = event, let old = session
    {
      // The mistake: the reload opens at the old position, not at the live edge.
      var commands = CommandList()
      for command in effects.commands {
        if case .load(let request) = command, request.atLiveEdge {
          commands.append(
            .load(LoadRequest(load: request.load, media: request.media, start: old.position)))
        } else {
          commands.append(command)
        }
      }
      effects.commands = commands
    }
    if let request = effects.watchdog, request.purpose == .fadeOut {
      core.fadeTimers.insert(request)
    }
    if let leaving = core.state.leaving, leaving.load != leavingBefore,
      core.state.session != nil
    {
      core.crossfadedOut[leaving.load] = leaving.timer
      if bug == .crossfadePreloadsAtStart { preloadAtCrossfade(&effects, &core) }
    }
    if bug == .crossfadeSkipKeepsOutgoing, let leaving = leavingBefore, session != nil,
      core.state.leaving == nil, effects.commands.contains(where: { $0.kind == .load })
    {
      // The mistake: the load that opens does not stop the crossfade's outgoing one.
      var commands = CommandList()
      for command in effects.commands where command != .stop(leaving) { commands.append(command) }
      effects.commands = commands
    }
    if bug == .stopFadeNeverStopped, let leaving = leavingBefore, core.state.leaving == nil,
      effects.commands.contains(where: { $0.kind == .load })
    {
      // The mistake: the load that opens does not stop the one fading out.
      var commands = CommandList()
      for command in effects.commands where command != .stop(leaving) { commands.append(command) }
      effects.commands = commands
    }
    if bug == .fadeExpiryForgetsVolume, effects.ignored == nil, session?.fadingOut == true,
      case .watchdogExpired = event, let load = session?.load
    {
      // The mistake: the load is paused and left at 0.
      var commands = CommandList()
      for command in effects.commands {
        if case .setVolume(let named, _, _) = command, named == load { continue }
        commands.append(command)
      }
      effects.commands = commands
    }
    if bug == .duckOverwritesVolume, effects.ignored == nil, case .system(.duckBegan) = event,
      case .lower = core.state.configuration.ducking
    {
      // The mistake: the lowered level is written over the user's volume.
      core.state.volume = core.state.effectiveVolume
    }
    if bug == .newLoadAtFullVolume, effects.ignored == nil {
      // The mistake: the loads this step opens are not given the volume.
      var opened: [Load] = []
      for command in effects.commands {
        switch command {
        case .load(let request), .preload(let request): opened.append(request.load)
        default: break
        }
      }
      if !opened.isEmpty {
        var commands = CommandList()
        for command in effects.commands {
          if case .setVolume(let load, _, _) = command, opened.contains(load) { continue }
          commands.append(command)
        }
        effects.commands = commands
      }
    }
    if bug == .exhaustedSeekMovesPosition, effects.ignored == .idsExhausted,
      case .user(.seek(let time)) = event
    {
      // The mistake: the target is written before the seek id is issued.
      core.state.session?.position = time
    }
    if bug == .pauseKeepsSystemPause, effects.ignored == nil, session?.systemPaused == true,
      event == .pause || event == .system(.routeLost)
    {
      // The mistake: the user's pause does not take the system's over.
      core.state.session?.systemPaused = true
    }
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
    if bug == .positionIntoWrongEntry, let saved = core.savedPosition,
      let at = effects.commands.firstIndex(where: { $0.kind == .load }),
      case .load(let request) = effects.commands[at]
    {
      // The mistake: the saved position goes to whatever entry loads first.
      core.savedPosition = nil
      var commands = CommandList()
      for (index, command) in effects.commands.enumerated() {
        commands.append(
          index == at
            ? .load(LoadRequest(load: request.load, media: request.media, start: saved)) : command)
      }
      effects.commands = commands
    }
    var commands = Array(effects.commands)
    if bug == .uiPlayAndRestoreBothLoad, core.restorePending,
      effects.commands.contains(where: { $0.kind == .load })
    {
      // The mistake: the restore's own resume loads again, beside the UI's intent.
      core.restorePending = false
      core.state.session = nil
      core.state.preload = nil
      let again = core.state.handle(.resume)
      commands += again.commands
      effects.watchdog = again.watchdog ?? effects.watchdog
    }
    core.requested = effects.watchdog
    core.requestedSleep = effects.sleepTimer
    record(commands, &core)
    return commands
  }

  /// crossfadePreloadsAtStart: the crossfade that just started issues the next
  /// entry's preload at once (a token, the preload, its command).
  private func preloadAtCrossfade(_ effects: inout Effects, _ core: inout Core) {
    let queue = core.state.queue
    guard let at = queue.current, core.state.issuedLoads < UInt32.max else { return }
    let next = at + 1 < queue.entries.count ? at + 1 : (queue.repeatMode == .all ? 0 : nil)
    guard let next, next != at else { return }
    let entry = queue.entries[next]
    core.state.issuedLoads += 1
    let load = Load(item: entry.item, token: LoadToken(core.state.issuedLoads))
    core.state.preload = Preload(load: load, stage: .buffering)
    effects.commands.append(.preload(LoadRequest(load: load, media: entry.media)))
  }

  /// Keeps what the commands say of the loads (their media, the newest load).
  private func record(_ commands: [EngineCommand], _ core: inout Core) {
    for command in commands {
      switch command {
      case .load(let request):
        core.lastLoaded = request.load
        core.media[request.load.item] = request.media
      case .preload(let request):
        core.media[request.load.item] = request.media
      default: break
      }
    }
  }
}
