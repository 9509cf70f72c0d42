import PlayerEngine
import PlayerFuzz
import PlayerState
import Testing

/// `ClassPartition` (issue 39, item 4c): one class split among parts that do not talk to
/// each other. Each part is complete on its own, and the union of their states is exactly
/// the class's: the same distinct states and transitions as the unsplit search.
@Suite struct ClassPartitionTests {
  /// One class of the core alphabet with preload, as in `SearchMemoryTests`.
  static func scope() -> ExplorationScope {
    var scope = ExplorationScope(
      entries: 1, held: 0, configurations: [ExplorationConfiguration(canPreload: true, retry: .off)]
    )
    scope.coreAlphabet = true
    return scope
  }

  /// Searches part `part` of `parts` at `depth`, and the states it found.
  static func part(_ part: Int, of parts: Int, depth: Int) -> (Exploration, PartStates) {
    let found = Locked(PartStates())
    let partition = ClassPartition(part: part, parts: parts, depth: depth) { states in
      found.withLock { $0 = states }
    }
    let result = Explorer.explore(
      .player, scope: scope(), forgetting: [], partition: partition)
    return (result.results[0], found.withLock { $0 })
  }

  /// The unsplit class, searched once for every split.
  static let whole = Explorer.explore(.player, scope: scope())

  // One part (the whole class through the partition's code) and three parts split at depth 4;
  // each part searches nearly the whole class again in debug (3 s a part).
  @Test(arguments: [(1, 2), (3, 4)])
  func thePartsTogetherAreTheWholeClass(parts: Int, depth: Int) {
    let whole = Self.whole
    #expect(whole.complete, "\(whole.verdict)")
    #expect(whole.states == 1_266)
    #expect(whole.transitions == 29_360)
    let searched = (0..<parts).map { Self.part($0, of: parts, depth: depth) }
    #expect(searched.allSatisfy { $0.0.complete }, "\(searched.map(\.0.whyNotComplete))")
    let union = PartStates.union(searched.map(\.1))
    #expect(union.states == 1_266)
    #expect(union.transitions == 29_360)
    #expect(union.notExtended == 0)
    // A part's rows leave out other parts' states: it gives no quotient.
    #expect(parts == 1 || searched.allSatisfy { $0.0.distinctStates == nil })
  }

  @Test func aMissingPartLeavesStatesNotExtended() {
    let first = Self.part(0, of: 2, depth: 2).1
    let union = PartStates.union([first])
    #expect(union.notExtended > 0)
    // The file form reads back as written.
    #expect(PartStates(first.bytes) == first)
    #expect(PartStates(Array("not states".utf8)) == nil)
  }
}
