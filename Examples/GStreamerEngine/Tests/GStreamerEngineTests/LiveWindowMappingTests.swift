import PlayerEngine
import PlayerState
import Testing

@testable import GStreamerEngine
@testable import PlayheadMPRIS

/// The pure half of live streams (issue 38): what a pipeline's queries say → the window the
/// engine reports, and a live state → what MPRIS publishes. No pipeline, no bus.
@Suite("Live window mapping")
struct LiveWindowMappingTests {
  /// A query of a live pipeline at `position` ms, seekable from `start` to `end` ms.
  func live(_ start: Int64?, _ end: Int64?, seekable: Bool = true, at position: Int64? = 2_500)
    -> LiveQuery
  {
    LiveQuery(
      isLive: true, isSeekable: seekable, start: start.map { .milliseconds($0) },
      end: end.map { .milliseconds($0) }, position: position.map { .milliseconds($0) })
  }

  @Test func queriesBecomeWindows() {
    let cases: [(String, LiveQuery, String?)] = [
      ("on demand: no window", LiveQuery(isLive: false, isSeekable: true), nil),
      ("DVR", live(993, 3_971), "993ms…3971ms"),
      ("a seekable range of zero length", live(4_000, 4_000), "4000ms…4000ms"),
      ("not seekable: live at the position", live(0, nil, seekable: false), "2500ms…2500ms"),
      ("the range unknown", live(nil, nil), "2500ms…2500ms"),
      ("a backwards range is no DVR", live(5_000, 4_000), "2500ms…2500ms"),
      ("a negative start is no DVR", live(-1_000, 4_000), "2500ms…2500ms"),
      ("not seekable, position unknown", live(0, nil, seekable: false, at: nil), nil),
    ]
    for (name, query, expected) in cases {
      var window = PipelineLiveWindow()
      #expect(window.window(for: query)?.description == expected, "\(name)")
    }
  }

  @Test func onlyAWindowThatMovedIsReported() {
    var window = PipelineLiveWindow()
    let reported = [
      live(0, 2_978), live(0, 2_978), live(993, 3_971), live(993, 3_971, at: 3_100),
      // Once DVR, an answer that is not seekable (a seek in flight) keeps the last window.
      live(0, nil, seekable: false, at: 4_000), live(1_985, 4_963),
    ].map { window.window(for: $0)?.description ?? "-" }
    #expect(reported == ["0ms…2978ms", "-", "993ms…3971ms", "-", "-", "1985ms…4963ms"])
    // Without DVR, the window is at the position and moves with it.
    var radio = PipelineLiveWindow()
    let moving = [
      live(0, nil, seekable: false, at: 4_000), live(0, nil, seekable: false, at: 4_000),
      live(0, nil, seekable: false, at: 4_100),
    ].map { radio.window(for: $0)?.description ?? "-" }
    #expect(moving == ["4000ms…4000ms", "-", "4100ms…4100ms"])
  }

  /// The first check after `ready` decides: an on-demand load never reports a window, even
  /// if a later answer says no duration (a pipeline in the middle of a seek).
  @Test func theFirstCheckDecidesWhetherTheLoadIsLive() {
    let load = Load(1, 1)
    var machine = PipelineMachine(load: load)
    _ = machine.handle(.asyncDone)
    #expect(machine.checksWindow)
    #expect(machine.windowReport(for: LiveQuery(isLive: false)) == nil)
    #expect(machine.isLive == false)
    #expect(!machine.checksWindow)
    #expect(machine.windowReport(for: live(0, 2_978)) == nil)
    // A live load is not asked while a seek is in flight.
    var live = PipelineMachine(load: load)
    _ = live.handle(.asyncDone)
    _ = live.windowReport(for: self.live(0, 2_978))
    #expect(live.isLive == true)
    _ = live.apply(.seek(load, to: .milliseconds(1_000), SeekID(1)))
    #expect(!live.checksWindow)
    _ = live.handle(.asyncDone)
    #expect(live.checksWindow)
  }

