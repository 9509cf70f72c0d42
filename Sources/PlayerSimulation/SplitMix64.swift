/// A small, fast, seedable pseudo-random generator (Steele, Lea and Flood's
/// SplitMix64). The same seed always gives the same sequence, on every platform.
///
/// ```swift
/// var random = SplitMix64(seed: 42)
/// let roll = Int.random(in: 0..<100, using: &random)
/// ```
public struct SplitMix64: RandomNumberGenerator, Hashable, Sendable {
  private var state: UInt64

  /// A generator that starts from `seed`.
  /// - Parameter seed: any value; equal seeds give equal sequences.
  public init(seed: UInt64) { state = seed }

  /// The next 64 random bits.
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// True with the given chance.
  /// - Parameter percent: 0 (never) to 100 (always).
  public mutating func chance(percent: Int) -> Bool {
    percent > 0 && Int(next() % 100) < percent
  }
}
