import Dispatch

/// Stands in for a media library with a callback API, the kind of thing an
/// engine adapter wraps (AVPlayer, ExoPlayer, a game engine's audio system).
/// It knows nothing of Playhead: items, callbacks, its own queue.
///
/// Every media plays for `duration`; names starting with `missing` fail to open.
final class FakeBackend: Sendable {
  /// An opened piece of media.
  struct Item: Hashable, Sendable {
    let id: Int
  }

  /// Why an item could not be opened.
  enum OpenError: Error {
    case notFound
  }

  private struct ItemState {
    var open = true
    var playing = false
    var position: Int = 0  // milliseconds
    var startedAt: DispatchTime?
    var generation = 0  // invalidates the end-of-media timer of an earlier play
    var onEnd: (@Sendable () -> Void)?
  }

  private let queue = DispatchQueue(label: "fake-backend")
  private let duration: Int
  private let openDelay: Int
  private let items = Protected<(next: Int, states: [Int: ItemState])>((0, [:]))

  /// A backend whose media last `duration` ms and take `openDelay` ms to open.
  init(duration: Int = 300, openDelay: Int = 30) {
    self.duration = duration
    self.openDelay = openDelay
  }

  /// Opens media; calls `completion` later, on the backend's queue.
  func open(_ name: String, completion: @escaping @Sendable (Result<Item, OpenError>) -> Void) {
    queue.asyncAfter(deadline: .now() + .milliseconds(openDelay)) { [self] in
      guard !name.hasPrefix("missing") else { return completion(.failure(.notFound)) }
      let item = items.withLock { items in
        items.next += 1
        items.states[items.next] = ItemState()
        return Item(id: items.next)
      }
      completion(.success(item))
    }
  }

  /// Plays; calls `onEnd` on the backend's queue when the media ends.
  func play(_ item: Item, onEnd: @escaping @Sendable () -> Void) {
    let (remaining, generation) = update(item) { state in
      state.playing = true
      state.startedAt = .now()
      state.onEnd = onEnd
    }
    scheduleEnd(item, after: remaining, generation: generation)
  }

  /// Pauses.
  func pause(_ item: Item) {
    _ = update(item) { state in
      state.position = Self.position(of: state)
      state.playing = false
      state.startedAt = nil
    }
  }

  /// Moves to `milliseconds`; calls `completion` on the backend's queue.
  func seek(_ item: Item, to milliseconds: Int, completion: @escaping @Sendable () -> Void) {
    let (remaining, generation) = update(item) { state in
      state.position = min(max(milliseconds, 0), duration)
      if state.playing { state.startedAt = .now() }
    }
    queue.asyncAfter(deadline: .now() + .milliseconds(5), execute: completion)
    scheduleEnd(item, after: remaining, generation: generation)
  }

  /// Closes the item: no callback of it is called any more.
  func close(_ item: Item) {
    _ = items.withLock { $0.states.removeValue(forKey: item.id) }
  }

  /// Applies a change; returns the time left to play (nil when paused or
  /// closed) and the new timer generation.
  private func update(_ item: Item, _ change: (inout ItemState) -> Void) -> (Int?, Int) {
    items.withLock { items in
      guard var state = items.states[item.id], state.open else { return (nil, 0) }
      change(&state)
      state.generation += 1
      items.states[item.id] = state
      let left = state.playing ? duration - state.position : nil
      return (left, state.generation)
    }
  }

  private func scheduleEnd(_ item: Item, after milliseconds: Int?, generation: Int) {
    guard let milliseconds else { return }
    queue.asyncAfter(deadline: .now() + .milliseconds(milliseconds)) { [self] in
      let onEnd = items.withLock { items -> (@Sendable () -> Void)? in
        guard let state = items.states[item.id], state.generation == generation, state.playing
        else { return nil }
        return state.onEnd
      }
      onEnd?()
    }
  }

  private static func position(of state: ItemState) -> Int {
    guard let startedAt = state.startedAt else { return state.position }
    let elapsed = (DispatchTime.now().uptimeNanoseconds - startedAt.uptimeNanoseconds) / 1_000_000
    return state.position + Int(elapsed)
  }
}