  @Test func aWindowIsReportedOnlyAfterReadyAndUntilTheEnd() {
    let load = Load(1, 1)
    var machine = PipelineMachine(load: load)
    #expect(machine.windowReport(for: live(0, 2_978)) == nil)  // prerolling: not answered
    #expect(machine.handle(.asyncDone) == [.report(.ready(load))])
    #expect(
      machine.windowReport(for: live(0, 2_978))
        == .window(load, LiveWindow(start: .zero, end: .milliseconds(2_978))))
    // Paused too: a paused live load must hear that its window moved past it.
    #expect(machine.apply(.pause(load)) == [.setPlaying(false)])
    #expect(
      machine.windowReport(for: live(993, 3_971))
        == .window(load, LiveWindow(start: .milliseconds(993), end: .milliseconds(3_971))))
    #expect(machine.windowReport(for: LiveQuery(isLive: false)) == nil)
    #expect(machine.handle(.endOfStream) == [.report(.reachedEnd(load))])
    #expect(machine.windowReport(for: live(1_985, 4_963)) == nil)  // ended
    // A DURATION_CHANGED is no report of its own.
    #expect(machine.handle(.durationChanged) == [])
    var failed = PipelineMachine(load: load)
    _ = failed.handle(.asyncDone)
    _ = failed.handle(.error(GStreamerError(domain: .resource, code: 3)))
    #expect(failed.windowReport(for: live(0, 2_978)) == nil)
  }

  /// A live pipeline is never paused to rebuffer: its BUFFERING messages are no stall.
  @Test func bufferingIsNoStallOnceTheStreamIsKnownLive() {
    let load = Load(1, 1)
    var machine = PipelineMachine(load: load)
    _ = machine.handle(.asyncDone)
    _ = machine.apply(.start(load))
    #expect(
      machine.handle(.buffering(percent: 40)) == [.report(.stalled(load)), .setPlaying(false)])
    #expect(
      machine.handle(.buffering(percent: 100)) == [.report(.resumed(load)), .setPlaying(true)])
    _ = machine.windowReport(for: live(0, 2_978))
    #expect(machine.handle(.buffering(percent: 40)) == [])
    #expect(machine.handle(.buffering(percent: 100)) == [])
    #expect(machine.isPlaying)
  }

  @Test func aPreloadAfterAGaplessSwitchReportsAWindowOnlyOnceStarted() {
    let preload = Load(2, 2)
    var machine = PipelineMachine(preload: preload, playingAfterGaplessSwitch: true)
    #expect(machine.windowReport(for: live(0, 2_978)) == nil)
    _ = machine.apply(.start(preload))
    #expect(
      machine.windowReport(for: live(0, 2_978))
        == .window(preload, LiveWindow(start: .zero, end: .milliseconds(2_978))))
  }

  /// The states of `L` played, ready, then sent `window`.
  func state(_ window: LiveWindow) -> PlaybackState {
    [
      PlaybackEvent.play("L"), .ready(Load(1, 1), duration: .seconds(30)),
      .window(Load(1, 1), window),
    ]
    .reduce(PlaybackState()) { $0.transition(on: $1).next }
  }

  @Test func mprisPublishesNoLengthForLiveAndCanSeekOnlyWithDVR() {
    let onDemand = [PlaybackEvent.play("L"), .ready(Load(1, 1), duration: .seconds(30))]
      .reduce(PlaybackState()) { $0.transition(on: $1).next }
    #expect(MPRISView(onDemand).track?.length == .seconds(30))
    #expect(MPRISView(onDemand).canSeek)

    let live = state(LiveWindow(start: .seconds(4), end: .seconds(4)))
    #expect(live.description == "playing(L#1, live)")
    #expect(MPRISView(live).track?.length == nil)
    #expect(MPRISView(live).canSeek == false)
    guard case .dictionary(let metadata) = MPRISView(live).metadata else {
      Issue.record("Metadata is not a dictionary")
      return
    }
    #expect(metadata.map(\.key) == ["mpris:trackid", "xesam:title"], "no mpris:length")

    let dvr = state(LiveWindow(start: .seconds(1), end: .seconds(4)))
    #expect(dvr.description == "playing(L#1, dvr)")
    #expect(MPRISView(dvr).track?.length == nil)
    #expect(MPRISView(dvr).canSeek)
  }
}
