import PlayerState
import PlayerTesting

/// How far a random run has got, for progress lines.
public struct FuzzProgress: Hashable, Sendable {
  /// Cases run so far.
  public var cases: Int
  /// Events checked so far.
  public var events: Int
  /// Seconds since the run started.
  public var seconds: Double

  /// A progress report.
  public init(cases: Int, events: Int, seconds: Double) {
    self.cases = cases
    self.events = events
    self.seconds = seconds
  }
}

/// The harness's entry points: random runs, single cases, replay.
///
/// ```swift
/// let result = Fuzzer.run(.player, FuzzConfiguration(seed: 42, budget: .seconds(60)))
/// print(result)                      // always prints the seed
/// if let failure = result.failure {
///   print(failure.swiftTest)         // a ready-to-paste regression test
/// }
/// ```
public enum Fuzzer {
  /// Runs random cases until the budget is spent or a property breaks.
  /// - Parameters:
  ///   - subject: the player under test.
  ///   - configuration: seed, budget, case length, swarm, shrinking, and the
  ///     shard: the run's slice of case indices (a failure names its index in
  ///     the whole run, so it replays without the shard).
  ///   - progress: called every 1 024 cases, on the calling thread, with the
  ///     counts so far (for a progress line; keep it short).
  /// - Returns: counts, rate, coverage and the first failure, shrunk.
  public static func run(
    _ subject: FuzzSubject, _ configuration: FuzzConfiguration,
    progress: ((FuzzProgress) -> Void)? = nil
  ) -> FuzzResult {
    run(subject, configuration, progress: progress, willRun: nil)
  }

  /// ``run(_:_:progress:)``, calling `willRun` with each case's index and
  /// case seed before it runs (for tests of which cases a shard runs).
  package static func run(
    _ subject: FuzzSubject, _ configuration: FuzzConfiguration,
    progress: ((FuzzProgress) -> Void)?, willRun: ((_ caseIndex: Int, _ caseSeed: UInt64) -> Void)?
  ) -> FuzzResult {
    // Several threads (not for `willRun`, which is called on this thread only).
    if configuration.jobs > 1 { return runOnJobs(subject, configuration, progress: progress) }
    let decoder = ActionDecoder(configuration, for: subject)
    let clock = ContinuousClock()
    let started = clock.now
    let (limit, deadline) = bounds(configuration.budget, from: started)
    var result = FuzzResult(
      subject: subject.name, configuration: configuration, cases: 0, events: 0, seconds: 0,
      shrinkSeconds: 0, failure: nil, coverage: FuzzCoverage())
    var found: (CaseRunner, FuzzViolation, Int, UInt64)?
    // The shard's case indices: `index` is the case's index in the whole run
    // (its seed and the index a failure prints), `done` the cases run here.
    let shard = configuration.shard
    var index = shard.index
    var done = 0
    // One runner, reset for each case: its buffers keep their capacity.
    var runner = CaseRunner(subject, canPreload: false)
    swap(&runner.coverage, &result.coverage)
    while index < limit {
      if let deadline, done & 63 == 0, clock.now >= deadline { break }
      let seed = SplitMix64.caseSeed(run: configuration.seed, case: index)
      willRun?(index, seed)
      var bytes = RandomBytes(seed: seed)
      // Costly ignore reasons (Playhead's Player's step records) in one case in four.
      let violation = runCase(
        subject, decoder, &bytes, reusing: &runner, costlyReasons: seed & 3 == 0)
      result.events += runner.events
      done += 1
      if let violation {
        swap(&runner.coverage, &result.coverage)
        found = (runner, violation, index, seed)
        break
      }
      if let progress, done & 1023 == 0 {
        progress(
          FuzzProgress(cases: done, events: result.events, seconds: secondsSince(started, clock)))
      }
      let (next, overflow) = index.addingReportingOverflow(shard.count)
      if overflow { break }
      index = next
    }
    if found == nil { swap(&runner.coverage, &result.coverage) }
    result.notCompared = (found?.0 ?? runner).notCompared
    result.cases = done
    result.seconds = secondsSince(started, clock)
    return report(found, subject, configuration, clock, into: result)
  }

  /// A budget as the most cases to run and the moment to stop, from `started`.
  private static func bounds(
    _ budget: FuzzBudget, from started: ContinuousClock.Instant
  ) -> (limit: Int, deadline: ContinuousClock.Instant?) {
    switch budget {
    case .cases(let count): (count, nil)
    case .seconds(let seconds): (Int.max, started.advanced(by: .nanoseconds(Int64(seconds * 1e9))))
    }
  }

