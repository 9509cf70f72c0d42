extension PlaybackState {
  /// The first rule that no state produced by the reducer can break, broken
  /// by this one; nil for every reachable state.
  ///
  /// Written down once and checked in two places: the decoder rejects a state
  /// that breaks one, and the tests check every state the reducer returns.
  /// - Complexity: O(n) in the queue's length.
  public var invariantViolation: String? {
    let entries = queue.entries
    var items = Set<ItemID>()
    for entry in entries {
      if entry.item.rawValue == 0 || entry.item.rawValue > issuedItems {
        return "queue entry \(entry.item) was never issued (issuedItems \(issuedItems))"
      }
      if !items.insert(entry.item).inserted { return "queue entry \(entry.item) appears twice" }
    }
    if let current = queue.current {
      if !entries.indices.contains(current) {
        return "current position \(current) is outside the queue of \(entries.count)"
      }
    } else if !entries.isEmpty {
      return "a queue of \(entries.count) entries has no current position"
    }
    if let shuffle = queue.shuffle, !shuffle.holdsExactly(entries) {
      return "the shuffle's list order holds other entries than the queue"
    }
    if rate.thousandths <= 0 { return "rate \(rate) is not positive" }
    if !volume.isValid { return "volume \(volume) is outside 0...1" }
    if let violation = configuration.violation { return violation }
    if failure != nil, !(session?.stage.isStopped ?? false) {
      return "a failure detail without a failed or waiting load"
    }
    if let session {
      if let violation = check(session.load, "session") { return violation }
      guard let entry = queue.currentEntry, entry.item == session.load.item else {
        return "the session's load \(session.load) is not the current queue entry"
      }
      if session.seekPending {
        if session.lastSeek.rawValue == 0 { return "a seek is pending but none was issued" }
        switch session.stage {
        case .ended, .failed, .waitingForNetwork:
          return "a seek is pending in stage \(session.stage)"
        case .buffering, .ready, .stalled: break
        }
      }
      if session.position.milliseconds < 0 { return "position \(session.position) is negative" }
      if session.lastWatchdog.rawValue == 0,
        session.stage == .buffering || session.stage == .stalled
      {
        return
          "a \(session.stage) session without a watchdog (one is armed with every load and stall)"
      }
      if session.lastWatchdog.rawValue == 0, session.stage == .waitingForNetwork {
        return "a session waiting for the network without a backoff timer"
      }
      let armed = Session.purpose(armedIn: session.stage)
      if session.stage == .buffering || session.stage == .stalled
        || session.stage == .waitingForNetwork, session.timerPurpose != armed
      {
        return "a \(session.stage) session whose newest timer is a \(session.timerPurpose)"
      }
      if session.fadingOut {
        if session.stage != .ready || playWhenReady || session.systemPaused || interrupted
          || duckHolds
        {
          return "a load fading out into a pause in stage \(session.stage), "
            + "playWhenReady \(playWhenReady), or held by the system"
        }
        if session.timerPurpose != .fadeOut || session.lastWatchdog.rawValue == 0 {
          return "a load fading out whose newest timer is a \(session.timerPurpose)"
        }
      }
      // 14. A live load's window is one the machine takes, and nothing is
      // preloaded beside a live load (it has no end to be gapless about).
      if let window = session.window {
        if !window.isValid { return "a live window \(window) that is not 0 ≤ start ≤ end" }
        if preload != nil { return "a preload beside a live load" }
      }
      // A load waits only while the policy allows another reload.
      if session.stage == .waitingForNetwork,
        session.networkAttempts >= configuration.retry.attempts
      {
        return "waiting for the network after \(session.networkAttempts) reloads, "
          + "with a retry policy of \(configuration.retry.attempts)"
      }
    }
    if let preload {
      guard let session else { return "a preload without a current load" }
      if let violation = check(preload.load, "preload") { return violation }
      if preload.load.token == session.load.token || preload.load.item == session.load.item {
        return "the preload \(preload.load) is the current load"
      }
      if !items.contains(preload.load.item) {
        return "the preload's entry \(preload.load.item) is not in the queue"
      }
    }
    if let leaving {
      // A stop's fade is idle; a crossfade's is beside the current load, with no preload.
      if preload != nil { return "a load fading out beside a preload" }
      if let violation = check(leaving.load, "fading-out") { return violation }
      if leaving.timer.rawValue == 0 { return "a load fading out without its timer" }
      if let session, session.load.token == leaving.load.token {
        return "the load fading out \(leaving.load) is the current load"
      }
    }
    if let point = resumePoint {
      if session != nil { return "a resume point beside a load" }
      if point.item != queue.currentEntry?.item {
        return "a resume point for \(point.item), which is not the current entry"
      }
      if point.position < .zero { return "resume point position \(point.position) is negative" }
      if let offset = point.liveOffset, offset < .zero {
        return "resume point live offset \(offset) is negative"
      }
    }
    if let sleepTimer {
      if let violation = sleepTimer.violation { return violation }
      if case .after = sleepTimer, issuedSleepTimers == 0 {
        return "a sleep countdown armed but none was issued"
      }
    }
    return nil
  }

  private func check(_ load: Load, _ role: String) -> String? {
    if load.token.rawValue == 0 || load.token.rawValue > issuedLoads {
      return "\(role) token \(load.token) was never issued (issuedLoads \(issuedLoads))"
    }
    return nil
  }
}

