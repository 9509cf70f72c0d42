/// Settings of one player that the reducer reads: data, so the reducer stays pure.
public struct PlayerConfiguration: Hashable, Sendable, Codable {
  /// Whether the engine can preload the next entry (``EngineCommand/preload(_:)``).
  public var canPreload: Bool
  /// `previous` restarts the current entry instead of going back when the
  /// position is past this (3 s, as ExoPlayer).
  public var previousThreshold: MediaTime
  /// How a load that failed for want of the network is retried.
  public var retry: RetryPolicy
  /// What a duck (``SystemEvent/duckBegan``) does: lower the volume to a
  /// fraction of the user's (0.2 by default, as Media3), or pause.
  public var ducking: DuckPolicy
  /// The fade and the crossfade, in whole milliseconds (at most
  /// `UInt32.max`, 49 days): two 4-byte fields, so the configuration that
  /// every state carries did not grow when crossfade came.
  private var fadeMilliseconds: UInt32
  private var crossfadeMilliseconds: UInt32

  /// The fade, as the machine keeps wall-clock time.
  var fadeLength: ClockMilliseconds { MediaTime(milliseconds: Int64(fadeMilliseconds)) }
  /// Whether a crossfade is set: the one test a position report pays.
  var crossfades: Bool { crossfadeMilliseconds != 0 }
  /// The crossfade, as the machine keeps wall-clock time.
  var crossfadeLength: ClockMilliseconds {
    MediaTime(milliseconds: Int64(crossfadeMilliseconds))
  }

  /// How long the user's `pause` and `stop` fade out and `resume` fades in
  /// (the engine ramps the volume: ``EngineCommand/setVolume(_:_:ramp:)``);
  /// zero, the default, is off. Wall-clock, kept to the millisecond (rounded
  /// to the nearest when set; zero or less is off). What fades and what does
  /// not is in docs/machine.md, "Fades".
  public var fade: Duration {
    get { fadeLength.duration }
    set { fadeMilliseconds = Self.milliseconds(newValue) }
  }

  /// How long the end of an entry and the start of the next overlap: within
  /// this of the end, the next entry (its preload, ready) starts at volume 0
  /// and ramps up while the current one ramps down, and the current one is
  /// then stopped, once. Zero, the default, is off. It needs an engine that
  /// preloads and ramps (``canPreload``; the driver turns it off for an engine
  /// without both). Wall-clock, kept to the millisecond like ``fade``. When a
  /// crossfade starts, and what every control does during one, is in
  /// docs/machine.md, "Crossfade".
  public var crossfade: Duration {
    get { crossfadeLength.duration }
    set { crossfadeMilliseconds = Self.milliseconds(newValue) }
  }

  /// A configuration.
  /// - Parameters:
  ///   - canPreload: whether the engine can preload; false gives plain sequential loads.
  ///   - previousThreshold: how far into an entry `previous` restarts it.
  ///   - retry: how network failures are retried; ``RetryPolicy/standard`` by default.
  ///   - ducking: what a duck does; lower to 0.2 of the user's volume by default.
  ///   - fade: how long a user's pause or stop fades out and resume fades
  ///     in, to the millisecond; zero (the default) or less is off.
  ///   - crossfade: how long the end of an entry overlaps the start of the
  ///     next, to the millisecond; zero (the default) or less is off.
  public init(
    canPreload: Bool = false, previousThreshold: MediaTime = .seconds(3),
    retry: RetryPolicy = .standard, ducking: DuckPolicy = .lower(to: 0.2),
    fade: Duration = .zero, crossfade: Duration = .zero
  ) {
    self.canPreload = canPreload
    self.previousThreshold = previousThreshold
    self.retry = retry
    self.ducking = ducking
    fadeMilliseconds = Self.milliseconds(fade)
    crossfadeMilliseconds = Self.milliseconds(crossfade)
  }

  /// A fade as kept: to the nearest millisecond, none for zero or less, and
  /// at most `UInt32.max` milliseconds.
  private static func milliseconds(_ length: Duration) -> UInt32 {
    UInt32(clamping: length.roundedMilliseconds)
  }

