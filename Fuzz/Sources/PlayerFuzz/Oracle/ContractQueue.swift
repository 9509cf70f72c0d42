import PlayerState
import PlayerTesting

// The contract model's user intents, the end of an entry and the preload
// rule, from docs/machine.md ("The current load", "The end of an entry",
// "The queue", "Leaving an entry", "The preload", "Ids never wrap").
extension ContractModel {
  // MARK: User intents

  mutating func user(_ intent: UserIntent, _ out: inout [EngineCommand]) {
    switch intent {
    case .play(let media, let time):
      // A negative time is refused (`invalidArgument`): a position is never negative.
      guard time >= .zero else { return }
      if time == .zero, entries.count == 1, entries[0].media == media, let current,
        !current.stage.isStopped
      {
        user(.resume, &out)
      } else {
        replace([media], start: 0, from: time.milliseconds, play: true, &out)
      }
    case .replaceQueue(let list, let start, let time, let play):
      // Refused before anything else, even with an empty list (which would clear).
      guard time >= .zero else { return }
      if list.isEmpty { return user(.clear, &out) }
      guard list.indices.contains(start) else { return }
      replace(list, start: start, from: time.milliseconds, play: play, &out)
    case .append(let list):
      guard canIssueItems(list.count) else { return }
      add(list, at: entries.count)
    case .insert(let list, let at):
      guard at >= 0, at <= entries.count, canIssueItems(list.count) else { return }
      add(list, at: at)
    case .remove(let at):
      guard entries.indices.contains(at) else { return }
      remove(at, &out)
    case .move(let from, let to):
      guard entries.indices.contains(from), entries.indices.contains(to), from != to else {
        return
      }
      let moving = entries[from].item
      let currentItem = position.map { entries[$0].item }
      let entry = entries.remove(at: from)
      entries.insert(entry, at: to)
      // The current entry follows its entry.
      position = entries.firstIndex { $0.item == currentItem }
      _ = moving
    case .jump(let to, let time):
      guard time >= .zero, entries.indices.contains(to) else { return }
      if to == position {
        guard let current else { return }
        if !current.stage.isStopped { return user(.seek(to: time), &out) }
      }
      go(to, from: time.milliseconds, &out)
    case .next:
      guard let at = position, let target = after(at), target != at else { return }
      go(target, from: 0, &out)
    case .previous:
      guard let at = position else { return }
      let before = at > 0 ? at - 1 : (repeatMode == .all ? entries.count - 1 : nil)
      // A live load goes back an entry whatever its position (ContractLive.swift).
      if let current, !current.stage.isStopped, current.window != nil {
        guard let before, before != at else { return }
        return go(before, from: 0, &out)
      }
      // Past the threshold (or at the first entry, repeat off) the entry
      // restarts; a failed load has nothing to restart and goes back whatever the position.
      if let current, !current.stage.isStopped,
        current.position > previousThreshold || before == nil
      {
        return user(.seek(to: .zero), &out)
      }
      guard let before else {
        // At the first entry: a failed load is reloaded from 0; idle: nothing.
        if current != nil { go(at, from: 0, &out) }
        return
      }
      go(before, from: 0, &out)
    case .setRepeat(let mode):
      repeatMode = mode
    case .setShuffle(let seed):
      guard let seed else {
        guard let list = shuffle?.list else { return }
        let item = position.map { entries[$0].item }
        entries = list
        shuffle = nil
        position = entries.firstIndex { $0.item == item }
        return
      }
      let list = shuffle?.list ?? entries
      let item = position.map { entries[$0].item }
      entries = Self.shuffled(list, first: item, seed: seed)
      if position != nil { position = 0 }
      shuffle = (seed, list)
    case .setRate(let new):
      guard new.thousandths > 0, new != rate else { return }
      let before = current.map(playingRate(of:))
      rate = new
      // Not while the system holds the engine: a rate change would start it.
      // A load fading out is still played by the engine: it takes the rate.
      // A live load at its edge plays at 1x whatever the user's rate: only a
      // change of the rate it is told is sent (ContractLive.swift).
      if let current, enginePlays(current), playingRate(of: current) != before {
        out.append(.setRate(current.load, playingRate(of: current)))
      }
    case .clear:
      guard !entries.isEmpty || current != nil || sleep != nil else { return }
      sleep = nil
      // A crossfade's outgoing load stops; a stop's fade (idle) is left to end.
      stopCrossfade(&out)
      stopCurrent(&out)
      dropPreload(&out)
      entries = []
      position = nil
      // The repeat mode and the shuffle (its seed) are settings, not contents: kept.
      if let seed = shuffle?.seed { shuffle = (seed, []) }
    case .pause:
      guard current != nil, playWhenReady else { return }
      stopCrossfade(&out)
      pause(fading: true, &out)
    case .resume:
      guard var session = current else {
        guard position != nil else { return }
        playWhenReady = true
        // A restored entry loads from its saved position (ContractRestore.swift),
        // a restored DVR entry as far behind its edge as it was (ContractLive.swift).
        if let offset = resumeLiveOffset { return enterAtLiveEdge(behind: offset, &out) }
        enter(from: resumeFrom, &out)
        return
      }
      if session.stage == .ended, session.window != nil {
        // A live broadcast that ended reloads at its edge, never replayed (ContractLive.swift).
        guard issued < UInt32.max else { return }
        playWhenReady = true
        return reloadAtLiveEdge(&out)
      }
      if session.stage == .ended {
        guard session.lastSeek < UInt32.max else { return }
        session.lastSeek &+= 1
        session.seekPending = true
        session.stage = .ready
        session.position = 0
        out.append(.seek(session.load, to: .zero, SeekID(session.lastSeek)))
        playWhenReady = true
        startIfWanted(&session, &out)
      } else {
        // Paused by the system, `resume` is the user's way to play again.
        guard !playWhenReady || session.systemPaused else { return }
        if session.fadingOut { return resumeDuringFade(&session, &out) }
        let fadesIn = fadesIn(session)
        playWhenReady = true
        session.systemPaused = false
        if session.stage == .ready || session.stage == .stalled {
          if fadesIn { out.append(.setVolume(session.load, Volume(thousandths: 0))) }
          startIfWanted(&session, &out)
          if fadesIn {
            out.append(.setVolume(session.load, effectiveVolume, ramp: .milliseconds(fade)))
          }
        }
      }
      current = session
    case .stop:
      sleep = nil
      guard let session = current else { return }
      stopCrossfade(&out)
      if fadesIntoStop(session) { return stopFading(session, &out) }
      stopCurrent(&out)
      dropPreload(&out)
    case .seek(let time):
      guard time >= .zero, var session = current, !session.stage.isStopped,
        session.lastSeek < UInt32.max
      else {
        return
      }
      var time = time
      if let window = session.window {
        // A live load seeks within its window, if it has one (ContractLive.swift).
        guard window.isSeekable else { return }
        time = window.clamp(time)
      }
      session.lastSeek &+= 1
      session.seekPending = true
      session.position = time.milliseconds
      // At the live edge only if it sought there (ContractLive.swift).
      if let window = session.window { session.playsAtEdge = time >= window.end }
      out.append(.seek(session.load, to: time, SeekID(session.lastSeek)))
      if session.stage == .ended {
        session.stage = .ready
        startIfWanted(&session, &out)
      }
      current = session
    case .retry:
      // A failed load, or one waiting for the network (at once, without the backoff).
      guard let session = current, session.stage.isStopped, issued < UInt32.max else { return }
      current = nil
      // A live load reloads at its edge (ContractLive.swift).
      if session.window != nil { return enterAtLiveEdge(&out) }
      enter(from: session.position, &out)
    case .toggle:
      // docs/machine.md, "Remote controls": Media3's play/pause rule.
      if let session = current, playWhenReady, session.stage != .ended,
        session.stage != .failed, !suppressed
      {
        return user(.pause, &out)
      }
      if let session = current, session.stage == .failed {
        guard issued < UInt32.max else { return }
        user(.retry, &out)
        playWhenReady = true
        return
      }
      user(.resume, &out)
    case .skip(let delta):
      guard let session = current, !session.stage.isStopped else { return }
      user(.seek(to: .milliseconds(skipTarget(session, delta))), &out)
    case .setPosition(let item, let time):
      guard let at = position, entries[at].item == item else { return }
      if let duration = current?.duration, time.milliseconds > duration { return }
      user(.seek(to: time), &out)
    case .setSleepTimer(let timer):
      setSleep(timer)
    case .setVolume(let level): setVolume(level)
    case .setMuted(let value): setMuted(value)
    case .goToLive: goToLive(&out)
    }
  }

