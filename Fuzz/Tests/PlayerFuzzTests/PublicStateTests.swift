import PlayerEngine
import PlayerFuzz
import PlayerState
import Testing

/// Issue 21, item 3: after every step the whole public state a player says is
/// compared with the contract's, and each event's ignore reason with the
/// contract's; what a player does not say is named in the result.
@Suite struct PublicStateTests {
  @Test func aPauseDuringASystemPauseThatKeepsTheFlagIsCaught() throws {
    let fuzzCase = try FailureFile.parseCase(
      "play(A)\nready(A#1)\npausedBySystem(A#1)\npause\n")
    #expect(Fuzzer.check(.player, fuzzCase) == nil)
    let failure = try #require(Fuzzer.check(BuggyPlayer(.pauseKeepsSystemPause).subject, fuzzCase))
    // The commands are right: only the state shows it.
    #expect(failure.violation.expectedLog == failure.violation.actualLog)
    #expect(failure.property == .stateMatchesContract)
    #expect(failure.violation.step == 4)
    #expect(
      failure.violation.detail.contains(
        "suppression: the player's systemPause, the contract's none"),
      "\(failure.violation.detail)")
  }

  @Test func anEventIgnoredForTheWrongReasonIsCaught() throws {
    let failure = try #require(
      Fuzzer.check(BuggyPlayer(.neverIssuedCalledStale).subject, [.send(.ready(Load(1, 1)))]))
    #expect(failure.property == .ignoreReasonMatchesContract)
    #expect(
      failure.violation.detail
        == "the player ignored (staleLoad: stale load token) ready(item1#1); the contract ignored (neverIssuedLoad: load token never issued)"
    )
  }

  @Test func theContractsReasonsAreTheReducersOnARandomRun() {
    // Playhead's Player reports each event's reason (through onStep): every
    // one of these cases compares them, and the whole state, at every step.
    let result = Fuzzer.run(.player, FuzzConfiguration(seed: 2_100, budget: .cases(2_000)))
    #expect(result.passed, "\(result)")
    #expect(result.notCompared.isEmpty)
  }

  @Test(arguments: [
    ("play(A)\nready(A#2)", IgnoreReason.neverIssuedLoad),
    ("play(A)\nplay(B)\nready(A#1)", .staleLoad),
    ("play(A)\nready(B#1)", .itemMismatch),
    ("play(A)\nseek(0ms)\nseek(0ms)\nseeked(A#1, seek#1)", .supersededSeek),
    ("play(A)\nseeked(A#1, seek#1)", .neverIssuedSeek),
    ("play(A)\ntimeout(A#1, watchdog#2)", .staleWatchdog),
    ("play(A)\nready(A#1)\nseek(0ms)\nposition(A#1, 5ms)", .seekPending),
    ("play(A)\nresumed(A#1)", .unexpected),
    ("pause", .noEffect),
    ("play(A)\nremove(2)", .invalidPosition),
    ("rate(0x)", .invalidArgument),
    ("interrupt end", .notInterrupted),
  ])
  func theContractNamesEachReasonAsTheReducerDoes(_ text: String, _ reason: IgnoreReason) throws {
    let fuzzCase = try FailureFile.parseCase(text)
    var model = ContractModel()
    var state = PlaybackState()
    var commands: [EngineCommand] = []
    var last: (contract: IgnoreReason?, reducer: IgnoreReason?) = (nil, nil)
    for action in fuzzCase.actions {
      let event = try #require(action.event)
      last = (model.process(event, commands: &commands), state.handle(event).ignored)
    }
    #expect(last.contract == reason)
    #expect(last.reducer == reason)
  }

  /// Playhead's `Player` saying only what the README's minimal adapter says.
  final class Terse: FuzzTarget {
    let player: Player
    init(engine: any PlaybackEngine) {
      player = FuzzEngine.player(for: engine)
    }
    func send(_ event: PlaybackEvent) { player.send(event) }
    var observation: FuzzObservation {
      let state = player.state
      return FuzzObservation(kind: state.kind, isPlaying: state.isPlaying)
    }
    var stateDescription: String { player.state.description }
  }

  @Test func theResultSaysWhatAPlayerLeftUncompared() {
    let subject = FuzzSubject(name: "Terse") { Terse(engine: $0) }.reading(.all)
    let result = Fuzzer.run(subject, FuzzConfiguration(seed: 3, budget: .cases(200)))
    #expect(result.passed, "\(result)")
    #expect(result.notCompared == FuzzObservable.allCases)
    #expect(
      result.description.contains(
        "not compared (the player does not say them): seekPending, queue, loads, position, "
          + "preloadReady, failure, publicState, ignoreReasons, nowPlaying, availableCommands, "
          + "notifications"))
  }

  @Test func aPlayerThatSaysItsWholeStateIsComparedFieldByField() throws {
    // The rate is said only in the whole state: a player that keeps the old
    // rate is caught by it.
    final class StaleRate: FuzzTarget {
      let player: Player
      init(engine: any PlaybackEngine) {
        player = Player(engine: engine, watchdog: FuzzEngine.watchdog(for: engine))
      }
      func send(_ event: PlaybackEvent) {
        if case .user(.setRate) = event { return }
        player.send(event)
      }
      var observation: FuzzObservation { FuzzObservation(player.state) }
      var stateDescription: String { player.state.description }
    }
    let subject = FuzzSubject(name: "StaleRate") { StaleRate(engine: $0) }
    let violation = try #require(
      CaseRunner.check(subject, [.send(.user(.setRate(PlaybackRate(thousandths: 1500))))]))
    #expect(violation.property == .stateMatchesContract)
    #expect(violation.detail.hasSuffix("; rate: the player's 1x, the contract's 1.5x"))
  }
}
