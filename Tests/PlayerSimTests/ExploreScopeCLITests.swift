import Foundation
import Testing

/// `player-sim explore --entries N` (issue 21, item 1): the scope and the
/// verdict in words and in JSON, and `--depth` still bounding the search.
@Suite struct ExploreScopeCLITests {
  static let scopeLine =
    "explore Player, queues ≤ 1, ≤ 1 held-back report, configurations {preload, no preload} × "
    + "{retry off, retry 1 attempt, retry cap reached, retry standard} × "
    + "{threshold 3000ms, watchdog 10000ms; threshold 0ms, watchdog 1000ms}"

  @Test func aDepthBoundedScopeSaysItsScopeAndWhyItIsNotComplete() throws {
    let output = try CLI.run(["explore", "--entries", "1", "--depth", "1", "--quiet"])
    // Bounded by --depth with nothing broken: exit status 3, not a failure.
    #expect(output.status == 3)
    #expect(output.lines.first == Self.scopeLine)
    // One line per configuration class, each at its depth limit.
    let classes = output.lines.filter {
      $0.hasPrefix("  ") && $0.contains(", watchdog ") && $0.contains(" states, ")
    }
    #expect(classes.count == 16)
    #expect(
      classes.allSatisfy {
        $0.hasSuffix("not complete (level 1 still found 20 new states (no fixpoint))")
      }, "\(classes)")
    #expect(
      output.lines.contains(
        "not complete: preload, retry off, threshold 3000ms, watchdog 10000ms: level 1 still "
          + "found 20 new states (no fixpoint)"))
    #expect(!output.stdout.contains("complete for queues"))
  }

  @Test func theJSONResultHasTheScopeAndCompleteFalse() throws {
    let output = try CLI.run(["explore", "--entries", "1", "--depth", "1", "--json", "--quiet"])
    #expect(output.status == 3)
    let line = try #require(output.lines.first)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    let result = try #require(object["result"] as? [String: Any])
    #expect(result["complete"] as? Bool == false)
    #expect(result["bounded"] as? Bool == true)
    #expect(result["passed"] as? Bool == true)
    let scope = try #require(result["scope"] as? [String: Any])
    #expect(scope["entries"] as? Int == 1)
    #expect(scope["held"] as? Int == 1)
    #expect(scope["max_depth"] as? Int == 1)
    let configurations = try #require(scope["configurations"] as? [String])
    #expect(configurations.count == 16)
    #expect(configurations.first == "preload, retry off, threshold 3000ms, watchdog 10000ms")
    #expect(configurations.last == "no preload, retry standard, threshold 0ms, watchdog 1000ms")
    let classes = try #require(result["configurations"] as? [[String: Any]])
    #expect(classes.count == 16)
    // From idle: 12 new states, 4 more where a sleep timer is armed, the idle player
    // restored (a relaunch or a hand-off), and 3 of volume's (at 0.5, muted, ducked).
    #expect(classes[0]["states"] as? Int == 21)
    #expect(classes[0]["fixpoint"] as? Bool == false)
  }

  @Test func withoutQuietEachClassIsReportedAsItEnds() throws {
    let output = try CLI.run(["explore", "--entries", "1", "--depth", "1", "--json"])
    #expect(output.status == 3)
    let objects = try output.lines.filter { !$0.isEmpty }.map { line in
      try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }
    // Each class's end, in the scope's order (one class at a time), then the result.
    let ended = objects.compactMap {
      ($0["progress"] as? [String: Any])?["ended"] as? [String: Any]
    }
    #expect(ended.compactMap { $0["class"] as? Int } == Array(1...16))
    #expect(ended.allSatisfy { $0["of"] as? Int == 16 })
    #expect(
      ended.first?["configuration"] as? String
        == "preload, retry off, threshold 3000ms, watchdog 10000ms")
    #expect(ended.first?["states"] as? Int == 21)
    #expect(ended.first?["complete"] as? Bool == false)
    #expect(objects.last?["result"] != nil)
  }

  @Test func maxStatesStopsAClassNotCompleteWithExitStatus3() throws {
    let output = try CLI.run([
      "explore", "--entries", "1", "--held", "0", "--features", "none", "--max-states", "50",
      "--quiet",
    ])
    #expect(output.status == 3)
    #expect(
      output.lines.contains(
        "not complete: no preload, retry off, threshold 3000ms, watchdog 10000ms: the state "
          + "limit (50) was reached inside level 3, 57 states found"))
    let json = try CLI.run([
      "explore", "--entries", "1", "--held", "0", "--features", "none", "--max-states", "50",
      "--json", "--quiet",
    ])
    let line = try #require(json.lines.first)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    let scope = try #require((object["result"] as? [String: Any])?["scope"] as? [String: Any])
    #expect(scope["max_states"] as? Int == 50)
    // Without --entries there is no scope to bound.
    let alone = try CLI.run(["explore", "--max-states", "50"])
    #expect(alone.status == 2)
    #expect(alone.stderr.contains("'--max-states' of 'explore' needs '--entries'"))
  }

  @Test func heldNeedsEntries() throws {
    let output = try CLI.run(["explore", "--held", "1"])
    #expect(output.status == 2)
    #expect(output.stderr == "player-sim: '--held' of 'explore' needs '--entries'\n")
  }

  @Test func featuresNeedAKnownNameWithOrWithoutEntries() throws {
    // Without --entries the depth-bounded search takes the features too (review 2026-12-06,
    // item 6): the core alone has no preloading engine.
    let alone = try CLI.run(["explore", "--depth", "1", "--features", "none", "--quiet"])
    #expect(alone.status == 0, "\(alone.stderr)")
    #expect(
      alone.lines.first?.hasPrefix(
        "explore Player on an engine that does not preload: depth 1, ") == true, "\(alone.stdout)")
    let badAlone = try CLI.run(["explore", "--features", "queu"])
    #expect(badAlone.status == 2)
    #expect(
      badAlone.stderr.hasPrefix(
        "player-sim: bad value 'queu' for '--features' of 'explore'; unknown feature 'queu'"))
    let bad = try CLI.run(["explore", "--entries", "1", "--features", "bogus"])
    #expect(bad.status == 2)
    #expect(
      bad.stderr
        == "player-sim: bad value 'bogus' for '--features' of 'explore'; unknown feature 'bogus'; "
        + "expected a comma-separated subset of queue, preload, system, network, controls, restore, sleepTimer, volume, fade, crossfade, live (or none)\n"
    )
  }

  @Test func jobsNeedEntriesAndAWholeNumber() throws {
    let alone = try CLI.run(["explore", "--jobs", "2"])
    #expect(alone.status == 2)
    #expect(alone.stderr == "player-sim: '--jobs' of 'explore' needs '--entries'\n")
    let zero = try CLI.run(["explore", "--entries", "1", "--jobs", "0"])
    #expect(zero.status == 2)
    #expect(
      zero.stderr
        == "player-sim: bad value '0' for '--jobs' of 'explore'; expected a whole number from 1 to 64\n"
    )
  }

  /// Classes searched at once give what they give in turn: the same lines,
  /// the classes in the scope's order (the times aside).
  @Test func jobsGiveTheSameResultAsOneClassAtATime() throws {
    let arguments = [
      "explore", "--entries", "1", "--held", "0", "--features", "none", "--depth", "3", "--quiet",
    ]
    let inTurn = try CLI.run(arguments)
    let atOnce = try CLI.run(arguments + ["--jobs", "2"])
    #expect(inTurn.status == 3)
    #expect(atOnce.status == 3)
    // "…: 324 states, 4238 transitions, depth 3, 1198 probes, 1 replays, 1.881 s, …": all but the time.
    func timeless(_ lines: [String]) -> [String] {
      lines.map { $0.replacing(/[0-9.]+ s\b/, with: "T s") }
    }
    #expect(timeless(atOnce.lines) == timeless(inTurn.lines))
    let classes = atOnce.lines.filter { $0.hasPrefix("  no preload, retry off, threshold ") }
    #expect(classes.count == 2)
    #expect(
      classes.first?.hasPrefix("  no preload, retry off, threshold 3000ms, watchdog 10000ms: ")
        == true)
  }

  @Test func theJSONScopeNamesTheFeatures() throws {
    let output = try CLI.run([
      "explore", "--entries", "1", "--held", "0", "--features", "none", "--depth", "1", "--quiet",
      "--json",
    ])
    #expect(output.status == 3, "\(output.stderr.prefix(300))")
    let line = try #require(output.lines.first)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    let result = try #require(object["result"] as? [String: Any])
    let scope = try #require(result["scope"] as? [String: Any])
    #expect(scope["features"] as? String == "none")
    #expect((scope["configurations"] as? [String])?.count == 2)
    #expect(result["complete"] as? Bool == false)
  }

  // MARK: --shard and --merge (issue 39, item 4c)

  /// The `{"result":{…}}` line of `explore --json` as `--merge` reads it, for one shard.
  static func shardLine(
    _ index: Int, of count: Int, complete: Bool = true, passed: Bool = true, states: Int = 100,
    entries: Int = 2, verdict: String? = nil
  ) -> String {
    let verdictText = verdict ?? (complete ? "complete for …" : "not complete: time ran out")
    return #"{"result":{"command":"explore","subject":"Player","complete":\#(complete),"#
      + #""bounded":false,"scope":{"entries":\#(entries),"held":0,"configurations":["class \#(index)"],"#
      + #""features":"queue","max_depth":null,"max_states":null,"seconds":null},"#
      + #""shard":{"index":\#(index),"count":\#(count),"classes":\#(count)},"#
      + #""verdict":"\#(verdictText)","states":\#(states),"transitions":\#(states * 10),"#
      + #""seconds":1.5,"fingerprint_collision_probability":"1e-30","configurations":[],"#
      + #""unreached":[],"passed":\#(passed)}}"#
  }

  static func merge(_ lines: [String?], json: Bool = false) throws -> CLI.Output {
    var files: [String] = []
    for (index, line) in lines.enumerated() {
      let text = (line.map { #"{"progress":{"elapsed":1}}"# + "\n" + $0 + "\n" }) ?? ""
      files.append(try CLI.scratchFile("shard-\(index).jsonl", Data(text.utf8)))
    }
    return try CLI.run(["explore", "--merge"] + files + (json ? ["--json"] : []))
  }

  @Test func theMergeIsCompleteOnlyWithEveryShardComplete() throws {
    let all = try Self.merge([Self.shardLine(0, of: 2), Self.shardLine(1, of: 2, states: 23)])
    #expect(all.status == 0, "\(all.stdout)\(all.stderr)")
    #expect(
      all.lines.first?.hasPrefix("explore --merge: 2 of 2 shards, subject Player, entries 2")
        == true)
    #expect(
      all.lines.contains(
        "total: 123 states, 1230 transitions, 2 of 2 configuration classes, 3.0 s (the shards' "
          + "own times, summed)"), "\(all.stdout)")
    #expect(
      all.lines.last(where: { !$0.isEmpty })?.hasPrefix(
        "complete: every shard complete, 2 configuration classes") == true)

    let missing = try Self.merge([Self.shardLine(1, of: 3), Self.shardLine(0, of: 3)])
    #expect(missing.status == 3)
    #expect(missing.lines.last(where: { !$0.isEmpty }) == "not complete: shard 2/3 missing")

    let open = try Self.merge([Self.shardLine(0, of: 2), Self.shardLine(1, of: 2, complete: false)])
    #expect(open.status == 3)
    #expect(
      open.lines.last(where: { !$0.isEmpty })
        == "not complete: shard 1/2: not complete: time ran out")

    // A shard that never printed its result (killed, out of time on the CI runner).
    let unfinished = try Self.merge([Self.shardLine(0, of: 2), nil])
    #expect(unfinished.status == 3)
    #expect(unfinished.lines.last(where: { !$0.isEmpty })?.hasPrefix("not complete: ") == true)
    #expect(
      unfinished.lines.last(where: { !$0.isEmpty })?.hasSuffix(
        "has no explore result line (the shard did not finish, or is not --json)") == true)

    let failed = try Self.merge(
      [
        Self.shardLine(0, of: 2, passed: false, verdict: "not complete: a property broke in X"),
        Self.shardLine(1, of: 2),
      ], json: true)
    #expect(failed.status == 1)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data((failed.lines.first ?? "").utf8))
        as? [String: Any])
    let result = try #require(object["result"] as? [String: Any])
    #expect(result["complete"] as? Bool == false)
    #expect(result["passed"] as? Bool == false)
    #expect(result["states"] as? Int == 200)
    #expect(
      result["verdict"] as? String == "FAILED: shard 0/2: not complete: a property broke in X")
  }

  @Test func theMergeRefusesShardsOfTwoSearchesOrOneShardTwice() throws {
    let twice = try Self.merge([Self.shardLine(0, of: 2), Self.shardLine(0, of: 2)])
    #expect(twice.status == 2)
    #expect(
      twice.stderr.contains("are both shard 0/2; expected each shard once"), "\(twice.stderr)")
    let other = try Self.merge([Self.shardLine(0, of: 2), Self.shardLine(1, of: 2, entries: 1)])
    #expect(other.status == 2)
    #expect(other.stderr.contains("expected the shards of one search"), "\(other.stderr)")
    let none = try CLI.run(["explore", "--merge"])
    #expect(none.status == 2)
    #expect(
      none.stderr
        == "player-sim: '--merge' of 'explore' needs the shards' result files; expected explore --merge FILE...\n"
    )
    let withEntries = try CLI.run(["explore", "--merge", "--entries", "1", "x"])
    #expect(withEntries.stderr == "player-sim: '--entries' of 'explore' cannot go with '--merge'\n")
    let operand = try CLI.run(["explore", "x"])
    #expect(operand.status == 2)
    #expect(
      operand.stderr == "player-sim: unexpected argument 'x' for 'explore'; expected flags only\n")
  }

  @Test func aShardMustBeOneOfTheClassesOrAPartOfOne() throws {
    let tooMany = try CLI.run(
      ["explore", "--entries", "1", "--features", "none", "--shard", "0/129"])
    #expect(tooMany.status == 2)
    #expect(
      tooMany.stderr
        == "player-sim: bad value '0/129' for '--shard' of 'explore'; this scope has 2 configuration "
        + "classes and a class is split into at most 64 parts: N must be at most 128\n")
    let noFile = try CLI.run(["explore", "--entries", "1", "--features", "none", "--shard", "0/3"])
    #expect(noFile.status == 2)
    #expect(
      noFile.stderr
        == "player-sim: --shard 0/3 of 'explore' splits a class (2 configuration classes): it needs "
        + "--states FILE, where it writes the states it found for --merge\n")
    let notSplit = try CLI.run(
      ["explore", "--entries", "1", "--features", "none", "--shard", "0/2", "--split-depth", "2"])
    #expect(notSplit.status == 2)
    #expect(
      notSplit.stderr
        == "player-sim: '--split-depth' of 'explore' needs a --shard I/N that splits a class (N "
        + "above the scope's 2 configuration classes)\n")
    let bad = try CLI.run(["explore", "--entries", "1", "--shard", "2/2"])
    #expect(bad.status == 2)
    #expect(
      bad.stderr.hasPrefix("player-sim: bad value '2/2' for '--shard' of 'explore'; expected I/N"))
    let alone = try CLI.run(["explore", "--shard", "0/2"])
    #expect(alone.stderr == "player-sim: '--shard' of 'explore' needs '--entries'\n")
  }

  /// Both shards of a real search, merged: their states add up to the unsharded search's.
  @Test func theShardsOfARealSearchAddUpToTheWhole() throws {
    let arguments = [
      "explore", "--entries", "1", "--held", "0", "--features", "none", "--depth", "2", "--quiet",
      "--json",
    ]
    let whole = try CLI.run(arguments)
    let wholeResult = try #require(
      (try JSONSerialization.jsonObject(
        with: Data((whole.lines.last(where: { !$0.isEmpty }) ?? "").utf8))
        as? [String: Any])?["result"] as? [String: Any])
    #expect(wholeResult["states"] as? Int == 102)
    let shards = try (0..<2).map { try CLI.run(arguments + ["--shard", "\($0)/2"]) }
    #expect(shards.allSatisfy { $0.status == 3 })
    let merged = try Self.merge(shards.map { $0.lines.last(where: { !$0.isEmpty }) }, json: true)
    #expect(merged.status == 3)
    let result = try #require(
      (try JSONSerialization.jsonObject(with: Data((merged.lines.first ?? "").utf8))
        as? [String: Any])?["result"] as? [String: Any])
    #expect(result["states"] as? Int == wholeResult["states"] as? Int)
    #expect(result["transitions"] as? Int == wholeResult["transitions"] as? Int)
    #expect(result["classes_searched"] as? Int == 2)
    #expect(result["complete"] as? Bool == false)
  }

  /// Four shards of a two-class scope: each class split in two parts at level 2. Their merge
  /// counts the union of the parts' states: exactly the unsharded search's states and
  /// transitions (bounded by --depth, so not complete: no search here is); without one part's
  /// states file, or without a shard, it says which is missing.
  @Test func thePartsOfSplitClassesMergeToTheWholeSearch() throws {
    let arguments = [
      "explore", "--entries", "1", "--held", "0", "--features", "none", "--depth", "4", "--quiet",
      "--json",
    ]
    func result(_ output: CLI.Output) throws -> [String: Any] {
      try #require(
        (try JSONSerialization.jsonObject(
          with: Data((output.lines.last(where: { !$0.isEmpty }) ?? "").utf8))
          as? [String: Any])?["result"] as? [String: Any])
    }
    let whole = try result(try CLI.run(arguments))
    #expect(whole["states"] as? Int == 1_170)
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "player-sim-split-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    var files: [String] = []
    for index in 0..<4 {
      let states = directory.appendingPathComponent("shard-\(index).states").path
      let shard = try CLI.run(
        arguments + ["--shard", "\(index)/4", "--split-depth", "2", "--states", states])
      #expect(shard.status == 3, "\(shard.stderr)")
      let part = try #require(try result(shard)["partition"] as? [String: Any])
      #expect(part["part"] as? Int == index / 2)
      #expect(part["parts"] as? Int == 2)
      let file = directory.appendingPathComponent("shard-\(index).jsonl").path
      try Data(shard.stdout.utf8).write(to: URL(fileURLWithPath: file))
      files.append(file)
    }
    let merged = try CLI.run(["explore", "--merge"] + files + ["--json"])
    #expect(merged.status == 3)
    let total = try result(merged)
    #expect(total["states"] as? Int == whole["states"] as? Int)
    #expect(total["transitions"] as? Int == whole["transitions"] as? Int)
    #expect(total["complete"] as? Bool == false)
    // A part's states file gone: that shard is unfinished, whatever the others say.
    try FileManager.default.removeItem(
      atPath: directory.appendingPathComponent("shard-3.states").path)
    let lost = try CLI.run(["explore", "--merge"] + files)
    #expect(lost.status == 3)
    #expect(lost.stdout.contains("names the states file"), "\(lost.stdout)")
    #expect(lost.lines.last(where: { !$0.isEmpty })?.hasPrefix("not complete: ") == true)
    let missing = try CLI.run(["explore", "--merge"] + files.prefix(3))
    #expect(missing.lines.last(where: { !$0.isEmpty }) == "not complete: shard 3/4 missing")
  }
}
