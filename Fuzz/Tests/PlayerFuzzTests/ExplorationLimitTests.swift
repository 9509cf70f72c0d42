import PlayerFuzz
import Testing

/// `ExplorationScope.maxStates` bounds a search's memory: past the limit a
/// class stops, says so, and is never called complete; a limit the search
/// does not pass changes nothing.
@Suite struct ExplorationLimitTests {
  static func scope(maxDepth: Int? = nil, maxStates: Int?) -> ExplorationScope {
    ExplorationScope(
      entries: 1, held: 0, features: .core, maxDepth: maxDepth, maxStates: maxStates)
  }

  @Test func pastTheLimitAClassStopsNotCompleteAndTheSearchStopsThere() throws {
    let search = Explorer.explore(.player, scope: Self.scope(maxStates: 50))
    // The first of the two classes stopped; the second was not started.
    #expect(search.results.count == 1)
    let first = try #require(search.results.first)
    #expect(first.stateLimit == 50)
    #expect(first.states == 57)
    #expect(first.depth == 2)
    #expect(!first.complete)
    #expect(!first.fixpoint)
    #expect(search.passed)
    #expect(
      first.whyNotComplete == "the state limit (50) was reached inside level 3, 57 states found")
    #expect(
      search.verdict
        == "not complete: no preload, retry off, threshold 3000ms, watchdog 10000ms: the state "
        + "limit (50) was reached inside level 3, 57 states found")
  }

  @Test func aLimitTheSearchDoesNotPassChangesNothing() throws {
    let unlimited = Explorer.explore(.player, scope: Self.scope(maxDepth: 2, maxStates: nil))
    let states = try #require(unlimited.results.first?.states)
    #expect(states == 57)
    let atTheLimit = Explorer.explore(.player, scope: Self.scope(maxDepth: 2, maxStates: states))
    #expect(atTheLimit.results.map(\.states) == unlimited.results.map(\.states))
    #expect(atTheLimit.results.map(\.transitions) == unlimited.results.map(\.transitions))
    #expect(atTheLimit.results.allSatisfy { $0.stateLimit == nil })
    let belowIt = Explorer.explore(.player, scope: Self.scope(maxDepth: 2, maxStates: states - 1))
    #expect(belowIt.results.first?.stateLimit == 56)
    #expect(belowIt.results.count == 1)
  }
}
