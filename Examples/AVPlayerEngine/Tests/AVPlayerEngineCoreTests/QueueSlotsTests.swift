import AVPlayerEngineCore
import Testing

/// The AVQueuePlayer calls for the machine's preload: gapless at the end, a skip before it.
@Suite struct QueueSlotsTests {
  @Test func aPreloadIsQueuedAndTheEndAdvancesByItself() {
    var slots = QueueSlots<String>()
    #expect(slots.load("A#1") == [.replaceAll("A#1"), .advanceAtEnd(false)])
    #expect(slots.preload("B#2") == [.insertAfterCurrent("B#2"), .advanceAtEnd(true)])
    // A plays to its end: the player is on B already; the machine's stop(A) finds nothing.
    #expect(slots.playedToEnd() == "B#2")
    #expect(slots.stop("A#1") == [])
    #expect(slots.current == "B#2")
    #expect(slots.queued == nil)
  }

  @Test func aSkipAdvancesNowAndAStopOfThePreloadRemovesIt() {
    var slots = QueueSlots<String>()
    _ = slots.load("A#1")
    _ = slots.preload("B#2")
    #expect(slots.stop("A#1") == [.advance, .advanceAtEnd(false)])
    #expect(slots.current == "B#2")
    #expect(slots.preload("C#3") == [.insertAfterCurrent("C#3"), .advanceAtEnd(true)])
    #expect(slots.stop("C#3") == [.remove("C#3"), .advanceAtEnd(false)])
    #expect(slots.stop("C#3") == [])
    #expect(slots.stop("B#2") == [.clear])
    #expect(slots.current == nil)
  }

  /// Without a queued preload the player pauses at the end (repeat one seeks back to 0
  /// and needs its item), and the end moves nothing.
  @Test func withoutAPreloadTheEndMovesNothing() {
    var slots = QueueSlots<String>()
    _ = slots.load("A#1")
    #expect(slots.playedToEnd() == nil)
    #expect(slots.current == "A#1")
    #expect(slots.preload("B#2") == [.insertAfterCurrent("B#2"), .advanceAtEnd(true)])
    #expect(
      slots.preload("C#3") == [.remove("B#2"), .insertAfterCurrent("C#3"), .advanceAtEnd(true)])
  }

  @Test func aPreloadWithNothingCurrentIsRefused() {
    var slots = QueueSlots<String>()
    #expect(slots.preload("B#2") == nil)
  }
}
