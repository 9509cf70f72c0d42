import Foundation
import PlayerSimulation
import Testing

/// The commands since the previous `expect commands` are checked as they come
/// (issue 23): the runner kept every command's text for a check that might
/// come, and each names its media, so a long name over many events held the
/// name once per command (1 KB names over 100,000 events: 144 MB).
@Suite struct CommandCheckTests {
  static let name = String(repeating: "N", count: 1_000)

  static func script(pairs: Int, then last: String = "") -> String {
    "media \(name)\nplay \(name)\nwait 1s\n" + String(repeating: "pause\nresume\n", count: pairs)
      + last
  }

  @Test(.enabled(if: PeakMemory.isSupported))
  func aLongNameOverManyEventsStaysWithinTheBound() throws {
    let script = Self.script(pairs: 10_000)
    let path = try CLI.scratchFile("long-name.play", Data(script.utf8))
    let measured = try PeakMemory.run(["run", "--quiet", path])
    let baseline = try PeakMemory.run([
      "run", "--quiet", try CLI.scratchFile("small.play", Data("media A\n".utf8)),
    ])
    #expect(measured.status == 0)
    let extra = measured.peakBytes - baseline.peakBytes
    let bound = 32 * script.utf8.count + 8 * 1024 * 1024
    #expect(extra <= bound, "\(extra) bytes beyond a one-line script for \(script.utf8.count)")
  }

  private func run(_ script: String) throws -> ScenarioResult {
    var runner = ScenarioRunner()
    runner.keepsEntries = false
    return runner.run(try ScenarioParser.parse(script, file: "t.play"))
  }

  @Test func matchingCommandsPassAndOthersAreQuoted() throws {
    let pass = try run(
      "media A\nplay A\nwait 1s\npause\nresume\nexpect commands load(A#1) start(A#1) pause(A#1) start(A#1)\n"
    )
    #expect(pass.failure == nil)
    let fail = try run("media A\nplay A\nwait 1s\npause\nexpect commands load(A#1) start(A#1)\n")
    #expect(fail.failure?.found == "commands load(A#1) start(A#1) pause(A#1)")
    let short = try run(
      "media A\nplay A\nwait 1s\nexpect commands load(A#1) start(A#1) stop(A#1)\n")
    #expect(short.failure?.found == "commands load(A#1) start(A#1)")
    let none = try run("media A\nexpect commands load(A#1)\n")
    #expect(none.failure?.found == "commands none")
  }

  @Test func aHugeMismatchIsQuotedUpToItsLimit() throws {
    // 1,202 commands of about 1 KB: past the 1 MB a failure quotes.
    let result = try run(Self.script(pairs: 600, then: "expect commands none\n"))
    let found = try #require(result.failure?.found)
    #expect(found.hasSuffix(" … (1202 commands in all)"))
    #expect(found.utf8.count < 1_100_000)
    #expect(found.hasPrefix("commands load(\(Self.name)#1) start(\(Self.name)#1) pause("))
  }
}
