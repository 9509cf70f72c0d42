// The queue's contents: new queues, insertions, removals, moves, clearing,
// repeat and shuffle. The list edits themselves are `PlayQueue`'s; these
// rules decide whether an intent applies and which entry plays after it.

extension PlaybackState {
  /// `play(M, from:)`: a queue of one, playing; `play` of the one entry that
  /// is loaded already, from the start, is `resume`.
  mutating func play(_ media: MediaID, from time: MediaTime, _ effects: inout Effects)
    -> IgnoreReason?
  {
    guard time >= .zero else { return .invalidArgument }
    if time == .zero, queue.entries.count == 1, queue.entries[0].media == media, let session,
      !session.stage.isStopped
    {
      return resume(&effects)
    }
    return replace(CollectionOfOne(media), start: 0, from: time, playWhenReady: true, &effects)
  }

  /// `replaceQueue`: new entries, the one at `start` loaded; an empty list clears.
  mutating func replaceQueue(
    _ media: [MediaID], start: Int, from time: MediaTime, playWhenReady play: Bool,
    _ effects: inout Effects
  ) -> IgnoreReason? {
    guard time >= .zero else { return .invalidArgument }
    if media.isEmpty { return clear(&effects) }
    guard media.indices.contains(start) else { return .invalidPosition }
    return replace(media, start: start, from: time, playWhenReady: play, &effects)
  }

  /// `append` and `insert`: new entries at `position`; the current one keeps playing.
  mutating func insert(_ media: [MediaID], at position: Int) -> IgnoreReason? {
    guard !media.isEmpty else { return .noEffect }
    guard let entries = issueEntries(media) else { return .idsExhausted }
    queue.insert(entries, at: position)
    return nil
  }

  /// `remove`: removing the current entry of a loaded player plays the one
  /// that takes its place (none if it was the last).
  mutating func remove(at position: Int, _ effects: inout Effects) -> IgnoreReason? {
    guard queue.entries.indices.contains(position) else { return .invalidPosition }
    let removesCurrent = position == queue.current
    let reloads = removesCurrent && session != nil && position + 1 < queue.entries.count
    let promotes = reloads && preloadUsable(for: position + 1, from: .zero)
    if reloads, !promotes, !tokenAvailable { return .idsExhausted }
    if removesCurrent { leave(keepingPreload: promotes, &effects) }
    queue.remove(at: position)
    if reloads { _ = enterCurrent(from: .zero, &effects) }
    return nil
  }

  /// `move`: the current entry follows its entry.
  mutating func move(from source: Int, to destination: Int) -> IgnoreReason? {
    let indices = queue.entries.indices
    guard indices.contains(source), indices.contains(destination) else {
      return .invalidPosition
    }
    if source == destination { return .noEffect }
    queue.move(from: source, to: destination)
    return nil
  }

  /// `clear`: nothing loaded, no entries; the repeat mode and the shuffle are
  /// settings, not contents, and stay.
  mutating func clear(_ effects: inout Effects) -> IgnoreReason? {
    guard !queue.entries.isEmpty || session != nil || sleepTimer != nil else { return .noEffect }
    leave(keepingPreload: false, &effects)
    sleepTimer = nil
    queue.entries.removeAll()
    queue.current = nil
    if let seed = queue.shuffle?.seed { queue.shuffle = Shuffle(seed: seed, unshuffled: []) }
    return nil
  }

  /// `setRepeat`.
  mutating func setRepeat(_ mode: RepeatMode) -> IgnoreReason? {
    guard mode != queue.repeatMode else { return .noEffect }
    queue.repeatMode = mode
    return nil
  }

  /// `setShuffle`: a seed shuffles (again), nil restores the list order.
  mutating func setShuffle(_ seed: UInt64?) -> IgnoreReason? {
    if let seed {
      queue.shuffle(seed: seed)
    } else {
      guard queue.shuffle != nil else { return .noEffect }
      queue.unshuffle()
    }
    return nil
  }

  /// New entries with fresh item ids, or nil (issuing none) if the ids would run out.
  private mutating func issueEntries(_ media: [MediaID]) -> [QueueEntry]? {
    guard UInt32.max - issuedItems >= media.count else { return nil }
    var entries: [QueueEntry] = []
    entries.reserveCapacity(media.count)
    for name in media {
      issuedItems += 1
      entries.append(QueueEntry(item: ItemID(issuedItems), media: name))
    }
    return entries
  }
}
