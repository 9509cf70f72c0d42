import Foundation
import PlayerEngine
import PlayerState

/// Queue edits with an observer (issue 23, R5 and R7), `player-bench --queue-edits`.
///
/// An observed player keeps the state before each event for its step, so an
/// edit used to copy the whole queue: 40,000 appends took 13.5 s. Each edit
/// here runs through a `Player` with an `onStep` callback and a
/// `stateChanges()` subscriber that never reads (so every step also compares
/// the states before and after); the figure is the wall time of all of them.
/// Then a stalled subscriber: what 1,024 buffered steps and states cost while
/// a queue of N entries is edited.
enum QueueEditBenchmark {
  /// One kind of edit, repeated.
  enum Edit: String, CaseIterable {
    case append
    case insertFront = "insert at 0"
    case insertMiddle = "insert in the middle"
    case removeMiddle = "remove from the middle"
    case removeFront = "remove at 0 (the current entry)"
    case move = "move 1 to the end"

    /// Whether the queue is built first (the edits shrink or reorder it) or grows from one entry.
    var startsFull: Bool { self == .removeMiddle || self == .removeFront || self == .move }

    /// The edit for a queue of `count` entries.
    func intent(count: Int) -> UserIntent {
      switch self {
      case .append: .append(["A"])
      case .insertFront: .insert(["A"], at: 0)
      case .insertMiddle: .insert(["A"], at: count / 2)
      case .removeMiddle: .remove(at: count / 2)
      case .removeFront: .remove(at: 0)
      case .move: .move(from: 1, to: count - 1)
      }
    }
  }

  /// `edits` edits of one kind, timed.
  struct Timing {
    var edit: Edit
    var edits: Int
    var observed: Bool
    var seconds: Double
    /// The queue's length after the edits.
    var finalCount: Int
  }

  /// A subscriber of `steps()` and one of `stateChanges()` that never read, while `edits`
  /// mixed edits change a queue of about `entries` entries.
  struct Stalled {
    var entries: Int
    var edits: Int
    var height: Int
    /// Heap bytes held over the moment before subscribing, after the edits.
    var heap: Int?
    /// Heap bytes still held once both subscriptions were cancelled.
    var heapAfterCancel: Int?
  }

  /// Times every edit at each size, observed, and at the largest size unobserved too.
  static func timings(sizes: [Int], progress: (String) -> Void) -> [Timing] {
    var timings: [Timing] = []
    for edit in Edit.allCases {
      for size in sizes {
        progress("queue edits: \(edit.rawValue) x \(size), observed")
        timings.append(time(edit, edits: size, observed: true))
      }
      if let largest = sizes.max() {
        progress("queue edits: \(edit.rawValue) x \(largest), unobserved")
        timings.append(time(edit, edits: largest, observed: false))
      }
    }
    return timings
  }

  /// `edits` edits of one kind on a player; from a full queue of `edits` + 1
  /// entries for removals and moves, else from a queue of one.
  static func time(_ edit: Edit, edits: Int, observed: Bool) -> Timing {
    let sink = StepSink()
    let player =
      observed ? Player(engine: NoOpEngine()) { sink.take($0) } : Player(engine: NoOpEngine())
    let states = observed ? player.stateChanges() : nil
    let media = [MediaID](repeating: "A", count: edit.startsFull ? edits + 1 : 1)
    player.send(.user(.replaceQueue(media)))
    let clock = ContinuousClock()
    let start = clock.now
    var count = media.count
    for _ in 0..<edits {
      player.send(.user(edit.intent(count: count)))
      count += edit.startsFull ? (edit == .move ? 0 : -1) : 1
    }
    let elapsed = clock.now - start
    let seconds =
      Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    let finalCount = player.state.queue.entries.count
    withExtendedLifetime(states) {}
    return Timing(
      edit: edit, edits: edits, observed: observed, seconds: seconds, finalCount: finalCount)
  }

  /// A stalled `steps()` and `stateChanges()` (1,024 buffered each) over a queue
  /// of `entries` entries, then `edits` edits: appends, inserts in the middle,
  /// removes and moves in turn, so the length stays about `entries`.
  static func stalled(entries: Int, edits: Int) -> Stalled {
    let player = Player(engine: NoOpEngine())
    player.send(.user(.replaceQueue([MediaID](repeating: "A", count: entries))))
    let before = ProcessMemory.heapInUse()
    var steps: AsyncStream<PlayerStep>? = player.steps()
    var states: AsyncStream<PlaybackState>? = player.stateChanges()
    for index in 0..<edits {
      let count = player.state.queue.entries.count
      let intents: [UserIntent] = [
        .append(["A"]), .insert(["A"], at: count / 2), .remove(at: count / 3),
        .move(from: count / 4, to: count - 1),
      ]
      player.send(.user(intents[index % intents.count]))
    }
    let held = MemoryBenchmark.difference(ProcessMemory.heapInUse(), before)
    let height = player.state.queue.entries.height
    withExtendedLifetime((steps, states)) {}
    steps = nil
    states = nil
    let afterCancel = MemoryBenchmark.difference(ProcessMemory.heapInUse(), before)
    return Stalled(
      entries: entries, edits: edits, height: height, heap: held, heapAfterCancel: afterCancel)
  }

  /// The two tables, as printed by `player-bench --queue-edits`.
  static func table(_ timings: [Timing], _ stalled: [Stalled]) -> String {
    var text = "Queue edits through a Player (release; onStep set and an unread stateChanges())\n\n"
    text += "| edit | edits | observed | seconds | µs per edit | queue after |\n"
    text += "| --- | --- | --- | --- | --- | --- |\n"
    for timing in timings {
      let perEdit = timing.seconds * 1e6 / Double(timing.edits)
      text +=
        "| \(timing.edit.rawValue) | \(timing.edits) | \(timing.observed ? "yes" : "no") | "
        + "\(String(format: "%.3f", timing.seconds)) | \(String(format: "%.2f", perEdit)) | "
        + "\(timing.finalCount) |\n"
    }
    text +=
      "\nA stalled steps() and stateChanges() (newest 1,024 each) while the queue is edited\n\n"
    text +=
      "| entries | edits | tree height | heap held | per buffered step and state | after cancel |\n"
    text += "| --- | --- | --- | --- | --- | --- |\n"
    for figure in stalled {
      let perStep = figure.heap.map { String(format: "%.0f B", Double($0) / 1_024) } ?? "?"
      text +=
        "| \(figure.entries) | \(figure.edits) | \(figure.height) | \(megabytes(figure.heap)) | "
        + "\(perStep) | \(megabytes(figure.heapAfterCancel)) |\n"
    }
    return text
  }

  private static func megabytes(_ bytes: Int?) -> String {
    bytes.map { String(format: "%.2f MB", Double($0) / 1_000_000) } ?? "?"
  }
}

/// Takes every step and keeps none: an observer that costs nothing itself.
private final class StepSink: Sendable {
  func take(_ step: PlayerStep) { withExtendedLifetime(step) {} }
}
