import Foundation
import PlayerFuzz
import PlayerSimulation

/// `player-sim fuzz`: a thin front end over the PlayerFuzz harness: random
/// runs with progress, shrinking, saving and replaying failures.
enum FuzzCommand {
  static let flags: [FlagSpec] = [
    .option("--seed", "N", "the run's seed (random and printed if not given)"),
    .option("--budget", "N|Ns", "how many cases (1000), or how long, as in 30s"),
    .option("--max-length", "N", "the longest case, in actions (32)"),
    .toggle("--no-swarm", "use the whole alphabet in every case (swarm testing is on by default)"),
    .toggle("--no-shrink", "report failures as found, unshrunk"),
    .option(
      "--subject", "NAME", "player (default), or a deliberately broken player: \(subjectNames)"),
    .option("--replay", "FILE", "check a saved failure instead of running random cases"),
    .option("--save", "FILE", "write a failure found to FILE, ready for --replay"),
    .toggle("--require-coverage", "also fail if a declared transition was never exercised"),
    .toggle("--quiet", "no progress on standard error"),
  ]

  static var subjectNames: String {
    (["player"] + BuggyPlayer.catalog.map(\.name)).joined(separator: ", ")
  }

  static let help = CommandHelp(
    name: "fuzz", summary: "fuzz the Player against the contract model, from a seed",
    usage:
      "fuzz [--seed N] [--budget N|Ns] [--max-length N] [--no-swarm] [--no-shrink] [--subject NAME] [--replay FILE] [--save FILE] [--require-coverage] [--quiet]",
    flags: flags,
    details: [
      "Each case is decoded from the run's seed and its index, so 'seed N, case K' always",
      "replays the same case. A failure is shrunk and printed with its timeline, the saved-",
      "failure text and a Swift Testing test. Exit status 1 when a failure is found.",
    ],
    example: [
      "player-sim fuzz --seed 42 --budget 30s",
      "player-sim fuzz --subject twoBools --save two-bools.txt   # finds the seeds' bug",
      "player-sim fuzz --replay two-bools.txt --subject twoBools",
    ])

  static func run(_ arguments: [String]) throws(UsageError) -> ExitStatus {
    let parsed = try Arguments(arguments, command: "fuzz", flags: flags)
    try parsed.noOperands(command: "fuzz")
    if parsed.has("--help") {
      Terminal.out(help.text)
      return .success
    }
    let subject = try subject(parsed.values["--subject"], command: "fuzz")
    if let path = parsed.values["--replay"] { return replay(path, subject: subject) }
    var random = SystemRandomNumberGenerator()
    let seed = try parsed.integer("--seed", command: "fuzz", in: 0...UInt64.max) ?? random.next()
    let maxLength = try parsed.integer("--max-length", command: "fuzz", in: 1...10_000) ?? 32
    let configuration = FuzzConfiguration(
      seed: seed, budget: try budget(parsed.values["--budget"]), maxLength: maxLength,
      swarm: !parsed.has("--no-swarm"), shrink: !parsed.has("--no-shrink"),
      requireFullCoverage: parsed.has("--require-coverage"))
    return FuzzRun(subject: subject, configuration: configuration, quiet: parsed.has("--quiet"))
      .execute(save: parsed.values["--save"])
  }

  /// `player` or the name of a broken player from the harness's catalog.
  static func subject(_ name: String?, command: String) throws(UsageError) -> FuzzSubject {
    guard let name, name != "player" else { return .player }
    guard let buggy = BuggyPlayer.catalog.first(where: { $0.name == name }) else {
      throw UsageError(
        message:
          "bad value \(Arguments.quoted(name)) for '--subject' of '\(command)'; expected one of \(subjectNames)"
      )
    }
    return buggy.subject
  }

  private static func budget(_ text: String?) throws(UsageError) -> FuzzBudget {
    guard let text else { return .cases(1_000) }
    let bad = UsageError(
      message:
        "bad value \(Arguments.quoted(text)) for '--budget' of 'fuzz'; expected a number of cases such as 1000, or seconds such as 30s"
    )
    if text.hasSuffix("s") {
      guard let seconds = Double(text.dropLast()), seconds > 0, seconds <= 1e7 else { throw bad }
      return .seconds(seconds)
    }
    guard let cases = Int(text), cases > 0 else { throw bad }
    return .cases(cases)
  }

  /// Checks a saved failure: its timeline, then the failure or "passed".
  private static func replay(_ path: String, subject: FuzzSubject) -> ExitStatus {
    let actions: [FuzzAction]
    do {
      let text = try ScenarioFile.read(path)
      actions = try FailureFile.parse(text, file: path == "-" ? "<stdin>" : path)
    } catch let error as ScenarioError {
      Terminal.error(error.description)
      return .usage
    } catch {
      Terminal.error("\(error)")
      return .usage
    }
    guard !actions.isEmpty else {
      Terminal.error("\(path):1:1: error: no actions; expected one action a line, such as play(A)")
      return .usage
    }
    guard let failure = Fuzzer.check(subject, actions) else {
      Terminal.out(Fuzzer.timeline(subject, actions))
      Terminal.out(
        "passed: \(subject.name) kept every property over the \(actions.count) saved action\(actions.count == 1 ? "" : "s")"
      )
      return .success
    }
    Terminal.out(failure.report)
    return .failure
  }
}
