import PlayerSimulation

/// The command dispatcher: picks the command, maps errors to messages and exit statuses.
enum PlayerSim {
  static let commands: [CommandHelp] = [
    DemoCommand.help, RunCommand.help, FuzzCommand.help, ExploreCommand.help, DiagramCommand.help,
    CompletionsCommand.help,
  ]

  static func main(_ arguments: [String]) -> ExitStatus {
    guard let name = arguments.first else {
      Terminal.error(
        "player-sim: missing command; expected one of \(commandNames) (try 'player-sim --help')")
      return .usage
    }
    let rest = Array(arguments.dropFirst())
    do throws(UsageError) {
      switch name {
      case "-h", "--help", "help":
        return try showHelp(rest)
      case "--version", "version":
        guard rest.isEmpty else {
          throw UsageError(
            message:
              "unexpected argument \(Arguments.quoted(rest[0])) for '--version'; expected nothing")
        }
        Terminal.out("player-sim \(playerSimVersion)")
        return .success
      case "demo": return try DemoCommand.run(rest)
      case "run": return try RunCommand.run(rest)
      case "fuzz": return try FuzzCommand.run(rest)
      case "explore": return try ExploreCommand.run(rest)
      case "diagram": return try DiagramCommand.run(rest)
      case "completions": return try CompletionsCommand.run(rest)
      default:
        throw UsageError(
          message: "unknown command \(Arguments.quoted(name)); expected one of \(commandNames)")
      }
    } catch {
      Terminal.error(error.description)
      return .usage
    }
  }

  static var commandNames: String { commands.map(\.name).joined(separator: ", ") }

  private static func showHelp(_ arguments: [String]) throws(UsageError) -> ExitStatus {
    guard let topic = arguments.first else {
      Terminal.out(overview)
      return .success
    }
    guard let command = commands.first(where: { $0.name == topic }) else {
      throw UsageError(
        message: "no help for \(Arguments.quoted(topic)); expected one of \(commandNames)")
    }
    Terminal.out(command.text)
    return .success
  }

  static var overview: String {
    var lines = [
      "player-sim: drive fake media through the real Playhead Player, on a virtual clock.",
      "",
      "USAGE: player-sim <command> [flags]     (player-sim --version prints the version)",
      "",
      "COMMANDS:",
    ]
    // Summaries start two columns after the longest name (`completions`).
    let width = (commands.map(\.name.count).max() ?? 0) + 2
    for command in commands {
      lines.append("  " + command.name.padding(to: width) + command.summary)
    }
    lines += [
      "",
      "Run 'player-sim <command> --help' for a command's flags and an example.",
      "",
      "EXAMPLE:",
      "  player-sim demo",
      "  player-sim run Examples/scenarios/*.play",
      "",
      "EXIT STATUS: 0 success, 1 an expect failed or a property broke, 2 bad usage or input,",
      "3 an exploration cut short by --seconds with nothing found (bounded).",
    ]
    return lines.joined(separator: "\n")
  }
}

/// A command's help: one-line summary, usage, flags and an example.
struct CommandHelp {
  let name: String
  let summary: String
  let usage: String
  let flags: [FlagSpec]
  let details: [String]
  let example: [String]

  var text: String {
    var lines = ["player-sim \(name): \(summary)", "", "USAGE: player-sim \(usage)"]
    if !details.isEmpty { lines += [""] + details }
    lines += ["", "FLAGS:"]
    for flag in flags + [.help] {
      let left = flag.value.map { "\(flag.name) \($0)" } ?? flag.name
      lines.append("  " + left.padding(to: 18) + flag.help)
    }
    lines += ["", "EXAMPLE:"] + example.map { "  " + $0 }
    return lines.joined(separator: "\n")
  }
}

extension String {
  func padding(to width: Int) -> String {
    self + String(repeating: " ", count: Swift.max(width - count, 1))
  }
}
