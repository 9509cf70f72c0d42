import Foundation
import PlayerState
import Testing

/// Issue 24 (first part): the snapshot, taken in one step, and the restore
/// rule — idle and paused, nothing sent, the saved position used once and
/// only for its own entry.
@Suite("Snapshot and restore")
struct RestoreTests {
  private func state(_ events: [PlaybackEvent], from start: PlaybackState = PlaybackState())
    -> PlaybackState
  {
    run(events, from: start).state
  }

  @Test func aSnapshotHoldsTheEntryAndItsPositionFromOneStep() {
    let playing = state([
      .queue(["A", "B", "C"]), .ready(Load(1, 1), duration: .seconds(300)),
      .position(Load(1, 1), .seconds(95)),
    ])
    #expect(
      playing.snapshot
        == PlaybackSnapshot(
          media: ["A", "B", "C"], current: 0, position: .seconds(95), playWhenReady: true))
    // Right after next: the new entry at its start, never the old entry's position.
    let skipped = playing.transition(on: .next).next
    #expect(skipped.snapshot.current == 1)
    #expect(skipped.snapshot.position == .zero)
    // An ended entry is saved from its start (it replays); the rate and repeat are kept.
    let ended = state([
      .play("A"), .ready(Load(1, 1), duration: .seconds(30)), .user(.setRepeat(.off)),
      .user(.setRate(PlaybackRate(thousandths: 1500))), .reachedEnd(Load(1, 1)),
    ])
    #expect(ended.snapshot.position == .zero)
    #expect(ended.snapshot.rate == PlaybackRate(thousandths: 1500))
  }

  @Test func aRestoredPlayerSendsNothingUntilResumedThenLoadsFromThePositionOnce() throws {
    let saved = PlaybackSnapshot(
      media: ["A", "B"], current: 1, position: .seconds(42), playWhenReady: true)
    let restored = try PlaybackState(restoring: saved)
    #expect(restored.description == "idle")
    #expect(restored.playWhenReady == false)
    #expect(restored.resumePoint == ResumePoint(item: ItemID(2), position: .seconds(42)))
    // The lock screen shows where the first resume will start, not 0:00.
    #expect(restored.nowPlaying?.description == "B 2/2 at 42000ms 0x")
    let result = run([.toggle, .ready(Load(2, 1)), .stop, .resume], from: restored)
    #expect(
      result.commands == [
        "load(B#1, from 42000ms)", "start(B#1)", "stop(B#1)", "load(B#2)",
      ])
    #expect(result.state.resumePoint == nil)
  }

  /// tempus PR #1055, Musify PR #956: the position belongs to its entry.
  @Test func theSavedPositionIsNeverAppliedToAnotherEntry() throws {
    let saved = PlaybackSnapshot(media: ["A", "B", "C"], current: 0, position: .seconds(42))
    let restored = try PlaybackState(restoring: saved)
    #expect(restored.nowPlaying?.elapsed == .seconds(42))
    let moved = run([.next, .previous, .resume], from: restored)
    #expect(PlaybackState.reduce(restored, .next).nowPlaying?.elapsed == .zero)
    #expect(moved.commands == ["load(A#1)"])
    let removed = run([.user(.remove(at: 0)), .resume], from: restored)
    #expect(removed.commands == ["load(B#1)"])
    let replaced = run([.play("A")], from: restored)
    #expect(replaced.commands == ["load(A#1)"])
  }

  /// SimpMusic #2527, androidx/media #1070: nothing saved, resume loads nothing.
  @Test func anEmptySnapshotResumesNothing() throws {
    let restored = try PlaybackState(restoring: PlaybackSnapshot(media: [], current: nil))
    #expect(restored.transition(on: .resume).ignored == .noEffect)
    #expect(restored.transition(on: .toggle).ignored == .noEffect)
  }

  @Test func aShuffledQueueComesBackInTheSamePlayOrder() throws {
    let shuffled = state([
      .queue(["A", "B", "C", "D", "E"], start: 2), .user(.setShuffle(seed: 9)),
      .user(.setRepeat(.all)),
    ])
    let snapshot = shuffled.snapshot
    let restored = try PlaybackState(restoring: snapshot)
    #expect(restored.queue.entries.map(\.media) == shuffled.queue.entries.map(\.media))
    #expect(restored.queue.current == shuffled.queue.current)
    #expect(restored.queue.repeatMode == .all)
    #expect(restored.queue.shuffle?.seed == 9)
    // The same snapshot back, but paused: a restored player waits for the user.
    var paused = snapshot
    paused.playWhenReady = false
    #expect(restored.snapshot == paused)
    let unshuffled = restored.transition(on: .user(.setShuffle(seed: nil))).next
    #expect(unshuffled.queue.entries.map(\.media) == ["A", "B", "C", "D", "E"])
  }

  @Test func aBadSnapshotIsAClearError() throws {
    let cases: [(PlaybackSnapshot, String)] = [
      (PlaybackSnapshot(media: ["A"], current: nil), "1 entries and no current one"),
      (PlaybackSnapshot(media: ["A"], current: 1), "current position 1 outside the 1 entries"),
      (
        PlaybackSnapshot(media: ["A", "B"], shuffleSeed: 1, playOrder: [0, 0], current: 0),
        "the play order is not a permutation of the entries (0)"
      ),
      (
        PlaybackSnapshot(media: ["A"], shuffleSeed: 1, current: 0),
        "a shuffle needs both its seed and its play order"
      ),
      (
        PlaybackSnapshot(media: ["A"], current: 0, position: .milliseconds(-1)),
        "position -1ms is negative"
      ),
      (
        PlaybackSnapshot(media: ["A"], current: 0, rate: PlaybackRate(thousandths: 0)),
        "rate 0x is not positive"
      ),
    ]
    for (snapshot, reason) in cases {
      #expect(snapshot.violation == reason)
      #expect(throws: InvalidStateError(reason: "unusable snapshot: \(reason)")) {
        try PlaybackState(restoring: snapshot)
      }
    }
  }

  @Test func decodingChecksTheVersionTheBoundAndTheRules() throws {
    let good = PlaybackSnapshot(media: ["A", "B"], current: 1, position: .seconds(3))
    let data = try JSONEncoder().encode(good)
    #expect(try JSONDecoder().decode(PlaybackSnapshot.self, from: data) == good)
    func error(_ json: String) -> String {
      do {
        _ = try JSONDecoder().decode(PlaybackSnapshot.self, from: Data(json.utf8))
        return "decoded"
      } catch let DecodingError.dataCorrupted(context) {
        return context.debugDescription
      } catch {
        return "\(error)"
      }
    }
    // The good snapshot's JSON with one field changed.
    func changed(_ key: String, _ value: Any) throws -> String {
      var object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
      object[key] = value
      return String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
    }
    #expect(
      error(try changed("version", 2)) == "unsupported PlaybackSnapshot version 2; expected 1")
    #expect(
      error(try changed("current", 3))
        == "unusable snapshot: current position 3 outside the 2 entries")
    #expect(
      error(try changed("media", Array(repeating: "A", count: 100_001)))
        == "more than 100000 entries")
  }

  @Test func aResumePointOnlyDecodesBesideItsIdleEntry() throws {
    let queue = PlayQueue(entries: [QueueEntry(item: ItemID(1), media: "A")], current: 0)
    #expect(
      throws: InvalidStateError(reason: "a resume point for item2, which is not the current entry")
    ) {
      try PlaybackState(
        checking: queue, session: nil, playWhenReady: false, issuedLoads: 0, issuedItems: 2,
        resumePoint: ResumePoint(item: ItemID(2), position: .seconds(1)))
    }
  }
}