  private enum CodingKeys: String, CodingKey {
    case canPreload, previousThreshold, retry, ducking, fade, crossfade
  }

  /// Decodes a configuration; one written before ducking existed gets the
  /// default policy, and one written before fades or crossfades none.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      canPreload: try container.decode(Bool.self, forKey: .canPreload),
      previousThreshold: try container.decode(MediaTime.self, forKey: .previousThreshold),
      retry: try container.decode(RetryPolicy.self, forKey: .retry),
      ducking: try container.decodeIfPresent(DuckPolicy.self, forKey: .ducking)
        ?? .lower(to: 0.2),
      fade: (try container.decodeIfPresent(ClockMilliseconds.self, forKey: .fade) ?? .zero)
        .duration,
      crossfade: (try container.decodeIfPresent(ClockMilliseconds.self, forKey: .crossfade)
        ?? .zero).duration)
  }

  /// Encodes the configuration; the ducking policy, the fade and the
  /// crossfade only when they are not the defaults, so files written before
  /// them are written the same.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(canPreload, forKey: .canPreload)
    try container.encode(previousThreshold, forKey: .previousThreshold)
    try container.encode(retry, forKey: .retry)
    if ducking != .lower(to: 0.2) { try container.encode(ducking, forKey: .ducking) }
    if fadeLength != .zero { try container.encode(fadeLength, forKey: .fade) }
    if crossfadeLength != .zero { try container.encode(crossfadeLength, forKey: .crossfade) }
  }
}

/// How a load that failed for want of the network is retried: data the reducer
/// reads, so the schedule is part of the proof.
///
/// After a network failure (or `networkLost` while buffering or stalled) the
/// entry waits; it reloads at its last known position when the network is
/// reported back, or when the backoff expires: `backoff` after the first
/// failure, doubling each time, at most `maximumBackoff`. After `attempts`
/// reloads that failed the same way, the entry fails.
///
/// The backoffs are wall-clock time, so they are `Duration`s, kept to the
/// millisecond: a backoff is rounded to the nearest millisecond (halves away
/// from zero, saturating) when it is set, and printed and encoded in
/// milliseconds (`{"milliseconds":1000}`).
///
/// ```swift
/// let patient = RetryPolicy(attempts: 5, backoff: .milliseconds(500), maximumBackoff: .seconds(10))
/// let player = Player(engine: engine, configuration: PlayerConfiguration(retry: patient))
/// ```
///
/// The reducer and the decoder need `backoff` above 0 and `maximumBackoff` at
/// least `backoff`: decoding refuses any other policy, and so does
/// ``PlaybackState/invariantViolation``. ``delay(before:)`` never traps, even
/// for a policy built by hand without them.
public struct RetryPolicy: Hashable, Sendable, Codable {
  /// Reloads allowed after the failure that started the wait; 0 turns waiting off.
  public var attempts: UInt8
  /// The first backoff, kept to the millisecond.
  var firstBackoff: ClockMilliseconds
  /// The longest backoff, kept to the millisecond.
  var longestBackoff: ClockMilliseconds

  /// The first backoff, wall-clock; set, it is rounded to the nearest millisecond.
  public var backoff: Duration {
    get { firstBackoff.duration }
    set { firstBackoff = ClockMilliseconds(newValue) }
  }

  /// The longest backoff, wall-clock; set, it is rounded to the nearest millisecond.
  public var maximumBackoff: Duration {
    get { longestBackoff.duration }
    set { longestBackoff = ClockMilliseconds(newValue) }
  }

  /// A policy.
  /// - Parameters:
  ///   - attempts: reloads allowed after the failure that started the wait; 0 for none.
  ///   - backoff: the first wait, rounded to the nearest millisecond; above 0
  ///     for the reducer to take the policy.
  ///   - maximumBackoff: the longest wait, rounded to the nearest
  ///     millisecond; at least `backoff` for the reducer to take the policy.
  public init(attempts: UInt8, backoff: Duration, maximumBackoff: Duration) {
    self.attempts = attempts
    firstBackoff = ClockMilliseconds(backoff)
    longestBackoff = ClockMilliseconds(maximumBackoff)
  }

