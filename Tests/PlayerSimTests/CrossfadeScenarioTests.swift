import Foundation
import PlayerEngine
import PlayerSimulation
import PlayerState
import Testing

/// Issue 37, item 3 in scripts: the `crossfade` setting, the state form
/// `playing(B#2, crossfade from A#1)`, the fake engine playing two loads at once (the
/// started preload and the outgoing load, each on its own ramp), and the timeline of a
/// crossfade.
@Suite struct CrossfadeScenarioTests: ParsesScenarios {
  private func run(_ script: String) throws -> ScenarioResult {
    let result = ScenarioRunner().run(try ScenarioParser.parse(script, file: "t.play"))
    #expect(result.failure == nil, "\(result.failure.map(String.init(describing:)) ?? "")")
    return result
  }

  /// Three media of 10 s that report their position every second and their duration, on an
  /// engine that preloads, with a 3 s crossfade: A crossfades into B when it reports 7 s.
  private static let setup = """
    engine preload=yes
    crossfade 3s
    media A duration=10s position-every=1s report-duration=yes
    media B duration=10s position-every=1s report-duration=yes
    media C duration=10s position-every=1s report-duration=yes

    """

  @Test func everyCrossfadeSpellingParses() throws {
    let engine = "engine preload=yes\n"
    #expect(try parse(engine + "crossfade 3s").last == .crossfade(.seconds(3)))
    #expect(try parse(engine + "crossfade 500ms").last == .crossfade(.milliseconds(500)))
    #expect(try parse(engine + "crossfade 1.5s").last == .crossfade(.milliseconds(1500)))
    #expect(try parse(engine + "crossfade off").last == .crossfade(.zero))
    #expect(try parse(engine + "crossfade 0ms").last == .crossfade(.zero))
    // Anywhere, as a setting: before the engine line, and after the run starts.
    #expect(
      try parse("crossfade 3s\nengine preload=yes\nmedia A\nplay A\ncrossfade off")
        == [
          .crossfade(.seconds(3)), .engine(preload: true), .media("A", .standard),
          .intent(.play("A")), .crossfade(.zero),
        ])
    // `off` needs no preload: it asks for nothing.
    #expect(try parse("crossfade off") == [.crossfade(.zero)])
    #expect(
      try parse("crossfade 0ms\nengine preload=no") == [.crossfade(.zero), .engine(preload: false)])
    let actions = try parse(
      """
      media A
      media B
      expect state playing(B#2, crossfade from A#1)
      expect state playing(B#2,crossfadefrom A#1)
      expect state stalled(B#2, crossfade from A#1)
      expect state playing(B#2, seek#1, crossfade from A#1)
      """)
    #expect(
      Array(actions.dropFirst(2)) == [
        .expectState(.exactly("playing(B#2, crossfade from A#1)")),
        .expectState(.exactly("playing(B#2,crossfadefrom A#1)")),
        .expectState(.exactly("stalled(B#2, crossfade from A#1)")),
        .expectState(.exactly("playing(B#2, seek#1, crossfade from A#1)")),
      ])
  }

  /// The setting configures the first player before the run starts and the running player
  /// after (`Player.reconfigure`), and a relaunched player keeps the newest.
  @Test func theSettingReachesThePlayer() throws {
    let before = try run("engine preload=yes\ncrossfade 3s\nmedia A\nplay A\n")
    #expect(before.finalState.configuration.crossfade == .seconds(3))
    let after = try run("engine preload=yes\nmedia A\nplay A\ncrossfade 2500ms\n")
    #expect(after.finalState.configuration.crossfade == .milliseconds(2500))
    let off = try run("engine preload=yes\ncrossfade 3s\nmedia A\nplay A\ncrossfade off\n")
    #expect(off.finalState.configuration.crossfade == .zero)
    let relaunched = try run(
      "engine preload=yes\nmedia A\nplay A\ncrossfade 1s\nrelaunch\nresume\n")
    #expect(relaunched.finalState.configuration.crossfade == .seconds(1))
  }

  /// The fake engine plays two loads at once, as a crossfade needs: the started preload
  /// advances and reports its positions while the outgoing load ramps down and plays on, each
  /// at its own level on the virtual clock. A hostile engine still sends what a load stopped
  /// before its end had planned: its `ended`, late (the report the machine must ignore).
  @Test func theFakeEnginePlaysTwoLoadsAtOnce() {
    let clock = VirtualClock()
    let profile = MediaProfile(
      duration: .seconds(4), positionEvery: .seconds(1), reportsDuration: true)
    let engine = FakeMediaEngine(
      clock: clock, defaultProfile: profile,
      hostile: HostileMode(seed: 1, duplicatePercent: 0, reentrantPercent: 0), preload: true)
    let reports = Locked<[String]>([])
    let sink = ReportSink { report in
      reports.withLock { $0.append("\(clock.milliseconds) \(report)") }
    }
    let (a, b) = (Load(1, 1), Load(2, 2))
    engine.execute(.load(LoadRequest(load: a, media: "A")), reports: sink)
    engine.execute(.preload(LoadRequest(load: b, media: "B")), reports: sink)
    clock.advance(by: .milliseconds(200))
    engine.execute(.start(a, rate: .normal), reports: sink)
    clock.advance(by: .milliseconds(2000))
    // 2.2 s: A has 2 s left; B starts from silence, both ramp over 2 s (the crossfade's four).
    engine.execute(.setVolume(b, .silent), reports: sink)
    engine.execute(.start(b, rate: .normal), reports: sink)
    engine.execute(.setVolume(b, .full, ramp: .seconds(2)), reports: sink)
    engine.execute(.setVolume(a, .silent, ramp: .seconds(2)), reports: sink)
    #expect(engine.volume(of: a) == .full)
    #expect(engine.volume(of: b) == .silent)
    clock.advance(by: .milliseconds(1000))
    #expect(engine.volume(of: a) == Volume(thousandths: 500))
    #expect(engine.volume(of: b) == Volume(thousandths: 500))
    clock.advance(by: .milliseconds(500))
    #expect(engine.volume(of: a) == Volume(thousandths: 250))
    #expect(engine.volume(of: b) == Volume(thousandths: 750))
    // 3.7 s: A is stopped before its end (the fade's timer would, were A late).
    engine.execute(.stop(a), reports: sink)
    #expect(engine.volume(of: a) == nil)
    clock.advance(by: .milliseconds(1500))
    #expect(engine.volume(of: b) == .full)
    #expect(
      reports.withLock { $0 } == [
        "200 ready(item1#1, duration 4000ms)", "200 ready(item2#2, duration 4000ms)",
        "1200 position(item1#1, 1000ms)", "2200 position(item1#1, 2000ms)",
        "3200 position(item1#1, 3000ms)", "3200 position(item2#2, 1000ms)",
        "4200 ended(item1#1)", "4200 position(item1#1, 3500ms)",
        "4200 position(item2#2, 2000ms)", "5200 position(item2#2, 3000ms)",
      ])
  }

  @Test(arguments: [
    (
      "engine preload=yes\ncrossfade -1s",
      "t.play:3:11: error: negative crossfade '-1s'; expected a crossfade length such as 3s or 500ms, or 'off' (0ms is off too)"
    ),
    (
      "engine preload=yes\ncrossfade x",
      "t.play:3:11: error: bad crossfade 'x'; expected a crossfade length such as 3s or 500ms, or 'off' (0ms is off too)"
    ),
    (
      "engine preload=yes\ncrossfade 3",
      "t.play:3:11: error: bad crossfade '3'; expected a crossfade length such as 3s or 500ms, or 'off' (0ms is off too)"
    ),
    (
      "engine preload=yes\ncrossfade",
      "t.play:3:10: error: found end of line; expected a crossfade length such as 3s or 500ms, or 'off' (0ms is off too)"
    ),
    (
      "engine preload=yes\ncrossfade 2000000s",
      "t.play:3:11: error: crossfade '2000000s' too large; expected at most 1000000s"
    ),
    (
      "engine preload=yes\ncrossfade 3s on",
      "t.play:3:14: error: unexpected 'on' after 'crossfade'; expected end of line (a comment starts with ' #')"
    ),
    // An engine that cannot preload: the default, or said so. The first line asking for a
    // crossfade is named, wherever the engine line is.
    (
      "crossfade 3s",
      "t.play:2:1: error: crossfade '3s' on an engine that cannot preload; expected 'engine preload=yes' before the first intent, wait, report or system event (a crossfade plays the preloaded next entry beside the current one)"
    ),
    (
      "engine preload=no\nplay A\ncrossfade off\n  crossfade 2s\ncrossfade 3s",
      "t.play:5:3: error: crossfade '2s' on an engine that cannot preload; expected 'engine preload=yes' before the first intent, wait, report or system event (a crossfade plays the preloaded next entry beside the current one)"
    ),
    (
      "expect state playing(A#1, crossfade from)",
      "t.play:2:41: error: bad load ''; expected MEDIA#TOKEN, such as A#1"
    ),
    (
      "expect state playing(A#1, crossfade from A#1, seek#2)",
      "t.play:2:47: error: 'seek#2' after the crossfade's outgoing load; expected ')': the crossfade's outgoing load comes last"
    ),
    (
      "expect state playing(A#1, preloaded A#2, crossfade from A#1)",
      "t.play:2:42: error: 'crossfadefromA#1' after the preload; expected ')': the preload comes last"
    ),
    (
      "expect state idle(crossfade from A#1)",
      "t.play:2:18: error: details for 'idle'; expected 'idle' alone, or idle(fading out A#1) while a stopped load fades out"
    ),
  ])
  func badLinesSayWhereAndWhat(_ script: String, _ expected: String) {
    #expect(message("media A\n\(script)") == expected)
  }

  /// A crossfade through the real driver at a user's volume of 0.5: B is started beside A and
  /// ramps to 0.5 while A ramps to 0, with A's timer; A's reports during the fade are stale;
  /// A's own end stops it once and C is preloaded in that step (at 0.5), and the timer that
  /// follows names a stopped load. Each JSON row's `volume` is the effective volume, 0.5.
  @Test func theTimelineOfACrossfade() throws {
    let result = try run(Self.setup + "queue A B C\nvolume 0.5\nwait 10300ms\n")
    #expect(
      result.entries.map(\.description).suffix(8) == [
        "7.200s engine position(A#1, 7000ms): playing(A#1, preloaded B#2) -> playing(B#2, crossfade from A#1) [setVolume(B#2, 0) start(B#2) setVolume(B#2, 0.5, ramp 3000ms) setVolume(A#1, 0, ramp 3000ms)] +fadeOut(A#1, watchdog#2, 3000ms)",
        "8.200s engine position(A#1, 8000ms): playing(B#2, crossfade from A#1) -> playing(B#2, crossfade from A#1) (ignored: stale load token)",
        "8.200s engine position(B#2, 1000ms): playing(B#2, crossfade from A#1) -> playing(B#2, crossfade from A#1)",
        "9.200s engine position(A#1, 9000ms): playing(B#2, crossfade from A#1) -> playing(B#2, crossfade from A#1) (ignored: stale load token)",
        "9.200s engine position(B#2, 2000ms): playing(B#2, crossfade from A#1) -> playing(B#2, crossfade from A#1)",
        "10.200s engine ended(A#1): playing(B#2, crossfade from A#1) -> playing(B#2, preloading C#3) [stop(A#1) preload(C#3) setVolume(C#3, 0.5)]",
        "10.200s timer timeout(A#1, watchdog#2): playing(B#2, preloading C#3) -> playing(B#2, preloading C#3) (ignored: stale load token)",
        "10.200s engine position(B#2, 3000ms): playing(B#2, preloading C#3) -> playing(B#2, preloading C#3)",
      ])
    let start = result.entries[result.entries.count - 8]
    #expect(
      start.json.contains(
        #""after":"playing(B#2, crossfade from A#1)","commands":["setVolume(B#2, 0)","start(B#2)","setVolume(B#2, 0.5, ramp 3000ms)","setVolume(A#1, 0, ramp 3000ms)"],"ignored":null,"backoff":"fadeOut(A#1, watchdog#2, 3000ms)""#
      ))
    #expect(
      start.json.contains(
        #""notifications":[{"kind":"entryChanged","from":"A","to":"B","reason":"auto"}]"#))
    #expect(result.entries.suffix(8).map(\.json).map(volume) == Array(repeating: 0.5, count: 8))
    // Exactly one stop of A, and no load beside A and B until A is stopped.
    let commands = result.commands.map(\.description)
    #expect(commands.filter { $0 == "stop(item1#1)" }.count == 1)
  }

  /// The `volume` key of a JSON row.
  private func volume(_ json: String) -> Double? {
    let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
    return (object?["volume"] as? NSNumber)?.doubleValue
  }

  /// A `crossfade` line after the run starts applies from the next position report: set
  /// while A plays, A crossfades into B; `crossfade off` while B plays, B ends gaplessly.
  @Test func crossfadeChangesTheRunningPlayer() throws {
    _ = try run(
      """
      engine preload=yes
      media A duration=10s position-every=1s report-duration=yes
      media B duration=10s position-every=1s report-duration=yes
      media C duration=10s position-every=1s report-duration=yes
      queue A B C
      wait 400ms
      crossfade 3s
      wait 6800ms
      expect state playing(B#2, crossfade from A#1)
      expect commands load(A#1) start(A#1) preload(B#2) setVolume(B#2, 0) start(B#2) setVolume(B#2, 1, ramp 3000ms) setVolume(A#1, 0, ramp 3000ms)
      crossfade off                          # the fade under way ends as it began
      wait 3s
      expect state playing(B#2, preloading C#3)
      expect commands stop(A#1) preload(C#3)
      wait 7s                                # 17.2s: B ends: the gapless advance
      expect state playing(C#3)
      expect commands stop(B#2) start(C#3)
      """)
  }

  /// The new scenarios are there (and run, with the others, in ``ScenarioFilesTests``).
  @Test func theExamplesAreThere() {
    for name in [
      "crossfade-advance.play", "crossfade-late-ended.play", "crossfade-skip-during-fade.play",
      "crossfade-pause-during-fade.play", "crossfade-short-entry.play",
      "crossfade-repeat-one.play", "crossfade-stall-of-incoming.play", "crossfade-duck.play",
      "crossfade-timer-stops-outgoing.play",
    ] {
      #expect(ScenarioFilesTests.scripts.contains(name), "missing \(name)")
    }
  }
}