  /// `run(_:_:progress:)` on `FuzzConfiguration.jobs` threads (`ParallelFuzz`).
  private static func runOnJobs(
    _ subject: FuzzSubject, _ configuration: FuzzConfiguration,
    progress: ((FuzzProgress) -> Void)?
  ) -> FuzzResult {
    let decoder = ActionDecoder(configuration, for: subject)
    let clock = ContinuousClock()
    let started = clock.now
    let (limit, deadline) = bounds(configuration.budget, from: started)
    let run = ParallelFuzz.run(
      subject, configuration, jobs: configuration.jobs, limit: limit, deadline: deadline
    ) { cases, events in
      progress?(FuzzProgress(cases: cases, events: events, seconds: secondsSince(started, clock)))
    }
    var result = FuzzResult(
      subject: subject.name, configuration: configuration, cases: run.cases, events: run.events,
      seconds: secondsSince(started, clock), shrinkSeconds: 0, failure: nil,
      coverage: run.coverage)
    result.notCompared = FuzzObservable.decode(run.unsaid)
    var found: (CaseRunner, FuzzViolation, Int, UInt64)?
    if let index = run.failure {
      // The failing case again, on this thread: the runner it leaves is the one thread's.
      let seed = SplitMix64.caseSeed(run: configuration.seed, case: index)
      var bytes = RandomBytes(seed: seed)
      var runner = CaseRunner(subject, canPreload: false)
      runner.recordsCoverage = false
      if let violation = runCase(
        subject, decoder, &bytes, reusing: &runner, costlyReasons: seed & 3 == 0)
      {
        found = (runner, violation, index, seed)
      }
    }
    return report(found, subject, configuration, clock, into: result)
  }

  /// `result` with the failure `found` (its runner, violation, case index
  /// and case seed) shrunk and reported, if there is one.
  private static func report(
    _ found: (CaseRunner, FuzzViolation, Int, UInt64)?, _ subject: FuzzSubject,
    _ configuration: FuzzConfiguration, _ clock: ContinuousClock, into result: FuzzResult
  ) -> FuzzResult {
    var result = result
    if let (runner, violation, caseIndex, seed) = found {
      let shrinkStart = clock.now
      let outcome =
        configuration.shrink
        ? Shrinker.shrink(subject, runner.trace, violation: violation, setup: runner.setup)
        : Shrinker.Outcome(
          actions: runner.trace, violation: violation, attempts: 0, setup: runner.setup)
      result.shrinkSeconds = secondsSince(shrinkStart, clock)
      result.failure = FuzzFailure(
        subject: subject,
        origin: .random(seed: configuration.seed, caseIndex: caseIndex, caseSeed: seed),
        original: runner.trace, actions: outcome.actions, violation: outcome.violation,
        shrinkAttempts: outcome.attempts,
        timeline: timeline(subject, FuzzCase(outcome.actions, setup: outcome.setup)),
        setup: outcome.setup)
      result.failure?.shrinkNote = outcome.note
    }
    return result
  }

  /// Decodes one case from `bytes` and runs it, checking every step.
  /// A finite source (libFuzzer's bytes) ends the case when it runs dry.
  /// - Returns: the runner after the case (trace, events, coverage) and the first violation.
  package static func runCase(
    _ subject: FuzzSubject, _ decoder: ActionDecoder, _ bytes: inout some ByteSource
  ) -> (CaseRunner, FuzzViolation?) {
    var coverage = FuzzCoverage()
    return runCase(subject, decoder, &bytes, coverage: &coverage)
  }

  /// Runs one case, recording into `coverage` (moved into the returned
  /// runner's ``CaseRunner/coverage``; move it back with `swap`): merging a
  /// fresh coverage per case would cost more than the case.
  package static func runCase(
    _ subject: FuzzSubject, _ decoder: ActionDecoder, _ bytes: inout some ByteSource,
    coverage: inout FuzzCoverage
  ) -> (CaseRunner, FuzzViolation?) {
    var runner = CaseRunner(subject, setup: decoder.setup(from: &bytes, inputs: subject.inputs))
    swap(&runner.coverage, &coverage)
    let (length, mask) = decoder.header(from: &bytes)
    for _ in 0..<length {
      if bytes.isExhausted { break }
      let action = decoder.next(
        after: runner.model, held: runner.laterCount, mask: mask, from: &bytes)
      if let violation = runner.perform(action) { return (runner, violation) }
    }
    // Finish before copying the runner out: a copy taken first would make the
    // coverage buffers shared, and every later record copy them.
    let violation = runner.finish()
    return (runner, violation)
  }

