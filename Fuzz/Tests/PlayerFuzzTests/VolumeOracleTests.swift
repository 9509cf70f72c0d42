import PlayerEngine
import PlayerFuzz
import PlayerState
import Testing

/// Issue 37, item 4 (volume): the oracle's own volume rules with literal logs, the new
/// lines and engine-line field, the catalog's volume bugs, and Playhead's player on
/// hand-made cases.
@Suite struct VolumeOracleTests {
  static func run(
    _ events: [PlaybackEvent], canPreload: Bool = false,
    ducking: DuckPolicy = PlayerConfiguration().ducking
  ) -> (model: ContractModel, log: [String], reasons: [IgnoreReason?]) {
    var model = ContractModel(canPreload: canPreload, ducking: ducking)
    var commands: [EngineCommand] = []
    var reasons: [IgnoreReason?] = []
    for event in events { reasons.append(model.process(event, commands: &commands)) }
    return (model, commands.map(model.describe), reasons)
  }

  static func volume(_ thousandths: Int32) -> PlaybackEvent {
    .user(.setVolume(Volume(thousandths: thousandths)))
  }

  // MARK: The model, from the spec

  /// A load opened while the effective volume is not 1 ends its transition with its volume;
  /// a change reaches the live load; nothing is sent with no live load.
  @Test func aNewLoadIsGivenTheVolumeAndAChangeReachesIt() {
    let (model, log, reasons) = Self.run([
      Self.volume(500), .play("A"), .ready(Load(1, 1)), Self.volume(250), .stop, Self.volume(1000),
    ])
    #expect(
      log == [
        "load(A#1)", "setVolume(A#1, 0.5)", "start(A#1)", "setVolume(A#1, 0.25)", "stop(A#1)",
      ])
    #expect(reasons == [nil, nil, nil, nil, nil, nil])
    #expect(model.effectiveVolume == Volume(thousandths: 1000))
  }

  /// The duck lowers by its level, rounded half up to the thousandth (0.333 × 0.2 = 0.0666),
  /// a volume set during the duck is the one its end restores, and mute wins over both.
  @Test func aDuckLowersAndItsEndRestoresTheUsersVolume() {
    let (model, log, reasons) = Self.run([
      .play("A"), .ready(Load(1, 1)), Self.volume(333), .system(.duckBegan), Self.volume(500),
      .user(.setMuted(true)), .system(.duckEnded), .user(.setMuted(false)),
    ])
    #expect(
      log == [
        "load(A#1)", "start(A#1)", "setVolume(A#1, 0.333)", "setVolume(A#1, 0.067)",
        "setVolume(A#1, 0.1)", "setVolume(A#1, 0)", "setVolume(A#1, 0.5)",
      ])
    #expect(reasons == [nil, nil, nil, nil, nil, nil, nil, nil])
    #expect(model.volume == Volume(thousandths: 500))
    #expect(model.playWhenReady)
  }

  /// With the `.pause` policy a duck holds the engine like an interruption: paused, the
  /// intent kept, no start until its end (a resume changes nothing, a pause the intent).
  @Test func aPauseDuckHoldsTheEngineAndKeepsTheIntent() {
    let (model, log, reasons) = Self.run(
      [
        .play("A"), .ready(Load(1, 1)), .system(.duckBegan), .resume, .pause, .resume,
        .system(.duckEnded),
      ], ducking: .pause)
    #expect(log == ["load(A#1)", "start(A#1)", "pause(A#1)", "start(A#1)"])
    #expect(reasons == [nil, nil, nil, .noEffect, nil, nil, nil])
    #expect(model.kind == .playing)
  }

  /// A `.pause` duck reads as suppressed, and a ready that arrives during it starts nothing.
  @Test func aReadyDuringAPauseDuckIsSuppressed() {
    let (model, log, _) = Self.run(
      [.play("A"), .system(.duckBegan), .ready(Load(1, 1))], ducking: .pause)
    #expect(log == ["load(A#1)"])
    #expect(model.kind == .suppressed)
    #expect(model.playWhenReady)
    #expect(!model.engineIsPlaying)
  }

  /// A gapless engine: the preload is live, given the volume when it opens and every change,
  /// after the current load.
  @Test func thePreloadIsGivenTheVolumeAfterTheCurrentLoad() {
    let (_, log, _) = Self.run(
      [
        .user(.setMuted(true)), .queue(["A", "B"]), .ready(Load(1, 1)), .user(.setMuted(false)),
        .system(.duckBegan),
      ], canPreload: true, ducking: .lower(to: Volume(thousandths: 500)))
    #expect(
      log == [
        "load(A#1)", "setVolume(A#1, 0)", "start(A#1)", "preload(B#2)", "setVolume(B#2, 0)",
        "setVolume(A#1, 1)", "setVolume(B#2, 1)", "setVolume(A#1, 0.5)", "setVolume(B#2, 0.5)",
      ])
  }

  /// A change goes to the live loads as the event is applied; a preload the preload rule
  /// opens in the same step (a start state without its due preload) then gets its own
  /// volume after it (seed 1, case 3634 found the model sending the change after the rule).
  @Test func aPreloadOpenedAfterAChangeGetsItsOwnVolume() throws {
    let fuzzCase = try FailureFile.parseCase(
      "engine preload=yes start(loads=3 items=2 queue=B:1,D:2* repeat=all interrupted "
        + "session=3:ready position=1000ms watchdog=4294967295)\nvolume(0.5)\n")
    var model = ContractModel(fuzzCase.setup)
    var commands: [EngineCommand] = []
    model.apply(Self.volume(500), commands: &commands)
    #expect(
      commands.map(model.describe) == [
        "setVolume(D#3, 0.5)", "preload(B#4)", "setVolume(B#4, 0.5)",
      ])
    let failure = Fuzzer.check(.player, fuzzCase)
    #expect(failure == nil, "\(failure?.report ?? "")")
  }

  /// Refused and redundant intents and unpaired ducks are ignored for the spec's reasons.
  @Test func volumesIntentsAndDucksAreIgnoredForTheirReasons() {
    let (_, log, reasons) = Self.run([
      Self.volume(1500), Self.volume(-1), Self.volume(1000), .user(.setMuted(false)),
      .system(.duckEnded), .system(.duckBegan), .system(.duckBegan),
    ])
    #expect(log == [])
    #expect(
      reasons == [
        .invalidArgument, .invalidArgument, .noEffect, .noEffect, .notDucked, nil, .noEffect,
      ])
  }

  /// A snapshot keeps the user's volume and mute, not the duck: a relaunched model is
  /// neither ducked nor at full volume, and its first load is given the volume.
  @Test func aRelaunchKeepsTheVolumeAndForgetsTheDuck() {
    var (model, _, _) = Self.run([
      .play("A"), Self.volume(500), .user(.setMuted(true)), .system(.duckBegan),
    ])
    var commands: [EngineCommand] = []
    model.apply(.relaunch, commands: &commands)
    #expect(model.volume == Volume(thousandths: 500))
    #expect(model.muted)
    #expect(!model.ducked)
    model.apply(.resume, commands: &commands)
    #expect(commands.map(model.describe) == ["load(A#1)", "setVolume(A#1, 0)"])
  }

  // MARK: Lines and the engine line

  @Test func volumeLinesRoundTrip() throws {
    // A duck prints as player-sim's script spells it, as the interruptions do.
    let lines = ["volume(0.5)", "mute", "unmute", "duck", "unduck", "volume(1.5)"]
    let actions = try FailureFile.parse(lines.joined(separator: "\n"))
    #expect(
      actions == [
        .send(Self.volume(500)), .send(.user(.setMuted(true))), .send(.user(.setMuted(false))),
        .send(.system(.duckBegan)), .send(.system(.duckEnded)), .send(Self.volume(1500)),
      ])
    #expect(FuzzCase(actions).lines == lines)
    // The events' compact forms are read too.
    #expect(
      try FailureFile.parse("duck(began)\nduck(ended)\nsetVolume(0.25)") == [
        .send(.system(.duckBegan)), .send(.system(.duckEnded)), .send(Self.volume(250)),
      ])
    #expect(throws: FuzzParseError.self) { try FailureFile.parse("volume(0.2501)") }
    #expect(throws: FuzzParseError.self) { try FailureFile.parse("volume(loud)") }
  }

  @Test func theDuckPolicyIsSpelledOnTheEngineLine() throws {
    let pause = try FailureFile.parseCase("engine preload=no duck=pause\nplay(A)\nduck(began)\n")
    #expect(pause.ducking == .pause)
    #expect(pause.header == "engine preload=no duck=pause")
    let half = try FailureFile.parseCase("engine preload=yes duck=0.5\nplay(A)\n")
    #expect(half.ducking == .lower(to: Volume(thousandths: 500)))
    #expect(half.text == "engine preload=yes duck=0.5\nplay(A)\n")
    // The default (lower to 0.2) is not spelled.
    #expect(FuzzCase([.send(.play("A"))]).header == "engine preload=no")
    do {
      _ = try FailureFile.parseCase("engine preload=no duck=2\nplay(A)\n", file: "f.txt")
      Issue.record("duck=2 parsed")
    } catch {
      #expect(
        error.description
          == "f.txt:1:19: error: expected `duck=pause` or `duck=LEVEL` (0 to 1) such as duck=0.5; got `duck=2`"
      )
    }
  }

  @Test func aStartStateSpellsItsVolume() throws {
    let text = "start(loads=1 items=1 queue=A:1* session=1:ready volume=0.5 muted ducked)"
    let fuzzCase = try FailureFile.parseCase("engine preload=no \(text)\npause\n")
    let start = try #require(fuzzCase.start)
    #expect(start.volume == Volume(thousandths: 500))
    #expect(start.muted)
    #expect(start.ducked)
    #expect(FuzzStart.spelling(start) == text)
    #expect(FuzzStart.roundTrips(start))
  }

  // MARK: The catalog and Playhead's player

  /// Each volume bug, the property that catches it, and the end of its shrunk case (seed 1).
  static let bugs: [(bug: BuggyPlayer.Bug, property: FuzzProperty, last: String)] = [
    // The lowered level written over the user's volume: at once, in the public state.
    (.duckOverwritesVolume, .userVolumeRestoredAfterDuck, "duck"),
    // The volume set during the duck lost at its end.
    (.duckEndRestoresStaleVolume, .userVolumeRestoredAfterDuck, "unduck"),
    // A new load without its volume: the engine plays it at full volume.
    (.newLoadAtFullVolume, .liveLoadsAtEffectiveVolume, "play(A)"),
    // A pause duck taken for the user's pause.
    (.pauseDuckFlipsIntent, .duckKeepsPlayIntent, "duck"),
  ]

  @Test(arguments: bugs.indices)
  func eachVolumeBugIsCaughtByItsProperty(_ index: Int) throws {
    let (bug, property, last) = Self.bugs[index]
    let failure = try CatalogBugChecks.caughtOnSeedOne(bug, by: property)
    #expect(failure.fuzzCase.lines.last == last, "\(failure.report)")
  }

  /// Each bug's minimal case, written out, breaks its property at its last step, and
  /// Playhead's player passes it.
  @Test(arguments: [
    ("engine preload=no\nduck", BuggyPlayer.Bug.duckOverwritesVolume),
    ("engine preload=no duck=pause\nduck\nvolume(0.5)\nunduck", .duckEndRestoresStaleVolume),
    ("volume(0.5)\nplay(A)", .newLoadAtFullVolume),
    ("engine preload=no duck=pause\nplay(A)\nduck", .pauseDuckFlipsIntent),
  ])
  func eachMinimalCaseBreaksOnlyTheBuggyPlayer(_ text: String, _ bug: BuggyPlayer.Bug) throws {
    let property = try #require(Self.bugs.first { $0.bug == bug }?.property)
    try CatalogBugChecks.minimalCaseBreaksOnly(bug, by: property, text)
  }

  /// Hand-made cases through every rule of volume, on Playhead's player: every step agrees
  /// with the contract (the commands, the state, the reasons).
  @Test(arguments: [
    // A change reaches the live load; a new queue's load is given the volume; mute wins.
    "play(A)\nready(A#1)\nvolume(0.5)\nplay(B)\nmute\nvolume(0.25)\nunmute\nready(B#2)",
    // A lowering duck, a volume set during it restored at its end, rounding half up.
    "play(A)\nready(A#1)\nvolume(0.333)\nduck\nvolume(0.5)\nunduck\nduck\nunduck\nunduck",
    // A pause duck holds like an interruption: resume and pause change the intent only.
    "engine preload=no duck=pause\nplay(A)\nready(A#1)\nduck\npause\nresume\nunduck\nduck\nstop\nplay(B)\nready(B#2)\nunduck",
    // A gapless engine: the preload is given the volume when it opens and every change.
    "engine preload=yes duck=0.5\nmute\nqueue(A B)\nready(A#1)\nunmute\nduck\nready(B#2)\nended(A#1)\nunduck",
    // A duck and an interruption together: the engine starts once both are over.
    "engine preload=no duck=pause\nplay(A)\nready(A#1)\ninterrupt begin\nduck\ninterrupt end resume\nunduck",
    // Refused and redundant: out of range, the same volume, unpaired ducks.
    "volume(1.5)\nvolume(1)\nunmute\nunduck\nduck\nduck\nplay(A)",
    // A relaunch keeps the volume and mute, not the duck.
    "play(A)\nvolume(0.5)\nmute\nduck\nrelaunch\nresume\nunduck",
  ])
  func playheadsPlayerKeepsTheVolumeAsTheContractSays(_ text: String) throws {
    let fuzzCase = try FailureFile.parseCase(text)
    let failure = Fuzzer.check(.player, fuzzCase)
    #expect(failure == nil, "\(failure?.report ?? "")")
  }

  /// A random run of Playhead's player with volume only (beside the core) passes.
  @Test func aVolumeRunPasses() {
    let result = Fuzzer.run(
      .player, FuzzConfiguration(seed: 5, budget: .cases(3_000), features: [.volume, .queue]))
    #expect(result.passed, "\(result.failure?.report ?? "")")
  }

  // MARK: Who is sent volume

  /// A player that does not say it does volume is never sent it, nor drawn a duck policy.
  @Test func aSubjectWithoutVolumeIsNotSentIt() {
    let plain = FuzzSubject(name: "Plain") { engine in
      PlayerTarget(FuzzEngine.player(for: engine))
    }.reading([.configuration, .sleepTimer])
    let decoder = ActionDecoder(FuzzConfiguration(seed: 1), for: plain)
    #expect(!decoder.features.contains(.volume))
    #expect(ActionDecoder(FuzzConfiguration(seed: 1), for: .player).features.contains(.volume))
    var source = RandomBytes(seed: 3)
    for _ in 0..<200 {
      let setup = decoder.setup(from: &source, inputs: plain.inputs)
      #expect(setup.ducking == PlayerConfiguration().ducking)
    }
  }
}
