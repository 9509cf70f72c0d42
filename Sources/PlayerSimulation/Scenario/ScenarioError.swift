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

  /// `file:line:column: error: found; expected expected`, on one line, with
  /// control and invisible characters escaped (the one escaping function, `terminalSafe`).
  public var description: String {
    "\(terminalSafe(file)):\(line):\(column): error: \(terminalSafe(found)); expected \(terminalSafe(expected))"
  }

  /// `'text'`, with control and invisible characters escaped and long text
  /// shortened to 40 characters, so a message always fits on one readable line.
  static func quoted(_ text: String) -> String {
    let scalars = text.unicodeScalars
    guard scalars.count > 40 else { return "'\(terminalSafe(text))'" }
    return "'\(terminalSafe(String(scalars.prefix(40))))…'"
  }
}
