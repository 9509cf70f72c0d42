import Foundation
import Testing

/// Issue 23, R11: `--json` printed 64-bit seeds and case indices as JSON
/// numbers, which jq 1.6 and JavaScript read as doubles: a CI step that
/// replayed `.failure.seed` ran another case. Every seed and case index is a
/// JSON string of decimal digits now, and that string is what `--seed` and
/// `--case` read back.
@Suite("CLI: seeds in JSON are strings")
struct SeedJSONTests {
  /// Above 2^53: a double cannot hold it (it reads back as 7996932702728812000).
  static let seed = "7996932702728811589"

  private static func objects(_ output: String) throws -> [[String: Any]] {
    try output.split(separator: "\n").map {
      try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
    }
  }

  @Test func aFailureAndItsResultCarryTheSeedAndCaseAsStrings() throws {
    let output = try CLI.run([
      "fuzz", "--seed", Self.seed, "--subject", "twoBools", "--json", "--quiet",
    ])
    #expect(output.status == 1)
    let lines = try Self.objects(output.stdout)
    #expect(lines.count == 2)
    let failure = try #require(lines.first?["failure"] as? [String: Any])
    let result = try #require(lines.last?["result"] as? [String: Any])
    #expect(failure["seed"] as? String == Self.seed)
    #expect(result["seed"] as? String == Self.seed)
    let index = try #require(failure["case"] as? String)
    #expect(UInt64(index) != nil)
    // The exact text, as jq and JavaScript see it: no 64-bit number anywhere.
    #expect(output.stdout.contains("\"seed\":\"\(Self.seed)\",\"case\":\"\(index)\""))
    #expect(output.stdout.contains("\"seed\":\"\(Self.seed)\",\"budget\""))
    #expect(!output.stdout.contains("\"seed\":\(Self.seed)"))

    // The strings are what --seed and --case take back: the same case fails alone.
    let origin = try #require(failure["origin"] as? String)
    let alone = try CLI.run([
      "fuzz", "--seed", Self.seed, "--case", index, "--subject", "twoBools", "--json", "--quiet",
    ])
    #expect(alone.status == 1)
    let replayed = try Self.objects(alone.stdout)
    let again = try #require(replayed.first?["failure"] as? [String: Any])
    #expect(again["origin"] as? String == origin)
    #expect(again["seed"] as? String == Self.seed)
    #expect(again["case"] as? String == index)
    // A run of one case says which, as a string too.
    let slice = try #require(replayed.last?["result"] as? [String: Any])
    #expect(slice["case"] as? String == index)
  }

  @Test func theLargestSeedIsExact() throws {
    let output = try CLI.run([
      "fuzz", "--seed", "18446744073709551615", "--budget", "1", "--json", "--quiet",
    ])
    #expect(output.status == 0)
    let result = try #require(try Self.objects(output.stdout).last?["result"] as? [String: Any])
    #expect(result["seed"] as? String == "18446744073709551615")
  }

  /// jq without `-r` prints the string quoted: refused, never read as another seed.
  @Test func aQuotedSeedIsRefused() throws {
    let output = try CLI.run(["fuzz", "--seed", "\"5\"", "--budget", "1", "--quiet"])
    #expect(output.status == 2)
    #expect(output.stderr.hasPrefix("player-sim: bad value '\"5\"' for '--seed' of 'fuzz'"))
  }
}
