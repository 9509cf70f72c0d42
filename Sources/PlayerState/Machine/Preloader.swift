// The preload: the next entry loaded ahead under its own token while the
// current one plays (gapless). It is kept in step with the queue once, after
// every accepted event (`keepPreloadInStep`, called by the coordinator), and
// promoted to current only by EntrySwitch.

extension PlaybackState {
  /// Keeps the preload in step with the queue: drops one whose entry is no
  /// longer next, and preloads the next entry once the current one is ready.
  mutating func keepPreloadInStep(_ effects: inout Effects) {
    // Indices and item ids only: copying a `QueueEntry` would copy its string.
    var wanted: Int?
    // Nothing beside a live load: it has no end to be gapless about.
    if configuration.canPreload, let stage = session?.stage, session?.window == nil {
      switch stage {
      // Nothing is preloaded for an entry a sleep timer keeps from starting:
      // a gapless engine would roll into it by itself.
      case .buffering, .ready, .stalled: wanted = sleepStopsAtCurrentEnd ? nil : queue.nextIndex
      case .ended, .failed, .waitingForNetwork: wanted = nil
      }
    }
    if let preload {
      if let wanted, queue.entries.item(at: wanted) == preload.load.item { return }
      dropPreload(&effects)
    }
    // None while a load fades out: at most two loads are live (a crossfade's
    // end issues it).
    guard let wanted, session?.stage == .ready, leaving == nil, tokenAvailable else { return }
    issuedLoads += 1
    let load = Load(item: queue.entries.item(at: wanted), token: LoadToken(issuedLoads))
    effects.commands.appendOpening(
      load, media: queue.entries[wanted].media, start: .zero, preload: true)
    preload = Preload(load: load, stage: .buffering)
  }

  /// A report about the preloading load: only `ready` and `failed` count.
  mutating func applyToPreload(
    _ report: EngineReport, _ preload: Preload, _ effects: inout Effects
  ) -> IgnoreReason? {
    switch (report, preload.stage) {
    case (.ready(_, let duration), .buffering):
      self.preload?.stage = .ready
      self.preload?.duration = duration
    case (.failed(_, let reason, _), .buffering), (.failed(_, let reason, _), .ready):
      self.preload?.stage = .failed(reason)
      effects.commands.append(.stop(preload.load))
    case (.window(_, let window), .buffering), (.window(_, let window), .ready):
      // A live entry is loaded at its turn, at its edge: stopped now, never started.
      guard window.isValid else { return .invalidArgument }
      self.preload?.stage = .live
      effects.commands.append(.stop(preload.load))
    default:
      return .unexpected
    }
    return nil
  }

  /// Whether the preload is of the entry at `position` and can start it from `time`.
  func preloadUsable(for position: Int, from time: MediaTime) -> Bool {
    guard let preload, time == .zero, queue.entries.item(at: position) == preload.load.item else {
      return false
    }
    return !preload.stage.isStopped
  }

  /// The preload of the entry at `position` as the current session, if it is
  /// usable: started if ready and the user wants to play, watched if still buffering.
  mutating func promotePreload(
    for position: Int, from time: MediaTime, _ effects: inout Effects
  ) -> Session? {
    guard preloadUsable(for: position, from: time), let preload else { return nil }
    self.preload = nil
    let ready = preload.stage == .ready
    var session = Session(
      load: preload.load, stage: ready ? .ready : .buffering, duration: preload.duration)
    if ready {
      startIfPlays(session, &effects)
    } else {
      effects.watchdog = session.arm(.loadWatchdog)
    }
    return session
  }

  /// Stops the preload (a failed one was stopped when it failed).
  mutating func dropPreload(_ effects: inout Effects) {
    guard let preload else { return }
    if !preload.stage.isStopped { effects.commands.append(.stop(preload.load)) }
    self.preload = nil
  }
}