  /// 3 reloads, after 1 s, 2 s and 4 s (at most 30 s).
  public static let standard = RetryPolicy(
    attempts: 3, backoff: .seconds(1), maximumBackoff: .seconds(30))
  /// No waiting: a network failure fails the load at once.
  public static let off = RetryPolicy(
    attempts: 0, backoff: .seconds(1), maximumBackoff: .seconds(1))

  /// The backoff before reload number `attempt` (1-based): `backoff` × 2^(attempt − 1), capped
  /// at `maximumBackoff`; a whole number of milliseconds.
  ///
  /// Total: the doubling saturates, and the result is never negative, for
  /// any values (a policy the decoder refuses included).
  public func delay(before attempt: UInt8) -> Duration { wait(before: attempt).duration }

  /// ``delay(before:)`` as the machine keeps it, in whole milliseconds.
  func wait(before attempt: UInt8) -> ClockMilliseconds {
    let maximum = longestBackoff.milliseconds
    var delay = firstBackoff.milliseconds
    var step: UInt8 = 1
    while step < attempt, delay < maximum {
      let (doubled, overflow) = delay.multipliedReportingOverflow(by: 2)
      delay = overflow ? (delay < 0 ? .min : .max) : doubled
      step += 1
    }
    return ClockMilliseconds(milliseconds: max(0, min(delay, maximum)))
  }

  /// The first rule of a policy the reducer can take that this one breaks
  /// (`backoff` above 0, `maximumBackoff` at least `backoff`); nil if none.
  var violation: String? {
    if firstBackoff.milliseconds <= 0 { return "retry backoff \(firstBackoff) is not positive" }
    if longestBackoff < firstBackoff {
      return "retry maximumBackoff \(longestBackoff) is below the backoff \(firstBackoff)"
    }
    return nil
  }

  private enum CodingKeys: String, CodingKey { case attempts, backoff, maximumBackoff }

  /// Decodes a policy, its backoffs in milliseconds:
  /// `{"attempts":3,"backoff":{"milliseconds":1000},"maximumBackoff":{"milliseconds":30000}}`.
  /// - Throws: `DecodingError.dataCorrupted` for a backoff not above 0, or a
  ///   longest backoff below the first.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    attempts = try container.decode(UInt8.self, forKey: .attempts)
    firstBackoff = try container.decode(ClockMilliseconds.self, forKey: .backoff)
    longestBackoff = try container.decode(ClockMilliseconds.self, forKey: .maximumBackoff)
    if let violation {
      throw DecodingError.dataCorruptedError(
        forKey: .backoff, in: container, debugDescription: "unusable retry policy: \(violation)")
    }
  }

  /// Encodes the policy, its backoffs in milliseconds.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(attempts, forKey: .attempts)
    try container.encode(firstBackoff, forKey: .backoff)
    try container.encode(longestBackoff, forKey: .maximumBackoff)
  }
}

/// A state that the reducer could not have produced, refused by
/// ``PlaybackState/init(checking:session:preload:playWhenReady:rate:interrupted:configuration:issuedLoads:issuedItems:failure:resumePoint:sleepTimer:issuedSleepTimers:volume:muted:ducked:leaving:)``.
public struct InvalidStateError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The first rule the state breaks, in words (``PlaybackState/invariantViolation``).
  public let reason: String

  /// An error for a state breaking `reason`.
  package init(reason: String) { self.reason = reason }

  /// `unreachable state: ` and the reason.
  public var description: String { "unreachable state: \(reason)" }
}

/// Why the engine is silent although the user may want to play.
public enum Suppression: String, Hashable, Sendable, Codable {
  /// An interruption (a call, an alarm, another app's audio) is in progress,
  /// or a duck under the ``DuckPolicy/pause`` policy, which holds as one.
  case interruption
  /// The engine reported that the system paused the current load on its own.
  case systemPause
}

/// The named states a player is in, derived from the engine's stage and the user's intent.
public enum StateKind: String, Hashable, Sendable, Codable, CaseIterable {
  /// Nothing loaded (the queue may still hold entries: `resume` loads the current one).
  case idle
  /// First buffering of a load.
  case buffering
  /// Ready and the user wants to play.
  case playing
  /// Ready and the user wants to be paused.
  case paused
  /// Rebuffering after having been ready.
  case stalled
  /// At the end of the queue.
  case ended
  /// The load failed.
  case failed
  /// Ready and the user wants to play, but the system holds playback (``Suppression``).
  case suppressed
  /// Failed for want of the network; a reload follows (``RetryPolicy``).
  case waiting
}

