import Foundation
import PlayerSimulation
import Testing

/// Scripts of many `media` lines (issue 23, R8): every `media` line once cost a
/// profile in the fake engine's table (`media M0` … `media M199999`: 240 MB,
/// against 94 MB documented). A profile now reaches the engine only once an
/// intent names its media, and identical `media` lines share their parse.
@Suite struct DistinctMediaMemoryTests {
  static let distinct = (0..<200_000).map { "media M\($0)\n" }.joined()

  static let repeated = String(repeating: "media A\n", count: 300_000)

  static let distinctWithOptions = (0..<100_000).map { "media M\($0) duration=1s\n" }.joined()

  /// The scripts by name. The tests take the name only: Swift Testing prints each argument
  /// of a parameterized test, and the scripts' 600,000 lines were 7.6 MB of `swift test`'s
  /// output (review 2026-12-06).
  static let scripts = ["distinct": distinct, "repeated": repeated, "options": distinctWithOptions]

  @Test(.enabled(if: PeakMemory.isSupported), arguments: ["distinct", "repeated", "options"])
  func manyMediaLinesStayWithinTheBound(_ name: String) throws {
    let script = try #require(Self.scripts[name])
    let path = try CLI.scratchFile("\(name).play", Data(script.utf8))
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
    ScenarioRunner().run(try ScenarioParser.parse(script, file: "t.play"))
  }

  @Test func aProfileDescribedBeforeTheMediaIsQueuedAppliesToItsFirstLoad() throws {
    let result = try run(
      """
      media A ready-after=1s
      media B ready-after=3s
      play A
      wait 500ms
      expect state buffering
      wait 500ms
      expect state playing
      """)
    #expect(result.failure == nil, "\(result.failure.map { "\($0)" } ?? "")")
  }

  @Test func aProfileRedescribedWhileQueuedAppliesToTheNextLoad() throws {
    let result = try run(
      """
      media A ready-after=1s
      play A
      wait 2s
      expect state playing
      media A ready-after=5s
      stop
      play A
      wait 2s
      expect state buffering
      wait 3s
      expect state playing
      """)
    #expect(result.failure == nil, "\(result.failure.map { "\($0)" } ?? "")")
  }

  @Test func theNewestDescriptionBeforeQueueingWins() throws {
    let result = try run(
      """
      media A ready-after=5s
      media A
      play A
      wait 300ms
      expect state playing
      """)
    #expect(result.failure == nil, "\(result.failure.map { "\($0)" } ?? "")")
  }

  @Test func aPlainRedescriptionRestoresTheStandardProfile() throws {
    let result = try run(
      """
      media A ready-after=5s
      play A
      stop
      media A
      play A
      wait 300ms
      expect state playing
      """)
    #expect(result.failure == nil, "\(result.failure.map { "\($0)" } ?? "")")
  }

  @Test func aMediaQueuedByInsertOrAppendGetsItsProfile() throws {
    let result = try run(
      """
      media A duration=1s
      media B ready-after=2s
      media C ready-after=2s
      play A
      append B
      insert C at=2
      wait 1500ms
      expect state buffering(C#2, autoplay)
      wait 2s
      expect state playing(C#2)
      """)
    #expect(result.failure == nil, "\(result.failure.map { "\($0)" } ?? "")")
  }
}
