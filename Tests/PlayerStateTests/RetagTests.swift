import PlayerState
import Testing

/// `withLoad`: the one re-tagging a driver with its own load ids needs.
@Suite struct RetagTests {
  static let a1 = Load(item: ItemID(1), token: LoadToken(1))
  static let mine = Load(item: ItemID(1), token: LoadToken(0x5EED_0001))

  @Test func everyReportKeepsEverythingButItsLoad() {
    let detail = FailureDetail(domain: "NSURLErrorDomain", code: -1009, message: "offline")
    let reports: [EngineReport] = [
      .ready(Self.mine, duration: .milliseconds(30_000)), .ready(Self.mine), .stalled(Self.mine),
      .resumed(Self.mine), .seekCompleted(Self.mine, SeekID(7)), .reachedEnd(Self.mine),
      .failed(Self.mine, .network, detail: detail), .position(Self.mine, .milliseconds(1_500)),
      .pausedBySystem(Self.mine),
    ]
    let retagged = reports.map { $0.withLoad(Self.a1) }
    #expect(
      retagged.map(\.description) == [
        "ready(item1#1, duration 30000ms)", "ready(item1#1)", "stalled(item1#1)",
        "resumed(item1#1)", "seeked(item1#1, seek#7)", "ended(item1#1)",
        "failed(item1#1, network, NSURLErrorDomain -1009 \"offline\")", "position(item1#1, 1500ms)",
        "pausedBySystem(item1#1)",
      ])
    #expect(retagged.map { $0.withLoad(Self.mine) } == reports)
  }

  @Test func anEventRetagsItsReportOrExpiryAndNothingElse() {
    let map: (Load) -> Load = { $0 == Self.mine ? Self.a1 : $0 }
    #expect(PlaybackEvent.engine(.stalled(Self.mine)).withLoad(map) == .stalled(Self.a1))
    #expect(
      PlaybackEvent.watchdogExpired(Self.mine, WatchdogID(3)).withLoad(map)
        == .watchdogExpired(Self.a1, WatchdogID(3)))
    #expect(PlaybackEvent.pause.withLoad(map) == .pause)
    #expect(PlaybackEvent.system(.networkLost).withLoad(map) == .system(.networkLost))
    #expect(PlaybackEvent.stalled(Self.mine).load == Self.mine)
    #expect(PlaybackEvent.watchdogExpired(Self.a1, WatchdogID(3)).load == Self.a1)
    #expect(PlaybackEvent.pause.load == nil)
  }

  /// Issue 38: a load at the live edge (or behind it) keeps its flag and offset when re-tagged.
  @Test func aLoadAtTheLiveEdgeKeepsItsFlag() {
    let request = LoadRequest(load: Self.mine, media: "L", start: .seconds(20), atLiveEdge: true)
    #expect(
      EngineCommand.load(request).withLoad(Self.a1).description
        == "load(L#1, 20000ms behind live edge)")
    #expect(
      EngineCommand.preload(LoadRequest(load: Self.mine, media: "L", atLiveEdge: true))
        .withLoad(Self.a1).description == "preload(L#1, at live edge)")
  }
}
