import Foundation
import PlayerState
import Testing

/// A decoded shuffle's list order must be the queue's entries, entry for entry
/// (item and media), as a multiset (issue 23, R12). Comparing item ids alone
/// let a list of the right items with other media decode as
/// `playing(A#1, preloading B#2)`; `shuffle off` then restored entries that
/// were not in the queue and left a playing player with no current entry.
@Suite struct ShuffleDecodingTests {
  /// A shuffled, playing state of `A B C` with a preload, as JSON.
  static func shuffledState() throws -> (PlaybackState, [String: Any]) {
    var state = PlaybackState(configuration: PlayerConfiguration(canPreload: true))
    state = state.transition(on: .queue(["A", "B", "C"])).next
    state = state.transition(on: .user(.setShuffle(seed: 7))).next
    let load = try #require(state.session?.load)
    state = state.transition(on: .ready(load)).next
    #expect(state.queue.shuffle != nil && state.preload != nil, "\(state)")
    let object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(state))
    return (state, try #require(object as? [String: Any]))
  }

  /// `json` with `change` applied to the shuffle's list order.
  static func withList(
    _ json: [String: Any], _ change: (inout [[String: Any]]) -> Void
  ) throws -> Data {
    var json = json
    var queue = try #require(json["queue"] as? [String: Any])
    var shuffle = try #require(queue["shuffle"] as? [String: Any])
    var list = try #require(shuffle["unshuffled"] as? [[String: Any]])
    change(&list)
    shuffle["unshuffled"] = list
    queue["shuffle"] = shuffle
    json["queue"] = queue
    return try JSONSerialization.data(withJSONObject: json)
  }

  @Test func theStateRoundTrips() throws {
    let (state, json) = try Self.shuffledState()
    let decoded = try JSONDecoder().decode(
      PlaybackState.self, from: JSONSerialization.data(withJSONObject: json))
    #expect(decoded == state)
  }

  @Test func theRightItemsWithOtherMediaAreRefused() throws {
    let (_, json) = try Self.shuffledState()
    let data = try Self.withList(json) { list in
      for index in list.indices { list[index]["media"] = "X\(index)" }
    }
    #expect(throws: DecodingError.self) { try JSONDecoder().decode(PlaybackState.self, from: data) }
    let queue = try #require(json["queue"])
    var forged = try #require(queue as? [String: Any])
    forged["shuffle"] = (try JSONSerialization.jsonObject(with: data) as? [String: Any])
      .flatMap { ($0["queue"] as? [String: Any])?["shuffle"] }
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(
        PlayQueue.self, from: JSONSerialization.data(withJSONObject: forged))
    }
  }

  @Test func twoMediaSwappedBetweenItemsAreRefused() throws {
    let (_, json) = try Self.shuffledState()
    let data = try Self.withList(json) { list in
      let first = list[0]["media"]
      list[0]["media"] = list[1]["media"]
      list[1]["media"] = first
    }
    #expect(throws: DecodingError.self) { try JSONDecoder().decode(PlaybackState.self, from: data) }
  }

  @Test func anEntryTwiceInPlaceOfAnotherIsRefused() throws {
    let (_, json) = try Self.shuffledState()
    let data = try Self.withList(json) { list in list[2] = list[0] }
    #expect(throws: DecodingError.self) { try JSONDecoder().decode(PlaybackState.self, from: data) }
  }

  @Test func theListMayBeInAnyOrder() throws {
    // The list order is the order to restore, not the play order: any order of the entries.
    let (original, json) = try Self.shuffledState()
    let data = try Self.withList(json) { list in list.reverse() }
    let state = try JSONDecoder().decode(PlaybackState.self, from: data)
    let off = state.transition(on: .user(.setShuffle(seed: nil))).next
    #expect(off.invariantViolation == nil)
    #expect(off.queue.entries == original.queue.shuffle?.unshuffled.reversed())
    #expect(off.queue.currentEntry == original.queue.currentEntry)
  }

  @Test func aDecodedQueueChecksItsCurrentPosition() throws {
    let outside = #"{"entries":[{"item":1,"media":"A"}],"current":3,"repeatMode":"off"}"#
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(PlayQueue.self, from: Data(outside.utf8))
    }
    let missing = #"{"entries":[{"item":1,"media":"A"}],"repeatMode":"off"}"#
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(PlayQueue.self, from: Data(missing.utf8))
    }
    let fine = #"{"entries":[{"item":1,"media":"A"}],"current":0,"repeatMode":"all"}"#
    let queue = try JSONDecoder().decode(PlayQueue.self, from: Data(fine.utf8))
    #expect(queue.currentEntry?.media == "A" && queue.repeatMode == .all)
  }
}
