import PlayerEngine
import PlayerState

/// One run of a command sequence against one engine, through the kit's
/// harness (commands executed one at a time, as a `Player` does) and judged
/// by the kit's record.
struct FuzzCase {
  let subject: FuzzedEngine
  let configuration: EngineFuzzer.Configuration
  let steps: [EngineFuzzScript.Step]
  let media: [MediaID]

  func run() async -> EngineFuzzOutcome {
    if let advance = subject.advance { return run(advancing: advance) }
    let harness = makeHarness(
      .realTime(timeout: configuration.timeout, quietPeriod: configuration.quietPeriod))
    var sent: [Int] = []
    for step in steps {
      if step.delay > .zero { try? await Task.sleep(for: step.delay) }
      sent.append(harness.send(step.command))
    }
    let all = sent
    if await harness.wait(until: { record in all.allSatisfy(record.returned.contains) }) {
      _ = await harness.wait { $0.nothingOutstanding }
      try? await Task.sleep(for: configuration.quietPeriod)
    }
    return judge(harness, sent: sent, within: "within \(configuration.timeout)")
  }

  /// The run over a virtual clock: commands run inline on this thread, the
  /// clock is advanced by each delay and, at the end, by the timeout.
  func run(advancing advance: @Sendable (Duration) -> Void) -> EngineFuzzOutcome {
    // The step is never called: the fuzzer advances the clock itself, by a bounded amount.
    let harness = makeHarness(.driven({ false }))
    var sent: [Int] = []
    for step in steps {
      advance(step.delay)
      sent.append(harness.send(step.command))
    }
    advance(configuration.timeout)
    return judge(harness, sent: sent, within: "within \(configuration.timeout) of virtual time")
  }

  private func makeHarness(_ timing: EngineConformance.Timing) -> ConformanceHarness {
    let harness = ConformanceHarness(engine: subject.engine, timing: timing)
    harness.withRecord { [limit = configuration.reportsKept] in $0.limit = limit }
    return harness
  }

  /// The checks that need the whole sequence, then the outcome.
  private func judge(_ harness: ConformanceHarness, sent: [Int], within: String)
    -> EngineFuzzOutcome
  {
    let unplayable = Set(configuration.unplayableMedia)
    return harness.withRecord { [steps] record in
      if let wedged = sent.firstIndex(where: { !record.returned.contains($0) }) {
        // Everything after a command that never returned is still queued.
        let command = record.name(steps[wedged].command)
        record.violate(.executeReturnsPromptly, "execute(\(command)) did not return \(within)")
      } else {
        record.judgeOutstanding(unplayable: unplayable, within: within)
      }
      return EngineFuzzOutcome(record: record)
    }
  }
}

extension Record {
  /// A command in its compact form, `seek(A#2, 100ms, seek#1)`.
  func name(_ command: EngineCommand) -> String { command.description(naming: name) }
}

/// What one run of a command sequence broke, and what it saw.
public struct EngineFuzzOutcome: Hashable, Sendable, CustomStringConvertible {
  /// Every broken promise observed, in order (at most
  /// ``EngineFuzzer/Configuration/reportsKept``).
  public var violations: [ConformanceViolation]
  /// The absorbed breaches, counted: they do not fail the engine.
  public var notes: [ConformanceNote]
  /// How many reports were judged.
  public var reportsChecked: Int
  /// The commands sent and reports received, in order, in their compact forms
  /// (at most ``EngineFuzzer/Configuration/reportsKept`` lines).
  public var transcript: [String]

  init(record: Record) {
    violations = record.report.violations
    notes = record.report.notes
    reportsChecked = record.judged
    transcript = record.report.transcript
  }

  /// The broken promises, each once, in ``EnginePromise`` declaration order.
  public var broken: [EnginePromise] {
    let names = Set(violations.map(\.promise))
    return EnginePromise.allCases.filter(names.contains)
  }

