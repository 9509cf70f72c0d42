/// The states one search has visited, each numbered in the order found: a
/// 128-bit ``StateFingerprint`` for a canonical key (16 bytes, where the key
/// itself is a few hundred), the whole key for a snapshot with no canonical
/// form (its hash is Swift's, seeded anew in every process: a fingerprint of
/// it would differ from run to run).
///
/// The fingerprints are kept in one array by state number, and found through
/// an open-addressing table of numbers (4 bytes a slot, at most 70 % full):
/// about 16 + 4 / 0.5 = 24 bytes a state, where a `Dictionary` of fingerprint
/// to number took 20 bytes a slot at a load of 37 to 75 %.
struct VisitedStates {
  /// Each state's fingerprint, by number (zero for a state kept whole).
  private var fingerprints: [StateFingerprint] = []
  /// The table: a state's number + 1 in the slot its fingerprint's low bits
  /// name, or the next free one after it (0: free). Its size is a power of two.
  private var slots: [UInt32] = []
  private var whole: [StateKey: Int32] = [:]
  /// How many states were visited.
  private(set) var count = 0
  /// How many keys ``insert(_:)`` was given, new or not: TLC's "states
  /// generated", for the collision estimate.
  private(set) var generated = 0
  /// How many states are kept as fingerprints.
  private(set) var fingerprinted = 0

  /// The number of the state with `key`, if it was visited.
  subscript(key: StateKey) -> Int32? {
    key.raw == nil ? find(StateFingerprint(key.codes)).id : whole[key]
  }

  /// Whether `key` is the key of state `id`.
  func isState(_ key: StateKey, _ id: Int32) -> Bool { self[key] == id }

  /// The fingerprint of state `id` (zero for a state kept whole).
  func fingerprint(of id: Int32) -> StateFingerprint { fingerprints[Int(id)] }

  /// Visits `key`: its number, and whether it is new (numbered `count` before the call).
  mutating func insert(_ key: StateKey) -> (id: Int32, new: Bool) {
    generated += 1
    let id = Int32(count)
    if key.raw == nil {
      if slots.isEmpty { grow() }
      let fingerprint = StateFingerprint(key.codes)
      let (known, slot) = find(fingerprint)
      if let known { return (known, false) }
      slots[slot] = UInt32(id) + 1
      fingerprints.append(fingerprint)
      fingerprinted += 1
      if fingerprinted * 10 > slots.count * 7 { grow() }
    } else {
      if let known = whole[key] { return (known, false) }
      whole[key] = id
      fingerprints.append(StateFingerprint(high: 0, low: 0))
    }
    count += 1
    return (id, true)
  }

  /// The state with `fingerprint`, or the free slot where it would go.
  private func find(_ fingerprint: StateFingerprint) -> (id: Int32?, slot: Int) {
    guard !slots.isEmpty else { return (nil, 0) }
    let mask = slots.count - 1
    var slot = Int(truncatingIfNeeded: fingerprint.low) & mask
    while true {
      let entry = slots[slot]
      if entry == 0 { return (nil, slot) }
      if fingerprints[Int(entry - 1)] == fingerprint { return (Int32(entry - 1), slot) }
      slot = (slot + 1) & mask
    }
  }

  /// Doubles the table (or makes the first), placing every fingerprint again.
  private mutating func grow() {
    let size = max(1_024, slots.count * 2)
    var table = [UInt32](repeating: 0, count: size)
    let mask = size - 1
    for entry in slots where entry != 0 {
      var slot = Int(truncatingIfNeeded: fingerprints[Int(entry - 1)].low) & mask
      while table[slot] != 0 { slot = (slot + 1) & mask }
      table[slot] = entry
    }
    slots = table
  }

  /// ``StateFingerprint/collisionProbability(distinct:generated:)`` for the
  /// states kept as fingerprints, or nil when none is (every key kept whole).
  var collisionProbability: Double? {
    fingerprinted == 0
      ? nil
      : StateFingerprint.collisionProbability(distinct: fingerprinted, generated: generated)
  }
}
