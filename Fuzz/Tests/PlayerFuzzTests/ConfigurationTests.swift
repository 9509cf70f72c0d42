import PlayerEngine
import PlayerFuzz
import PlayerState
import Testing

/// Issue 21, items 2 and 4: every case draws the player's configuration and
/// the watchdog clock's timeout, the oracle reads them, and every timer's
/// delay is checked (a player is judged on the expiries it can deliver, not on
/// how many timers it arms).
@Suite struct ConfigurationTests {
  @Test func theEngineLineSpellsTheConfigurationAndReadsItBack() throws {
    let text = """
      engine preload=no retry=off previous=1000ms watchdog=2500ms
      queue(A B, start 2, from 2000ms)
      previous

      """
    let fuzzCase = try FailureFile.parseCase(text)
    #expect(fuzzCase.previousThreshold == .seconds(1))
    #expect(fuzzCase.watchdogTimeout == .milliseconds(2500))
    #expect(fuzzCase.retry == .off)
    #expect(fuzzCase.text == text)
    // Fields in any order; the defaults print nothing.
    let reordered = try FailureFile.parseCase(
      "engine preload=yes watchdog=10000ms previous=3000ms\n")
    #expect(reordered.header == "engine preload=yes")
    // `parse` (actions only) refuses a case whose configuration it would lose.
    #expect(throws: FuzzParseError.self) {
      try FailureFile.parse("engine preload=no previous=0ms\nplay(A)\n")
    }
  }

  @Test(arguments: [
    ("engine preload=no previous=soon", "1:19: error: expected `previous=TIME`"),
    ("engine preload=no watchdog=0ms", "1:19: error: expected `watchdog=TIME` (more than 0ms)"),
    ("engine preload=no previous=1ms previous=2ms", "1:32: error: `previous` given twice"),
    (
      "engine preload=no speed=2x",
      "1:19: error: expected `retry=…`, `previous=…`, `watchdog=…`, `duck=…`, `fade=…` or `crossfade=…`"
    ),
  ])
  func aBadEngineFieldIsReportedWhereItIs(_ line: String, _ message: String) {
    #expect {
      try FailureFile.parseCase(line + "\n", file: "f.txt")
    } throws: { error in
      "\(error)".hasPrefix("f.txt:" + message)
    }
  }

  @Test func theOracleReadsThePreviousThresholdOfTheCase() throws {
    // At 2000 ms: past a 1 s threshold `previous` restarts B; under 3 s it goes back to A.
    let restart = try FailureFile.parseCase(
      "engine preload=no previous=1000ms\nqueue(A B, start 2, from 2000ms)\nprevious\n")
    let back = try FailureFile.parseCase(
      "engine preload=no\nqueue(A B, start 2, from 2000ms)\nprevious\n")
    for fuzzCase in [restart, back] {
      #expect(Fuzzer.check(.player, fuzzCase) == nil)
    }
    let buggy = BuggyPlayer(.ignoresPreviousThreshold).subject
    #expect(Fuzzer.check(buggy, restart)?.property == .commandsMatchContract)
    #expect(Fuzzer.check(buggy, back) == nil)
  }

  @Test func eachCaseDrawsThresholdsTimeoutsAndPoliciesForASubjectThatReadsThem() {
    var setups: Set<String> = []
    var plain: Set<String> = []
    let configuration = FuzzConfiguration(seed: 9, budget: .cases(400))
    for index in 0..<400 {
      let seed = SplitMix64.caseSeed(run: 9, case: index)
      setups.insert(Fuzzer.replayFuzzCase(.player, caseSeed: seed, configuration).0.header)
      plain.insert(
        Fuzzer.replayFuzzCase(Self.configurationBlind, caseSeed: seed, configuration).0.header)
    }
    for field in [
      "previous=0ms", "previous=1000ms", "previous=10000ms", "watchdog=1000ms", "watchdog=2500ms",
      "watchdog=30000ms", "retry=off", "retry=1/2000ms/30000ms", "retry=3/500ms/800ms",
    ] {
      #expect(setups.contains { $0.contains(field) }, "\(field) never drawn")
    }
    // A subject that does not say it reads the configuration keeps the 3 s threshold.
    #expect(!plain.contains { $0.contains("previous=") })
    #expect(plain.contains { $0.contains("watchdog=") })
  }

  /// Playhead's `Player` built with the retry policy only, as before issue 21.
  static let configurationBlind = FuzzSubject(name: "RetryOnly") { engine in
    PlayerTarget(
      Player(
        engine: engine,
        state: PlaybackState(
          configuration: PlayerConfiguration(retry: FuzzEngine.retry(for: engine))),
        watchdog: FuzzEngine.watchdog(for: engine)))
  }

  @Test func aDriverThatSchedulesEveryWatchdogAtOnceFailsAtTheFirstLoad() throws {
    let failure = try #require(
      Fuzzer.check(BuggyPlayer(.watchdogAtZero).subject, [.send(.play("A"))]))
    #expect(failure.property == .watchdogRequested)
    #expect(failure.violation.detail.contains("with the clock's timeout, 10000ms"))
  }

  @Test func aCappedBackoffIsCheckedAtTheCap() throws {
    let fuzzCase = try FailureFile.parseCase(
      """
      engine preload=no retry=3/500ms/800ms
      play(A)
      failed(A#1, network)
      network available
      failed(A#2, network)
      """)
    #expect(Fuzzer.check(.player, fuzzCase) == nil)
    let failure = try #require(Fuzzer.check(BuggyPlayer(.backoffCapIgnored).subject, fuzzCase))
    #expect(failure.property == .watchdogRequested)
    #expect(failure.violation.step == 4)
    #expect(failure.violation.detail.contains("after 800ms"))
  }

  @Test func aDriverThatCoalescesTheTimersOfADrainPasses() {
    let result = Fuzzer.run(
      CoalescingPlayer.subject, FuzzConfiguration(seed: 21, budget: .cases(3_000)))
    #expect(result.passed, "\(result)")
    // The coalescing is exercised: some drains arm more than one timer.
    let fuzzCase = FuzzCase([
      .send(.play("A")), .send(.ready(Load(1, 1))), .reentrant(.stalled(Load(1, 2))),
      .send(.play("B")),
    ])
    #expect(Fuzzer.check(CoalescingPlayer.subject, fuzzCase) == nil)
  }

  @Test func aDriverThatKeepsTheOldestTimerOfADrainFailsWhenItExpires() throws {
    // `play(B)` arms B#2's watchdog, then B's re-entrant stall arms another:
    // keeping the first, the player's expiry names a timer the contract superseded.
    let fuzzCase = FuzzCase([
      .send(.play("A")), .reentrant(.ready(Load(2, 2))), .reentrant(.stalled(Load(2, 2))),
      .send(.play("B")), .send(.watchdogExpired(Load(2, 2), WatchdogID(2))),
    ])
    #expect(Fuzzer.check(CoalescingPlayer.subject, fuzzCase) == nil)
    let failure = try #require(Fuzzer.check(CoalescingPlayer.keepingOldest, fuzzCase))
    #expect(failure.violation.step == 5)
  }
}