/// The whole state of one player: the queue, the current load, the preload,
/// the user's intent, and the counters that issue ids.
///
/// A value: equatable, hashable, sendable and codable. Reduce it with
/// ``handle(_:)`` (in place) or ``transition(on:)``.
///
/// ```swift
/// var state = PlaybackState()
/// let step = state.transition(on: .play("A"))
/// print(step.next)       // buffering(A#1, autoplay)
/// print(step.commands)   // load(A#1)
/// ```
public struct PlaybackState: Hashable, Sendable, CustomStringConvertible {
  /// The queue: entries in play order, the current position, repeat and shuffle.
  public package(set) var queue: PlayQueue
  /// The current load, or nil when idle.
  public package(set) var session: Session?
  /// The next entry's load, preloading while the current one plays, if any.
  public package(set) var preload: Preload?
  /// The user's intent: play when ready (true) or stay paused (false). Kept across entries.
  public package(set) var playWhenReady: Bool
  /// The rate the user asked for; kept across entries and sent with every `start`.
  public package(set) var rate: PlaybackRate
  /// Whether the operating system's interruption is in progress. Not per load:
  /// it spans skips and new queues, and its end acts on whatever is current then.
  public package(set) var interrupted: Bool
  /// The user's volume, 0 to 1 (``UserIntent/setVolume(_:)``); kept across
  /// entries, by mute and by a duck. What the engine plays is ``effectiveVolume``.
  public package(set) var volume: Volume
  /// Whether the user muted (``UserIntent/setMuted(_:)``).
  public package(set) var muted: Bool
  /// Whether a duck is in progress (``SystemEvent/duckBegan``). Not per
  /// load: as an interruption, it spans skips and new queues.
  public package(set) var ducked: Bool
  /// The settings the reducer reads.
  public var configuration: PlayerConfiguration
  /// The newest load token issued (0 before the first load); never reset.
  public package(set) var issuedLoads: UInt32
  /// The newest item id issued (0 before the first entry); never reset.
  public package(set) var issuedItems: UInt32
  /// The engine's own error (domain, code, message) for the current load's
  /// failure, while it is failed or waiting for the network; nil otherwise,
  /// and when the engine gave none. Kept here, not in ``Session``, so that a
  /// session stays plain bytes: copying one on the hot path never touches a
  /// reference count.
  public package(set) var failure: FailureDetail?
  /// A restored entry's saved position (``init(restoring:configuration:)``):
  /// the first `resume` of that entry loads it from there; nil once a load
  /// exists or another entry is current, and in every state not restored.
  public package(set) var resumePoint: ResumePoint?
  /// The armed sleep timer, if any (``UserIntent/setSleepTimer(_:)``); for
  /// ``SleepTimer/afterEntries(_:)``, the natural ends still to go. A
  /// countdown is kept to the millisecond (rounded to the nearest when set).
  public package(set) var sleepTimer: SleepTimer? {
    get { storedSleepTimer.map(SleepTimer.init) }
    set { storedSleepTimer = newValue?.compact }
  }
  /// The armed sleep timer in the form kept and encoded: 9 bytes, a
  /// countdown in whole milliseconds.
  var storedSleepTimer: CompactSleepTimer?
  /// The newest sleep countdown id issued (0 before the first); never reset.
  /// An armed ``SleepTimer/after(_:)`` is the countdown with this id.
  public package(set) var issuedSleepTimers: UInt32
  /// A load fading out before its `stop`: one the user stopped while it
  /// played (``PlayerConfiguration/fade``; the state is idle), or the
  /// outgoing load of a crossfade (``PlayerConfiguration/crossfade``; beside
  /// the current load, with no preload). Nil without either.
  public package(set) var leaving: FadingLoad?

