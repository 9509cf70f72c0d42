import Dispatch
import PlayerEngine
import PlayerFuzz
import PlayerSimulation

/// `player-sim explore`: every event sequence up to a depth, breadth first,
/// checked against the contract model (a thin front end over `Explorer`).
enum ExploreCommand {
  static let flags: [FlagSpec] = [
    .option("--depth", "N", "the longest sequence explored (3)"),
    .option("--seconds", "S", "stop after S seconds and say how deep the search got"),
    .option("--subject", "NAME", "player (default), or a deliberately broken player"),
    .toggle("--json", "JSON lines on standard output: progress, failure, result"),
    .toggle("--quiet", "no progress on standard error"),
  ]

  static let help = CommandHelp(
    name: "explore",
    summary: "check every event sequence up to a depth against the contract model",
    usage: "explore [--depth N] [--seconds S] [--subject NAME] [--json] [--quiet]", flags: flags,
    details: [
      "States are deduplicated on a canonical form, so when a level finds no new state the",
      "search is complete: the properties then hold at any depth. With the queue's alphabet",
      "(new item ids, queue orders) no useful depth is complete: the run then checks every",
      "sequence up to the depth and lists the table rows it did not reach. Exit status 1 when",
      "a property breaks, or when a complete search left a declared transition unreached;",
      "3 (bounded) when --seconds ran out before the depth with no property broken.",
    ],
    example: ["player-sim explore --depth 4", "player-sim explore --depth 4 --subject stopNotSent"])

  static func run(_ arguments: [String]) throws(UsageError) -> ExitStatus {
    let parsed = try Arguments(arguments, command: "explore", flags: flags)
    try parsed.noOperands(command: "explore")
    if parsed.has("--help") {
      Terminal.out(help.text)
      return .success
    }
    // 3 by default: the queue's alphabet grows each level about tenfold
    // (depth 3: 1,134 states in 1.6 s, depth 4: 7,762 in 15 s, debug build).
    let depth = try parsed.integer("--depth", command: "explore", in: 1...64) ?? 3
    let seconds = try parsed.seconds(
      "--seconds", command: "explore", suffix: nil,
      expected: "plain decimal seconds above 0, such as 30 or 0.5")
    let subject = try FuzzCommand.subject(parsed.values["--subject"], command: "explore")
    let json = parsed.has("--json")
    guard
      let exploration = exploreWithProgress(
        subject, depth: depth, seconds: seconds, quiet: parsed.has("--quiet"), json: json)
    else {
      // Unreachable: the worker stores its result before it signals.
      Terminal.error("player-sim: the explorer finished without a result")
      return .usage
    }
    // Cut short by --seconds before the depth, with nothing broken: not a
    // failure (unreached rows are expected), not a pass either.
    let bounded =
      seconds != nil && exploration.counterexample == nil && !exploration.complete
      && exploration.depth < depth
    let passed = Self.passed(exploration)
    if json {
      if let failure = exploration.counterexample { Terminal.out(JSONValue.failure(failure)) }
      Terminal.out(Self.json(exploration, maxDepth: depth, bounded: bounded))
    } else {
      Terminal.out(terminalSafe(exploration.description, keepingNewlines: true))
      if passed, !bounded, !exploration.complete, !exploration.unreached.isEmpty {
        Terminal.out(
          "passed: no property broke in any sequence of at most \(exploration.depth) events; "
            + "the rows above may need longer sequences (the search is not complete)")
      }
      if bounded {
        Terminal.out(
          "bounded: --seconds ran out after depth \(exploration.depth) of \(depth); no property broke "
            + "(exit status 3; unreached rows are expected below the requested depth)")
      }
    }
    if bounded { return .bounded }
    return passed ? .success : .failure
  }

  /// The verdict, ``Exploration/passed``: a counterexample fails; a declared
  /// transition never reached fails only a complete search.
  static func passed(_ exploration: Exploration) -> Bool { exploration.passed }

  /// The `{"result":{…}}` line of an exploration.
  static func json(_ exploration: Exploration, maxDepth: Int, bounded: Bool) -> String {
    JSONValue.line(
      "result",
      [
        ("command", .string("explore")), ("subject", .string(exploration.subject)),
        ("depth", .int(exploration.depth)), ("max_depth", .int(maxDepth)),
        ("complete", .bool(exploration.complete)), ("bounded", .bool(bounded)),
        ("states", .int(exploration.states)), ("transitions", .int(exploration.transitions)),
        ("sequences", .int(exploration.sequences)), ("seconds", .double(exploration.seconds)),
        ("unreached", .array(exploration.unreached.map { .string("\($0)") })),
        ("passed", .bool(passed(exploration))),
      ])
  }

  /// Runs the search on another thread and reports elapsed time every second:
  /// the explorer itself reports only at the end.
  private static func exploreWithProgress(
    _ subject: FuzzSubject, depth: Int, seconds: Double?, quiet: Bool, json: Bool
  ) -> Exploration? {
    let box = ResultBox()
    let done = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      let exploration = Explorer.explore(subject, maxDepth: depth, seconds: seconds)
      box.result.withLock { $0 = exploration }
      done.signal()
    }
    let progress = Progress(quiet: quiet, unit: "levels", found: "failures found", json: json)
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
