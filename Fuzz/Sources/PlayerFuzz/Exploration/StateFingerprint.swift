/// A 128-bit fingerprint of a canonical state key: what the explorer keeps of
/// each state it has visited, instead of the key (TLC's fingerprint set).
///
/// Two lanes of xxHash64-style rounds, each with its own fixed seed and
/// constants, over the key's codes as values (not bytes: the same on every
/// machine), then each lane's avalanche. Unlike `Hasher`, which is seeded anew
/// in every process, a key has the same fingerprint in every run and on every
/// shard. Two distinct keys with one fingerprint would be merged (a collision):
/// ``collisionProbability(distinct:generated:)`` estimates the chance of one.
struct StateFingerprint: Hashable, Sendable {
  var high: UInt64
  var low: UInt64

  private static let prime1: UInt64 = 0x9E37_79B1_85EB_CA87
  private static let prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
  private static let prime3: UInt64 = 0x1656_67B1_9E37_79F9
  private static let prime4: UInt64 = 0x85EB_CA77_C2B2_AE63
  private static let prime5: UInt64 = 0x27D4_EB2F_1656_67C5

  /// A fingerprint of these two halves (as read back from a file).
  init(high: UInt64, low: UInt64) {
    self.high = high
    self.low = low
  }

  /// The fingerprint of a canonical key's codes.
  init(_ codes: [Int32]) {
    var high: UInt64 = 0x243F_6A88_85A3_08D3
    var low: UInt64 = 0x1319_8A2E_0370_7344
    codes.withUnsafeBufferPointer { codes in
      var index = 0
      while index < codes.count {
        // Two codes a round; an odd last code is paired with 0 (the length, mixed in
        // below, tells it from a key that ends in 0).
        var value = UInt64(UInt32(bitPattern: codes[index]))
        if index + 1 < codes.count {
          value |= UInt64(UInt32(bitPattern: codes[index + 1])) << 32
        }
        high = Self.rotate(high &+ value &* Self.prime2, 31) &* Self.prime1
        low = Self.rotate(low &+ value &* Self.prime4, 27) &* Self.prime3
        index += 2
      }
    }
    let length = UInt64(codes.count)
    self.high = Self.avalanche(high ^ (length &* Self.prime5))
    self.low = Self.avalanche(low ^ (length &* Self.prime1) ^ self.high)
  }

  private static func rotate(_ value: UInt64, _ bits: UInt64) -> UInt64 {
    (value << bits) | (value >> (64 - bits))
  }

  private static func avalanche(_ value: UInt64) -> UInt64 {
    var value = value
    value ^= value >> 33
    value &*= prime2
    value ^= value >> 29
    value &*= prime3
    value ^= value >> 32
    return value
  }

  /// The probability that two of the distinct states a search found share a
  /// fingerprint, as TLC calculates it ("calculated (optimistic)"): each of the
  /// `generated − distinct` lookups that found a state already seen could
  /// have hit any of the `distinct` fingerprints by chance, so about
  /// `distinct × (generated − distinct) / 2^128`.
  /// - Parameters:
  ///   - distinct: the distinct states found (fingerprints stored).
  ///   - generated: the states looked up (every successor of every state extended).
  /// - Returns: the estimate, between 0 and 1.
  static func collisionProbability(distinct: Int, generated: Int) -> Double {
    let repeated = Double(max(0, generated - distinct))
    // 2^128 as a Double: 2^64 squared.
    let space = 18_446_744_073_709_551_616.0 * 18_446_744_073_709_551_616.0
    return min(1, Double(distinct) * repeated / space)
  }

  /// `2.3E-27`: a probability in scientific notation with two significant digits (`0` for 0).
  static func scientific(_ value: Double) -> String {
    guard value > 0, value.isFinite else { return "0" }
    var mantissa = value
    var exponent = 0
    while mantissa >= 10 {
      mantissa /= 10
      exponent += 1
    }
    while mantissa < 1 {
      mantissa *= 10
      exponent -= 1
    }
    var tenths = Int((mantissa * 10).rounded())
    if tenths >= 100 {
      tenths /= 10
      exponent += 1
    }
    return "\(tenths / 10).\(tenths % 10)E\(exponent)"
  }
}
