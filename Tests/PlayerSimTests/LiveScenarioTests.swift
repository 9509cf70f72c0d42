import Foundation
import PlayerEngine
import PlayerSimulation
import PlayerState
import Testing

/// Issue 38, item 5 in scripts: live media (`media L live`, `media L live window=60s`,
/// `ends=`), whose fake engine reports a window that slides with the virtual clock; the
/// `go-live` line; `report window`; the state forms `playing(L#1, dvr)` and `preload live
/// P`; `expect now-playing … live S…E`; the `--json` keys `is_live` and `window_ms`; and the
/// `live-*` scenarios, each run with the rows that matter checked literally.
@Suite struct LiveScenarioTests: ParsesScenarios {
  private func run(_ script: String) throws -> ScenarioResult {
    let result = ScenarioRunner().run(try ScenarioParser.parse(script, file: "t.play"))
    #expect(result.failure == nil, "\(result.failure.map(String.init(describing:)) ?? "")")
    return result
  }

  /// The scenario `name` of `Examples/scenarios`, run: it must pass; its rows as printed.
  private func rows(of name: String) throws -> [String] {
    let path = ScenarioFilesTests.directory.appendingPathComponent(name).path
    let result = ScenarioRunner().run(try ScenarioParser.parse(ScenarioFile.read(path), file: name))
    #expect(result.failure == nil, "\(result.failure.map(String.init(describing:)) ?? "")")
    #expect(result.finalState.invariantViolation == nil)
    return result.entries.map(\.description)
  }

