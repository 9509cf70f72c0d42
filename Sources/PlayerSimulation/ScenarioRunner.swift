import PlayerEngine
import PlayerState

/// Runs a ``Scenario`` through the real ``PlayerEngine/Player`` driving a ``FakeMediaEngine``,
/// with the player's watchdog on the same ``VirtualClock``.
///
/// Each script line runs in order; `wait` advances the clock and delivers the
/// reports that fall due; the run stops at the first `expect` that fails.
/// The same scenario and options always give the same timeline.
///
/// ```swift
/// let scenario = try ScenarioParser.parse(text, file: "late.play")
/// let result = ScenarioRunner().run(scenario) { item in print(item) }
/// if let failure = result.failure { print(failure) }
/// ```
public struct ScenarioRunner: Sendable {
  /// The watchdog timeout before a script's first `watchdog` line: 5 s.
  public static let defaultWatchdog: Duration = .seconds(5)

  /// If set, replaces the seed of every `hostile on` line (the CLI's `--seed`).
  public var seed: UInt64?
  /// How fast virtual time passes.
  public var pace: SimulationPace
  /// Whether ``ScenarioResult/entries`` keeps every timeline entry (the
  /// default). A caller that reads entries as they stream through `output`
  /// (as `player-sim run` does) turns this off, so a run's memory does not
  /// grow with its number of events.
  public var keepsEntries = true

  /// A runner.
  /// - Parameters:
  ///   - seed: replaces the seeds of `hostile on` lines; nil keeps them.
  ///   - pace: instant (the default) or real time.
  public init(seed: UInt64? = nil, pace: SimulationPace = .instant) {
    self.seed = seed
    self.pace = pace
  }

  /// Runs a scenario.
  /// - Parameters:
  ///   - scenario: the parsed script.
  ///   - output: called with each timeline item as it happens (streamed, in order).
  /// - Returns: the timeline and the first failed expectation, if any.
  public func run(_ scenario: Scenario, output: (TimelineItem) -> Void = { _ in }) -> ScenarioResult
  {
    let clock = VirtualClock()
    let engine = FakeMediaEngine(clock: clock)
    let recorder = TimelineRecorder(clock: clock)
    let watchdog = WatchdogPolicy(timeout: Self.defaultWatchdog) { _, fire in
      guard let timeout = recorder.watchdogTimeout else { return }
      clock.schedule(after: timeout, fire)
    }
    let player = Player(engine: engine, watchdog: watchdog) { recorder.record($0) }

    var entries: [TimelineEntry] = []
    var sinceCheck: [EngineCommand] = []
    var ignoredSinceCheck: [IgnoreReason] = []
    var failure: ExpectationFailure?
    func flush() {
      for entry in recorder.take() {
        if keepsEntries { entries.append(entry) }
        sinceCheck += entry.commands
        if let reason = entry.ignored, entry.event.source != .user {
          ignoredSinceCheck.append(reason)
        }
        output(.event(entry))
      }
    }

    for step in scenario.steps {
      let fail = { (expected: String, found: String) in
        ExpectationFailure(
          file: scenario.file, line: step.line, column: step.column, expected: expected,
          found: found)
      }
      switch step.action {
      case .media(let media, let profile):
        engine.setProfile(profile, for: media)
      case .hostile(var mode):
        if let seed { mode?.seed = seed }
        engine.setHostile(mode)
      case .watchdog(let timeout):
        recorder.watchdogTimeout = timeout
      case .intent(let intent):
        player.send(.user(intent))
        flush()
      case .wait(let interval):
        clock.advance(by: interval, pace: pace, afterEach: flush)
        flush()
      case .waitUntil(let expectation, let within):
        let reached = clock.advance(atMost: within, pace: pace, afterEach: flush) {
          expectation.matches(player.state)
        }
        flush()
        let limit = SimulatedTime.scriptText(milliseconds: within.wholeMilliseconds)
        guard reached else {
          failure = fail("state \(expectation) within \(limit)", "state \(player.state)")
          break
        }
        output(
          .check(
            milliseconds: clock.milliseconds, line: step.line,
            text:
              "wait until \(expectation): reached at \(SimulatedTime.clockText(milliseconds: clock.milliseconds))"
          ))
      case .inject(let event):
        recorder.markInjected()
        player.send(event)
        flush()
      case .expectState(let expectation):
        let state = player.state
        guard expectation.matches(state) else {
          failure = fail("state \(expectation)", "state \(state)")
          break
        }
        output(
          .check(
            milliseconds: clock.milliseconds, line: step.line, text: "expect state \(expectation)"))
      case .expectCommands(let expected):
        let found = sinceCheck
        sinceCheck = []
        guard found == expected else {
          failure = fail("commands \(Self.list(expected))", "commands \(Self.list(found))")
          break
        }
        output(
          .check(
            milliseconds: clock.milliseconds, line: step.line,
            text: "expect commands \(Self.list(expected))"))
      case .expectIgnored(let expected):
        let found = ignoredSinceCheck
        ignoredSinceCheck = []
        let describe = { (reasons: [IgnoreReason]) in
          reasons.isEmpty ? "none" : reasons.map(\.rawValue).joined(separator: " ")
        }
        guard found == expected else {
          failure = fail("ignored \(describe(expected))", "ignored \(describe(found))")
          break
        }
        output(
          .check(
            milliseconds: clock.milliseconds, line: step.line,
            text: "expect ignored \(describe(expected))"
          ))
      case .note(let text):
        output(.note(milliseconds: clock.milliseconds, text: text))
      }
      if failure != nil { break }
    }
    flush()
    return ScenarioResult(
      entries: entries, failure: failure, finalState: player.state, commands: engine.commands,
      milliseconds: clock.milliseconds)
  }

  private static func list(_ commands: [EngineCommand]) -> String {
    commands.isEmpty ? "none" : commands.map(\.description).joined(separator: " ")
  }
}
