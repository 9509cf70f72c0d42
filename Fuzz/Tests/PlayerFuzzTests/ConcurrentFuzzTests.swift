import PlayerFuzz
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
}
