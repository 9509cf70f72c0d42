import PlayerSimulation

/// How the tool exits (docs/player-sim.md lists the same): 0 success, 1 an
/// `expect` failed or a property broke, 2 bad usage or bad input, 3 an
/// exploration stopped by `--seconds` before its depth with nothing found.
enum ExitStatus: Int32 {
  case success = 0
  case failure = 1
  case usage = 2
  case bounded = 3
}

/// Bad usage: a one-line message for standard error, exit status 2.
struct UsageError: Error, CustomStringConvertible {
  let message: String
  var description: String { "player-sim: \(message)" }
}

/// A flag a command accepts.
struct FlagSpec {
  /// The long name, as in `--json`.
  let name: String
  /// For a flag with a value, what the value is, as in `N`; nil for a switch.
  let value: String?
  /// One line of help.
  let help: String

  static func toggle(_ name: String, _ help: String) -> FlagSpec {
    FlagSpec(name: name, value: nil, help: help)
  }

  static func option(_ name: String, _ value: String, _ help: String) -> FlagSpec {
    FlagSpec(name: name, value: value, help: help)
  }

  static let help = FlagSpec.toggle("--help", "show this help")
}

/// A command's arguments, split into flags and operands.
///
/// Accepts `--flag`, `--flag value`, `--flag=value`, `-h` for `--help`, `-`
/// as an operand (standard input), and `--` to end the flags.
struct Arguments {
  /// The command the arguments are for, as named in messages.
  let command: String
  private(set) var toggles: Set<String> = []
  private(set) var values: [String: String] = [:]
  private(set) var operands: [String] = []

  init(_ arguments: [String], command: String, flags: [FlagSpec]) throws(UsageError) {
    self.command = command
    let flags = flags + [.help]
    var index = 0
    var flagsEnded = false
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if flagsEnded || argument == "-" || !argument.hasPrefix("-") {
        operands.append(argument)
        continue
      }
      if argument == "--" {
        flagsEnded = true
        continue
      }
      var name = argument == "-h" ? "--help" : argument
      var inline: String?
      if let equals = name.firstIndex(of: "=") {
        inline = String(name[name.index(after: equals)...])
        name = String(name[..<equals])
      }
      guard let spec = flags.first(where: { $0.name == name }) else {
        throw UsageError(
          message:
            "unknown flag \(Self.quoted(name)) for '\(command)'; expected one of \(flags.map(\.name).joined(separator: ", "))"
        )
      }
      if let valueName = spec.value {
        // A value given twice is a mistake to point out, not one to settle by
        // taking the last (`--shard 0/2 --shard 1/2`).
        if values[name] != nil {
          throw UsageError(
            message:
              "flag '\(name)' of '\(command)' given twice; expected it once, as in \(name) \(valueName)"
          )
        }
        if let inline {
          values[name] = inline
        } else if index < arguments.count {
          values[name] = arguments[index]
          index += 1
        } else {
          throw UsageError(
            message: "flag '\(name)' of '\(command)' needs a value; expected \(name) \(valueName)")
        }
      } else {
        if inline != nil {
          throw UsageError(
            message: "flag '\(name)' of '\(command)' takes no value; expected \(name) alone")
        }
        toggles.insert(name)
      }
    }
  }

  /// Whether a switch was given.
  func has(_ flag: String) -> Bool { toggles.contains(flag) }

  /// A flag's value parsed as a whole number in `range`.
  func integer<Number: FixedWidthInteger>(
    _ flag: String, in range: ClosedRange<Number>
  ) throws(UsageError) -> Number? {
    guard let text = values[flag] else { return nil }
    guard let value = Number(text), range.contains(value) else {
      throw UsageError(
        message:
          "bad value \(Self.quoted(text)) for '\(flag)' of '\(command)'; expected a whole number from \(range.lowerBound) to \(range.upperBound)"
      )
    }
    return value
  }

  /// A flag's value, which must be one of `choices`.
  func choice(_ flag: String, from choices: [String]) throws(UsageError) -> String? {
    guard let text = values[flag] else { return nil }
    guard choices.contains(text) else {
      throw UsageError(
        message:
          "bad value \(Self.quoted(text)) for '\(flag)' of '\(command)'; expected one of \(choices.joined(separator: ", "))"
      )
    }
    return text
  }

  /// Throws unless there are no operands.
  func noOperands() throws(UsageError) {
    if let first = operands.first {
      throw UsageError(
        message: "unexpected argument \(Self.quoted(first)) for '\(command)'; expected flags only")
    }
  }

  /// A flag's value as a number of seconds above 0 and at most 10^7: plain
  /// decimal only (`30`, `0.5`), so `0x10`, `1e3`, `inf` and `nan` are refused
  /// rather than read the way `Double(_:)` would.
  /// - Parameters:
  ///   - suffix: a unit the value must end with (`s` for `--budget 30s`), or nil.
  func seconds(_ flag: String, suffix: String?, expected: String) throws(UsageError) -> Double? {
    guard let text = values[flag] else { return nil }
    guard let value = Self.decimalSeconds(text, suffix: suffix) else {
      // Plain decimal but past the limit: say the limit, not the form.
      let limit = "10000000"
      if Self.decimalSeconds(text, suffix: suffix, limit: .infinity) != nil {
        throw UsageError(
          message:
            "bad value \(Self.quoted(text)) for '\(flag)' of '\(command)'; expected at most \(limit) seconds (about 115 days)"
        )
      }
      throw UsageError(
        message:
          "bad value \(Self.quoted(text)) for '\(flag)' of '\(command)'; expected \(expected) (at most \(limit) seconds)"
      )
    }
    return value
  }

  /// The most seconds a flag may give: 10^7 (about 115 days).
  static let maximumSeconds: Double = 1e7

  /// `digits[.digits]` followed by `suffix`, above 0 and at most 10^7; nil otherwise.
  static func decimalSeconds(
    _ text: String, suffix: String?, limit: Double = maximumSeconds
  ) -> Double? {
    var body = Substring(text)
    if let suffix {
      guard body.hasSuffix(suffix) else { return nil }
      body = body.dropLast(suffix.count)
    }
    let parts = body.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
    let digits = { (part: Substring) in
      !part.isEmpty && part.count <= 20
        && part.unicodeScalars.allSatisfy { ("0"..."9").contains($0) }
    }
    guard let whole = parts.first, digits(whole), parts.count == 1 || digits(parts[1]),
      let value = Double(body), value > 0, value <= limit
    else { return nil }
    return value
  }

  /// `'text'` with control characters escaped, so messages stay on one line.
  static func quoted(_ text: String) -> String {
    "'\(terminalSafe(text))'"
  }
}