  @Test func theMediaSpellingsParse() throws {
    var live = MediaProfile(positionEvery: .seconds(1))
    live.live = LiveProfile()
    #expect(try parse("media L live") == [.media("L", live)])
    live.live = LiveProfile(dvrWindow: .seconds(60))
    #expect(try parse("media L live window=60s") == [.media("L", live)])
    live.live = LiveProfile(dvrWindow: .seconds(60), endsAt: .seconds(600))
    #expect(try parse("media L live window=60s ends=10m") == [.media("L", live)])
    // The report interval is the position reports': said, or off (one window, at ready).
    live.positionEvery = .seconds(10)
    #expect(try parse("media L ends=10m live window=60s position-every=10s") == [.media("L", live)])
    live.positionEvery = nil
    #expect(
      try parse("media L live window=60s ends=10m position-every=off") == [.media("L", live)])
    // Other options keep working for live media.
    let stalls = try parse("media L live ready-after=0ms stall-at=5s fail-after=1m seek-latency=1s")
    guard case .media(_, let profile) = stalls.first else {
      Issue.record("not a media line")
      return
    }
    #expect(profile.readyAfter == .zero)
    #expect(profile.stallAt == .seconds(5))
    #expect(profile.failAfter == .seconds(60))
    #expect(profile.seekLatency == .seconds(1))
    #expect(profile.live == LiveProfile())
    // A media named `live` is a media like any other.
    #expect(try parse("media live") == [.media("live", .standard)])
  }

  @Test func theLinesParse() throws {
    let actions = try parse(
      """
      media L live window=60s
      go-live
      remote go-live
      report window L#1 start=60s end=120s
      report window L#1 start=9s end=1s
      report failed L#1 reason=behindLiveWindow
      expect commands stop(L#1) load(L#2, at live edge) load(L#2,at live edge)
      expect ignored notSeekable notLive liveStream
      expect now-playing L 1/1 at 120s rate 1x live 60s…120s
      expect now-playing L 1/1 at 120s rate 1x live 1m...2m
      expect state playing(L#1, dvr)
      expect state paused(L#1, live, fading out)
      expect state failed(L#1, behindLiveWindow, dvr, autoplay)
      expect state waiting(L#1, network, attempt 1, dvr, autoplay)
      expect state suppressed(L#1, dvr, interrupted)
      expect state playing(L#1, preload live L#2)
      """)
    let window = LiveWindow(start: .seconds(60), end: .seconds(120))
    let nowPlaying = NowPlayingExpectation(
      media: "L", index: 1, count: 1, elapsed: .seconds(120), rate: .normal, window: window)
    #expect(
      Array(actions.dropFirst()) == [
        .intent(.goToLive), .remote(.goToLive),
        .inject(ScenarioReport(.window(window), LoadName("L", 1))),
        .inject(
          ScenarioReport(
            .window(LiveWindow(start: .seconds(9), end: .seconds(1))), LoadName("L", 1))),
        .inject(ScenarioReport(.failed(.behindLiveWindow), LoadName("L", 1))),
        .expectCommands([
          ScenarioCommand("stop(L#1)"), ScenarioCommand("load(L#2, at live edge)"),
          ScenarioCommand("load(L#2, at live edge)"),
        ]),
        .expectIgnored([.notSeekable, .notLive, .liveStream]),
        .expectNowPlaying(nowPlaying), .expectNowPlaying(nowPlaying),
        .expectState(.exactly("playing(L#1, dvr)")),
        .expectState(.exactly("paused(L#1, live, fading out)")),
        .expectState(.exactly("failed(L#1, behindLiveWindow, dvr, autoplay)")),
        .expectState(.exactly("waiting(L#1, network, attempt 1, dvr, autoplay)")),
        .expectState(.exactly("suppressed(L#1, dvr, interrupted)")),
        .expectState(.exactly("playing(L#1, preload live L#2)")),
      ])
    #expect(nowPlaying.description == "L 1/1 at 120000ms rate 1x live 60000ms…120000ms")
  }

  @Test(arguments: [
    (
      "media L window=60s",
      "t.play:1:9: error: window= without 'live'; expected 'live' before it, as in 'media L live window=60s' (a live stream's option)"
    ),
    (
      "media L ends=10m",
      "t.play:1:9: error: ends= without 'live'; expected 'live' before it, as in 'media L live window=60s' (a live stream's option)"
    ),
    (
      "media L live duration=5m",
      "t.play:1:14: error: duration= on a live media; expected no duration for a live stream (its edge grows with the clock); 'ends=TIME' for a broadcast that ends"
    ),
    (
      "media L live report-duration=yes",
      "t.play:1:14: error: report-duration= on a live media; expected no duration for a live stream (its edge grows with the clock); 'ends=TIME' for a broadcast that ends"
    ),
    ("media L live live", "t.play:1:14: error: 'live' given twice; expected each option once"),
    (
      "media L live window=0s",
      "t.play:1:21: error: time '0s'; expected a time above 0ms"
    ),
    (
      "media L live window=soon",
      "t.play:1:21: error: bad time 'soon'; expected a time in ms, s, m or h, such as 250ms, 1.5s, 3m or 1h"
    ),
    (
      "go-live now",
      "t.play:1:9: error: unexpected 'now' after 'go-live'; expected end of line (a comment starts with ' #')"
    ),
    (
      "media L\nreport window L#1 start=60s",
      "t.play:2:28: error: found end of line; expected start=TIME end=TIME (as in 'report window A#1 start=60s end=120s')"
    ),
    (
      "media L\nreport window L#1 start=60s end=2m edge=3m",
      "t.play:2:36: error: unknown option 'edge' for 'window'; expected start=…, end=…"
    ),
    (
      "media L\nexpect now-playing L 1/1 at 0s rate 1x live 60s",
      "t.play:2:45: error: found '60s'; expected a live window START…END such as 60s…120s (or 60s...120s)"
    ),
    (
      "media L\nexpect now-playing L 1/1 at 0s rate 1x live 2m…1m",
      "t.play:2:45: error: a window '2m…1m' that ends before it starts; expected a live window START…END such as 60s…120s (or 60s...120s)"
    ),
    (
      "media L\nexpect now-playing L 1/1 at 0s rate 1x live",
      "t.play:2:44: error: found end of line; expected the live window, as in 60s…120s (start…edge)"
    ),
    (
      "media L\nexpect state playing(L#1, vod)",
      "t.play:2:27: error: 'vod' in a playing state; expected seek#N (a pending seek), sleep TIMER (the armed sleep timer), preloading P, preloaded P, preload failed P, preload live P, crossfade from L or ')'"
    ),
    (
      "media L\nexpect state playing(L#1, preload live)",
      "t.play:2:39: error: bad load ''; expected MEDIA#TOKEN, such as A#1"
    ),
    (
      "media L\nexpect ignored notseekable",
      "t.play:2:16: error: unknown ignore reason 'notseekable'; expected one of neverIssuedLoad, staleLoad, itemMismatch, neverIssuedSeek, supersededSeek, staleWatchdog, seekPending, unexpected, idsExhausted, invalidPosition, invalidArgument, notInterrupted, notCurrentEntry, notDucked, notSeekable, notLive, liveStream, or 'none'"
    ),
  ])
  func badLinesSayWhereAndWhat(_ script: String, _ expected: String) {
    #expect(message(script) == expected)
  }

  /// The fake engine's live media: the edge is the virtual clock's time; the window comes
  /// after `ready` and then every report interval, paused included; the load starts at the
  /// edge (or from a position the window holds), never plays past it, and fails with
  /// `behindLiveWindow` when told to play media the window has left.
  @Test func theFakeEngineSlidesTheWindowWithTheClock() {
    let clock = VirtualClock()
    let profile = MediaProfile(
      readyAfter: .zero, positionEvery: .seconds(10), live: LiveProfile(dvrWindow: .seconds(60)))
    let engine = FakeMediaEngine(clock: clock, defaultProfile: profile)
    let reports = Locked<[String]>([])
    let sink = ReportSink { report in
      reports.withLock { $0.append("\(clock.milliseconds) \(report)") }
    }
    let (a, b, c) = (Load(1, 1), Load(1, 2), Load(1, 3))
    clock.advance(by: .seconds(120))
    engine.execute(.load(LoadRequest(load: a, media: "L")), reports: sink)
    engine.execute(.load(LoadRequest(load: b, media: "L", start: .seconds(90))), reports: sink)
    engine.execute(.load(LoadRequest(load: c, media: "L", start: .seconds(30))), reports: sink)
    clock.advance(by: .zero)
    engine.execute(.start(a, rate: PlaybackRate(thousandths: 2000)), reports: sink)
    engine.execute(.stop(c), reports: sink)
    clock.advance(by: .seconds(10))
    engine.execute(.stop(a), reports: sink)
    // B, opened from 90 s (which the window held) and never started, is behind the window
    // once it passes 90 s: told to play at 155 s (95 s…155 s), it fails.
    clock.advance(by: .seconds(25))
    engine.execute(.start(b, rate: .normal), reports: sink)
    clock.advance(by: .zero)
    #expect(
      reports.withLock { $0 } == [
        "120000 ready(item1#1)", "120000 ready(item1#2)", "120000 ready(item1#3)",
        "120000 window(item1#1, 60000ms…120000ms)", "120000 window(item1#2, 60000ms…120000ms)",
        "120000 window(item1#3, 60000ms…120000ms)",
        "130000 window(item1#1, 70000ms…130000ms)", "130000 window(item1#2, 70000ms…130000ms)",
        // A at 2x from the edge stays at the edge: nothing ahead to play.
        "130000 position(item1#1, 130000ms)",
        "140000 window(item1#2, 80000ms…140000ms)", "150000 window(item1#2, 90000ms…150000ms)",
        "155000 failed(item1#2, behindLiveWindow)",
      ])
  }

  /// `ends=`: the edge stops at the broadcast's end, and a load playing there reports
  /// `reachedEnd` when its position reaches it, no sooner.
  @Test func aBroadcastEndsWhereTheScriptSays() throws {
    let result = try run(
      """
      media L live ready-after=0ms position-every=off ends=1m
      wait 50s
      play L
      wait 30s
      expect state ended(L#1, live, autoplay)
      expect commands load(L#1) start(L#1)
      """)
    #expect(
      result.entries.map(\.description).suffix(3) == [
        "50.000s engine window(L#1, 50000ms…50000ms): playing(L#1) -> playing(L#1, live)",
        "55.000s timer timeout(L#1, watchdog#1): playing(L#1, live) -> playing(L#1, live) (ignored: stale watchdog)",
        "60.000s engine ended(L#1): playing(L#1, live) -> ended(L#1, live, autoplay)",
      ])
  }

  /// The other media options work for live media: the ready latency, a stall (at a position
  /// of the broadcast, reached no sooner than the broadcast reaches it, even at 2x), a
  /// failure, the seek latency.
  @Test func otherOptionsKeepWorking() throws {
    let result = try run(
      """
      media L live window=60s ready-after=300ms position-every=off stall-at=125s stall-for=2s seek-latency=100ms
      media F live fail-after=1s reason=decoding
      wait 2m
      play L
      wait 1s
      rate 2
      wait 9s
      seek 100s
      wait 1s
      rate 1
      play F
      wait 2s
      expect state failed(F#2, decoding, live, autoplay)
      """)
    #expect(
      result.entries.map(\.description).filter { !$0.contains("timeout(") } == [
        "120.000s user play(L): idle -> buffering(L#1, autoplay) [load(L#1)]",
        "120.300s engine ready(L#1): buffering(L#1, autoplay) -> playing(L#1) [start(L#1)]",
        "120.300s engine window(L#1, 60300ms…120300ms): playing(L#1) -> playing(L#1, dvr)",
        "121.000s user rate(2x): playing(L#1, dvr) -> playing(L#1, dvr)",
        // A stall leaves the edge: the user's 2x is sent, to catch up once it resumes.
        "125.000s engine stalled(L#1): playing(L#1, dvr) -> stalled(L#1, dvr) [rate(L#1, 2x)]",
        "127.000s engine resumed(L#1): stalled(L#1, dvr) -> playing(L#1, dvr)",
        "130.000s user seek(100000ms): playing(L#1, dvr) -> playing(L#1, dvr, seek#1) [seek(L#1, 100000ms, seek#1)]",
        "130.100s engine seeked(L#1, seek#1): playing(L#1, dvr, seek#1) -> playing(L#1, dvr)",
        "131.000s user rate(1x): playing(L#1, dvr) -> playing(L#1, dvr) [rate(L#1, 1x)]",
        "131.000s user play(F): playing(L#1, dvr) -> buffering(F#2, autoplay) [stop(L#1) load(F#2)]",
        "131.200s engine ready(F#2): buffering(F#2, autoplay) -> playing(F#2) [start(F#2)]",
        "131.200s engine window(F#2, 131200ms…131200ms): playing(F#2) -> playing(F#2, live)",
        "132.000s engine failed(F#2, decoding): playing(F#2, live) -> failed(F#2, decoding, live, autoplay) [stop(F#2)]",
      ])
  }

  /// `--json`: `now_playing` gains `is_live` and `window_ms`, `[start, end]` or null.
  @Test func theJSONRowsSayLiveAndTheWindow() throws {
    let result = try run(
      """
      media A
      media L live window=60s ready-after=0ms position-every=off
      play A
      wait 2m
      play L
      wait 0ms
      """)
    let json = result.entries.map(\.json)
    #expect(
      json[1]
        == #"{"t_ms":200,"source":"engine","event":"ready(A#1)","before":"buffering(A#1, autoplay)","after":"playing(A#1)","commands":["start(A#1)"],"ignored":null,"backoff":null,"failure":null,"notifications":[],"now_playing":{"media":"A","elapsed_ms":0,"rate":1,"duration_ms":null,"index":1,"count":1,"is_live":false,"window_ms":null},"available":["pause","previous","seek","skip","stop","toggle"],"player":1,"sleep":null,"volume":1}"#
    )
    #expect(
      json.last
        == #"{"t_ms":120000,"source":"engine","event":"window(L#2, 60000ms…120000ms)","before":"playing(L#2)","after":"playing(L#2, dvr)","commands":[],"ignored":null,"backoff":null,"failure":null,"notifications":[],"now_playing":{"media":"L","elapsed_ms":120000,"rate":1,"duration_ms":null,"index":1,"count":1,"is_live":true,"window_ms":[60000,120000]},"available":["pause","seek","skip","stop","toggle"],"player":1,"sleep":null,"volume":1}"#
    )
  }

  /// The built `player-sim run --json`, end to end: a live row's `now_playing` holds
  /// `"is_live":true` and its `window_ms`; the table's refusals name the reason.
  @Test func theCLIPrintsLiveRows() throws {
    let script = """
      media R live ready-after=0ms position-every=off
      wait 1m
      play R
      wait 0ms
      seek 10s
      """
    let json = try CLI.run(["run", "--json", "-"], input: script)
    #expect(json.status == 0)
    let lines = json.stdout.split(separator: "\n").map(String.init)
    #expect(lines.count == 4)
    #expect(
      lines.last
        == #"{"t_ms":60000,"source":"user","event":"seek(10000ms)","before":"playing(R#1, live)","after":"playing(R#1, live)","commands":[],"ignored":"notSeekable","backoff":null,"failure":null,"notifications":[],"now_playing":{"media":"R","elapsed_ms":60000,"rate":1,"duration_ms":null,"index":1,"count":1,"is_live":true,"window_ms":[60000,60000]},"available":["pause","stop","toggle"],"player":1,"sleep":null,"volume":1}"#
    )
    let table = try CLI.run(["run", "-"], input: script)
    #expect(table.status == 0)
    #expect(
      table.lines.contains(
        "60.000s  user    seek(10000ms)             playing(R#1, live) → playing(R#1, live)               REFUSED: a live stream without a window to seek in"
      ))
  }

  /// A window the engine gets wrong (an edge behind its start) is refused, and the one
  /// before it stays.
  @Test func aBadWindowReportIsRefused() throws {
    _ = try run(
      """
      media L
      play L
      wait 1s
      report window L#1 start=60s end=120s
      report window L#1 start=90s end=30s
      expect ignored invalidArgument
      expect now-playing L 1/1 at 120s rate 1x live 60s…120s
      """)
  }

  @Test func seekPastTheEdge() throws {
    let rows = try rows(of: "live-seek-past-edge.play")
    #expect(
      rows.contains(
        "120.000s user seek(600000ms): playing(L#1, dvr) -> playing(L#1, dvr, seek#1) [seek(L#1, 120000ms, seek#1)]"
      ))
    #expect(
      rows.contains(
        "123.000s user seek(0ms): playing(L#1, dvr) -> playing(L#1, dvr, seek#4) [seek(L#1, 60000ms, seek#4)]"
      ))
  }

  @Test func aLongPauseOnDVRReloadsAtTheEdgeOnce() throws {
    let rows = try rows(of: "live-pause-falls-behind.play")
    #expect(
      rows.contains(
        "190.000s engine window(L#1, 130000ms…190000ms): paused(L#1, dvr) -> buffering(L#2, paused) [stop(L#1) load(L#2, at live edge)]"
      ))
    #expect(
      rows.contains(
        "200.000s engine window(L#1, 140000ms…200000ms): paused(L#2, dvr) -> paused(L#2, dvr) (ignored: stale load token)"
      ))
    #expect(rows.filter { $0.contains("at live edge") }.count == 1)
  }

  @Test func goLive() throws {
    let rows = try rows(of: "live-go-live.play")
    #expect(
      rows.contains(
        "1.000s user goToLive: playing(A#1) -> playing(A#1) (ignored: not a live stream)"))
    #expect(
      rows.contains(
        "130.000s user goToLive: playing(L#2, dvr) -> playing(L#2, dvr, seek#2) [seek(L#2, 130000ms, seek#2)]"
      ))
    #expect(
      rows.contains(
        "140.000s user goToLive: paused(L#2, dvr) -> paused(L#2, dvr, seek#4) [seek(L#2, 140000ms, seek#4)]"
      ))
    #expect(
      rows.contains(
        "141.000s user goToLive: paused(L#2, dvr) -> paused(L#2, dvr) (ignored: no effect in this state)"
      ))
  }

  @Test func withoutDVRNothingSeeks() throws {
    let rows = try rows(of: "live-without-dvr-refuses-seek.play")
    let refused = "(ignored: a live stream without a window to seek in)"
    for event in [
      "seek(10000ms)", "skip(-15000ms)", "remote(skip(+15000ms))", "setPosition(R item1, 30000ms)",
      "goToLive",
    ] {
      #expect(
        rows.contains("60.000s user \(event): playing(R#1, live) -> playing(R#1, live) \(refused)")
          || rows.contains(
            "60.000s remote \(event): playing(R#1, live) -> playing(R#1, live) \(refused)"),
        "\(event)")
    }
    #expect(
      rows.contains(
        "100.000s engine failed(R#1, behindLiveWindow): playing(R#1, live) -> buffering(R#2, autoplay) [stop(R#1) load(R#2, at live edge)]"
      ))
  }

  @Test func previousGoesBackAnEntry() throws {
    let rows = try rows(of: "live-previous-goes-back.play")
    #expect(
      rows.contains(
        "7230.000s user previous: playing(L#1, dvr) -> buffering(A#2, autoplay) [stop(L#1) load(A#2)]"
      ))
    #expect(
      rows.contains(
        "7232.000s remote remote(previous): playing(L#3, dvr) -> buffering(A#4, autoplay) [stop(L#3) load(A#4)]"
      ))
    #expect(
      rows.contains(
        "7262.000s user previous: playing(L#5, dvr) -> playing(L#5, dvr) (ignored: no effect in this state)"
      ))
  }

  @Test func theRateDropsToOneAtTheEdge() throws {
    let rows = try rows(of: "live-rate-at-edge.play")
    #expect(rows.contains("121.000s user rate(1.5x): playing(L#1, dvr) -> playing(L#1, dvr)"))
    #expect(
      rows.contains(
        "121.000s user seek(100000ms): playing(L#1, dvr) -> playing(L#1, dvr, seek#1) [seek(L#1, 100000ms, seek#1) rate(L#1, 1.5x)]"
      ))
    #expect(
      rows.contains(
        "161.050s engine position(L#1, 160000ms): playing(L#1, dvr) -> playing(L#1, dvr) [rate(L#1, 1x)]"
      ))
  }

  @Test func aRelaunchResumesAsFarBehindTheEdgeAsItWas() throws {
    let rows = try rows(of: "live-restore-at-edge.play")
    #expect(
      rows.contains(
        "426.000s user resume: idle -> buffering(L#1, autoplay) [load(L#1, 20000ms behind live edge)]"
      ))
    #expect(
      rows.contains(
        "426.000s engine window(L#1, 366000ms…426000ms): playing(L#1) -> playing(L#1, dvr)"))
    #expect(rows.contains("431.000s user resume: idle -> buffering(R#1, autoplay) [load(R#1)]"))
  }

  @Test func noPreloadBesideOrIntoALiveEntry() throws {
    let rows = try rows(of: "live-no-preload.play")
    #expect(
      rows.contains(
        "0.200s engine window(L#1, 0ms…200ms): playing(L#1, preloading B#2) -> playing(L#1, dvr) [stop(B#2)]"
      ))
    #expect(
      rows.contains(
        "0.600s engine window(L#4, 0ms…600ms): playing(A#3, preloaded L#4) -> playing(A#3, preload live L#4) [stop(L#4)]"
      ))
    #expect(
      rows.contains(
        "10.400s engine ended(A#3): playing(A#3, preload live L#4) -> buffering(L#5, autoplay) [stop(A#3) load(L#5)]"
      ))
  }

  @Test func aStopAtTheEndOfALiveEntryIsRefused() throws {
    let rows = try rows(of: "live-sleep-end-of-entry-refused.play")
    #expect(
      rows.contains(
        "120.000s user sleepTimer(endOfEntry): playing(L#1, dvr) -> playing(L#1, dvr) (ignored: a live stream has no end)"
      ))
    #expect(
      rows.contains(
        "150.000s system sleepTimer(expired, sleep#1): playing(L#1, dvr, sleep after(30000ms)) -> paused(L#1, dvr) [pause(L#1)]"
      ))
  }

  @Test func theNetworkReloadsAtTheEdge() throws {
    let rows = try rows(of: "live-network-reload-at-edge.play")
    #expect(
      rows.contains(
        "170.000s system network(available): waiting(L#1, network, attempt 1, dvr, autoplay) -> buffering(L#2, autoplay) [load(L#2, at live edge)]"
      ))
  }

  @Test func theBroadcastEnds() throws {
    let rows = try rows(of: "live-broadcast-ends.play")
    #expect(
      rows.contains(
        "180.000s engine ended(L#1): playing(L#1, dvr) -> buffering(B#2, autoplay) [stop(L#1) load(B#2)]"
      ))
    #expect(
      rows.contains(
        "181.000s user resume: ended(L#3, dvr, autoplay) -> buffering(L#4, autoplay) [stop(L#3) load(L#4, at live edge)]"
      ))
  }

  /// The scenarios are there (and run, with the others, in ``ScenarioFilesTests``).
  @Test func theExamplesAreThere() {
    for name in [
      "live-seek-past-edge.play", "live-pause-falls-behind.play", "live-go-live.play",
      "live-without-dvr-refuses-seek.play", "live-previous-goes-back.play",
      "live-rate-at-edge.play", "live-restore-at-edge.play", "live-no-preload.play",
      "live-sleep-end-of-entry-refused.play", "live-network-reload-at-edge.play",
      "live-broadcast-ends.play",
    ] {
      #expect(ScenarioFilesTests.scripts.contains(name), "missing \(name)")
    }
  }
}
