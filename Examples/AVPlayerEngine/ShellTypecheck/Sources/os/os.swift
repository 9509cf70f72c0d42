// swift-format-ignore-file
// (A stub of Apple API, for type-checking only; Apple documents these declarations.)
// A stub of `os.OSAllocatedUnfairLock` (iOS 16), for type-checking only.
import Foundation

// Safe: `state` is only read or written inside `withLock`, under `lock`.
public final class OSAllocatedUnfairLock<State>: @unchecked Sendable {
  private var state: State
  private let lock = NSLock()
  public init(initialState: State) { state = initialState }
  public func withLock<R: Sendable>(_ body: @Sendable (inout State) throws -> R) rethrows -> R {
    lock.lock(); defer { lock.unlock() }
    return try body(&state)
  }
}
