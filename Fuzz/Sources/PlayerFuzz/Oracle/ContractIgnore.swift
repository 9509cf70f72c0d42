package import PlayerState

// Why the contract ignores an event, decided before anything changes, from
// docs/machine.md: "Identity first", the tables of "The current load", "The
// queue", "The preload" and "The system", and "Ids never wrap". Written apart
// from the reducer (whose reasons it predicts): an event with a reason here
// changes nothing in the model and sends nothing.

extension ContractModel {
  /// Why the contract ignores `event` in this state, or nil when it accepts it.
  package func ignoreReason(for event: PlaybackEvent) -> IgnoreReason? {
    switch event {
    case .user(let intent), .remote(let intent): return ignoreReason(for: intent)
    case .engine(let report): return ignoreReason(for: report)
    case .watchdogExpired(let load, let id): return ignoreReason(expiry: load, id.rawValue)
    case .system(let system): return ignoreReason(for: system)
    }
  }

  // MARK: Identity first

  private enum Identity {
    case current(Current)
    case preloading(Preloading)
    case ignored(IgnoreReason)
  }

  /// "Identity first": never issued, then neither current nor preloading
  /// (stale), then the right token with another item.
  private func identity(of load: Load) -> Identity {
    let token = load.token.rawValue
    if token == 0 || token > issued { return .ignored(.neverIssuedLoad) }
    if let current, current.load.token == load.token {
      return current.load.item == load.item ? .current(current) : .ignored(.itemMismatch)
    }
    if let preload, preload.load.token == load.token {
      return preload.load.item == load.item ? .preloading(preload) : .ignored(.itemMismatch)
    }
    // A load fading out into a stop: its token is known, so a wrong item is named as for
    // the session and the preload; a report about it is stale (docs/machine.md, "Identity first").
    if let leaving, leaving.load.token == load.token, leaving.load.item != load.item {
      return .ignored(.itemMismatch)
    }
    return .ignored(.staleLoad)
  }

  // MARK: Reports and timers

  private func ignoreReason(for report: EngineReport) -> IgnoreReason? {
    // The load fading out: its end and its failure stop it; the rest is stale.
    if let leaving, leaving.load == report.load {
      switch report {
      case .reachedEnd, .failed: return nil
      default: return .staleLoad
      }
    }
    let session: Current
    switch identity(of: report.load) {
    case .ignored(let reason): return reason
    case .preloading(let preload):
      // Only `ready` while buffering and `failed` before it failed count.
      switch report {
      case .ready where preload.stage == .buffering: return nil
      case .failed where preload.stage == .buffering || preload.stage == .ready: return nil
      case .window(_, let window): return windowIgnoreReason(window, preload: preload)
      default: return .unexpected
      }
    case .current(let current): session = current
    }
    let stage = session.stage
    let started = stage == .ready || stage == .stalled
    switch report {
    case .ready: return stage == .buffering ? nil : .unexpected
    case .stalled:
      guard stage == .ready else { return .unexpected }
      // A stall arms the next watchdog id.
      return session.lastWatchdog == UInt32.max ? .idsExhausted : nil
    case .resumed: return stage == .stalled ? nil : .unexpected
    case .seekCompleted(_, let seek):
      if stage.isStopped { return .unexpected }
      if seek.rawValue == 0 || seek.rawValue > session.lastSeek { return .neverIssuedSeek }
      if seek.rawValue < session.lastSeek { return .supersededSeek }
      return session.seekPending ? nil : .unexpected
    case .position(_, let time):
      if stage.isStopped || time < .zero { return .unexpected }
      if session.seekPending { return .seekPending }
      // Behind a DVR window: a reload at the edge needs a token (ContractLive.swift).
      if let window = session.window, fellBehind(session, at: time.milliseconds, window),
        issued == UInt32.max
      {
        return .idsExhausted
      }
      return nil
    case .reachedEnd:
      guard started else { return .unexpected }
      if session.seekPending { return .seekPending }
      return endIgnoreReason(session)
    case .failed(_, let reason, _):
      switch stage {
      case .failed, .waiting: return .unexpected
      case .ended: return nil
      case .ready where reason == .behindLiveWindow, .stalled where reason == .behindLiveWindow:
        // A reload at the edge (ContractLive.swift).
        return issued == UInt32.max ? .idsExhausted : nil
      case .buffering, .ready, .stalled:
        // Waiting for the network arms the backoff timer: the next watchdog id.
        let waits = reason == .network && session.attempts < retry.attempts
        return waits && session.lastWatchdog == UInt32.max ? .idsExhausted : nil
      }
    case .pausedBySystem:
      return started && playWhenReady && !suppressed ? nil : .unexpected
    case .window(_, let window): return windowIgnoreReason(window, session)
    }
  }

