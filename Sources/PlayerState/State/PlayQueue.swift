/// One entry of the play queue: a media and the item id the machine issued for it.
public struct QueueEntry: Hashable, Sendable, Codable, CustomStringConvertible {
  /// The id the machine issued when the entry was added; never reused.
  public let item: ItemID
  /// The caller's media.
  public let media: MediaID

  /// Names an entry.
  public init(item: ItemID, media: MediaID) {
    self.item = item
    self.media = media
  }

  /// The media, as in `A`.
  public var description: String { media.description }
}

/// What happens at the end of an entry.
public enum RepeatMode: String, Hashable, Sendable, Codable, CaseIterable {
  /// Play the queue once; the end of the last entry is `ended`.
  case off
  /// Replay the current entry (seek to zero and start, in one transition).
  case one
  /// After the last entry, continue with the first.
  case all
}

/// A shuffled queue's seed and the order to restore when shuffle goes off.
public struct Shuffle: Hashable, Sendable, Codable {
  /// The seed the order was drawn from; the same seed over the same queue gives the same order.
  public let seed: UInt64
  /// The entries in the order they had before shuffling, plus entries added since, at the end.
  public internal(set) var unshuffled: QueueEntries

  /// Whether the list order holds exactly `entries`, entry for entry (item
  /// and media), as a multiset: what restoring it must give back
  /// (invariant 3). Comparing items alone let a decoded list restore other media.
  /// - Complexity: O(n).
  func holdsExactly(_ entries: QueueEntries) -> Bool {
    guard unshuffled.count == entries.count else { return false }
    var counts: [QueueEntry: Int] = [:]
    counts.reserveCapacity(entries.count)
    for entry in entries { counts[entry, default: 0] += 1 }
    for entry in unshuffled {
      guard let count = counts[entry], count > 0 else { return false }
      counts[entry] = count - 1
    }
    return true
  }
}

/// The play queue: entries in play order, the current position, repeat and shuffle.
///
/// A value inside ``PlaybackState``; only the reducer changes it. Positions are
/// 0-based indices into ``entries``, which is the order of play (the shuffled
/// order while shuffled).
public struct PlayQueue: Hashable, Sendable, Codable, CustomStringConvertible {
  /// The entries in play order. Copies of a state share them edit by edit
  /// (``QueueEntries``), so an observer holding earlier states costs
  /// O(log n) a state, not O(n).
  public internal(set) var entries: QueueEntries
  /// The index of the current entry in ``entries``; nil exactly when the queue is empty.
  public internal(set) var current: Int?
  /// What happens at the end of an entry.
  public internal(set) var repeatMode: RepeatMode
  /// The shuffle, or nil when the queue plays in list order.
  public internal(set) var shuffle: Shuffle?

  /// An empty queue, repeat off, not shuffled.
  public init() {
    entries = []
    current = nil
    repeatMode = .off
    shuffle = nil
  }

  /// A queue with the given contents, not checked: the reducer only produces
  /// queues that pass ``PlaybackState/invariantViolation``, a decoded one is
  /// checked, and the reducer requires one that passes (a current position
  /// outside the entries traps).
  public init(
    entries: some Sequence<QueueEntry>, current: Int?, repeatMode: RepeatMode = .off,
    shuffle: Shuffle? = nil
  ) {
    self.entries = QueueEntries(entries)
    self.current = current
    self.repeatMode = repeatMode
    self.shuffle = shuffle
  }

  /// The current entry, if any.
  public var currentEntry: QueueEntry? {
    guard let current else { return nil }
    return entries[current]
  }

  /// The entries separated by spaces, the current one starred: `A B* C`; `none` when empty.
  public var description: String {
    guard !entries.isEmpty else { return "none" }
    return entries.enumerated().map { $0.offset == current ? "\($0.element)*" : "\($0.element)" }
      .joined(separator: " ")
  }

  /// The index after `index` in play order: wraps when `wrap`, nil at the end otherwise.
  func index(after index: Int, wrap: Bool) -> Int? {
    if index + 1 < entries.count { return index + 1 }
    return wrap && !entries.isEmpty ? 0 : nil
  }

  /// The index before `index` in play order: wraps when `wrap`, nil at the start otherwise.
  func index(before index: Int, wrap: Bool) -> Int? {
    if index > 0 { return index - 1 }
    return wrap && !entries.isEmpty ? entries.count - 1 : nil
  }

  /// The index of the entry that plays after the current one at its end,
  /// under the repeat mode (repeat one replays the current entry, so there is none).
  var nextIndex: Int? {
    guard let current, repeatMode != .one,
      let next = index(after: current, wrap: repeatMode == .all), next != current
    else { return nil }
    return next
  }

  // MARK: Edits (the reducer validates positions first)

