import Foundation

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Standard output and error, and what kind of terminal they are.
enum Terminal {
  /// Writes a line to standard output.
  static func out(_ line: String) {
    print(line)
  }

  /// Pushes buffered standard output to the terminal (for real-time runs).
  static func flush() {
    fflush(nil)
  }

  /// Writes a line to standard error.
  static func error(_ line: String) {
    fflush(nil)
    FileHandle.standardError.write(Data((line + "\n").utf8))
  }

  /// Writes text to standard error without a newline (progress lines).
  static func errorRaw(_ text: String) {
    FileHandle.standardError.write(Data(text.utf8))
  }

  /// Whether standard output should be coloured: a terminal, `NO_COLOR`
  /// unset, and `TERM` not `dumb`.
  static var colorOutput: Bool {
    let environment = ProcessInfo.processInfo.environment
    if environment["NO_COLOR"] != nil || environment["TERM"] == "dumb" { return false }
    return isatty(STDOUT_FILENO) != 0
  }

  /// Whether standard error is a terminal (progress then rewrites one line).
  static var errorIsTerminal: Bool { isatty(STDERR_FILENO) != 0 }
}

/// Progress on standard error for work that lasts over a second: rate,
/// elapsed time and failures so far, at most once a second; silent when quiet.
/// With `json`, each report is a `{"progress":{…}}` line on standard output instead.
final class Progress {
  private let clock = ContinuousClock()
  private let start: ContinuousClock.Instant
  private var lastPrint: ContinuousClock.Instant
  private let quiet: Bool
  private let unit: String
  private let found: String
  private var printed = false
  private let json: Bool

  /// - Parameters:
  ///   - quiet: print nothing.
  ///   - unit: what is counted, as in `events`.
  ///   - found: what failures are called, as in `failed` or `failures found`.
  ///   - json: report as JSON lines on standard output.
  init(quiet: Bool, unit: String, found: String, json: Bool = false) {
    self.quiet = quiet
    self.json = json
    self.unit = unit
    self.found = found
    start = clock.now
    lastPrint = start
  }

  var elapsed: Duration { clock.now - start }

  /// Reports progress if a second has passed since the start and since the last report.
  func update(done: Int, total: Int?, found: Int) {
    guard !quiet else { return }
    // Reading the clock costs more than the work of one step; look every 256 steps.
    guard done & 0xFF == 0 || total != nil else { return }
    let now = clock.now
    guard now - start >= .seconds(1), now - lastPrint >= .seconds(1) else { return }
    lastPrint = now
    let seconds =
      Double((now - start).components.seconds)
      + Double((now - start).components.attoseconds) / 1e18
    let rate = seconds > 0 ? Int(Double(done) / seconds) : 0
    if json {
      Terminal.out(
        JSONValue.line(
          "progress",
          [
            (unit, .int(done)), ("rate", .int(rate)), ("elapsed_s", .double(seconds)),
            (self.found.replacingOccurrences(of: " ", with: "_"), .int(found)),
          ]))
      Terminal.flush()
      return
    }
    let of = total.map { "/\($0)" } ?? ""
    let line =
      "player-sim: \(done)\(of) \(unit), \(rate) \(unit)/s, \(String(format: "%.1f", seconds))s elapsed, \(found) \(self.found) so far"
    if Terminal.errorIsTerminal {
      Terminal.errorRaw("\r\u{1B}[2K" + line)
    } else {
      Terminal.error(line)
    }
    printed = true
  }

  /// Reports elapsed time only, for work that cannot count its progress.
  func tick(_ what: String) {
    guard !quiet else { return }
    let now = clock.now
    guard now - start >= .seconds(1), now - lastPrint >= .seconds(1) else { return }
    lastPrint = now
    let seconds = Double((now - start).components.seconds)
    if json {
      Terminal.out(
        JSONValue.line("progress", [("what", .string(what)), ("elapsed_s", .double(seconds))]))
      Terminal.flush()
      return
    }
    let line = "player-sim: \(what), \(String(format: "%.0f", seconds))s elapsed"
    if Terminal.errorIsTerminal {
      Terminal.errorRaw("\r\u{1B}[2K" + line)
    } else {
      Terminal.error(line)
    }
    printed = true
  }

  /// Ends the progress line so later output starts on a fresh line.
  func finish() {
    if printed, Terminal.errorIsTerminal { Terminal.errorRaw("\r\u{1B}[2K") }
  }
}