  /// The end of the current entry: a replay needs a seek id, an advance a
  /// token (unless the preload of the next entry is promoted).
  private func endIgnoreReason(_ session: Current) -> IgnoreReason? {
    guard let at = position else { return .unexpected }
    let next = after(at)
    // A live broadcast that ended is never replayed: it ends (ContractLive.swift).
    if repeatMode == .one || next == at, session.window != nil { return nil }
    if repeatMode == .one || next == at {
      return session.lastSeek == UInt32.max ? .idsExhausted : nil
    }
    // An advance a sleep timer stops at loads nothing: no token needed.
    guard let next, !sleepStopsHere else { return nil }
    return needsToken(toEnter: next, from: 0) ? .idsExhausted : nil
  }

  private func ignoreReason(expiry load: Load, _ id: UInt32) -> IgnoreReason? {
    // The leaving load's timer stops it (ContractFade.swift). Another expiry
    // naming it is `staleWatchdog`, as one naming the preload (docs/machine.md,
    // "Identity first").
    if let leaving, leaving.load == load {
      return leaving.timer == id ? nil : .staleWatchdog
    }
    let session: Current
    switch identity(of: load) {
    case .ignored(let reason): return reason
    case .preloading: return .staleWatchdog
    case .current(let current): session = current
    }
    guard id != 0, id == session.lastWatchdog else { return .staleWatchdog }
    // The fade into a pause counts while the load still fades (a resume made it stale).
    if session.fadingOut { return nil }
    switch session.stage {
    case .waiting: return issued == UInt32.max ? .idsExhausted : nil
    case .buffering, .stalled: return nil
    case .ready, .ended, .failed: return .staleWatchdog
    }
  }

  // MARK: The system

  private func ignoreReason(for event: SystemEvent) -> IgnoreReason? {
    switch event {
    case .interruptionBegan: return interrupted ? .noEffect : nil
    case .interruptionEnded: return interrupted ? nil : .notInterrupted
    case .routeLost:
      // A fade into a pause under way is ended at once (docs/machine.md, "Fades").
      if current?.fadingOut == true { return nil }
      return ignoreReason(for: UserIntent.pause)
    case .networkLost:
      guard let current, current.stage == .buffering || current.stage == .stalled else {
        return .noEffect
      }
      let waits = current.attempts < retry.attempts
      return waits && current.lastWatchdog == UInt32.max ? .idsExhausted : nil
    case .networkAvailable:
      guard current?.stage == .waiting else { return .noEffect }
      return issued == UInt32.max ? .idsExhausted : nil
    case .sleepTimerExpired(let id):
      return sleepExpiryIgnoreReason(id.rawValue)
    case .duckBegan: return ducked ? .noEffect : nil
    case .duckEnded: return ducked ? nil : .notDucked
    }
  }

  // MARK: User intents

