// Crossfade (`configuration.crossfade`, docs/machine.md "Crossfade"): within
// the crossfade of the end of the current entry, its ready preload starts at
// volume 0 and ramps up while the current load ramps down, kept as the
// leaving load with a timer. That load is then stopped exactly once: by its
// own end or its timer (Reducer.swift), or first by whatever leaves, pauses,
// holds or stops the entry after it (`stopOutgoing`).

extension PlaybackState {
  /// Starts a crossfade when the current load's newest position is inside
  /// the window; called for each position report accepted while a crossfade
  /// is set, so the cheapest tests come first and nothing is copied until
  /// one starts.
  mutating func crossfadeIfDue(_ effects: inout Effects) {
    guard let preload, preload.stage == .ready, leaving == nil, let session,
      session.stage == .ready, plays(session), let duration = session.duration
    else { return }
    let length = configuration.crossfadeLength
    // What is left of the media plays in at most the crossfade: `d × rate` of media.
    let window = MediaTime(milliseconds: (length * Int64(rate.thousandths)).milliseconds / 1000)
    guard duration - session.position <= window, duration >= length * 2,
      case .advance(let next) = queue.endOfEntry,
      queue.entries.item(at: next) == preload.load.item,
      !sleepStopsAtCurrentEnd, effectiveVolume != .silent,
      let timer = session.lastWatchdog.successor
    else { return }
    // The preload becomes the session at once, as a gapless advance would
    // make it, and the entry that ends is counted now, once.
    countSleepTimerEnd(stopping: false)
    queue.current = next
    self.preload = nil
    let incoming = Session(load: preload.load, stage: .ready, duration: preload.duration)
    effects.commands.append(.setVolume(incoming.load, .silent))
    effects.commands.append(.start(incoming.load, rate: playingRate(of: incoming)))
    effects.commands.append(
      .setVolume(incoming.load, effectiveVolume, ramp: configuration.crossfade))
    effects.commands.append(.setVolume(session.load, .silent, ramp: configuration.crossfade))
    effects.watchdog = WatchdogRequest(
      load: session.load, id: timer, purpose: .fadeOut, wait: length)
    leaving = FadingLoad(load: session.load, timer: timer)
    self.session = incoming
  }

  /// Stops a crossfade's outgoing load (a load leaving beside the current
  /// one): the first thing any step that leaves, pauses, holds or stops the
  /// current entry does, so nothing of the old entry stays audible. A load
  /// fading out into a stop (idle) is left to its fade.
  mutating func stopOutgoing(_ effects: inout Effects) {
    if session != nil { stopLeaving(&effects) }
  }

  /// A report about the load fading out (a stop's or a crossfade's): its
  /// end or its failure stops it, once (a failed load gets its `stop` from
  /// the machine, as every failed load does); any other report is stale.
  mutating func applyToLeaving(_ report: EngineReport, _ effects: inout Effects) -> IgnoreReason? {
    switch report {
    case .reachedEnd, .failed:
      stopLeaving(&effects)
      return nil
    default:
      return .staleLoad
    }
  }
}
