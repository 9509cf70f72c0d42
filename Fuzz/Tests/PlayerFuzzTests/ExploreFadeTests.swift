import PlayerFuzz
import PlayerState
import Testing

/// The explorer with fades (issue 37, item 2): a scope with the feature `fade` (not every
/// feature) runs its player with a 200 ms fade and adds the expiries of the leaving load's
/// timer (`Letter.fadeLetters`); the fade into a pause expires through the `timeout` letters.
@Suite struct ExploreFadeTests {
  /// A fade scope's classes fade; every other scope's, the every-feature one's too, do not.
  @Test func onlyAScopeThatNamesFadesFades() {
    let fade = ExplorationScope(entries: 1, held: 0, features: .fade)
    #expect(fade.fades)
    #expect(!ExplorationScope(entries: 1, held: 0, features: .all).fades)
    #expect(!ExplorationScope(entries: 1, held: 0, features: .volume).fades)
    var configuration = fade.configurations[0]
    configuration.fade = .milliseconds(200)
    #expect(
      configuration.description
        == "no preload, retry off, threshold 3000ms, watchdog 10000ms, fade 200ms")
  }

  /// A player whose new load does not stop the leaving load is found with the fade letters
  /// at its minimal length (three letters: a `play` the engine answers with `ready` at once,
  /// `stop`, `play(B)`), and not without fades. On the core alphabet (and fades' letters), so
  /// that the unmerged search of a catalog player takes a moment in debug.
  @Test func aLeavingLoadNeverStoppedIsFound() {
    func shortest(_ features: FuzzFeatures) -> [String]? {
      var scope = ExplorationScope(entries: 1, held: 0, features: features, maxDepth: 3)
      scope.coreAlphabet = true
      return Explorer.explore(BuggyPlayer(.stopFadeNeverStopped).subject, scope: scope)
        .counterexample?.actions.map(\.description)
    }
    #expect(shortest(.core) == nil)
    #expect(shortest(.fade) == ["reentrant ready(item1#1)", "play(A)", "stop", "play(B)"])
  }

  /// Playhead's `Player` passes every sequence of at most 3 letters of the fade scope
  /// (490 states: 488 before the leaving load's `ended` and `failed` letters, whose
  /// `stop` reaches idle with no load fading out two steps earlier).
  @Test func thePlayerPassesTheFadeLetters() {
    let search = Explorer.explore(
      .player, scope: ExplorationScope(entries: 1, held: 0, features: .fade, maxDepth: 3))
    #expect(search.passed)
    #expect(search.states == 490)
  }
}
