import PlayerEngine
import PlayerSimulation
import PlayerState
import PlayerTesting
import Testing

/// A thread-safe log the clock's `@Sendable` actions can write to.
final class Log: Sendable {
  private let items = Locked<[String]>([])
  func add(_ item: String) { items.withLock { $0.append(item) } }
  var all: [String] { items.withLock { $0 } }
}

@Suite struct VirtualClockTests {
  @Test func runsActionsByDueTimeThenSchedulingOrder() {
    let clock = VirtualClock()
    let log = Log()
    clock.schedule(after: .milliseconds(300)) { log.add("c@\(clock.milliseconds)") }
    clock.schedule(after: .milliseconds(100)) { log.add("a@\(clock.milliseconds)") }
    clock.schedule(after: .milliseconds(300)) { log.add("d@\(clock.milliseconds)") }
    clock.schedule(after: .milliseconds(100)) { log.add("b@\(clock.milliseconds)") }
    #expect(clock.advance(by: .milliseconds(299)) == 2)
    #expect(log.all == ["a@100", "b@100"])
    #expect(clock.milliseconds == 299)
    #expect(clock.advance(by: .milliseconds(1)) == 2)
    #expect(log.all == ["a@100", "b@100", "c@300", "d@300"])
  }

  @Test func actionsScheduledForNowRunInTheSameAdvance() {
    let clock = VirtualClock()
    let log = Log()
    clock.schedule(after: .milliseconds(50)) {
      log.add("first")
      clock.schedule(after: .zero) { log.add("then@\(clock.milliseconds)") }
      clock.schedule(after: .milliseconds(10)) { log.add("later@\(clock.milliseconds)") }
    }
    clock.advance(by: .milliseconds(55))
    #expect(log.all == ["first", "then@50"])
    #expect(clock.pendingCount == 1)
    #expect(clock.nextDue == .milliseconds(60))
    #expect(clock.runUntilIdle() == 1)
    #expect(log.all == ["first", "then@50", "later@60"])
    #expect(clock.milliseconds == 60)
  }

  @Test func negativeDelaysCountAsZeroAndHugeOnesSaturate() {
    let clock = VirtualClock()
    let log = Log()
    clock.schedule(after: .milliseconds(-5)) { log.add("now") }
    clock.schedule(after: .seconds(Int64.max)) { log.add("never") }
    clock.advance(by: .zero)
    #expect(log.all == ["now"])
    clock.advance(by: .seconds(1_000_000))
    #expect(log.all == ["now"])
  }

  @Test func manyActionsComeOutSorted() {
    let clock = VirtualClock()
    let log = Log()
    var random = SplitMix64(seed: 99)
    for index in 0..<500 {
      let due = Int64.random(in: 0..<100, using: &random)
      clock.schedule(after: .milliseconds(due)) { log.add("\(due):\(index)") }
    }
    clock.advance(by: .seconds(1))
    let pairs = log.all.map { $0.split(separator: ":").map { Int($0) ?? -1 } }
    #expect(pairs.count == 500)
    #expect(pairs == pairs.sorted { ($0[0], $0[1]) < ($1[0], $1[1]) })
  }

  @Test func splitMix64KnownValues() {
    var random = SplitMix64(seed: 0)
    #expect(random.next() == 0xE220_A839_7B1D_CDAF)
    #expect(random.next() == 0x6E78_9E6A_A1B9_65F4)
  }
}
