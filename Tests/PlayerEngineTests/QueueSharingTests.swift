import PlayerEngine
import PlayerState
import PlayerTesting
import Testing

/// An observed player's steps share their queues (issue 23, R5 and R7): each
/// step holds the state before its event, so a queue kept as one array was
/// copied whole by every edit (quadratic time), and a stalled subscriber held
/// up to 1,024 whole copies (+570 MB for 20,000 entries). Checked by structure,
/// not by time: what each step's queue does not share with the one before.
@Suite struct QueueSharingTests {
  @Test func observedEditsCopyOnlyTheirPath() {
    let steps = Locked<[PlayerStep]>([])
    let player = Player(engine: SpyEngine()) { step in steps.withLock { $0.append(step) } }
    player.send(.user(.replaceQueue([MediaID](repeating: "A", count: 20_000))))
    let intents: [UserIntent] = [
      .append(["B"]), .insert(["C"], at: 10_000), .remove(at: 5_000), .move(from: 1, to: 19_999),
      .insert(["D"], at: 0),
    ]
    for index in 0..<500 { player.send(.user(intents[index % intents.count])) }
    let recorded = steps.withLock { $0 }
    #expect(recorded.count == 501)
    let edits = recorded.dropFirst()
    // Each step's before is the previous step's after, the same buffers.
    let unsharedBefore = zip(recorded, edits).map {
      $1.before.queue.entries.nodesNotShared(with: $0.after.queue.entries)
    }
    #expect(unsharedBefore.allSatisfy { $0 == 0 })
    // An edit copies its path, one node a level (6), and where nodes split or
    // join one more a level and a new root: at most 13 (the whole queue is about 700).
    let copied = edits.map { $0.after.queue.entries.nodesNotShared(with: $0.before.queue.entries) }
    #expect(copied.max() ?? 0 <= 13, "\(copied.max() ?? 0) nodes copied by one edit")
    #expect(player.state.queue.entries.height == 6)
    #expect(player.state.queue.entries.count == 20_200)
    #expect(player.state.queue.entries.shapeViolation == nil)
    // The first steps still hold the queue as it was.
    #expect(recorded[1].before.queue.entries.count == 20_000)
    #expect(recorded[1].after.queue.entries.last?.description == "B")
  }

  @Test func aStateChangeOfAMoveIsSeenAndTheStatesDiffer() async {
    let player = Player(engine: SpyEngine())
    player.send(.user(.replaceQueue((0..<5_000).map { MediaID("M\($0)") })))
    let states = player.stateChanges()
    player.send(.user(.move(from: 4_000, to: 2)))
    player.send(.user(.move(from: 2, to: 4_000)))
    var seen: [String] = []
    for await state in states {
      seen.append(state.queue.entries[2].description + " " + state.queue.entries[4_000].description)
      if seen.count == 3 { break }
    }
    #expect(seen == ["M2 M4000", "M4000 M3999", "M2 M4000"])
  }
}
