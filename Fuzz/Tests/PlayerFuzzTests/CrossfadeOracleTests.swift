import PlayerEngine
import PlayerFuzz
import PlayerState
import Testing

/// Issue 37, item 3 (crossfade) in the harness: the oracle's own crossfade rules with literal
/// logs, the engine line's `crossfade=`, the catalog's crossfade bugs, and Playhead's player on
/// hand-made cases.
@Suite struct CrossfadeOracleTests {
  static let a = Load(1, 1)
  static let b = Load(2, 2)

  static func run(
    _ events: [PlaybackEvent], crossfade: MediaTime = .seconds(1), fade: MediaTime = .zero
  ) -> (model: ContractModel, log: [String], reasons: [IgnoreReason?]) {
    var model = ContractModel(canPreload: true, fade: fade, crossfade: crossfade)
    var commands: [EngineCommand] = []
    var reasons: [IgnoreReason?] = []
    for event in events { reasons.append(model.process(event, commands: &commands)) }
    return (model, commands.map(model.describe), reasons)
  }

  static func expiry(_ load: Load, _ id: UInt32) -> PlaybackEvent {
    .watchdogExpired(load, WatchdogID(id))
  }

  /// `queue(A B C)`, A ready with 10 s, B preloaded and ready: the prefix of every case.
  static let playing: [PlaybackEvent] = [
    .queue(["A", "B", "C"]), .ready(a, duration: .seconds(10)), .ready(b, duration: .seconds(10)),
  ]

  /// The prefix, then a position inside the window: the crossfade under way.
  static let crossfading = playing + [.position(a, .milliseconds(9500))]

  // MARK: The model, from the spec

