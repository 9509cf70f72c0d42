public import PlayerState

/// The properties the oracle checks after every step (docs/machine.md,
/// "Properties an independent oracle can check on the engine's command log").
public enum FuzzProperty: String, Hashable, Sendable, Codable, CaseIterable, CustomStringConvertible
{
  /// 1. `start` only for the newest load, only after its `ready`, only while the user wants to play.
  case startOnlyWhenReadyAndWanted
  /// 2. No command at all in answer to an ignored (stale, forged, unexpected) report or expiry.
  case noCommandForIgnoredReport
  /// 3. Every load is stopped (a failed load when it failed), and before the next `load`.
  case stopBeforeNextLoad
  /// 3. Nothing is sent for a load after its `stop`.
  case nothingAfterStop
  /// 4. After a user `stop` the state is idle.
  case idleAfterStop
  /// 5. A seek completes only for the newest seek of the current load.
  case newestSeekOnly
  /// 6. `isPlaying` agrees with the engine log.
  case isPlayingMatchesEngine
  /// The commands differ from the contract in a way the numbered properties do
  /// not name, such as a missing `start` after `ready` or a missing `seek`.
  case commandsMatchContract
  /// The player's named state differs from the contract's, or the failure
  /// detail it says the current load keeps (`PlaybackState.failure`) does, or
  /// (for a player that says its whole public state) any other field a caller
  /// can read: the intent, rate, interruption and system pause, the ids
  /// issued, the current load's stage, seeks, timers, duration and attempts.
  case stateMatchesContract
  /// The player's queue (play order, current entry, repeat, shuffle; for a
  /// player that says its whole public state also each entry's media and the
  /// list order kept while shuffled), its current and preloading loads, the
  /// preload's stage and duration, or its last known position differ from the
  /// contract's.
  case queueMatchesContract
  /// Liveness: a few cooperative engine reports bring the player to a steady state.
  case reachesSteadyState
  /// The player requests its watchdogs from the harness's clock exactly where the
  /// contract arms them: when a load starts buffering and when it stalls.
  case watchdogRequested
  /// An event the player ignored was ignored for the contract's reason
  /// (`IgnoreReason`), and one it accepted is one the contract accepts.
  case ignoreReasonMatchesContract
  /// The driver's promise under several threads: events are reduced one at a
  /// time and none is lost. After every burst, once every sender has
  /// returned, every event sent has been processed (none stranded in a
  /// queue nobody drains), and no command ever began while another ran.
  case driverIsSerial
  /// The rate published to a lock screen (`NowPlaying.rate`) is positive
  /// exactly while the player says media is playing (`isPlaying`): never
  /// while loading, buffering, stalled, paused, held by the system or ended.
  case publishedRateOnlyWhilePlaying
  /// The now-playing information (`PlaybackState.nowPlaying`) is the
  /// contract's: the current entry (by item id), its index and the count, the
  /// duration once known, and the rate (the user's while playing, else 0;
  /// 1x at a live edge), and for a live load its window (`isLive`, no duration).
  case nowPlayingMatchesContract
  /// The elapsed anchor (`NowPlaying.elapsed`) moves exactly at a
  /// discontinuity, to the contract's position then: a load's start, a seek
  /// issued, a change of the published rate (a start, pause, stall, its end,
  /// a rate change, a system hold); a position report never moves it.
  case elapsedAnchorAtDiscontinuities
  /// A remote command is offered (`PlaybackState.availableCommands`) exactly
  /// when the contract would not ignore its intent as `noEffect` or
  /// `invalidPosition`.
  case availableCommandsMatchContract
  /// Each step's notifications are the contract's, each exactly once and in
  /// order: the entry change (keyed on the entry's item id, with its reason),
  /// the end of the queue, the play intent's flip (with its reason), each
  /// with the event's source.
  case notificationsMatchContract
  /// An event the contract ignores notifies nothing.
  case noNotificationForIgnoredEvent
  /// A snapshot (`PlaybackState.snapshot`) is the contract's: the current
  /// entry and its position from the same step, the queue's media, shuffle,
  /// repeat, rate and intent (issue 24).
  case snapshotMatchesContract
  /// A player restored from a snapshot (a relaunch) sends the engine nothing:
  /// no load, no start, until the user resumes.
  case restoreSendsNothing
  /// After a restore, the first load of the saved entry is from the saved
  /// position, and there is one such load, once: a second load (a UI play and
  /// the restore both loading), or the saved position used again, breaks it.
  case resumeLoadsSavedPositionOnce
  /// The saved position is never applied to another entry than the one it
  /// was saved with.
  case savedPositionOnlyForItsEntry
  /// A sleep timer's countdown acts only if it is the armed one: an expiry of
  /// a countdown cancelled, replaced or never armed changes nothing, sends
  /// nothing and notifies nothing.
  case sleepExpiryOnlyIfCurrent
  /// While the sleep timer stops at the end of the current entry, no other
  /// entry is preloaded, loaded or started (a gapless engine would roll into it).
  case endOfEntryStartsNothing
  /// The loads the player hands back (``FuzzObservation/loads``, the events
  /// passed to ``FuzzEngine/onProcessed``) are in its engine's numbering, as
  /// the harness sends them (see ``FuzzEngine``, "One numbering").
  case loadsInEngineNumbering
  /// Every live load plays at the contract's effective volume after every
  /// step: its newest `setVolume` (1 for a load the engine opened and was not
  /// given one) is the user's volume, lowered by a duck, 0 while muted (issue 37).
  case liveLoadsAtEffectiveVolume
  /// A duck never changes the user's volume, and its end restores the
  /// effective volume exactly: the user's, or the one the user set during the
  /// duck (the classic "volume stuck low after a call").
  case userVolumeRestoredAfterDuck
  /// A duck never changes the play intent (`playWhenReady`), whatever its policy.
  case duckKeepsPlayIntent
  /// While a duck with the `.pause` policy is in progress, the engine is not
  /// sent `start` (as during an interruption).
  case noStartWhileDuckPaused
  /// No `start` of a load the engine still plays: a resume during a fade-out
  /// ramps the volume back and sends no `start` (the engine was never paused),
  /// nothing starts a load while the user's intent is pause, and a load
  /// fading out (into a stop or out of a crossfade) is never started
  /// (issue 37, fades and crossfade).
  case noStartDuringFade
  /// A fade's expiry that is stale (a resume, a stall, a hold or a newer
  /// timer came first; or its load was stopped) changes nothing and sends nothing.
  case staleFadeExpiryChangesNothing
  /// One audible load, two only while one fades out of a crossfade: a load
  /// fading out into a stop is stopped before any other load is opened; a
  /// crossfade's outgoing load is stopped before any other load opens, and no
  /// preload is issued beside the two (no third live load).
  case oneAudibleLoad
  /// A load fading out (into a stop, or out of a crossfade) gets exactly one
  /// `stop`: at its timer's expiry, its own `ended`, or before the next load,
  /// whichever comes first (none after its `failed`).
  case leavingLoadStoppedOnce
  /// The `ended` of a crossfade's outgoing load never advances the queue: inside
  /// the fade it only stops that load; after its `stop` it is stale (no entry
  /// change, no command) (issue 37, crossfade).
  case lateEndNeverAdvances
  /// No seek of a live load is sent outside its current window: a DVR load's
  /// seek is clamped to the window, and a live load without DVR is never
  /// sent one (issue 38).
  case seekInsideLiveWindow
  /// A load that fell behind its live window (the engine's
  /// `failed(behindLiveWindow)`, or a window or position report behind a DVR
  /// window's start) is reloaded at the live edge (`load(M#n, at live
  /// edge)`), exactly once: a late report of the old load reloads nothing (issue 38).
  case fellBehindReloadsAtEdgeOnce
  /// The engine is never told to play a live load faster than 1x at its live
  /// edge (`start` or `setRate`), and is told 1x when the load reaches the
  /// edge at a faster rate (issue 38).
  case liveEdgeAtRealTime
  /// Nothing is preloaded beside a live load, and a preload issued before
  /// the current load's first window is stopped when it comes (issue 38).
  case noPreloadBesideLiveLoad

