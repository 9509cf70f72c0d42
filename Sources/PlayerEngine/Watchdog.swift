public import Dispatch

/// How a player turns the machine's timer requests into timeouts.
///
/// The machine asks for a watchdog when a load starts buffering or stalls;
/// the player calls ``schedule`` with ``timeout`` and a closure that sends the
/// expiry back in. While a load waits for the network, the machine asks for a
/// backoff with its own delay (``PlayerState/RetryPolicy``), scheduled the same
/// way; a player without a policy schedules neither, and a wait then ends when
/// the network is reported available (or on retry, a skip or stop). A stale
/// expiry (the load moved on) is ignored by the machine, so the scheduler never
/// needs to cancel anything.
public struct WatchdogPolicy: Sendable {
  /// How long a load may stay buffering or stalled before it fails with `timeout`.
  public var timeout: Duration
  /// Runs `fire` once, `after` the given time, on any thread.
  public var schedule: @Sendable (_ after: Duration, _ fire: @escaping @Sendable () -> Void) -> Void

  /// A policy with your own scheduler, such as a virtual clock in tests.
  /// - Parameters:
  ///   - timeout: how long a load may stay buffering or stalled.
  ///   - schedule: runs its closure once, after the given time.
  public init(
    timeout: Duration,
    schedule:
      @escaping @Sendable (_ after: Duration, _ fire: @escaping @Sendable () -> Void) -> Void
  ) {
    self.timeout = timeout
    self.schedule = schedule
  }

  /// A policy that schedules on a Dispatch queue.
  /// - Parameters:
  ///   - timeout: how long a load may stay buffering or stalled.
  ///   - queue: where the expiry is sent from.
  public static func dispatch(timeout: Duration, queue: DispatchQueue = .global()) -> WatchdogPolicy
  {
    WatchdogPolicy(timeout: timeout) { after, fire in
      queue.asyncAfter(deadline: .now() + .nanoseconds(after.saturatingNanoseconds), execute: fire)
    }
  }
}

extension Duration {
  /// The duration in whole nanoseconds, clamped to `Int`; negative becomes 0.
  var saturatingNanoseconds: Int {
    let (seconds, attoseconds) = components
    if seconds < 0 { return 0 }
    if seconds >= Int64(Int.max / 1_000_000_000) { return Int.max }
    return Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
  }
}
