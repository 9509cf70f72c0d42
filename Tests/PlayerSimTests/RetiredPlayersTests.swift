import Foundation
import PlayerSimulation
import Testing

/// Issue 39, R14: `player-sim run` kept every player that handed off, with its engine and its
/// queue, until a `relaunch` (a 36 KB script of a 10,000-entry queue and 2,000 `handoff` lines
/// peaked at 549 MB). A player that handed off is now kept only while its engine or its own
/// timers have something planned on the clock, and at most
/// ``ScenarioRunner/retiredPlayerLimit`` players (``ScenarioRunner/retiredEntryLimit`` queue
/// entries) at once. These tests count the players kept, not time or memory (but for one, which
/// measures a child process's peak against the documented bound).
@Suite struct RetiredPlayersTests {
  private func run(_ script: String) throws -> ScenarioResult {
    ScenarioRunner().run(try ScenarioParser.parse(script, file: "t.play"))
  }

  /// The notes a run printed.
  private func notes(_ script: String) throws -> [String] {
    var notes: [String] = []
    _ = ScenarioRunner().run(try ScenarioParser.parse(script, file: "t.play")) { item in
      if case .note(_, let text) = item { notes.append(text) }
    }
    return notes
  }

  private static func handoffs(_ count: Int) -> String {
    String(repeating: "handoff\n", count: count)
  }

  /// Without a watchdog and with a well-behaved engine, a player that handed off has nothing
  /// planned once its load is stopped: none is kept, however many hand-offs.
  @Test func aPlayerWithNothingPlannedIsNotKept() throws {
    let result = try run(
      "media A duration=5m\nwatchdog off\nqueue A A A\nwait 1s\n" + Self.handoffs(100)
        + "wait 1s\nexpect state playing(A#1)\n")
    #expect(result.failure == nil, "\(result.failure.map { "\($0)" } ?? "")")
    #expect(result.mostRetiredPlayersKept == 0)
    #expect(result.retiredPlayersKept == 0)
  }

  /// Each new player's buffering watchdog (5 s) is planned when it hands off at once: it is
  /// kept for that stale expiry, up to the limit; the older ones are let go with a note, and
  /// once the watchdogs have fired none is kept.
  @Test func playersWaitingForTheirOwnTimersAreKeptUpToTheLimit() throws {
    let script = "media A duration=5m\nqueue A A A\nwait 300ms\n" + Self.handoffs(40)
    let before = try run(script)
    #expect(before.mostRetiredPlayersKept == 16)
    #expect(before.retiredPlayersKept == 16)
    let after = try run(script + "wait 6s\n")
    #expect(after.retiredPlayersKept == 0)
    let notes = try notes(script)
    #expect(notes.count == 24)
    #expect(
      notes.first
        == "player 1 and engine 1 let go (at most 16 handed-off players, 65536 entries, are kept for late callbacks): no engine callback pending"
    )
  }

  /// A hostile engine keeps a stopped load's reports: its player is kept until the last one
  /// (A#1's end at 30 s) has come, then let go.
  @Test func aPlayerIsKeptUntilItsEnginesLateCallbacksHaveCome() throws {
    let script = """
      media A duration=30s
      hostile on duplicate=0% reentrant=0%
      watchdog off
      play A
      wait 10s
      handoff
      wait 10s

      """
    #expect(try run(script).retiredPlayersKept == 1)
    let after = try run(script + "wait 11s\nexpect ignored staleLoad\n")
    #expect(after.failure == nil, "\(after.failure.map { "\($0)" } ?? "")")
    #expect(after.retiredPlayersKept == 0)
    #expect(after.mostRetiredPlayersKept == 1)
  }

  /// Kept players hold at most 65,536 queue entries in all: with 10,000-entry queues, six.
  @Test func keptPlayersHoldABoundedNumberOfEntries() throws {
    let queue = "queue " + Array(repeating: "A", count: 10_000).joined(separator: " ") + "\n"
    let result = try run("media A duration=5m\n" + queue + "wait 300ms\n" + Self.handoffs(20))
    #expect(result.mostRetiredPlayersKept == 6)
    #expect(result.retiredPlayersKept == 6)
  }

  /// The review's reproduction, smaller (2,000 entries, 1,000 hand-offs: 52 MB before), run by
  /// the built `player-sim` in a child process: within 32 bytes per input byte plus 8 MB.
  @Test(.enabled(if: PeakMemory.isSupported)) func manyHandOffsStayWithinTheBound() throws {
    let script =
      "media A duration=5m\nqueue " + Array(repeating: "A", count: 2_000).joined(separator: " ")
      + "\nwait 300ms\n" + Self.handoffs(1_000)
    let measured = try PeakMemory.extraBytesPerInputByte(["run", "--quiet"], script: script)
    #expect(measured.status == 0)
    let bound = 32 * script.utf8.count + 8 * 1024 * 1024
    #expect(measured.extra <= bound, "\(measured.extra) bytes beyond a one-line script")
  }
}
