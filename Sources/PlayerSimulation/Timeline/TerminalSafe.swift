/// Text made safe to print to a terminal: every character that could move the
/// cursor, retitle the window, ring the bell, reorder the line or hide text is
/// written as a visible `\u{…}` escape instead.
///
/// The one escaping function of every human-readable output of `player-sim`
/// (timeline, notes, summaries, `expect` lines, replays and error messages).
/// Escaped: control characters (C0 such as NUL, BEL, ESC and CR; DEL; C1 such
/// as U+009B, the one-byte CSI), format characters (the bidi overrides and
/// isolates U+202A–U+202E and U+2066–U+2069, zero-width characters, the
/// byte-order mark), line and paragraph separators, private-use, surrogate
/// and unassigned code points. `--json` output does not use this: JSON
/// escaping keeps the text exact.
///
/// ```swift
/// terminalSafe("A\u{1B}]0;owned\u{07}")   // A\u{1b}]0;owned\u{7}
/// ```
///
/// - Parameters:
///   - text: the text to print.
///   - keepingNewlines: keep `\n` as is, for multi-line reports; any other
///     control character is still escaped.
/// - Returns: the text with each unsafe scalar replaced by `\u{hex}`.
/// - Complexity: O(n) in the length of `text`.
package func terminalSafe(_ text: String, keepingNewlines: Bool = false) -> String {
  // The common case (nothing to escape) returns the text without copying it.
  guard text.unicodeScalars.contains(where: { needsEscape($0, keepingNewlines: keepingNewlines) })
  else {
    return text
  }
  var result = String.UnicodeScalarView()
  for scalar in text.unicodeScalars {
    if needsEscape(scalar, keepingNewlines: keepingNewlines) {
      result.append(contentsOf: "\\u{\(String(scalar.value, radix: 16))}".unicodeScalars)
    } else {
      result.append(scalar)
    }
  }
  return String(result)
}

/// ``terminalSafe(_:keepingNewlines:)`` cut to at most `limit` scalars of the
/// original text, with a marker saying how much was left out.
///
/// Run-time messages (an `expect` that failed over thousands of commands) can
/// be megabytes long; a terminal gets the start and the marker, `--json` gets
/// the whole text.
/// - Parameters:
///   - text: the text to print.
///   - limit: the most scalars of `text` kept.
/// - Returns: the escaped prefix, then `… (N more characters)`
///   if `text` was longer than `limit`.
package func terminalSafe(_ text: String, limit: Int) -> String {
  var count = 0
  var end = text.unicodeScalars.startIndex
  while end < text.unicodeScalars.endIndex, count < limit {
    text.unicodeScalars.formIndex(after: &end)
    count += 1
  }
  guard end < text.unicodeScalars.endIndex else { return terminalSafe(text) }
  let rest = text.unicodeScalars[end...].count
  return terminalSafe(String(text.unicodeScalars[..<end]))
    + "… (\(rest) more characters)"
}

/// The longest run-time message part (an expected or found value) printed to
/// a terminal, in Unicode scalars.
package let terminalMessageLimit = 400

/// Whether a terminal must not get `scalar` as is: the rule by which
/// player-sim's `terminalSafe` escapes every line it prints.
///
/// True for C0 controls and DEL, and for the control, format, line and
/// paragraph separator, unassigned, surrogate and private-use categories.
/// Public (where `terminalSafe` is `package`) so that a check outside the
/// package reads the same rule rather than a copy: the `FilesFuzzer` libFuzzer
/// target asserts with it that no line player-sim would print needs escaping.
///
/// ```swift
/// needsEscape("\u{1B}", keepingNewlines: false)   // true: ESC
/// needsEscape("\n", keepingNewlines: true)        // false
/// needsEscape("é", keepingNewlines: false)        // false
/// ```
///
/// - Parameters:
///   - scalar: the scalar to print.
///   - keepingNewlines: whether `\n` may be printed as is (multi-line reports).
/// - Returns: whether `scalar` must be written as a `\u{…}` escape.
public func needsEscape(_ scalar: Unicode.Scalar, keepingNewlines: Bool) -> Bool {
  if scalar.value < 0x80 {
    // ASCII: only C0 controls and DEL; the fast path of almost every scalar.
    if scalar == "\n" { return !keepingNewlines }
    return scalar.value < 0x20 || scalar.value == 0x7F
  }
  switch scalar.properties.generalCategory {
  case .control, .format, .lineSeparator, .paragraphSeparator, .unassigned, .surrogate,
    .privateUse:
    return true
  default:
    return false
  }
}
