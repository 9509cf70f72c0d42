import Foundation
import Testing

/// `player-sim fuzz --shard I/N` and `--case K`: one seed cut into disjoint
/// slices, and the one case a failure names replayed alone.
@Suite struct ShardCLITests {
  @Test func aShardRunsItsSliceOfTheCaseBudget() throws {
    // Cases 1, 5, ..., 49 of the 50: 13 cases.
    let output = try CLI.run(["fuzz", "--seed", "7", "--budget", "50", "--shard", "1/4", "--quiet"])
    #expect(output.status == 0)
    #expect(output.stderr == "")
    #expect(output.lines.first?.hasPrefix("fuzz Player: seed 7, 13 cases, ") == true)
    #expect(output.lines.contains("ran shard 1/4 (case indices 1 modulo 4) of seed 7"))
  }

  @Test func theShardsOfABudgetTogetherCheckTheEventsOfTheWholeRun() throws {
    func events(_ extra: [String]) throws -> Int {
      let output = try CLI.run(
        ["fuzz", "--seed", "3", "--budget", "120", "--json", "--quiet"] + extra)
      #expect(output.status == 0)
      let object = try JSONSerialization.jsonObject(with: Data(output.stdout.utf8))
      let result = try #require((object as? [String: Any])?["result"] as? [String: Any])
      return try #require(result["events"] as? Int)
    }
    let whole = try events([])
    let parts = try (0..<3).map { try events(["--shard", "\($0)/3"]) }
    #expect(parts.reduce(0, +) == whole)
  }

  /// The unsharded run of seed 1 first fails at case K (1658 with today's
  /// decoder; read from the run so a generator change does not break this):
  /// shard K mod 3 of 3 finds the same case as its (K / 3 + 1)th, prints the
  /// unsharded replay, and that command fails on the same case alone.
  @Test func aFailureInAShardPrintsTheUnshardedReplay() throws {
    let subject = ["--subject", "advanceTwiceOnDuplicatedEnd"]
    let unsharded = try CLI.run(
      ["fuzz", "--seed", "1", "--budget", "20000", "--json", "--quiet"] + subject)
    #expect(unsharded.status == 1)
    let line = try #require(unsharded.stdout.split(separator: "\n").first)
    let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
    let failure = try #require((object as? [String: Any])?["failure"] as? [String: Any])
    let index = try #require((failure["case"] as? String).flatMap { Int($0) })
    let origin = try #require(failure["origin"] as? String)
    #expect(origin.hasPrefix("seed 1, case \(index) (case seed 0x"))

    let sharded = try CLI.run(
      ["fuzz", "--seed", "1", "--budget", "20000", "--shard", "\(index % 3)/3", "--quiet"]
        + subject)
    #expect(sharded.status == 1)
    #expect(
      sharded.lines.first?.hasPrefix(
        "fuzz advanceTwiceOnDuplicatedEnd: seed 1, \(index / 3 + 1) cases, ") == true)
    #expect(sharded.lines.contains("found by: \(origin)"))
    let replay =
      "replay this case alone: player-sim fuzz --seed 1 --case \(index) --subject advanceTwiceOnDuplicatedEnd"
    #expect(sharded.lines.contains(replay))

    let alone = try CLI.run(["fuzz", "--seed", "1", "--case", "\(index)", "--quiet"] + subject)
    #expect(alone.status == 1)
    #expect(
      alone.lines.first?.hasPrefix("fuzz advanceTwiceOnDuplicatedEnd: seed 1, 1 cases, ") == true)
    #expect(alone.lines.contains("found by: \(origin)"))
    #expect(alone.lines.contains("ran case \(index) alone of seed 1"))
    #expect(alone.lines.contains(replay))
    // The same case on the correct player passes.
    let player = try CLI.run(["fuzz", "--seed", "1", "--case", "\(index)", "--quiet"])
    #expect(player.status == 0)
  }

  @Test func theJSONResultNamesTheShard() throws {
    let output = try CLI.run([
      "fuzz", "--seed", "7", "--budget", "20", "--shard", "0/2", "--json", "--quiet",
    ])
    #expect(output.status == 0)
    let object = try JSONSerialization.jsonObject(with: Data(output.stdout.utf8))
    let result = try #require((object as? [String: Any])?["result"] as? [String: Any])
    #expect(result["shard"] as? String == "0/2")
    #expect(result["cases"] as? Int == 10)
  }

  @Test(arguments: [
    (
      ["--shard", "0/0"],
      "player-sim: bad value '0/0' for '--shard' of 'fuzz'; the shard count N must be at least 1, as in 0/1"
    ),
    (
      ["--shard", "3/2"],
      "player-sim: bad value '3/2' for '--shard' of 'fuzz'; the shard index I must be below the count N: 0 to 1 for 2 shards"
    ),
    (
      ["--shard", "-1/2"],
      "player-sim: bad value '-1/2' for '--shard' of 'fuzz'; expected I/N, shard I of N with 0 <= I < N, such as 0/4 (whole numbers, no sign)"
    ),
    (
      ["--shard", "junk"],
      "player-sim: bad value 'junk' for '--shard' of 'fuzz'; expected I/N, shard I of N with 0 <= I < N, such as 0/4 (whole numbers, no sign)"
    ),
    (
      ["--shard"],
      "player-sim: flag '--shard' of 'fuzz' needs a value; expected --shard I/N"
    ),
    (
      ["--case", "-3"],
      "player-sim: bad value '-3' for '--case' of 'fuzz'; expected a whole number from 0 to 9223372036854775806"
    ),
    (
      ["--case", "4", "--shard", "0/2"],
      "player-sim: '--case' and '--shard' of 'fuzz' cannot be combined; --case runs exactly one case of the seed, unsharded"
    ),
    (
      ["--case", "4", "--budget", "10"],
      "player-sim: '--case' and '--budget' of 'fuzz' cannot be combined; --case runs exactly one case of the seed, unsharded"
    ),
  ])
  func badShardsExitTwo(arguments: [String], message: String) throws {
    let output = try CLI.run(["fuzz", "--quiet"] + arguments)
    #expect(output.status == 2)
    #expect(output.stdout == "")
    #expect(output.stderr == message + "\n")
  }
}
