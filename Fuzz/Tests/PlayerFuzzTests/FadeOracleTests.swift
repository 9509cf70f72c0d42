import PlayerEngine
import PlayerFuzz
import PlayerState
import Testing

/// Issue 37, item 2 (fades) in the harness: the oracle's own fade rules with literal logs,
/// the engine line's `fade=`, the catalog's fade bugs, and Playhead's player on hand-made
/// cases.
@Suite struct FadeOracleTests {
  static let a = Load(1, 1)

  static func run(
    _ events: [PlaybackEvent], canPreload: Bool = false, fade: MediaTime = .milliseconds(200)
  ) -> (model: ContractModel, log: [String], reasons: [IgnoreReason?]) {
    var model = ContractModel(canPreload: canPreload, fade: fade)
    var commands: [EngineCommand] = []
    var reasons: [IgnoreReason?] = []
    for event in events { reasons.append(model.process(event, commands: &commands)) }
    return (model, commands.map(model.describe), reasons)
  }

  static func expiry(_ load: Load, _ id: UInt32) -> PlaybackEvent {
    .watchdogExpired(load, WatchdogID(id))
  }

  // MARK: The model, from the spec

  /// The user's pause ramps to 0 and arms the fade's timer; its expiry pauses, then
  /// gives the load the effective volume back. The intent is pause at once.
  @Test func aPauseFadesOutAndItsExpiryPausesAndRestoresTheVolume() {
    let (model, log, reasons) = Self.run([.play("A"), .ready(Self.a), .pause])
    #expect(log == ["load(A#1)", "start(A#1)", "setVolume(A#1, 0, ramp 200ms)"])
    #expect(reasons == [nil, nil, nil])
    #expect(model.kind == .paused)
    #expect(!model.engineIsPlaying)
    #expect(model.current?.fadingOut == true)
    #expect(model.current?.lastWatchdog == 2)
    let expired = Self.run([.play("A"), .ready(Self.a), .pause, Self.expiry(Self.a, 2)])
    #expect(Array(expired.log.suffix(2)) == ["pause(A#1)", "setVolume(A#1, 1)"])
    #expect(expired.model.current?.fadingOut == false)
  }

