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
  /// Parses a saved case.
  /// - Parameters:
  ///   - text: the file's contents.
  ///   - file: the file's name, for error messages.
  /// - Returns: the actions, in order.
  /// - Throws: ``FuzzParseError`` with the file, line and column of the first bad line.
  public static func parse(_ text: String, file: String? = nil) throws(FuzzParseError)
    -> [FuzzAction]
  {
    var actions: [FuzzAction] = []
    // Split on every kind of line break: "\r\n" is one Character, so splitting
    // on "\n" alone would read a CRLF file as a single line.
    for (number, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
      .enumerated()
    {
      // `#` also appears inside loads (A#1): only a `#` that starts the line
      // (after any spaces) starts a comment.
      if raw.drop(while: { $0 == " " || $0 == "\t" }).hasPrefix("#") { continue }
      let content = String(raw)
      if content.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" }) { continue }
      do {
        actions.append(try FuzzAction(parsing: content))
      } catch {
        var located = error
        located.file = file
        located.line = number + 1
        throw located
      }
    }
    return actions
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
