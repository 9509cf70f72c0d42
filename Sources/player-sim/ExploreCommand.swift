/// `player-sim explore`: exhaustive exploration of short event sequences.
enum ExploreCommand {
  static let flags: [FlagSpec] = [
    .option("--depth", "N", "the longest sequence explored"),
    .toggle("--quiet", "no progress on standard error"),
  ]

  static let help = CommandHelp(
    name: "explore",
    summary: "check every event sequence up to a depth against the contract model",
    usage: "explore --depth N [--quiet]", flags: flags, details: [],
    example: ["player-sim explore --depth 6"])

  static func run(_ arguments: [String]) throws(UsageError) -> ExitStatus {
    let parsed = try Arguments(arguments, command: "explore", flags: flags)
    if parsed.has("--help") {
      Terminal.out(help.text)
      return .success
    }
    throw UsageError(
      message:
        "'explore' is not available in this build; expected the PlayerFuzz exhaustive explorer")
  }
}
