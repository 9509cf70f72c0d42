import PlayerEngine
import PlayerFuzz
import PlayerState
import Testing

/// Issue 24, item 5: the sleep timer's countdowns on the harness's clock, its
/// intents and expiries generated, and the catalog's sleep-timer bugs.
@Suite struct SleepTimerOracleTests {
  /// Each sleep-timer bug, the property that catches it, and the end of its shrunk case (seed 1).
  static let bugs: [(bug: BuggyPlayer.Bug, property: FuzzProperty, last: String)] = [
    // A countdown replaced or cancelled: its expiry must change nothing.
    (.staleSleepExpiryPauses, .sleepExpiryOnlyIfCurrent, "sleepTimer(expired, sleep#1)"),
    // The timer stops at this entry's end: the ready must not preload the next one.
    (.endOfEntryLosesToGapless, .endOfEntryStartsNothing, "ready(A#1)"),
  ]

  @Test(arguments: bugs.indices)
  func eachSleepTimerBugIsCaughtByItsProperty(_ index: Int) throws {
    let (bug, property, last) = Self.bugs[index]
    let failure = try CatalogBugChecks.caughtOnSeedOne(bug, by: property)
    #expect(FuzzCase(failure.actions).lines.last == last, "\(failure.report)")
  }

  /// Hand-made cases through every rule of the sleep timer, on Playhead's
  /// player: every step agrees with the contract, the countdowns included.
  @Test(arguments: [
    // A countdown runs out while playing: paused; resume plays on.
    "play(A)\nsleepTimer(after(1000ms))\nready(A#1)\nsleepTimer(expired, sleep#1)\nresume",
    // A replaced countdown's expiry is stale; the newest one's pauses.
    "sleepTimer(after(1000ms))\nsleepTimer(after(2000ms))\nplay(A)\nready(A#1)\nsleepTimer(expired, sleep#1)\nsleepTimer(expired, sleep#2)\nsleepTimer(expired, sleep#3)",
    // Stop disarms; an expiry while paused only disarms.
    "sleepTimer(after(1000ms))\nstop\nsleepTimer(expired, sleep#1)\nplay(A)\npause\nsleepTimer(after(5000ms))\nsleepTimer(expired, sleep#2)",
    // End of entry on a gapless engine: the preload is stopped, the next entry is current unloaded.
    "engine preload=yes\nqueue(A B)\nready(A#1)\nsleepTimer(endOfEntry)\nended(A#1)\nresume\nready(B#3)",
    // A count of two entries under repeat one: the first replay counts, the second stops.
    "play(A)\nrepeat(one)\nsleepTimer(afterEntries(2))\nready(A#1)\nended(A#1)\nseeked(A#1, seek#1)\nended(A#1)",
    // End of queue: the first entry advances, the last one ends paused.
    "engine preload=yes\nqueue(A B)\nsleepTimer(endOfQueue)\nready(A#1)\nended(A#1)\nready(B#2)\nended(B#2)",
    // Invalid and redundant settings are ignored; a relaunch carries no timer.
    "sleepTimer(after(0ms))\nsleepTimer(afterEntries(0))\nsleepTimer(off)\nsleepTimer(endOfEntry)\nsleepTimer(endOfEntry)\nplay(A)\nrelaunch\nsleepTimer(off)",
  ])
  func playheadsPlayerKeepsTheSleepTimerAsTheContractSays(_ text: String) throws {
    let fuzzCase = try FailureFile.parseCase(text)
    let failure = Fuzzer.check(.player, fuzzCase)
    #expect(failure == nil, "\(failure?.report ?? "")")
  }

  /// The sleep timer's lines parse back to what prints them; `setSleepTimer(…)` is read too.
  @Test func sleepTimerLinesRoundTrip() throws {
    let lines = [
      "sleepTimer(after(1800000ms))", "sleepTimer(endOfEntry)", "sleepTimer(endOfQueue)",
      "sleepTimer(afterEntries(2))", "sleepTimer(off)", "sleepTimer(expired, sleep#3)",
    ]
    let actions = try FailureFile.parse(lines.joined(separator: "\n"))
    #expect(actions[0] == .send(.user(.setSleepTimer(.after(.seconds(1800))))))
    #expect(actions[5] == .send(.system(.sleepTimerExpired(SleepTimerID(3)))))
    #expect(FuzzCase(actions).lines == lines)
    #expect(
      try FailureFile.parse("setSleepTimer(endOfEntry)") == [
        .send(.user(.setSleepTimer(.endOfEntry)))
      ])
    #expect(throws: FuzzParseError.self) { try FailureFile.parse("sleepTimer(tomorrow)") }
  }

  /// A player that does not schedule countdowns on the harness's clock is
  /// never sent the sleep timer.
  @Test func aSubjectWithoutTheSleepClockIsNotSentTheTimer() {
    let plain = FuzzSubject(
      name: "Plain",
      make: { engine in
        PlayerTarget(
          Player(
            engine: engine,
            state: PlaybackState(configuration: FuzzEngine.configuration(for: engine)),
            watchdog: FuzzEngine.watchdog(for: engine)))
      }
    ).reading(.configuration)
    let result = Fuzzer.run(plain, FuzzConfiguration(seed: 1, budget: .cases(2_000)))
    #expect(result.passed, "\(result.failure?.report ?? "")")
  }
}
