// The tree under `QueueEntries`: a B-tree by position (a rope) whose nodes are
// plain arrays. Swift's arrays copy on write, so an edit through
// `children[slot]` mutates in place when the path is not shared and copies only
// the shared nodes on its path when it is (path copying, no unsafe code): the
// other states holding the tree keep it as it was.

extension QueueEntries {
  /// A node: a leaf of up to 32 entries, or an inner node of up to 8 children,
  /// all of one height and none empty.
  ///
  /// An edit of a shared tree copies one node a level, and each copy retains
  /// what the node holds (two references a child, one a media name longer than
  /// 15 bytes), then releases it when the old version goes. Small nodes keep
  /// that short. `player-bench --queue-edits`, 200,000 observed appends: 64 and
  /// 64 took 3.7 s, 32 and 16 took 2.5 s, 32 and 8 took 2.0 s; 16 and 8 did not
  /// beat it (docs/benchmarks.md).
  struct Node: Sendable {
    /// The most entries a leaf holds: 32 × 24 bytes, 768 bytes to copy.
    static let leafCapacity = 32
    /// The most children an inner node holds: 8 × 24 bytes.
    static let innerCapacity = 8

    /// The entries under this node.
    var count: Int
    /// A leaf's entries, in order; empty in an inner node.
    var entries: [QueueEntry]
    /// An inner node's children, in order; empty in a leaf.
    var children: [Node]

    /// An empty leaf.
    init() {
      count = 0
      entries = []
      children = []
    }

    /// A leaf of the given entries.
    init(entries: [QueueEntry]) {
      count = entries.count
      self.entries = entries
      children = []
    }

    /// An inner node over the given children.
    init(children: [Node]) {
      count = children.reduce(0) { $0 + $1.count }
      entries = []
      self.children = children
    }

    /// Whether this node holds entries rather than children.
    var isLeaf: Bool { children.isEmpty }

    /// A leaf's entries or an inner node's children: what its capacity limits.
    var width: Int { isLeaf ? entries.count : children.count }

    /// The child holding `index` and the index within it. With `end`, an
    /// index at the end of a child belongs to it (an insertion there), not to
    /// the start of the next one: appends land in the last leaf.
    func locate(_ index: Int, end: Bool = false) -> (slot: Int, offset: Int) {
      var offset = index
      var slot = 0
      let last = children.count - 1
      while slot < last {
        let size = children[slot].count
        if offset < size || (end && offset == size) { break }
        offset -= size
        slot += 1
      }
      return (slot, offset)
    }

    /// Calls `body` with each leaf's entries under this node, in order, until
    /// it returns false; returns false if it did.
    func forEachLeaf(_ body: ([QueueEntry]) throws -> Bool) rethrows -> Bool {
      if isLeaf { return try body(entries) }
      for child in children where try !child.forEachLeaf(body) { return false }
      return true
    }

    /// The item of the entry at `index`.
    func item(at index: Int) -> ItemID { reading(at: index) { $0.item } }

    /// The entry at `index`.
    func entry(at index: Int) -> QueueEntry { reading(at: index) { $0 } }

    /// What `body` reads of the entry at `index`, read in its leaf.
    private func reading<Value>(at index: Int, _ body: (QueueEntry) -> Value) -> Value {
      if isLeaf { return body(entries[index]) }
      let (slot, offset) = locate(index)
      return children[slot].reading(at: offset, body)
    }

    /// Inserts `new` at `index`; returns the nodes split off this one because
    /// it outgrew its capacity, to follow it in its parent.
    mutating func insert(_ new: [QueueEntry], at index: Int) -> [Node] {
      count += new.count
      if isLeaf {
        entries.insert(contentsOf: new, at: index)
        guard entries.count > Self.leafCapacity else { return [] }
        let parts = Self.parts(of: entries.count, capacity: Self.leafCapacity)
        let rest = parts.dropFirst().map { Node(entries: Array(entries[$0])) }
        // A new buffer for the first part: a bulk insert's buffer would stay this small leaf's.
        entries = Array(entries[parts[0]])
        count = entries.count
        return rest
      }
      let (slot, offset) = locate(index, end: true)
      let spilled = children[slot].insert(new, at: offset)
      guard !spilled.isEmpty else { return [] }
      children.insert(contentsOf: spilled, at: slot + 1)
      guard children.count > Self.innerCapacity else { return [] }
      let grouped = Self.grouped(children)
      self = grouped[0]
      return Array(grouped.dropFirst())
    }

    /// Removes and returns the entry at `index`; an emptied child goes, a
    /// small one joins a neighbour it fits with.
    mutating func remove(at index: Int) -> QueueEntry {
      count -= 1
      if isLeaf { return entries.remove(at: index) }
      let (slot, offset) = locate(index)
      let removed = children[slot].remove(at: offset)
      let width = children[slot].width
      if width == 0 {
        children.remove(at: slot)
      } else if children.count > 1 {
        let capacity = children[slot].isLeaf ? Self.leafCapacity : Self.innerCapacity
        let left = slot + 1 < children.count ? slot : slot - 1
        if width < capacity / 4,
          children[left].width + children[left + 1].width <= capacity
        {
          let right = children.remove(at: left + 1)
          children[left].absorb(right)
        }
      }
      return removed
    }

