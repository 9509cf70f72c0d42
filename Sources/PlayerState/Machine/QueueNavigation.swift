// Where to go: `next`, `previous` (with the threshold), `jump`, and what the
// end of an entry means. The decisions are pure functions of the queue; the
// moves themselves are EntrySwitch's.

/// What `previous` does, decided from the queue and the current load.
enum PreviousMove: Equatable {
  /// Seek the current entry back to its start.
  case restart
  /// Go to the entry at this position, from its start (the current one for a
  /// failed first entry: reloaded).
  case go(Int)
}

/// What the end of the current entry means.
enum EndOfEntry: Equatable {
  /// Play it again from the start (repeat one, or repeat all over a queue of one).
  case replay
  /// Play the entry at this position.
  case advance(Int)
  /// The last entry ended with repeat off.
  case endOfQueue
}

extension PlayQueue {
  /// The entry `next` goes to: the one after the current, wrapping under
  /// repeat all; nil at the end, or when it is the current one.
  var skipTarget: Int? {
    guard let current, let target = index(after: current, wrap: repeatMode == .all),
      target != current
    else { return nil }
    return target
  }

  /// What `previous` does. A live load past `threshold`, or one at the first
  /// entry with nowhere to go back to, restarts; otherwise the entry before
  /// it plays, and a loaded but failed first entry is reloaded.
  /// - Parameters:
  ///   - livePosition: the current load's last known position, nil unless a load is live.
  ///   - loaded: whether a load is current at all (live or stopped).
  func previousMove(livePosition: MediaTime?, loaded: Bool, threshold: MediaTime) -> PreviousMove? {
    guard let current else { return nil }
    let before = index(before: current, wrap: repeatMode == .all)
    if let livePosition, livePosition > threshold || before == nil { return .restart }
    if let before { return .go(before) }
    return loaded ? .go(current) : nil
  }

  /// What the end of the current entry means under the repeat mode.
  var endOfEntry: EndOfEntry? {
    guard let current else { return nil }
    let next = index(after: current, wrap: repeatMode == .all)
    if repeatMode == .one || next == current { return .replay }
    guard let next else { return .endOfQueue }
    return .advance(next)
  }
}

extension PlaybackState {
  /// `next`.
  mutating func next(_ effects: inout Effects) -> IgnoreReason? {
    guard let target = queue.skipTarget else { return .noEffect }
    return go(to: target, from: .zero, &effects)
  }

  /// What `previous` does now, with ``PlayerConfiguration/previousThreshold``:
  /// nil when it changes nothing.
  var previousMove: PreviousMove? {
    // A live load (not stopped) goes back an entry whatever its position,
    // never to its window's start or to 0: nothing at the first entry.
    if canSeek, let session, session.window != nil, let current = queue.current {
      guard let before = queue.index(before: current, wrap: queue.repeatMode == .all),
        before != current
      else { return nil }
      return .go(before)
    }
    let live = canSeek ? session?.position : nil
    return queue.previousMove(
      livePosition: live, loaded: session != nil, threshold: configuration.previousThreshold)
  }

  /// `previous`: the ``previousMove``.
  mutating func previous(_ effects: inout Effects) -> IgnoreReason? {
    switch previousMove {
    case nil: return .noEffect
    case .restart: return seek(to: .zero, &effects)
    case .go(let target): return go(to: target, from: .zero, &effects)
    }
  }

  /// `jump`: to the current entry of a live load it is a seek.
  mutating func jump(to position: Int, from time: MediaTime, _ effects: inout Effects)
    -> IgnoreReason?
  {
    guard time >= .zero else { return .invalidArgument }
    guard queue.entries.indices.contains(position) else { return .invalidPosition }
    if position == queue.current {
      guard let session else { return .noEffect }
      if !session.stage.isStopped { return seek(to: time, &effects) }
    }
    return go(to: position, from: time, &effects)
  }

  /// The current load reached its end (`ended` is its session): replay it,
  /// advance, or end the queue. A sleep timer that stops here makes the
  /// intent pause first, and an advance then only makes the next entry
  /// current, without loading it.
  mutating func reachEnd(_ ended: Session, _ effects: inout Effects) -> IgnoreReason? {
    guard var end = queue.endOfEntry else { return .unexpected }
    // A live broadcast that ended is never replayed: it ends.
    if end == .replay, ended.window != nil { end = .endOfQueue }
    let sleeps = sleepStopsAtCurrentEnd
    // Ids never wrap: a replay needs a seek id, and an advance a new token
    // unless the preload is promoted. Checked before anything changes.
    switch end {
    case .replay:
      if ended.lastSeek.successor == nil { return .idsExhausted }
    case .advance(let next) where !sleeps:
      if !(preloadUsable(for: next, from: .zero) || tokenAvailable) { return .idsExhausted }
    case .advance, .endOfQueue:
      break
    }
    // An entry that ended inside the crossfade into it: the outgoing load first.
    stopOutgoing(&effects)
    var session = ended
    session.position = session.duration ?? session.position
    endSystemPause(&session)
    switch end {
    case .replay:
      _ = session.issueSeek(to: .zero, &effects)
      countSleepTimerEnd(stopping: sleeps)
      // Replayed from a frame the engine has: ready, whatever stage it ended in.
      session.stage = .ready
      startIfPlays(session, &effects)
      self.session = session
    case .endOfQueue:
      countSleepTimerEnd(stopping: sleeps)
      session.stage = .ended
      self.session = session
    case .advance(let next) where sleeps:
      countSleepTimerEnd(stopping: true)
      leave(keepingPreload: false, &effects)
      queue.current = next
    case .advance(let next):
      countSleepTimerEnd(stopping: false)
      leave(keepingPreload: preloadUsable(for: next, from: .zero), &effects)
      queue.current = next
      _ = enterCurrent(from: .zero, &effects)
    }
    return nil
  }
}
