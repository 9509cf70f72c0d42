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
/// builds up. When the queue empties, a buffer larger than
/// ``retainedCapacity`` is freed: a burst's peak is given back as soon as
/// the burst has drained, while the small buffer that re-entrant reports
/// need is kept, so a steady stream allocates nothing.
///
/// A queue that never empties (senders keeping pace with the drainer)
/// compacts once the events already dequeued are at least as many as the
/// backlog and at least 256. A compaction that finds the buffer more than
/// four times the backlog and larger than ``shrinkThreshold`` moves the
/// backlog into a new buffer of twice the backlog (at least
/// ``retainedCapacity``): once a peak has passed, the buffer follows the
/// backlog down instead of keeping the peak, to about four times the
/// backlog at most, or ``shrinkThreshold`` events for a small backlog.
struct EventQueue {
  /// The buffer capacity, in events, kept across bursts. A larger buffer is
  /// freed when the queue empties.
  static let retainedCapacity = 256

  /// The buffer capacity, in events, below which a compaction never
  /// reallocates: a small backlog that never empties keeps its buffer
  /// (32 KB of events at most) instead of reallocating it every few hundred
  /// events.
  static let shrinkThreshold = 4 * retainedCapacity

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
      compact()
    }
    return event
  }

  /// Drops the done events. `removeFirst` keeps the buffer's capacity, so a
  /// buffer grown for a peak would stay at the peak while the backlog stays
  /// above zero; when it is more than four times the backlog (and past
  /// ``shrinkThreshold``), the backlog moves into a buffer of twice its size
  /// instead. Either way it costs one move per live event.
  private mutating func compact() {
    let live = buffer.count - head
    if buffer.capacity > Self.shrinkThreshold, buffer.capacity > 4 * live {
      var smaller: [PlaybackEvent] = []
      smaller.reserveCapacity(Swift.max(2 * live, Self.retainedCapacity))
      smaller.append(contentsOf: buffer[head...])
      buffer = smaller
    } else {
      buffer.removeFirst(head)
    }
    head = 0
  }
}
