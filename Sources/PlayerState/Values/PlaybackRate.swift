/// A playback rate: 1 is normal speed, 1.5 is one and a half times as fast.
///
/// Kept in thousandths, integral, so that rates compare exactly and print as
/// written (`1.5x`). Write a rate as a number, as other players take one:
///
/// ```swift
/// player.send(.user(.setRate(1.5)))           // a float literal
/// player.send(.user(.setRate(2)))             // an integer literal: 2x
/// let rate = PlaybackRate(slider.value)       // any Double, rounded to thousandths
/// ```
///
/// The machine takes any positive rate (``UserIntent/setRate(_:)``) and
/// refuses one of zero or below with ``IgnoreReason/invalidArgument``.
public struct PlaybackRate: Hashable, Comparable, Sendable, Codable, CustomStringConvertible,
  ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral
{
  /// The rate in thousandths of normal speed; positive in every rate the machine accepts.
  public let thousandths: Int32

  /// A rate in thousandths of normal speed.
  public init(thousandths: Int32) { self.thousandths = thousandths }

  /// A rate from a multiplier, such as 1.5, rounded to the nearest thousandth
  /// (halves away from zero).
  ///
  /// Total, it never traps: a multiplier beyond what thousandths in an
  /// `Int32` hold (about ±2,147,483x, infinities included) saturates at the
  /// largest or smallest rate; one that is not a number gives a rate of 0.
  /// Zero, a negative multiplier, a NaN and one that rounds to 0 (below
  /// 0.0005) give rates the machine refuses (``IgnoreReason/invalidArgument``),
  /// so a bad value from a slider or a remote never changes the speed.
  /// - Parameter multiplier: the speed relative to normal; 1 is normal.
  public init(_ multiplier: Double) {
    thousandths = Thousandths.rounding(multiplier, nan: 0)
  }

  /// A rate from a float literal, as in `.setRate(1.5)`; see ``init(_:)``.
  public init(floatLiteral value: Double) { self.init(value) }

  /// A rate from an integer literal, a whole multiplier, as in `.setRate(2)`
  /// for 2x; see ``init(_:)``.
  public init(integerLiteral value: Int) { self.init(Double(value)) }

  /// Normal speed, 1x.
  public static let normal = PlaybackRate(thousandths: 1000)

  /// The rate as a multiplier, such as 1.5.
  public var multiplier: Double { Double(thousandths) / 1000 }

  /// Orders rates.
  public static func < (lhs: PlaybackRate, rhs: PlaybackRate) -> Bool {
    lhs.thousandths < rhs.thousandths
  }

  /// Decodes the rate from a single integer (thousandths).
  public init(from decoder: any Decoder) throws {
    thousandths = try decoder.singleValueContainer().decode(Int32.self)
  }

  /// Encodes the rate as a single integer (thousandths).
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(thousandths)
  }

  /// The compact form, as in `1.5x` or `0.75x`.
  public var description: String {
    Thousandths.text(thousandths) + "x"
  }
}
