public import Dispatch

/// How a player turns the machine's timer requests into timeouts, and the
/// clock it reads progress on.
///
/// The machine asks for a watchdog when a load starts buffering or stalls;
/// the player calls ``schedule(_:_:)`` with ``timeout`` and a closure that
/// sends the expiry back in. While a load waits for the network, the machine
/// asks for a backoff with its own delay (``PlayerState/RetryPolicy``),
/// scheduled the same way. A sleep timer's countdown and the ticks of
/// ``Player/progressUpdates(every:)`` are scheduled on the policy too. A
/// player without a policy has no buffering or stall timeouts, and schedules
/// its backoffs, countdowns and ticks on a Dispatch global queue.
///
/// A stale expiry (the load moved on) is ignored by the machine, so a
/// scheduler that cannot cancel is still correct. One that can (made with
/// ``init(timeout:now:schedule:)``, as ``dispatch(timeout:queue:)`` is) lets
/// the player cancel what it no longer needs: a replaced or disarmed sleep
/// countdown, a replaced watchdog, a progress tick nobody waits for, and
/// everything pending when the player goes. So a player holds at most one
/// watchdog, one countdown and one tick per progress stream (docs/memory.md).
///
/// ```swift
/// // A clock of your own (a virtual one in tests) whose timers can be cancelled.
/// let policy = WatchdogPolicy(timeout: .seconds(10), now: { clock.now }) { after, fire in
///   let timer = clock.schedule(after: after, fire)
///   return TimerHandle { timer.cancel() }
/// }
/// let player = Player(engine: engine, watchdog: policy)
/// ```
public struct WatchdogPolicy: Sendable {
  /// How long a load may stay buffering or stalled before it fails with `timeout`.
  public var timeout: Duration
  /// The clock's current instant, as the time since a fixed origin of the
  /// clock's own (only differences between two readings mean anything). The
  /// player reads it to time ``Player/progress``. For a policy made with
  /// ``init(timeout:schedule:)``, the system's monotonic clock.
  public var now: @Sendable () -> Duration
  private let start: @Sendable (Duration, @escaping @Sendable () -> Void) -> TimerHandle

  /// A policy with your own scheduler that cannot cancel, such as a virtual
  /// clock in tests; its ``now`` is the system's monotonic clock.
  ///
  /// The form every policy had before timers could be cancelled; it still
  /// works, but the player can then cancel nothing, so each replaced timer
  /// stays with your scheduler until it falls due. Prefer
  /// ``init(timeout:now:schedule:)``.
  /// - Parameters:
  ///   - timeout: how long a load may stay buffering or stalled.
  ///   - schedule: runs its closure once, after the given time.
  public init(
    timeout: Duration,
    schedule:
      @escaping @Sendable (_ after: Duration, _ fire: @escaping @Sendable () -> Void) -> Void
  ) {
    self.timeout = timeout
    self.now = Self.monotonicNow
    start = { after, fire in
      schedule(after, fire)
      return .uncancellable
    }
  }

  /// A policy with your own clock and a scheduler that can cancel.
  /// - Parameters:
  ///   - timeout: how long a load may stay buffering or stalled.
  ///   - now: the clock's current instant (see ``now``): the time of the
  ///     scheduler, so that progress read on a virtual clock moves with it.
  ///   - schedule: runs its closure once, after the given time, unless the
  ///     handle it returns is cancelled first. After a cancel the closure must
  ///     not run, and should be released (the player counts on it for memory).
  ///
  /// The player may read `now` and cancel a handle while it holds its lock:
  /// neither may call into the player (send it an event, read its state).
  public init(
    timeout: Duration, now: @escaping @Sendable () -> Duration,
    schedule:
      @escaping @Sendable (_ after: Duration, _ fire: @escaping @Sendable () -> Void) ->
      TimerHandle
  ) {
    self.timeout = timeout
    self.now = now
    start = schedule
  }

  /// Runs `fire` once, `after` the given time, on any thread.
  /// - Parameters:
  ///   - after: how long to wait; zero or negative runs it as soon as possible.
  ///   - fire: what to run.
  /// - Returns: a handle that cancels it (``TimerHandle/uncancellable`` for a
  ///   policy made with ``init(timeout:schedule:)``).
  @discardableResult
  public func schedule(_ after: Duration, _ fire: @escaping @Sendable () -> Void) -> TimerHandle {
    start(after, fire)
  }

