import PlayerEngine
import PlayerFuzz
import PlayerState
import Testing

@Suite struct OracleTests {
  struct Case: CustomStringConvertible, Sendable {
    var bug: BuggyPlayer.Bug
    var actions: String
    var property: FuzzProperty
    var step: Int
    var expected: [String]
    var actual: [String]
    var description: String { "\(bug): \(actions.split(separator: "\n").joined(separator: ", "))" }
  }

  static let cases: [Case] = [
    Case(
      bug: .twoBools, actions: "play(A)\nstop\nready(A#1)", property: .nothingAfterStop, step: 3,
      expected: ["load(A#1)", "stop(A#1)"], actual: ["load(A#1)", "stop(A#1)", "start(A#1)"]),
    Case(
      bug: .stopNotSent, actions: "play(A)\nstop", property: .stopBeforeNextLoad, step: 2,
      expected: ["load(A#1)", "stop(A#1)"], actual: ["load(A#1)"]),
    Case(
      bug: .ignoresIdentity, actions: "play(A)\nready(B#1)", property: .noCommandForIgnoredReport,
      step: 2, expected: ["load(A#1)"], actual: ["load(A#1)", "start(A#1)"]),
    Case(
      bug: .checksMediaNotToken, actions: "play(A)\nready(A#2)",
      property: .noCommandForIgnoredReport,
      step: 2, expected: ["load(A#1)"], actual: ["load(A#1)", "start(A#1)"]),
    Case(
      bug: .doubleStartOnRepeatedReady, actions: "play(A)\nready(A#1)\nready(A#1)",
      property: .noCommandForIgnoredReport, step: 3, expected: ["load(A#1)", "start(A#1)"],
      actual: ["load(A#1)", "start(A#1)", "start(A#1)"]),
    // The lost pause shows in the public state (`playWhenReady`) before any
    // command does (issue 21: the whole state is compared).
    Case(
      bug: .pauseLostWhileBuffering, actions: "play(A)\npause\nready(A#1)",
      property: .stateMatchesContract, step: 2, expected: ["load(A#1)"], actual: ["load(A#1)"]),
    Case(
      bug: .staleStallOrEndAccepted, actions: "play(A)\nready(A#1)\nstalled(A#2)",
      property: .isPlayingMatchesEngine, step: 3, expected: ["load(A#1)", "start(A#1)"],
      actual: ["load(A#1)", "start(A#1)"]),
    Case(
      bug: .reentrantProcessedRecursively, actions: "reentrant ready(A#1)\nplay(A)",
      property: .commandsMatchContract, step: 2, expected: ["load(A#1)", "start(A#1)"],
      actual: ["load(A#1)"]),
    Case(
      bug: .supersededSeekCompletes, actions: "play(A)\nseek(0ms)\nseeked(A#1, seek#2)",
      property: .newestSeekOnly, step: 3, expected: ["load(A#1)", "seek(A#1, 0ms, seek#1)"],
      actual: ["load(A#1)", "seek(A#1, 0ms, seek#1)"]),
    Case(
      bug: .staleWatchdogFires, actions: "play(A)\ntimeout(A#1, watchdog#2)",
      property: .noCommandForIgnoredReport, step: 2, expected: ["load(A#1)"],
      actual: ["load(A#1)", "stop(A#1)"]),
    Case(
      bug: .advanceTwiceOnDuplicatedEnd,
      actions: "queue(A B)\nready(A#1)\nended(A#1)\nready(B#2)\nended(A#1)",
      property: .isPlayingMatchesEngine, step: 5,
      expected: ["load(A#1)", "start(A#1)", "stop(A#1)", "load(B#2)", "start(B#2)"],
      actual: ["load(A#1)", "start(A#1)", "stop(A#1)", "load(B#2)", "start(B#2)"]),
    Case(
      bug: .droppedPreloadReportAccepted,
      actions: "engine preload=yes\nqueue(A B)\nready(A#1)\ninsert(C, at 2)\nready(B#2)",
      property: .queueMatchesContract, step: 4,
      expected: ["load(A#1)", "start(A#1)", "preload(B#2)", "stop(B#2)", "preload(C#3)"],
      actual: ["load(A#1)", "start(A#1)", "preload(B#2)", "stop(B#2)", "preload(C#3)"]),
    Case(
      bug: .repeatOneStartsWithoutSeek, actions: "play(A)\nrepeat(one)\nready(A#1)\nended(A#1)",
      property: .startOnlyWhenReadyAndWanted, step: 4,
      expected: ["load(A#1)", "start(A#1)", "seek(A#1, 0ms, seek#1)", "start(A#1)"],
      actual: ["load(A#1)", "start(A#1)", "start(A#1)"]),
    Case(
      bug: .removeCurrentKeepsLoad, actions: "queue(A B)\nremove(1)",
      property: .stopBeforeNextLoad, step: 2, expected: ["load(A#1)", "stop(A#1)", "load(B#2)"],
      actual: ["load(A#1)"]),
    Case(
      bug: .previousIgnoresThreshold, actions: "queue(A B, start 2, from 3001ms)\nprevious",
      property: .commandsMatchContract, step: 2,
      expected: ["load(B#1, from 3001ms)", "seek(B#1, 0ms, seek#1)"],
      actual: ["load(B#1, from 3001ms)", "stop(B#1)", "load(A#2)"]),
    Case(
      bug: .shuffleNotReplayable, actions: "queue(A B C)\nshuffle(seed 1)",
      property: .queueMatchesContract, step: 2, expected: ["load(A#1)"], actual: ["load(A#1)"]),
    Case(
      bug: .twoBools, actions: "queue(A, paused)\nready(A#1)",
      property: .startOnlyWhenReadyAndWanted,
      step: 2, expected: ["load(A#1)"], actual: ["load(A#1)", "start(A#1)"]),
  ]

