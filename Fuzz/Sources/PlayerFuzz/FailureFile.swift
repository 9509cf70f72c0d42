/// Saved failures: one action a line, `#` starts a comment, blank lines are
/// skipped. Files under Fuzz/Failures replay as regression tests on every run.
///
/// ```text
/// # nothingAfterStop, found by seed 42, case 17
/// play(A)
/// stop
/// ready(A#1)
/// ```
public enum FailureFile {
  /// The most actions a saved failure may hold: 10,000, the longest case
  /// `player-sim fuzz --max-length` generates. Saved failures are minimal
  /// cases of a few actions, and a replay's memory (its model, logs and
  /// timeline, about 100 bytes per byte of file) grows with its length.
  public static let maximumActions = 10_000

  /// Parses a saved case.
  ///
  /// Lines end at any line break (`\n`, `\r\n`, `\r`, and the Unicode ones), a
  /// UTF-8 byte-order mark at the start is skipped, and the text is read one
  /// line at a time: memory is the actions plus one line, never an array of
  /// every line.
  /// - Parameters:
  ///   - text: the file's contents.
  ///   - file: the file's name, for error messages.
  /// - Returns: the actions, in order.
  /// - Throws: ``FuzzParseError`` with the file, line and column of the first
  ///   bad line, or of the first action past ``maximumActions``.
  public static func parse(_ text: String, file: String? = nil) throws(FuzzParseError)
    -> [FuzzAction]
  {
    var actions: [FuzzAction] = []
    let scalars = text.unicodeScalars
    var start = scalars.startIndex
    if start < scalars.endIndex, scalars[start] == "\u{FEFF}" {
      start = scalars.index(after: start)
    }
    var number = 0
    while true {
      number += 1
      var end = start
      while end < scalars.endIndex, !isLineBreak(scalars[end]) { scalars.formIndex(after: &end) }
      let raw = scalars[start..<end]
      let last = end == scalars.endIndex
      if !last {
        // "\r\n" is one line break.
        let lineBreak = scalars[end]
        scalars.formIndex(after: &end)
        if lineBreak == "\r", end < scalars.endIndex, scalars[end] == "\n" {
          scalars.formIndex(after: &end)
        }
      }
      start = end
      // `#` also appears inside loads (A#1): only a `#` that starts the line
      // (after any spaces) starts a comment.
      let content = raw.drop(while: { $0 == " " || $0 == "\t" })
      if content.first != "#", !content.isEmpty {
        guard actions.count < maximumActions else {
          throw FuzzParseError(
            file: file, line: number, column: 1,
            message: "more than \(maximumActions) actions; expected a saved (minimal) case")
        }
        do {
          actions.append(try FuzzAction(parsing: String(raw)))
        } catch {
          var located = error
          located.file = file
          located.line = number
          throw located
        }
      }
      if last { break }
    }
    return actions
  }

  /// The line breaks `Character.isNewline` knows, as scalars.
  private static func isLineBreak(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029: true
    default: false
    }
  }

  /// The text of a saved case: comment lines, then one action a line.
  /// - Parameters:
  ///   - actions: the case.
  ///   - comments: lines to put first (without the `#`).
  public static func format(_ actions: [FuzzAction], comments: [String] = []) -> String {
    (comments.map { "# \($0)" } + actions.map(\.description)).joined(separator: "\n") + "\n"
  }

  /// The text to save for a failure: its property, origin and minimal case.
  public static func format(_ failure: FuzzFailure) -> String {
    format(
      failure.actions,
      comments: [
        "\(failure.property): \(failure.property.summary)",
        "found in \(failure.subject) by \(failure.origin)",
      ])
  }
}
