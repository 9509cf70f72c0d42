import PlayerState

/// Reads the words of one line, left to right, with errors that say where.
struct LineReader {
  let file: String
  let line: ScenarioLine
  var index = 0

  init(file: String, line: ScenarioLine) {
    self.file = file
    self.line = line
  }

  // MARK: Cursor

  func error(at column: Int, found: String, expected: String) -> ScenarioError {
    ScenarioError(file: file, line: line.number, column: column, found: found, expected: expected)
  }

  func error(_ token: ScenarioToken, found: String, expected: String) -> ScenarioError {
    error(at: token.column, found: found, expected: expected)
  }

  /// The next word, or an error saying what was expected at the end of the line.
  mutating func next(_ expected: String) throws(ScenarioError) -> ScenarioToken {
    guard index < line.tokens.count else {
      throw error(at: line.endColumn, found: "found end of line", expected: expected)
    }
    index += 1
    return line.tokens[index - 1]
  }

  /// The next word if there is one.
  mutating func nextIfAny() -> ScenarioToken? {
    guard index < line.tokens.count else { return nil }
    index += 1
    return line.tokens[index - 1]
  }

  /// The words not read yet, consumed.
  mutating func rest() -> [ScenarioToken] {
    defer { index = line.tokens.count }
    return Array(line.tokens[index...])
  }

  /// Throws unless every word has been read.
  func end(after action: String) throws(ScenarioError) {
    guard index < line.tokens.count else { return }
    let extra = line.tokens[index]
    throw error(
      extra, found: "unexpected \(ScenarioError.quoted(extra.text)) after '\(action)'",
      expected: "end of line (a comment starts with ' #')")
  }
}
