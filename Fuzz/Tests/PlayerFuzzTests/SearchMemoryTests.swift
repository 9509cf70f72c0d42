import PlayerState
import Testing

@testable import PlayerFuzz

/// What a search keeps in memory (issue 39, item 4a): its rows beyond a bound go to a
/// temporary file in pages, and a search forced to write every page out, keeping no runner
/// for its frontier, finds exactly what it finds in memory.
@Suite struct SearchMemoryTests {
  /// Nothing in memory but the page being filled, pages of 2 KB (512 words), no kept runner.
  static let onFile = SearchMemory(residentBytes: 0, pageBytes: 2_048, keptRunners: 0)

  @Test func rowsWrittenToTheFileReadBackAsWritten() {
    // 200 rows of 37 letters (1 + 3 + up to 74 words each), a SplitMix64 stream deciding each
    // letter: not applicable, back to the row's own state, or another state.
    var seed: UInt64 = 11
    func next() -> UInt64 {
      seed &+= 0x9E37_79B9_7F4A_7C15
      var value = seed
      value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
      value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
      return value ^ (value >> 31)
    }
    let width = 37
    var rows = SearchRows(width: width, memory: Self.onFile)
    var written: [([Int32], [UInt32])] = []
    for state in 0..<200 {
      var targets: [Int32] = []
      var outputs: [UInt32] = []
      for _ in 0..<width {
        switch next() % 3 {
        case 0:
          targets.append(-1)
          outputs.append(0)
        case 1:
          targets.append(Int32(state))
          outputs.append(9)
        default:
          targets.append(Int32(next() % 200))
          outputs.append(UInt32(truncatingIfNeeded: next()))
        }
      }
      rows.append(targets: targets, outputs: outputs)
      written.append((targets, outputs))
    }
    #expect(rows.count == 200)
    #expect(rows.pagesOnFile == 11)
    var mismatches = 0
    var targets = [Int32](repeating: 0, count: width)
    var outputs = [UInt32](repeating: 0, count: width)
    // Backwards and then forwards: rows from the file and from memory, in any order.
    for state in (0..<200).reversed() + Array(0..<200) {
      rows.decode(state, into: &targets, &outputs)
      if targets != written[state].0 || outputs != written[state].1 { mismatches += 1 }
      for letter in 0..<width {
        let entry = rows.entry(Int32(state), letter)
        if entry.target != written[state].0[letter] || entry.output != written[state].1[letter] {
          mismatches += 1
        }
      }
    }
    #expect(mismatches == 0)
  }

  /// One class of the core alphabet with preload, as in `ExploreShardTests`.
  static func scope() -> ExplorationScope {
    var scope = ExplorationScope(
      entries: 1, held: 0, configurations: [ExplorationConfiguration(canPreload: true, retry: .off)]
    )
    scope.coreAlphabet = true
    return scope
  }

  @Test func aSearchWithEveryPageOnFileIsTheSearchInMemory() {
    let inMemory = Explorer.explore(.player, scope: Self.scope(), forgetting: [])
    let spilled = Explorer.explore(
      .player, scope: Self.scope(), forgetting: [], memory: Self.onFile)
    #expect(inMemory.complete, "\(inMemory.verdict)")
    #expect(spilled.complete, "\(spilled.verdict)")
    #expect(inMemory.states == 1_266)
    #expect(spilled.states == 1_266)
    #expect(spilled.transitions == inMemory.transitions)
    #expect(spilled.results.map(\.probes) == inMemory.results.map(\.probes))
    #expect(spilled.results.map(\.distinctStates) == inMemory.results.map(\.distinctStates))
    #expect(spilled.verdict == inMemory.verdict)
  }
}
