import Foundation
import PlayerState
import Testing

/// `PlaybackRate` from a multiplier and from literals: rounded to thousandths,
/// total for any `Double`.
@Suite("PlaybackRate: multipliers and literals")
struct PlaybackRateTests {
  @Test(arguments: [
    ("1.5", 1.5, Int32(1500)),
    ("normal", 1.0, 1000),
    ("0.75", 0.75, 750),
    ("1.0625, a tie, rounds away from zero", 1.0625, 1063),
    ("1.2344 rounds down", 1.2344, 1234),
    ("0.0004 rounds to 0", 0.0004, 0),
    ("zero", 0.0, 0),
    ("negative zero", -0.0, 0),
    ("negative", -1.5, -1500),
    ("NaN", Double.nan, 0),
    ("+∞", Double.infinity, .max),
    ("−∞", -Double.infinity, .min),
    ("huge", 1e12, .max),
    ("hugely negative", -1e12, .min),
    ("the largest rate exactly", 2_147_483.647, .max),
  ])
  func fromAMultiplier(_ name: String, _ multiplier: Double, _ thousandths: Int32) {
    #expect(PlaybackRate(multiplier).thousandths == thousandths, "\(name)")
  }

  @Test func literals() {
    let fast: PlaybackRate = 1.5
    let double: PlaybackRate = 2
    #expect(fast == PlaybackRate(thousandths: 1500))
    #expect(double == PlaybackRate(thousandths: 2000))
    #expect(UserIntent.setRate(1.5) == .setRate(PlaybackRate(thousandths: 1500)))
    #expect(PlaybackEvent.user(.setRate(0.75)).description == "rate(0.75x)")
    #expect(PlaybackRate(1.25).description == "1.25x")
    #expect(PlaybackRate(1.25).multiplier == 1.25)
  }

  /// The machine takes a rate from a literal and refuses the ones a bad
  /// `Double` gives (NaN, zero, negative), without trapping.
  @Test func theMachineTakesLiteralRatesAndRefusesBadOnes() {
    var playing = PlaybackState()
    _ = playing.handle(.play("A"))
    _ = playing.handle(.ready(Load(1, 1)))
    let faster = playing.transition(on: .user(.setRate(1.5)))
    #expect(faster.ignored == nil)
    #expect(faster.commands.map(\.description) == ["rate(item1#1, 1.5x)"])
    for bad in [Double.nan, 0, -1, 0.0004] {
      #expect(
        playing.transition(on: .user(.setRate(PlaybackRate(bad)))).ignored == .invalidArgument)
    }
    let largest = playing.transition(on: .user(.setRate(PlaybackRate(.infinity))))
    #expect(largest.next.rate == PlaybackRate(thousandths: .max))
  }

  @Test func codingIsUnchanged() throws {
    let encoded = try JSONEncoder().encode(PlaybackRate(1.5))
    #expect(String(decoding: encoded, as: UTF8.self) == "1500")
    #expect(try JSONDecoder().decode(PlaybackRate.self, from: encoded) == 1.5)
  }
}
