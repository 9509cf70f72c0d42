import Foundation

/// A value guarded by an `NSLock`: the example's lock. Playhead's own
/// `Locked` is internal to the package, and `Synchronization.Mutex` needs
/// macOS 15 / iOS 18, above this example's floor (macOS 13 / iOS 16).
final class Protected<Value: Sendable>: @unchecked Sendable {  // Safe: invariant below.
  // `value` is read and written only inside `withLock`, between `lock()` and
  // `unlock()` on `lock`; `Value` is Sendable, so what `withLock` hands out
  // may cross threads.
  private let lock = NSLock()
  private var value: Value

  init(_ value: Value) {
    self.value = value
  }

  /// Runs `body` with exclusive access to the value. Not re-entrant.
  func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}
