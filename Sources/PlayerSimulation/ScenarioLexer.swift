/// A word of a script line and its 1-based column.
struct ScenarioToken: Hashable, Sendable {
  var text: String
  var column: Int
}

/// The words of one script line, comments removed.
struct ScenarioLine: Hashable, Sendable {
  /// The 1-based line number.
  var number: Int
  /// The words, split at whitespace.
  var tokens: [ScenarioToken]
  /// The column just after the last word: where a missing argument was expected.
  var endColumn: Int
}

/// Splits a script into lines of words.
///
/// Works on Unicode scalars, not characters, so that `\r\n`, combining marks
/// and odd whitespace are all handled the same simple way: lines end at
/// `\n` (a `\r` before it is whitespace), words are separated by any Unicode
/// whitespace, and a `#` that begins a word starts a comment (so `A#1` is a word).
enum ScenarioLexer {
  static func lines(_ text: String) -> [ScenarioLine] {
    var lines: [ScenarioLine] = []
    var tokens: [ScenarioToken] = []
    var word = String.UnicodeScalarView()
    var number = 1
    var column = 0
    var wordStart = 0
    var endColumn = 1
    var inComment = false

    func endWord() {
      guard !word.isEmpty else { return }
      tokens.append(ScenarioToken(text: String(word), column: wordStart))
      endColumn = column
      word = String.UnicodeScalarView()
    }

    for scalar in text.unicodeScalars {
      if scalar == "\n" {
        column += 1
        endWord()
        lines.append(ScenarioLine(number: number, tokens: tokens, endColumn: endColumn))
        tokens.removeAll(keepingCapacity: true)
        number += 1
        column = 0
        endColumn = 1
        inComment = false
        continue
      }
      column += 1
      if inComment { continue }
      if scalar.properties.isWhitespace {
        endWord()
        continue
      }
      if word.isEmpty {
        if scalar == "#" {
          inComment = true
          continue
        }
        wordStart = column
      }
      word.append(scalar)
    }
    column += 1
    endWord()
    lines.append(ScenarioLine(number: number, tokens: tokens, endColumn: endColumn))
    return lines
  }
}
