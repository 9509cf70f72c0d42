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

  /// A kit whose live media is `L`: the fake's live profiles are checked too.
  private static func liveKit(_ clock: VirtualClock) -> EngineConformance {
    EngineConformance(
      .init(
        media: "A", unplayableMedia: "broken", liveMedia: "L", timing: .driven(stepping(clock))))
  }

  /// Live with a DVR window of 60 s and a window report every second: it reports a
  /// well-formed window after `ready`, no duration, completes a seek to the middle of
  /// its window and answers a load at its live edge.
  @Test func liveFakeKeepsTheLivePromises() async {
    let clock = VirtualClock()
    let live = MediaProfile(positionEvery: .seconds(1), live: LiveProfile(dvrWindow: .seconds(60)))
    let engine = FakeMediaEngine(
      clock: clock,
      profiles: [
        "broken": MediaProfile(failAfter: .milliseconds(100), failureReason: .decoding),
        "L": live,
      ])
    let report = await Self.liveKit(clock).run(against: engine)
    #expect(report.brokenNames == [], "\(report)")
    #expect(report.conforms)
    #expect(report.notes == [])
    #expect(
      report.checked.suffix(5) == [
        .unplayableMediaFails, .windowIsWellFormed, .liveMediaReportsWindow,
        .seekInWindowCompletes, .liveEdgeLoadAnswered,
      ])
    // The clock is at 11550 ms when check 7 begins: the window holds all of the broadcast.
    #expect(
      Array(report.transcript.drop { $0 != "load(L#11)" }) == [
        "load(L#11)", "ready(L#11)", "window(L#11, 0ms…11750ms)", "seek(L#11, 5875ms, seek#1)",
        "seeked(L#11, seek#1)", "stop(L#11)", "load(L#12, at live edge)", "ready(L#12)",
        "window(L#12, 0ms…12950ms)", "stop(L#12)",
      ])
  }

  /// Live without DVR (a window of zero length, reported once): nothing to seek in, so
  /// the kit seeks nothing and the engine passes.
  @Test func liveFakeWithoutDVRConforms() async {
    let clock = VirtualClock()
    let engine = FakeMediaEngine(
      clock: clock,
      profiles: [
        "broken": MediaProfile(failAfter: .milliseconds(100), failureReason: .decoding),
        "L": MediaProfile(live: LiveProfile()),
      ], preload: true)
    let report = await Self.liveKit(clock).run(against: engine)
    #expect(report.brokenNames == [], "\(report)")
    #expect(report.conforms)
    #expect(report.checked.count == 17)
    #expect(
      Array(report.transcript.drop { $0 != "load(L#11)" }) == [
        "load(L#11)", "ready(L#11)", "window(L#11, 42150ms…42150ms)", "stop(L#11)",
        "load(L#12, at live edge)", "ready(L#12)", "window(L#12, 42350ms…42350ms)", "stop(L#12)",
      ])
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
