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

/// Splits a script into lines of words, one line at a time.
///
/// Works on Unicode scalars, not characters, so that `\r\n`, combining marks
/// and odd whitespace are all handled the same simple way: lines end at
/// `\n` (a `\r` before it is whitespace), words are separated by any Unicode
/// whitespace, and a `#` that begins a word starts a comment (so `A#1` is a word).
/// A byte-order mark (U+FEFF) at the very start is skipped, as editors write one.
///
/// A `"` right after the `=` of a `key=` word opens a quoted value (as in
/// `message="no route to host"`): the word runs to the next `"` that no `\`
/// escapes, spaces and `#` included, and the parser decodes it
/// (``LineReader/quotedText(_:limit:)``). A quote left open runs to the end of
/// the line, and the parser says so. On a `note` line quotes are plain text.
///
/// Memory: the lexer holds one line's words at a time, in a buffer sized for
/// that line. It never keeps a buffer sized for the longest line seen so far
/// (issue 14: a 10,000-word line followed by short lines once made every later
/// line carry a 10,000-slot buffer, 305 MB for a 90 KB script).
struct ScenarioLexer: Sequence, IteratorProtocol {
  private var scalars: String.UnicodeScalarView.Iterator
  private var number = 0
  private var finished = false
  private var first = true

  init(_ text: String) {
    scalars = text.unicodeScalars.makeIterator()
  }

  /// The next line (possibly without words), or nil after the last.
  mutating func next() -> ScenarioLine? {
    guard !finished else { return nil }
    number += 1
    // A fresh array per line: never `removeAll(keepingCapacity:)` on a buffer
    // a returned line still shares, which copies its whole capacity.
    var tokens: [ScenarioToken] = []
    var word = String.UnicodeScalarView()
    var column = 0
    var wordStart = 0
    var endColumn = 1
    var inComment = false
    // Inside a quoted value; `escaped` after a `\` in one.
    var inQuote = false
    var escaped = false

    func endWord() {
      guard !word.isEmpty else { return }
      tokens.append(ScenarioToken(text: String(word), column: wordStart))
      endColumn = column
      word = String.UnicodeScalarView()
    }

    while let scalar = scalars.next() {
      if first {
        first = false
        if scalar == "\u{FEFF}" { continue }
      }
      if scalar == "\n" {
        column += 1
        endWord()
        return ScenarioLine(number: number, tokens: tokens, endColumn: endColumn)
      }
      column += 1
      if inComment { continue }
      if inQuote {
        if escaped {
          escaped = false
        } else if scalar == "\\" {
          escaped = true
        } else if scalar == "\"" {
          inQuote = false
        }
        word.append(scalar)
        continue
      }
      if scalar == "\"", word.last == "=", tokens.first?.text != "note" {
        inQuote = true
        word.append(scalar)
        continue
      }
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
    finished = true
    column += 1
    endWord()
    return ScenarioLine(number: number, tokens: tokens, endColumn: endColumn)
  }

  /// Every line of `text`, for tests: the parser reads lines one at a time.
  static func lines(_ text: String) -> [ScenarioLine] {
    Array(ScenarioLexer(text))
  }
}
