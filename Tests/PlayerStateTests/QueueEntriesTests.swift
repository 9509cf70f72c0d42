import Foundation
import PlayerState
import Testing

/// `count` entries `A`…, items 1…count, built by appends one at a time through the reducer.
private func appended(_ count: Int) -> PlaybackState {
  var state = PlaybackState().transition(on: .user(.replaceQueue(["M1"]))).next
  for index in 2...count {
    state = state.transition(on: .user(.append([MediaID("M\(index)")]))).next
  }
  return state
}

/// The queue's entries as the reducer's edits leave them, and what copies of it share
/// (issue 23, R5 and R7).
@Suite struct QueueEntriesTests {
  @Test func aSmallQueueReadsAsItsArray() {
    let entries: QueueEntries = [
      QueueEntry(item: ItemID(1), media: "A"), QueueEntry(item: ItemID(2), media: "B"),
    ]
    #expect(entries.count == 2)
    #expect(entries[1] == QueueEntry(item: ItemID(2), media: "B"))
    #expect(entries.map(\.description) == ["A", "B"])
    #expect(entries.firstIndex(of: QueueEntry(item: ItemID(2), media: "B")) == 1)
    #expect(entries.firstIndex { $0.media == "C" } == nil)
    #expect(entries.height == 1)
  }

  @Test func entriesEncodeAsTheArrayDid() throws {
    let entries: QueueEntries = [QueueEntry(item: ItemID(1), media: "A")]
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let json = String(decoding: try encoder.encode(entries), as: UTF8.self)
    #expect(json == #"[{"item":1,"media":"A"}]"#)
    let decoded = try JSONDecoder().decode(QueueEntries.self, from: Data(json.utf8))
    #expect(decoded == entries)
  }

  @Test func aLongQueueKeepsItsOrderThroughEveryEdit() {
    var state = appended(3_000)
    #expect(state.queue.entries.height == 4)
    #expect(state.queue.entries.shapeViolation == nil)
    #expect(state.queue.entries[2_999].description == "M3000")
    state = state.transition(on: .user(.insert(["F"], at: 0))).next
    state = state.transition(on: .user(.insert(["H"], at: 1_500))).next
    state = state.transition(on: .user(.move(from: 3_001, to: 2))).next
    state = state.transition(on: .user(.remove(at: 1_000))).next
    let entries = state.queue.entries
    #expect(entries.count == 3_001)
    #expect(entries.shapeViolation == nil)
    #expect(entries.prefix(4).map(\.description) == ["F", "M1", "M3000", "M2"])
    #expect(entries[999].description == "M998")
    #expect(entries[1_000].description == "M1000")
    #expect(entries[1_500].description == "H")
    #expect(entries[3_000].description == "M2999")
    #expect(entries.first { $0.media == "H" }?.item == ItemID(3_002))
  }

  @Test func equalEntriesAreEqualWhateverTheirShape() {
    // Appended one by one (leaves half full) against built at once (leaves full).
    let grown = appended(1_000).queue.entries
    let built = QueueEntries(Array(grown))
    #expect(grown == built)
    #expect(grown.hashValue == built.hashValue)
    #expect(grown.hashValue == Array(grown).hashValue)
    var other = Array(grown)
    other[999] = QueueEntry(item: ItemID(999), media: "M999")
    #expect(grown != QueueEntries(other))
  }

  /// The review's R5: each edit of an observed queue copied all of it (about
  /// 900 buffers here). Now the state after an edit shares every node with the
  /// state before but those on the edit's path, one a level (6), and where
  /// nodes split or join, one more a level and a new root: at most 13.
  @Test(arguments: [
    ("append", UserIntent.append(["N"])),
    ("insert at the front", .insert(["N"], at: 0)),
    ("insert in the middle", .insert(["N"], at: 10_000)),
    ("remove", .remove(at: 10_000)),
    ("move", .move(from: 1, to: 19_000)),
  ])
  func anEditCopiesOnlyItsPath(name: String, intent: UserIntent) {
    let before = appended(20_000)
    #expect(before.queue.entries.height == 6)
    var state = before
    var copied: [Int] = []
    for _ in 0..<100 {
      let after = state.transition(on: .user(intent)).next
      copied.append(after.queue.entries.nodesNotShared(with: state.queue.entries))
      state = after
    }
    #expect(copied.allSatisfy { $0 <= 13 }, "\(name): \(copied)")
    #expect(state.queue.entries.shapeViolation == nil)
    // And the state before is as it was.
    #expect(before.queue.entries.count == 20_000)
    #expect(before.queue.entries[10_000].description == "M10001")
  }

  @Test func randomEditsAgreeWithAnArray() {
    var random = SplitMix64(seed: 23)
    var entries = QueueEntries()
    var model: [QueueEntry] = []
    var held: [(QueueEntries, [QueueEntry])] = []
    var nextItem: UInt32 = 0
    for step in 0..<4_000 {
      let roll = random.next() % 100
      if roll < 60 || model.isEmpty {
        let count = roll < 10 ? Int(random.next() % 100) + 1 : 1
        let at = Int(random.next() % UInt64(model.count + 1))
        let new = (0..<count).map { _ in
          nextItem += 1
          return QueueEntry(item: ItemID(nextItem), media: MediaID("M\(nextItem)"))
        }
        entries.insert(contentsOf: new, at: at)
        model.insert(contentsOf: new, at: at)
      } else if roll < 97 {
        let at = Int(random.next() % UInt64(model.count))
        entries.remove(at: at)
        model.remove(at: at)
      } else {
        entries = QueueEntries(model.reversed())
        model.reverse()
      }
      if step % 200 == 0 { held.append((entries, model)) }
      if !model.isEmpty {
        let at = Int(random.next() % UInt64(model.count))
        #expect(entries[at] == model[at])
        #expect(entries.item(at: at) == model[at].item)
        // The leaf-by-leaf search finds what the array's does, in any leaf.
        let item = model[Int(random.next() % UInt64(model.count))].item
        #expect(entries.firstIndex { $0.item == item } == model.firstIndex { $0.item == item })
      }
    }
    #expect(entries.shapeViolation == nil)
    #expect(Array(entries) == model)
    #expect(entries.array == model)
    #expect(entries.hashValue == model.hashValue)
    #expect(entries.firstIndex { $0.item == ItemID(nextItem + 1) } == nil)
    // Every copy kept along the way still holds what it held.
    for (copy, expected) in held { #expect(Array(copy) == expected) }
    #expect(held.count == 20)
  }
}
