/// The states one search has visited, each numbered in the order found: a
/// 128-bit ``StateFingerprint`` for a canonical key (16 bytes, where the key
/// itself is a few hundred), the whole key for a snapshot with no canonical
/// form (its hash is Swift's, seeded anew in every process: a fingerprint of
/// it would differ from run to run).
struct VisitedStates {
  private var fingerprints: [StateFingerprint: Int32] = [:]
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
    key.raw == nil ? fingerprints[StateFingerprint(key.codes)] : whole[key]
  }

  /// Whether `key` is the key of state `id`.
  func isState(_ key: StateKey, _ id: Int32) -> Bool { self[key] == id }

  /// Visits `key`: its number, and whether it is new (numbered `count` before the call).
  mutating func insert(_ key: StateKey) -> (id: Int32, new: Bool) {
    generated += 1
    let id = Int32(count)
    if key.raw == nil {
      let fingerprint = StateFingerprint(key.codes)
      if let known = fingerprints[fingerprint] { return (known, false) }
      fingerprints[fingerprint] = id
      fingerprinted += 1
    } else {
      if let known = whole[key] { return (known, false) }
      whole[key] = id
    }
    count += 1
    return (id, true)
  }

  /// ``StateFingerprint/collisionProbability(distinct:generated:)`` for the
  /// states kept as fingerprints, or nil when none is (every key kept whole).
  var collisionProbability: Double? {
    fingerprinted == 0
      ? nil
      : StateFingerprint.collisionProbability(distinct: fingerprinted, generated: generated)
  }
}
