import PlayerFuzz
import PlayerState
import Testing

/// The explorer with crossfade (issue 37, item 3): a scope with the feature `crossfade` (not
/// every feature) runs its preloading classes with a 1 s crossfade and adds a position inside
/// the end's window and one just outside it, the outgoing load's `ended`, and (the fade
/// letters) its timer's expiries, the newest and stale ones.
@Suite struct ExploreCrossfadeTests {
  /// A crossfade scope's preloading classes crossfade; every other scope's do not.
  @Test func onlyAScopeThatNamesCrossfadeCrossfades() {
    let scope = ExplorationScope(entries: 2, held: 0, features: [.queue, .crossfade])
    #expect(scope.crossfades)
    #expect(!scope.fades)
    #expect(!ExplorationScope(entries: 2, held: 0, features: .all).crossfades)
    #expect(!ExplorationScope(entries: 2, held: 0, features: .fade).crossfades)
    var configuration = ExplorationConfiguration(canPreload: true, retry: .off)
    configuration.crossfade = .seconds(1)
    #expect(
      configuration.description
        == "preload, retry off, threshold 3000ms, watchdog 10000ms, crossfade 1000ms")
  }
}
