import Foundation
import PlayerEngine
import PlayerSimulation
import PlayerState
import Testing

/// Issue 37 in scripts: the `volume`, `mute`, `unmute`, `duck` and `unduck`
/// lines, the `ducking` setup line, `expect volume`, the `setVolume` commands
/// in `expect commands` and in the timeline, the `volume` key of `--json`
/// rows, and the fake engine's volume per load.
@Suite struct VolumeScenarioTests: ParsesScenarios {
  private func run(_ script: String) throws -> ScenarioResult {
    let result = ScenarioRunner().run(try ScenarioParser.parse(script, file: "t.play"))
    #expect(result.failure == nil, "\(result.failure.map(String.init(describing:)) ?? "")")
    return result
  }

  @Test func everyVolumeSpellingParses() throws {
    let actions = try parse(
      """
      ducking 0.3
      media A
      volume 0.5
      volume 1
      volume 0
      volume 0.25
      volume 0.125
      volume 1.0
      volume 0.50
      mute
      unmute
      duck
      unduck
      remote volume 0.3
      remote mute
      remote unmute
      expect volume 0.16
      expect volume 1
      expect ignored notDucked invalidArgument
      expect commands setVolume(A#1, 0.5) setVolume(A#1, 0.50, ramp 0.2s) setVolume(A#1,1,ramp 0ms)
      """)
    #expect(
      actions == [
        .ducking(.lower(to: Volume(thousandths: 300))),
        .media("A", MediaProfile()),
        .intent(.setVolume(Volume(thousandths: 500))),
        .intent(.setVolume(Volume(thousandths: 1000))),
        .intent(.setVolume(Volume(thousandths: 0))),
        .intent(.setVolume(Volume(thousandths: 250))),
        .intent(.setVolume(Volume(thousandths: 125))),
        .intent(.setVolume(Volume(thousandths: 1000))),
        .intent(.setVolume(Volume(thousandths: 500))),
        .intent(.setMuted(true)),
        .intent(.setMuted(false)),
        .system(.duckBegan),
        .system(.duckEnded),
        .remote(.setVolume(Volume(thousandths: 300))),
        .remote(.setMuted(true)),
        .remote(.setMuted(false)),
        .expectVolume(Volume(thousandths: 160)),
        .expectVolume(.full),
        .expectIgnored([.notDucked, .invalidArgument]),
        .expectCommands([
          ScenarioCommand("setVolume(A#1, 0.5)"),
          ScenarioCommand("setVolume(A#1, 0.5, ramp 200ms)"),
          ScenarioCommand("setVolume(A#1, 1)"),
        ]),
      ])
    #expect(try parse("ducking pause") == [.ducking(.pause)])
    #expect(try parse("ducking 0") == [.ducking(.lower(to: .silent))])
    #expect(try parse("ducking 1") == [.ducking(.lower(to: .full))])
  }

  /// A duck under `ducking pause` holds a load as an interruption does, and
  /// the state shows `ducked` where it would show `interrupted`.
  @Test func duckedStateFormsParse() throws {
    let actions = try parse(
      """
      media A
      expect state suppressed(A#1, ducked)
      expect state paused(A#1, ducked)
      expect state buffering(A#1, autoplay, ducked)
      wait until stalled(A#1, paused, ducked)
      """)
    #expect(
      Array(actions.dropFirst()) == [
        .expectState(.exactly("suppressed(A#1, ducked)")),
        .expectState(.exactly("paused(A#1, ducked)")),
        .expectState(.exactly("buffering(A#1, autoplay, ducked)")),
        .waitUntil(.exactly("stalled(A#1, paused, ducked)"), within: .seconds(60)),
      ])
    #expect(
      message("media A\nexpect state playing(A#1, ducked)")
        == "t.play:2:27: error: 'ducked' in a playing state; expected seek#N (a pending seek), sleep TIMER (the armed sleep timer), preloading P, preloaded P, preload failed P, preload live P, crossfade from L or ')'"
    )
    #expect(
      message("media A\nexpect state suppressed(A#1, muted)")
        == "t.play:2:30: error: 'muted' in a suppressed state; expected 'interrupted', 'ducked' or 'system pause'"
    )
  }

  /// A number outside 0…1 is the machine's to refuse (`invalidArgument`), as
  /// an app passing a slider's value through would see; the parser reads it as written.
  @Test func outOfRangeVolumesParseAsWritten() throws {
    #expect(try parse("volume 1.5") == [.intent(.setVolume(Volume(thousandths: 1500)))])
    #expect(try parse("volume -0.5") == [.intent(.setVolume(Volume(thousandths: -500)))])
    #expect(try parse("volume 1.001") == [.intent(.setVolume(Volume(thousandths: 1001)))])
    // Past what a Volume holds, saturated: refused all the same.
    #expect(
      try parse("volume 99999999999999999999")
        == [.intent(.setVolume(Volume(thousandths: Int32.max)))])
    #expect(
      try parse("volume -99999999999999999999")
        == [.intent(.setVolume(Volume(thousandths: -Int32.max)))])
  }

  @Test(arguments: [
    (
      "volume",
      "t.play:2:7: error: found end of line; expected a volume from 0 to 1, such as 0.5"
    ),
    (
      "volume loud",
      "t.play:2:8: error: bad volume 'loud'; expected a volume such as 0.5, 1 or 0.25 (a number with at most three decimals; 0 to 1 is in range)"
    ),
    (
      "volume 0.1234",
      "t.play:2:8: error: bad volume '0.1234'; expected a volume such as 0.5, 1 or 0.25 (a number with at most three decimals; 0 to 1 is in range)"
    ),
    (
      "volume 0.5.1",
      "t.play:2:8: error: bad volume '0.5.1'; expected a volume such as 0.5, 1 or 0.25 (a number with at most three decimals; 0 to 1 is in range)"
    ),
    (
      "volume 50%",
      "t.play:2:8: error: bad volume '50%'; expected a volume such as 0.5, 1 or 0.25 (a number with at most three decimals; 0 to 1 is in range)"
    ),
    (
      "volume .5",
      "t.play:2:8: error: bad volume '.5'; expected a volume such as 0.5, 1 or 0.25 (a number with at most three decimals; 0 to 1 is in range)"
    ),
    (
      "volume 1.",
      "t.play:2:8: error: bad volume '1.'; expected a volume such as 0.5, 1 or 0.25 (a number with at most three decimals; 0 to 1 is in range)"
    ),
    (
      "volume -",
      "t.play:2:8: error: bad volume '-'; expected a volume such as 0.5, 1 or 0.25 (a number with at most three decimals; 0 to 1 is in range)"
    ),
    (
      "volume 0.5 now",
      "t.play:2:12: error: unexpected 'now' after 'volume'; expected end of line (a comment starts with ' #')"
    ),
    (
      "mute 0.5",
      "t.play:2:6: error: unexpected '0.5' after 'mute'; expected end of line (a comment starts with ' #')"
    ),
    (
      "unmute all",
      "t.play:2:8: error: unexpected 'all' after 'unmute'; expected end of line (a comment starts with ' #')"
    ),
    (
      "duck 0.2",
      "t.play:2:6: error: unexpected '0.2' after 'duck'; expected end of line (a comment starts with ' #')"
    ),
    (
      "unduck now",
      "t.play:2:8: error: unexpected 'now' after 'unduck'; expected end of line (a comment starts with ' #')"
    ),
    (
      "remote duck",
      "t.play:2:8: error: found 'duck' after 'remote'; expected an intent after 'remote', as in 'remote toggle': one of play, queue, append, insert, remove, move, jump, next, previous, repeat, shuffle, rate, volume, mute, unmute, clear, pause, resume, stop, seek, retry, toggle, skip, set-position, go-live"
    ),
    (
      "ducking",
      "t.play:2:8: error: found end of line; expected a level from 0 to 1 such as 0.2 (a duck lowers the volume to it), or 'pause'"
    ),
    (
      "ducking 1.5",
      "t.play:2:9: error: ducking level '1.5' out of range; expected a level from 0 to 1 such as 0.2 (a duck lowers the volume to it), or 'pause'"
    ),
    (
      "ducking -0.2",
      "t.play:2:9: error: ducking level '-0.2' out of range; expected a level from 0 to 1 such as 0.2 (a duck lowers the volume to it), or 'pause'"
    ),
    (
      "ducking lower",
      "t.play:2:9: error: unknown ducking 'lower'; expected a level from 0 to 1 such as 0.2 (a duck lowers the volume to it), or 'pause'"
    ),
    (
      "ducking 0.2.1",
      "t.play:2:9: error: bad volume '0.2.1'; expected a volume such as 0.5, 1 or 0.25 (a number with at most three decimals; 0 to 1 is in range)"
    ),
    (
      "expect volume 2",
      "t.play:2:15: error: volume '2' out of range; expected an effective volume from 0 to 1 (no state has another)"
    ),
    (
      "expect volume",
      "t.play:2:14: error: found end of line; expected the effective volume, a number from 0 to 1 such as 0.5"
    ),
    (
      "expect commands setVolume(A#1)",
      "t.play:2:17: error: bad command 'setVolume(A#1)'; expected a command such as load(A#1), load(A#1, from 12s), load(A#1, at live edge), load(A#1, 30s behind live edge), preload(B#2), start(A#1), start(A#1, 1.5x), rate(A#1, 1.5x), pause(A#1), stop(A#1), seek(A#1, 2000ms, seek#1), setVolume(A#1, 0.5) or setVolume(A#1, 0.5, ramp 200ms)"
    ),
    (
      "expect commands setVolume(A#1, 0.5, 200ms)",
      "t.play:2:17: error: bad command 'setVolume(A#1, 0.5, 200ms)'; expected a command such as load(A#1), load(A#1, from 12s), load(A#1, at live edge), load(A#1, 30s behind live edge), preload(B#2), start(A#1), start(A#1, 1.5x), rate(A#1, 1.5x), pause(A#1), stop(A#1), seek(A#1, 2000ms, seek#1), setVolume(A#1, 0.5) or setVolume(A#1, 0.5, ramp 200ms)"
    ),
    (
      "expect commands setVolume(A#1, half)",
      "t.play:2:17: error: bad volume 'half'; expected a volume such as 0.5, 1 or 0.25 (a number with at most three decimals; 0 to 1 is in range)"
    ),
    (
      "expect ignored notducked",
      "t.play:2:16: error: unknown ignore reason 'notducked'; expected one of neverIssuedLoad, staleLoad, itemMismatch, neverIssuedSeek, supersededSeek, staleWatchdog, seekPending, unexpected, idsExhausted, invalidPosition, invalidArgument, notInterrupted, notCurrentEntry, notDucked, notSeekable, notLive, liveStream, or 'none'"
    ),
  ])
  func badLinesSayWhereAndWhat(_ line: String, _ expected: String) {
    #expect(message("media A\n\(line)") == expected)
  }

  /// A `ducking` line after the run starts changes the running player's policy.
  @Test func duckingChangesTheRunningPlayer() throws {
    let result = ScenarioRunner().run(
      try ScenarioParser.parse(
        """
        media A duration=1m
        play A
        wait 300ms
        ducking pause
        duck
        expect state suppressed(A#1, ducked)
        unduck
        ducking 0.5
        duck
        expect volume 0.5
        """, file: "t.play"))
    #expect(result.failure == nil, "\(result.failure.map(String.init(describing:)) ?? "")")
  }

  /// The `volume` key of a JSON row, as a JSON decoder reads it: a number, never a string.
  private func volume(_ json: String) throws -> Double? {
    let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
    guard let value = object?["volume"], !(value is String) else { return nil }
    return (value as? NSNumber)?.doubleValue
  }

  @Test func jsonRowsCarryTheEffectiveVolume() throws {
    let result = try run(
      """
      ducking 0.25
      media A ready-after=100ms
      play A
      wait 100ms
      volume 0.5
      duck
      mute
      unmute
      unduck
      volume 2
      """)
    #expect(
      try result.entries.map { try volume($0.json) }
        == [1, 1, 0.5, 0.125, 0, 0.125, 0.5, 0.5])
    // Written as the machine's thousandths, without trailing zeros, last in the row.
    #expect(
      result.entries.map { $0.json.components(separatedBy: #""volume":"#).last ?? "" } == [
        "1}", "1}", "0.5}", "0.125}", "0}", "0.125}", "0.5}", "0.5}",
      ])
    #expect(
      result.entries[2].json
        == #"{"t_ms":100,"source":"user","event":"volume(0.5)","before":"playing(A#1)","after":"playing(A#1)","commands":["setVolume(A#1, 0.5)"],"ignored":null,"backoff":null,"failure":null,"notifications":[],"now_playing":{"media":"A","elapsed_ms":0,"rate":1,"duration_ms":null,"index":1,"count":1,"is_live":false,"window_ms":null},"available":["pause","previous","seek","skip","stop","toggle"],"player":1,"sleep":null,"volume":0.5}"#
    )
    #expect(result.entries.last?.ignored == .invalidArgument)
  }

  @Test func commandsPrintAsTheMachineDescribesThem() throws {
    let result = try run(
      """
      media A ready-after=100ms
      play A
      wait 100ms
      volume 0.5
      duck
      """)
    #expect(
      result.entries.suffix(2).map(\.description) == [
        "0.100s user volume(0.5): playing(A#1) -> playing(A#1) [setVolume(A#1, 0.5)]",
        "0.100s system duck(began): playing(A#1) -> playing(A#1) [setVolume(A#1, 0.1)]",
      ])
    #expect(result.entries.suffix(2).map(\.source) == [.user, .system])
    // A ramp prints to the millisecond; `expect commands` takes it in any unit.
    let ramped = EngineCommand.setVolume(Load(1, 1), 0.5, ramp: .milliseconds(200))
    #expect(ramped.description(naming: { _ in "A" }) == "setVolume(A#1, 0.5, ramp 200ms)")
    #expect(
      try parse("media A\nexpect commands setVolume(A#1, 0.500, ramp 0.2s) setVolume(A#1, 0.25)")
        .last
        == .expectCommands([
          ScenarioCommand("setVolume(A#1, 0.5, ramp 200ms)"),
          ScenarioCommand("setVolume(A#1, 0.25)"),
        ]))
  }

  @Test func theFakeEngineKeepsEachLoadsVolume() {
    let clock = VirtualClock()
    let engine = FakeMediaEngine(
      clock: clock, profiles: ["A": MediaProfile(readyAfter: .milliseconds(50))])
    let player = Player(engine: engine)
    player.send(.play("A"))
    clock.advance(by: .milliseconds(50))
    // A new load starts at full volume.
    #expect(engine.volume(of: Load(1, 1)) == .full)
    player.send(.setVolume(0.5))
    #expect(engine.volume(of: Load(1, 1)) == Volume(thousandths: 500))
    player.send(.mute)
    #expect(engine.volume(of: Load(1, 1)) == .silent)
    // No report follows a setVolume: the state is as before, and nothing is planned for it.
    #expect(player.state.description == "playing(A#1)")
    player.send(.user(.stop))
    // A well-behaved engine forgets a stopped load, its volume with it.
    #expect(engine.volume(of: Load(1, 1)) == nil)
    #expect(engine.volume(of: Load(1, 9)) == nil)
  }

  /// The new scenarios are there (and run, with the others, in ``ScenarioFilesTests``).
  @Test func theExamplesAreThere() {
    for name in [
      "duck-volume-change-restored.play", "mute-across-skip.play",
      "duck-pause-beside-interruption.play",
    ] {
      #expect(ScenarioFilesTests.scripts.contains(name), "missing \(name)")
    }
  }

  @Test func theCLIPrintsVolumeRowsAndRefusesBadLines() throws {
    let script = "media A ready-after=100ms\nplay A\nwait 100ms\nvolume 0.5\nexpect volume 0.5\n"
    let json = try CLI.run(["run", "--json", "--quiet", "-"], input: script)
    #expect(json.status == 0)
    #expect(json.lines.count == 4)
    #expect(
      json.lines[2].hasSuffix(
        #""commands":["setVolume(A#1, 0.5)"],"ignored":null,"backoff":null,"failure":null,"notifications":[],"now_playing":{"media":"A","elapsed_ms":0,"rate":1,"duration_ms":null,"index":1,"count":1,"is_live":false,"window_ms":null},"available":["pause","previous","seek","skip","stop","toggle"],"player":1,"sleep":null,"volume":0.5}"#
      ))
    let table = try CLI.run(["run", "--quiet", "-"], input: script)
    #expect(table.status == 0)
    #expect(table.stdout.contains("volume(0.5)"))
    #expect(table.stdout.contains("setVolume(A#1, 0.5)"))
    let bad = try CLI.run(["run", "-"], input: "media A\nvolume half\n")
    #expect(bad.status == 2)
    #expect(
      bad.stderr
        == "<stdin>:2:8: error: bad volume 'half'; expected a volume such as 0.5, 1 or 0.25 (a number with at most three decimals; 0 to 1 is in range)\n"
    )
    let failed = try CLI.run(["run", "-"], input: script + "expect volume 0.4\n")
    #expect(failed.status == 1)
    #expect(
      failed.stderr.contains(
        "<stdin>:6:1: expect failed: expected volume 0.4; found volume 0.5"))
  }

  /// A snapshot keeps the user's volume and mute, not the duck: the rows of a
  /// hand-off and a relaunch carry the new player's effective volume, and the
  /// load each new player opens gets it as its last command.
  @Test func aHandOffAndARelaunchKeepTheUsersVolumeNotTheDuck() throws {
    var changes: [PlayerChange] = []
    let scenario = try ScenarioParser.parse(
      """
      media A duration=1m
      play A
      wait 300ms
      volume 0.5
      duck
      expect volume 0.1
      handoff
      expect volume 0.5
      expect commands load(A#1) start(A#1) setVolume(A#1, 0.5) setVolume(A#1, 0.1) stop(A#1) load(A#1) setVolume(A#1, 0.5)
      unduck
      expect ignored notDucked
      mute
      relaunch
      expect volume 0
      resume
      expect commands setVolume(A#1, 0) load(A#1) setVolume(A#1, 0)
      """, file: "t.play")
    let result = ScenarioRunner().run(scenario) { item in
      if case .playerChange(let change) = item { changes.append(change) }
    }
    #expect(result.failure == nil, "\(result.failure.map(String.init(describing:)) ?? "")")
    #expect(
      changes.map(\.json).map { $0.components(separatedBy: #""sleep":null,"#).last ?? "" } == [
        #""volume":0.5,"dropped":[]}"#,
        #""volume":0,"dropped":[{"engine":2,"load":"A#1"}]}"#,
      ])
  }
}
