import Foundation
import PlayerFuzz
import PlayerState
import Testing

/// `ExplorationScope(features:)`: the explorer sends only the letters and searches only the
/// configuration classes within what a player implements (issue 21, item 5).
@Suite struct ExploreFeaturesTests {
  @Test func theCoreKeepsTheClassesWithoutPreloadOrRetry() {
    let core = ExplorationScope(entries: 1, held: 0, features: .core)
    #expect(core.configurations.count == 2)
    #expect(
      core.description
        == "queues ≤ 1, ≤ 0 held-back reports, configurations {no preload} × {retry off} × "
        + "{threshold 3000ms, watchdog 10000ms; threshold 0ms, watchdog 1000ms}, features none")
    let queueAndPreload = ExplorationScope(entries: 2, features: [.queue, .preload])
    #expect(queueAndPreload.configurations.count == 4)
    #expect(queueAndPreload.description.hasSuffix(", features queue,preload"))
    #expect(ExplorationScope(entries: 2).configurations.count == 16)
    #expect(!ExplorationScope(entries: 2).description.contains("features"))
  }

  /// A proof, not a sample: Playhead's `Player` within the single-item core, one configuration
  /// class (threshold 0, the smaller of the two; Fuzz/ci.sh proves both in release, within
  /// `--features network`), reports delivered as sent, to a fixpoint. (Skipped under the
  /// sanitizers, which run the explorer's code in the other tests.)
  @Test(.enabled(if: ProcessInfo.processInfo.environment["PLAYHEAD_SANITIZER"] == nil))
  func thePlayerIsCompleteWithinTheCore() throws {
    let scope = ExplorationScope(entries: 1, held: 0, features: .core)
    #expect(scope.configurations.count == 2)
    let last = try #require(scope.configurations.last)
    let proof = Explorer.explore(
      .player,
      scope: ExplorationScope(entries: 1, held: 0, configurations: [last], features: .core))
    #expect(proof.complete, "\(proof.verdict)")
    #expect(proof.passed)
    #expect(proof.states == 1_182)
    #expect(
      proof.verdict
        == "complete for queues ≤ 1, ≤ 0 held-back reports, configurations {no preload} × "
        + "{retry off} × {threshold 0ms, watchdog 1000ms}, features none")
  }

  @Test func aQueueBugIsOutsideTheCoreAndACoreBugIsNot() {
    // removeCurrentKeepsLoad needs a removal of the current entry: no core letter edits a
    // queue. Unmerged (the catalog players vouch for no snapshot), so every sequence is run:
    // the core's up to the bug's length with the queue, 2 (to depth 3 it took 25 CPU-s).
    let queueBug = Explorer.explore(
      BuggyPlayer(.removeCurrentKeepsLoad).subject,
      scope: ExplorationScope(entries: 2, held: 0, features: .core, maxDepth: 2))
    #expect(queueBug.counterexample == nil)
    #expect(!queueBug.complete)
    let withQueue = Explorer.explore(
      BuggyPlayer(.removeCurrentKeepsLoad).subject,
      scope: ExplorationScope(entries: 2, held: 0, features: .queue, maxDepth: 2))
    #expect(
      withQueue.counterexample?.actions.map(\.description) == ["play(A)", "remove(1)"])
    // stopNotSent breaks the core: found within it at its minimal length.
    let coreBug = Explorer.explore(
      BuggyPlayer(.stopNotSent).subject,
      scope: ExplorationScope(entries: 1, held: 0, features: .core, maxDepth: 2))
    #expect(coreBug.counterexample?.actions.map(\.description) == ["play(A)", "stop"])
  }

  /// The remote controls and the sleep timer are letters too, within their features: a
  /// bug in each is found at its minimal length, and is outside the core.
  @Test func controlsAndSleepTimerBugsAreFoundWithinTheirFeatures() {
    func shortest(_ bug: BuggyPlayer.Bug, _ features: FuzzFeatures, depth: Int) -> [String]? {
      Explorer.explore(
        BuggyPlayer(bug).subject,
        scope: ExplorationScope(entries: 1, held: 0, features: features, maxDepth: depth)
      ).counterexample?.actions.map(\.description)
    }
    #expect(shortest(.toggleReadsIsPlaying, .core, depth: 2) == nil)
    #expect(shortest(.toggleReadsIsPlaying, .controls, depth: 2) == ["play(A)", "toggle"])
    // A countdown replaced by another: the buggy player acts on the first one's expiry.
    #expect(
      shortest(.staleSleepExpiryPauses, .sleepTimer, depth: 3) == [
        "sleepTimer(after(600000ms))", "sleepTimer(after(600000ms))",
        "sleepTimer(expired, sleep#1)",
      ])
  }
}