    /// Replaces the entry at `index`.
    mutating func replace(at index: Int, with entry: QueueEntry) {
      if isLeaf {
        entries[index] = entry
        return
      }
      let (slot, offset) = locate(index)
      children[slot].replace(at: offset, with: entry)
    }

    /// Appends a sibling's entries or children (of the same height) to this node's.
    private mutating func absorb(_ other: Node) {
      count += other.count
      entries.append(contentsOf: other.entries)
      children.append(contentsOf: other.children)
    }

    /// Whether this node and `other`, of equal counts, hold equal entries in
    /// order. Subtrees the two share are not visited, so two states a few edits
    /// apart compare in O(log n) until their first different entry.
    func holdsSameEntries(as other: Node) -> Bool {
      if isLeaf, other.isLeaf { return entries == other.entries }
      if !isLeaf, !other.isLeaf {
        if Self.sameBuffer(children, other.children) { return true }
        let shared = Swift.min(children.count, other.children.count)
        var slot = 0
        while slot < shared, children[slot].count == other.children[slot].count {
          if !children[slot].holdsSameEntries(as: other.children[slot]) { return false }
          slot += 1
        }
        if slot == children.count, slot == other.children.count { return true }
        // The shapes part here: compare what is left entry by entry.
        return Self.entriesEqual(
          Node(children: Array(children[slot...])), Node(children: Array(other.children[slot...])))
      }
      return Self.entriesEqual(self, other)
    }

    /// Whether two nodes hold equal entries in order, visiting every entry.
    private static func entriesEqual(_ first: Node, _ second: Node) -> Bool {
      var left = Iterator(first)
      var right = Iterator(second)
      while true {
        let next = left.next()
        guard next == right.next() else { return false }
        if next == nil { return true }
      }
    }

    /// Whether two arrays are one buffer (so equal without a look inside).
    static func sameBuffer(_ first: [Node], _ second: [Node]) -> Bool {
      first.withUnsafeBufferPointer { a in
        second.withUnsafeBufferPointer { b in a.baseAddress == b.baseAddress }
      }
    }

    /// `nodes` under parents of at most ``innerCapacity`` children each, about equally full.
    static func grouped(_ nodes: [Node]) -> [Node] {
      parts(of: nodes.count, capacity: innerCapacity).map { Node(children: Array(nodes[$0])) }
    }

    /// `total` items cut into the fewest ranges of at most `capacity`, their
    /// sizes differing by at most one: 33 in leaves of 32 is 17 and 16.
    static func parts(of total: Int, capacity: Int) -> [Range<Int>] {
      let count = (total + capacity - 1) / capacity
      let base = total / count
      let longer = total % count
      var ranges: [Range<Int>] = []
      ranges.reserveCapacity(count)
      var start = 0
      for part in 0..<count {
        let size = base + (part < longer ? 1 : 0)
        ranges.append(start..<start + size)
        start += size
      }
      return ranges
    }
  }
}

// MARK: What tests and benchmarks check of the tree

extension QueueEntries {
  /// The tree's levels: 1 for a queue in one leaf.
  package var height: Int {
    var levels = 1
    var node = root
    while let first = node.children.first {
      levels += 1
      node = first
    }
    return levels
  }

  /// How many of this tree's nodes another does not share (holds as the same
  /// buffer): what an edit between the two copied, and what holding both costs
  /// beyond one.
  package func nodesNotShared(with other: QueueEntries) -> Int {
    var theirs = Set<Int>()
    other.root.forEachBuffer { theirs.insert($0) }
    var count = 0
    root.forEachBuffer { if !theirs.contains($0) { count += 1 } }
    return count
  }

  /// The first broken rule of the tree's shape, or nil: every node's count is
  /// its entries', none but an empty root is empty, none is over capacity, and
  /// every leaf is at one depth.
  package var shapeViolation: String? {
    var leafDepths = Set<Int>()
    func check(_ node: Node, depth: Int, isRoot: Bool) -> String? {
      if node.isLeaf {
        leafDepths.insert(depth)
        if node.count != node.entries.count { return "a leaf's count is not its entries'" }
        if node.entries.count > Node.leafCapacity { return "a leaf over capacity" }
        if node.entries.isEmpty, !isRoot { return "an empty leaf" }
        return nil
      }
      if node.children.count > Node.innerCapacity { return "an inner node over capacity" }
      if node.count != node.children.reduce(0, { $0 + $1.count }) {
        return "an inner node's count is not its children's"
      }
      for child in node.children {
        if let violation = check(child, depth: depth + 1, isRoot: false) { return violation }
      }
      return nil
    }
    if let violation = check(root, depth: 1, isRoot: true) { return violation }
    return leafDepths.count > 1 ? "leaves at \(leafDepths.count) depths" : nil
  }
}

extension QueueEntries.Node {
  /// Calls `body` with the address of every non-empty buffer of this subtree.
  fileprivate func forEachBuffer(_ body: (Int) -> Void) {
    if isLeaf {
      entries.withUnsafeBufferPointer {
        if let base = $0.baseAddress { body(Int(bitPattern: base)) }
      }
    } else {
      children.withUnsafeBufferPointer {
        if let base = $0.baseAddress { body(Int(bitPattern: base)) }
      }
      for child in children { child.forEachBuffer(body) }
    }
  }
}
