/// The caller's name for a piece of media, such as a URL string or a catalogue id.
///
/// Playhead never interprets it: it is compared for equality and printed.
///
/// ```swift
/// let media: MediaID = "A"
/// ```
public struct MediaID: Hashable, Sendable, Codable, ExpressibleByStringLiteral,
  CustomStringConvertible
{
  /// The caller's string.
  public let rawValue: String

  /// Wraps a caller's string.
  /// - Parameter rawValue: any string; it is only compared and printed.
  public init(_ rawValue: String) { self.rawValue = rawValue }

  /// Creates a media id from a string literal.
  public init(stringLiteral value: String) { self.rawValue = value }

  /// Decodes a media id from a single string.
  public init(from decoder: any Decoder) throws {
    rawValue = try decoder.singleValueContainer().decode(String.self)
  }

  /// Encodes the media id as a single string.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(rawValue)
  }

  /// The caller's string, unchanged.
  public var description: String { rawValue }
}

/// A number the state machine issues for each load: 1, 2, 3, … per player.
///
/// Loading the same media twice gives two tokens, so a late report from the
/// first load can never be mistaken for the second.
public struct LoadToken: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
  /// The issued number; 0 is never issued.
  public let rawValue: UInt32

  /// Wraps an issued number.
  public init(_ rawValue: UInt32) { self.rawValue = rawValue }

  /// Orders tokens by issue order.
  public static func < (lhs: LoadToken, rhs: LoadToken) -> Bool { lhs.rawValue < rhs.rawValue }

  /// Decodes the number from a single integer.
  public init(from decoder: any Decoder) throws {
    rawValue = try decoder.singleValueContainer().decode(UInt32.self)
  }

  /// Encodes the number as a single integer.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(rawValue)
  }

  /// The number, as in `2`.
  public var description: String { String(rawValue) }
}

/// The identity of one load: what was loaded and the token the machine issued for it.
///
/// Printed as `A#2`. Every engine report carries one, and a report whose load is
/// not the current one changes nothing.
public struct Load: Hashable, Sendable, Codable, CustomStringConvertible {
  /// The caller's media id.
  public let media: MediaID
  /// The token the machine issued for this load.
  public let token: LoadToken

  /// Names a load.
  /// - Parameters:
  ///   - media: the caller's media id.
  ///   - token: the issued token.
  public init(_ media: MediaID, _ token: UInt32) {
    self.media = media
    self.token = LoadToken(token)
  }

  /// Names a load.
  public init(media: MediaID, token: LoadToken) {
    self.media = media
    self.token = token
  }

  /// The compact form, `media#token`, as in `A#2`.
  public var description: String { "\(media)#\(token)" }
}

/// A number the state machine issues for each seek of a load: 1, 2, 3, …
///
/// A newer seek supersedes an older one; only the newest one's completion counts.
public struct SeekID: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
  /// The issued number; 0 is never issued.
  public let rawValue: UInt32

  /// Wraps an issued number.
  public init(_ rawValue: UInt32) { self.rawValue = rawValue }

  /// Orders seeks by issue order.
  public static func < (lhs: SeekID, rhs: SeekID) -> Bool { lhs.rawValue < rhs.rawValue }

  /// Decodes the number from a single integer.
  public init(from decoder: any Decoder) throws {
    rawValue = try decoder.singleValueContainer().decode(UInt32.self)
  }

  /// Encodes the number as a single integer.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(rawValue)
  }

  /// The compact form, as in `seek#1`.
  public var description: String { "seek#\(rawValue)" }
}

/// A number the state machine issues each time it arms a watchdog for a load: 1, 2, 3, …
///
/// Only the newest watchdog of the current load can expire; an older one is stale.
public struct WatchdogID: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
  /// The issued number; 0 is never issued.
  public let rawValue: UInt32

  /// Wraps an issued number.
  public init(_ rawValue: UInt32) { self.rawValue = rawValue }

  /// Orders watchdogs by issue order.
  public static func < (lhs: WatchdogID, rhs: WatchdogID) -> Bool {
    lhs.rawValue < rhs.rawValue
  }

  /// Decodes the number from a single integer.
  public init(from decoder: any Decoder) throws {
    rawValue = try decoder.singleValueContainer().decode(UInt32.self)
  }

  /// Encodes the number as a single integer.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(rawValue)
  }

  /// The compact form, as in `watchdog#1`.
  public var description: String { "watchdog#\(rawValue)" }
}

/// A position in the media, in whole milliseconds.
///
/// Playhead keeps its own small type instead of `Duration` so that events stay
/// small (8 bytes) and the module needs nothing beyond the standard library.
public struct MediaTime: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
  /// The position in milliseconds.
  public let milliseconds: Int64

  /// A position in milliseconds.
  public init(milliseconds: Int64) { self.milliseconds = milliseconds }

  /// A position in milliseconds.
  public static func milliseconds(_ value: Int64) -> MediaTime { MediaTime(milliseconds: value) }

  /// A position in whole seconds; saturates instead of overflowing.
  public static func seconds(_ value: Int64) -> MediaTime {
    let (product, overflow) = value.multipliedReportingOverflow(by: 1000)
    return MediaTime(milliseconds: overflow ? (value < 0 ? .min : .max) : product)
  }

  /// The start of the media.
  public static let zero = MediaTime(milliseconds: 0)

  /// Orders positions.
  public static func < (lhs: MediaTime, rhs: MediaTime) -> Bool {
    lhs.milliseconds < rhs.milliseconds
  }

  /// The compact form, as in `2000ms`.
  public var description: String { "\(milliseconds)ms" }
}
