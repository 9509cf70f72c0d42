import PlayerFuzz
import PlayerState
import PlayerTesting
import Testing

/// Sharded runs: `FuzzShard` cuts one seed's case indices into disjoint slices.
@Suite struct ShardTests {
  /// The case indices and case seeds a run actually ran, in order.
  private static func casesRun(
    _ subject: FuzzSubject = .player, seed: UInt64, budget: Int, shard: FuzzShard
  ) -> (result: FuzzResult, indices: [Int], seeds: [UInt64]) {
    var indices: [Int] = []
    var seeds: [UInt64] = []
    let configuration = FuzzConfiguration(seed: seed, budget: .cases(budget), shard: shard)
    let result = Fuzzer.run(subject, configuration, progress: nil) { index, caseSeed in
      indices.append(index)
      seeds.append(caseSeed)
    }
    return (result, indices, seeds)
  }

  @Test func twoShardsRunDisjointSlicesThatTogetherAreTheUnshardedRun() throws {
    let first = try #require(FuzzShard(index: 0, count: 2))
    let second = try #require(FuzzShard(index: 1, count: 2))
    let whole = Self.casesRun(seed: 11, budget: 301, shard: .whole)
    let even = Self.casesRun(seed: 11, budget: 301, shard: first)
    let odd = Self.casesRun(seed: 11, budget: 301, shard: second)

    #expect(whole.indices == Array(0..<301))
    #expect(even.indices == Array(stride(from: 0, to: 301, by: 2)))
    #expect(odd.indices == Array(stride(from: 1, to: 301, by: 2)))
    #expect(Set(even.seeds).isDisjoint(with: Set(odd.seeds)))
    #expect(Set(even.seeds).union(odd.seeds) == Set(whole.seeds))
    // A case keeps its seed in whatever shard runs it.
    #expect(even.seeds[3] == SplitMix64.caseSeed(run: 11, case: 6))
    #expect(odd.seeds[0] == whole.seeds[1])

    #expect(whole.result.passed && even.result.passed && odd.result.passed)
    #expect(even.result.cases == 151)
    #expect(odd.result.cases == 150)
    // The same cases, so the same work: the events checked add up exactly.
    #expect(even.result.events + odd.result.events == whole.result.events)
  }

  @Test func threeShardsOfATimeBudgetNeverRunTheSameCase() throws {
    var all: [Set<Int>] = []
    for index in 0..<3 {
      let shard = try #require(FuzzShard(index: index, count: 3))
      var indices: Set<Int> = []
      let configuration = FuzzConfiguration(seed: 5, budget: .seconds(0.2), shard: shard)
      let result = Fuzzer.run(.player, configuration, progress: nil) { caseIndex, _ in
        indices.insert(caseIndex)
      }
      #expect(result.cases == indices.count)
      #expect(indices.allSatisfy { $0 % 3 == index })
      all.append(indices)
    }
    #expect(all[0].isDisjoint(with: all[1]))
    #expect(all[0].isDisjoint(with: all[2]))
    #expect(all[1].isDisjoint(with: all[2]))
  }

  /// A failure in a shard names the case by its index in the whole run, and
  /// that case replays alone from the seed with no shard.
  @Test func aFailureInAShardReplaysFromItsSeedAndCaseIndex() throws {
    let buggy = try #require(BuggyPlayer.catalog.first { $0.name == "advanceTwiceOnDuplicatedEnd" })
    let unsharded = Fuzzer.run(buggy.subject, FuzzConfiguration(seed: 1, budget: .cases(20_000)))
    let first = try #require(unsharded.failure)
    guard case .random(_, let firstIndex, _) = first.origin else {
      Issue.record("not a random failure: \(first.origin)")
      return
    }
    // The shard that holds the unsharded run's first failing case finds it
    // first too: it runs a subsequence of the same cases, in the same order.
    let shard = try #require(FuzzShard(index: firstIndex % 4, count: 4))
    let sharded = Fuzzer.run(
      buggy.subject, FuzzConfiguration(seed: 1, budget: .cases(20_000), shard: shard))
    let failure = try #require(sharded.failure)
    #expect(failure.origin == first.origin)
    #expect(sharded.cases == firstIndex / 4 + 1)
    guard case .random(let seed, let index, let caseSeed) = failure.origin else { return }
    #expect(seed == 1)
    #expect(caseSeed == SplitMix64.caseSeed(run: 1, case: index))
    let (_, violation) = Fuzzer.replayCase(
      buggy.subject, caseSeed: caseSeed, FuzzConfiguration(seed: 1))
    #expect(violation != nil)
  }

  @Test func shardsOutOfRangeDoNotExist() {
    #expect(FuzzShard(index: 0, count: 0) == nil)
    #expect(FuzzShard(index: 3, count: 2) == nil)
    #expect(FuzzShard(index: 2, count: 2) == nil)
    #expect(FuzzShard(index: -1, count: 2) == nil)
    #expect(FuzzShard(index: 1, count: 2)?.description == "1/2")
    #expect(FuzzShard.whole.description == "0/1")
    #expect(FuzzShard.whole.isWhole)
  }

  @Test(
    arguments: [
      ("0/4", "0/4"), ("3/4", "3/4"), ("00/1", "0/1"), ("0/0", nil), ("3/2", nil), ("-1/2", nil),
      ("1/-2", nil), ("+1/2", nil), ("1/2/3", nil), ("1", nil), ("/", nil), ("a/b", nil),
      (" 1/2", nil), ("1/99999999999999999999", nil),
    ] as [(String, String?)])
  func parsingIOfN(text: String, parsed: String?) {
    #expect(FuzzShard(text)?.description == parsed)
  }

  @Test func theIndicesOfAShard() throws {
    let shard = try #require(FuzzShard(index: 1, count: 4))
    #expect(Array(shard.caseIndices(below: 14)) == [1, 5, 9, 13])
    #expect(Array(shard.caseIndices(below: 1)) == [])
    #expect(shard.contains(caseIndex: 9))
    #expect(!shard.contains(caseIndex: 8))
    #expect(!shard.contains(caseIndex: -3))
  }
}