  /// The property as one sentence.
  public var summary: String {
    switch self {
    case .startOnlyWhenReadyAndWanted:
      "1. start only for the newest load, only after its ready, only while the user wants to play"
    case .noCommandForIgnoredReport: "2. no command at all in answer to an ignored report"
    case .stopBeforeNextLoad: "3. every load is stopped, before any next load"
    case .nothingAfterStop: "3. nothing reaches a load after its stop"
    case .idleAfterStop: "4. after a user stop the state is idle"
    case .newestSeekOnly: "5. a seek completes only for the newest seek"
    case .isPlayingMatchesEngine: "6. isPlaying agrees with the engine's command log"
    case .commandsMatchContract: "the engine receives exactly the commands of the contract"
    case .stateMatchesContract:
      "the player's state (kind, failure detail, and every other field it says) agrees with the contract"
    case .queueMatchesContract:
      "the player's queue, current and preloading loads, preload readiness and position agree with the contract"
    case .reachesSteadyState:
      "liveness: cooperative reports bring the player to playing, paused, idle, ended or failed"
    case .watchdogRequested:
      "the player requests a watchdog exactly when a load starts buffering or stalls"
    case .ignoreReasonMatchesContract:
      "an event is ignored exactly when the contract ignores it, and for its reason"
    case .driverIsSerial:
      "one drain at a time, and at every quiescence every event sent has been processed"
    case .publishedRateOnlyWhilePlaying:
      "the rate published to a lock screen is positive exactly while media is playing"
    case .nowPlayingMatchesContract:
      "now playing (entry, index, count, duration, rate) agrees with the contract"
    case .elapsedAnchorAtDiscontinuities:
      "the elapsed anchor moves exactly at discontinuities, to the contract's position"
    case .availableCommandsMatchContract:
      "a command is available exactly when the contract would not ignore it as noEffect or invalidPosition"
    case .notificationsMatchContract:
      "each step notifies exactly the contract's notifications, once each, in order, with their reasons and source"
    case .noNotificationForIgnoredEvent: "an ignored event notifies nothing"
    case .snapshotMatchesContract:
      "a snapshot holds the current entry and its position from the same step, as the contract's"
    case .restoreSendsNothing: "a restored player sends the engine nothing until the user resumes"
    case .resumeLoadsSavedPositionOnce: "one load from the saved position, once"
    case .savedPositionOnlyForItsEntry: "the saved position is never applied to another entry"
    case .sleepExpiryOnlyIfCurrent: "a sleep countdown's expiry acts only if it is the armed one"
    case .endOfEntryStartsNothing:
      "while the sleep timer stops at this entry's end, no other entry is preloaded, loaded or started"
    case .loadsInEngineNumbering:
      "the loads a player hands back are in its engine's numbering, as the harness sends them"
    case .liveLoadsAtEffectiveVolume:
      "every live load plays at the effective volume (the user's, lowered by a duck, 0 while muted)"
    case .userVolumeRestoredAfterDuck:
      "a duck never changes the user's volume, and its end restores the effective volume exactly"
    case .duckKeepsPlayIntent: "a duck never changes the play intent"
    case .noStartWhileDuckPaused: "no start while a duck with the pause policy is in progress"
    case .noStartDuringFade:
      "no start of a load the engine still plays: a resume during a fade-out ramps back"
    case .staleFadeExpiryChangesNothing: "a stale fade expiry changes nothing and sends nothing"
    case .oneAudibleLoad:
      "one audible load, two only inside a crossfade: a leaving load is stopped before a new load, no third live load"
    case .leavingLoadStoppedOnce:
      "a load fading out (a stop's or a crossfade's) gets exactly one stop"
    case .lateEndNeverAdvances: "the ended of a crossfade's outgoing load never advances the queue"
    case .seekInsideLiveWindow: "no seek of a live load is sent outside its window"
    case .fellBehindReloadsAtEdgeOnce:
      "a load that fell behind its live window reloads at the live edge, exactly once"
    case .liveEdgeAtRealTime: "no start or setRate above 1x for a live load at its live edge"
    case .noPreloadBesideLiveLoad: "nothing is preloaded beside a live load"
    }
  }

