#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A reusable barrier over a pthread mutex and condition: `wait()` returns
/// once `parties` threads are waiting, then the barrier is ready for the next
/// round. The concurrent mode's bursts start and end on one.
final class Barrier: @unchecked Sendable {  // Safe: the counters are touched under `mutex` only.
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  private let condition: UnsafeMutablePointer<pthread_cond_t>
  private let parties: Int
  private var waiting = 0
  private var generation = 0

  /// A barrier for `parties` threads.
  init(parties: Int) {
    self.parties = parties
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
    condition = .allocate(capacity: 1)
    condition.initialize(to: pthread_cond_t())
    pthread_cond_init(condition, nil)
  }

  deinit {
    pthread_cond_destroy(condition)
    condition.deinitialize(count: 1)
    condition.deallocate()
    pthread_mutex_destroy(mutex)
    mutex.deinitialize(count: 1)
    mutex.deallocate()
  }

  /// Waits until every party is waiting.
  func wait() {
    pthread_mutex_lock(mutex)
    let mine = generation
    waiting += 1
    if waiting == parties {
      waiting = 0
      generation += 1
      pthread_cond_broadcast(condition)
    } else {
      while generation == mine { pthread_cond_wait(condition, mutex) }
    }
    pthread_mutex_unlock(mutex)
  }
}

/// Runs `body(0)`…`body(count − 1)` on `count` new threads at once (real
/// threads, not a pool's: they meet at barriers, which a pool narrower than
/// `count` would deadlock) and returns when all have finished.
func onNewThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
  join(startThreads(0..<count, body))
}

/// Runs `body(1)`…`body(count − 1)` on new threads and `caller()` on the
/// calling thread (party 0, which may call back what is not `Sendable`, such
/// as a progress line), and returns when all have finished.
func onThreads(
  _ count: Int, _ body: @escaping @Sendable (Int) -> Void, caller: () -> Void
) {
  let threads = startThreads(1..<max(1, count), body)
  caller()
  join(threads)
}

#if canImport(Darwin)
  private typealias Thread = pthread_t?
#else
  private typealias Thread = pthread_t
#endif

/// Starts one thread for each index in `indices`, running `body(index)`.
private func startThreads(
  _ indices: Range<Int>, _ body: @escaping @Sendable (Int) -> Void
) -> [Thread] {
  final class Work: @unchecked Sendable {  // Safe: read-only once the thread starts.
    let body: @Sendable (Int) -> Void
    let index: Int
    init(_ body: @escaping @Sendable (Int) -> Void, _ index: Int) {
      self.body = body
      self.index = index
    }
  }
  var threads: [Thread] = []
  for index in indices {
    let work = Unmanaged.passRetained(Work(body, index)).toOpaque()
    #if canImport(Darwin)
      var thread: pthread_t?
    #else
      var thread = pthread_t()
    #endif
    let created = pthread_create(
      &thread, nil,
      { raw in
        #if canImport(Darwin)
          let work = Unmanaged<Work>.fromOpaque(raw).takeRetainedValue()
        #else
          guard let raw else { return nil }
          let work = Unmanaged<Work>.fromOpaque(raw).takeRetainedValue()
        #endif
        work.body(work.index)
        return nil
      }, work)
    precondition(created == 0, "pthread_create failed: \(created)")
    threads.append(thread)
  }
  return threads
}

/// Waits for each of `threads` to finish.
private func join(_ threads: [Thread]) {
  for thread in threads {
    #if canImport(Darwin)
      if let thread { pthread_join(thread, nil) }
    #else
      pthread_join(thread, nil)
    #endif
  }
}