  /// The verdict, then each violation.
  public var description: String {
    if violations.isEmpty { return "no promise broken (\(reportsChecked) reports checked)" }
    return
      (["broken: \(broken.map(\.rawValue).joined(separator: ", "))"]
      + violations.map { "  \($0)" }).joined(separator: "\n")
  }
}

/// A failing case, shrunk.
public struct EngineFuzzFailure: Hashable, Sendable, CustomStringConvertible {
  /// The case's number in the run, from 0.
  public var caseIndex: Int
  /// The case's seed: ``EngineFuzzer/generate(caseSeed:preloads:)`` gives its commands back.
  public var caseSeed: UInt64
  /// The promise the shrinking kept broken: the first one the case broke.
  public var promise: EnginePromise
  /// What the case broke before shrinking.
  public var original: EngineFuzzOutcome
  /// How many commands the case had.
  public var originalCommands: Int
  /// The minimal sequence found that still breaks ``promise``.
  public var minimal: EngineFuzzScript
  /// What the minimal sequence broke, on its last reproducing run.
  public var minimalOutcome: EngineFuzzOutcome
  /// Of ``attempts`` runs of the minimal sequence after shrinking, how many broke ``promise``.
  public var reproduced: Int
  /// How many times the minimal sequence was run to confirm it.
  public var attempts: Int
  /// The case runs shrinking took.
  public var shrinkRuns: Int
  /// A Swift Testing test that replays ``minimal`` and expects no violation:
  /// it fails until the engine is fixed.
  public var swiftTest: String

  /// The promise, the minimal script and the test to paste.
  public var description: String {
    let shrunk =
      reproduced == 0 && minimal.steps.count == originalCommands
      ? "not reproduced in \(shrinkRuns) runs again, so not shrunk"
      : "shrunk in \(shrinkRuns) runs to \(minimal.steps.count) commands, reproduced \(reproduced)/\(attempts)"
    return """
      broke \(promise) in case \(caseIndex) (case seed \(hex(caseSeed)), \(originalCommands) commands), \
      \(shrunk):
      \(minimalOutcome)
      script:
      \(minimal)
      test:
      \(swiftTest)
      """
  }
}

/// The outcome of ``EngineFuzzer/run(against:)``.
public struct EngineFuzzReport: Hashable, Sendable, CustomStringConvertible {
  /// The run's seed: running again with it sends the same commands.
  public var seed: UInt64
  /// Cases run (the failing one included).
  public var cases = 0
  /// Commands sent, shrinking excluded.
  public var commands = 0
  /// Reports judged, shrinking excluded.
  public var reportsChecked = 0
  /// Absorbed breaches seen over the run, counted: they do not fail the engine.
  public var notes: [ConformanceNote] = []
  /// The first failing case, shrunk; nil when every case kept the contract.
  public var failure: EngineFuzzFailure?
  /// The real time the run took, shrinking included.
  public var elapsed: Duration = .zero

  /// An empty report.
  /// - Parameter seed: the run's seed.
  public init(seed: UInt64) { self.seed = seed }

  /// Commands per second of real time.
  public var commandsPerSecond: Double {
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    return seconds > 0 ? Double(commands) / seconds : 0
  }

  mutating func absorb(_ more: [ConformanceNote]) {
    for note in more {
      if let index = notes.firstIndex(where: { $0.breach == note.breach }) {
        notes[index].count += note.count
      } else {
        notes.append(note)
      }
    }
  }

  /// The seed, the figures, the notes and the failure.
  public var description: String {
    var lines = [
      "engine fuzz, seed \(hex(seed)): \(cases) cases, \(commands) commands, "
        + "\(reportsChecked) reports checked in \(elapsed)"
        + (failure == nil ? ", no promise broken" : "")
    ]
    lines += notes.map { "  absorbed \($0)" }
    if let failure { lines.append("\(failure)") }
    return lines.joined(separator: "\n")
  }
}

/// `0x2A`.
func hex(_ value: UInt64) -> String { "0x" + String(value, radix: 16, uppercase: true) }
