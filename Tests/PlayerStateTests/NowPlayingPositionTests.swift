import PlayerState
import Testing

/// Issue 40, item 5: the lock screen's extrapolation, as a pure function.
@Suite("Now playing: position after")
struct NowPlayingPositionTests {
  struct Case: CustomTestStringConvertible, Sendable {
    let name: String
    let anchor: Int64
    let rate: Int32
    let duration: Int64?
    let after: Duration
    let expected: Int64
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(
      name: "playing at 1x", anchor: 1500, rate: 1000, duration: 30_000, after: .seconds(2),
      expected: 3500),
    Case(
      name: "playing at 2x", anchor: 1500, rate: 2000, duration: 30_000, after: .seconds(2),
      expected: 5500),
    Case(name: "at 0.75x", anchor: 0, rate: 750, duration: nil, after: .seconds(4), expected: 3000),
    Case(
      name: "paused: rate 0", anchor: 1500, rate: 0, duration: 30_000, after: .seconds(60),
      expected: 1500),
    Case(
      name: "clamped to the duration", anchor: 29_000, rate: 1000, duration: 30_000,
      after: .seconds(5), expected: 30_000),
    Case(
      name: "no duration: no upper clamp", anchor: 29_000, rate: 1000, duration: nil,
      after: .seconds(5), expected: 34_000),
    Case(
      name: "negative time moves nothing", anchor: 1500, rate: 1000, duration: 30_000,
      after: .seconds(-3), expected: 1500),
    Case(
      name: "sub-millisecond truncated", anchor: 0, rate: 1000, duration: nil,
      after: .microseconds(1999), expected: 1),
    Case(
      name: "a negative anchor clamps to 0", anchor: -5, rate: 0, duration: nil, after: .zero,
      expected: 0),
    Case(
      name: "saturates, no overflow", anchor: .max - 10, rate: 4000, duration: nil,
      after: .seconds(Int64.max), expected: .max),
  ]

  @Test(arguments: cases) func positionAfter(_ testCase: Case) {
    let nowPlaying = NowPlaying(
      entry: QueueEntry(item: ItemID(1), media: "A"), elapsed: .milliseconds(testCase.anchor),
      rate: PlaybackRate(thousandths: testCase.rate),
      duration: testCase.duration.map { .milliseconds($0) },
      index: 0, count: 1)
    #expect(nowPlaying.position(after: testCase.after) == .milliseconds(testCase.expected))
  }
}
