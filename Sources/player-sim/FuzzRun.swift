import Foundation
import PlayerFuzz
import PlayerSimulation

/// One random fuzz run (`Fuzzer.run`) with progress on standard error, or
/// JSON lines with `--json`.
struct FuzzRun {
  let subject: FuzzSubject
  let configuration: FuzzConfiguration
  let quiet: Bool
  var json = false

  func execute(save path: String?) -> ExitStatus {
    let progress = Progress(quiet: quiet, unit: "cases", found: "failures found", json: json)
    let result = Fuzzer.run(subject, configuration) { counts in
      progress.update(done: counts.cases, total: nil, found: 0)
    }
    progress.finish()
    // A time budget too small for one case proves nothing: say so, never "passed".
    guard result.cases > 0 else {
      Terminal.error(
        "player-sim: the budget \(configuration.budget) ran out before the first case; "
          + "expected a budget that runs at least one case, such as 1s or 100")
      return .usage
    }
    if json {
      if let failure = result.failure { Terminal.out(JSONValue.failure(failure)) }
      Terminal.out(Self.json(result))
    } else {
      Terminal.out(terminalSafe(result.description, keepingNewlines: true))
    }
    guard let failure = result.failure else { return result.passed ? .success : .failure }
    if let path {
      do {
        try Data(FailureFile.format(failure).utf8).write(to: URL(fileURLWithPath: path))
        Terminal.error(
          "player-sim: saved the failure to \(terminalSafe(path)); replay it with --replay \(terminalSafe(path))"
        )
      } catch {
        Terminal.error(
          "player-sim: cannot write \(Arguments.quoted(path)): \(terminalSafe(error.localizedDescription))"
        )
        return .usage
      }
    }
    return .failure
  }

  /// The `{"result":{…}}` line of a random run.
  static func json(_ result: FuzzResult) -> String {
    let budget: JSONValue
    switch result.configuration.budget {
    case .cases(let cases): budget = .object([("cases", .int(cases))])
    case .seconds(let seconds): budget = .object([("seconds", .double(seconds))])
    }
    return JSONValue.line(
      "result",
      [
        ("command", .string("fuzz")), ("mode", .string("random")),
        ("subject", .string(result.subject)), ("seed", .unsigned(result.configuration.seed)),
        ("budget", budget), ("cases", .int(result.cases)), ("events", .int(result.events)),
        ("seconds", .double(result.seconds)),
        ("exercised", .int(result.coverage.exercisedCount)),
        ("unexercised", .array(result.coverage.unexercised.map { .string("\($0)") })),
        ("passed", .bool(result.passed)),
      ])
  }
}