  /// Where `skip(by: delta)` seeks: the target (the pending seek's, else the
  /// last known position) plus `delta`, within 0 and the known duration.
  func skipTarget(_ session: Current, _ delta: MediaTime) -> Int64 {
    let (sum, overflow) = session.position.addingReportingOverflow(delta.milliseconds)
    var target = overflow ? (delta.milliseconds < 0 ? 0 : Int64.max) : max(0, sum)
    if let duration = session.duration { target = min(target, duration) }
    return target
  }

  /// Whether `count` more item ids can be issued (ids never wrap).
  private func canIssueItems(_ count: Int) -> Bool {
    UInt64(issuedItems) + UInt64(count) <= UInt64(UInt32.max)
  }

  private mutating func issue(_ list: [MediaID]) -> [Entry] {
    return list.map { name in
      issuedItems &+= 1
      let entry = Entry(item: ItemID(issuedItems), media: name)
      media[entry.item] = name
      return entry
    }
  }

  private mutating func replace(
    _ list: [MediaID], start: Int, from time: Int64, play: Bool, _ out: inout [EngineCommand]
  ) {
    guard canIssueItems(list.count), issued < UInt32.max else { return }
    stopCrossfade(&out)
    stopCurrent(&out)
    dropPreload(&out)
    var fresh = issue(list)
    let first = fresh[start].item
    if let seed = shuffle?.seed {
      // A new queue is shuffled with the same seed, its start entry first.
      shuffle = (seed, fresh)
      fresh = Self.shuffled(fresh, first: first, seed: seed)
    }
    entries = fresh
    position = entries.firstIndex { $0.item == first }
    playWhenReady = play
    enter(from: time, &out)
  }

