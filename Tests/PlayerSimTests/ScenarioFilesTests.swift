import Foundation
import PlayerSimulation
import Testing

/// Every script in `Examples/scenarios`, parsed and run through the library's
/// ``ScenarioRunner`` (what `player-sim run` does): each must parse and pass.
@Suite struct ScenarioFilesTests {
  /// `Examples/scenarios`, found from this file's path.
  static let directory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Examples/scenarios")

  static let scripts: [String] =
    ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
    .filter { $0.hasSuffix(".play") }.sorted()

  @Test func theDirectoryHoldsTheScripts() {
    #expect(Self.scripts.count >= 36)
    for name in [
      "interruption-while-paused.play", "interruption-while-buffering.play",
      "interruption-end-without-resume.play", "skip-during-interruption.play",
      "route-lost-while-playing.play", "network-lost-then-back.play",
      "stale-backoff-after-stop.play", "retries-exhausted.play",
    ] {
      #expect(Self.scripts.contains(name), "missing \(name)")
    }
  }

  @Test(arguments: scripts) func runs(_ name: String) throws {
    let path = Self.directory.appendingPathComponent(name).path
    let text = try ScenarioFile.read(path)
    let scenario = try ScenarioParser.parse(text, file: name)
    let result = ScenarioRunner().run(scenario)
    #expect(result.failure == nil, "\(result.failure.map(String.init(describing:)) ?? "")")
    #expect(result.finalState.invariantViolation == nil)
  }
}
