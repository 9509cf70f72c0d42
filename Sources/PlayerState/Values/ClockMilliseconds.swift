/// A wall-clock duration as the machine keeps it: whole milliseconds, in
/// ``MediaTime``'s form.
///
/// The public API speaks `Duration` for wall-clock time (a sleep countdown, a
/// retry backoff); the values keep this 8-byte form inside, so that states
/// and steps stay small, every printed form stays `1000ms`, and every encoded
/// form stays `{"milliseconds":1000}`, as when these were ``MediaTime``s. A
/// `Duration` is taken with ``MediaTime/init(_:)``: to the nearest
/// millisecond, halves away from zero, saturating; so any `Duration` is
/// taken, and none traps. The name says which clock; the type is the one
/// millisecond value the package has.
typealias ClockMilliseconds = MediaTime

extension Duration {
  /// The duration in whole milliseconds, to the nearest (halves away from
  /// zero), saturating: as the machine keeps wall-clock time.
  package var roundedMilliseconds: Int64 { MediaTime(self).milliseconds }
}
