import AVPlayerEngineCore
import PlayerState
import Testing

/// A ramp as an `AVAudioMix` plays it: on the item's media timeline, from the level heard.
@Suite struct AudioMixRampTests {
  /// The media covered is the wall-clock ramp times the rate: at 2x a 200 ms fade spans 400 ms
  /// of the track; at 0.75x, 150 ms.
  @Test(arguments: [(1000, 200), (2000, 400), (750, 150), (1001, 200)] as [(Int32, Int64)])
  func aRampCoversItsLengthTimesTheRate(rate: Int32, media: Int64) {
    let ramp = AudioMixRamp.planned(
      from: .full, to: .silent, over: .milliseconds(200), at: .seconds(12),
      rate: PlaybackRate(thousandths: rate))
    #expect(
      ramp
        == AudioMixRamp(from: .full, to: .silent, start: .seconds(12), length: .milliseconds(media))
    )
  }

  /// The level on the item's timeline: the start level before, the target after, a straight
  /// line between, to the nearest thousandth.
  @Test func theLevelIsAStraightLineOnTheItemsTimeline() {
    let ramp = AudioMixRamp(
      from: Volume(thousandths: 800), to: .silent, start: .milliseconds(10_000),
      length: .milliseconds(400))
    let times: [Int64] = [9_000, 10_000, 10_100, 10_200, 10_300, 10_399, 10_400, 60_000]
    #expect(
      times.map { ramp.level(at: .milliseconds($0)).thousandths }
        == [800, 800, 600, 400, 200, 2, 0, 0])
    let up = AudioMixRamp(from: .silent, to: .full, start: .zero, length: .milliseconds(3))
    #expect(
      [0, 1, 2, 3].map { up.level(at: .milliseconds($0)).thousandths } == [0, 333, 667, 1000])
  }
}
