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

/// The identity of one load: the queue entry it plays and the token the machine issued for it.
///
/// Eight bytes, trivially copyable: this is what travels on every engine
/// report, timer and most commands, so reducing a report copies no string.
/// The media name lives in the queue entry and travels only on `load` and
/// `preload`. Printed as `item3#2` on its own, or `A#2` where the name is known
/// (``description(naming:)``).
public struct Load: Hashable, Sendable, Codable, CustomStringConvertible {
  /// The queue entry being loaded.
  public let item: ItemID
  /// The token the machine issued for this load.
  public let token: LoadToken

  /// Names a load.
  /// - Parameters:
  ///   - item: the queue entry's item id.
  ///   - token: the issued token.
  public init(item: ItemID, token: LoadToken) {
    self.item = item
    self.token = token
  }

  /// Names a load by raw numbers, as in `Load(1, 2)` for `item1#2`.
  public init(_ item: UInt32, _ token: UInt32) {
    self.item = ItemID(item)
    self.token = LoadToken(token)
  }

  /// The compact form without names, `item3#2`.
  public var description: String { description(naming: { _ in nil }) }

  /// The compact form, `A#2` when `name` knows the item, `item3#2` otherwise.
  /// - Parameter name: the media of an item, if known (see ``PlaybackState/media(of:)``).
  public func description(naming name: (ItemID) -> MediaID?) -> String {
    if let media = name(item) { return "\(media)#\(token)" }
    return "\(item)#\(token)"
  }
}

/// A playback rate in thousandths: 1000 is normal speed, 1500 is 1.5x.
///
/// Integral so that rates compare exactly and print as written (`1.5x`).
public struct PlaybackRate: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
  /// The rate in thousandths of normal speed; positive in every rate the machine accepts.
  public let thousandths: Int32

  /// A rate in thousandths of normal speed.
  public init(thousandths: Int32) { self.thousandths = thousandths }

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
    let whole = thousandths / 1000
    var fraction = String(abs(thousandths % 1000))
    while fraction.count < 3 { fraction = "0" + fraction }
    while fraction.hasSuffix("0") { fraction.removeLast() }
    let sign = thousandths < 0 && whole == 0 ? "-" : ""
    return fraction.isEmpty ? "\(whole)x" : "\(sign)\(whole).\(fraction)x"
  }
}

/// What kind of number an ``IssuedID`` is, and how it prints.
public protocol IssuedIDKind: Sendable {
  /// Printed before the number: nothing for a load token, `item`, `seek#`, `watchdog#`, `sleep#`.
  static var prefix: String { get }
}

/// A number the state machine issues: 1, 2, 3, … per player and per kind,
/// never reused (an event needing one past the last, 2³² − 1, is ignored with
/// ``IgnoreReason/idsExhausted``); 0 is never issued.
///
/// One generic shape for the four kinds, kept distinct types by their
/// ``IssuedIDKind``: a ``SeekID`` cannot be passed where a ``WatchdogID`` is meant.
///
/// ```swift
/// let token = LoadToken(2)      // prints "2"
/// let seek = SeekID(1)          // prints "seek#1"
/// ```
public struct IssuedID<Kind: IssuedIDKind>: Hashable, Comparable, Sendable, Codable,
  CustomStringConvertible
{
  /// The issued number; 0 is never issued.
  public let rawValue: UInt32

  /// Wraps an issued number.
  @inlinable public init(_ rawValue: UInt32) { self.rawValue = rawValue }

  /// Orders ids by issue order.
  @inlinable public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

  /// Whether two ids are the same number.
  @inlinable public static func == (lhs: Self, rhs: Self) -> Bool { lhs.rawValue == rhs.rawValue }

  /// Hashes the number.
  @inlinable public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }

  /// Decodes the number from a single integer.
  public init(from decoder: any Decoder) throws {
    rawValue = try decoder.singleValueContainer().decode(UInt32.self)
  }

  /// Encodes the number as a single integer.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(rawValue)
  }

  /// The kind's prefix and the number, as in `seek#2`.
  public var description: String { Kind.prefix + String(rawValue) }

  /// The next id, or nil when every id has been issued (ids never wrap).
  var successor: Self? { rawValue < UInt32.max ? Self(rawValue + 1) : nil }
}

/// The kind of ``LoadToken``.
public enum LoadTokenKind: IssuedIDKind {
  /// Nothing: a token prints as its number, as in `A#2`.
  public static var prefix: String { "" }
}

/// The kind of ``ItemID``.
public enum ItemIDKind: IssuedIDKind {
  /// `item`, as in `item3`.
  public static var prefix: String { "item" }
}

/// The kind of ``SeekID``.
public enum SeekIDKind: IssuedIDKind {
  /// `seek#`, as in `seek#1`.
  public static var prefix: String { "seek#" }
}

/// The kind of ``WatchdogID``.
public enum WatchdogIDKind: IssuedIDKind {
  /// `watchdog#`, as in `watchdog#1`.
  public static var prefix: String { "watchdog#" }
}

/// The kind of ``SleepTimerID``.
public enum SleepTimerIDKind: IssuedIDKind {
  /// `sleep#`, as in `sleep#1`.
  public static var prefix: String { "sleep#" }
}

/// A number the state machine issues for each load: 1, 2, 3, … per player.
///
/// Loading the same media twice gives two tokens, so a late report from the
/// first load can never be mistaken for the second.
public typealias LoadToken = IssuedID<LoadTokenKind>

/// A number the state machine issues for each queue entry: 1, 2, 3, … per
/// player, never reused.
///
/// The same media twice in a queue are two entries with two item ids, and a
/// media removed and added again is a new entry.
public typealias ItemID = IssuedID<ItemIDKind>

/// A number the state machine issues for each seek of a load: 1, 2, 3, …
///
/// A newer seek supersedes an older one; only the newest one's completion counts.
public typealias SeekID = IssuedID<SeekIDKind>

/// A number the state machine issues each time it arms a timer for a load: 1, 2, 3, …
///
/// Only the newest timer of the current load can expire; an older one is stale.
public typealias WatchdogID = IssuedID<WatchdogIDKind>

/// A number the state machine issues each time the user arms a sleep timer's
/// countdown (``SleepTimer/after(_:)``): 1, 2, 3, … per player.
///
/// Only the newest countdown, while it is still armed, can expire; a cancelled
/// or replaced one is stale.
public typealias SleepTimerID = IssuedID<SleepTimerIDKind>
