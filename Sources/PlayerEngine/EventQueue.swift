import PlayerState

/// The driver's queue: events handed to a ``Player`` while it was busy,
/// waiting to be reduced in arrival order. First in, first out; nothing is
/// ever dropped, and its memory follows the backlog, not the history.
///
/// Memory: a queued event costs `MemoryLayout<PlaybackEvent>.stride` bytes
/// of buffer (see docs/memory.md for the measured figure), plus whatever its
/// media name holds on the heap (nothing for names of up to 15 UTF-8 bytes;
/// a longer name is shared by every copy of it). The buffer grows by
/// doubling, so it holds at most twice the peak backlog while the backlog
/// builds up, and at most four times when senders and the drainer run at
/// the same pace (the compaction below). When the queue empties, a buffer
/// larger than ``retainedCapacity`` is freed: a burst's peak is given back
/// as soon as the burst has drained, while the small buffer that re-entrant
/// reports need is kept, so a steady stream allocates nothing.
struct EventQueue {
  /// The buffer capacity, in events, kept across bursts. A larger buffer is
  /// freed when the queue empties.
  static let retainedCapacity = 256

  private var buffer: [PlaybackEvent] = []
  /// Index of the oldest queued event in `buffer`; those before it are done.
  private var head = 0

  /// Events waiting.
  var count: Int { buffer.count - head }

  /// Events the buffer can hold without growing.
  var capacity: Int { buffer.capacity }

  /// Adds an event at the back.
  mutating func append(_ event: PlaybackEvent) {
    buffer.append(event)
  }

  /// Removes and returns the oldest event, or nil if the queue is empty (and
  /// then frees a buffer grown past ``retainedCapacity``).
  /// - Complexity: amortized O(1).
  mutating func popFirst() -> PlaybackEvent? {
    guard head < buffer.count else {
      if buffer.capacity > Self.retainedCapacity {
        buffer = []
      } else if head > 0 {
        buffer.removeAll(keepingCapacity: true)
      }
      head = 0
      return nil
    }
    let event = buffer[head]
    head += 1
    // A queue that never empties (senders keep pace with the drainer) would
    // otherwise keep every event it ever held. Moving the live events to the
    // front once the done ones are at least as many, and at least
    // `retainedCapacity`, costs at most one move per dequeue: amortized O(1).
    if head >= Self.retainedCapacity, head >= buffer.count - head {
      buffer.removeFirst(head)
      head = 0
    }
    return event
  }
}
