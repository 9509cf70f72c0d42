/// A player-sim command, in the shape of swift-argument-parser's
/// `ParsableCommand`: it declares its help and runs on parsed arguments, and
/// the default ``main(_:)`` does the preamble every command shares.
///
/// The preamble, in order: split the arguments by the command's flags (an
/// unknown flag or a missing value is a usage error), refuse operands unless
/// the command takes them (so `fuzz --help extra` is an error, not help), then
/// answer `--help` with ``CommandHelp/text``.
protocol Command {
  /// The name, summary, usage, flags and example that `--help` prints; its
  /// flags are the ones the command accepts.
  static var help: CommandHelp { get }

  /// Flags accepted but left out of the help and the completions (`demo --script`).
  /// None by default.
  static var hiddenFlags: [FlagSpec] { get }

  /// Whether the command takes operands (`run FILE...`, `completions SHELL`).
  /// If not (the default), an operand is a usage error, checked before `--help`.
  static var takesOperands: Bool { get }

  /// Does the command's work, once ``main(_:)`` has parsed the arguments and
  /// `--help` was not asked for.
  static func run(_ parsed: Arguments) throws(UsageError) -> ExitStatus
}

extension Command {
  static var hiddenFlags: [FlagSpec] { [] }

  static var takesOperands: Bool { false }

  /// The command's name, as typed after `player-sim`.
  static var name: String { help.name }

  /// Parses `arguments` (those after the command's name), answers `--help`,
  /// and otherwise runs the command.
  static func main(_ arguments: [String]) throws(UsageError) -> ExitStatus {
    let parsed = try Arguments(arguments, command: name, flags: help.flags + hiddenFlags)
    if !takesOperands { try parsed.noOperands() }
    if parsed.has("--help") {
      Terminal.out(help.text)
      return .success
    }
    return try run(parsed)
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
