import PlayerFuzz
import Testing

/// The checks each feature's oracle suite makes of its catalog players
/// (ControlsOracleTests, RestoreOracleTests, SleepTimerOracleTests,
/// VolumeOracleTests, FadeOracleTests), written once.
enum CatalogBugChecks {
  /// Runs `bug` for seed 1 (20,000 cases) and checks that `property` catches it and that
  /// the case is shrunk to the player's minimal length; returns the failure, whose case
  /// each suite checks in its own terms.
  static func caughtOnSeedOne(
    _ bug: BuggyPlayer.Bug, by property: FuzzProperty
  ) throws -> FuzzFailure {
    let buggy = BuggyPlayer(bug)
    let result = Fuzzer.run(buggy.subject, FuzzConfiguration(seed: 1, budget: .cases(20_000)))
    let failure = try #require(result.failure, "\(bug) was not caught")
    #expect(failure.violation.property == property, "\(failure.report)")
    #expect(failure.actions.count == buggy.minimalLength, "\(failure.report)")
    return failure
  }

  /// Checks that the minimal case `text` breaks `property` of `bug`'s player at its last
  /// step, and that Playhead's player passes it.
  static func minimalCaseBreaksOnly(
    _ bug: BuggyPlayer.Bug, by property: FuzzProperty, _ text: String
  ) throws {
    let fuzzCase = try FailureFile.parseCase(text)
    let failure = try #require(Fuzzer.check(BuggyPlayer(bug).subject, fuzzCase))
    #expect(failure.violation.step == fuzzCase.actions.count, "\(failure.report)")
    #expect(failure.violation.property == property, "\(failure.report)")
    let player = Fuzzer.check(.player, fuzzCase)
    #expect(player == nil, "\(player?.report ?? "")")
  }
}