  func ignoreReason(for intent: UserIntent) -> IgnoreReason? {
    switch intent {
    case .play(let media, let time):
      if time.milliseconds < 0 { return .invalidArgument }
      if time.milliseconds == 0, entries.count == 1, entries[0].media == media, hasLiveLoad {
        return resumeIgnoreReason
      }
      return newQueueIgnoreReason(count: 1)
    case .replaceQueue(let list, let start, let time, _):
      if time.milliseconds < 0 { return .invalidArgument }
      if list.isEmpty { return ignoreReason(for: UserIntent.clear) }
      guard list.indices.contains(start) else { return .invalidPosition }
      return newQueueIgnoreReason(count: list.count)
    case .append(let list):
      if list.isEmpty { return .noEffect }
      return itemsLeft(list.count) ? nil : .idsExhausted
    case .insert(let list, let at):
      guard (0...entries.count).contains(at) else { return .invalidPosition }
      if list.isEmpty { return .noEffect }
      return itemsLeft(list.count) ? nil : .idsExhausted
    case .remove(let at):
      guard entries.indices.contains(at) else { return .invalidPosition }
      // Removing the current entry of a loaded player loads the one that takes its place.
      guard at == position, current != nil, at + 1 < entries.count else { return nil }
      return needsToken(toEnter: at + 1, from: 0) ? .idsExhausted : nil
    case .move(let from, let to):
      guard entries.indices.contains(from), entries.indices.contains(to) else {
        return .invalidPosition
      }
      return from == to ? .noEffect : nil
    case .jump(let to, let time):
      if time.milliseconds < 0 { return .invalidArgument }
      guard entries.indices.contains(to) else { return .invalidPosition }
      if to == position {
        guard current != nil else { return .noEffect }
        if hasLiveLoad { return seekIgnoreReason(to: time) }
      }
      return goIgnoreReason(to, from: time.milliseconds)
    case .next: return nextIgnoreReason
    case .previous: return previousIgnoreReason
    case .setRepeat(let mode): return mode == repeatMode ? .noEffect : nil
    case .setShuffle(let seed): return seed == nil && shuffle == nil ? .noEffect : nil
    case .setRate(let rate):
      if rate.thousandths <= 0 { return .invalidArgument }
      return rate == self.rate ? .noEffect : nil
    case .clear: return entries.isEmpty && current == nil && sleep == nil ? .noEffect : nil
    case .pause: return pauseIgnoreReason
    case .resume: return resumeIgnoreReason
    case .stop: return stopIgnoreReason
    case .seek(let time): return seekIgnoreReason(to: time)
    case .retry: return retryIgnoreReason
    case .toggle: return toggleIgnoreReason
    case .skip: return seekIgnoreReason(to: .zero)
    case .setPosition(let item, let time):
      guard let position, entries[position].item == item else { return .notCurrentEntry }
      if let duration = current?.duration, time.milliseconds > duration { return .invalidArgument }
      // Outside a DVR window: invalid; without DVR: nothing to seek in (ContractLive.swift).
      if let current, !current.stage.isStopped, let window = current.window {
        guard window.isSeekable else { return .notSeekable }
        guard window.contains(time) else { return .invalidArgument }
      }
      return seekIgnoreReason(to: time)
    case .setSleepTimer(let timer):
      return sleepIgnoreReason(timer)
    case .setVolume(let level): return volumeIgnoreReason(level)
    case .setMuted(let value): return value == muted ? .noEffect : nil
    case .goToLive: return goToLiveIgnoreReason
    }
  }

  // MARK: The intents a remote control offers

  // Each of these intents' reason on its own, for `ignoreReason(for:)` above
  // and for `availableCommands` (ContractControls.swift), which reads eight
  // of them every step: through the switch above, with an intent built for
  // each, they were the model's largest cost (~650 instructions a step).

  /// Whether a load is current and not stopped (failed or waiting).
  private var hasLiveLoad: Bool {
    guard let current else { return false }
    return !current.stage.isStopped
  }

  /// `resume`: loads an idle entry, replays an ended one, plays a paused one.
  var resumeIgnoreReason: IgnoreReason? {
    guard let current else {
      guard position != nil else { return .noEffect }
      return issued == UInt32.max ? .idsExhausted : nil
    }
    if current.stage == .ended {
      // A live broadcast's end reloads at the edge: a token (ContractLive.swift).
      if current.window != nil { return issued == UInt32.max ? .idsExhausted : nil }
      return current.lastSeek == UInt32.max ? .idsExhausted : nil
    }
    return !playWhenReady || current.systemPaused ? nil : .noEffect
  }