  /// Inserts entries so the first ends at `position`; the current entry keeps playing.
  /// - Complexity: O(log n + k) for k new entries, shared or not.
  mutating func insert(_ new: [QueueEntry], at position: Int) {
    entries.insert(contentsOf: new, at: position)
    if let current, position <= current { self.current = current + new.count }
    if entries.count == new.count { current = 0 }
    if let count = shuffle?.unshuffled.count {
      shuffle?.unshuffled.insert(contentsOf: new, at: count)
    }
  }

  /// Removes the entry at `position`. If it was the current one, the entry that
  /// takes its place becomes current (the new last entry if it was the last).
  /// - Complexity: O(log n); O(n) while shuffled (the entry's place in the list order is searched).
  mutating func remove(at position: Int) {
    let removed = entries.remove(at: position)
    // One search and one removal (item ids are unique), not a pass over the whole list.
    if let index = shuffle?.unshuffled.firstIndex(where: { $0.item == removed.item }) {
      shuffle?.unshuffled.remove(at: index)
    }
    guard let current else { return }
    if entries.isEmpty {
      self.current = nil
    } else if position < current || current == entries.count {
      self.current = current - 1
    }
  }

  /// Moves the entry at `source` so it ends at `destination`; the current entry follows its entry.
  /// - Complexity: O(log n).
  mutating func move(from source: Int, to destination: Int) {
    let entry = entries.remove(at: source)
    entries.insert(contentsOf: [entry], at: destination)
    guard let current else { return }
    if current == source {
      self.current = destination
    } else {
      var adjusted = current
      if source < adjusted { adjusted -= 1 }
      if destination <= adjusted { adjusted += 1 }
      self.current = adjusted
    }
  }

  /// Shuffles with `seed`: the current entry first, the others in an order drawn from the seed.
  mutating func shuffle(seed: UInt64) {
    let listOrder = shuffle?.unshuffled ?? entries
    // In one buffer: the current entry moved to the front, then Durstenfeld's
    // Fisher–Yates over the rest (docs/machine.md, "The shuffle, exactly").
    var order = listOrder.array
    var offset = 0
    if let item = currentEntry?.item, let at = order.firstIndex(where: { $0.item == item }) {
      order.insert(order.remove(at: at), at: 0)
      offset = 1
    }
    var generator = SplitMix64(seed: seed)
    let restCount = order.count - offset
    if restCount > 1 {
      for index in stride(from: restCount - 1, to: 0, by: -1) {
        let other = Int(generator.next() % UInt64(index + 1))
        order.swapAt(offset + index, offset + other)
      }
    }
    entries = QueueEntries(order)
    if current != nil { current = 0 }
    shuffle = Shuffle(seed: seed, unshuffled: listOrder)
  }

  /// Restores the list order; the current entry stays current.
  mutating func unshuffle() {
    guard let listOrder = shuffle?.unshuffled else { return }
    let entry = currentEntry
    entries = listOrder
    shuffle = nil
    if let entry { current = entries.firstIndex(of: entry) }
  }
}

extension PlayQueue {
  private enum CodingKeys: String, CodingKey {
    case entries, current, repeatMode, shuffle
  }

  /// Decodes a queue, refusing one whose own parts disagree: a current
  /// position outside the entries (``currentEntry`` would trap), none in a
  /// non-empty queue, or a shuffle whose list order is not the entries, entry
  /// for entry (item and media). The rules that need the rest of a state
  /// (issued item ids) are ``PlaybackState/invariantViolation``'s.
  /// - Throws: `DecodingError.dataCorrupted`.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    entries = QueueEntries(try container.decode([QueueEntry].self, forKey: .entries))
    current = try container.decodeIfPresent(Int.self, forKey: .current)
    repeatMode = try container.decode(RepeatMode.self, forKey: .repeatMode)
    shuffle = try container.decodeIfPresent(Shuffle.self, forKey: .shuffle)
    if let current, !entries.indices.contains(current) {
      throw DecodingError.dataCorruptedError(
        forKey: .current, in: container,
        debugDescription: "current position \(current) is outside the queue of \(entries.count)")
    }
    if current == nil, !entries.isEmpty {
      throw DecodingError.dataCorruptedError(
        forKey: .current, in: container,
        debugDescription: "a queue of \(entries.count) entries has no current position")
    }
    if let shuffle, !shuffle.holdsExactly(entries) {
      throw DecodingError.dataCorruptedError(
        forKey: .shuffle, in: container,
        debugDescription: "the shuffle's list order holds other entries than the queue")
    }
  }

  /// Encodes the queue's four parts (the keys the decoder reads).
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(entries.array, forKey: .entries)
    try container.encodeIfPresent(current, forKey: .current)
    try container.encode(repeatMode, forKey: .repeatMode)
    try container.encodeIfPresent(shuffle, forKey: .shuffle)
  }
}