  private mutating func add(_ list: [MediaID], at: Int) {
    guard !list.isEmpty else { return }
    let fresh = issue(list)
    entries.insert(contentsOf: fresh, at: at)
    if let at0 = position, at <= at0 { position = at0 + fresh.count }
    if position == nil { position = 0 }
    if let seed = shuffle?.seed { shuffle = (seed, (shuffle?.list ?? []) + fresh) }
  }

  private mutating func remove(_ at: Int, _ out: inout [EngineCommand]) {
    let removed = entries[at]
    if let seed = shuffle?.seed {
      shuffle = (seed, (shuffle?.list ?? []).filter { $0.item != removed.item })
    }
    guard let here = position else { return }
    guard at == here else {
      entries.remove(at: at)
      if at < here { position = here - 1 }
      return
    }
    let live = current != nil
    let takesPlace = at + 1 < entries.count ? entries[at + 1].item : nil
    if live, takesPlace != nil, !usablePreload(for: takesPlace, from: 0), issued == UInt32.max {
      return  // idsExhausted: the entry taking its place would need a token
    }
    if let load = current?.load { self.removed = load }
    stopCrossfade(&out)
    stopCurrent(&out)
    if !(live && takesPlace != nil && usablePreload(for: takesPlace, from: 0)) {
      dropPreload(&out)
    }
    entries.remove(at: at)
    if entries.isEmpty {
      position = nil
    } else if at == entries.count {
      position = at - 1
    }
    if live, takesPlace != nil { enter(from: 0, &out) }
  }

  /// Navigation to `target` (jump, next, previous): with a live load, the
  /// current one is stopped, a preload that is not the target's is dropped,
  /// and the target loads; idle, only the position moves.
  private mutating func go(_ target: Int, from time: Int64, _ out: inout [EngineCommand]) {
    let live = current != nil
    if live, !usablePreload(for: entries[target].item, from: time), issued == UInt32.max {
      return  // idsExhausted
    }
    stopCrossfade(&out)
    stopCurrent(&out)
    if !usablePreload(for: entries[target].item, from: time) { dropPreload(&out) }
    position = target
    if live { enter(from: time, &out) }
  }

  // MARK: Loads

  func after(_ index: Int) -> Int? {
    if index + 1 < entries.count { return index + 1 }
    return repeatMode == .all && !entries.isEmpty ? 0 : nil
  }

  private func usablePreload(for item: ItemID?, from time: Int64) -> Bool {
    guard let preload, let item, time == 0 else { return false }
    return preload.load.item == item && preload.stage != .failed
  }

  /// Stops the current load unless it failed (it was stopped then).
  mutating func stopCurrent(_ out: inout [EngineCommand]) {
    if let session = current {
      if !session.stage.isStopped { out.append(.stop(session.load)) }
      left = session.load
    }
    current = nil
  }

  mutating func dropPreload(_ out: inout [EngineCommand]) {
    guard let preload else { return }
    if preload.stage != .failed { out.append(.stop(preload.load)) }
    dropped = preload.load
    self.preload = nil
  }

  mutating func newToken(_ item: ItemID) -> Load {
    issued &+= 1
    let load = Load(item: item, token: LoadToken(issued))
    tokenItems.append(item)
    previous = newest
    newest = load
    return load
  }

