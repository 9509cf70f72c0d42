import PlayerEngine
import PlayerState

/// Subscribes to one of the player's streams, never reads it, sends events,
/// and measures what the stream's buffer holds: the cost of a subscriber
/// that stalls.
enum StreamProbe {
  enum Stream: String, CaseIterable {
    case steps, states, ignored
  }

  enum Policy: String {
    /// The stream's default: the newest `Player.defaultBufferLimit` elements.
    case `default`
    case unbounded
  }

  /// Plays A, then sends `rounds` × (pause, resume, a never-issued report):
  /// every pause and resume changes the state, every report is ignored. So
  /// `steps` is published 2 + 3 × rounds elements, `states` 3 + 2 × rounds
  /// (the current state first), `ignored` rounds.
  static func measure(_ stream: Stream, _ policy: Policy, rounds: Int) -> MemoryFigures.Subscriber {
    let player = Player(engine: NoOpEngine())
    let published: Int
    let before = ProcessMemory.heapInUse()
    var subscription: Any
    switch (stream, policy) {
    case (.steps, .default): subscription = player.steps()
    case (.steps, .unbounded): subscription = player.steps(bufferingPolicy: .unbounded)
    case (.states, .default): subscription = player.stateChanges()
    case (.states, .unbounded): subscription = player.stateChanges(bufferingPolicy: .unbounded)
    case (.ignored, .default): subscription = player.ignoredReports()
    case (.ignored, .unbounded): subscription = player.ignoredReports(bufferingPolicy: .unbounded)
    }
    switch stream {
    case .steps: published = 2 + 3 * rounds
    case .states: published = 3 + 2 * rounds
    case .ignored: published = rounds
    }
    player.send(.play("A"))
    player.send(.ready(Load(1, 1)))
    for _ in 0..<rounds {
      player.send(.pause)
      player.send(.resume)
      player.send(.ready(Load(1, 99)))
    }
    let buffered = policy == .unbounded ? published : min(published, Player.defaultBufferLimit)
    let whileBuffered = MemoryBenchmark.difference(ProcessMemory.heapInUse(), before)
    // Dropping the last reference to the stream cancels it; the player
    // forgets the subscriber and the buffer is freed.
    subscription = 0
    let afterCancel = MemoryBenchmark.difference(ProcessMemory.heapInUse(), before)
    withExtendedLifetime(subscription) {}
    return MemoryFigures.Subscriber(
      stream: stream.rawValue, policy: policy.rawValue, published: published, buffered: buffered,
      heapWhileBuffered: whileBuffered, heapAfterCancel: afterCancel)
  }
}
