import AVPlayerEngineCore
import PlayerState
import Testing

/// The AVQueuePlayer calls for the machine's preload: gapless at the end, a skip before it.
@Suite struct QueueSlotsTests {
  @Test func aPreloadIsQueuedAndTheEndAdvancesByItself() {
    var slots = QueueSlots<String>()
    #expect(slots.load("A#1") == [.replaceAll("A#1"), .advanceAtEnd(false)])
    #expect(slots.preload("B#2") == [.insertAfterCurrent("B#2"), .advanceAtEnd(true)])
    // A plays to its end: the player is on B already; the machine's stop(A) finds nothing.
    #expect(slots.playedToEnd()?.next == "B#2")
    #expect(slots.playedToEnd() == nil)
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

  /// `AVPlayer.volume` is the player's: it follows the current load's volume, and takes the
  /// queued load's when that one becomes current (full if it was told none).
  @Test func thePlayersVolumeFollowsTheCurrentLoads() throws {
    var slots = QueueSlots<String>()
    _ = slots.load("A#1")
    #expect(slots.setVolume("A#1", 0.5, ramp: .zero) == [.setVolume(0.5)])
    #expect(slots.setVolume("A#1", 0.5, ramp: .zero) == [])  // the player is there already
    // A ramp with no playing item (paused, or no audio tracks for a mix) is a step.
    #expect(slots.setVolume("A#1", 0.25, ramp: .milliseconds(200)) == [.setVolume(0.25)])
    _ = slots.preload("B#2")
    #expect(slots.setVolume("B#2", 0.75, ramp: .zero) == [])  // kept for B
    #expect(slots.queuedVolume == 0.75)
    #expect(slots.setVolume("Z#9", 0, ramp: .zero) == [])  // not live: nothing
    let advanced = slots.playedToEnd()
    let end = try #require(advanced)
    #expect(end.next == "B#2")
    #expect(end.calls == [.setVolume(0.75)])
    // C told nothing: full once current, after a skip.
    _ = slots.preload("C#3")
    #expect(slots.stop("B#2") == [.advance, .advanceAtEnd(false), .setVolume(.full)])
    // A new load plays at full: the player is set back from a lowered load.
    #expect(slots.setVolume("C#3", 0, ramp: .zero) == [.setVolume(.silent)])
    #expect(slots.load("D#4") == [.replaceAll("D#4"), .advanceAtEnd(false), .setVolume(.full)])
    // A preload told a volume then stopped: forgotten.
    _ = slots.preload("E#5")
    _ = slots.setVolume("E#5", 0.5, ramp: .zero)
    _ = slots.stop("E#5")
    #expect(slots.queuedVolume == .full)
    _ = slots.preload("F#6")
    #expect(slots.stop("D#4") == [.advance, .advanceAtEnd(false)])  // full already
    #expect(slots.currentVolume == .full)
  }

  /// A fade as the machine sends it (issue 37, item 2) while the item plays: the item's audio
  /// mix ramps on its media timeline from the level heard, with the player's volume at 1; a
  /// resume during the fade ramps back from where the first ramp got to; the step after the
  /// fade (the machine's `setVolume(L, effective)` once paused) drops the mix.
  @Test func aFadeWhilePlayingIsTheItemsAudioMixRamp() {
    var slots = QueueSlots<String>()
    _ = slots.load("A#1")
    #expect(slots.setVolume("A#1", 0.5, ramp: .zero) == [.setVolume(0.5)])
    // pause with a 200 ms fade, 12 s into the item at 1.5x: 300 ms of media.
    let down = AudioMixRamp(
      from: 0.5, to: .silent, start: .seconds(12), length: .milliseconds(300))
    #expect(
      slots.setVolume(
        "A#1", .silent, ramp: .milliseconds(200),
        playing: (.seconds(12), PlaybackRate(thousandths: 1500))) == [.rampVolume(down)])
    #expect(slots.mixRamp == down)
    // resume 150 ms of media later (0.25 heard): back up to 0.5 from there.
    let up = AudioMixRamp(
      from: 0.25, to: 0.5, start: .milliseconds(12_150), length: .milliseconds(300))
    #expect(
      slots.setVolume(
        "A#1", 0.5, ramp: .milliseconds(200),
        playing: (.milliseconds(12_150), PlaybackRate(thousandths: 1500))) == [.rampVolume(up)])
    // Another fade, then the step the machine sends at its end: the mix is dropped, once.
    _ = slots.setVolume("A#1", .silent, ramp: .milliseconds(200), playing: (.seconds(20), .normal))
    #expect(slots.setVolume("A#1", 0.5, ramp: .zero) == [.setVolume(0.5)])
    #expect(slots.mixRamp == nil)
    #expect(slots.setVolume("A#1", 0.5, ramp: .zero) == [])
    // A ramp to the level already heard: nothing to ramp.
    #expect(
      slots.setVolume("A#1", 0.5, ramp: .milliseconds(200), playing: (.seconds(21), .normal))
        == [])
    // The queued preload's ramp is kept as its volume; a new item starts with no mix.
    _ = slots.setVolume("A#1", .silent, ramp: .milliseconds(200), playing: (.seconds(22), .normal))
    _ = slots.preload("B#2")
    #expect(
      slots.setVolume("B#2", 0.5, ramp: .milliseconds(200), playing: (.seconds(22), .normal))
        == [])
    #expect(slots.playedToEnd()?.calls == [.setVolume(0.5)])
    #expect(slots.mixRamp == nil)
  }
}
