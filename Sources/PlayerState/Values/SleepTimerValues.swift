/// When playback stops by itself: a sleep timer, set with
/// ``UserIntent/setSleepTimer(_:)``. At most one is armed; setting another
/// replaces it, and `nil` turns it off. The rules are in docs/machine.md,
/// "Sleep timer".
///
/// ```swift
/// player.send(.user(.setSleepTimer(.after(.seconds(30 * 60)))))   // in half an hour
/// player.send(.user(.setSleepTimer(.endOfEntry)))                  // at the end of this track
/// player.send(.user(.setSleepTimer(nil)))                          // off
/// ```
public enum SleepTimer: Hashable, Sendable, Codable, CustomStringConvertible {
  /// Pause after this much wall-clock time: a countdown with its own id
  /// (``SleepTimerID``), run by the driver on its clock. A user pause does not
  /// stop it; an expiry while paused only disarms it.
  ///
  /// `Duration` has no `.minutes`: write `.seconds(30 * 60)` for half an hour.
  /// The machine keeps the countdown to the millisecond: it is rounded to the
  /// nearest (halves away from zero, saturating) when it is armed, in the
  /// state and in the request, and printed and encoded in milliseconds
  /// (`after(1800000ms)`). One that rounds to 0 ms or less is refused
  /// (``IgnoreReason/invalidArgument``).
  case after(Duration)
  /// Stop at the end of the current entry (whichever is current when it
  /// ends): nothing else starts, and nothing is preloaded meanwhile.
  case endOfEntry
  /// Stop at the end of the last entry in play order, instead of wrapping
  /// (repeat all) or replaying it (repeat one).
  case endOfQueue
  /// Stop at the end of the n-th entry to end from now (natural ends only,
  /// replays included; skips do not count). In a state, the ends still to go.
  case afterEntries(UInt32)

  /// `after(1800000ms)`, `endOfEntry`, `endOfQueue`, `afterEntries(2)`.
  public var description: String {
    switch self {
    case .after(let delay): "after(\(ClockMilliseconds(delay)))"
    case .endOfEntry: "endOfEntry"
    case .endOfQueue: "endOfQueue"
    case .afterEntries(let count): "afterEntries(\(count))"
    }
  }

  /// Whether this is a countdown (``after(_:)``), whose clock is the driver's.
  public var isCountdown: Bool {
    if case .after = self { return true }
    return false
  }

  /// Why the reducer cannot arm this timer, in words; nil when it can.
  var violation: String? {
    switch self {
    case .after(let delay) where ClockMilliseconds(delay).milliseconds <= 0:
      "a sleep countdown of \(ClockMilliseconds(delay)) is not positive"
    case .afterEntries(0): "a sleep timer after 0 entries"
    default: nil
    }
  }

  /// The form the state keeps, a countdown to the millisecond.
  var compact: CompactSleepTimer {
    switch self {
    case .after(let delay): .after(ClockMilliseconds(delay))
    case .endOfEntry: .endOfEntry
    case .endOfQueue: .endOfQueue
    case .afterEntries(let count): .afterEntries(count)
    }
  }

  /// A timer from the form the state keeps.
  init(_ compact: CompactSleepTimer) {
    switch compact {
    case .after(let delay): self = .after(delay.duration)
    case .endOfEntry: self = .endOfEntry
    case .endOfQueue: self = .endOfQueue
    case .afterEntries(let count): self = .afterEntries(count)
    }
  }

  /// Decodes a timer, as it was encoded when its countdown was a
  /// ``MediaTime``: `{"after":{"_0":{"milliseconds":1800000}}}`, `{"endOfEntry":{}}`.
  public init(from decoder: any Decoder) throws {
    self.init(try CompactSleepTimer(from: decoder))
  }

  /// Encodes the timer, a countdown in whole milliseconds (rounded as the
  /// machine keeps it): `{"after":{"_0":{"milliseconds":1800000}}}`, `{"afterEntries":{"_0":2}}`.
  public func encode(to encoder: any Encoder) throws {
    try compact.encode(to: encoder)
  }
}

/// A ``SleepTimer`` as the state keeps and encodes it: its countdown in whole
/// milliseconds (9 bytes, against 17 with a `Duration`), so a state stays
/// 240 bytes and a countdown set as `.seconds(1.1)` is the same state as one
/// of 1100 ms. Its synthesized coding is ``SleepTimer``'s.
enum CompactSleepTimer: Hashable, Sendable, Codable {
  case after(ClockMilliseconds)
  case endOfEntry
  case endOfQueue
  case afterEntries(UInt32)
}

/// A sleep timer's countdown to schedule: the driver sends
/// ``SystemEvent/sleepTimerExpired(_:)`` with this id once `delay` has
/// passed on its clock. A stale expiry (the timer was cancelled or replaced)
/// is ignored by the machine, so cancelling is only a saving: `Player` cancels
/// a replaced or disarmed countdown so that it does not stay scheduled.
public struct SleepTimerRequest: Hashable, Sendable, Codable, CustomStringConvertible {
  /// The countdown's id.
  public let id: SleepTimerID
  /// The countdown, kept to the millisecond (encoded as `{"milliseconds":N}`).
  private let wait: ClockMilliseconds

  /// How long to wait, wall-clock: a whole number of milliseconds.
  public var delay: Duration { wait.duration }

  /// Names a countdown.
  /// - Parameters:
  ///   - id: the countdown's id.
  ///   - delay: how long to wait, rounded to the nearest millisecond (halves
  ///     away from zero, saturating).
  public init(id: SleepTimerID, delay: Duration) {
    self.id = id
    wait = ClockMilliseconds(delay)
  }

  /// A countdown of a delay already kept to the millisecond.
  init(id: SleepTimerID, wait: ClockMilliseconds) {
    self.id = id
    self.wait = wait
  }

  private enum CodingKeys: String, CodingKey {
    case id
    case wait = "delay"
  }

  /// `sleep(sleep#1, 1800000ms)`.
  public var description: String { "sleep(\(id), \(wait))" }
}
