import PlayerFuzz
import PlayerState
import Testing

/// `ExplorationScope.shard(_:of:)` (issue 39, item 4c): N shards of a scope, searched
/// independently, cover exactly the whole search: every class once, the same states and
/// transitions in all, the same verdict.
@Suite struct ExploreShardTests {
  /// Three classes of the core alphabet with no report held back: each reaches its fixpoint
  /// in a few seconds in a debug build.
  static func scope() -> ExplorationScope {
    var scope = ExplorationScope(
      entries: 1, held: 0,
      configurations: [
        ExplorationConfiguration(canPreload: true, retry: .off),
        ExplorationConfiguration(canPreload: true, retry: .oneAttempt),
        ExplorationConfiguration(canPreload: false, retry: .off),
      ])
    scope.coreAlphabet = true
    return scope
  }

  @Test func theShardsTakeEachClassOnceInTurn() {
    let scope = Self.scope()
    let names = scope.configurations.map(\.description)
    #expect(scope.shard(0, of: 2).configurations.map(\.description) == [names[0], names[2]])
    #expect(scope.shard(1, of: 2).configurations.map(\.description) == [names[1]])
    #expect(scope.shard(2, of: 3).configurations.map(\.description) == [names[2]])
    #expect(scope.shard(0, of: 1).configurations == scope.configurations)
    // More shards than classes: the last have none.
    #expect(scope.shard(5, of: 6).configurations.isEmpty)
  }

  /// The unsharded search, once for every shard count.
  static let whole = Explorer.explore(.player, scope: scope())

  // Two shards of three classes: one shard takes two classes, the other one (each class alone,
  // three shards, is the same search class by class; `theShardsTakeEachClassOnceInTurn`
  // checks the split). One count: the shards search the whole scope again in debug (13 s).
  @Test(arguments: [2])
  func theShardsTogetherAreTheWholeSearch(count: Int) {
    let whole = Self.whole
    #expect(whole.complete, "\(whole.verdict)")
    #expect(whole.states == 3_912)
    #expect(whole.transitions == 90_782)
    let shards = (0..<count).map {
      Explorer.explore(.player, scope: Self.scope().shard($0, of: count))
    }
    #expect(shards.allSatisfy { $0.complete })
    #expect(shards.reduce(0) { $0 + $1.states } == 3_912)
    #expect(shards.reduce(0) { $0 + $1.transitions } == 90_782)
    // Class by class, the same search as in the whole scope.
    let byClass = shards.flatMap(\.results).sorted {
      whole.scope.configurations.firstIndex(of: $0.configuration) ?? -1
        < whole.scope.configurations.firstIndex(of: $1.configuration) ?? -1
    }
    #expect(byClass.map(\.states) == whole.results.map(\.states))
    #expect(byClass.map(\.transitions) == whole.results.map(\.transitions))
    #expect(byClass.map(\.distinctStates) == whole.results.map(\.distinctStates))
  }
}
