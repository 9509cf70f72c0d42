/// A volume level: 0 is silent, 1 is full. The user's volume, a duck's level
/// and the level of an engine's ``EngineCommand/setVolume(_:_:ramp:)``.
///
/// Kept in thousandths, integral, as ``PlaybackRate``, so that levels compare
/// exactly, a duck's level applied and removed gives back the user's volume to
/// the thousandth, and a level prints as written (`0.5`). Write one as a number:
///
/// ```swift
/// player.send(.setVolume(0.5))               // a float literal
/// player.send(.setVolume(1))                 // an integer literal: full
/// let level = Volume(Double(slider.value))   // any Double, rounded to thousandths
/// ```
///
/// The machine takes any level from 0 to 1 (``UserIntent/setVolume(_:)``) and
/// refuses others with ``IgnoreReason/invalidArgument``.
public struct Volume: Hashable, Comparable, Sendable, Codable, CustomStringConvertible,
  ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral
{
  /// The level in thousandths of full: 0 to 1000 in every level the machine accepts.
  public let thousandths: Int32

  /// A level in thousandths of full.
  public init(thousandths: Int32) { self.thousandths = thousandths }

  /// A level from a fraction of full, such as 0.5, rounded to the nearest
  /// thousandth (halves away from zero).
  ///
  /// Total, it never traps: a fraction beyond what thousandths in an `Int32`
  /// hold saturates; one that is not a number gives -1. Below 0 (-0.0005 and
  /// less), above 1 (1.0005 and more) and NaN give levels the machine refuses
  /// (``IgnoreReason/invalidArgument``), so a bad value from a slider or a
  /// remote never changes the volume.
  /// - Parameter level: the fraction of full volume; 1 is full.
  public init(_ level: Double) {
    thousandths = Thousandths.rounding(level, nan: -1)
  }

  /// A level from a float literal, as in `.setVolume(0.5)`; see ``init(_:)``.
  public init(floatLiteral value: Double) { self.init(value) }

  /// A level from an integer literal, as in `.setVolume(1)` for full; see ``init(_:)``.
  public init(integerLiteral value: Int) { self.init(Double(value)) }

  /// Full volume, 1.
  public static let full = Volume(thousandths: 1000)

  /// Silence, 0.
  public static let silent = Volume(thousandths: 0)

  /// The level as a fraction of full, such as 0.5.
  public var level: Double { Double(thousandths) / 1000 }

  /// Whether the machine accepts the level: from 0 to 1.
  public var isValid: Bool { (0...1000).contains(thousandths) }

  /// This level scaled by `factor` (both valid), rounded half up:
  /// `(a × b + 500) / 1000` in thousandths. A duck's level applied to the user's volume.
  public func scaled(by factor: Volume) -> Volume {
    Volume(thousandths: Int32((Int64(thousandths) * Int64(factor.thousandths) + 500) / 1000))
  }

  /// Orders levels.
  public static func < (lhs: Volume, rhs: Volume) -> Bool { lhs.thousandths < rhs.thousandths }

  /// Decodes the level from a single integer (thousandths).
  public init(from decoder: any Decoder) throws {
    thousandths = try decoder.singleValueContainer().decode(Int32.self)
  }

  /// Encodes the level as a single integer (thousandths).
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(thousandths)
  }

  /// The compact form, as in `0.5`, `1`, `0` or `0.25`.
  public var description: String {
    Thousandths.text(thousandths)
  }
}

/// What the machine does when the system asks the app to duck (a transient
/// loss of audio focus that allows ducking: a navigation prompt, a
/// notification; ``SystemEvent/duckBegan``).
public enum DuckPolicy: Hashable, Sendable, Codable, CustomStringConvertible {
  /// Lower the volume to this fraction of the user's volume until the duck
  /// ends (Media3's AudioFocusManager uses 0.2); the engine keeps playing.
  case lower(to: Volume)
  /// Pause the engine until the duck ends, as an interruption does (for
  /// spoken content, where a lowered voice is still unintelligible); the
  /// user's play intent does not change.
  case pause

  /// `lower(0.2)` or `pause`.
  public var description: String {
    switch self {
    case .lower(let level): "lower(\(level))"
    case .pause: "pause"
    }
  }
}