  /// The current entry becomes the current load: its usable preload is
  /// promoted (from 0 only), otherwise it loads from `time`.
  mutating func enter(from time: Int64, _ out: inout [EngineCommand]) {
    guard let at = position else { return }
    let entry = entries[at]
    if usablePreload(for: entry.item, from: time), let preload {
      self.preload = nil
      let ready = preload.stage == .ready
      var session = Current(
        load: preload.load, stage: ready ? .ready : .buffering, lastSeek: 0, seekPending: false,
        lastWatchdog: ready ? 0 : 1, started: false, position: 0, duration: preload.duration)
      if ready { startIfWanted(&session, &out) }
      current = session
      return
    }
    if preload?.load.item == entry.item { self.preload = nil }  // a failed preload's record
    // A load fading out into a stop is stopped before any load (ContractFade.swift).
    stopLeaving(&out)
    let load = newToken(entry.item)
    out.append(.load(LoadRequest(load: load, media: entry.media, start: .milliseconds(time))))
    current = Current(
      load: load, stage: .buffering, lastSeek: 0, seekPending: false, lastWatchdog: 1,
      started: false, position: time, duration: nil)
  }

  /// The end of the current entry: replay, advance or `ended`. A sleep timer
  /// that stops here pauses first, and an advance then loads nothing.
  mutating func reachEnd(_ out: inout [EngineCommand]) {
    guard var session = current, let at = position else { return }
    session.started = false
    // The end ends a system pause too: the engine is at the end, not held.
    session.systemPaused = false
    var next = after(at)
    let sleeps = sleepStopsHere
    // A live broadcast that ended is never replayed: it ends as the last
    // entry with repeat off does (ContractLive.swift).
    let replays = repeatMode == .one || next == at
    if replays, session.window != nil { next = nil }
    if replays, session.window == nil {
      guard session.lastSeek < UInt32.max else { return }
      countSleepEnd(stopping: sleeps)
      session.stage = .ready
      session.lastSeek &+= 1
      session.seekPending = true
      session.position = 0
      out.append(.seek(session.load, to: .zero, SeekID(session.lastSeek)))
      startIfWanted(&session, &out)
      current = session
      return
    }
    guard let next else {
      countSleepEnd(stopping: sleeps)
      session.stage = .ended
      // The position becomes the duration, when known ("The end of an entry").
      if let duration = session.duration { session.position = duration }
      current = session
      return
    }
    if sleeps {
      // The next entry becomes current, unloaded: idle and paused.
      countSleepEnd(stopping: true)
      current = session
      stopCurrent(&out)
      dropPreload(&out)
      position = next
      return
    }
    if !usablePreload(for: entries[next].item, from: 0), issued == UInt32.max { return }
    countSleepEnd(stopping: false)
    current = session
    stopCurrent(&out)
    if !usablePreload(for: entries[next].item, from: 0) { dropPreload(&out) }
    position = next
    enter(from: 0, &out)
  }

  /// The preload rule, after every accepted event.
  mutating func refreshPreload(_ out: inout [EngineCommand]) {
    // No preload while a crossfade's outgoing load leaves (ContractCrossfade.swift).
    guard !crossfading else { return }
    var wanted: Int?
    // Nothing beside a live load (ContractLive.swift).
    if canPreload, let session = current, session.window == nil, let at = position,
      repeatMode != .one, !sleepStopsHere,
      session.stage == .buffering || session.stage == .ready || session.stage == .stalled,
      let next = after(at), next != at
    {
      wanted = next
    }
    if let preload {
      if let wanted, entries[wanted].item == preload.load.item { return }
      dropPreload(&out)
    }
    guard let wanted, let session = current, session.stage == .ready, issued < UInt32.max else {
      return
    }
    let entry = entries[wanted]
    let load = newToken(entry.item)
    out.append(.preload(LoadRequest(load: load, media: entry.media)))
    preload = Preloading(load: load, stage: .buffering, duration: nil)
  }

  // MARK: Shuffle

  /// The documented shuffle, replayed independently: `first` (the current
  /// entry) first, then the others in list order permuted by Fisher–Yates
  /// (Durstenfeld: i from n−1 down to 1, j = next() mod (i+1)) over SplitMix64
  /// seeded with `seed`.
  static func shuffled(_ list: [Entry], first: ItemID?, seed: UInt64) -> [Entry] {
    var rest = list
    var head: [Entry] = []
    if let first, let at = rest.firstIndex(where: { $0.item == first }) {
      head = [rest.remove(at: at)]
    }
    var generator = SplitMix64(seed: seed)
    var index = rest.count - 1
    while index > 0 {
      let other = Int(generator.next() % UInt64(index + 1))
      rest.swapAt(index, other)
      index -= 1
    }
    return head + rest
  }
}
