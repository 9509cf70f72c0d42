import PlayerEngine
import PlayerFuzz
import PlayerState
import Testing

/// The explorer compares everything a caller can see (issue 21, item 3), as
/// the random runs do: for Playhead's `Player`, each step's ignore reason and
/// notifications too, and a result says what a player left unsaid.
@Suite struct ExploredObservablesTests {
  static func coreScope(depth: Int? = nil) -> ExplorationScope {
    var scope = ExplorationScope(
      entries: 1, held: 0, configurations: [ExplorationConfiguration(canPreload: true)],
      maxDepth: depth)
    scope.coreAlphabet = true
    return scope
  }

  // Playhead's own Player says everything: BehaviouralClassesTests'
  // aCompleteSearchCountsItsDistinctStatesAndABoundedOneDoesNot checks its complete search
  // compared it all (`notCompared` empty).

  @Test func aPlayerThatSaysNoReasonsIsToldSo() throws {
    // Playhead's Player without the step callback that reports reasons and notifications.
    let quiet = FuzzSubject(name: "QuietPlayer") { engine in
      PlayerTarget(Player(engine: engine, watchdog: FuzzEngine.watchdog(for: engine)))
    }
    let search = Explorer.explore(quiet, scope: Self.coreScope(depth: 2))
    #expect(search.passed)
    #expect(search.notCompared == [.ignoreReasons, .notifications])
    #expect(
      search.description.contains(
        "not compared (the player does not say them): ignoreReasons, notifications"))
  }
}