  /// Runs one case in `runner`, reset first (its coverage stays and records).
  /// - Returns: the first violation, or nil.
  static func runCase(
    _ subject: FuzzSubject, _ decoder: ActionDecoder, _ bytes: inout some ByteSource,
    reusing runner: inout CaseRunner, costlyReasons: Bool = true
  ) -> FuzzViolation? {
    runner.reset(
      subject, setup: decoder.setup(from: &bytes, inputs: subject.inputs),
      costlyReasons: costlyReasons)
    let (length, mask) = decoder.header(from: &bytes)
    for _ in 0..<length {
      if bytes.isExhausted { break }
      let action = decoder.next(
        after: runner.model, held: runner.laterCount, mask: mask, from: &bytes)
      if let violation = runner.perform(action) { return violation }
    }
    return runner.finish()
  }

  /// Replays one case of a run on its own: the case a failure names.
  /// - Parameters:
  ///   - subject: the player under test.
  ///   - caseSeed: the case's seed, as printed in a failure.
  ///   - configuration: the run's configuration (its case length and swarm setting matter).
  /// - Returns: the case's actions and its first violation.
  public static func replayCase(
    _ subject: FuzzSubject, caseSeed: UInt64, _ configuration: FuzzConfiguration
  ) -> ([FuzzAction], FuzzViolation?) {
    var bytes = RandomBytes(seed: caseSeed)
    let decoder = ActionDecoder(configuration, for: subject)
    let (runner, violation) = runCase(subject, decoder, &bytes)
    return (runner.trace, violation)
  }

  /// Replays one case of a run on its own, with its engine.
  /// - Parameters:
  ///   - subject: the player under test.
  ///   - caseSeed: the case's seed, as printed in a failure.
  ///   - configuration: the run's configuration.
  /// - Returns: the case and its first violation.
  public static func replayFuzzCase(
    _ subject: FuzzSubject, caseSeed: UInt64, _ configuration: FuzzConfiguration
  ) -> (FuzzCase, FuzzViolation?) {
    var bytes = RandomBytes(seed: caseSeed)
    let decoder = ActionDecoder(configuration, for: subject)
    let (runner, violation) = runCase(subject, decoder, &bytes)
    return (FuzzCase(runner.trace, setup: runner.setup), violation)
  }

  /// Checks a given case (a saved failure, a hand-written scenario).
  /// - Returns: its failure, unshrunk, or nil when every property held.
  public static func check(_ subject: FuzzSubject, _ actions: [FuzzAction]) -> FuzzFailure? {
    check(subject, FuzzCase(actions))
  }

  /// Checks a given case on the engine it names.
  /// - Returns: its failure, unshrunk, or nil when every property held.
  public static func check(_ subject: FuzzSubject, _ fuzzCase: FuzzCase) -> FuzzFailure? {
    let actions = fuzzCase.actions
    guard let violation = CaseRunner.check(subject, actions, setup: fuzzCase.setup) else {
      return nil
    }
    return FuzzFailure(
      subject: subject, origin: .given, original: actions, actions: actions,
      violation: violation, shrinkAttempts: 0, timeline: timeline(subject, fuzzCase),
      setup: fuzzCase.setup)
  }

  /// The case as a numbered timeline on an engine that does not preload.
  public static func timeline(_ subject: FuzzSubject, _ actions: [FuzzAction]) -> String {
    timeline(subject, FuzzCase(actions))
  }

  /// The case as a numbered timeline: each action, the commands it caused and
  /// the player's state after it, with the failing step marked.
  public static func timeline(_ subject: FuzzSubject, _ fuzzCase: FuzzCase) -> String {
    var text = ""
    timeline(subject, fuzzCase) { row in
      if !text.isEmpty { text += "\n" }
      text += row
    }
    return text
  }

  /// The widest an action or a commands column is padded to: a longer text
  /// (a long `queue(…)`) pushes the rest of its own row only, so a timeline
  /// is as long as its rows' texts, never rows times the longest one.
  package static let timelineColumnLimit = 40

  /// ``timeline(_:_:)-(_,FuzzCase)``, one row at a time, so a long case is
  /// printed without holding its whole timeline twice.
  /// - Parameter row: called with each row, in order, without its newline.
  package static func timeline(
    _ subject: FuzzSubject, _ fuzzCase: FuzzCase, row emit: (String) -> Void
  ) {
    let actions = fuzzCase.actions
    let setup = fuzzCase.setup
    // The events the end of the case adds (held-back reports, cooperative
    // answers) are shown as the explicit actions they become.
    var full = CaseRunner(subject, setup: setup)
    full.recordsCoverage = false
    for action in actions where full.perform(action) != nil { break }
    if full.trace.count == actions.count { _ = full.finish() }
    rows(subject, fuzzCase, trace: full.trace, row: emit)
  }

