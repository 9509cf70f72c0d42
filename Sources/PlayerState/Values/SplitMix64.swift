/// A seedable pseudo-random generator: SplitMix64 (Steele, Lea and Flood, 2014).
///
/// The standard library's generator cannot be seeded, so Playhead carries
/// its own, one for the whole package: the shuffle draws its order from it
/// (so a shuffle replays from its seed), and the fuzz harness, the fake media
/// and the benchmark draw from it too. One seed gives one sequence, on every
/// platform and every Swift version.
///
/// ```swift
/// var random = SplitMix64(seed: 42)
/// let roll = Int.random(in: 0..<6, using: &random)
/// ```
public struct SplitMix64: RandomNumberGenerator, Hashable, Sendable {
  /// The generator's whole state.
  public private(set) var state: UInt64

  /// A generator that starts from `seed`.
  /// - Parameter seed: any value; equal seeds give equal sequences.
  public init(seed: UInt64) { state = seed }

  /// The next 64 random bits.
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z &>> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z &>> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z &>> 31)
  }

  /// A number in `0..<bound`, without modulo bias.
  /// - Precondition: `bound` is positive.
  public mutating func below(_ bound: Int) -> Int {
    Int(next(upperBound: UInt64(bound)))
  }

  /// True with the given chance.
  /// - Parameter percent: 0 (never) to 100 (always).
  public mutating func chance(percent: Int) -> Bool {
    percent > 0 && Int(next() % 100) < percent
  }

  /// The seed of the `index`-th case of a run seeded with `seed`: a case can
  /// be replayed alone, and neighbouring cases are unrelated.
  /// - Parameters:
  ///   - seed: the run's seed.
  ///   - index: the case number, from 0.
  /// - Returns: a well-mixed seed for that case.
  public static func caseSeed(run seed: UInt64, case index: Int) -> UInt64 {
    var mixer = SplitMix64(
      seed: seed ^ (UInt64(truncatingIfNeeded: index) &* 0xD1B5_4A32_D192_ED03))
    return mixer.next()
  }
}