  /// The raw name, as in `nothingAfterStop`.
  public var description: String { rawValue }
}

/// One broken property: where, and what the engine received against what it should have.
public struct FuzzViolation: Hashable, Sendable, CustomStringConvertible {
  /// The property that broke.
  public var property: FuzzProperty
  /// The 1-based index of the action during which it broke.
  public var step: Int
  /// The event being processed when it broke (a re-entrant report names itself).
  public var event: PlaybackEvent?
  /// The whole command log the contract expects up to and including this step.
  public var expected: [EngineCommand]
  /// The whole command log the engine actually received.
  public var actual: [EngineCommand]
  /// What else went wrong, in words: the state the player reported, for instance.
  public var detail: String
  /// Every item's media, to print loads as `A#2`.
  public var media: [ItemID: MediaID] = [:]

  /// Describes a violation.
  public init(
    property: FuzzProperty, step: Int, event: PlaybackEvent?, expected: [EngineCommand],
    actual: [EngineCommand], detail: String
  ) {
    self.property = property
    self.step = step
    self.event = event
    self.expected = expected
    self.actual = actual
    self.detail = detail
  }

  /// The expected log in compact forms, loads named by their media (`start(A#1)`).
  public var expectedLog: [String] {
    expected.map { $0.description(naming: { media[$0] }) }
  }