  /// The idle state of a new player.
  /// - Parameter configuration: the settings the reducer reads.
  public init(configuration: PlayerConfiguration = PlayerConfiguration()) {
    queue = PlayQueue()
    session = nil
    preload = nil
    leaving = nil
    playWhenReady = true
    rate = .normal
    interrupted = false
    volume = .full
    muted = false
    ducked = false
    self.configuration = configuration
    issuedLoads = 0
    issuedItems = 0
    failure = nil
    resumePoint = nil
    storedSleepTimer = nil
    issuedSleepTimers = 0
  }

  /// A state with the given parts, checked: the parts must be ones the
  /// reducer could have produced (``invariantViolation``), so a state built
  /// this way is one the reducer takes.
  ///
  /// ```swift
  /// let queue = PlayQueue(entries: [QueueEntry(item: ItemID(1), media: "A")], current: 0)
  /// let state = try PlaybackState(
  ///   checking: queue, session: nil, playWhenReady: false, issuedLoads: 0, issuedItems: 1)
  /// ```
  /// - Throws: ``InvalidStateError`` naming the first rule the parts break.
  public init(
    checking queue: PlayQueue, session: Session?, preload: Preload? = nil, playWhenReady: Bool,
    rate: PlaybackRate = .normal, interrupted: Bool = false,
    configuration: PlayerConfiguration = PlayerConfiguration(), issuedLoads: UInt32,
    issuedItems: UInt32, failure: FailureDetail? = nil, resumePoint: ResumePoint? = nil,
    sleepTimer: SleepTimer? = nil, issuedSleepTimers: UInt32 = 0, volume: Volume = .full,
    muted: Bool = false, ducked: Bool = false, leaving: FadingLoad? = nil
  ) throws(InvalidStateError) {
    self.init(
      queue: queue, session: session, preload: preload, playWhenReady: playWhenReady, rate: rate,
      interrupted: interrupted, configuration: configuration, issuedLoads: issuedLoads,
      issuedItems: issuedItems, failure: failure, resumePoint: resumePoint,
      sleepTimer: sleepTimer, issuedSleepTimers: issuedSleepTimers, volume: volume, muted: muted,
      ducked: ducked, leaving: leaving)
    if let violation = invariantViolation { throw InvalidStateError(reason: violation) }
  }

  /// A state with the given parts, unchecked: for the package's own tables
  /// and tests, which build states the reducer reaches. Outside the package,
  /// ``init(checking:session:preload:playWhenReady:rate:interrupted:configuration:issuedLoads:issuedItems:failure:resumePoint:sleepTimer:issuedSleepTimers:volume:muted:ducked:leaving:)``
  /// and the decoder are the ways in, and both check.
  package init(
    queue: PlayQueue, session: Session?, preload: Preload? = nil, playWhenReady: Bool,
    rate: PlaybackRate = .normal, interrupted: Bool = false,
    configuration: PlayerConfiguration = PlayerConfiguration(), issuedLoads: UInt32,
    issuedItems: UInt32, failure: FailureDetail? = nil, resumePoint: ResumePoint? = nil,
    sleepTimer: SleepTimer? = nil, issuedSleepTimers: UInt32 = 0, volume: Volume = .full,
    muted: Bool = false, ducked: Bool = false, leaving: FadingLoad? = nil
  ) {
    self.queue = queue
    self.session = session
    self.preload = preload
    self.leaving = leaving
    self.playWhenReady = playWhenReady
    self.rate = rate
    self.interrupted = interrupted
    self.volume = volume
    self.muted = muted
    self.ducked = ducked
    self.configuration = configuration
    self.issuedLoads = issuedLoads
    self.issuedItems = issuedItems
    self.failure = failure
    self.resumePoint = resumePoint
    storedSleepTimer = sleepTimer?.compact
    self.issuedSleepTimers = issuedSleepTimers
  }

  /// The named state.
  public var kind: StateKind {
    guard let session else { return .idle }
    switch session.stage {
    case .buffering: return .buffering
    case .ready:
      guard playWhenReady else { return .paused }
      return suppression == nil ? .playing : .suppressed
    case .stalled: return .stalled
    case .ended: return .ended
    case .failed: return .failed
    case .waitingForNetwork: return .waiting
    }
  }