  /// A policy that schedules on a Dispatch queue, with timers that cancel for
  /// real (a `DispatchSourceTimer` each, cancelled with its handle: its
  /// closure is released at once, the source as soon as Dispatch processes
  /// the cancel), and the monotonic clock Dispatch's deadlines use.
  /// - Parameters:
  ///   - timeout: how long a load may stay buffering or stalled.
  ///   - queue: where the expiry is sent from.
  public static func dispatch(timeout: Duration, queue: DispatchQueue = .global()) -> WatchdogPolicy
  {
    WatchdogPolicy(timeout: timeout, now: monotonicNow) { after, fire in
      DispatchTimer.start(after: after, on: queue, fire)
    }
  }

  /// The monotonic clock Dispatch's deadlines are on.
  static let monotonicNow: @Sendable () -> Duration = {
    .nanoseconds(Int64(clamping: DispatchTime.now().uptimeNanoseconds))
  }
}

/// Cancels a timer a ``WatchdogPolicy`` scheduled.
public struct TimerHandle: Sendable {
  private let onCancel: (@Sendable () -> Void)?

  /// A handle that cancels with `cancel`.
  /// - Parameter cancel: stops the timer; called at most once by the player,
  ///   maybe after the timer fired (then it should do nothing).
  public init(cancel: @escaping @Sendable () -> Void) { onCancel = cancel }

  /// A handle for a timer that cannot be cancelled: ``cancel()`` does nothing.
  public static let uncancellable = TimerHandle(nil)

  private init(_ cancel: (@Sendable () -> Void)?) { onCancel = cancel }

  /// Cancels the timer: its closure does not run if it has not yet.
  public func cancel() { onCancel?() }
}

/// One timer of ``WatchdogPolicy/dispatch(timeout:queue:)``.
private enum DispatchTimer {
  #if canImport(Darwin)
    // Apple's SDKs mark the source protocols Sendable (Swift 6.2 and later).
    typealias Source = any DispatchSourceTimer
    static func makeSource(on queue: DispatchQueue) -> Source? {
      DispatchSource.makeTimerSource(queue: queue)
    }
  #else
    // swift-corelibs-libdispatch marks the class Sendable, not the protocol;
    // its `makeTimerSource` always returns that class.
    typealias Source = DispatchSource
    static func makeSource(on queue: DispatchQueue) -> Source? {
      DispatchSource.makeTimerSource(queue: queue) as? DispatchSource
    }
  #endif

  static func start(
    after: Duration, on queue: DispatchQueue, _ fire: @escaping @Sendable () -> Void
  ) -> TimerHandle {
    let pending = PendingFire(fire)
    let deadline = DispatchTime.now() + .nanoseconds(after.saturatingNanoseconds)
    guard let source = makeSource(on: queue) else {
      // Not reached (see `makeSource`); a cancel still releases `fire`.
      queue.asyncAfter(deadline: deadline) { pending.take()?() }
      return TimerHandle { _ = pending.take() }
    }
    // The handler holds the source until it fires or is cancelled (a cycle
    // that Dispatch breaks by releasing the handler on cancel), so a timer
    // nobody cancels still fires; `pending` lets `cancel` release `fire` at
    // once, without waiting for Dispatch to process the source's cancel.
    source.setEventHandler {
      pending.take()?()
      source.cancel()
    }
    source.schedule(deadline: deadline)
    source.activate()
    return TimerHandle {
      _ = pending.take()
      source.cancel()
    }
  }
}

/// A closure run at most once: whoever takes it first (the timer firing, or
/// a cancel) gets it, and it is released then.
private final class PendingFire: Sendable {
  private let fire: Locked<(@Sendable () -> Void)?>

  init(_ fire: @escaping @Sendable () -> Void) { self.fire = Locked(fire) }

  func take() -> (@Sendable () -> Void)? {
    fire.withLock { fire in
      defer { fire = nil }
      return fire
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
