import PlayerSimulation
import PlayerState
import PlayerTesting
import Testing

/// player-sim's fake media engine, over its virtual clock, through the kit.
@Suite("The fake media engine and the conformance kit")
struct FakeMediaEngineConformanceTests {
  /// Advances the virtual clock to its next due action; false when none is left.
  private static func stepping(_ clock: VirtualClock) -> @Sendable () -> Bool {
    {
      guard let due = clock.nextDue else { return false }
      clock.advance(by: due - clock.now)
      return true
    }
  }

  private static func kit(_ clock: VirtualClock) -> EngineConformance {
    EngineConformance(
      .init(media: "A", unplayableMedia: "broken", timing: .driven(stepping(clock))))
  }

  @Test func wellBehavedFakeConforms() async {
    let clock = VirtualClock()
    let engine = FakeMediaEngine(
      clock: clock,
      profiles: ["broken": MediaProfile(failAfter: .milliseconds(100), failureReason: .decoding)])
    let report = await Self.kit(clock).run(against: engine)
    #expect(report.brokenNames == [], "\(report)")
    #expect(report.conforms)
    #expect(report.checked.count == 10)
  }

  /// Made to preload, it is checked for the four preload promises too, and keeps them.
  @Test func preloadingFakeKeepsThePreloadPromises() async {
    let clock = VirtualClock()
    let engine = FakeMediaEngine(
      clock: clock,
      profiles: ["broken": MediaProfile(failAfter: .milliseconds(100), failureReason: .decoding)],
      preload: true)
    let report = await Self.kit(clock).run(against: engine)
    #expect(report.brokenNames == [], "\(report)")
    #expect(report.conforms)
    #expect(
      report.checked.suffix(5) == [
        .preloadAnswered, .preloadBesideCurrent, .positionNamesPlayingLoad, .preloadStopIsFinal,
        .unplayableMediaFails,
      ])
  }

  /// With position reports every 50 ms, they name the playing load: the
  /// first, then after the switch the preload it started.
  @Test func preloadingFakeNamesThePlayingLoadInPositions() async {
    let clock = VirtualClock()
    let engine = FakeMediaEngine(
      clock: clock, defaultProfile: MediaProfile(positionEvery: .milliseconds(50)), preload: true)
    let kit = EngineConformance(.init(media: "A", timing: .driven(Self.stepping(clock))))
    let report = await kit.run(against: engine)
    #expect(report.brokenNames == [], "\(report)")
    let positions = report.transcript.filter {
      $0.hasPrefix("position(A#8") || $0.hasPrefix("position(A#9")
    }
    #expect(positions.first?.hasPrefix("position(A#8") == true)
    #expect(positions.last?.hasPrefix("position(A#9") == true)
  }

  /// Hostile, it keeps calling back for stopped loads, late: the machine
  /// absorbs that, so the kit passes it and counts the late reports.
  @Test func hostileFakePassesWithNotes() async {
    let clock = VirtualClock()
    let engine = FakeMediaEngine(
      clock: clock,
      profiles: ["broken": MediaProfile(failAfter: .milliseconds(100))],
      hostile: HostileMode(seed: 7))
    let report = await Self.kit(clock).run(against: engine)
    #expect(report.brokenNames == [], "\(report)")
    #expect(report.conforms)
    #expect(report.absorbed == [.reportAfterStop: 7, .reportFromInsideExecute: 3])
    #expect(report.notes.first?.first == "ready(A#1) after stop(A#1) returned")
  }
}
