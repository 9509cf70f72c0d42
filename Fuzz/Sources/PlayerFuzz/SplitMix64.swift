/// A seedable pseudo-random generator: SplitMix64 (Steele, Lea and Flood, 2014).
///
/// The standard library's generator cannot be seeded, so the harness carries
/// its own: one seed gives one run, on every platform and every Swift version.
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

  /// The seed of the `index`-th case of a run seeded with `seed`: a case can
  /// be replayed alone, and neighbouring cases are unrelated.
  /// - Parameters:
  ///   - seed: the run's seed.
  ///   - index: the case number, from 0.
  /// - Returns: a well-mixed seed for that case.
  public static func caseSeed(run seed: UInt64, case index: Int) -> UInt64 {
    var mixer = SplitMix64(seed: seed ^ (UInt64(truncatingIfNeeded: index) &* 0xD1B5_4A32_D192_ED03))
    return mixer.next()
  }
}

/// Where the action decoder takes its choices from: a seeded generator for
/// random runs, or the bytes libFuzzer hands over.
///
/// A byte source that runs dry keeps answering 0, and says so through
/// ``isExhausted``, so that a decoder reading it always terminates.
public protocol ByteSource {
  /// The next byte.
  mutating func nextByte() -> UInt8
  /// Whether every byte has been read (always false for a generator).
  var isExhausted: Bool { get }
}

/// The bytes of a seeded ``SplitMix64``, eight per draw.
public struct RandomBytes: ByteSource, Sendable {
  private var generator: SplitMix64
  private var buffer: UInt64 = 0
  private var left = 0

  /// Bytes from a generator seeded with `seed`.
  public init(seed: UInt64) { generator = SplitMix64(seed: seed) }

  /// The next byte.
  public mutating func nextByte() -> UInt8 {
    if left == 0 {
      buffer = generator.next()
      left = 8
    }
    let byte = UInt8(truncatingIfNeeded: buffer)
    buffer >>= 8
    left -= 1
    return byte
  }

  /// Never: a generator does not run dry.
  public var isExhausted: Bool { false }
}

/// The bytes of a buffer, such as a libFuzzer input, then zeros.
public struct BufferBytes: ByteSource, Sendable {
  private let bytes: [UInt8]
  private var position = 0

  /// Reads `bytes` from the start.
  public init(_ bytes: [UInt8]) { self.bytes = bytes }

  /// The next byte, or 0 once all were read.
  public mutating func nextByte() -> UInt8 {
    guard position < bytes.count else { return 0 }
    defer { position += 1 }
    return bytes[position]
  }

  /// Whether every byte has been read.
  public var isExhausted: Bool { position >= bytes.count }
}
