/// One part of a configuration class's search, for workers that share a class
/// without talking to each other (issue 39, item 4c): every part extends the
/// levels above ``depth`` in full, keeps of the states at ``depth`` only those
/// whose fingerprint is its own (``owns(_:)``: the fingerprint modulo
/// ``parts``), and extends every state it finds below them. Every state of the
/// class is found by the part that owns its ancestor at ``depth``, so the parts
/// together cover the class; a state reachable from the states of two parts is
/// found by both (the union of their ``PartStates`` counts it once).
///
/// A part's differential check compares only the paths it finds: a concrete
/// state merged into a state another part extends is left to that part.
package struct ClassPartition: Sendable {
  /// This part, from 0.
  package var part: Int
  /// How many parts the class is split into.
  package var parts: Int
  /// The level whose states are divided among the parts.
  package var depth: Int
  /// Called once as the search ends, with the states it found.
  package var report: @Sendable (PartStates) -> Void

  /// - Parameters:
  ///   - part: this part, `0..<parts`.
  ///   - parts: how many parts, at least 1.
  ///   - depth: the level divided, at least 1.
  ///   - report: what to do with the states found.
  package init(
    part: Int, parts: Int, depth: Int, report: @escaping @Sendable (PartStates) -> Void
  ) {
    self.parts = max(1, parts)
    self.part = min(max(0, part), self.parts - 1)
    self.depth = max(1, depth)
    self.report = report
  }

  /// Whether the state with `fingerprint` is this part's.
  func owns(_ fingerprint: StateFingerprint) -> Bool {
    Int(fingerprint.high % UInt64(parts)) == part
  }
}

/// The states one part of a class found: each one's fingerprint and, for those
/// it extended, how many transitions left it (the letters whose actions were
/// sent: the search's `transitions`), or ``notExtended``.
package struct PartStates: Sendable, Equatable {
  /// The first half of each state's fingerprint, in the order found.
  package var high: [UInt64] = []
  /// The second half.
  package var low: [UInt64] = []
  /// The transitions from each state, or ``notExtended``.
  package var transitions: [UInt32] = []

  /// A state found and left to another part.
  package static let notExtended = UInt32.max

  /// How many states.
  package var count: Int { high.count }

  /// The file's first 8 bytes.
  private static let magic: [UInt8] = Array("PHSTATE1".utf8)

  /// The states as a file: `PHSTATE1`, then 20 bytes a state (the two halves
  /// and the transitions, little-endian).
  package var bytes: [UInt8] {
    var bytes = Self.magic
    bytes.reserveCapacity(8 + 20 * count)
    for index in 0..<count {
      withUnsafeBytes(of: high[index].littleEndian) { bytes += $0 }
      withUnsafeBytes(of: low[index].littleEndian) { bytes += $0 }
      withUnsafeBytes(of: transitions[index].littleEndian) { bytes += $0 }
    }
    return bytes
  }

  /// Reads ``bytes`` back, or nil when `bytes` is not such a file.
  package init?(_ bytes: [UInt8]) {
    guard bytes.count >= 8, Array(bytes[0..<8]) == Self.magic, (bytes.count - 8) % 20 == 0
    else { return nil }
    func word(_ at: Int, _ size: Int) -> UInt64 {
      var value: UInt64 = 0
      for byte in 0..<size { value |= UInt64(bytes[at + byte]) << UInt64(8 * byte) }
      return value
    }
    var at = 8
    while at < bytes.count {
      high.append(word(at, 8))
      low.append(word(at + 8, 8))
      transitions.append(UInt32(word(at + 16, 4)))
      at += 20
    }
  }

  /// No states.
  package init() {}

  /// The union of the states of every part of a class: the distinct states,
  /// the transitions from them (each state's from a part that extended it),
  /// and how many no part extended (a part missing, or not at its fixpoint).
  package static func union(_ parts: [PartStates]) -> (
    states: Int, transitions: Int, notExtended: Int
  ) {
    var seen: [StateFingerprint: UInt32] = [:]
    for part in parts {
      for index in 0..<part.count {
        let fingerprint = StateFingerprint(high: part.high[index], low: part.low[index])
        let transitions = part.transitions[index]
        if let known = seen[fingerprint], known != notExtended { continue }
        seen[fingerprint] = transitions
      }
    }
    var transitions = 0
    var notExtended = 0
    for value in seen.values {
      if value == Self.notExtended { notExtended += 1 } else { transitions += Int(value) }
    }
    return (seen.count, transitions, notExtended)
  }
}
