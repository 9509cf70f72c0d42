import PlayerEngine
import PlayerFuzz
import PlayerState
import Testing

/// The oracle's rules for issue 10 (docs/machine.md, "The system"), with literal logs.
@Suite struct SystemOracleTests {
  static func run(
    _ events: [PlaybackEvent], retry: RetryPolicy = .standard
  ) -> (model: ContractModel, log: [String], accepted: [Bool]) {
    var model = ContractModel(retry: retry)
    var commands: [EngineCommand] = []
    var accepted: [Bool] = []
    for event in events { accepted.append(model.apply(event, commands: &commands)) }
    return (model, commands.map(model.describe), accepted)
  }

  @Test func anInterruptionPausesHoldsAndEndsWithOrWithoutTheHint() {
    let (model, log, accepted) = Self.run([
      .play("A"), .ready(Load(1, 1)), .system(.interruptionBegan), .system(.interruptionBegan),
      .user(.setRate(PlaybackRate(thousandths: 1500))),
      .system(.interruptionEnded(shouldResume: true)),
      .system(.interruptionBegan), .system(.interruptionEnded(shouldResume: false)),
      .system(.interruptionEnded(shouldResume: true)),
    ])
    #expect(
      log == [
        "load(A#1)", "start(A#1)", "pause(A#1)", "start(A#1, 1.5x)", "pause(A#1)",
      ])
    // A second begin and an end with none in progress are ignored.
    #expect(accepted == [true, true, true, false, true, true, true, true, false])
    // Without the hint the intent became pause.
    #expect(model.kind == .paused)
    #expect(!model.playWhenReady)
  }

  @Test func aReadyDuringAnInterruptionIsSuppressedUntilItsEnd() {
    let (model, log, _) = Self.run([
      .play("A"), .system(.interruptionBegan), .ready(Load(1, 1)),
    ])
    #expect(log == ["load(A#1)"])
    #expect(model.kind == .suppressed)
    #expect(!model.engineIsPlaying)
  }

  @Test func aSystemPauseIsTakenOverByAnInterruptionAndEndedByResume() {
    let (model, log, accepted) = Self.run([
      .play("A"), .ready(Load(1, 1)), .engine(.pausedBySystem(Load(1, 1))),
      .engine(.pausedBySystem(Load(1, 1))), .system(.interruptionBegan),
      .system(.interruptionEnded(shouldResume: true)), .engine(.pausedBySystem(Load(1, 1))),
      .resume,
    ])
    // The engine paused itself: no pause; the interruption's end starts it again;
    // a second system pause ends with the user's resume.
    #expect(log == ["load(A#1)", "start(A#1)", "start(A#1)", "start(A#1)"])
    #expect(accepted == [true, true, true, false, true, true, true, true])
    #expect(model.kind == .playing)
  }

  @Test func routeLossIsAPauseThatNeverResumesByItself() {
    let (model, log, _) = Self.run([
      .play("A"), .ready(Load(1, 1)), .system(.routeLost), .system(.interruptionBegan),
      .system(.interruptionEnded(shouldResume: true)),
    ])
    #expect(log == ["load(A#1)", "start(A#1)", "pause(A#1)"])
    #expect(model.kind == .paused)
  }

  @Test func aNetworkFailureWaitsReloadsAtThePositionAndRunsOutOfAttempts() {
    let policy = RetryPolicy(
      attempts: 2, backoff: .milliseconds(500), maximumBackoff: .milliseconds(800))
    let (model, log, accepted) = Self.run(
      [
        .play("A"), .ready(Load(1, 1)), .position(Load(1, 1), .seconds(7)),
        .engine(
          .failed(Load(1, 1), .network, detail: FailureDetail(domain: "D", code: 1, message: "m"))),
        .system(.networkAvailable), .system(.networkLost),
        .watchdogExpired(Load(1, 2), WatchdogID(2)),
        .failed(Load(1, 3), .network),
      ], retry: policy)
    #expect(
      log == [
        "load(A#1)", "start(A#1)", "stop(A#1)", "load(A#2, from 7000ms)", "stop(A#2)",
        "load(A#3, from 7000ms)", "stop(A#3)",
      ])
    #expect(accepted == [true, true, true, true, true, true, true, true])
    // Two reloads, then the third network failure fails the entry.
    #expect(model.kind == .failed)
    #expect(model.current?.attempts == 2)
    #expect(model.backoff(after: 0) == 500)
    #expect(model.backoff(after: 1) == 800)
    #expect(ContractModel().backoff(after: 2) == 4000)
  }

  @Test func aStaleBackoffOrAvailabilityIsIgnored() {
    let (model, log, accepted) = Self.run([
      .play("A"), .failed(Load(1, 1), .network), .stop, .watchdogExpired(Load(1, 1), WatchdogID(2)),
      .system(.networkAvailable), .resume, .failed(Load(1, 2), .network), .retry,
      .watchdogExpired(Load(1, 2), WatchdogID(2)),
    ])
    #expect(log == ["load(A#1)", "stop(A#1)", "load(A#2)", "stop(A#2)", "load(A#3)"])
    #expect(accepted == [true, true, true, false, false, true, true, true, false])
    #expect(model.kind == .buffering)
  }

  @Test func withRetriesOffANetworkFailureFailsAtOnce() {
    let (model, log, _) = Self.run(
      [.play("A"), .failed(Load(1, 1), .network), .system(.networkAvailable)], retry: .off)
    #expect(log == ["load(A#1)", "stop(A#1)"])
    #expect(model.kind == .failed)
  }

  /// The Player with a backoff of the wrong length.
  final class WrongBackoff: FuzzTarget {
    let player: Player
    init(engine: any PlaybackEngine) {
      let clock = FuzzEngine.watchdog(for: engine)
      // Every timer, backoffs included, waits the watchdog's timeout.
      let flat = WatchdogPolicy(timeout: clock.timeout) { _, fire in
        clock.schedule(clock.timeout, fire)
      }
      player = Player(engine: engine, state: .fuzzed(by: engine), watchdog: flat)
    }
    func send(_ event: PlaybackEvent) { player.send(event) }
    var observation: FuzzObservation { FuzzObservation(player.state) }
    var stateDescription: String { player.state.description }
  }

  @Test func aBackoffOfTheWrongLengthFails() throws {
    let subject = FuzzSubject(name: "WrongBackoff") { WrongBackoff(engine: $0) }
    let violation = try #require(
      CaseRunner.check(subject, [.send(.play("A")), .send(.failed(Load(1, 1), .network))]))
    #expect(violation.property == .watchdogRequested)
    #expect(violation.step == 2)
    #expect(
      violation.detail
        == "the contract arms the backoff watchdog#2 for A#1 after 1000ms (the retry policy's delay); the player asked for 10.0 seconds"
    )
    #expect(
      Fuzzer.check(.player, [.send(.play("A")), .send(.failed(Load(1, 1), .network))]) == nil)
  }
}
