import Foundation
import PlayerSimulation
import Testing

/// The one escaping function, and every human-readable output that goes through it.
@Suite struct TerminalSafeTests {
  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    var input: String
    var escaped: String
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(
      name: "ESC, as in a colour or a screen clear", input: "A\u{1B}[2J", escaped: #"A\u{1b}[2J"#),
    Case(
      name: "OSC retitling the terminal, ended by BEL", input: "\u{1B}]0;owned\u{07}",
      escaped: #"\u{1b}]0;owned\u{7}"#),
    Case(name: "BEL", input: "ding\u{07}", escaped: #"ding\u{7}"#),
    Case(name: "NUL", input: "a\u{00}b", escaped: #"a\u{0}b"#),
    Case(name: "CR, which rewrites the line", input: "ok\rFAIL", escaped: #"ok\u{d}FAIL"#),
    Case(name: "LF", input: "one\ntwo", escaped: #"one\u{a}two"#),
    Case(name: "TAB", input: "a\tb", escaped: #"a\u{9}b"#),
    Case(name: "DEL", input: "x\u{7F}", escaped: #"x\u{7f}"#),
    Case(name: "C1 CSI (U+009B)", input: "\u{9B}31m", escaped: #"\u{9b}31m"#),
    Case(name: "C1 OSC (U+009D)", input: "\u{9D}0;t\u{9C}", escaped: #"\u{9d}0;t\u{9c}"#),
    Case(
      name: "bidi override RLO (U+202E)", input: "evil\u{202E}txt.exe",
      escaped: #"evil\u{202e}txt.exe"#),
    Case(
      name: "bidi isolates (U+2066, U+2069)", input: "\u{2066}x\u{2069}",
      escaped: #"\u{2066}x\u{2069}"#),
    Case(name: "zero-width space", input: "a\u{200B}b", escaped: #"a\u{200b}b"#),
    Case(name: "byte-order mark", input: "\u{FEFF}a", escaped: #"\u{feff}a"#),
    Case(name: "line separator", input: "a\u{2028}b", escaped: #"a\u{2028}b"#),
    Case(name: "private use", input: "\u{E000}", escaped: #"\u{e000}"#),
    Case(
      name: "printable text is unchanged", input: "ready(A#1) → idle ✓ é 漢字 🎵",
      escaped: "ready(A#1) → idle ✓ é 漢字 🎵"),
  ]

  @Test(arguments: cases) func escapes(_ item: Case) {
    #expect(terminalSafe(item.input) == item.escaped)
    // Escaping is idempotent: an escaped text holds nothing left to escape.
    #expect(terminalSafe(item.escaped) == item.escaped)
  }

  @Test func newlinesKeptOnlyWhenAsked() {
    #expect(terminalSafe("a\nb\u{1B}", keepingNewlines: true) == "a\nb\\u{1b}")
    #expect(terminalSafe("a\r\nb", keepingNewlines: true) == "a\\u{d}\nb")
  }

  @Test func longTextIsCutWithAMarker() {
    #expect(
      terminalSafe(String(repeating: "x", count: 10), limit: 4) == "xxxx… (6 more characters)")
    #expect(terminalSafe("xxxx", limit: 4) == "xxxx")
    #expect(terminalSafe("\u{1B}\u{1B}\u{1B}", limit: 2) == "\\u{1b}\\u{1b}… (1 more characters)")
  }

  @Test func parseErrorsEscapeTheFileNameAndTheText() {
    let error = ScenarioError(
      file: "a\u{1B}[2J.play", line: 1, column: 1, found: "found '\u{07}'", expected: "x\u{202E}y")
    #expect(error.description == #"a\u{1b}[2J.play:1:1: error: found '\u{7}'; expected x\u{202e}y"#)
  }

  @Test func expectationFailuresAreEscapedAndCut() {
    let failure = ExpectationFailure(
      file: "t.play", line: 3, column: 1, expected: "state idle\u{1B}]0;x\u{07}",
      found: String(repeating: "stop(A#1) ", count: 100))
    #expect(
      failure.description
        == #"t.play:3:1: expect failed: expected state idle\u{1b}]0;x\u{7}; found "#
        + String(repeating: "stop(A#1) ", count: 40) + "… (600 more characters)")
    // The JSON form keeps the full, exact text.
    #expect(failure.json.contains(String(repeating: "stop(A#1) ", count: 100)))
    #expect(failure.json.contains(#""expected":"state idle\u001b]0;x\u0007""#))
  }

  @Test func timelineTableEscapesNotesAndMediaNames() throws {
    let table = TimelineTable(color: false)
    #expect(
      table.line(.note(milliseconds: 0, text: "hi\u{1B}[2J\u{202E}"))
        == #"          hi\u{1b}[2J\u{202e}"#)
    #expect(
      table.line(.check(milliseconds: 0, line: 4, text: "expect state \u{9B}1m"))
        == #"          ✓ line 4: expect state \u{9b}1m"#)
  }

  @Test func runOutputCarriesNoControlCharacters() throws {
    let script =
      "media A ready-after=10ms\nnote title\u{1B}]0;owned\u{07} clear\u{1B}[2J bidi\u{202E}x nul-free\nplay A\nwait 20ms\nexpect state paused\n"
    let output = try CLI.run(["run", "-"], input: script)
    #expect(output.status == 1)
    for text in [output.stdout, output.stderr] {
      let unsafe = text.unicodeScalars.filter {
        $0 != "\n" && terminalSafe(String($0)) != String($0)
      }
      #expect(unsafe.isEmpty, "unescaped: \(unsafe.map { $0.value })")
    }
    #expect(
      output.stdout.contains(
        #"          title\u{1b}]0;owned\u{7} clear\u{1b}[2J bidi\u{202e}x nul-free"#))
    #expect(
      output.stderr
        == "<stdin>:5:1: expect failed: expected state paused; found state playing(A#1)\n")
  }

  @Test func replayEscapesWhatTheSavedFailureSays() throws {
    let saved = try CLI.scratchFile("esc.txt", Data("play(\u{1B}]0;x\u{07})\n".utf8))
    let output = try CLI.run(["fuzz", "--replay", saved])
    #expect(output.status == 0)
    #expect(!output.stdout.unicodeScalars.contains("\u{1B}"))
    #expect(output.stdout.contains(#"play(\u{1b}]0;x\u{7})"#))
    let bad = try CLI.scratchFile("bad.txt", Data("bogus\u{1B}[2J\n".utf8))
    let error = try CLI.run(["fuzz", "--replay", bad])
    #expect(error.status == 2)
    #expect(!error.stderr.unicodeScalars.contains("\u{1B}"))
    #expect(error.stderr.hasPrefix("\(bad):1:1: error: "))
  }
}
