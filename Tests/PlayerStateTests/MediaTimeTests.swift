import Foundation
import PlayerState
import Testing

/// `MediaTime`: media time in whole milliseconds, its conversions to and from
/// `Duration` and `Double` seconds, and its saturating arithmetic.
@Suite("MediaTime: conversions, rounding, saturation")
struct MediaTimeTests {
  private static let largest = MediaTime(milliseconds: .max)
  private static let smallest = MediaTime(milliseconds: .min)

  @Test(arguments: [
    ("2 s", Duration.seconds(2), Int64(2000)),
    ("1.5 ms rounds up", .microseconds(1500), 2),
    ("1.499 ms rounds down", .microseconds(1499), 1),
    ("−1.5 ms rounds away from zero", .microseconds(-1500), -2),
    ("−1.499 ms", .microseconds(-1499), -1),
    ("0.5 ms", .microseconds(500), 1),
    ("0.499999 ms", .nanoseconds(499_999), 0),
    ("1 ns", .nanoseconds(1), 0),
    ("−1.5 s", .milliseconds(-1500), -1500),
    ("1.1 s from a Double, not whole attoseconds", .seconds(1.1), 1100),
    ("Int64.max ms exactly", .milliseconds(Int64.max), .max),
    ("Int64.min ms exactly", .milliseconds(Int64.min), .min),
    ("beyond Int64.max ms", .seconds(Int64.max), .max),
    ("beyond Int64.min ms", .seconds(Int64.min), .min),
    ("far beyond", Duration.seconds(Int64.max) * 10, .max),
  ])
  func fromDuration(_ name: String, _ duration: Duration, _ expected: Int64) {
    #expect(MediaTime(duration).milliseconds == expected, "\(name)")
  }

  @Test func toDurationIsExact() {
    #expect(MediaTime.seconds(90).duration == .seconds(90))
    #expect(MediaTime.milliseconds(-250).duration == .milliseconds(-250))
    #expect(Self.largest.duration == .milliseconds(Int64.max))
    #expect(Self.smallest.duration == .milliseconds(Int64.min))
    #expect(MediaTime(Self.largest.duration) == Self.largest)
    #expect(MediaTime(Self.smallest.duration) == Self.smallest)
  }

  @Test(arguments: [
    ("1.5 s", 1.5, Int64(1500)),
    ("12.3456 s, an engine's position", 12.3456, 12346),
    ("1.1 s", 1.1, 1100),
    ("0.0004 s", 0.0004, 0),
    ("0.0006 s", 0.0006, 1),
    ("−0.0006 s", -0.0006, -1),
    ("−2.5 s", -2.5, -2500),
    ("NaN", Double.nan, 0),
    ("+∞", Double.infinity, .max),
    ("−∞", -Double.infinity, .min),
    ("1e300", 1e300, .max),
    ("−1e300", -1e300, .min),
  ])
  func fromDoubleSeconds(_ name: String, _ seconds: Double, _ expected: Int64) {
    #expect(MediaTime.seconds(seconds).milliseconds == expected, "\(name)")
  }

  @Test func fromDoubleMillisecondsRoundsHalvesAwayFromZero() {
    #expect(MediaTime.milliseconds(2.5).milliseconds == 3)
    #expect(MediaTime.milliseconds(-2.5).milliseconds == -3)
    #expect(MediaTime.milliseconds(2.4999).milliseconds == 2)
    #expect(MediaTime.milliseconds(9_223_372_036_854_775_808.0).milliseconds == .max)
    #expect(MediaTime.milliseconds(-9_223_372_036_854_775_808.0).milliseconds == .min)
  }

  @Test func toDoubleSeconds() {
    #expect(MediaTime.milliseconds(12346).seconds == 12.346)
    #expect(MediaTime.milliseconds(-1500).seconds == -1.5)
    #expect(MediaTime.zero.seconds == 0)
  }

