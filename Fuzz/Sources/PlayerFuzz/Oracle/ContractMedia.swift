package import PlayerState

/// Every item's media the model has met, removed or not (for printing loads
/// as `A#2` and for generating): `table[item]` is the media of `item`, or nil.
///
/// A list of (item, media) sorted by item, not a dictionary, for speed: the
/// fuzzer makes thousands of cases a second, and a case issues its items
/// one by one (1, 2, 3…, or on from a start state's ids), so nearly every
/// record is an append, and an item is found at its offset from the first
/// one without hashing. Items out of that run (a start state may hold any
/// ids, with gaps) are found by a binary search.
package struct MediaTable: Sendable, Sequence {
  private var list: [ContractModel.Entry] = []

  /// An empty table.
  package init() {}

  /// The media of `item`, or nil if the table has none; setting nil forgets it.
  package subscript(item: ItemID) -> MediaID? {
    get {
      guard let at = index(of: item) else { return nil }
      return list[at].media
    }
    set {
      // Nearly always a new item, above every recorded one: an append.
      if let newValue, list.last.map({ $0.item < item }) ?? true {
        list.append(ContractModel.Entry(item: item, media: newValue))
        return
      }
      let at = insertionPoint(of: item)
      let present = at < list.count && list[at].item == item
      switch (newValue, present) {
      case (let media?, true): list[at].media = media
      case (let media?, false): list.insert(ContractModel.Entry(item: item, media: media), at: at)
      case (nil, true): list.remove(at: at)
      case (nil, false): break
      }
    }
  }

  /// The number of items recorded.
  package var count: Int { list.count }

  /// The table as a dictionary (for a violation's report).
  package var dictionary: [ItemID: MediaID] {
    Dictionary(uniqueKeysWithValues: list.lazy.map { ($0.item, $0.media) })
  }

  /// The items and their media, by item.
  package func makeIterator() -> Iterator { Iterator(base: list.makeIterator()) }

  /// Iterates over the items and their media, by item.
  package struct Iterator: IteratorProtocol {
    var base: IndexingIterator<[ContractModel.Entry]>

    /// The next item and its media.
    package mutating func next() -> (key: ItemID, value: MediaID)? {
      base.next().map { ($0.item, $0.media) }
    }
  }

  /// Where `item` is in `list`: at its offset from the first item when the
  /// ids from there on have no gap (nearly always), else by a binary search.
  private func index(of item: ItemID) -> Int? {
    guard let first = list.first, first.item <= item else { return nil }
    let offset = Int(item.rawValue - first.item.rawValue)
    if offset < list.count, list[offset].item == item { return offset }
    let at = insertionPoint(of: item)
    return at < list.count && list[at].item == item ? at : nil
  }

  /// The first index whose item is not below `item`.
  private func insertionPoint(of item: ItemID) -> Int {
    var low = 0
    var high = list.count
    while low < high {
      let middle = (low + high) / 2
      if list[middle].item < item { low = middle + 1 } else { high = middle }
    }
    return low
  }
}
