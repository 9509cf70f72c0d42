import PlayerFuzz
import Testing

@Suite struct ConcurrentFuzzTests {
  @Test func fourThreadsAtOnceNeverBreakTheDriversPromises() {
    let result = ConcurrentFuzz.run(seed: 3, rounds: 10, threads: 4, eventsPerThread: 300)
    #expect(result.violation == nil, "\(result)")
    #expect(result.events == 12_000)
  }
}
