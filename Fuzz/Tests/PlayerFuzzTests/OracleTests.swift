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
    var description: String { "\(bug)" }
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
    Case(
      bug: .pauseLostWhileBuffering, actions: "play(A)\npause\nready(A#1)",
      property: .startOnlyWhenReadyAndWanted, step: 3, expected: ["load(A#1)"],
      actual: ["load(A#1)", "start(A#1)"]),
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
  ]

  @Test(arguments: cases)
  func eachMistakeBreaksItsProperty(_ example: Case) throws {
    let actions = try FailureFile.parse(example.actions)
    let violation = try #require(CaseRunner.check(BuggyPlayer(example.bug).subject, actions))
    #expect(violation.property == example.property)
    #expect(violation.step == example.step)
    #expect(violation.expected.map(\.description) == example.expected)
    #expect(violation.actual.map(\.description) == example.actual)
  }

  @Test func theModelPredictsTheContractsCommands() {
    var model = ContractModel()
    var commands: [EngineCommand] = []
    let events: [PlaybackEvent] = [
      .play("A"), .ready(Load("A", 1)), .stalled(Load("A", 1)), .pause, .resumed(Load("A", 1)),
      .resume, .seek(to: .seconds(2)), .reachedEnd(Load("A", 1)),
      .seekCompleted(Load("A", 1), SeekID(1)),
      .reachedEnd(Load("A", 1)), .resume, .play("B"), .watchdogExpired(Load("B", 2), WatchdogID(1)),
      .retry, .stop,
    ]
    var accepted: [Bool] = []
    for event in events { accepted.append(model.apply(event, commands: &commands)) }
    #expect(
      commands.map(\.description) == [
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

  /// A player that says it is still buffering after a stop: caught by property 4.
  final class StuckAfterStop: FuzzTarget {
    let player: Player
    var stopped = false
    init(engine: any PlaybackEngine) { player = Player(engine: engine) }
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
}