  /// Why the system holds playback, if it does: an interruption in progress (or
  /// a duck under the ``DuckPolicy/pause`` policy, which holds as one), or the
  /// engine's report that the system paused the current load.
  public var suppression: Suppression? {
    if interrupted || duckHolds { return .interruption }
    if let session, session.systemPaused, session.stage.isStarted {
      return .systemPause
    }
    return nil
  }

  /// Whether media is playing: the engine is ready, the user wants to play, and
  /// the system does not hold playback.
  public var isPlaying: Bool {
    guard let session else { return false }
    return session.stage == .ready && playWhenReady && suppression == nil
  }

  /// The volume the engine plays at: 0 while muted; the user's volume scaled
  /// by the duck's level while a duck lowers it (``DuckPolicy/lower(to:)``,
  /// rounded half up to the thousandth); else the user's volume.
  public var effectiveVolume: Volume {
    if muted { return .silent }
    if ducked, case .lower(let level) = configuration.ducking { return volume.scaled(by: level) }
    return volume
  }

  /// The current load, if any.
  public var load: Load? { session?.load }

  /// The media of a queue entry, if the entry is still in the queue.
  /// - Complexity: O(1) for the entries a step names (the current one, its
  ///   neighbours, the preload's, which is always the next to play), so
  ///   describing every step of a long queue stays linear; O(n) for any other.
  public func media(of item: ItemID) -> MediaID? {
    let entries = queue.entries
    func at(_ index: Int) -> MediaID? {
      entries.indices.contains(index) && entries.item(at: index) == item
        ? entries[index].media : nil
    }
    // The current entry, then the ones a step leaves or preloads: the entries
    // around it and the next to play (the first, under repeat all).
    if let current = queue.current,
      let media = at(current) ?? at(current + 1) ?? at(current - 1)
        ?? queue.nextIndex.flatMap(at)
    {
      return media
    }
    return entries.first { $0.item == item }?.media
  }

  /// The compact form: `idle`, `buffering(A#2, autoplay)`, `playing(A#2)`,
  /// `stalled(A#2, paused)`, `failed(A#2, network)`,
  /// `suppressed(A#2, interrupted)` (`ducked` when a duck under
  /// ``DuckPolicy/pause`` holds it alone); a pending seek adds `seek#N`, a
  /// preload `preloading B#3` or `preloaded B#3`, a fade-out into a pause
  /// `fading out`, a crossfade `crossfade from A#2`; `idle(fading out A#2)`
  /// while a stopped load fades out.
  public var description: String {
    let name = { (item: ItemID) in self.media(of: item) }
    guard let session else {
      guard let leaving else { return "idle" }
      return "idle(fading out \(leaving.load.description(naming: name)))"
    }
    var parts = [session.load.description(naming: name)]
    if session.window != nil { parts.append(session.kind.description) }
    if session.fadingOut { parts.append("fading out") }
    switch session.stage {
    case .buffering:
      parts.append(playWhenReady ? "autoplay" : "paused")
    case .stalled:
      if !playWhenReady { parts.append("paused") }
    case .ended, .failed, .waitingForNetwork:
      if playWhenReady { parts.append("autoplay") }
    case .ready:
      break
    }
    if case .failed(let reason) = session.stage { parts.insert(reason.description, at: 1) }
    if session.stage == .waitingForNetwork {
      parts.insert("network, attempt \(Int(session.networkAttempts) + 1)", at: 1)
    }
    if let suppression {
      switch suppression {
      case .interruption: parts.append(interrupted ? "interrupted" : "ducked")
      case .systemPause: parts.append("system pause")
      }
    }
    if session.seekPending { parts.append(session.lastSeek.description) }
    if let sleepTimer { parts.append("sleep \(sleepTimer)") }
    if let leaving { parts.append("crossfade from \(leaving.load.description(naming: name))") }
    if let preload {
      let word =
        switch preload.stage {
        case .buffering: "preloading"
        case .ready: "preloaded"
        case .failed: "preload failed"
        case .live: "preload live"
        }
      parts.append("\(word) \(preload.load.description(naming: name))")
    }
    return "\(kind.rawValue)(\(parts.joined(separator: ", ")))"
  }
}