  /// The actual log in compact forms, loads named by their media (`start(A#1)`).
  public var actualLog: [String] { actual.map { $0.description(naming: { media[$0] }) } }

  /// Several lines: the property, the step, the expected and actual logs.
  public var description: String {
    var lines = ["property violated: \(property) (\(property.summary))"]
    let named = event?.description(naming: { media[$0] })
    lines.append("at step \(step)\(named.map { ": \($0)" } ?? "")")
    if !detail.isEmpty { lines.append(detail) }
    lines.append("expected log: \(Self.format(expected, media))")
    lines.append("actual log:   \(Self.format(actual, media))")
    return lines.joined(separator: "\n")
  }

  static func format(_ log: [EngineCommand], _ media: [ItemID: MediaID] = [:]) -> String {
    log.isEmpty
      ? "(none)" : log.map { $0.description(naming: { media[$0] }) }.joined(separator: " ")
  }

  /// Names the property a command divergence breaks: the first position where
  /// the logs differ, read against what the actual log already did.
  /// - Parameter life: where the current engine's commands begin (after a
  ///   relaunch or a hand-off the new engine numbers its loads from 1 again).
  static func classify(
    expected: [EngineCommand], actual: [EngineCommand], from start: Int, event: PlaybackEvent,
    accepted: Bool, life: Int = 0
  ) -> FuzzProperty {
    var index = start
    while index < expected.count, index < actual.count, expected[index] == actual[index] {
      index += 1
    }
    guard index < actual.count else {
      // A command is missing.
      if index < expected.count, case .stop = expected[index] { return .stopBeforeNextLoad }
      return .commandsMatchContract
    }
    let extra = actual[index]
    let earlier = actual[min(life, index)..<index]
    if earlier.contains(.stop(extra.load)) { return .nothingAfterStop }
    if case .load = extra, let last = earlier.last(where: { $0.kind == .load }),
      !earlier.contains(.stop(last.load))
    {
      return .stopBeforeNextLoad
    }
    if !accepted, event.intent == nil { return .noCommandForIgnoredReport }
    if case .start = extra { return .startOnlyWhenReadyAndWanted }
    if index < expected.count, case .stop = expected[index], case .load = extra {
      return .stopBeforeNextLoad
    }
    return .commandsMatchContract
  }
}
