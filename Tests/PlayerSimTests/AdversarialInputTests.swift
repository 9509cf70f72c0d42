import Foundation
import PlayerSimulation
import Testing

/// Hostile files, each class of issue 14 a named case: the exit status, where
/// the message points (`file:line:column`) and a memory bound, measured on the
/// built `player-sim` in a process of its own.
///
/// The bound is docs/player-sim.md's promise: a run's peak memory beyond a
/// one-line script's is at most 32 bytes per input byte plus 8 MB.
@Suite struct AdversarialInputTests {
  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    /// The command before the file path.
    var command: [String]
    var bytes: Data
    var status: Int32
    /// The start of standard error with the file's path written as `F`, or "" for none.
    var message: String
    var testDescription: String { name }
  }

  /// Issue 14's shape: one line of 10,000 words, then many short lines. Each
  /// later line once kept a 10,000-slot token buffer: 305 MB for 90 KB.
  static let longLineThenShortLines =
    "note " + String(repeating: "word ", count: 10_000) + "\n"
    + String(repeating: "pause\n", count: 8_000)

  static let cases: [Case] = [
    Case(
      name: "one long line, then many short lines", command: ["run", "--quiet"],
      bytes: Data(longLineThenShortLines.utf8), status: 0, message: ""),
    Case(
      name: "one long line, many short lines, a bad last line", command: ["run"],
      bytes: Data((longLineThenShortLines + "bounce\n").utf8), status: 2,
      message: "F:8002:1: error: unknown action 'bounce'"),
    Case(
      name: "one 64 KB word", command: ["run"],
      bytes: Data(String(repeating: "x", count: 65_536).utf8), status: 2,
      message: "F:1:1: error: unknown action 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…'"),
    Case(
      name: "200,000 empty lines", command: ["run", "--quiet"],
      bytes: Data(String(repeating: "\n", count: 200_000).utf8), status: 0, message: ""),
    Case(
      name: "a 10,000-word comment on every line", command: ["run", "--quiet"],
      bytes: Data(
        String(repeating: "# " + String(repeating: "w ", count: 2_000) + "\n", count: 20).utf8),
      status: 0, message: ""),
    Case(
      name: "an OSC sequence in a media name", command: ["run"],
      bytes: Data("media A\u{1B}]0;owned\u{07}\n".utf8), status: 2,
      message: #"F:1:7: error: bad media name 'A\u{1b}]0;owned\u{7}'"#),
    Case(
      name: "a bidi override in a media name", command: ["run"],
      bytes: Data("media A\u{202E}B\n".utf8), status: 2,
      message: #"F:1:7: error: bad media name 'A\u{202e}B'"#),
    Case(
      name: "a UTF-8 byte-order mark", command: ["run", "--quiet"],
      bytes: Data(
        [0xEF, 0xBB, 0xBF] + Array("media A\nplay A\nwait 1s\nexpect state playing\n".utf8)),
      status: 0, message: ""),
    Case(
      name: "a byte-order mark takes no column", command: ["run"],
      bytes: Data([0xEF, 0xBB, 0xBF] + Array("wait 5\n".utf8)), status: 2,
      message: "F:1:6: error: bad time '5'"),
    Case(
      name: "an exact state no state prints", command: ["run"],
      bytes: Data("media A\nplay A\nexpect state playing(A#1, zzz)\n".utf8), status: 2,
      message:
        "F:3:27: error: 'zzz' in a playing state; expected seek#N (a pending seek), sleep TIMER (the armed sleep timer), preloading P, preloaded P, preload failed P, preload live P, crossfade from L or ')'"
    ),
    Case(
      name: "an exact state missing its detail", command: ["run"],
      bytes: Data("media A\nwait until buffering(A#1)\n".utf8), status: 2,
      message: "F:2:25: error: found ')'; expected 'autoplay' or 'paused'"),
    Case(
      name: "a hexadecimal time", command: ["run"],
      bytes: Data("wait 0x10s\n".utf8), status: 2, message: "F:1:6: error: bad time '0x10s'"),
    Case(
      name: "a NUL byte", command: ["run"], bytes: Data("media A\nplay\u{0}A\n".utf8),
      status: 2, message: "F:2:5: error: a NUL byte at byte 12"),
    Case(
      name: "invalid UTF-8", command: ["run"], bytes: Data([0x6D, 0x65, 0xFF, 0x0A]), status: 2,
      message: "F:1:3: error: invalid UTF-8 (byte 0xFF at byte 2, 1 bad)"),
    Case(
      name: "an expect that fails over thousands of commands", command: ["run", "--quiet"],
      bytes: Data(
        ("media A\nmedia B\n" + String(repeating: "play A\nplay B\n", count: 1_500)
          + "expect commands none\n").utf8),
      status: 1,
      message:
        "F:3003:1: expect failed: expected commands none; found commands load(A#1) stop(A#1) load(B#2) "
    ),
    Case(
      name: "a saved failure of escapes", command: ["fuzz", "--replay"],
      bytes: Data("bogus\u{1B}[2J\n".utf8), status: 2,
      message: #"F:1:1: error: expected an action such as queue(A B), play(A)"#),
    Case(
      name: "a saved failure of 200,000 comment and blank lines", command: ["fuzz", "--replay"],
      bytes: Data(String(repeating: "# c\n\n", count: 100_000).utf8), status: 2,
      message: "F:1:1: error: no actions; expected one action a line"),
    Case(
      name: "a saved failure over the action limit", command: ["fuzz", "--replay"],
      bytes: Data(String(repeating: "deliver\n", count: 10_001).utf8), status: 2,
      message: "F:10001:1: error: more than 10000 actions; expected a saved (minimal) case"),
    Case(
      name: "a saved failure at the action limit", command: ["fuzz", "--replay"],
      bytes: Data(String(repeating: "play(A)\nstop\n", count: 5_000).utf8), status: 0,
      message: ""),
    Case(
      name: "a saved failure with a byte-order mark and CRLF", command: ["fuzz", "--replay"],
      bytes: Data([0xEF, 0xBB, 0xBF] + Array("play(A)\r\nstop\r\nready(A#1)\r\n".utf8)), status: 0,
      message: ""),
  ]

  @Test(arguments: cases) func hostileFile(_ item: Case) throws {
    let path = try CLI.scratchFile("input", item.bytes)
    let output = try CLI.run(item.command + [path])
    #expect(output.status == item.status)
    let stderr = output.stderr.replacingOccurrences(of: path, with: "F")
    if item.message.isEmpty {
      #expect(stderr == "")
    } else {
      #expect(stderr.hasPrefix(item.message), "\(stderr.prefix(300))")
      // One line, however long the input: cut and escaped.
      #expect(stderr.split(separator: "\n").count == 1)
      #expect(stderr.utf8.count < 2_000)
    }
    #expect(!(output.stdout + output.stderr).unicodeScalars.contains("\u{1B}"))
  }

  @Test(.enabled(if: PeakMemory.isSupported), arguments: cases)
  func memoryStaysProportionalToTheInput(_ item: Case) throws {
    let path = try CLI.scratchFile("input", item.bytes)
    let measured = try PeakMemory.run(item.command + [path])
    let baseline = try PeakMemory.run(["run", "--quiet", try Self.smallScript()])
    #expect(measured.status == item.status)
    let extra = measured.peakBytes - baseline.peakBytes
    let bound = 32 * item.bytes.count + 8 * 1024 * 1024
    #expect(extra <= bound, "\(extra) bytes beyond a one-line script for \(item.bytes.count) bytes")
  }

  static func smallScript() throws -> String {
    try CLI.scratchFile("small.play", Data("media A\n".utf8))
  }

  struct FlagCase: CustomTestStringConvertible, Sendable {
    var name: String
    var arguments: [String]
    var status: Int32
    var message: String
    var testDescription: String { name }
  }

  static let flagCases: [FlagCase] = [
    FlagCase(
      name: "a budget too small to run a case",
      arguments: ["fuzz", "--budget", "0.000001s", "--quiet"],
      status: 2, message: "player-sim: the budget 1e-06 s ran out before the first case"),
    FlagCase(
      name: "a budget in exponent form", arguments: ["fuzz", "--budget", "1e-300s"], status: 2,
      message: "player-sim: bad value '1e-300s' for '--budget' of 'fuzz'"),
    FlagCase(
      name: "a hexadecimal budget", arguments: ["fuzz", "--budget", "0x10s"], status: 2,
      message: "player-sim: bad value '0x10s' for '--budget' of 'fuzz'"),
    FlagCase(
      name: "a hexadecimal case count", arguments: ["fuzz", "--budget", "0x10"], status: 2,
      message: "player-sim: bad value '0x10' for '--budget' of 'fuzz'"),
    FlagCase(
      name: "hexadecimal seconds for explore", arguments: ["explore", "--seconds", "0x1p3"],
      status: 2, message: "player-sim: bad value '0x1p3' for '--seconds' of 'explore'"),
    FlagCase(
      name: "infinite seconds for explore", arguments: ["explore", "--seconds", "inf"], status: 2,
      message: "player-sim: bad value 'inf' for '--seconds' of 'explore'"),
    FlagCase(
      name: "an escape sequence in a flag", arguments: ["run", "--seed", "\u{1B}[2J"], status: 2,
      message: #"player-sim: bad value '\u{1b}[2J' for '--seed' of 'run'"#),
  ]

  @Test(arguments: flagCases) func hostileFlag(_ item: FlagCase) throws {
    let output = try CLI.run(item.arguments)
    #expect(output.status == item.status)
    #expect(output.stderr.hasPrefix(item.message), "\(output.stderr)")
    #expect(output.stdout == "")
  }
}
