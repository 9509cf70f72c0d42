/// What a live load can seek to now, as its engine reports it
/// (``EngineReport/window(_:_:)``): from ``start`` to ``end``, the live edge.
///
/// A window of zero length (`start == end`) is a live stream without DVR:
/// nothing to seek in. An engine maps a seekable range too short to be
/// useful (AVPlayer's `seekableTimeRanges` of a few segments, Media3's
/// unseekable window) to one. The machine takes a window with
/// `0 ≤ start ≤ end` and refuses any other (``IgnoreReason/invalidArgument``).
public struct LiveWindow: Hashable, Sendable, Codable, CustomStringConvertible {
  /// The earliest position the engine can seek to now.
  public var start: MediaTime
  /// The live edge: the newest position of the broadcast.
  public var end: MediaTime

  /// A window from `start` to the live edge `end`.
  public init(start: MediaTime, end: MediaTime) {
    self.start = start
    self.end = end
  }

  /// Whether there is anything to seek in: `start` is before `end` (DVR).
  public var isSeekable: Bool { start < end }

  /// How long the window is: `end - start` (saturating).
  public var length: MediaTime { end - start }

  /// Whether the window holds `time`.
  public func contains(_ time: MediaTime) -> Bool { start <= time && time <= end }

  /// `time` moved into the window: `start` below it, `end` past it.
  public func clamp(_ time: MediaTime) -> MediaTime { max(start, min(time, end)) }

  /// Whether the machine takes the window: `0 ≤ start ≤ end`.
  var isValid: Bool { start >= .zero && start <= end }

  /// `60000ms…120000ms`.
  public var description: String { "\(start)…\(end)" }
}

/// What kind of media the current load is, from its engine's reports
/// (``PlaybackState/streamKind``).
public enum StreamKind: String, Hashable, Sendable, Codable, CustomStringConvertible {
  /// Media with a beginning and an end: no window reported.
  case onDemand
  /// A live stream without DVR: a window of zero length; no seeking.
  case live
  /// A live stream with a window to seek in (DVR).
  case dvr

  /// `onDemand`, `live` or `dvr`.
  public var description: String { rawValue }

  /// The kind a load with this window (or none) is.
  init(window: LiveWindow?) {
    guard let window else {
      self = .onDemand
      return
    }
    self = window.isSeekable ? .dvr : .live
  }

  /// Whether the media is live (with or without DVR).
  public var isLive: Bool { self != .onDemand }
}
