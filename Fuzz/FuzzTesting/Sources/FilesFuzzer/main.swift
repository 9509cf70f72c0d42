import CLibFuzzer
// libFuzzer entry point for player-sim's file readers and its runner: any
// bytes, read the way `player-sim run FILE` and `player-sim fuzz --replay FILE`
// read a file, must give a run or a positioned error, never a trap, a hang or
// memory out of proportion to the input (Options/files.options sets -rss_limit_mb).
// Every line printed for a terminal must be free of control characters.
import Foundation
import PlayerFuzz
import PlayerSimulation

/// Saved failures longer than this are not replayed (a replay's cost grows with
/// its length, and short cases keep the fuzzer fast); parsing is fuzzed at any length.
let replayLimit = 64

@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = data.map { Data(UnsafeBufferPointer(start: $0, count: size)) } ?? Data()
  // The first byte picks the reader, so one corpus covers both.
  guard let selector = bytes.first else { return 0 }
  let body = bytes.dropFirst()
  let text: String
  do {
    text = try ScenarioFile.decode(Data(body), file: "fuzz.input")
  } catch {
    requireOneSafeLine(error.description)
    return 0
  }
  if selector & 1 == 0 {
    runScenario(text)
  } else {
    replayFailure(text)
  }
  return 0
}

func runScenario(_ text: String) {
  let scenario: Scenario
  do {
    scenario = try ScenarioParser.parse(text, file: "fuzz.play")
  } catch {
    requireOneSafeLine(error.description)
    return
  }
  let table = TimelineTable(color: false)
  var runner = ScenarioRunner()
  runner.keepsEntries = false
  let result = runner.run(scenario) { item in
    requireOneSafeLine(table.line(item))
    _ = item
  }
  if let failure = result.failure {
    requireOneSafeLine(failure.description)
    requireOneSafeLine(table.failureLine(failure))
  }
}

func replayFailure(_ text: String) {
  let fuzzCase: FuzzCase
  do {
    fuzzCase = try FailureFile.parseCase(text, file: "fuzz.txt")
  } catch {
    _ = error.description
    return
  }
  guard fuzzCase.actions.count <= replayLimit else { return }
  // Playhead's Player keeps every property on any case: a failure is a bug.
  if let failure = Fuzzer.check(.player, fuzzCase) {
    print(escaped(failure.report))
    fatalError("Playhead contract violated by a replayed case: \(failure.property)")
  }
}

/// Traps unless `line` is one line with no control or invisible character:
/// the promise of player-sim's `terminalSafe`, checked on every line a terminal
/// would get, by the same rule (`needsEscape`, public in PlayerSimulation:
/// `terminalSafe` itself is `package` to Playhead).
func requireOneSafeLine(_ line: String) {
  if line.unicodeScalars.contains(where: { needsEscape($0, keepingNewlines: false) }) {
    fatalError("unescaped control character in output: \(escaped(line))")
  }
}

/// `text` with every scalar a terminal must not get written as `\u{…}` (newlines kept).
func escaped(_ text: String) -> String {
  var result = ""
  for scalar in text.unicodeScalars {
    if needsEscape(scalar, keepingNewlines: true) {
      result += "\\u{\(String(scalar.value, radix: 16))}"
    } else {
      result.unicodeScalars.append(scalar)
    }
  }
  return result
}

/// The entry SwiftPM links as `main` (see CLibFuzzer.h): runs libFuzzer on ``testOneInput(_:_:)``.
@_cdecl("FilesFuzzer_main")
func fuzzerMain(
  _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> CInt {
  var argc = argc
  var argv = argv
  return LLVMFuzzerRunDriver(&argc, &argv) { data, size in testOneInput(data, size) }
}