/// Playhead's reducer behind a serial driver that schedules, at the end of
/// each drain, only the newest timer the drain's events asked for (or, with
/// `keepOldest`, wrongly, only the oldest): a legal driver, since a
/// superseded timer's expiry is ignored anyway.
///
/// `@unchecked Sendable` is safe here: the subject is not `isThreadSafe`, so
/// the fuzzer sends to it from one thread only, and the harness's virtual clock
/// fires its timers on that thread, inside `deliver`; nothing else touches it.
final class CoalescingPlayer: FuzzTarget, @unchecked Sendable {  // single-threaded: see above
  private var state: PlaybackState
  private let engine: any PlaybackEngine
  private let watchdog: WatchdogPolicy
  private let keepOldest: Bool
  private var queue: [PlaybackEvent] = []
  private var draining = false

  init(engine: any PlaybackEngine, keepOldest: Bool) {
    self.engine = engine
    self.keepOldest = keepOldest
    watchdog = FuzzEngine.watchdog(for: engine)
    state = FuzzEngine.state(for: engine)
  }

  static let subject = FuzzSubject(name: "Coalescing") {
    CoalescingPlayer(engine: $0, keepOldest: false)
  }.reading([.retryPolicy, .configuration, .startState])

  static let keepingOldest = FuzzSubject(name: "CoalescingToTheOldest") {
    CoalescingPlayer(engine: $0, keepOldest: true)
  }.reading([.retryPolicy, .configuration, .startState])

  func send(_ event: PlaybackEvent) {
    queue.append(event)
    guard !draining else { return }
    draining = true
    var timer: WatchdogRequest?
    let sink = ReportSink { [weak self] report in self?.send(.engine(report)) }
    while !queue.isEmpty {
      let effects = state.handle(queue.removeFirst())
      if let request = effects.watchdog, !(keepOldest && timer != nil) { timer = request }
      for command in effects.commands { engine.execute(command, reports: sink) }
    }
    draining = false
    if let timer {
      let after = timer.delay ?? watchdog.timeout
      watchdog.schedule(after) { [weak self] in self?.send(.watchdogExpired(timer.load, timer.id)) }
    }
  }

  var observation: FuzzObservation { FuzzObservation(state) }
  var stateDescription: String { state.description }
}
