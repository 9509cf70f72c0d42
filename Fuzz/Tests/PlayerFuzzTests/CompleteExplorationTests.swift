import PlayerEngine
import PlayerFuzz
import PlayerState
import Testing

/// Small-scope model checking (issue 21, item 1): the explorer merges states
/// on a canonical snapshot, searches a scope to its fixpoint and says
/// `complete`, and never says so when the snapshot or the scope falls short.
///
/// These tests use the small alphabet of the search's own tests (one entry's
/// core: 25 letters), which reaches its fixpoint in a moment in a debug
/// build; the whole alphabet's scopes run in CI in release (Fuzz/ci.sh).
@Suite struct CompleteExplorationTests {
  static let oneConfiguration = [ExplorationConfiguration(canPreload: true, retry: .oneAttempt)]

  static func core(
    _ configurations: [ExplorationConfiguration] = oneConfiguration, held: Int = 1,
    depth: Int? = nil, seconds: Double? = nil
  ) -> ExplorationScope {
    var scope = ExplorationScope(
      entries: 1, held: held, configurations: configurations, maxDepth: depth, seconds: seconds)
    scope.coreAlphabet = true
    return scope
  }

  @Test func theRealPlayerReachesTheFixpointInEveryConfigurationClass() {
    let proof = Explorer.explore(.player, scope: Self.core(ExplorationConfiguration.all))
    #expect(proof.complete, "\(proof)")
    #expect(proof.passed)
    #expect(proof.results.count == 8)
    for result in proof.results {
      #expect(result.fixpoint)
      #expect(result.merged && result.canonical)
      #expect(result.unsound == nil)
      #expect(result.newAtLastLevel == 0)
      // Merged states were probed from a second path, and agreed.
      #expect(result.probes > 0)
    }
    #expect(
      proof.verdict
        == "complete for queues ≤ 1, ≤ 1 held-back report, configurations {preload, no preload} × "
        + "{retry off, retry 1 attempt, retry cap reached, retry standard} × {threshold 3000ms}")
    // The retry classes differ where the rules do: more attempts, more states.
    let states = proof.results.prefix(4).map(\.states)
    #expect(states == states.sorted() && Set(states).count == 4, "\(states)")
  }

  @Test(arguments: [ExplorationField.seekPending, .positions, .systemPaused])
  func aSnapshotThatForgetsAFieldTheRulesReadIsNeverComplete(_ field: ExplorationField) throws {
    let proof = Explorer.explore(.player, scope: Self.core(), forgetting: [field])
    #expect(!proof.complete)
    #expect(!proof.passed)
    let unsound = try #require(proof.results.first?.unsound, "\(proof)")
    #expect(unsound.hasPrefix("two paths reach the same canonical state"), "\(unsound)")
    #expect(proof.verdict.contains("the snapshot is not sound"), "\(proof.verdict)")
    #expect(proof.counterexample == nil)
  }

  @Test func aScopeCutShortByDepthOrTimeIsNeverComplete() throws {
    let shallow = Explorer.explore(.player, scope: Self.core(depth: 3))
    let result = try #require(shallow.results.first)
    #expect(!shallow.complete)
    #expect(!result.fixpoint)
    #expect(result.depth == 3)
    #expect(result.newAtLastLevel > 0)
    #expect(shallow.passed)
    #expect(shallow.verdict.contains("no fixpoint"), "\(shallow.verdict)")

    let hurried = Explorer.explore(
      .player, scope: Self.core(ExplorationConfiguration.all, seconds: 0.000_001))
    #expect(!hurried.complete)
    #expect(hurried.results.count == 1)
    #expect(hurried.results[0].interrupted)
    #expect(hurried.verdict.contains("time ran out"), "\(hurried.verdict)")
  }

  @Test func aPlayerWhoseSnapshotLeavesStateOutIsNeverComplete() throws {
    // `stop` while idle sets a flag the snapshot (the player's state) does
    // not show, and the next `play` is dropped: the runner kept across the
    // ignored `stop` breaks a property that its path, replayed, does not.
    let proof = Explorer.explore(HiddenFlagPlayer.subject(.partial), scope: Self.core())
    #expect(!proof.complete)
    #expect(!proof.passed)
    let unsound = try #require(proof.results.first?.unsound, "\(proof)")
    #expect(unsound.contains("letters the player ignored changed state"), "\(unsound)")
  }

  @Test func aPlayerWhoseSnapshotIsWholeIsFoundBroken() throws {
    // The same player vouching for the flag too: nothing merged away, and
    // the raw snapshot merges only equal states.
    let proof = Explorer.explore(HiddenFlagPlayer.subject(.whole), scope: Self.core(depth: 3))
    let failure = try #require(proof.counterexample)
    #expect(failure.actions.map(\.description) == ["stop", "play(A)"])
    #expect(proof.results[0].merged && !proof.results[0].canonical)
  }

  @Test func aBrokenPlayerHasItsShortestCounterexampleInTheScope() throws {
    let proof = Explorer.explore(
      BuggyPlayer(.pauseLostWhileBuffering).subject, scope: Self.core(depth: 3))
    let failure = try #require(proof.counterexample)
    #expect(failure.actions.map(\.description) == ["play(A)", "pause", "ready(item1#1)"])
    #expect(!proof.complete)
  }

  @Test func theWholeAlphabetGrowsWithTheQueueAndHoldsBoundaryValues() {
    // Queue letters for every length up to the scope's: one more per entry.
    #expect(Explorer.alphabetSize(entries: 2) == Explorer.alphabetSize(entries: 1) + 1)
    #expect(Explorer.alphabetSize == Explorer.alphabetSize(entries: Explorer.boundedEntries))
    // Depth 1 from idle sees the times at the threshold's boundaries in the
    // commands: a queue that starts past the threshold, a play from it.
    let proof = Explorer.explore(
      .player, scope: ExplorationScope(entries: 2, held: 1, configurations: Self.oneConfiguration,
        maxDepth: 1))
    #expect(proof.passed)
    #expect(proof.results[0].transitions > 20)
  }
}
