/// A wall-clock duration as the machine keeps it: whole milliseconds.
///
/// The public API speaks `Duration` for wall-clock time (a sleep countdown, a
/// retry backoff); the values keep this 8-byte form inside, so that states
/// and steps stay small, every printed form stays `1000ms`, and every encoded
/// form stays `{"milliseconds":1000}`, as when these were ``MediaTime``s. A
/// `Duration` is rounded on the way in as ``MediaTime/init(_:)`` rounds: to the
/// nearest millisecond, halves away from zero, saturating; so any `Duration`
/// is taken, and none traps.
struct ClockMilliseconds: Hashable, Sendable, Codable, Comparable, CustomStringConvertible {
  /// The duration in milliseconds.
  var milliseconds: Int64

  /// A duration of `milliseconds`.
  init(milliseconds: Int64) { self.milliseconds = milliseconds }

  /// `duration` to the nearest millisecond (halves away from zero), saturating.
  init(_ duration: Duration) { milliseconds = MediaTime(duration).milliseconds }

  /// The same length as a `Duration`, exactly.
  var duration: Duration { .milliseconds(milliseconds) }

  static func < (lhs: Self, rhs: Self) -> Bool { lhs.milliseconds < rhs.milliseconds }

  /// `1000ms`, as a ``MediaTime`` prints.
  var description: String { "\(milliseconds)ms" }
}

extension Duration {
  /// This duration in whole milliseconds, rounded as the machine keeps
  /// wall-clock time (to the nearest, halves away from zero) and saturating at
  /// the range of an `Int64`: exact for every duration the machine emits.
  package var roundedMilliseconds: Int64 { MediaTime(self).milliseconds }
}
