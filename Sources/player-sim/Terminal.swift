import Foundation
import PlayerEngine

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Standard output and error, and what kind of terminal they are.
///
/// Both are written with `write(2)`, standard output through a buffer of
/// its own, and every write is checked: one that fails (a full disk,
/// `>/dev/full`, a closed stream) never traps, and ``finish(_:)`` turns the
/// run's exit status into 2, with a best-effort message on standard error.
enum Terminal {
  /// The streams' state, only touched under ``streams``' lock.
  private struct Streams {
    /// Standard output not written yet.
    var pending: [UInt8] = []
    /// The `errno` of the first failed write to standard output; later
    /// output is dropped.
    var outputFailure: Int32?
    /// The `errno` of the first failed write to standard error.
    var errorFailure: Int32?
    /// Streams closed when the process started (``start()`` holds them open
    /// on /dev/null): every write to one fails.
    var outputClosed = false
    var errorClosed = false
    /// Whether standard output is a terminal: then each line is written at
    /// once, as C's `stdout` does.
    var lineBuffered = false

    /// Writes the pending output, unless a write already failed.
    mutating func flushOutput() {
      defer { pending.removeAll(keepingCapacity: pending.count <= Terminal.bufferSize) }
      guard outputFailure == nil, !pending.isEmpty else { return }
      outputFailure = outputClosed ? EBADF : Terminal.writeAll(STDOUT_FILENO, pending)
    }

    /// Writes to standard error, unless a write to it already failed.
    mutating func writeError(_ text: String) {
      guard errorFailure == nil else { return }
      errorFailure = errorClosed ? EBADF : Terminal.writeAll(STDERR_FILENO, Array(text.utf8))
    }
  }

  private static let streams = Locked(Streams())

  /// Standard output is written once this many bytes are pending, and at the end.
  static let bufferSize = 1 << 16

  /// Called first: a standard output or error closed at start (`>&-`) is held
  /// open on /dev/null, so a file opened later never takes its descriptor
  /// (and gets the output); every write to it then counts as failed.
  static func start() {
    let output = holdIfClosed(STDOUT_FILENO)
    let error = holdIfClosed(STDERR_FILENO)
    let terminal = isatty(STDOUT_FILENO) != 0
    streams.withLock {
      $0.outputClosed = output
      $0.errorClosed = error
      $0.lineBuffered = terminal
    }
  }

  /// Whether `descriptor` was closed; if so it is now open on /dev/null.
  private static func holdIfClosed(_ descriptor: Int32) -> Bool {
    guard fcntl(descriptor, F_GETFD) == -1, errno == EBADF else { return false }
    let null = open("/dev/null", O_WRONLY)
    if null >= 0, null != descriptor {
      _ = dup2(null, descriptor)
      _ = close(null)
    }
    return true
  }

  /// Writes all of `bytes` to `descriptor`; the `errno` of a failure, or nil.
  private static func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) -> Int32? {
    bytes.withUnsafeBytes { raw -> Int32? in
      guard let base = raw.baseAddress else { return nil }
      var offset = 0
      while offset < raw.count {
        let written = write(descriptor, base + offset, raw.count - offset)
        if written > 0 {
          offset += written
        } else if written < 0, errno == EINTR {
          continue
        } else {
          return written < 0 ? errno : EIO
        }
      }
      return nil
    }
  }

  /// Writes a line to standard output.
  static func out(_ line: String) {
    streams.withLock {
      $0.pending.append(contentsOf: line.utf8)
      $0.pending.append(UInt8(ascii: "\n"))
      if $0.lineBuffered || $0.pending.count >= bufferSize { $0.flushOutput() }
    }
  }

  /// Pushes buffered standard output to the terminal (for real-time runs).
  static func flush() {
    streams.withLock { $0.flushOutput() }
  }

  /// Writes a line to standard error, after the output so far.
  static func error(_ line: String) {
    streams.withLock {
      $0.flushOutput()
      $0.writeError(line + "\n")
    }
  }

  /// Writes text to standard error without a newline (progress lines).
  static func errorRaw(_ text: String) {
    streams.withLock { $0.writeError(text) }
  }

  /// The exit status to end with, once standard output is flushed:
  /// `status`, or 2 (nothing concluded) when a write to standard output or
  /// error failed. Says which on standard error, if it can.
  static func finish(_ status: ExitStatus) -> ExitStatus {
    streams.withLock { streams in
      streams.flushOutput()
      if let code = streams.outputFailure {
        let reason = code == 0 ? "a write failed" : String(cString: strerror(code))
        streams.writeError("player-sim: cannot write standard output: \(reason)\n")
      }
      let failed = streams.outputFailure != nil || streams.errorFailure != nil
      return failed ? .usage : status
    }
  }

  /// Whether standard output should be coloured: a terminal, `NO_COLOR`
  /// unset or empty (no-color.org: only a non-empty value turns colour off),
  /// and `TERM` not `dumb`.
  static var colorOutput: Bool {
    let environment = ProcessInfo.processInfo.environment
    if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
    if environment["TERM"] == "dumb" { return false }
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

  /// Reports elapsed time and what the work says of itself (`detail` on a
  /// terminal, `fields` in JSON), at most once a second.
  func tick(_ what: String, detail: String? = nil, fields: [(String, JSONValue)] = []) {
    guard !quiet else { return }
    let now = clock.now
    guard now - start >= .seconds(1), now - lastPrint >= .seconds(1) else { return }
    lastPrint = now
    let seconds = Double((now - start).components.seconds)
    if json {
      Terminal.out(
        JSONValue.line(
          "progress", [("what", .string(what)), ("elapsed_s", .double(seconds))] + fields))
      Terminal.flush()
      return
    }
    let line =
      "player-sim: \(what), \(String(format: "%.0f", seconds))s elapsed"
      + (detail.map { ": " + $0 } ?? "")
    if Terminal.errorIsTerminal {
      Terminal.errorRaw("\r\u{1B}[2K" + line)
    } else {
      Terminal.error(line)
    }
    printed = true
  }

  /// A line that stays (a part of the work that has ended), between the
  /// progress lines: on standard error, or with `json` a `{"progress":{…}}`
  /// line of `fields` on standard output.
  func note(_ line: String, fields: [(String, JSONValue)]) {
    guard !quiet else { return }
    if json {
      Terminal.out(JSONValue.line("progress", fields))
      Terminal.flush()
      return
    }
    if printed, Terminal.errorIsTerminal { Terminal.errorRaw("\r\u{1B}[2K") }
    Terminal.error("player-sim: " + line)
  }

  /// Ends the progress line so later output starts on a fresh line.
  func finish() {
    if printed, Terminal.errorIsTerminal { Terminal.errorRaw("\r\u{1B}[2K") }
  }
}
