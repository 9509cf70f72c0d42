import Foundation
import PlayerState
import Testing

// Live and DVR streams (issue 38): docs/machine.md, "Live and DVR streams".

/// A DVR window from 60 s to the live edge at 120 s.
let dvr60to120 = LiveWindow(start: .seconds(60), end: .seconds(120))

/// The queue `A B C` playing `A#2` live: ready at `position` with `window`.
func live(
  _ window: LiveWindow = dvr60to120, at position: MediaTime = .seconds(120), play: Bool = true
) -> PlaybackState {
  PlaybackState(
    queue: queueABC,
    session: Session(
      load: a2, stage: .ready, lastSeek: SeekID(1), lastWatchdog: WatchdogID(1),
      position: position, window: window, playsAtEdge: play && position >= window.end),
    playWhenReady: play, issuedLoads: 2, issuedItems: 3)
}

/// The accepted live transitions of the table, with literal outcomes (run with the
/// table's own, `TransitionTests.accepted`).
let liveCases: [TransitionCase] = [
  // The first window: a load at 0 (the engine's default position) is at the edge.
  .init(fixture(.buffering), .window(a2, dvr60to120), "buffering(A#2, dvr, autoplay)", "none"),
  .init(fixture(.ready), .window(a2, dvr60to120), "playing(A#2, dvr)", "none"),
  .init(fixture(.ready, play: false), .window(a2, dvr60to120), "paused(A#2, dvr)", "none"),
  .init(fixture(.stalled), .window(a2, dvr60to120), "stalled(A#2, dvr)", "none"),
  .init(
    queued(.ready, interrupted: true), .window(a2, dvr60to120),
    "suppressed(A#2, dvr, interrupted)", "none"),
  // The engine says the load fell behind: a reload at the edge, the intent kept.
  .init(
    fixture(.ready), .failed(a2, .behindLiveWindow), "buffering(A#3, autoplay)",
    "stop(A#2) load(A#3, at live edge)", watchdog: "watchdog(A#3, watchdog#1)"),
  .init(
    fixture(.ready, play: false), .failed(a2, .behindLiveWindow), "buffering(A#3, paused)",
    "stop(A#2) load(A#3, at live edge)", watchdog: "watchdog(A#3, watchdog#1)"),
  .init(
    fixture(.stalled), .failed(a2, .behindLiveWindow), "buffering(A#3, autoplay)",
    "stop(A#2) load(A#3, at live edge)", watchdog: "watchdog(A#3, watchdog#1)"),
  .init(
    queued(.ready, interrupted: true), .failed(a2, .behindLiveWindow),
    "buffering(A#3, autoplay, interrupted)", "stop(A#2) load(A#3, at live edge)",
    watchdog: "watchdog(A#3, watchdog#1)"),
  // Beside a preload: the window drops it (nothing is preloaded beside a live load).
  .init(preloading(.buffering), .window(a2, dvr60to120), "playing(A#2, dvr)", "stop(B#3)"),
  .init(
    preloading(.buffering, play: false), .window(a2, dvr60to120), "paused(A#2, dvr)",
    "stop(B#3)"),
  .init(
    preloading(.buffering), .failed(a2, .behindLiveWindow), "buffering(A#4, autoplay)",
    "stop(A#2) stop(B#3) load(A#4, at live edge)", watchdog: "watchdog(A#4, watchdog#1)"),
  .init(
    preloading(.buffering, play: false), .failed(a2, .behindLiveWindow), "buffering(A#4, paused)",
    "stop(A#2) stop(B#3) load(A#4, at live edge)", watchdog: "watchdog(A#4, watchdog#1)"),
  // At the edge a faster rate is kept for later but not sent: the engine plays at 1x.
  .init(live(), .setRate(1.5), "playing(A#2, dvr)", "none"),
  // A position behind the window's start, or a window that passed the position.
  .init(
    live(), .position(a2, .seconds(5)), "buffering(A#3, autoplay)",
    "stop(A#2) load(A#3, at live edge)", watchdog: "watchdog(A#3, watchdog#1)"),
  .init(
    live(play: false), .position(a2, .seconds(5)), "buffering(A#3, paused)",
    "stop(A#2) load(A#3, at live edge)", watchdog: "watchdog(A#3, watchdog#1)"),
  // Playing, a window alone does not say the load fell behind (its position report trails it).
  .init(
    live(at: .seconds(90)), .window(a2, LiveWindow(start: .seconds(100), end: .seconds(160))),
    "playing(A#2, dvr)", "none"),
  .init(
    live(at: .seconds(90), play: false),
    .window(a2, LiveWindow(start: .seconds(100), end: .seconds(160))), "buffering(A#3, paused)",
    "stop(A#2) load(A#3, at live edge)", watchdog: "watchdog(A#3, watchdog#1)"),
  // Go to live: a seek to the edge; the intent kept.
  .init(
    live(at: .seconds(90)), .goToLive, "playing(A#2, dvr, seek#2)",
    "seek(A#2, 120000ms, seek#2)"),
  .init(
    live(at: .seconds(90), play: false), .goToLive, "paused(A#2, dvr, seek#2)",
    "seek(A#2, 120000ms, seek#2)"),
]

