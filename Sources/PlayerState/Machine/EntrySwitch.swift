// Leaving and entering entries: the only code that ends the current load,
// opens a new one or promotes the preload to current. With fades, the user's
// `stop` of a playing load leaves it fading out (`leaving`) while the state
// is idle already; its timer, or the next load opened, stops it, once.

extension PlaybackState {
  /// Whether a new load token can be issued.
  var tokenAvailable: Bool { issuedLoads < UInt32.max }

  /// Whether `stop` changes anything: a load, a preload or a sleep timer to end.
  var canStop: Bool { session != nil || preload != nil || storedSleepTimer != nil }

  /// `stop`: nothing loaded; the queue stays. A playing load fades out
  /// first when fades are on: idle at once, the load stopped at the fade's end.
  mutating func stop(_ effects: inout Effects) -> IgnoreReason? {
    guard canStop else { return .noEffect }
    stopOutgoing(&effects)
    if let session, fadesOut(session), let timer = session.lastWatchdog.successor {
      dropPreload(&effects)
      effects.commands.append(.setVolume(session.load, .silent, ramp: configuration.fade))
      effects.watchdog = WatchdogRequest(
        load: session.load, id: timer, purpose: .fadeOut, wait: configuration.fadeLength)
      leaving = FadingLoad(load: session.load, timer: timer)
      self.session = nil
    } else {
      leave(keepingPreload: false, &effects)
    }
    sleepTimer = nil
    return nil
  }

  /// Stops the load fading out (into a stop, or a crossfade's), before
  /// another load opens or at the end of its fade.
  mutating func stopLeaving(_ effects: inout Effects) {
    guard let leaving else { return }
    effects.commands.append(.stop(leaving.load))
    self.leaving = nil
  }

  /// Whether `retry` changes anything: the current entry's load failed or
  /// waits for the network.
  var canRetry: Bool {
    guard let session, session.stage.isStopped else { return false }
    return queue.current != nil
  }

  /// `retry`: a failed or waiting load opens again at its last known
  /// position (a hand retry starts the network attempts over).
  mutating func retry(_ effects: inout Effects) -> IgnoreReason? {
    guard canRetry, let session else { return .noEffect }
    // A live load's old position has left its window: at the edge.
    if session.window != nil { return enterCurrent(from: .zero, atLiveEdge: true, &effects) }
    return enterCurrent(from: session.position, &effects)
  }

  /// Stops the current load (a failed one was stopped when it failed) and,
  /// unless it is about to be promoted, the preload: idle.
  mutating func leave(keepingPreload: Bool, _ effects: inout Effects) {
    stopOutgoing(&effects)
    if let session {
      if !session.stage.isStopped { effects.commands.append(.stop(session.load)) }
      self.session = nil
    }
    if !keepingPreload { dropPreload(&effects) }
  }

  /// Makes the entry at `position` current; loads it if a load was live.
  mutating func go(
    to position: Int, from time: MediaTime, _ effects: inout Effects
  ) -> IgnoreReason? {
    let wasLoaded = session != nil
    let promotes = preloadUsable(for: position, from: time)
    if wasLoaded, !(promotes || tokenAvailable) { return .idsExhausted }
    leave(keepingPreload: promotes, &effects)
    queue.current = position
    if wasLoaded { _ = enterCurrent(from: time, &effects) }
    return nil
  }

  /// Replaces the queue with new entries and loads the one at `start`.
  mutating func replace(
    _ media: some Collection<MediaID>, start: Int, from time: MediaTime, playWhenReady play: Bool,
    _ effects: inout Effects
  ) -> IgnoreReason? {
    guard tokenAvailable, UInt32.max - issuedItems >= media.count else { return .idsExhausted }
    leave(keepingPreload: false, &effects)
    // Refilled in place: a player reduced in place (the driver) reuses the
    // queue's storage, so `play(M)` allocates nothing once the queue has room.
    let seed = queue.shuffle?.seed
    queue.shuffle = nil
    // Entries are overwritten where the old queue had some (cheaper than
    // emptying and appending: `play(M)` over a queue of one is one store).
    var index = 0
    for name in media {
      issuedItems += 1
      let entry = QueueEntry(item: ItemID(issuedItems), media: name)
      if index < queue.entries.count {
        queue.entries.replace(at: index, with: entry)
      } else {
        queue.entries.append(entry)
      }
      index += 1
    }
    if index < queue.entries.count { queue.entries.truncate(to: index) }
    queue.current = start
    if let seed { queue.shuffle(seed: seed) }
    playWhenReady = play
    _ = enterCurrent(from: time, &effects)
    return nil
  }

  /// Opens the current queue entry, replacing any stopped load: promotes the
  /// preload if it is of this entry and starts from 0, or issues a new load.
  mutating func enterCurrent(
    from time: MediaTime, atLiveEdge: Bool = false, _ effects: inout Effects
  ) -> IgnoreReason? {
    guard let position = queue.current else { return .noEffect }
    if preload != nil, !atLiveEdge,
      let promoted = promotePreload(for: position, from: time, &effects)
    {
      session = promoted
      return nil
    }
    guard tokenAvailable else { return .idsExhausted }
    // The load fading out into a stop goes first: while idle only, so the
    // one load live beside the new one for an instant is never audible with it.
    stopLeaving(&effects)
    issuedLoads += 1
    let load = Load(item: queue.entries.item(at: position), token: LoadToken(issuedLoads))
    effects.commands.appendOpening(
      load, media: queue.entries[position].media, start: time, atLiveEdge: atLiveEdge)
    let (session, watchdog) = Session.opening(load, from: time, atLiveEdge: atLiveEdge)
    self.session = session
    effects.watchdog = watchdog
    return nil
  }
}
