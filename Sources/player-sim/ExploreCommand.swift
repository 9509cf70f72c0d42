import Dispatch
import PlayerEngine
import PlayerFuzz

/// `player-sim explore`: every event sequence up to a depth, breadth first,
/// checked against the contract model (a thin front end over `Explorer`).
enum ExploreCommand {
  static let flags: [FlagSpec] = [
    .option("--depth", "N", "the longest sequence explored (6)"),
    .option("--seconds", "S", "stop after S seconds and say how deep the search got"),
    .option("--subject", "NAME", "player (default), or a deliberately broken player"),
    .toggle("--quiet", "no progress on standard error"),
  ]

  static let help = CommandHelp(
    name: "explore",
    summary: "check every event sequence up to a depth against the contract model",
    usage: "explore [--depth N] [--seconds S] [--subject NAME] [--quiet]", flags: flags,
    details: [
      "States are deduplicated on a canonical form, so when a level finds no new state the",
      "search is complete: the properties then hold at any depth. Exit status 1 when a",
      "property breaks or a declared transition of the table is never reached.",
    ],
    example: ["player-sim explore --depth 6", "player-sim explore --depth 4 --subject stopNotSent"])

  static func run(_ arguments: [String]) throws(UsageError) -> ExitStatus {
    let parsed = try Arguments(arguments, command: "explore", flags: flags)
    try parsed.noOperands(command: "explore")
    if parsed.has("--help") {
      Terminal.out(help.text)
      return .success
    }
    let depth = try parsed.integer("--depth", command: "explore", in: 1...64) ?? 6
    var seconds: Double?
    if let text = parsed.values["--seconds"] {
      guard let value = Double(text), value > 0, value <= 1e7 else {
        throw UsageError(
          message:
            "bad value \(Arguments.quoted(text)) for '--seconds' of 'explore'; expected a number of seconds above 0"
        )
      }
      seconds = value
    }
    let subject = try FuzzCommand.subject(parsed.values["--subject"], command: "explore")
    guard
      let exploration = exploreWithProgress(
        subject, depth: depth, seconds: seconds, quiet: parsed.has("--quiet"))
    else {
      // Unreachable: the worker stores its result before it signals.
      Terminal.error("player-sim: the explorer finished without a result")
      return .usage
    }
    Terminal.out(exploration.description)
    return exploration.passed ? .success : .failure
  }

  /// Runs the search on another thread and reports elapsed time every second:
  /// the explorer itself reports only at the end.
  private static func exploreWithProgress(
    _ subject: FuzzSubject, depth: Int, seconds: Double?, quiet: Bool
  ) -> Exploration? {
    let box = ResultBox()
    let done = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      let exploration = Explorer.explore(subject, maxDepth: depth, seconds: seconds)
      box.result.withLock { $0 = exploration }
      done.signal()
    }
    let progress = Progress(quiet: quiet, unit: "levels", found: "failures found")
    while done.wait(timeout: .now() + .milliseconds(250)) == .timedOut {
      progress.tick("exploring \(subject.name) up to depth \(depth)")
    }
    progress.finish()
    return box.result.withLock { $0 }
  }

  private final class ResultBox: Sendable {
    let result = Locked<Exploration?>(nil)
  }
}