  /// Checks a case (as ``check(_:_:)-(_,FuzzCase)``) and, when every property held, gives its
  /// timeline row by row, from the same run: a passing replay runs the case once
  /// (``check(_:_:)-(_,FuzzCase)`` then ``timeline(_:_:)-(_,FuzzCase)`` run it three times).
  /// - Parameter row: called with each row of a passing case's timeline.
  /// - Returns: the failure, unshrunk (its timeline run apart), or nil when every property held.
  package static func replay(
    _ subject: FuzzSubject, _ fuzzCase: FuzzCase, row: (String) -> Void
  ) -> FuzzFailure? {
    let actions = fuzzCase.actions
    var runner = CaseRunner(subject, setup: fuzzCase.setup)
    runner.recordsCoverage = false
    var steps: [(commands: String, state: String)] = []
    steps.reserveCapacity(actions.count)
    func step(
      _ commands: ArraySlice<EngineCommand>, _ model: ContractModel, _ target: any FuzzTarget
    ) {
      let text = commands.map { model.describe($0) }.joined(separator: " ")
      steps.append((text.isEmpty ? "-" : text, target.stateDescription))
    }
    var violation: FuzzViolation?
    for action in actions {
      let before = runner.log.count
      violation = runner.perform(action)
      if violation != nil { break }
      step(runner.log[before...], runner.model, runner.target)
    }
    if violation == nil { violation = runner.finish(observe: step) }
    if let violation {
      return FuzzFailure(
        subject: subject, origin: .given, original: actions, actions: actions,
        violation: violation, shrinkAttempts: 0, timeline: timeline(subject, fuzzCase),
        setup: fuzzCase.setup)
    }
    let lines = FuzzCase(runner.trace, setup: fuzzCase.setup).lines
    var rows: [Row] = []
    rows.reserveCapacity(steps.count)
    for index in steps.indices {
      let label = index < actions.count ? "\(index + 1)." : "\(index + 1).*"
      rows.append(Row(label, lines[index], steps[index].commands, steps[index].state))
    }
    steps = []
    emit(&rows, row)
    return nil
  }

  /// One row of a timeline: its label, the action as written, the commands, the state after.
  private struct Row {
    var label: String
    var action: String
    var commands: String
    var state: String

    init(_ label: String, _ action: String, _ commands: String, _ state: String) {
      (self.label, self.action, self.commands, self.state) = (label, action, commands, state)
    }
  }

  /// The timeline's rows for `trace`: the case's actions, then those its end added.
  private static func rows(
    _ subject: FuzzSubject, _ fuzzCase: FuzzCase, trace: [FuzzAction], row emit: (String) -> Void
  ) {
    let actions = fuzzCase.actions
    let lines = FuzzCase(trace, setup: fuzzCase.setup).lines
    var runner = CaseRunner(subject, setup: fuzzCase.setup)
    runner.recordsCoverage = false
    var rows: [Row] = []
    rows.reserveCapacity(trace.count + 1)
    var violation: FuzzViolation?
    for (index, action) in trace.enumerated() {
      let before = runner.log.count
      violation = runner.perform(action)
      let commands = runner.log[before...].map { runner.model.describe($0) }.joined(
        separator: " ")
      var state = runner.target.stateDescription
      if let violation { state += "   <- \(violation.property)" }
      let label = index < actions.count ? "\(index + 1)." : "\(index + 1).*"
      rows.append(Row(label, lines[index], commands.isEmpty ? "-" : commands, state))
      if violation != nil { break }
    }
    if violation == nil, let end = runner.finish() {
      rows.append(
        Row(
          "end", "(no more reports)", "-", runner.target.stateDescription + "   <- \(end.property)")
      )
    }
    Self.emit(&rows, emit)
  }

  /// Pads and emits `rows`, giving each back as it is printed. A column is as
  /// wide as its widest text within ``timelineColumnLimit``.
  private static func emit(_ rows: inout [Row], _ emit: (String) -> Void) {
    func width(_ texts: some Sequence<String>) -> Int {
      texts.lazy.map(\.count).filter { $0 <= timelineColumnLimit }.max() ?? 0
    }
    let widths = (
      rows.lazy.map(\.label.count).max() ?? 0, width(rows.lazy.map(\.action)),
      width(rows.lazy.map(\.commands))
    )
    func pad(_ text: String, _ width: Int) -> String {
      text + String(repeating: " ", count: max(0, width - text.count))
    }
    for index in rows.indices {
      let row = rows[index]
      emit(
        "  \(pad(row.label, widths.0)) \(pad(row.action, widths.1))  -> \(pad(row.commands, widths.2))  \(row.state)"
      )
      rows[index] = Row("", "", "", "")
    }
  }

  static func secondsSince(_ start: ContinuousClock.Instant, _ clock: ContinuousClock) -> Double {
    let elapsed = clock.now - start
    let (seconds, attoseconds) = elapsed.components
    return Double(seconds) + Double(attoseconds) / 1e18
  }
}
