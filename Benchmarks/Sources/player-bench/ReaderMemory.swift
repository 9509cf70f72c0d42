import Foundation
import PlayerFuzz
import PlayerSimulation
import PlayerState

#if canImport(Glibc)
  import Glibc
#endif

/// Peak memory per input byte of every reader of untrusted text: scenario
/// scripts (issue 14's long-line shape and the shortest lines), saved
/// failures and JSON states. The figure docs/player-sim.md bounds.
///
/// Measured on Linux, before the benchmark starts a thread: each reader runs
/// in a forked child of its own (so no reader reuses memory another freed),
/// which resets the kernel's peak resident set (`VmHWM`) through
/// `/proc/self/clear_refs`, reads, and reports the peak's rise over its
/// resident set before reading.
enum ReaderMemory {
  struct Row {
    var name: String
    var inputBytes: Int
    /// The peak's rise, in bytes; nil where it cannot be measured.
    var peakBytes: Int?
  }

  static func measure(smoke: Bool) -> [Row] {
    let scale = smoke ? 1 : 10
    let longLine =
      "note " + String(repeating: "word ", count: 10_000) + "\n"
      + String(repeating: "pause\n", count: 16_000 * scale)
    let shortLines = String(repeating: "stop\n", count: 20_000 * scale)
    // At most 10,000 actions (FailureFile.maximumActions): a comment line each.
    let failure = String(
      repeating: "# " + String(repeating: "c", count: 88) + "\nready(A#1)\n", count: 900 * scale)
    // A state as the encoder writes it, with a long media name.
    let long = MediaID(String(repeating: "m", count: 100_000 * scale))
    let playing = PlaybackState().transition(on: .play(long)).next
    let state =
      (try? JSONEncoder().encode(playing)).map { String(decoding: $0, as: UTF8.self) } ?? ""
    return [
      row("scenario: one 10,000-word line, then short lines", longLine) { text in
        _ = try? ScenarioParser.parse(
          ScenarioFile.decode(Data(text.utf8), file: "bench"), file: "bench")
      },
      row("scenario: 'stop' on every line", shortLines) { text in
        _ = try? ScenarioParser.parse(
          ScenarioFile.decode(Data(text.utf8), file: "bench"), file: "bench")
      },
      row("saved failure: actions and comments", failure) { text in
        _ = try? FailureFile.parse(text, file: "bench")
      },
      row("JSON state: a long media name (JSONDecoder)", state) { text in
        _ = try? JSONDecoder().decode(PlaybackState.self, from: Data(text.utf8))
      },
    ]
  }

  private static func row(_ name: String, _ input: String, _ read: @escaping (String) -> Void)
    -> Row
  {
    Row(
      name: name, inputBytes: input.utf8.count,
      peakBytes: inChild { () -> Int? in
        guard resetPeak(), let before = status("VmRSS:") else { return nil }
        read(input)
        return status("VmHWM:").map { max(0, $0 - before) }
      })
  }

  /// Runs `body` in a forked child and returns what it returned.
  private static func inChild(_ body: () -> Int?) -> Int? {
    #if canImport(Glibc)
      var fds: [Int32] = [0, 0]
      guard pipe(&fds) == 0 else { return nil }
      let pid = fork()
      if pid == 0 {
        close(fds[0])
        let text = body().map(String.init) ?? "n/a"
        _ = text.utf8CString.withUnsafeBufferPointer { write(fds[1], $0.baseAddress, $0.count - 1) }
        _exit(0)
      }
      close(fds[1])
      defer { close(fds[0]) }
      guard pid > 0 else { return nil }
      var buffer = [UInt8](repeating: 0, count: 64)
      let count = read(fds[0], &buffer, buffer.count)
      var status: Int32 = 0
      waitpid(pid, &status, 0)
      guard count > 0 else { return nil }
      return Int(String(decoding: buffer[..<count], as: UTF8.self))
    #else
      return nil
    #endif
  }

  /// Sets the peak resident set to the current one (Linux 4.0 and later).
  private static func resetPeak() -> Bool {
    guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
    defer { try? handle.close() }
    return (try? handle.write(contentsOf: Data("5".utf8))) != nil
  }

  /// A `/proc/self/status` field in bytes (the file gives kilobytes).
  private static func status(_ field: String) -> Int? {
    guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else {
      return nil
    }
    for line in text.split(separator: "\n") where line.hasPrefix(field) {
      let digits = line.dropFirst(field.count).filter(\.isNumber)
      return Int(digits).map { $0 * 1024 }
    }
    return nil
  }

  /// The section of the table: input size, peak and peak per input byte.
  static func table(_ rows: [Row]) -> String {
    var lines = [
      "", "Readers of untrusted input: peak memory per input byte (issue 14; promise: at most 32)",
    ]
    for row in rows {
      let peak =
        row.peakBytes.map {
          String(
            format: "%.1f MB peak, %.1f bytes per input byte", Double($0) / 1e6,
            Double($0) / Double(row.inputBytes))
        } ?? "n/a"
      lines.append(
        "  " + row.name.padding(toLength: 50, withPad: " ", startingAt: 0)
          + String(format: "%7.0f KB  ", Double(row.inputBytes) / 1000) + peak)
    }
    return lines.joined(separator: "\n") + "\n"
  }
}
