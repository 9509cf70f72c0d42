/// The play queue's entries in play order: a random-access collection that
/// copies of a state share, edit by edit.
///
/// Every `PlayerStep` an observer holds keeps the state before its event, so
/// a queue that was one array was copied whole by every edit a subscriber
/// could see (issue 23, R5: 96 µs an append at 10,000 entries, 13.5 s for
/// 40,000). The entries are now the leaves of a balanced tree of small
/// buffers: an edit copies only the buffers on its path when they are shared,
/// so two states a few edits apart share all but those few buffers, and a
/// buffered state costs O(log n) memory, not O(n).
///
/// It compares, hashes, encodes and decodes exactly as the array of its
/// entries does (`[QueueEntry]`), and an array literal makes one:
///
/// ```swift
/// let entries: QueueEntries = [QueueEntry(item: ItemID(1), media: "A")]
/// entries.map(\.media)  // ["A"]
/// ```
///
/// - Complexity: `count` O(1); subscript O(log n); iteration O(1) an entry;
///   the reducer's edits (insert, remove, replace one) O(log n) plus the
///   entries inserted, whether or not the queue is shared; `==` O(log n) for
///   two states of one player a step apart, O(n) at most.
public struct QueueEntries: RandomAccessCollection, Hashable, Sendable, ExpressibleByArrayLiteral,
  Codable, CustomStringConvertible
{
  /// The tree's root (a leaf while the queue fits in one) in an array of one,
  /// or none: 8 bytes in every state, where a node is 24.
  private var roots: [Node]

  /// The tree's root.
  var root: Node { roots.first ?? Node() }

  /// An empty queue.
  public init() { roots = [] }

  /// The given entries, in order.
  /// - Complexity: O(n).
  public init(_ entries: some Sequence<QueueEntry>) {
    roots = []
    insert(contentsOf: Array(entries), at: 0)
  }

  /// The listed entries, in order.
  public init(arrayLiteral elements: QueueEntry...) { self.init(elements) }

  /// Whether `other` is this very tree — a copy of this value that neither has edited
  /// since — in O(1): true means the two are equal; false says nothing. While a copy is
  /// held, an edit of either copies the root first, so an edited queue is never taken
  /// for the one it was (the fuzz harness compares whole queues only when this is false).
  package func sharesStorage(with other: QueueEntries) -> Bool {
    guard count == other.count else { return false }
    if roots.isEmpty { return true }
    return roots.withUnsafeBufferPointer { left in
      other.roots.withUnsafeBufferPointer { right in left.baseAddress == right.baseAddress }
    }
  }

  /// The position of the first entry: 0.
  public var startIndex: Int { 0 }
  /// The number of entries: the position after the last one.
  public var endIndex: Int { count }
  /// The number of entries.
  /// - Complexity: O(1).
  public var count: Int { roots.first?.count ?? 0 }

  /// The entry at `position`, which must be in `indices`.
  /// - Complexity: O(log n).
  public subscript(position: Int) -> QueueEntry {
    precondition(position >= 0 && position < count, "queue position out of range")
    return roots[0].entry(at: position)
  }

  /// The item of the entry at `position`, which must be in `indices`: the entry is not
  /// copied out (no retain of its media name), for the reducer's identity checks.
  /// - Complexity: O(log n).
  package func item(at position: Int) -> ItemID {
    precondition(position >= 0 && position < count, "queue position out of range")
    return roots[0].item(at: position)
  }

  /// Iterates the entries leaf by leaf.
  public func makeIterator() -> Iterator { Iterator(root) }

  /// The position of the first entry that satisfies `predicate`, or nil.
  /// - Complexity: O(n), one pass over the leaves (not a lookup per entry).
  public func firstIndex(where predicate: (QueueEntry) throws -> Bool) rethrows -> Int? {
    var found: Int?
    var base = 0
    // Each leaf's array searched in place: an entry is not copied out of it (an iterator
    // hands each one out, a retain and a release of its media name).
    try forEachLeaf { leaf in
      if let at = try leaf.firstIndex(where: predicate) {
        found = base + at
        return false
      }
      base += leaf.count
      return true
    }
    return found
  }

  /// The entries as one array, in order.
  /// - Complexity: O(n), a leaf at a time.
  package var array: [QueueEntry] {
    var all: [QueueEntry] = []
    all.reserveCapacity(count)
    forEachLeaf { leaf in
      all.append(contentsOf: leaf)
      return true
    }
    return all
  }

  /// Calls `body` with each leaf's entries in order, until it returns false.
  private func forEachLeaf(_ body: ([QueueEntry]) throws -> Bool) rethrows {
    guard let root = roots.first else { return }
    _ = try root.forEachLeaf(body)
  }

  /// The position of the first entry equal to `entry`, or nil.
  /// - Complexity: O(n).
  public func firstIndex(of entry: QueueEntry) -> Int? { firstIndex { $0 == entry } }

  /// Whether both hold equal entries in the same order, as arrays compare.
  public static func == (lhs: QueueEntries, rhs: QueueEntries) -> Bool {
    guard lhs.count == rhs.count else { return false }
    // One buffer is one value: copy on write never changes a shared buffer.
    if lhs.count == 0 || Node.sameBuffer(lhs.roots, rhs.roots) { return true }
    return lhs.roots[0].holdsSameEntries(as: rhs.roots[0])
  }

  /// Hashes the entries as an array of them does: the count, then each entry.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(count)
    forEachLeaf { leaf in
      for entry in leaf { hasher.combine(entry) }
      return true
    }
  }

  /// The entries as an array prints them.
  public var description: String { array.description }

  /// Decodes the array of entries, the form ``encode(to:)`` writes.
  /// - Throws: `DecodingError` if the value is not an array of entries.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    self.init(try container.decode([QueueEntry].self))
  }

  /// Encodes the entries as an array, exactly as `[QueueEntry]` encodes.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(array)
  }

  /// The entries in order, leaf by leaf.
  public struct Iterator: IteratorProtocol {
    /// The inner nodes above the current leaf, each with the index of the next child to visit.
    private var path: [(children: [Node], next: Int)] = []
    private var leaf: [QueueEntry] = []
    private var position = 0

    init(_ root: Node) { descend(into: root) }

    /// The next entry, or nil after the last.
    public mutating func next() -> QueueEntry? {
      while position == leaf.count {
        guard var top = path.popLast() else { return nil }
        if top.next < top.children.count {
          let child = top.children[top.next]
          top.next += 1
          path.append(top)
          descend(into: child)
        }
      }
      defer { position += 1 }
      return leaf[position]
    }

    private mutating func descend(into node: Node) {
      var node = node
      while !node.children.isEmpty {
        path.append((node.children, 1))
        node = node.children[0]
      }
      leaf = node.entries
      position = 0
    }
  }

  // MARK: Edits (the package's: only the reducer changes a state's queue)

  /// Inserts `new` so that its first entry ends at `position` (0...count).
  /// - Complexity: O(log n + k) for k new entries; O(n + k) when k is large.
  package mutating func insert(contentsOf new: [QueueEntry], at position: Int) {
    precondition(position >= 0 && position <= count, "queue position out of range")
    guard !new.isEmpty else { return }
    if roots.isEmpty { roots = [Node()] }
    let spilled = roots[0].insert(new, at: position)
    guard !spilled.isEmpty else { return }
    var level = [roots[0]] + spilled
    while level.count > Node.innerCapacity { level = Node.grouped(level) }
    roots[0] = Node(children: level)
  }

  /// Appends one entry.
  package mutating func append(_ entry: QueueEntry) { insert(contentsOf: [entry], at: count) }

  /// Removes and returns the entry at `position`.
  /// - Complexity: O(log n).
  @discardableResult
  package mutating func remove(at position: Int) -> QueueEntry {
    precondition(position >= 0 && position < count, "queue position out of range")
    let removed = roots[0].remove(at: position)
    // A root of one child is that child; an emptied one is an empty leaf.
    while roots[0].children.count == 1 { roots[0] = roots[0].children[0] }
    if roots[0].count == 0, !roots[0].isLeaf { roots[0] = Node() }
    return removed
  }

  /// Replaces the entry at `position`, in place when the buffers on its path are not shared.
  /// - Complexity: O(log n).
  package mutating func replace(at position: Int, with entry: QueueEntry) {
    precondition(position >= 0 && position < count, "queue position out of range")
    roots[0].replace(at: position, with: entry)
  }

  /// Keeps the first `newCount` entries; a queue of one leaf keeps its buffer.
  /// - Complexity: O(n) when the queue is more than one leaf, else O(removed).
  package mutating func truncate(to newCount: Int) {
    precondition(newCount >= 0 && newCount <= count, "queue length out of range")
    if newCount == count { return }
    if roots[0].isLeaf {
      roots[0].entries.removeLast(roots[0].count - newCount)
      roots[0].count = newCount
    } else {
      self = QueueEntries(zip(0..<newCount, self).lazy.map { $0.1 })
    }
  }

  /// Removes every entry; a queue of one leaf keeps its buffer.
  package mutating func removeAll() { truncate(to: 0) }
}