@Suite("Live and DVR streams")
struct LiveStreamTests {
  @Test func theKindComesFromTheWindow() {
    var state = run([.play("L"), .ready(Load(1, 1))]).state
    #expect(state.streamKind == .onDemand)
    state = state.transition(on: .window(Load(1, 1), dvr60to120)).next
    #expect(state.streamKind == .dvr)
    #expect(state.session?.position == .seconds(120))
    let still = LiveWindow(start: .seconds(125), end: .seconds(125))
    state = state.transition(on: .window(Load(1, 1), still)).next
    // Without DVR: the position (120 s) trails the edge, which is no fall behind.
    #expect(state.streamKind == .live)
    #expect(state.description == "playing(L#1, live)")
    #expect(PlaybackState().streamKind == nil)
  }

  @Test func aBadWindowIsTheEnginesBugAndChangesNothing() {
    let steps = printedSteps(
      [
        .play("L"), .ready(Load(1, 1)), .window(Load(1, 1), dvr60to120),
        .window(Load(1, 1), LiveWindow(start: .seconds(9), end: .seconds(1))),
        .window(Load(1, 1), LiveWindow(start: .seconds(-1), end: .seconds(1))),
      ], from: PlaybackState())
    #expect(
      steps.steps == [
        "load(L#1) watchdog(L#1, watchdog#1)", "start(L#1)", "",
        "ignored: invalid argument", "ignored: invalid argument",
      ])
    #expect(steps.state.session?.window == dvr60to120)
  }

  @Test func aLiveLoadHasNoDuration() {
    // The window came while buffering, so the duration `ready` carries is dropped.
    let state = run([
      .play("L"), .window(Load(1, 1), dvr60to120), .ready(Load(1, 1), duration: .seconds(500)),
    ]).state
    #expect(state.session?.duration == nil)
    #expect(state.nowPlaying?.duration == nil)
    #expect(state.nowPlaying?.isLive == true)
    #expect(state.nowPlaying?.window == dvr60to120)
    #expect(state.nowPlaying?.description == "L 1/1 at 120000ms 1x live 60000ms…120000ms")
  }

  @Test func seeksStayInTheWindow() {
    let steps = printedSteps(
      [
        .seek(to: .seconds(500)), .seekCompleted(a2, SeekID(2)), .seek(to: .seconds(1)),
        .seekCompleted(a2, SeekID(3)), .skip(by: .seconds(-15)), .skip(by: .seconds(45)),
        .user(.setPosition(ItemID(1), .seconds(30))), .user(.setPosition(ItemID(1), .seconds(70))),
        .user(.jump(to: 0, from: .seconds(200))),
      ], from: live())
    #expect(
      steps.steps == [
        "seek(A#2, 120000ms, seek#2)", "", "seek(A#2, 60000ms, seek#3)", "",
        "seek(A#2, 60000ms, seek#4)", "seek(A#2, 105000ms, seek#5)",
        "ignored: invalid argument", "seek(A#2, 70000ms, seek#6)", "seek(A#2, 120000ms, seek#7)",
      ])
  }

  @Test func aLiveStreamWithoutDVRSeeksNowhere() {
    let still = LiveWindow(start: .seconds(120), end: .seconds(120))
    let steps = printedSteps(
      [
        .seek(to: .seconds(1)), .skip(by: .seconds(15)), .user(.setPosition(ItemID(1), .zero)),
        .user(.jump(to: 0)), .goToLive,
      ], from: live(still))
    #expect(
      steps.steps == [
        "ignored: a live stream without a window to seek in",
        "ignored: a live stream without a window to seek in",
        "ignored: a live stream without a window to seek in",
        "ignored: a live stream without a window to seek in",
        "ignored: a live stream without a window to seek in",
      ])
    #expect(live(still).availableCommands.description == "next pause stop toggle")
    #expect(live().availableCommands.description == "next pause seek skip stop toggle")
  }

  @Test func goToLiveRefusesWhatIsNotLive() {
    #expect(PlaybackState().transition(on: .goToLive).ignored == .noEffect)
    #expect(fixture(.ready).transition(on: .goToLive).ignored == .notLive)
    #expect(live().transition(on: .goToLive).ignored == .noEffect)
    let ended = run([
      .play("L"), .ready(Load(1, 1)), .window(Load(1, 1), dvr60to120), .reachedEnd(Load(1, 1)),
    ]).state
    #expect(ended.description == "ended(L#1, dvr, autoplay)")
    #expect(ended.transition(on: .goToLive).ignored == .noEffect)
  }

  @Test func aPausedLoadThatFellBehindReloadsAtTheEdgeOnce() {
    // Paused at 90 s; the window slides past it; a late window and position
    // of the old load are stale.
    let slid = LiveWindow(start: .seconds(100), end: .seconds(160))
    let steps = printedSteps(
      [
        .window(a2, LiveWindow(start: .seconds(70), end: .seconds(130))), .window(a2, slid),
        .window(a2, slid), .position(a2, .seconds(95)), .ready(Load(1, 3)),
        .window(Load(1, 3), LiveWindow(start: .seconds(110), end: .seconds(170))), .resume,
      ], from: live(at: .seconds(90), play: false))
    #expect(
      steps.steps == [
        "", "stop(A#2), load(A#3, at live edge) watchdog(A#3, watchdog#1)",
        "ignored: stale load token", "ignored: stale load token", "",
        "", "start(A#3)",
      ])
    #expect(steps.state.session?.position == .seconds(170))
  }

  @Test func aBufferingLoadBehindTheWindowFails() {
    let steps = printedSteps([.failed(a2, .behindLiveWindow)], from: fixture(.buffering))
    #expect(steps.steps == ["stop(A#2)"])
    #expect(steps.state.description == "failed(A#2, behindLiveWindow, autoplay)")
  }

  @Test func theEngineIsNeverFasterThanRealTimeAtTheEdge() {
    // 1.5x at 90 s: sent; the position reaches the edge: 1x, and it stays 1x
    // while the window moves on (no flapping at each report); a pause leaves
    // the edge, so the resume catches up at 1.5x until the edge again; a seek
    // back is 1.5x, `goToLive` 1x.
    let steps = printedSteps(
      [
        .setRate(1.5), .position(a2, .seconds(120)), .position(a2, .seconds(121)),
        .window(a2, LiveWindow(start: .seconds(65), end: .seconds(125))),
        .position(a2, .seconds(123)), .pause, .resume, .position(a2, .seconds(125)),
        .seek(to: .seconds(100)), .goToLive, .setRate(2), .setRate(1),
      ], from: live(at: .seconds(90)))
    #expect(
      steps.steps == [
        "rate(A#2, 1.5x)", "rate(A#2, 1x)", "", "", "", "pause(A#2)", "start(A#2, 1.5x)",
        "rate(A#2, 1x)", "seek(A#2, 100000ms, seek#2), rate(A#2, 1.5x)",
        "seek(A#2, 125000ms, seek#3), rate(A#2, 1x)", "", "",
      ])
    // Published to the lock screen as played: 1x at the edge.
    #expect(steps.state.nowPlaying?.rate == .normal)
  }

  @Test func theFirstWindowOfALoadPlayingFasterBringsItToRealTime() {
    // H22's replay: the load starts at 1.5x, then learns it is live, at its edge.
    let steps = printedSteps(
      [.setRate(1.5), .play("L"), .ready(Load(1, 1)), .window(Load(1, 1), dvr60to120)],
      from: PlaybackState())
    #expect(
      steps.steps == [
        "", "load(L#1) watchdog(L#1, watchdog#1)", "start(L#1, 1.5x)", "rate(L#1, 1x)",
      ])
  }

  @Test func previousOnALiveLoadGoesBackAnEntryNeverToTheStart() {
    var state = live()
    #expect(state.transition(on: .previous).ignored == .noEffect)
    state =
      run([.queue(["A", "L"], start: 1), .ready(Load(2, 1)), .window(Load(2, 1), dvr60to120)])
      .state
    let steps = printedSteps([.previous], from: state)
    #expect(steps.steps == ["stop(L#1), load(A#2) watchdog(A#2, watchdog#1)"])
  }

  @Test func theEndOfABroadcastIsNeverReplayed() {
    let steps = printedSteps(
      [.user(.setRepeat(.one)), .reachedEnd(a2), .resume, .ready(Load(1, 3))], from: live())
    #expect(
      steps.steps == [
        "", "", "stop(A#2), load(A#3, at live edge) watchdog(A#3, watchdog#1)", "start(A#3)",
      ])
  }

  @Test func nothingIsPreloadedBesideALiveLoadAndALivePreloadIsStopped() {
    let config = PlayerConfiguration(canPreload: true)
    let start = PlaybackState(configuration: config)
    // A (on demand) preloads L; L's window stops the preload; L loads at its turn.
    let steps = printedSteps(
      [
        .queue(["A", "L", "B"]), .ready(Load(1, 1)), .ready(Load(2, 2)),
        .window(Load(2, 2), dvr60to120), .reachedEnd(Load(1, 1)), .ready(Load(2, 3)),
        .window(Load(2, 3), dvr60to120),
      ], from: start)
    #expect(
      steps.steps == [
        "load(A#1) watchdog(A#1, watchdog#1)", "start(A#1), preload(L#2)", "", "stop(L#2)",
        "stop(A#1), load(L#3) watchdog(L#3, watchdog#1)", "start(L#3), preload(B#4)", "stop(B#4)",
      ])
    #expect(steps.state.preload == nil)
  }

  @Test func aLiveLoadWaitingForTheNetworkReloadsAtTheEdge() {
    let steps = printedSteps(
      [.failed(a2, .network), .system(.networkAvailable), .failed(Load(1, 3), .decoding), .retry],
      from: live(at: .seconds(90)))
    #expect(
      steps.steps == [
        "stop(A#2) backoff(A#2, watchdog#2, 1000ms)",
        "load(A#3, at live edge) watchdog(A#3, watchdog#1)", "stop(A#3)",
        "load(A#4) watchdog(A#4, watchdog#1)",
      ])
  }

  @Test func aStopAtTheEndOfALiveEntryIsRefused() {
    let state = live()
    #expect(state.transition(on: .setSleepTimer(.endOfEntry)).ignored == .liveStream)
    #expect(state.transition(on: .setSleepTimer(.afterEntries(2))).ignored == .liveStream)
    #expect(state.transition(on: .setSleepTimer(.endOfQueue)).ignored == .liveStream)
    #expect(state.transition(on: .setSleepTimer(.after(.seconds(60)))).ignored == nil)
  }

  @Test func aSnapshotKeepsTheOffsetFromTheEdgeWhileTheWindowHoldsThePosition() {
    let behind = live(at: .seconds(90)).snapshot
    #expect("\(behind.position) \(behind.liveOffset.map(\.description) ?? "none")" == "0ms 30000ms")
    let gone = live(at: .seconds(30)).snapshot
    #expect("\(gone.position) \(gone.liveOffset.map(\.description) ?? "none")" == "0ms none")
    let still = live(LiveWindow(start: .seconds(120), end: .seconds(120))).snapshot
    #expect("\(still.position) \(still.liveOffset.map(\.description) ?? "none")" == "0ms none")
  }

  @Test func aRelaunchResumesTheSameDistanceBehindTheEdge() throws {
    // The new engine's timeline is its own: the window is 1000…1600 s now.
    var state = try PlaybackState(restoring: live(at: .seconds(90)).snapshot)
    let steps = printedSteps(
      [
        .resume, .ready(Load(1, 1)),
        .window(Load(1, 1), LiveWindow(start: .seconds(1000), end: .seconds(1600))),
      ], from: state)
    #expect(
      steps.steps == [
        "load(A#1, 30000ms behind live edge) watchdog(A#1, watchdog#1)", "start(A#1)", "",
      ])
    #expect(steps.state.session?.position == .seconds(1570))
    // A window shorter than the offset: its start.
    state = try PlaybackState(
      restoring: PlaybackSnapshot(media: ["A"], current: 0, liveOffset: .seconds(500)))
    state = run([.resume, .window(Load(1, 1), dvr60to120)], from: state).state
    #expect(state.session?.position == .seconds(60))
    // A position reported before the first window is the engine's own: kept.
    state = try PlaybackState(
      restoring: PlaybackSnapshot(media: ["A"], current: 0, liveOffset: .seconds(30)))
    state =
      run(
        [.resume, .position(Load(1, 1), .seconds(70)), .window(Load(1, 1), dvr60to120)], from: state
      ).state
    #expect(state.session?.position == .seconds(70))
  }

  @Test func aSnapshotWithAnOffsetAndAPositionIsRefused() {
    let both = PlaybackSnapshot(
      media: ["A"], current: 0, position: .seconds(1), liveOffset: .seconds(2))
    #expect(both.violation == "both a position and a live offset")
    let negative = PlaybackSnapshot(media: ["A"], current: 0, liveOffset: .seconds(-2))
    #expect(negative.violation == "live offset -2000ms is negative")
  }

  @Test func valuesPrintAndEncode() throws {
    #expect(PlaybackEvent.window(a2, dvr60to120).description == "window(item1#2, 60000ms…120000ms)")
    #expect(PlaybackEvent.goToLive.description == "goToLive")
    let request = LoadRequest(load: a2, media: "A", atLiveEdge: true)
    #expect(EngineCommand.load(request).description == "load(A#2, at live edge)")
    #expect(FailureReason.behindLiveWindow.description == "behindLiveWindow")
    #expect(IgnoreReason.liveStream.description == "a live stream has no end")
    #expect(dvr60to120.length == .seconds(60))
    #expect(dvr60to120.clamp(.seconds(200)) == .seconds(120))
    #expect(StreamKind(rawValue: "dvr") == .dvr)
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let json = try encoder.encode(request)
    #expect(
      String(decoding: json, as: UTF8.self)
        == #"{"atLiveEdge":true,"load":{"item":1,"token":2},"media":"A","start":{"milliseconds":0}}"#
    )
    #expect(try JSONDecoder().decode(LoadRequest.self, from: json) == request)
  }

  /// A load has a duration or a window, one stored field: a window drops the duration, a
  /// duration set to nil leaves a window alone, and a session built with both keeps the window.
  @Test func aDurationAndAWindowShareOneField() throws {
    var session = Session(load: a2, stage: .ready, duration: .seconds(30))
    #expect(session.duration == .seconds(30) && session.window == nil)
    session.window = dvr60to120
    #expect(session.duration == nil && session.window == dvr60to120)
    session.duration = nil
    #expect(session.window == dvr60to120)
    session.window = nil
    #expect(session.duration == nil && session.window == nil)
    let both = Session(load: a2, stage: .ready, duration: .seconds(30), window: dvr60to120)
    #expect(both.duration == nil && both.window == dvr60to120 && both.kind == .dvr)
    #expect(Preload(load: b3, stage: .ready, duration: .seconds(3)).duration == .seconds(3))
    let json = try JSONEncoder().encode(both)
    #expect(try JSONDecoder().decode(Session.self, from: json) == both)
  }

  /// The first window finds a paused load at the edge but not playing it: the edge (and its
  /// 1x) belongs to a load the engine plays, so a resume plays at the user's rate.
  @Test func theFirstWindowOfAPausedLoadDoesNotHoldItAtTheEdge() {
    var state = fixture(.ready, play: false)
    _ = state.handle(.setRate(PlaybackRate(thousandths: 1_500)))
    _ = state.handle(.window(a2, dvr60to120))
    #expect(state.session?.playsAtEdge == false)
    #expect(state.description == "paused(A#2, dvr)")
    #expect(state.handle(.resume).commands.description == "start(item1#2, 1.5x)")
  }
}
