import PlayerState
import PlayerTesting

/// Where the action decoder takes its choices from: a seeded generator for
/// random runs, or the bytes libFuzzer hands over.
///
/// A byte source that runs dry keeps answering 0, and says so through
/// ``isExhausted``, so that a decoder reading it always terminates.
package protocol ByteSource {
  /// The next byte.
  mutating func nextByte() -> UInt8
  /// Whether every byte has been read (always false for a generator).
  var isExhausted: Bool { get }
}

/// The bytes of a seeded ``PlayerTesting/SplitMix64``, eight per draw.
package struct RandomBytes: ByteSource, Sendable {
  private var generator: SplitMix64
  private var buffer: UInt64 = 0
  private var left = 0

  /// Bytes from a generator seeded with `seed`.
  package init(seed: UInt64) { generator = SplitMix64(seed: seed) }

  /// The next byte.
  package mutating func nextByte() -> UInt8 {
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
  package var isExhausted: Bool { false }
}

/// The bytes of a buffer, such as a libFuzzer input, then zeros.
package struct BufferBytes: ByteSource, Sendable {
  private let bytes: [UInt8]
  private var position = 0

  /// Reads `bytes` from the start.
  package init(_ bytes: [UInt8]) { self.bytes = bytes }

  /// The next byte, or 0 once all were read.
  package mutating func nextByte() -> UInt8 {
    guard position < bytes.count else { return 0 }
    defer { position += 1 }
    return bytes[position]
  }

  /// Whether every byte has been read.
  package var isExhausted: Bool { position >= bytes.count }
}
