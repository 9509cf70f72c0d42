import PlayerFuzz
import Testing

/// Issue 39, R15: each hand-off or relaunch of a saved failure snapshots its whole queue and
/// restores it with new ids, in the player and in the contract, so `handoff` and
/// `shuffle(seed 1)` alternated 4,999 times over 2,000 entries replayed in 26.6 s, 5.7 times
/// the documented worst case. A saved failure now carries at most
/// ``FailureFile/maximumRestoredEntries`` queue entries over hand-offs and relaunches in all:
/// these tests count the entries carried over, not time.
@Suite struct RestoredEntriesLimitTests {
  private static func file(queue: Int, _ restores: String, count: Int) -> String {
    "queue(" + Array(repeating: "A", count: queue).joined(separator: " ") + ")\n"
      + String(repeating: restores, count: count)
  }

  /// The message of the error `text` gives, or "no error".
  private func message(_ text: String) -> String {
    do {
      _ = try FailureFile.parseCase(text, file: "f.txt")
      return "no error"
    } catch {
      return error.description
    }
  }

  @Test func theLimitIsAMillionEntries() {
    #expect(FailureFile.maximumRestoredEntries == 1_000_000)
  }

  /// 500 hand-offs of 2,000 entries carry 1,000,000 over: the limit, accepted; the 501st
  /// (line 502) is past it.
  @Test func handOffsOfALongQueueStopAtTheLimit() {
    #expect(message(Self.file(queue: 2_000, "handoff\n", count: 500)) == "no error")
    #expect(
      message(Self.file(queue: 2_000, "handoff\n", count: 501))
        == "f.txt:502:1: error: a handoff past 1000000 queue entries carried over by hand-offs and relaunches (1002000 with this one); expected a saved (minimal) case"
    )
  }

  /// Relaunches count the same; a snapshot carries nothing over and is not counted.
  @Test func relaunchesCountAndSnapshotsDoNot() {
    #expect(
      message(Self.file(queue: 2_000, "snapshot\nrelaunch\n", count: 501))
        == "f.txt:1003:1: error: a relaunch past 1000000 queue entries carried over by hand-offs and relaunches (1002000 with this one); expected a saved (minimal) case"
    )
  }

  /// The entries counted are the queue's at the hand-off: a short queue may hand off on every
  /// line of the longest file (9,999 × 100 = 999,900).
  @Test func aShortQueueHandsOffOnEveryLine() {
    #expect(message(Self.file(queue: 100, "handoff\n", count: 9_999)) == "no error")
  }
}
