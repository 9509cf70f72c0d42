import PlayerEngine
import PlayerSimulation
import PlayerState
import PlayerTesting
import Testing

@Suite struct FakeMediaEngineTests {
  /// Runs a script and returns its timeline in the compact `description` form.
  private func timeline(_ script: String, seed: UInt64? = nil) throws -> [String] {
    let scenario = try ScenarioParser.parse(script, file: "t.play")
    let result = ScenarioRunner(seed: seed).run(scenario)
    #expect(result.failure == nil)
    return result.entries.map(\.description)
  }

  @Test func defaultsReadyAfter200msAndEndAfter10s() throws {
    #expect(
      try timeline("media A\nplay A\nwait 11s\n") == [
        "0.000s user play(A): idle -> buffering(A#1, autoplay) [load(A#1)]",
        "0.200s engine ready(A#1): buffering(A#1, autoplay) -> playing(A#1) [start(A#1)]",
        "5.000s timer timeout(A#1, watchdog#1): playing(A#1) -> playing(A#1) (ignored: stale watchdog)",
        "10.200s engine ended(A#1): playing(A#1) -> ended(A#1, autoplay)",
      ])
  }

  @Test func pauseFreezesThePositionAndResumeContinues() throws {
    let script = """
      media A ready-after=100ms duration=1s
      watchdog off
      play A
      wait 600ms
      pause
      wait 5s
      resume
      wait 600ms
      """
    // 500 ms played before the pause, 500 ms after the resume at 5.6 s.
    #expect(
      try timeline(script).suffix(2) == [
        "5.600s user resume: paused(A#1) -> playing(A#1) [start(A#1)]",
        "6.100s engine ended(A#1): playing(A#1) -> ended(A#1, autoplay)",
      ])
  }

  @Test func wellBehavedEngineSendsNothingAfterStop() throws {
    let script =
      "media A ready-after=300ms fail-after=1s\nwatchdog off\nplay A\nwait 100ms\nstop\nwait 5s\n"
    #expect(
      try timeline(script) == [
        "0.000s user play(A): idle -> buffering(A#1, autoplay) [load(A#1)]",
        "0.100s user stop: buffering(A#1, autoplay) -> idle [stop(A#1)]",
      ])
  }

  @Test func hostileEngineDeliversStoppedLoadsCallbacksLate() throws {
    let script = """
      media A ready-after=300ms fail-after=1s
      watchdog off
      hostile on duplicate=0% reentrant=0%
      play A
      wait 100ms
      stop
      wait 5s
      """
    #expect(
      try timeline(script).suffix(2) == [
        "0.300s engine ready(A#1): idle -> idle (ignored: stale load token)",
        "1.000s engine failed(A#1, network): idle -> idle (ignored: stale load token)",
      ])
  }

  @Test func hostileRunsAreReproducibleFromTheSeed() throws {
    let script = """
      media A ready-after=150ms
      media B ready-after=100ms stall-at=300ms stall-for=100ms
      hostile on seed=5
      play A
      wait 50ms
      play B
      seek 1s
      wait 120ms
      play A
      wait 2s
      """
    let first = try timeline(script)
    #expect(try timeline(script) == first)
    #expect(try timeline(script, seed: 5) == first)
    #expect(try timeline(script, seed: 6) != first)
  }

  @Test func hostileDuplicatesEveryReportAtOneHundredPercent() throws {
    let script = "media A\nwatchdog off\nhostile on duplicate=100% reentrant=0%\nplay A\nwait 1s\n"
    let events = try timeline(script).map {
      $0.split(separator: " ").prefix(3).joined(separator: " ")
    }
    #expect(events == ["0.000s user play(A):", "0.200s engine ready(A#1):", events[2]])
    #expect(events[2].hasSuffix("engine ready(A#1):"))
  }

  @Test func scriptInjectedReportsAreTaggedScript() throws {
    let scenario = try ScenarioParser.parse("media A\nplay A\nreport ready A#1\n", file: "t")
    let result = ScenarioRunner().run(scenario)
    #expect(result.entries.map(\.source) == [.user, .script])
    #expect(
      result.commands == [.load(LoadRequest(load: Load(1, 1), media: "A")), .start(Load(1, 1))])
  }

  @Test func aFailedExpectStopsTheRunThere() throws {
    let scenario = try ScenarioParser.parse("media A\nplay A\nexpect state idle\nstop\n", file: "t")
    let result = ScenarioRunner().run(scenario)
    #expect(
      result.failure
        == ExpectationFailure(
          file: "t", line: 3, column: 1, expected: "state idle",
          found: "state buffering(A#1, autoplay)"))
    #expect(result.finalState.description == "buffering(A#1, autoplay)")
  }

  @Test func usableDirectlyWithThePlayer() {
    let clock = VirtualClock()
    let engine = FakeMediaEngine(
      clock: clock, profiles: ["A": MediaProfile(readyAfter: .milliseconds(50))])
    let player = Player(engine: engine)
    player.send(.play("A"))
    clock.advance(by: .milliseconds(49))
    #expect(player.state.description == "buffering(A#1, autoplay)")
    clock.advance(by: .milliseconds(1))
    #expect(player.state.description == "playing(A#1)")
    #expect(
      engine.commands == [.load(LoadRequest(load: Load(1, 1), media: "A")), .start(Load(1, 1))])
    #expect(engine.capabilities == [.volumeRamp])
    #expect(
      FakeMediaEngine(clock: clock, preload: true).capabilities == [.volumeRamp, .preload])
  }

  @Test func gaplessAdvanceStartsThePreloadWithNoNewLoad() throws {
    let script = """
      engine preload=yes
      media A duration=1s
      media B duration=1s ready-after=100ms
      watchdog off
      queue A B
      wait 2500ms
      """
    #expect(
      try timeline(script) == [
        "0.000s user queue(A B): idle -> buffering(A#1, autoplay) [load(A#1)]",
        "0.200s engine ready(A#1): buffering(A#1, autoplay) -> playing(A#1, preloading B#2) [start(A#1) preload(B#2)]",
        "0.300s engine ready(B#2): playing(A#1, preloading B#2) -> playing(A#1, preloaded B#2)",
        "1.200s engine ended(A#1): playing(A#1, preloaded B#2) -> playing(B#2) [stop(A#1) start(B#2)]",
        "2.200s engine ended(B#2): playing(B#2) -> ended(B#2, autoplay)",
      ])
  }

  @Test func positionsFromTheStartPositionAtTheInterval() throws {
    let script = """
      media A duration=3s position-every=400ms report-duration=yes
      watchdog off
      play A from=2s
      wait 2s
      """
    #expect(
      try timeline(script) == [
        "0.000s user play(A, from 2000ms): idle -> buffering(A#1, autoplay) [load(A#1, from 2000ms)]",
        "0.200s engine ready(A#1, duration 3000ms): buffering(A#1, autoplay) -> playing(A#1) [start(A#1)]",
        "0.600s engine position(A#1, 2400ms): playing(A#1) -> playing(A#1)",
        "1.000s engine position(A#1, 2800ms): playing(A#1) -> playing(A#1)",
        "1.200s engine ended(A#1): playing(A#1) -> ended(A#1, autoplay)",
      ])
  }

  @Test func theRatePacesPlayback() throws {
    let script = """
      media A duration=3s
      watchdog off
      play A
      wait 200ms
      rate 1.5
      wait 3s
      """
    // 3 s of media at 1.5x take 2 s.
    #expect(
      try timeline(script).suffix(2) == [
        "0.200s user rate(1.5x): playing(A#1) -> playing(A#1) [rate(A#1, 1.5x)]",
        "2.200s engine ended(A#1): playing(A#1) -> ended(A#1, autoplay)",
      ])
  }

  @Test func loadNamesResolveToLiveLoadsOrToPhantomItems() throws {
    let script = """
      media A
      media B
      queue A B
      report ready B#1
      report ready A#7
      report ready A#1
      remove 1
      report stalled A#1
      expect ignored itemMismatch neverIssuedLoad staleLoad
      """
    let scenario = try ScenarioParser.parse(script, file: "t.play")
    let result = ScenarioRunner().run(scenario)
    #expect(result.failure == nil)
    #expect(
      result.entries.map(\.description) == [
        "0.000s user queue(A B): idle -> buffering(A#1, autoplay) [load(A#1)]",
        "0.000s script ready(B#1): buffering(A#1, autoplay) -> buffering(A#1, autoplay) (ignored: item does not match the token)",
        "0.000s script ready(A#7): buffering(A#1, autoplay) -> buffering(A#1, autoplay) (ignored: load token never issued)",
        "0.000s script ready(A#1): buffering(A#1, autoplay) -> playing(A#1) [start(A#1)]",
        "0.000s user remove(1): playing(A#1) -> buffering(B#2, autoplay) [stop(A#1) load(B#2)]",
        "0.000s script stalled(A#1): buffering(B#2, autoplay) -> buffering(B#2, autoplay) (ignored: stale load token)",
      ])
    // A phantom item counts down from the last id, so it is no issued item.
    #expect(result.entries[1].event == .ready(Load(item: ItemID(UInt32.max), token: LoadToken(1))))
    #expect(
      result.entries[2].event == .ready(Load(item: ItemID(UInt32.max - 1), token: LoadToken(7))))
    #expect(result.entries[3].event == .ready(Load(1, 1)))
  }

  @Test func expectIgnoredCountsRefusedIntentsButNotNoEffect() throws {
    let script = """
      media A
      pause
      play A
      jump 5
      rate 0
      move 1 to=1
      expect ignored invalidPosition invalidArgument
      """
    let scenario = try ScenarioParser.parse(script, file: "t.play")
    #expect(ScenarioRunner().run(scenario).failure == nil)
  }

  @Test func expectQueueComparesThePrintedQueue() throws {
    let scenario = try ScenarioParser.parse(
      "media A\nmedia B\nexpect queue none\nqueue A B start=2\nexpect queue A* B\n", file: "t")
    #expect(
      ScenarioRunner().run(scenario).failure
        == ExpectationFailure(
          file: "t", line: 5, column: 1, expected: "queue A* B", found: "queue A B*"))
  }

  @Test func aRunThatNeverSettlesStopsAtTheEventLimit() throws {
    let script = """
      media A duration=0ms ready-after=0ms
      watchdog off
      queue A A
      repeat all
      wait 1s
      expect state idle
      """
    var runner = ScenarioRunner()
    runner.eventLimit = 50
    let result = runner.run(try ScenarioParser.parse(script, file: "loop.play"))
    let failure = try #require(result.failure)
    #expect(failure.isRunLimit)
    #expect(failure.line == 5)
    #expect(
      failure.description
        == "loop.play:5:1: run limit hit: expected at most 50 events in a run; found 50 events by 0.000s (the run was stopped; does it end or repeat forever?)"
    )
    #expect(failure.json.hasPrefix(#"{"run_limit":{"file":"loop.play","line":5,"column":1,"#))
    #expect(ScenarioRunner.defaultEventLimit == 1_000_000)
  }

  @Test func previousThresholdSetupLineReachesTheMachine() throws {
    let script = """
      previous-threshold 10s
      media A position-every=1s
      media B position-every=1s
      queue A B start=2
      wait 5200ms
      previous
      expect state buffering(A#2, autoplay)
      """
    let scenario = try ScenarioParser.parse(script, file: "t.play")
    #expect(ScenarioRunner().run(scenario).failure == nil)
  }

  @Test func randomQueueScriptsRunWithoutTrappingAndKeepTheInvariants() throws {
    let header = """
      engine preload=yes
      media A duration=300ms ready-after=50ms position-every=100ms
      media B duration=1s stall-at=200ms stall-for=100ms
      media C fail-after=150ms
      hostile on seed=3

      """
    let lines = [
      "queue A B C", "queue C B A start=3 from=100ms", "queue A paused", "append A B",
      "insert C at=1",
      "insert A at=4294967295", "remove 1", "remove 3", "move 1 to=3", "move 3 to=1", "jump 2",
      "jump 1 from=2m", "next", "previous", "repeat one", "repeat all", "repeat off",
      "shuffle on seed=5", "shuffle off", "rate 2", "rate 0.001", "rate 0", "clear", "play B",
      "pause", "resume", "stop", "seek 150ms", "retry", "wait 100ms", "wait 400ms",
      "report ready A#2", "report ended B#3", "report position C#1 1s", "report failed A#9",
    ]
    var random = SplitMix64(seed: 11)
    var runner = ScenarioRunner()
    runner.eventLimit = 20_000
    for _ in 0..<150 {
      let body = (0..<25).map { _ in lines[Int.random(in: 0..<lines.count, using: &random)] }
      let scenario = try ScenarioParser.parse(header + body.joined(separator: "\n"), file: "r")
      let result = runner.run(scenario)
      #expect(result.failure == nil)
      for entry in result.entries {
        #expect(entry.after.invariantViolation == nil, "\(entry)")
      }
    }
  }
}
