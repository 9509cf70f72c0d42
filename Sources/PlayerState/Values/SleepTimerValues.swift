/// When playback stops by itself: a sleep timer, set with
/// ``UserIntent/setSleepTimer(_:)``. At most one is armed; setting another
/// replaces it, and `nil` turns it off. The rules are in docs/machine.md,
/// "Sleep timer".
public enum SleepTimer: Hashable, Sendable, Codable, CustomStringConvertible {
  /// Pause after this much wall-clock time: a countdown with its own id
  /// (``SleepTimerID``), run by the driver. A user pause does not stop it; an
  /// expiry while paused only disarms it.
  case after(MediaTime)
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
    case .after(let time): "after(\(time))"
    case .endOfEntry: "endOfEntry"
    case .endOfQueue: "endOfQueue"
    case .afterEntries(let count): "afterEntries(\(count))"
    }
  }

  /// Why the reducer cannot arm this timer, in words; nil when it can.
  var violation: String? {
    switch self {
    case .after(let time) where time <= .zero: "a sleep countdown of \(time) is not positive"
    case .afterEntries(0): "a sleep timer after 0 entries"
    default: nil
    }
  }
}

/// A sleep timer's countdown to schedule: the driver sends
/// ``SystemEvent/sleepTimerExpired(_:)`` with this id once `delay` has
/// passed. A stale expiry (the timer was cancelled or replaced) is ignored by
/// the machine, so the driver never needs to cancel it.
public struct SleepTimerRequest: Hashable, Sendable, Codable, CustomStringConvertible {
  /// The countdown's id.
  public let id: SleepTimerID
  /// How long to wait.
  public let delay: MediaTime

  /// Names a countdown.
  public init(id: SleepTimerID, delay: MediaTime) {
    self.id = id
    self.delay = delay
  }

  /// `sleep(sleep#1, 1800000ms)`.
  public var description: String { "sleep(\(id), \(delay))" }
}
