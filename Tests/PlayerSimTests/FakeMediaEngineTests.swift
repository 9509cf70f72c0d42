import PlayerEngine
import PlayerSimulation
import PlayerState
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
    #expect(result.commands == [.load(Load("A", 1)), .start(Load("A", 1))])
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
    #expect(engine.commands == [.load(Load("A", 1)), .start(Load("A", 1))])
  }
}
