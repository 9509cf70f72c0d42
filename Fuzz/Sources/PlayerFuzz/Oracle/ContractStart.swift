package import PlayerState

// A case may start from a given state (a `PlaybackState` checked by
// `PlaybackState(checking:…)`, its ids within a few of exhaustion): the
// contract reads the state's parts as data, field by field, and goes on from
// there with its own rules.

extension ContractModel {
  /// A model of a player that starts in `start`, set up as the case says.
  /// - Parameters:
  ///   - start: the player's state when the case begins.
  ///   - canPreload: whether the engine declared `.preload`.
  ///   - retry: the player's retry policy.
  ///   - previousThreshold: the player's `previousThreshold`.
  ///   - ducking: the player's duck policy.
  ///   - fade: the player's fade (zero: off).
  ///   - crossfade: the player's crossfade (zero: off).
  package init(
    start: PlaybackState, canPreload: Bool, retry: RetryPolicy, previousThreshold: MediaTime,
    ducking: DuckPolicy = PlayerConfiguration().ducking, fade: MediaTime = .zero,
    crossfade: MediaTime = .zero
  ) {
    self.init(
      canPreload: canPreload, retry: retry, previousThreshold: previousThreshold, ducking: ducking,
      fade: fade, crossfade: crossfade)
    let queue = start.queue
    entries = queue.entries.map { Entry(item: $0.item, media: $0.media) }
    position = queue.current
    repeatMode = queue.repeatMode
    if let shuffled = queue.shuffle {
      shuffle = (shuffled.seed, shuffled.unshuffled.map { Entry(item: $0.item, media: $0.media) })
    }
    for entry in entries { media[entry.item] = entry.media }
    playWhenReady = start.playWhenReady
    rate = start.rate
    interrupted = start.interrupted
    issued = start.issuedLoads
    issuedItems = start.issuedItems
    tokenBase = start.issuedLoads
    sleep = start.sleepTimer
    issuedSleep = start.issuedSleepTimers
    volume = start.volume
    muted = start.muted
    ducked = start.ducked
    if let session = start.session {
      var current = Current(
        load: session.load, stage: Self.stage(session.stage), lastSeek: session.lastSeek.rawValue,
        seekPending: session.seekPending, lastWatchdog: session.lastWatchdog.rawValue,
        started: false, position: session.position.milliseconds,
        duration: session.duration?.milliseconds, systemPaused: session.systemPaused,
        attempts: session.networkAttempts, failure: start.failure)
      if case .failed(let reason) = session.stage { current.reason = reason }
      // A live load's window (ContractLive.swift).
      current.window = session.window
      // The engine was told to play a ready or stalled load the user wants
      // playing and nothing holds (property 6 reads it).
      current.started =
        (current.stage == .ready || current.stage == .stalled) && playWhenReady && !interrupted
        && !duckHolds && !current.systemPaused
      // A load fading out into the user's pause is still played by the engine.
      if session.fadingOut, current.stage == .ready {
        current.fadingOut = true
        current.started = true
      }
      self.current = current
    }
    leaving = start.leaving.map { FadingOut(load: $0.load, timer: $0.timer.rawValue) }
    if let preload = start.preload {
      var preloading = Preloading(
        load: preload.load, stage: .buffering, duration: preload.duration?.milliseconds)
      switch preload.stage {
      case .buffering: break
      case .ready: preloading.stage = .ready
      case .failed(let reason):
        preloading.stage = .failed
        preloading.reason = reason
      case .live:
        // Stopped for its window: a record, never promoted (ContractLive.swift).
        preloading.stage = .failed
        preloading.live = true
      }
      self.preload = preloading
    }
    // The newest loads, for naming and generating.
    let loads = [current?.load, preload?.load].compactMap { $0 }.sorted { $0.token < $1.token }
    newest = loads.last
    previous = loads.count == 2 ? loads.first : nil
  }

  /// The contract's name for a stage the state holds.
  private static func stage(_ stage: EngineStage) -> Stage {
    switch stage {
    case .buffering: .buffering
    case .ready: .ready
    case .stalled: .stalled
    case .ended: .ended
    case .failed: .failed
    case .waitingForNetwork: .waiting
    }
  }

  /// The item `token` was issued for, when the contract knows it: a token
  /// issued in the case, or the current or preloading load's.
  package func item(ofToken token: UInt32) -> ItemID? {
    if token > tokenBase, token - tokenBase <= UInt32(tokenItems.count) {
      return tokenItems[Int(token - tokenBase) - 1]
    }
    if let current, current.load.token.rawValue == token { return current.load.item }
    if let preload, preload.load.token.rawValue == token { return preload.load.item }
    return nil
  }
}