  /// `pause`.
  var pauseIgnoreReason: IgnoreReason? {
    current != nil && playWhenReady ? nil : .noEffect
  }

  /// `stop`: also disarms a sleep timer.
  var stopIgnoreReason: IgnoreReason? {
    current == nil && preload == nil && sleep == nil ? .noEffect : nil
  }

  /// `seek(to: time)` (and `skip`, which seeks).
  func seekIgnoreReason(to time: MediaTime) -> IgnoreReason? {
    if time.milliseconds < 0 { return .invalidArgument }
    guard let current, !current.stage.isStopped else { return .noEffect }
    // A live load without DVR has no window to seek in (ContractLive.swift).
    if let window = current.window, !window.isSeekable { return .notSeekable }
    return current.lastSeek == UInt32.max ? .idsExhausted : nil
  }

  /// `retry`: a failed load, or one waiting for the network.
  private var retryIgnoreReason: IgnoreReason? {
    guard let current, current.stage.isStopped else { return .noEffect }
    return issued == UInt32.max ? .idsExhausted : nil
  }

  /// `toggle`: pause, retry or resume, by Media3's rule.
  var toggleIgnoreReason: IgnoreReason? {
    if let current, playWhenReady, current.stage != .ended, current.stage != .failed,
      !suppressed
    {
      return pauseIgnoreReason
    }
    if let current, current.stage == .failed { return retryIgnoreReason }
    return resumeIgnoreReason
  }

  /// `next`.
  var nextIgnoreReason: IgnoreReason? {
    guard let at = position, let target = after(at), target != at else { return .noEffect }
    return goIgnoreReason(target, from: 0)
  }

  /// `previous`.
  var previousIgnoreReason: IgnoreReason? {
    guard let at = position else { return .noEffect }
    let before = at > 0 ? at - 1 : (repeatMode == .all ? entries.count - 1 : nil)
    // A live load goes back an entry whatever its position, never to its
    // window's start: nowhere to go back to is `noEffect` (ContractLive.swift).
    if let current, !current.stage.isStopped, current.window != nil {
      guard let before, before != at else { return .noEffect }
      return goIgnoreReason(before, from: 0)
    }
    // Past the threshold, or with nowhere to go back to, a live load restarts.
    if let current, !current.stage.isStopped, current.position > previousThreshold || before == nil
    {
      return seekIgnoreReason(to: .zero)
    }
    if let before { return goIgnoreReason(before, from: 0) }
    // At the first entry: a failed load is reloaded; idle, nothing.
    return current == nil ? .noEffect : goIgnoreReason(at, from: 0)
  }

  /// A new queue of `count` entries: that many item ids and a token.
  private func newQueueIgnoreReason(count: Int) -> IgnoreReason? {
    itemsLeft(count) && issued < UInt32.max ? nil : .idsExhausted
  }

  /// Navigation to `target`: with a load current, the target loads and needs
  /// a token unless its preload is promoted (from 0 only).
  private func goIgnoreReason(_ target: Int, from time: Int64) -> IgnoreReason? {
    guard current != nil else { return nil }
    return needsToken(toEnter: target, from: time) ? .idsExhausted : nil
  }

  /// Whether entering the entry at `target` from `time` needs a token that
  /// cannot be issued any more (the preload of that entry, unless it failed,
  /// is promoted instead, from 0 only).
  private func needsToken(toEnter target: Int, from time: Int64) -> Bool {
    guard issued == UInt32.max else { return false }
    guard time == 0, let preload, preload.stage != .failed else { return true }
    return preload.load.item != entries[target].item
  }

  /// Whether `count` more item ids can be issued.
  private func itemsLeft(_ count: Int) -> Bool {
    UInt64(issuedItems) + UInt64(count) <= UInt64(UInt32.max)
  }
}
