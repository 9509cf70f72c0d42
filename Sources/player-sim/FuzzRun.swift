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
  /// The flags that name the subject and the case decoding (`--subject`,
  /// `--max-length`, `--no-swarm`) when they are not the defaults, for the
  /// replay command a failure prints.
  var replayFlags: [String] = []
  /// What part of the seed's cases ran, when not all of them: the result says so.
  var slice: Slice?

  /// A part of a seed's cases.
  enum Slice {
    /// `--shard I/N`.
    case shard(FuzzShard)
    /// `--case K`.
    case single(Int)

    /// `shard 1/4 (case indices 1 modulo 4)`, `case 1234 alone`.
    var text: String {
      switch self {
      case .shard(let shard): "shard \(shard) (case indices \(shard.index) modulo \(shard.count))"
      case .single(let index): "case \(index) alone"
      }
    }

    /// The key and value the JSON result line adds.
    var json: (String, JSONValue) {
      switch self {
      case .shard(let shard): ("shard", .string("\(shard)"))
      case .single(let index): ("case", .caseIndex(index))
      }
    }
  }

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
      Terminal.out(Self.json(result, slice: slice))
    } else {
      Terminal.out(terminalSafe(result.description, keepingNewlines: true))
      if let slice { Terminal.out("ran \(slice.text) of seed \(configuration.seed)") }
      if let failure = result.failure, case .random(let seed, let index, _) = failure.origin {
        // The seed and the case index in the whole run: no shard needed.
        let flags = (["--seed", "\(seed)", "--case", "\(index)"] + replayFlags).joined(
          separator: " ")
        Terminal.out("replay this case alone: player-sim fuzz \(flags)")
      }
    }
    guard let failure = result.failure else { return result.passed ? .success : .failure }
    if let path {
      do {
        try Data(FailureFile.format(failure).utf8).write(to: URL(fileURLWithPath: path))
        Terminal.error(
          "player-sim: saved the failure to \(terminalSafe(path)); replay it with --replay \(terminalSafe(path))"
        )
      } catch {
        // The failure was found and printed: the exit says so (1), whatever became of the copy.
        Terminal.error(
          "player-sim: the failure above was not saved: cannot write \(Arguments.quoted(path)): \(terminalSafe(error.localizedDescription))"
        )
      }
    }
    return .failure
  }

  /// The `{"result":{…}}` line of a random run, with `"shard"` or `"case"` for a slice.
  static func json(_ result: FuzzResult, slice: Slice? = nil) -> String {
    let budget: JSONValue
    switch result.configuration.budget {
    case .cases(let cases): budget = .object([("cases", .int(cases))])
    case .seconds(let seconds): budget = .object([("seconds", .double(seconds))])
    }
    return JSONValue.line(
      "result",
      [
        ("command", .string("fuzz")), ("mode", .string("random")),
        ("subject", .string(result.subject)), ("seed", .seed(result.configuration.seed)),
        ("budget", budget), ("cases", .int(result.cases)), ("events", .int(result.events)),
        ("seconds", .double(result.seconds)),
        ("exercised", .int(result.coverage.exercisedCount)),
        ("unexercised", .array(result.coverage.unexercised.map { .string("\($0)") })),
        ("passed", .bool(result.passed)),
      ]
        // Only a run of part of the seed says which part: a whole run's line keeps its keys.
        + (slice.map { [$0.json] } ?? []))
  }
}