  /// A resume during the fade ramps back with no start; the old expiry is then stale; a
  /// resume of the paused load fades in.
  @Test func aResumeDuringTheFadeRampsBackAndAResumeAfterItFadesIn() {
    let (_, log, reasons) = Self.run([
      .play("A"), .ready(Self.a), .pause, .resume, Self.expiry(Self.a, 2), .pause,
      Self.expiry(Self.a, 3), .resume,
    ])
    #expect(
      log == [
        "load(A#1)", "start(A#1)", "setVolume(A#1, 0, ramp 200ms)", "setVolume(A#1, 1, ramp 200ms)",
        "setVolume(A#1, 0, ramp 200ms)", "pause(A#1)", "setVolume(A#1, 1)", "setVolume(A#1, 0)",
        "start(A#1)", "setVolume(A#1, 1, ramp 200ms)",
      ])
    #expect(reasons == [nil, nil, nil, nil, .staleWatchdog, nil, nil, nil])
  }

  /// A stall, an interruption or a `.pause` duck end the fade at once; a change of the
  /// effective volume during it waits for its end; route loss and a muted load never fade.
  @Test func whatEndsAFadeEarlyAndWhatNeverFades() {
    let stalled = Self.run([
      .play("A"), .ready(Self.a), .pause, .stalled(Self.a), Self.expiry(Self.a, 2),
    ])
    #expect(Array(stalled.log.suffix(2)) == ["pause(A#1)", "setVolume(A#1, 1)"])
    #expect(stalled.reasons.last == .staleWatchdog)
    let held = Self.run([
      .play("A"), .ready(Self.a), .pause, .system(.interruptionBegan), Self.expiry(Self.a, 2),
    ])
    #expect(Array(held.log.suffix(2)) == ["pause(A#1)", "setVolume(A#1, 1)"])
    #expect(held.reasons.last == .staleWatchdog)
    let louder = Self.run([
      .play("A"), .ready(Self.a), .pause, .user(.setVolume(Volume(thousandths: 500))),
      .system(.duckBegan), Self.expiry(Self.a, 2),
    ])
    #expect(
      Array(louder.log.suffix(3)) == [
        "setVolume(A#1, 0, ramp 200ms)", "pause(A#1)", "setVolume(A#1, 0.1)",
      ])
    let lost = Self.run([.play("A"), .ready(Self.a), .system(.routeLost)])
    #expect(lost.log.last == "pause(A#1)")
    let muted = Self.run([.play("A"), .ready(Self.a), .user(.setMuted(true)), .pause, .resume])
    #expect(Array(muted.log.suffix(2)) == ["pause(A#1)", "start(A#1)"])
  }

  /// The end during a fade sends its own commands, then the volume to the load still live.
  @Test func theEndDuringAFadeRestoresTheVolumeOfALiveLoad() {
    let ended = Self.run([.play("A"), .ready(Self.a), .pause, .reachedEnd(Self.a)])
    #expect(ended.log.last == "setVolume(A#1, 1)")
    #expect(ended.model.kind == .ended)
    let advanced = Self.run([.queue(["A", "B"]), .ready(Self.a), .pause, .reachedEnd(Self.a)])
    #expect(Array(advanced.log.suffix(2)) == ["stop(A#1)", "load(B#2)"])
  }

  /// A stop fades with the load leaving: idle at once, every report about it stale, its
  /// timer's expiry its one stop; a new load stops it first.
  @Test func aStopFadesAndTheLeavingLoadIsStoppedOnce() {
    let expired = Self.run([
      .play("A"), .ready(Self.a), .stop, .ready(Self.a), Self.expiry(Self.a, 2),
      Self.expiry(Self.a, 2),
    ])
    #expect(
      expired.log == ["load(A#1)", "start(A#1)", "setVolume(A#1, 0, ramp 200ms)", "stop(A#1)"])
    #expect(expired.reasons == [nil, nil, nil, .staleLoad, nil, .staleLoad])
    #expect(expired.model.leaving == nil)
    let reopened = Self.run([.play("A"), .ready(Self.a), .stop, .resume, Self.expiry(Self.a, 2)])
    #expect(Array(reopened.log.suffix(2)) == ["stop(A#1)", "load(A#2)"])
    #expect(reopened.reasons.last == .staleLoad)
    let fadingPause = Self.run([
      .play("A"), .ready(Self.a), .pause, .stop, Self.expiry(Self.a, 3),
    ])
    #expect(
      Array(fadingPause.log.suffix(3)) == [
        "setVolume(A#1, 0, ramp 200ms)", "setVolume(A#1, 0, ramp 200ms)", "stop(A#1)",
      ])
  }

  /// A gapless engine's preload is stopped at once by a fading stop, before the ramp.
  @Test func aFadingStopStopsThePreloadFirst() {
    let (_, log, _) = Self.run(
      [.queue(["A", "B"]), .ready(Self.a), .stop, Self.expiry(Self.a, 2)], canPreload: true)
    #expect(
      log == [
        "load(A#1)", "start(A#1)", "preload(B#2)", "stop(B#2)", "setVolume(A#1, 0, ramp 200ms)",
        "stop(A#1)",
      ])
  }

  /// With fades off (a zero fade), nothing fades.
  @Test func withoutAFadeNothingFades() {
    let (_, log, _) = Self.run([.play("A"), .ready(Self.a), .pause, .resume, .stop], fade: .zero)
    #expect(log == ["load(A#1)", "start(A#1)", "pause(A#1)", "start(A#1)", "stop(A#1)"])
  }

  // MARK: The engine line

  /// `fade=200ms` is spelled on the engine line, read back, and gives the engine `volumeRamp`.
  @Test func theFadeIsSpelledOnTheEngineLine() throws {
    let text = "engine preload=no fade=200ms\nplay(A)"
    let fuzzCase = try FailureFile.parseCase(text)
    #expect(fuzzCase.fade == .milliseconds(200))
    #expect(fuzzCase.header == "engine preload=no fade=200ms")
    #expect(throws: FuzzParseError.self) { try FailureFile.parseCase("engine preload=no fade=0ms") }
  }

  // MARK: The catalog and Playhead's player

  /// Each fade bug, the property that catches it, and the end of its shrunk case (seed 1).
  static let bugs: [(bug: BuggyPlayer.Bug, property: FuzzProperty, last: String)] = [
    (.resumeDuringFadeStarts, .noStartDuringFade, "resume"),
    (.staleFadeExpiryPauses, .staleFadeExpiryChangesNothing, "timeout(A#1, watchdog#2)"),
    (.stopFadeNeverStopped, .oneAudibleLoad, "resume"),
    (.fadeExpiryForgetsVolume, .liveLoadsAtEffectiveVolume, "timeout(A#1, watchdog#2)"),
  ]

  @Test(arguments: bugs.indices)
  func eachFadeBugIsCaughtByItsProperty(_ index: Int) throws {
    let (bug, property, last) = Self.bugs[index]
    let failure = try CatalogBugChecks.caughtOnSeedOne(bug, by: property)
    #expect(failure.fuzzCase.lines.last == last, "\(failure.report)")
  }

  /// Each bug's minimal case, written out, breaks its property at its last step, and
  /// Playhead's player passes it.
  @Test(arguments: [
    (
      "engine preload=no fade=200ms\nplay(A)\nready(A#1)\npause\nresume",
      BuggyPlayer.Bug.resumeDuringFadeStarts
    ),
    (
      "engine preload=no fade=200ms\nplay(A)\nready(A#1)\npause\nresume\ntimeout(A#1, watchdog#2)",
      .staleFadeExpiryPauses
    ),
    ("engine preload=no fade=200ms\nplay(A)\nready(A#1)\nstop\nresume", .stopFadeNeverStopped),
    (
      "engine preload=no fade=200ms\nplay(A)\nready(A#1)\npause\ntimeout(A#1, watchdog#2)",
      .fadeExpiryForgetsVolume
    ),
  ])
  func eachMinimalCaseBreaksOnlyTheBuggyPlayer(_ text: String, _ bug: BuggyPlayer.Bug) throws {
    let property = try #require(Self.bugs.first { $0.bug == bug }?.property)
    try CatalogBugChecks.minimalCaseBreaksOnly(bug, by: property, text)
  }

  /// Hand-made cases through the rules of fades, on Playhead's player: every step agrees
  /// with the contract (the commands, the timers, the state, the reasons).
  @Test(arguments: [
    // A pause fades and pauses at its expiry; a resume fades in; a resume during a fade
    // ramps back and makes the expiry stale.
    "engine preload=no fade=200ms\nplay(A)\nready(A#1)\npause\ntimeout(A#1, watchdog#2)\nresume\npause\nresume\ntimeout(A#1, watchdog#3)",
    // A stall and an interruption end a fade; route loss never fades.
    "engine preload=no fade=200ms\nplay(A)\nready(A#1)\npause\nstalled(A#1)\nresumed(A#1)\nresume\ninterrupt begin\ninterrupt end resume\nroute lost",
    // A stop fades; a report about the leaving load is stale; its timer stops it once.
    "engine preload=no fade=200ms\nplay(A)\nready(A#1)\nstop\nready(A#1)\ntimeout(A#1, watchdog#2)\ntimeout(A#1, watchdog#2)",
    // A new load stops the leaving load first.
    "engine preload=yes fade=200ms\nqueue(A B)\nready(A#1)\nready(B#2)\nstop\nplay(C)\nready(C#3)",
    // Volume during a fade waits for its end; the end of the entry during a fade.
    "engine preload=no fade=200ms\nplay(A)\nready(A#1)\npause\nvolume(0.5)\nduck\nended(A#1)\nresume",
  ])
  func playheadsPlayerFadesAsTheContractSays(_ text: String) throws {
    let fuzzCase = try FailureFile.parseCase(text)
    let failure = Fuzzer.check(.player, fuzzCase)
    #expect(failure == nil, "\(failure?.report ?? "")")
  }

  /// A random run of Playhead's player with fades (beside the core, the queue and volume) passes.
  @Test func aFadeRunPasses() {
    let result = Fuzzer.run(
      .player,
      FuzzConfiguration(seed: 5, budget: .cases(3_000), features: [.fade, .queue, .volume]))
    #expect(result.passed, "\(result.failure?.report ?? "")")
  }

  // MARK: Who fades

  /// A player that does not say it does fades runs without a fade; Playhead's player with one.
  @Test func aSubjectWithoutFadesRunsWithoutAFade() {
    let plain = FuzzSubject(name: "Plain") { engine in
      PlayerTarget(FuzzEngine.player(for: engine))
    }.reading([.configuration, .sleepTimer])
    let decoder = ActionDecoder(FuzzConfiguration(seed: 1), for: plain)
    #expect(!decoder.features.contains(.fade))
    let playhead = ActionDecoder(FuzzConfiguration(seed: 1), for: .player)
    #expect(playhead.features.contains(.fade))
    var source = RandomBytes(seed: 3)
    for _ in 0..<50 {
      #expect(decoder.setup(from: &source, inputs: plain.inputs).fadeLength == .zero)
      #expect(
        playhead.setup(from: &source, inputs: FuzzSubject.player.inputs).fadeLength
          == .milliseconds(200))
    }
  }
}