  /// `.seconds(30)` and `.milliseconds(250)` take the integer overloads and
  /// `.seconds(1.5)` the `Double` one, as with `Duration`; an `Int` or an
  /// `Int64` variable works too.
  @Test func overloadsResolveAsDurationsDo() {
    let thirty: MediaTime = .seconds(30)
    let oneAndAHalf: MediaTime = .seconds(1.5)
    let quarter: MediaTime = .milliseconds(250)
    let count = 2
    let wide: Int64 = 3
    #expect(thirty.milliseconds == 30000)
    #expect(oneAndAHalf.milliseconds == 1500)
    #expect(quarter.milliseconds == 250)
    #expect(MediaTime.seconds(count).milliseconds == 2000)
    #expect(MediaTime.milliseconds(wide).milliseconds == 3)
    #expect(MediaTime.seconds(UInt8(7)).milliseconds == 7000)
    #expect(MediaTime.milliseconds(.max) == Self.largest)
    #expect(MediaTime.seconds(.min) == Self.smallest)
    // The same spellings as Durations, side by side.
    let durations: [Duration] = [.seconds(30), .seconds(1.5), .milliseconds(250)]
    #expect(durations.map { MediaTime($0) } == [thirty, oneAndAHalf, quarter])
  }

  @Test func integerFactoriesSaturate() {
    #expect(MediaTime.seconds(Int64.max) == Self.largest)
    #expect(MediaTime.seconds(Int64.min) == Self.smallest)
    #expect(MediaTime.seconds(UInt64.max) == Self.largest)
    #expect(MediaTime.milliseconds(UInt64.max) == Self.largest)
    #expect(MediaTime.seconds(9_223_372_036_854_775) == .milliseconds(9_223_372_036_854_775_000))
  }

  @Test func arithmetic() {
    var time = MediaTime.seconds(90)
    #expect(time + .milliseconds(1500) == .milliseconds(91500))
    #expect(time - .seconds(100) == .milliseconds(-10000))
    #expect(-MediaTime.seconds(15) == .milliseconds(-15000))
    #expect(time * 2 == .seconds(180))
    #expect(3 * MediaTime.milliseconds(-5) == .milliseconds(-15))
    time += .seconds(10)
    #expect(time == .seconds(100))
    time -= .seconds(40)
    #expect(time == .seconds(60))
    time *= 3
    #expect(time == .seconds(180))
    #expect(
      [MediaTime.seconds(1), .seconds(2), .milliseconds(3)].reduce(.zero, +) == .milliseconds(3003))
  }

  @Test func scalingByADoubleRoundsAndSaturates() {
    let elapsed = MediaTime.milliseconds(50)
    #expect(elapsed * 1.5 == .milliseconds(75))
    #expect(0.75 * MediaTime.milliseconds(333) == .milliseconds(250))  // 249.75
    #expect(MediaTime.milliseconds(3) * 0.5 == .milliseconds(2))  // 1.5, away from zero
    #expect(MediaTime.milliseconds(-3) * 0.5 == .milliseconds(-2))
    #expect(elapsed * Double.nan == .zero)
    #expect(elapsed * Double.infinity == Self.largest)
    #expect(elapsed * -Double.infinity == Self.smallest)
    #expect(Self.largest * 2.0 == Self.largest)
    let rate = PlaybackRate(1.25)
    #expect(MediaTime.seconds(4) * rate.multiplier == .seconds(5))
  }

  @Test func arithmeticSaturates() {
    #expect(Self.largest + .milliseconds(1) == Self.largest)
    #expect(Self.smallest + .milliseconds(-1) == Self.smallest)
    #expect(Self.smallest - .milliseconds(1) == Self.smallest)
    #expect(Self.largest - .milliseconds(-1) == Self.largest)
    #expect(.zero - Self.smallest == Self.largest)
    #expect(-Self.smallest == Self.largest)
    #expect(-Self.largest == .milliseconds(-Int64.max))
    #expect(Self.largest * 2 == Self.largest)
    #expect(Self.largest * -2 == Self.smallest)
    #expect(Self.smallest * 2 == Self.smallest)
    #expect(Self.smallest * -1 == Self.largest)
    #expect(MediaTime.milliseconds(2) * UInt64.max == Self.largest)
    #expect(MediaTime.milliseconds(-2) * Int64.min == Self.largest)
    #expect(MediaTime.zero * Int64.min == .zero)
  }

  @Test func codingAndDescriptionAreUnchanged() throws {
    let encoded = try JSONEncoder().encode(MediaTime.seconds(1.5))
    #expect(String(decoding: encoded, as: UTF8.self) == #"{"milliseconds":1500}"#)
    #expect(try JSONDecoder().decode(MediaTime.self, from: encoded) == .milliseconds(1500))
    #expect(MediaTime.seconds(2).description == "2000ms")
    #expect(MediaTime(.seconds(-1.5)).description == "-1500ms")
  }
}
