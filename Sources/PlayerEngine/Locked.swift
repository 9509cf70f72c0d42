#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A value guarded by a pthread mutex.
///
/// Why not `Synchronization.Mutex`: on Linux its contended path hands the
/// lock over inside the kernel (a priority-inheritance futex), which
/// ThreadSanitizer cannot see, so every contended critical section is
/// reported as a data race (reproduced here with 8 threads incrementing one
/// `Mutex<Int>` under `-sanitize=thread`). A pthread mutex is intercepted by
/// ThreadSanitizer, so CI's sanitizer run stays meaningful: a report is a
/// real race.
package final class Locked<Value: Sendable>: @unchecked Sendable {  // Safe: invariant below.
  // Invariant that makes the unchecked Sendable sound: `Value` is Sendable,
  // so what `withLock` hands out may cross threads; and `value` is read and
  // written only inside `withLock`, between `pthread_mutex_lock` and
  // `pthread_mutex_unlock` on `mutex`. The mutex lives in its own heap
  // allocation (pthread mutexes must not move), created in `init` and
  // destroyed in `deinit`, when no other reference exists. The value lives
  // behind a pointer too: a `var` stored property would pay a dynamic
  // exclusivity check on every lock (~80 instructions), which the mutex
  // already makes redundant.
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  private let value: UnsafeMutablePointer<Value>

  /// Guards `value`.
  package init(_ value: Value) {
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
    self.value = .allocate(capacity: 1)
    self.value.initialize(to: value)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deinitialize(count: 1)
    mutex.deallocate()
    value.deinitialize(count: 1)
    value.deallocate()
  }

  /// Runs `body` with exclusive access to the value. Not re-entrant: `body`
  /// must not call `withLock` on the same instance.
  @inline(__always)
  package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body(&value.pointee)
  }
}