extension PlaybackState: Codable {
  /// The version written by ``encode(to:)``; ``init(from:)`` rejects others.
  public static let codingVersion = 3

  private enum CodingKeys: String, CodingKey {
    case version, queue, session, preload, playWhenReady, rate, interrupted, configuration,
      issuedLoads, issuedItems, failure, resumePoint, sleepTimer, issuedSleepTimers, volume, muted,
      ducked, leaving
  }

  /// Decodes a state written by ``encode(to:)``.
  /// - Throws: `DecodingError.dataCorrupted` for an unknown version, or a
  ///   state the reducer cannot produce (``invariantViolation``).
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let version = try container.decode(Int.self, forKey: .version)
    guard version == Self.codingVersion else {
      throw DecodingError.dataCorruptedError(
        forKey: .version, in: container,
        debugDescription:
          "unsupported PlaybackState version \(version); expected \(Self.codingVersion)")
    }
    queue = try container.decode(PlayQueue.self, forKey: .queue)
    session = try container.decodeIfPresent(Session.self, forKey: .session)
    preload = try container.decodeIfPresent(Preload.self, forKey: .preload)
    playWhenReady = try container.decode(Bool.self, forKey: .playWhenReady)
    rate = try container.decode(PlaybackRate.self, forKey: .rate)
    interrupted = try container.decode(Bool.self, forKey: .interrupted)
    configuration = try container.decode(PlayerConfiguration.self, forKey: .configuration)
    issuedLoads = try container.decode(UInt32.self, forKey: .issuedLoads)
    issuedItems = try container.decode(UInt32.self, forKey: .issuedItems)
    failure = try container.decodeIfPresent(FailureDetail.self, forKey: .failure)
    resumePoint = try container.decodeIfPresent(ResumePoint.self, forKey: .resumePoint)
    // Absent in states written before the sleep timer (issue 24): none armed.
    storedSleepTimer = try container.decodeIfPresent(CompactSleepTimer.self, forKey: .sleepTimer)
    issuedSleepTimers =
      try container.decodeIfPresent(UInt32.self, forKey: .issuedSleepTimers) ?? 0
    // Absent in states written before volume (issue 37), and when at their defaults.
    volume = try container.decodeIfPresent(Volume.self, forKey: .volume) ?? .full
    muted = try container.decodeIfPresent(Bool.self, forKey: .muted) ?? false
    ducked = try container.decodeIfPresent(Bool.self, forKey: .ducked) ?? false
    // Absent in states written before fades, and when no load fades out.
    leaving = try container.decodeIfPresent(FadingLoad.self, forKey: .leaving)
    if let violation = invariantViolation {
      throw DecodingError.dataCorruptedError(
        forKey: .version, in: container, debugDescription: "unreachable state: \(violation)")
    }
  }

  /// Encodes the state with a `version` field.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(Self.codingVersion, forKey: .version)
    try container.encode(queue, forKey: .queue)
    try container.encodeIfPresent(session, forKey: .session)
    try container.encodeIfPresent(preload, forKey: .preload)
    try container.encode(playWhenReady, forKey: .playWhenReady)
    try container.encode(rate, forKey: .rate)
    try container.encode(interrupted, forKey: .interrupted)
    try container.encode(configuration, forKey: .configuration)
    try container.encode(issuedLoads, forKey: .issuedLoads)
    try container.encode(issuedItems, forKey: .issuedItems)
    try container.encodeIfPresent(failure, forKey: .failure)
    try container.encodeIfPresent(resumePoint, forKey: .resumePoint)
    try container.encodeIfPresent(storedSleepTimer, forKey: .sleepTimer)
    if issuedSleepTimers != 0 {
      try container.encode(issuedSleepTimers, forKey: .issuedSleepTimers)
    }
    if volume != .full { try container.encode(volume, forKey: .volume) }
    if muted { try container.encode(muted, forKey: .muted) }
    if ducked { try container.encode(ducked, forKey: .ducked) }
    try container.encodeIfPresent(leaving, forKey: .leaving)
  }
}

extension PlayerConfiguration {
  /// The first rule of a configuration the reducer can take that this one
  /// breaks (a retry policy's backoffs, a duck's level in 0…1); nil if none.
  package var violation: String? {
    if case .lower(let level) = ducking, !level.isValid {
      return "duck level \(level) is outside 0...1"
    }
    return retry.violation
  }
}
