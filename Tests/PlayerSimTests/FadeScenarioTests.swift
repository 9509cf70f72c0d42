import Foundation
import PlayerEngine
import PlayerSimulation
import PlayerState
import Testing

/// Issue 37, item 2 in scripts: the `fade` setup line, `expect engine-volume`, the fading state forms, and the fake engine's
/// ramps on the virtual clock.
@Suite struct FadeScenarioTests: ParsesScenarios {
  private func run(_ script: String) throws -> ScenarioResult {
    let result = ScenarioRunner().run(try ScenarioParser.parse(script, file: "t.play"))
    #expect(result.failure == nil, "\(result.failure.map(String.init(describing:)) ?? "")")
    return result
  }

  @Test func everyFadeSpellingParses() throws {
    #expect(try parse("fade 200ms") == [.fade(.milliseconds(200))])
    #expect(try parse("fade 1.5s") == [.fade(.milliseconds(1500))])
    #expect(try parse("fade off") == [.fade(.zero)])
    #expect(try parse("fade 0ms") == [.fade(.zero)])
    let actions = try parse(
      """
      media A
      expect engine-volume A#1 0.5
      expect engine-volume A#1 0
      expect engine-volume A#12 none
      expect state paused(A#1, fading out)
      expect state paused(A#1,fading out, seek#2)
      expect state idle(fading out A#1)
      expect state idle(fadingout A#3)
      """)
    #expect(
      Array(actions.dropFirst()) == [
        .expectEngineVolume(LoadName("A", 1), Volume(thousandths: 500)),
        .expectEngineVolume(LoadName("A", 1), .silent),
        .expectEngineVolume(LoadName("A", 12), nil),
        .expectState(.exactly("paused(A#1, fading out)")),
        .expectState(.exactly("paused(A#1,fading out, seek#2)")),
        .expectState(.exactly("idle(fading out A#1)")),
        .expectState(.exactly("idle(fadingout A#3)")),
      ])
  }

  @Test(arguments: [
    (
      "fade -1ms",
      "t.play:2:6: error: negative fade '-1ms'; expected a fade length such as 200ms or 1.5s, or 'off' (0ms is off too)"
    ),
    (
      "fade x",
      "t.play:2:6: error: bad fade 'x'; expected a fade length such as 200ms or 1.5s, or 'off' (0ms is off too)"
    ),
    (
      "fade 200",
      "t.play:2:6: error: bad fade '200'; expected a fade length such as 200ms or 1.5s, or 'off' (0ms is off too)"
    ),
    (
      "fade",
      "t.play:2:5: error: found end of line; expected a fade length such as 200ms or 1.5s, or 'off' (0ms is off too)"
    ),
    (
      "fade 2000000s",
      "t.play:2:6: error: fade '2000000s' too large; expected at most 1000000s"
    ),
    (
      "fade 200ms on",
      "t.play:2:12: error: unexpected 'on' after 'fade'; expected end of line (a comment starts with ' #')"
    ),
    (
      "expect engine-volume A#1 1.5",
      "t.play:2:26: error: volume '1.5' out of range; expected a level from 0 to 1, or 'none' (the engine does not hold the load)"
    ),
    (
      "expect engine-volume A#1",
      "t.play:2:25: error: found end of line; expected the level the engine plays A#1 at now, a number from 0 to 1 such as 0.5, or 'none'"
    ),
    (
      "expect engine-volume 0.5",
      "t.play:2:22: error: bad load '0.5'; expected MEDIA#TOKEN, such as A#1"
    ),
    (
      "expect engine-volume B#1 1",
      "t.play:2:22: error: unknown media 'B'; expected a media declared above with 'media B'"
    ),
    (
      "expect state idle(A#1)",
      "t.play:2:18: error: details for 'idle'; expected 'idle' alone, or idle(fading out A#1) while a stopped load fades out"
    ),
    (
      "expect state idle(fading out)",
      "t.play:2:18: error: details for 'idle'; expected 'idle' alone, or idle(fading out A#1) while a stopped load fades out"
    ),
    (
      "expect state idle(fading out B#1)",
      "t.play:2:30: error: unknown media 'B'; expected a media declared above with 'media B'"
    ),
    (
      "expect state playing(A#1, fading out)",
      "t.play:2:27: error: 'fadingout' in a playing state; expected seek#N (a pending seek), sleep TIMER (the armed sleep timer), preloading P, preloaded P, preload failed P, preload live P, crossfade from L or ')'"
    ),
  ])
  func badLinesSayWhereAndWhat(_ line: String, _ expected: String) {
    #expect(message("media A\n\(line)") == expected)
  }

  /// A `fade` line after the run starts changes the running player's setting
  /// (`Player.reconfigure`): from the next pause on; `fade off` turns it off again.
  @Test func fadeChangesTheRunningPlayer() throws {
    _ = try run(
      """
      media A duration=1m
      play A
      wait 300ms
      pause
      expect commands load(A#1) start(A#1) pause(A#1)
      fade 200ms
      resume
      expect commands setVolume(A#1, 0) start(A#1) setVolume(A#1, 1, ramp 200ms)
      pause
      expect state paused(A#1, fading out)
      wait 300ms
      expect state paused(A#1)
      fade off
      resume
      pause
      expect commands setVolume(A#1, 0, ramp 200ms) pause(A#1) setVolume(A#1, 1) start(A#1) pause(A#1)
      """)
  }

  /// `fade off` and no line are the same player: a pause is a plain `pause`.
  @Test func fadeOffIsNoFade() throws {
    for setup in ["fade off\n", "fade 0ms\n", ""] {
      _ = try run(
        setup + """
          media A duration=1m
          play A
          wait 300ms
          pause
          expect state paused(A#1)
          expect commands load(A#1) start(A#1) pause(A#1)
          expect engine-volume A#1 1
          resume
          expect commands start(A#1)
          """)
    }
  }

  /// The fake engine's level moves in a straight line on the virtual clock, from where it is:
  /// a ramp during a ramp starts from the level reached, and a step ends a ramp.
  @Test func theFakeEngineRampsOnTheVirtualClock() {
    let clock = VirtualClock()
    let engine = FakeMediaEngine(clock: clock)
    let sink = ReportSink { _ in }
    let a = Load(1, 1)
    engine.execute(.load(LoadRequest(load: a, media: "A")), reports: sink)
    #expect(engine.volume(of: a) == .full)
    engine.execute(.setVolume(a, .silent, ramp: .milliseconds(200)), reports: sink)
    #expect(engine.volume(of: a) == .full)  // at the ramp's start
    var levels: [Int32] = []
    for _ in 0..<4 {
      clock.advance(by: .milliseconds(50))
      levels.append(engine.volume(of: a)?.thousandths ?? -1)
    }
    #expect(levels == [750, 500, 250, 0])
    clock.advance(by: .seconds(1))
    #expect(engine.volume(of: a) == .silent)  // stays at the target
    // Up to 0.8 over 400 ms, turned back after 100 ms (at 0.2) down to 0 over 100 ms.
    engine.execute(.setVolume(a, Volume(thousandths: 800), ramp: .milliseconds(400)), reports: sink)
    clock.advance(by: .milliseconds(100))
    #expect(engine.volume(of: a) == Volume(thousandths: 200))
    engine.execute(.setVolume(a, .silent, ramp: .milliseconds(100)), reports: sink)
    clock.advance(by: .milliseconds(30))
    #expect(engine.volume(of: a) == Volume(thousandths: 140))
    // A step ends the ramp at once.
    engine.execute(.setVolume(a, Volume(thousandths: 600)), reports: sink)
    #expect(engine.volume(of: a) == Volume(thousandths: 600))
    clock.advance(by: .milliseconds(70))
    #expect(engine.volume(of: a) == Volume(thousandths: 600))
    // Rounded to the nearest thousandth: 0.6 to 0.601 over 3 ms reads 0.6, 0.601, 0.601.
    engine.execute(.setVolume(a, Volume(thousandths: 601), ramp: .milliseconds(3)), reports: sink)
    var fine: [Int32] = []
    for _ in 0..<3 {
      clock.advance(by: .milliseconds(1))
      fine.append(engine.volume(of: a)?.thousandths ?? -1)
    }
    #expect(fine == [600, 601, 601])
    // A ramp plans nothing on the clock, and reports nothing.
    #expect(!engine.mayCallBack)
    engine.execute(.stop(a), reports: sink)
    #expect(engine.volume(of: a) == nil)
  }

  /// The player keeps the fade with the fake engine (it declares `.volumeRamp`); the
  /// timeline shows the fade's timer, and a JSON row's `volume` is the state's effective
  /// volume, which a fade does not change.
  @Test func theTimelineShowsTheFadeAndItsTimer() throws {
    let result = try run(
      """
      fade 200ms
      media A duration=1m
      play A
      wait 300ms
      volume 0.5
      pause
      wait 200ms
      """)
    #expect(result.entries.count == 5)
    #expect(
      result.entries.suffix(2).map(\.description) == [
        "0.300s user pause: playing(A#1) -> paused(A#1, fading out) [setVolume(A#1, 0, ramp 200ms)] +fadeOut(A#1, watchdog#2, 200ms)",
        "0.500s timer timeout(A#1, watchdog#2): paused(A#1, fading out) -> paused(A#1) [pause(A#1) setVolume(A#1, 0.5)]",
      ])
    #expect(
      result.entries[3].json.contains(
        #""ignored":null,"backoff":"fadeOut(A#1, watchdog#2, 200ms)","failure":null"#))
    #expect(result.entries.map(\.json).map(volume) == [1, 1, 0.5, 0.5, 0.5])
    #expect(result.finalState.configuration.fade == .milliseconds(200))
  }

  /// The `volume` key of a JSON row.
  private func volume(_ json: String) -> Double? {
    let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
    return (object?["volume"] as? NSNumber)?.doubleValue
  }

  /// A report about the load a stop is fading out names it (not a phantom): it is stale.
  /// After a `clear` the load still resolves by the media its `load` named, though the
  /// state's own description can no longer name it (`idle(fading out item1#1)`).
  @Test func aReportAboutTheLeavingLoadIsStale() throws {
    _ = try run(
      """
      fade 200ms
      media A duration=1m
      media B
      play A
      wait 300ms
      stop
      expect state idle(fading out A#1)
      report ready A#1
      expect ignored staleLoad
      clear                                  # the entry goes; the fade goes on
      expect state idle
      wait 100ms
      expect engine-volume A#1 0.5
      wait 100ms
      expect commands load(A#1) start(A#1) setVolume(A#1, 0, ramp 200ms) stop(A#1)
      expect engine-volume A#1 none
      """)
  }

  /// A fade end to end through the CLI: the table prints the ramp and the timer, a failed
  /// `expect engine-volume` says what was found, and a crossfade on an engine that cannot
  /// preload exits 2 (CrossfadeScenarioTests has the crossfade itself).
  @Test func theCLIRunsFadesAndRefusesCrossfade() throws {
    let script = "fade 200ms\nmedia A\nplay A\nwait 300ms\npause\nwait 50ms\n"
    let table = try CLI.run(["run", "--quiet", "-"], input: script)
    #expect(table.status == 0)
    #expect(table.stdout.contains("setVolume(A#1, 0, ramp 200ms) +fadeOut(A#1, watchdog#2, 200ms)"))
    let failed = try CLI.run(["run", "-"], input: script + "expect engine-volume A#1 0.5\n")
    #expect(failed.status == 1)
    #expect(
      failed.stderr.contains(
        "<stdin>:7:1: expect failed: expected engine-volume A#1 0.5; found engine-volume A#1 0.75"))
    let crossfade = try CLI.run(["run", "-"], input: "media A\ncrossfade 3s\n")
    #expect(crossfade.status == 2)
    #expect(
      crossfade.stderr
        == "<stdin>:2:1: error: crossfade '3s' on an engine that cannot preload; expected 'engine preload=yes' before the first intent, wait, report or system event (a crossfade plays the preloaded next entry beside the current one)\n"
    )
  }

  /// The new scenarios are there (and run, with the others, in ``ScenarioFilesTests``).
  @Test func theExamplesAreThere() {
    for name in [
      "pause-fade-then-resume.play", "stale-fade-expiry-after-resume.play",
      "stop-fade-then-play.play", "fade-into-sleep.play",
    ] {
      #expect(ScenarioFilesTests.scripts.contains(name), "missing \(name)")
    }
  }
}
