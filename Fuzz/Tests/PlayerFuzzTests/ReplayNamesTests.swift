import PlayerFuzz
import PlayerState
import Testing

/// Naming loads while a saved case replays visits each issued item once, however many lines
/// follow: a count, not a clock (issue 23, R4: a search of every item per line took 93 s for
/// 10,000 lines over 10,000 items).
@Suite struct ReplayNamesTests {
  @Test func eachItemIsIndexedOnceWhateverTheLines() throws {
    let queue = "queue(" + Array(repeating: "A", count: 1_999).joined(separator: " ") + " B)\n"
    let actions = try FailureFile.parse(
      queue + "ready(A#1)\n" + String(repeating: "position(A#1, 5ms)\n", count: 3_000)
        + "next\n" + String(repeating: "position(A#2, 5ms)\n", count: 3_000))
    var replay = NameReplay()
    var named: [MediaID?] = []
    for action in actions {
      if let load = action.load { named.append(replay.names.name(load)) }
      replay.perform(action) { _, _ in nil }
    }
    // 2,000 entries issued, each visited once over 6,003 lines.
    #expect(replay.indexedItems == 2_000)
    #expect(named.count == 6_001)
    #expect(named.allSatisfy { $0 == "A" })
    // After `next`, A#2 is token 2 of the second entry (item 2, also an A).
    #expect(actions.last?.load == Load(item: ItemID(2), token: LoadToken(2)))
  }
}
