import PlayerSimulation

/// The command dispatcher: picks the command, maps errors to messages and exit statuses.
enum PlayerSim {
  /// The commands, in the order the overview lists them.
  static var commands: [any Command.Type] {
    [
      DemoCommand.self, RunCommand.self, FuzzCommand.self, ExploreCommand.self,
      DiagramCommand.self, CompletionsCommand.self,
    ]
  }

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
      default:
        guard let command = commands.first(where: { $0.name == name }) else {
          throw UsageError(
            message: "unknown command \(Arguments.quoted(name)); expected one of \(commandNames)")
        }
        return try command.main(rest)
      }
    } catch {
      Terminal.error(error.description)
      return .usage
    }
  }

  static var commandNames: String { commands.map { $0.name }.joined(separator: ", ") }

  private static func showHelp(_ arguments: [String]) throws(UsageError) -> ExitStatus {
    guard let topic = arguments.first else {
      Terminal.out(overview)
      return .success
    }
    guard let command = commands.first(where: { $0.name == topic }) else {
      throw UsageError(
        message: "no help for \(Arguments.quoted(topic)); expected one of \(commandNames)")
    }
    Terminal.out(command.help.text)
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
    let width = (commands.map { $0.name.count }.max() ?? 0) + 2
    for command in commands {
      lines.append("  " + command.name.padding(to: width) + command.help.summary)
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

extension String {
  func padding(to width: Int) -> String {
    self + String(repeating: " ", count: Swift.max(width - count, 1))
  }
}
