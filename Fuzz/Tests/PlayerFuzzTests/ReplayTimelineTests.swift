import Foundation
import PlayerFuzz
import PlayerState
import Testing

/// `Fuzzer.replay` checks a case and gives a passing case's timeline from the
/// same run (issue 23, R4: `fuzz --replay` ran a case three times); its rows
/// must be exactly those of `Fuzzer.timeline`.
@Suite struct ReplayTimelineTests {
  static func rows(_ fuzzCase: FuzzCase) -> (rows: [String], failure: FuzzFailure?) {
    var rows: [String] = []
    let failure = Fuzzer.replay(.player, fuzzCase) { rows.append($0) }
    return (rows, failure)
  }

  @Test func savedFailuresReplayWithTheirTimeline() throws {
    let directory = FailureFileTests.directory
    let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
      .filter { $0.hasSuffix(".txt") }
    #expect(names.count >= 9)
    for name in names {
      let text = try String(
        contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
      let fuzzCase = try FailureFile.parseCase(text, file: name)
      let (rows, failure) = Self.rows(fuzzCase)
      #expect(failure == nil, "\(name)")
      #expect(rows.joined(separator: "\n") == Fuzzer.timeline(.player, fuzzCase), "\(name)")
    }
  }

  @Test func generatedCasesReplayWithTheirTimeline() {
    for preload in [false, true] {
      let configuration = FuzzConfiguration(
        seed: 7, budget: .cases(1), maxLength: 64, preload: preload)
      for seed in UInt64(1)...60 {
        let (fuzzCase, violation) = Fuzzer.replayFuzzCase(
          .player, caseSeed: seed, configuration)
        #expect(violation == nil)
        let (rows, failure) = Self.rows(fuzzCase)
        #expect(failure == nil)
        #expect(rows.joined(separator: "\n") == Fuzzer.timeline(.player, fuzzCase), "seed \(seed)")
      }
    }
  }

  @Test func aFailingCaseGivesItsFailureAndNoRows() throws {
    let fuzzCase = try FailureFile.parseCase("play(A)\nstop\nready(A#1)\n")
    var rows: [String] = []
    let failure = Fuzzer.replay(BuggyPlayer(.twoBools).subject, fuzzCase) { rows.append($0) }
    #expect(rows.isEmpty)
    let expected = Fuzzer.check(BuggyPlayer(.twoBools).subject, fuzzCase)
    #expect(failure?.report == expected?.report)
  }
}
