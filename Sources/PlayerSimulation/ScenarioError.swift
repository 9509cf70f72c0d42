/// Why a scenario script (or a scenario file) could not be read: where, what
/// was found and what was expected.
///
/// Its description is the one-line message tools print:
/// `demo.play:3:6: error: unknown media 'X'; expected a media declared above with 'media X'`.
public struct ScenarioError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The file name given to the parser (or the path that could not be read).
  public var file: String
  /// The 1-based line.
  public var line: Int
  /// The 1-based column, counted in Unicode scalars; a tab counts as one.
  public var column: Int
  /// What was found, as in `unknown action 'jump'`.
  public var found: String
  /// What was expected there, as in `one of media, play, wait`.
  public var expected: String

  /// An error at a position.
  public init(file: String, line: Int, column: Int, found: String, expected: String) {
    self.file = file
    self.line = line
    self.column = column
    self.found = found
    self.expected = expected
  }

  /// `file:line:column: error: found; expected expected`, on one line.
  public var description: String {
    "\(Self.oneLine(file)):\(line):\(column): error: \(Self.oneLine(found)); expected \(Self.oneLine(expected))"
  }

  /// `'text'`, with control and invisible characters escaped and long text
  /// shortened, so a message always fits on one readable line.
  static func quoted(_ text: String) -> String {
    var result = ""
    var count = 0
    for scalar in text.unicodeScalars {
      if count == 40 {
        result += "…"
        break
      }
      count += 1
      result += printable(scalar)
    }
    return "'\(result)'"
  }

  private static func oneLine(_ text: String) -> String {
    text.unicodeScalars.map { printable($0) }.joined()
  }

  private static func printable(_ scalar: Unicode.Scalar) -> String {
    switch scalar.properties.generalCategory {
    case .control, .format, .lineSeparator, .paragraphSeparator, .unassigned, .surrogate,
      .privateUse:
      return "\\u{\(String(scalar.value, radix: 16))}"
    default:
      return String(scalar)
    }
  }
}