  /// A position inside the window starts the crossfade: the preload is promoted, started silent
  /// and ramped up, the current load ramped down and leaving with its next timer id; no
  /// preload until it is gone; its timer stops it once and the next preload follows; its late
  /// `ended` is stale.
  @Test func aPositionInsideTheWindowCrossfadesAndTheTimerStopsTheOutgoingLoadOnce() {
    let (model, log, reasons) = Self.run(Self.crossfading)
    #expect(
      log == [
        "load(A#1)", "start(A#1)", "preload(B#2)", "setVolume(B#2, 0)", "start(B#2)",
        "setVolume(B#2, 1, ramp 1000ms)", "setVolume(A#1, 0, ramp 1000ms)",
      ])
    #expect(reasons == [nil, nil, nil, nil])
    #expect(model.leaving?.load == Self.a)
    #expect(model.leaving?.timer == 2)
    #expect(model.current?.load == Self.b)
    #expect(model.position == 1)
    #expect(model.preload == nil)
    #expect(model.kind == .playing)
    let ended = Self.run(
      Self.crossfading + [Self.expiry(Self.a, 2), .reachedEnd(Self.a), Self.expiry(Self.a, 2)])
    #expect(Array(ended.log.suffix(2)) == ["stop(A#1)", "preload(C#3)"])
    #expect(Array(ended.reasons.suffix(3)) == [nil, .staleLoad, .staleLoad])
    #expect(ended.model.leaving == nil)
  }

  /// The outgoing load's own `ended` inside the window stops it, as its `failed` does (the
  /// machine stops every failed load); its timer is then a stopped load's (`staleLoad`); any
  /// other report about it is stale.
  @Test func theOutgoingEndOrFailureStopsIt() {
    let ended = Self.run(
      Self.crossfading + [.stalled(Self.a), .reachedEnd(Self.a), Self.expiry(Self.a, 2)])
    #expect(Array(ended.log.suffix(2)) == ["stop(A#1)", "preload(C#3)"])
    #expect(Array(ended.reasons.suffix(3)) == [.staleLoad, nil, .staleLoad])
    let failed = Self.run(
      Self.crossfading + [.failed(Self.a, .decoding), Self.expiry(Self.a, 2)])
    #expect(Array(failed.log.suffix(2)) == ["stop(A#1)", "preload(C#3)"])
    #expect(Array(failed.reasons.suffix(2)) == [nil, .staleLoad])
  }

  /// Outside the window, at a rate that widens it, with a duration under twice the crossfade,
  /// an unknown one, repeat one, a sleep timer stopping at the end, muted, or the preload not
  /// ready: no crossfade (a position sends nothing).
  @Test(arguments: [
    ("outside", Self.playing + [.position(Self.a, .milliseconds(8999))], 3),
    (
      "shorter than 2d",
      [.queue(["A", "B"]), .ready(Self.a, duration: .milliseconds(1500)), .ready(Self.b)]
        + [.position(Self.a, .milliseconds(1400))], 3
    ),
    (
      "unknown duration",
      [.queue(["A", "B"]), .ready(Self.a), .ready(Self.b), .position(Self.a, .seconds(10))], 3
    ),
    ("repeat one", Self.playing + [.user(.setRepeat(.one)), .position(Self.a, .seconds(9))], 4),
    (
      "sleep at the end",
      [
        .queue(["A", "B"]), .user(.setSleepTimer(.endOfEntry)),
        .ready(Self.a, duration: .seconds(10)),
      ]
        + [.position(Self.a, .milliseconds(9500))], 2
    ),
    ("muted", Self.playing + [.user(.setMuted(true)), .position(Self.a, .seconds(9))], 5),
    (
      "preload buffering",
      [
        .queue(["A", "B"]), .ready(Self.a, duration: .seconds(10)), .position(Self.a, .seconds(9)),
      ],
      3
    ),
    ("paused", Self.playing + [.pause, .position(Self.a, .seconds(9))], 4),
  ])
  func noCrossfadeWhereTheSpecSaysNone(_ name: String, _ events: [PlaybackEvent], _ count: Int) {
    let (model, log, _) = Self.run(events)
    #expect(log.count == count, "\(name): \(log)")
    #expect(model.leaving == nil, "\(name)")
  }

  /// At rate 1.5 the window is 1.5 s of media: 1001 ms from the end crossfades.
  @Test func theWindowScalesWithTheRate() {
    let (model, log, _) = Self.run(
      [.queue(["A", "B"]), .user(.setRate(PlaybackRate(thousandths: 1500)))]
        + [.ready(Self.a, duration: .seconds(10)), .ready(Self.b)]
        + [.position(Self.a, .milliseconds(8999))])
    #expect(model.leaving?.load == Self.a)
    #expect(log.contains("start(B#2, 1.5x)"), "\(log)")
  }

  /// Every opener stops the outgoing load first; pause, stop and the system's holds stop it
  /// at once (and the preload, held back while it left, follows in the same step); the
  /// incoming load's end stops it first; a seek and a volume change leave it.
  @Test func theInteractionTable() {
    let next = Self.run(Self.crossfading + [.next])
    #expect(Array(next.log.suffix(3)) == ["stop(A#1)", "stop(B#2)", "load(C#3)"])
    let pause = Self.run(Self.crossfading + [.pause])
    #expect(Array(pause.log.suffix(3)) == ["stop(A#1)", "pause(B#2)", "preload(C#3)"])
    let stop = Self.run(Self.crossfading + [.stop])
    #expect(Array(stop.log.suffix(2)) == ["stop(A#1)", "stop(B#2)"])
    let interrupted = Self.run(Self.crossfading + [.system(.interruptionBegan)])
    #expect(Array(interrupted.log.suffix(3)) == ["stop(A#1)", "pause(B#2)", "preload(C#3)"])
    let lost = Self.run(Self.crossfading + [.system(.routeLost)])
    #expect(Array(lost.log.suffix(3)) == ["stop(A#1)", "pause(B#2)", "preload(C#3)"])
    let ended = Self.run(Self.crossfading + [.reachedEnd(Self.b)])
    #expect(Array(ended.log.suffix(3)) == ["stop(A#1)", "stop(B#2)", "load(C#3)"])
    let seek = Self.run(Self.crossfading + [.seek(to: .seconds(1))])
    #expect(seek.log.last == "seek(B#2, 1000ms, seek#1)")
    #expect(seek.model.leaving?.load == Self.a)
    let volume = Self.run(Self.crossfading + [.user(.setVolume(Volume(thousandths: 500)))])
    #expect(volume.log.last == "setVolume(B#2, 0.5)")
    #expect(volume.model.leaving?.load == Self.a)
    let clear = Self.run(Self.crossfading + [.user(.clear)])
    #expect(Array(clear.log.suffix(2)) == ["stop(A#1)", "stop(B#2)"])
    let insert = Self.run(Self.crossfading + [.user(.append(["D"]))])
    #expect(insert.log.count == 7)
  }

  /// With fades on too, a stop during a crossfade stops the outgoing load and fades the
  /// incoming one into a stop: it becomes the leaving load.
  @Test func aStopDuringACrossfadeFadesTheIncomingLoad() {
    let (model, log, _) = Self.run(Self.crossfading + [.stop], fade: .milliseconds(200))
    #expect(Array(log.suffix(2)) == ["stop(A#1)", "setVolume(B#2, 0, ramp 200ms)"])
    #expect(model.leaving?.load == Self.b)
    #expect(model.leaving?.timer == 1)
    #expect(model.current == nil)
  }

  /// The rule change for a stop's fade: the leaving load's `ended` stops it (its timer is
  /// then a stopped load's).
  @Test func aStopFadesLeavingLoadEndsOnItsEnded() {
    var model = ContractModel(fade: .milliseconds(200))
    var commands: [EngineCommand] = []
    let events: [PlaybackEvent] = [
      .play("A"), .ready(Self.a), .stop, .reachedEnd(Self.a), Self.expiry(Self.a, 2),
    ]
    let reasons = events.map { model.process($0, commands: &commands) }
    #expect(
      commands.map(model.describe) == [
        "load(A#1)", "start(A#1)", "setVolume(A#1, 0, ramp 200ms)", "stop(A#1)",
      ])
    #expect(reasons == [nil, nil, nil, nil, .staleLoad])
  }

  /// The entry changes once, at the crossfade's start, automatically; the outgoing load's
  /// `ended` changes none.
  @Test func theEntryChangesOnceAtTheStart() {
    var model = ContractModel(canPreload: true, crossfade: .seconds(1))
    var commands: [EngineCommand] = []
    for event in Self.playing { model.apply(event, commands: &commands) }
    let before = model
    let start = PlaybackEvent.position(Self.a, .milliseconds(9500))
    model.apply(start, commands: &commands)
    let started = ContractNotifications(before: before, event: start, after: model)
    #expect(
      started.entryChanged?.kind == .entryChanged(from: ItemID(1), to: ItemID(2), reason: .auto))
    let during = model
    model.apply(.reachedEnd(Self.a), commands: &commands)
    let ended = ContractNotifications(before: during, event: .reachedEnd(Self.a), after: model)
    #expect(ended == .none)
  }

  // MARK: The engine line

  /// `crossfade=1000ms` is spelled on the engine line, read back, and gives the engine
  /// `volumeRamp`.
  @Test func theCrossfadeIsSpelledOnTheEngineLine() throws {
    let text = "engine preload=yes crossfade=1000ms\nplay(A)"
    let fuzzCase = try FailureFile.parseCase(text)
    #expect(fuzzCase.crossfade == .milliseconds(1000))
    #expect(fuzzCase.header == "engine preload=yes crossfade=1000ms")
    #expect(throws: FuzzParseError.self) {
      try FailureFile.parseCase("engine preload=yes crossfade=0ms")
    }
  }

  // MARK: The catalog and Playhead's player

  /// Each crossfade bug, the property that catches it, and the end of its shrunk case (seed 1).
  static let bugs: [(bug: BuggyPlayer.Bug, property: FuzzProperty)] = [
    (.crossfadeLateEndAdvances, .lateEndNeverAdvances),
    (.crossfadeSkipKeepsOutgoing, .oneAudibleLoad),
    (.crossfadePreloadsAtStart, .oneAudibleLoad),
    (.crossfadeStopsOutgoingTwice, .leavingLoadStoppedOnce),
  ]

  @Test(arguments: bugs.indices)
  func eachCrossfadeBugIsCaughtByItsProperty(_ index: Int) throws {
    let (bug, property) = Self.bugs[index]
    let failure = try CatalogBugChecks.caughtOnSeedOne(bug, by: property)
    #expect(failure.fuzzCase.crossfade == .seconds(1), "\(failure.report)")
  }

  /// Each bug's minimal case, written out, breaks its property at its last step, and
  /// Playhead's player passes it.
  @Test(arguments: [
    (
      "engine preload=yes crossfade=1000ms\nqueue(A B)\nready(A#1, duration 10000ms)\nready(B#2)\nposition(A#1, 9500ms)\ntimeout(A#1, watchdog#2)\nended(A#1)",
      BuggyPlayer.Bug.crossfadeLateEndAdvances
    ),
    (
      "engine preload=yes crossfade=1000ms\nqueue(A B)\nready(A#1, duration 10000ms)\nready(B#2)\nposition(A#1, 9500ms)\nprevious",
      .crossfadeSkipKeepsOutgoing
    ),
    (
      "engine preload=yes crossfade=1000ms\nqueue(A B C)\nready(A#1, duration 10000ms)\nready(B#2)\nposition(A#1, 9500ms)",
      .crossfadePreloadsAtStart
    ),
    (
      "engine preload=yes crossfade=1000ms\nqueue(A B)\nready(A#1, duration 10000ms)\nready(B#2)\nposition(A#1, 9500ms)\nended(A#1)\ntimeout(A#1, watchdog#2)",
      .crossfadeStopsOutgoingTwice
    ),
  ])
  func eachMinimalCaseBreaksOnlyTheBuggyPlayer(_ text: String, _ bug: BuggyPlayer.Bug) throws {
    let property = try #require(Self.bugs.first { $0.bug == bug }?.property)
    try CatalogBugChecks.minimalCaseBreaksOnly(bug, by: property, text)
  }

  /// Hand-made cases through the rules of crossfade, on Playhead's player: every step agrees
  /// with the contract (the commands, the timers, the state, the reasons, the notifications).
  @Test(arguments: [
    // A crossfade, its timer, the late ended; a position outside the window first.
    "engine preload=yes crossfade=1000ms\nqueue(A B C)\nready(A#1, duration 10000ms)\nready(B#2, duration 10000ms)\nposition(A#1, 8999ms)\nposition(A#1, 9500ms)\ntimeout(A#1, watchdog#2)\nended(A#1)\nready(C#3)",
    // The outgoing ended inside the window, then its stale timer; a failure of the next one.
    "engine preload=yes crossfade=1000ms\nqueue(A B C)\nready(A#1, duration 10000ms)\nready(B#2, duration 10000ms)\nposition(A#1, 9500ms)\nstalled(A#1)\nended(A#1)\ntimeout(A#1, watchdog#2)",
    "engine preload=yes crossfade=1000ms\nqueue(A B C)\nready(A#1, duration 10000ms)\nready(B#2)\nposition(A#1, 9500ms)\nfailed(A#1, decoding)\ntimeout(A#1, watchdog#2)",
    // Skips, a pause, a stop and an interruption during the fade.
    "engine preload=yes crossfade=1000ms\nqueue(A B C)\nready(A#1, duration 10000ms)\nready(B#2)\nposition(A#1, 9500ms)\nnext",
    "engine preload=yes crossfade=1000ms\nqueue(A B C)\nready(A#1, duration 10000ms)\nready(B#2)\nposition(A#1, 9500ms)\npause\nresume",
    "engine preload=yes crossfade=1000ms fade=200ms\nqueue(A B C)\nready(A#1, duration 10000ms)\nready(B#2)\nposition(A#1, 9500ms)\nstop\ntimeout(B#2, watchdog#1)",
    "engine preload=yes crossfade=1000ms\nqueue(A B)\nready(A#1, duration 10000ms)\nready(B#2)\nposition(A#1, 9500ms)\ninterrupt begin\ninterrupt end resume",
    // The incoming load's end during the fade; repeat one and a short entry never crossfade.
    "engine preload=yes crossfade=1000ms\nqueue(A B C)\nready(A#1, duration 10000ms)\nready(B#2)\nposition(A#1, 9500ms)\nended(B#2)",
    "engine preload=yes crossfade=1000ms\nqueue(A B)\nrepeat(one)\nready(A#1, duration 10000ms)\nposition(A#1, 9500ms)\nended(A#1)",
    "engine preload=yes crossfade=1000ms\nqueue(A B)\nready(A#1, duration 1500ms)\nready(B#2)\nposition(A#1, 1400ms)\nended(A#1)",
    // The rule for a stop's fade: after a hand-off, the old player's fading load's late
    // `ended` sends its one stop to the old engine (seed 2 of every feature found it).
    "engine preload=no fade=200ms\nlater ended(item1#1)\nplay(A)\nready(A#1)\nhandoff\ndeliver",
  ])
  func playheadsPlayerCrossfadesAsTheContractSays(_ text: String) throws {
    let fuzzCase = try FailureFile.parseCase(text)
    let failure = Fuzzer.check(.player, fuzzCase)
    #expect(failure == nil, "\(failure?.report ?? "")")
  }

  /// A random run of Playhead's player with crossfade (beside the queue, preloads and fades)
  /// passes.
  @Test func aCrossfadeRunPasses() {
    let result = Fuzzer.run(
      .player,
      FuzzConfiguration(
        seed: 5, budget: .cases(3_000), features: [.crossfade, .queue, .preload, .fade]))
    #expect(result.passed, "\(result.failure?.report ?? "")")
  }

  /// A player that does not say it crossfades runs without a crossfade; Playhead's player
  /// with one exactly when its engine preloads.
  @Test func aSubjectWithoutCrossfadeRunsWithoutOne() {
    let plain = FuzzSubject(name: "Plain") { engine in
      PlayerTarget(FuzzEngine.player(for: engine))
    }.reading([.configuration, .sleepTimer])
    let decoder = ActionDecoder(FuzzConfiguration(seed: 1), for: plain)
    #expect(!decoder.features.contains(.crossfade))
    let playhead = ActionDecoder(FuzzConfiguration(seed: 1), for: .player)
    #expect(playhead.features.contains(.crossfade))
    var source = RandomBytes(seed: 3)
    for _ in 0..<50 {
      #expect(decoder.setup(from: &source, inputs: plain.inputs).crossfadeLength == .zero)
      let setup = playhead.setup(from: &source, inputs: FuzzSubject.player.inputs)
      #expect(setup.crossfadeLength == (setup.canPreload ? .seconds(1) : .zero))
    }
  }
}
