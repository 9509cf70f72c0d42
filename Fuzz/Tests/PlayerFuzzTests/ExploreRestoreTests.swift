import PlayerEngine
import PlayerFuzz
import PlayerState
import Testing

/// Restore is explored too (feature `restore`): a snapshot taken, a relaunch
/// and a hand-off are letters, so a restore bug is found at its minimal
/// length, and is outside the scope without the feature.
@Suite struct ExploreRestoreTests {
  static func shortest(_ bug: BuggyPlayer.Bug, _ features: FuzzFeatures, depth: Int) -> [String]? {
    Explorer.explore(
      BuggyPlayer(bug).subject,
      scope: ExplorationScope(entries: 1, held: 0, features: features, maxDepth: depth)
    ).counterexample?.actions.map(\.description)
  }

  @Test func aRestoredPlayerThatStartsOnItsOwnIsFound() {
    #expect(Self.shortest(.restoreAutoPlays, .core, depth: 2) == nil)
    #expect(Self.shortest(.restoreAutoPlays, .restore, depth: 2) == ["play(A)", "relaunch"])
  }

  @Test func aUIPlayBesideTheRestoreIsFound() {
    #expect(
      Self.shortest(.uiPlayAndRestoreBothLoad, .restore, depth: 3) == [
        "play(A)", "relaunch", "play(B)",
      ])
  }

  /// A hand-off stops the old player, which the runner a sweep starts from shares, even when
  /// the new player looks as the old one did (idle, a sleep timer at an entry's end): the
  /// letter must not count as one that left the state as it was. (Counting it so, the next
  /// letters ran on the stopped player and the search called the snapshot unsound:
  /// `sleepTimer(endOfEntry), handoff, failed(item1#1, network)`.)
  @Test func aHandOffThatLooksLikeNoStepIsNotOne() throws {
    let scope = ExplorationScope(entries: 1, held: 0, features: [.sleepTimer, .restore])
    let first = try #require(scope.configurations.first)
    let search = Explorer.explore(
      .player,
      scope: ExplorationScope(
        entries: 1, held: 0, configurations: [first], features: [.sleepTimer, .restore],
        maxDepth: 3))
    let result = try #require(search.results.first)
    #expect(result.unsound == nil, "\(search)")
    #expect(search.passed)
  }

  @Test func theLettersAreInTheAlphabetBesideHeldReports() {
    // Three letters more (snapshot, relaunch, hand-off), sent also while a report is held back
    // (ExploreHeldRestoreTests): a scope with held reports finds the bug at its length too.
    let search = Explorer.explore(
      BuggyPlayer(.restoreAutoPlays).subject,
      scope: ExplorationScope(entries: 1, held: 1, features: .restore, maxDepth: 2))
    #expect(search.counterexample?.actions.map(\.description) == ["play(A)", "relaunch"])
    #expect(Explorer.alphabetSize(entries: 1) == 188)
    #expect(Explorer.alphabetSize == 190)
  }
}
