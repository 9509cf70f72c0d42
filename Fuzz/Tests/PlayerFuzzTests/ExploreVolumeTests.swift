import PlayerFuzz
import PlayerState
import Testing

/// The explorer's volume letters (issue 37, item 4): `volume(0.5)`, `volume(1)`, a refused
/// `volume(1.5)`, `mute`, `unmute`, `duck` and `unduck`, sent within the feature `volume`,
/// and the duck policy as a configuration class of the volume scopes only.
@Suite struct ExploreVolumeTests {
  /// A volume scope searches each class under both duck policies; every other scope keeps
  /// its classes (the every-feature one too, with the default policy).
  @Test func theDuckPolicyIsAClassOfTheVolumeScopesOnly() {
    let volume = ExplorationScope(entries: 1, held: 0, features: .volume)
    #expect(volume.configurations.count == 4)
    #expect(
      volume.configurations.map(\.ducking) == [.lower(to: 0.2), .pause, .lower(to: 0.2), .pause])
    #expect(
      volume.description
        == "queues ≤ 1, ≤ 0 held-back reports, configurations {no preload} × {retry off} × "
        + "{threshold 3000ms, watchdog 10000ms; threshold 0ms, watchdog 1000ms} × "
        + "{duck lower 0.2, duck pause}, features volume")
    #expect(
      volume.configurations[1].description
        == "no preload, retry off, threshold 3000ms, watchdog 10000ms, duck pause")
    #expect(ExplorationScope(entries: 1, held: 0, features: .core).configurations.count == 2)
    #expect(ExplorationScope(entries: 2).configurations.count == 16)
    #expect(
      ExplorationScope(entries: 2).configurations.allSatisfy { $0.ducking == .lower(to: 0.2) })
    #expect(ExplorationScope(entries: 1, features: [.volume, .network]).configurations.count == 16)
  }

  /// A player that gives a new load no volume is found with the volume letters at its
  /// minimal length, and not without them.
  @Test func aNewLoadAtFullVolumeIsFoundWithTheVolumeLetters() {
    func shortest(_ features: FuzzFeatures) -> [String]? {
      Explorer.explore(
        BuggyPlayer(.newLoadAtFullVolume).subject,
        scope: ExplorationScope(entries: 1, held: 0, features: features, maxDepth: 2)
      ).counterexample?.actions.map(\.description)
    }
    #expect(shortest(.core) == nil)
    #expect(shortest(.volume) == ["volume(0.5)", "play(A)"])
    // duckEndRestoresStaleVolume takes three letters, `duck`, `volume(0.5)`, `unduck`
    // (`player-sim explore --entries 1 --held 0 --features volume --depth 3 --subject
    // duckEndRestoresStaleVolume`): unmerged, 16 s in debug, so not run here.
  }

  /// Playhead's `Player` passes every sequence of at most 2 letters of the volume scope,
  /// under both duck policies; a player that does not do volume is sent none of its letters.
  @Test func thePlayerPassesTheVolumeLetters() {
    let search = Explorer.explore(
      .player, scope: ExplorationScope(entries: 1, held: 0, features: .volume, maxDepth: 2))
    #expect(search.passed)
    #expect(search.states == 288)
    let noVolume = Explorer.explore(
      BuggyPlayer(.stopNotSent).subject,
      scope: ExplorationScope(entries: 1, held: 0, features: .volume, maxDepth: 1))
    let core = Explorer.explore(
      BuggyPlayer(.stopNotSent).subject,
      scope: ExplorationScope(entries: 1, held: 0, features: .core, maxDepth: 1))
    #expect(noVolume.states == core.states * 2)
  }
}
