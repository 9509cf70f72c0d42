import PlayerState
import Testing

@testable import PlayerFuzz

/// The two paths `explore --entries 2 --features queue,crossfade` merged into one
/// state at level 6 (class "preload, retry off, threshold 0ms, watchdog 1000ms,
/// crossfade 1000ms") and then reported unsound: each ends with the current load
/// stalled, its newest seek completed and a completion of the seek before it held
/// back (seek 1 of 2, seek 2 of 3: both the one before the newest, both newest
/// "2 or more"). After `play(C)` that load is stale and the held completion
/// ignored alike, so the key must not part them by its id.
@Suite struct HeldSeekKeyTests {
  static let first = [
    "play(A)", "repeat(all)", "reentrant ready(B#2)", "queue(B C)", "jump(1)",
    "later seeked(B#2, seek#1)", "reentrant seeked(B#2, seek#2)", "reentrant stalled(B#2)",
    "seek(0ms)",
  ]
  static let second = [
    "reentrant ready(A#1)", "queue(A B)", "repeat(one)", "reentrant seeked(A#1, seek#1)",
    "reentrant stalled(A#1)", "seek(0ms)", "ended(A#1)", "repeat(all)",
    "later seeked(A#1, seek#2)", "reentrant seeked(A#1, seek#3)", "reentrant stalled(A#1)",
    "seek(0ms)",
  ]

  /// The explorer's key after `lines` (the model, the held reports, the
  /// observation and the player's state), and the held reports' part of it.
  static func key(_ lines: [String]) throws -> (whole: [Int32], held: [Int32]) {
    var setup = FuzzSetup(
      canPreload: true, previousThreshold: .zero, retry: .off, watchdogTimeout: .seconds(1))
    setup.crossfadeLength = FuzzSetup.crossfadeOn
    let text = ([FuzzCase([], setup: setup).header] + lines).joined(separator: "\n")
    let parsed = try FailureFile.parseCase(text)
    var runner = CaseRunner(ForkablePlayerTarget.subject, setup: parsed.setup)
    runner.recordsCoverage = false
    for action in parsed.actions {
      #expect(runner.perform(action) == nil)
    }
    let target = try #require(runner.target as? ForkablePlayerTarget)
    let renaming = ExplorationRenaming(runner.model, threshold: .zero)
    let held = Explorer.held(runner.trace, effects: runner.effects).current
    var whole: [Int32] = []
    Explorer.canonicalize(
      runner.model, held: held, observation: target.observation, into: &whole, renaming)
    target.player.state.canonicalize(into: &whole, renaming)
    var heldKey: [Int32] = []
    Explorer.append(held: held, into: &heldKey, renaming)
    return (whole, heldKey)
  }

  /// Merged: the held completion is the one before the newest seek of the current load.
  @Test func bothPathsReachOneKey() throws {
    let first = try Self.key(Self.first)
    let second = try Self.key(Self.second)
    #expect(first.whole == second.whole)
    #expect(first.held == [-5, 1, 0, 5, 99])
    #expect(second.held == [-5, 1, 0, 5, 99])
  }

  /// `play(C)` stops that load: its held completion is renamed as ignored,
  /// not as seek 1 on one path and 2 on the other, so both reach one key again.
  @Test func playLeadsBothToOneKey() throws {
    let first = try Self.key(Self.first + ["play(C)"])
    let second = try Self.key(Self.second + ["play(C)"])
    #expect(first.held == [-5, 3, 5, ExplorationRenaming.ignoredSeek])
    #expect(second.held == [-5, 3, 5, -4])
    #expect(first.whole == second.whole)
  }
}
