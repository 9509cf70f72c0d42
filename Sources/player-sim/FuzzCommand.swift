/// `player-sim fuzz`: a thin front end over the PlayerFuzz harness.
enum FuzzCommand {
  static let flags: [FlagSpec] = [
    .option("--seed", "N", "the first seed; a run is reproducible from it"),
    .option("--budget", "N", "how many cases to run"),
    .toggle("--swarm", "vary the mix of actions per case (swarm testing)"),
    .option("--replay", "FILE", "re-run a saved failure"),
    .toggle("--quiet", "no progress on standard error"),
  ]

  static let help = CommandHelp(
    name: "fuzz", summary: "property-based fuzzing of the Player against the contract model",
    usage: "fuzz [--seed N] [--budget N] [--swarm] [--replay FILE] [--quiet]", flags: flags,
    details: [], example: ["player-sim fuzz --seed 1 --budget 100000"])

  static func run(_ arguments: [String]) throws(UsageError) -> ExitStatus {
    let parsed = try Arguments(arguments, command: "fuzz", flags: flags)
    if parsed.has("--help") {
      Terminal.out(help.text)
      return .success
    }
    throw UsageError(
      message: "'fuzz' is not available in this build; expected the PlayerFuzz harness")
  }
}

/// `player-sim explore`: exhaustive exploration of short event sequences.
enum ExploreCommand {
  static let flags: [FlagSpec] = [
    .option("--depth", "N", "the longest sequence explored"),
    .toggle("--quiet", "no progress on standard error"),
  ]

  static let help = CommandHelp(
    name: "explore", summary: "check every event sequence up to a depth against the contract model",
    usage: "explore --depth N [--quiet]", flags: flags, details: [],
    example: ["player-sim explore --depth 6"])

  static func run(_ arguments: [String]) throws(UsageError) -> ExitStatus {
    let parsed = try Arguments(arguments, command: "explore", flags: flags)
    if parsed.has("--help") {
      Terminal.out(help.text)
      return .success
    }
    throw UsageError(
      message: "'explore' is not available in this build; expected the PlayerFuzz harness")
  }
}
