import PlayerFuzz
import PlayerState
import PlayerTesting
import Testing

@Suite struct ConcurrentFuzzTests {
  @Test func fourThreadsAtOnceNeverBreakTheDriversPromises() {
    let result = ConcurrentFuzz.run(seed: 3, rounds: 10, threads: 4, eventsPerThread: 300)
    #expect(result.violation == nil, "\(result)")
    #expect(result.events == 12_000)
  }

  @Test func anyThreadSafeSubjectRuns() throws {
    let result = try ConcurrentFuzz.run(
      .player, seed: 4, rounds: 5, threads: 3, eventsPerThread: 200)
    #expect(result.violation == nil, "\(result)")
    #expect(result.events == 3_000)
  }

  @Test func aSubjectThatIsNotThreadSafeIsRefused() {
    #expect(throws: ConcurrentFuzz.NotThreadSafe.self) {
      try ConcurrentFuzz.run(BuggyPlayer(.twoBools).subject, seed: 1, rounds: 1)
    }
  }

  /// The system's events as the generator sends them, one name per variant.
  private static func systemVariant(_ event: PlaybackEvent) -> String? {
    switch event {
    case .system(.interruptionBegan): "interruption began"
    case .system(.interruptionEnded(shouldResume: true)): "interruption ended, resume"
    case .system(.interruptionEnded(shouldResume: false)): "interruption ended, no resume"
    case .system(.routeLost): "route lost"
    case .system(.networkLost): "network lost"
    case .system(.networkAvailable): "network available"
    case .engine(.pausedBySystem): "paused by system"
    case .engine(.failed(_, let reason, let detail)):
      "failed \(reason == .network ? "network" : "other"), \(detail == nil ? "no detail" : "detail")"
    default: nil
    }
  }

  @Test func theGeneratorSendsEverySystemEventAndFailuresWithAndWithoutDetail() {
    var random = SplitMix64(seed: 1)
    var counts: [String: Int] = [:]
    for _ in 0..<3_000 {
      if let name = Self.systemVariant(ConcurrentFuzz.randomEvent(&random)) {
        counts[name, default: 0] += 1
      }
    }
    #expect(
      Set(counts.keys) == [
        "interruption began", "interruption ended, resume", "interruption ended, no resume",
        "route lost", "network lost", "network available", "paused by system",
        "failed network, no detail", "failed network, detail", "failed other, no detail",
        "failed other, detail",
      ])
    // Interruptions begin twice as often as each kind of end: unpaired ones
    // (and a begin while interrupted) are the common case, not a rarity.
    #expect(
      counts["interruption began", default: 0] > counts["interruption ended, resume", default: 0])
  }

  @Test func roundsRunUnderEveryRetryPolicyOfTheSerialMode() {
    let policies = Set((0..<16).map { ConcurrentFuzz.policy(UInt64($0)) })
    // Issue 21: off, a single reload, a cap that is reached, the standard one.
    #expect(
      policies == [
        .standard, .off,
        RetryPolicy(attempts: 1, backoff: .milliseconds(2000), maximumBackoff: .seconds(30)),
        RetryPolicy(attempts: 3, backoff: .milliseconds(500), maximumBackoff: .milliseconds(800)),
      ])
  }

  @Test func theCatalogsDriverIsSerialSoABugTheGeneratorCannotReachStaysQuiet() throws {
    // The generator never shuffles: with this bug the catalog player is
    // Playhead's reducer behind a correct serial driver.
    let result = try ConcurrentFuzz.run(
      BuggyPlayer(.shuffleNotReplayable).concurrentSubject, seed: 5, rounds: 5, threads: 4,
      eventsPerThread: 300)
    #expect(result.violation == nil, "\(result)")
  }

  @Test(arguments: [
    BuggyPlayer.Bug.interruptionEndWithoutHintResumes, .routeLossResumesLater,
    .readyDuringInterruptionStarts, .resumesAfterUserPauseInInterruption, .retryReusesToken,
  ])
  func systemBugsAreCaughtWithSeveralThreadsSending(_ bug: BuggyPlayer.Bug) throws {
    let result = try ConcurrentFuzz.run(
      BuggyPlayer(bug).concurrentSubject, seed: 7, rounds: 20, threads: 4, eventsPerThread: 300)
    // Which promise breaks first depends on the interleaving; that one does is the point.
    #expect(result.violation != nil, "\(bug) not caught: \(result)")
    #expect(result.failedRound != nil)
  }
}

/// Issue 21, item 4: a stranded event is found at the quiescence after the
/// burst that strands it, and two drains at once as soon as two commands
/// overlap, on every seed.
@Suite struct ConcurrentRaceTests {
  /// Seed 1 of each here, within the 80 rounds the catalog allows; seeds 1–20 run with
  /// PLAYHEAD_FUZZ_CATALOG=1 (CampaignTests.everyPlantedRaceOnTwentySeeds). A run stops at
  /// the round that finds the race: usually the first; the rest is the margin for a loaded
  /// machine, where the senders meet inside the player less often.
  @Test(arguments: RacyPlayer.catalog)
  func eachPlantedRaceIsFound(_ racy: RacyPlayer) throws {
    let result = try ConcurrentFuzz.run(racy.subject, seed: 1, rounds: 80, threads: 2)
    let violation = try #require(result.violation, "\(racy) missed: \(result)")
    #expect(violation.property == .driverIsSerial || result.failedRound != nil)
  }

  @Test func aStrandedEventIsNamedAtItsQuiescence() throws {
    let result = try ConcurrentFuzz.run(
      RacyPlayer(.lostWakeUp).subject, seed: 1, rounds: 60, threads: 4, eventsPerThread: 200)
    let violation = try #require(result.violation)
    #expect(violation.property == .driverIsSerial)
    #expect(violation.detail.contains("stranded in a queue nobody drains"), "\(violation.detail)")
  }

  @Test func serialDriversPassTheBursts() throws {
    #expect(
      ConcurrentFuzz.run(seed: 9, rounds: 20, threads: 4, eventsPerThread: 200).violation == nil)
    let serial = try ConcurrentFuzz.run(
      BuggyPlayer(.shuffleNotReplayable).concurrentSubject, seed: 9, rounds: 10, threads: 4,
      eventsPerThread: 200)
    #expect(serial.violation == nil, "\(serial)")
  }

  @Test func theSerialRunnerCannotTellTheRacyDriversFromACorrectOne() {
    for racy in RacyPlayer.catalog {
      let result = Fuzzer.run(racy.subject, FuzzConfiguration(seed: 4, budget: .cases(500)))
      #expect(result.passed, "\(racy): \(result)")
    }
  }
}