  @Test(arguments: cases)
  func eachMistakeBreaksItsProperty(_ example: Case) throws {
    let fuzzCase = try FailureFile.parseCase(example.actions)
    let violation = try #require(
      CaseRunner.check(
        BuggyPlayer(example.bug).subject, fuzzCase.actions, canPreload: fuzzCase.canPreload))
    // Playhead's own player passes the same case.
    #expect(Fuzzer.check(.player, fuzzCase) == nil)
    #expect(violation.property == example.property)
    #expect(violation.step == example.step)
    #expect(violation.expectedLog == example.expected)
    #expect(violation.actualLog == example.actual)
  }

  @Test func theModelPredictsTheContractsCommands() {
    var model = ContractModel()
    var commands: [EngineCommand] = []
    let events: [PlaybackEvent] = [
      .play("A"), .ready(Load(1, 1)), .stalled(Load(1, 1)), .pause, .resumed(Load(1, 1)),
      .resume, .seek(to: .seconds(2)), .reachedEnd(Load(1, 1)),
      .seekCompleted(Load(1, 1), SeekID(1)),
      .reachedEnd(Load(1, 1)), .resume, .play("B"), .watchdogExpired(Load(2, 2), WatchdogID(1)),
      .retry, .stop,
    ]
    var accepted: [Bool] = []
    for event in events { accepted.append(model.apply(event, commands: &commands)) }
    #expect(
      commands.map(model.describe) == [
        "load(A#1)", "start(A#1)", "pause(A#1)", "start(A#1)", "seek(A#1, 2000ms, seek#1)",
        "seek(A#1, 0ms, seek#2)", "start(A#1)", "stop(A#1)", "load(B#2)", "stop(B#2)", "load(B#3)",
        "stop(B#3)",
      ])
    // The end during the seek is ignored; everything else here is accepted.
    #expect(
      accepted == [
        true, true, true, true, true, true, true, false, true, true, true, true, true, true, true,
      ])
    #expect(model.kind == .idle)
    #expect(model.issued == 3)
  }

  @Test func theModelPredictsAGaplessAdvanceARepeatAndAShuffle() {
    var model = ContractModel(canPreload: true)
    var commands: [EngineCommand] = []
    let events: [PlaybackEvent] = [
      .queue(["A", "B", "C"]), .ready(Load(1, 1)), .ready(Load(2, 2), duration: .seconds(10)),
      .reachedEnd(Load(1, 1)), .user(.setRepeat(.one)), .ready(Load(3, 3)),
      .reachedEnd(Load(2, 2)), .reachedEnd(Load(2, 2)), .seekCompleted(Load(2, 2), SeekID(1)),
      .user(.setRepeat(.all)), .user(.setShuffle(seed: 1)), .position(Load(2, 2), .seconds(4)),
      .previous, .user(.remove(at: 0)), .user(.clear),
    ]
    var accepted: [Bool] = []
    for event in events { accepted.append(model.apply(event, commands: &commands)) }
    #expect(
      commands.map(model.describe) == [
        "load(A#1)", "start(A#1)", "preload(B#2)",
        // The gapless advance: the ready preload starts, the next one is preloaded.
        "stop(A#1)", "start(B#2)", "preload(C#3)",
        // Repeat one drops the preload; the end replays with a seek, no timer.
        "stop(C#3)", "seek(B#2, 0ms, seek#1)", "start(B#2)",
        // Repeat all preloads again; the shuffle (B first, then A C) changes the next entry.
        "preload(C#4)", "stop(C#4)", "preload(A#5)",
        // previous at 4 s (past 3 s) restarts; removing B promotes A's preload.
        "seek(B#2, 0ms, seek#2)", "stop(B#2)", "stop(A#5)",
      ])
    // The dropped preload's ready and the second end during the seek are ignored.
    #expect(
      accepted == [
        true, true, true, true, true, false, true, false, true, true, true, true, true, true, true,
      ])
    #expect(model.kind == .idle)
    #expect(model.repeatMode == .all)
    #expect(model.queueDescription == "none")
  }

  /// A player that says it is still buffering after a stop: caught by property 4.
  final class StuckAfterStop: FuzzTarget {
    let player: Player
    var stopped = false
    init(engine: any PlaybackEngine) {
      player = Player(
        engine: engine, state: .fuzzed(by: engine), watchdog: FuzzEngine.watchdog(for: engine))
    }
    func send(_ event: PlaybackEvent) {
      player.send(event)
      if event == .stop { stopped = true }
    }
    var observation: FuzzObservation {
      stopped ? FuzzObservation(kind: .buffering, isPlaying: false) : FuzzObservation(player.state)
    }
    var stateDescription: String { stopped ? "still buffering" : player.state.description }
  }

  @Test func aCustomTargetIsCheckedToo() throws {
    let subject = FuzzSubject(name: "StuckAfterStop") { StuckAfterStop(engine: $0) }
    let violation = try #require(CaseRunner.check(subject, [.send(.play("A")), .send(.stop)]))
    #expect(violation.property == .idleAfterStop)
    #expect(violation.step == 2)
  }

  // MARK: Watchdogs are requested by the player

  /// Playhead's `Player` with no watchdog clock: it never requests one.
  final class NoWatchdog: FuzzTarget {
    let player: Player
    init(engine: any PlaybackEngine) { player = Player(engine: engine) }
    func send(_ event: PlaybackEvent) { player.send(event) }
    var observation: FuzzObservation { FuzzObservation(player.state) }
    var stateDescription: String { player.state.description }
  }

  @Test func aPlayerThatNeverArmsItsWatchdogFails() throws {
    let subject = FuzzSubject(name: "NoWatchdog") { NoWatchdog(engine: $0) }
    let violation = try #require(CaseRunner.check(subject, [.send(.play("A"))]))
    #expect(violation.property == .watchdogRequested)
    #expect(violation.step == 1)
    #expect(
      violation.detail
        == "the contract arms watchdog#1 for A#1 here; the player requested no watchdog from the harness's clock (FuzzEngine.watchdog)"
    )
    // A random run finds it in the first case and shrinks it to the one action.
    let result = Fuzzer.run(subject, FuzzConfiguration(seed: 1, budget: .cases(100)))
    let failure = try #require(result.failure)
    #expect(failure.property == .watchdogRequested)
    #expect(failure.actions.count == 1)
  }

  /// Playhead's `Player` that also asks for a watchdog whenever playback starts.
  final class ExtraWatchdog: FuzzTarget {
    let player: Player
    let clock: WatchdogPolicy
    init(engine: any PlaybackEngine) {
      clock = FuzzEngine.watchdog(for: engine)
      player = Player(engine: engine, state: .fuzzed(by: engine), watchdog: clock)
    }
    func send(_ event: PlaybackEvent) {
      let wasPlaying = player.state.isPlaying
      player.send(event)
      if !wasPlaying, player.state.isPlaying { clock.schedule(clock.timeout) {} }
    }
    var observation: FuzzObservation { FuzzObservation(player.state) }
    var stateDescription: String { player.state.description }
  }

  @Test func aWatchdogTheContractDoesNotArmFails() throws {
    let subject = FuzzSubject(name: "ExtraWatchdog") { ExtraWatchdog(engine: $0) }
    let violation = try #require(
      CaseRunner.check(subject, [.send(.play("A")), .send(.ready(Load(1, 1)))]))
    #expect(violation.property == .watchdogRequested)
    #expect(violation.step == 2)
    #expect(violation.detail == "the player requested 1 watchdog the contract does not arm here")
  }

  /// Playhead's `Player` behind an adapter that drops every expiry sent through
  /// `send`: only the closures the player scheduled can time a load out.
  final class OwnTimersOnly: FuzzTarget {
    let player: Player
    init(engine: any PlaybackEngine) {
      player = Player(
        engine: engine, state: .fuzzed(by: engine), watchdog: FuzzEngine.watchdog(for: engine))
    }
    func send(_ event: PlaybackEvent) {
      if case .watchdogExpired = event { return }
      player.send(event)
    }
    var observation: FuzzObservation { FuzzObservation(player.state) }
    var stateDescription: String { player.state.description }
  }

  @Test func anExpiryRunsTheClosureThePlayerScheduled() throws {
    let subject = FuzzSubject(name: "OwnTimersOnly") { OwnTimersOnly(engine: $0) }
    // The timeout fires the player's own watchdog: the load fails and is stopped,
    // though the adapter drops every expiry sent to it.
    let fuzzCase = try FailureFile.parseCase("play(A)\ntimeout(A#1, watchdog#1)\n")
    let (runner, violation) = CaseRunner.replay(subject, fuzzCase.actions)
    #expect(violation == nil)
    #expect(runner.log.map(runner.model.describe) == ["load(A#1)", "stop(A#1)"])
    #expect(runner.model.kind == .failed)
    // The player's watchdog for the second load, after a stall, is its own too.
    let stalled = try FailureFile.parseCase(
      "play(A)\nready(A#1)\nstalled(A#1)\ntimeout(A#1, watchdog#2)\n")
    #expect(Fuzzer.check(subject, stalled) == nil)
  }

  // MARK: Tokens are identities

  /// Playhead's `Player` behind an engine adapter that renumbers its load
  /// tokens: `renumber(t)` on the way out, the inverse on the way in.
  final class Renumbered: FuzzTarget, Sendable {
    final class Shift: PlaybackEngine {
      let inner: any PlaybackEngine
      let renumber: @Sendable (UInt32) -> UInt32
      let inverse: @Sendable (UInt32) -> UInt32
      init(
        _ inner: any PlaybackEngine, _ renumber: @escaping @Sendable (UInt32) -> UInt32,
        _ inverse: @escaping @Sendable (UInt32) -> UInt32
      ) {
        self.inner = inner
        self.renumber = renumber
        self.inverse = inverse
      }
      var capabilities: EngineCapabilities { inner.capabilities }
      func out(_ load: Load) -> Load {
        Load(item: load.item, token: LoadToken(renumber(load.token.rawValue)))
      }
      func execute(_ command: EngineCommand, reports: ReportSink) {
        let renumbered = command.withLoad(out(command.load))
        let inverse = inverse
        inner.execute(
          renumbered,
          reports: ReportSink { report in
            reports.send(
              report.withLoad(
                Load(item: report.load.item, token: LoadToken(inverse(report.load.token.rawValue))))
            )
          })
      }
    }

    let player: Player
    let shift: Shift
    let inverse: @Sendable (UInt32) -> UInt32

    init(
      engine: any PlaybackEngine, renumber: @escaping @Sendable (UInt32) -> UInt32,
      inverse: @escaping @Sendable (UInt32) -> UInt32
    ) {
      shift = Shift(engine, renumber, inverse)
      self.inverse = inverse
      player = Player(
        engine: shift,
        state: .fuzzed(by: engine),
        watchdog: FuzzEngine.watchdog(for: engine))
    }

    func back(_ load: Load) -> Load {
      Load(item: load.item, token: LoadToken(inverse(load.token.rawValue)))
    }

    func send(_ event: PlaybackEvent) {
      switch event {
      case .user, .remote, .system: player.send(event)
      case .engine(let report):
        player.send(.engine(report.withLoad(back(report.load))))
      case .watchdogExpired(let load, let id): player.send(.watchdogExpired(back(load), id))
      }
    }
    var observation: FuzzObservation {
      var seen = FuzzObservation(player.state)
      if let loads = seen.loads {
        seen.loads = (loads.current.map(shift.out), loads.preload.map(shift.out))
      }
      return seen
    }
    var stateDescription: String { player.state.description }
  }

  /// The process-wide counter: each player's tokens start past every token issued before.
  static let counter = Locked<UInt32>(1000)

  @Test func tokensFromAProcessWideCounterPass() {
    let subject = FuzzSubject(name: "ProcessWideTokens") { engine in
      // 1000 tokens per player, at a base no earlier player used; a token of
      // another player is none of this one's (0 is never issued).
      let base = OracleTests.counter.withLock { value -> UInt32 in
        defer { value += 1000 }
        return value
      }
      return Renumbered(
        engine: engine, renumber: { $0 == 0 ? 0 : base + $0 },
        inverse: { $0 > base && $0 <= base + 1000 ? $0 - base : 0 })
    }
    let result = Fuzzer.run(
      subject, FuzzConfiguration(seed: 5, budget: .cases(1500), maxLength: 16))
    #expect(result.failure == nil, "\(result.failure?.report ?? "")")
    #expect(result.cases == 1500)
  }

  @Test func aReusedTokenFails() throws {
    // Every load gets token 7: the second load reuses the first one's token.
    let subject = FuzzSubject(name: "ReusesTokens") { engine in
      Renumbered(engine: engine, renumber: { $0 == 0 ? 0 : 7 }, inverse: { $0 == 7 ? 1 : 0 })
    }
    let violation = try #require(
      CaseRunner.check(subject, [.send(.play("A")), .send(.play("B"))]))
    #expect(violation.step == 2)
    #expect(violation.expectedLog == ["load(A#1)", "stop(A#1)", "load(B#2)"])
    #expect(violation.actualLog == ["load(A#1)", "stop(A#1)", "load(B#1)"])
  }
}

extension PlaybackState {
  /// A new player's state with the retry policy of the harness's case.
  static func fuzzed(by engine: any PlaybackEngine) -> PlaybackState {
    PlaybackState(configuration: PlayerConfiguration(retry: FuzzEngine.retry(for: engine)))
  }
}
