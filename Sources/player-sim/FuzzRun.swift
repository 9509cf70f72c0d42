import Foundation
import PlayerFuzz

/// One random fuzz run with progress on standard error.
///
/// The loop is `Fuzzer.run`'s, case for case (same case seeds, decoder,
/// shrinker), so a seed found here reproduces in the harness and back; it
/// is written out only to report progress between cases. A progress hook in
/// `Fuzzer.run` would let this file shrink to a call.
struct FuzzRun {
  let subject: FuzzSubject
  let configuration: FuzzConfiguration
  let quiet: Bool

  func execute(save path: String?) -> ExitStatus {
    let decoder = ActionDecoder(
      maxLength: configuration.maxLength, swarm: configuration.swarm)
    let progress = Progress(quiet: quiet, unit: "cases", found: "failures found")
    let clock = ContinuousClock()
    let start = clock.now
    var limit = Int.max
    var deadline: ContinuousClock.Instant?
    switch configuration.budget {
    case .cases(let count): limit = count
    case .seconds(let seconds): deadline = start.advanced(by: .milliseconds(Int64(seconds * 1000)))
    }
    var cases = 0
    var events = 0
    var coverage = FuzzCoverage()
    var found: (trace: [FuzzAction], violation: FuzzViolation, index: Int, seed: UInt64)?
    while cases < limit {
      if let deadline, cases & 63 == 0, clock.now >= deadline { break }
      let caseSeed = PlayerFuzz.SplitMix64.caseSeed(run: configuration.seed, case: cases)
      var bytes = RandomBytes(seed: caseSeed)
      var (runner, violation) = runCase(decoder, &bytes, coverage: &coverage)
      events += runner.events
      swap(&coverage, &runner.coverage)
      cases += 1
      if let violation {
        found = (runner.trace, violation, cases - 1, caseSeed)
        break
      }
      progress.update(done: cases, total: nil, found: 0)
    }
    let elapsed = clock.now - start
    progress.finish()
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    let rate = seconds > 0 ? Int(Double(events) / seconds) : 0
    Terminal.out(
      "fuzz \(subject.name): seed \(configuration.seed), \(cases) cases, \(events) events in "
        + String(format: "%.3f", seconds)
        + " s (\(rate) events/s), swarm \(configuration.swarm ? "on" : "off")")
    let total = coverage.exercisedCount + coverage.unexercised.count
    guard let found else {
      if configuration.requireFullCoverage, !coverage.unexercised.isEmpty {
        Terminal.out("FAILED: declared transitions never exercised:")
        for row in coverage.unexercised { Terminal.out("  \(row)") }
        return .failure
      }
      Terminal.out(
        "passed: every property held; \(coverage.exercisedCount) of \(total) declared transitions exercised"
      )
      return .success
    }
    var (actions, violation, attempts) = (found.trace, found.violation, 0)
    if configuration.shrink {
      let outcome = Shrinker.shrink(subject, found.trace, violation: found.violation)
      (actions, violation, attempts) = (outcome.actions, outcome.violation, outcome.attempts)
    }
    let failure = FuzzFailure(
      subject: subject.name,
      origin: .random(seed: configuration.seed, caseIndex: found.index, caseSeed: found.seed),
      original: found.trace, actions: actions, violation: violation, shrinkAttempts: attempts,
      timeline: Fuzzer.timeline(subject, actions))
    Terminal.out(failure.report)
    if let path {
      do {
        try Data(FailureFile.format(failure).utf8).write(to: URL(fileURLWithPath: path))
        Terminal.error("player-sim: saved the failure to \(path); replay it with --replay \(path)")
      } catch {
        Terminal.error("player-sim: cannot write '\(path)': \(error.localizedDescription)")
        return .usage
      }
    }
    return .failure
  }

  /// `Fuzzer.runCase`, recording into the run's coverage instead of merging
  /// a fresh one per case (the merge costs more than the case).
  private func runCase(
    _ decoder: ActionDecoder, _ bytes: inout RandomBytes, coverage: inout FuzzCoverage
  ) -> (CaseRunner, FuzzViolation?) {
    var runner = CaseRunner(subject)
    swap(&runner.coverage, &coverage)
    let (length, mask) = decoder.header(from: &bytes)
    for _ in 0..<length {
      if bytes.isExhausted { break }
      let action = decoder.next(
        after: runner.model, held: runner.laterCount, mask: mask, from: &bytes)
      if let violation = runner.perform(action) { return (runner, violation) }
    }
    return (runner, runner.finish())
  }
}
