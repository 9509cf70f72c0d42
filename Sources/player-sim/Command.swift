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

  /// Flags accepted but left out of the help and the completions.
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
      let help = Self.wrapped(flag.help, width: Self.width - 20)
      lines.append("  " + left.padding(to: 18) + (help.first ?? ""))
      lines += help.dropFirst().map { String(repeating: " ", count: 20) + $0 }
    }
    lines += ["", "EXAMPLE:"] + example.map { "  " + $0 }
    return lines.joined(separator: "\n")
  }

  /// The widest a flag's line grows before its help wraps (a long list, such as `fuzz
  /// --subject`'s broken players, continues on lines of its own under the help column).
  static let width = 100

  /// `text` in lines of at most `width` characters, broken at spaces (a longer word stays whole).
  static func wrapped(_ text: String, width: Int) -> [String] {
    var lines: [String] = []
    var line = ""
    for word in text.split(separator: " ") {
      if line.isEmpty {
        line = String(word)
      } else if line.count + 1 + word.count <= width {
        line += " " + word
      } else {
        lines.append(line)
        line = String(word)
      }
    }
    if !line.isEmpty || lines.isEmpty { lines.append(line) }
    return lines
  }
}
