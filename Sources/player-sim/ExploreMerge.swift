import Foundation
import PlayerFuzz
import PlayerSimulation

/// `player-sim explore --merge FILE...`: the results of the shards of one
/// scope (`explore --entries N --shard I/N --json`, one file each), summed,
/// and a verdict that says `complete` only when every shard is there and
/// complete.
extension ExploreCommand {
  /// One shard's `{"result":{…}}` line, as `--merge` reads it.
  struct ShardResult {
    let file: String
    let index: Int
    let count: Int
    /// The whole scope's configuration classes.
    let classes: Int
    /// The subject and the scope (entries, held, features): equal for every
    /// shard of one search.
    let scope: String
    let configurations: [String]
    let complete: Bool
    let passed: Bool
    let states: Int
    let transitions: Int
    let seconds: Double
    let verdict: String
    let collisionProbability: Double?
    /// The part of its class a shard searched (more shards than classes), and
    /// the file of its states, as found next to the result file or as written.
    var partition: (part: Int, parts: Int, depth: Int, file: String)?
  }

  /// The union of the parts of one class: the exact states and transitions.
  struct ClassUnion {
    var configuration: String
    var parts: Int
    var states: Int
    var transitions: Int
    /// States found and extended by no part (a part missing or not complete).
    var notExtended: Int
    /// The states the parts found, summed: the union and the overlap.
    var found: Int
  }

  /// What the shards given add up to.
  struct Merged {
    var shards: [ShardResult]
    /// Files that hold no result (a shard that did not finish), with why.
    var unfinished: [(file: String, why: String)]
    var count: Int
    var classes: Int
    /// The classes split into parts, each counted as the union of its parts' states.
    var unions: [ClassUnion] = []
    var missing: [Int] { Array(Set(0..<count).subtracting(shards.map(\.index))).sorted() }
    var states: Int {
      shards.filter { $0.partition == nil }.reduce(0) { $0 + $1.states }
        + unions.reduce(0) { $0 + $1.states }
    }
    var transitions: Int {
      shards.filter { $0.partition == nil }.reduce(0) { $0 + $1.transitions }
        + unions.reduce(0) { $0 + $1.transitions }
    }
    var seconds: Double { shards.reduce(0) { $0 + $1.seconds } }
    var searched: Int { Set(shards.flatMap(\.configurations)).count }
    var passed: Bool { shards.allSatisfy(\.passed) }
    var complete: Bool {
      passed && unfinished.isEmpty && missing.isEmpty && searched == classes
        && shards.allSatisfy(\.complete) && unions.allSatisfy { $0.notExtended == 0 }
    }
    var collisionProbability: Double? {
      let each = shards.compactMap(\.collisionProbability)
      return each.isEmpty ? nil : min(1, each.reduce(0, +))
    }

    /// `complete for …`, or the first reason it is not.
    var verdict: String {
      if let failed = shards.first(where: { !$0.passed }) {
        return "FAILED: shard \(failed.index)/\(failed.count): \(failed.verdict)"
      }
      if let first = unfinished.first {
        return "not complete: \(first.file) \(first.why)"
      }
      if !missing.isEmpty {
        let list = missing.map { "\($0)/\(count)" }.joined(separator: ", ")
        return "not complete: shard\(missing.count == 1 ? "" : "s") \(list) missing"
      }
      if let open = shards.first(where: { !$0.complete }) {
        return "not complete: shard \(open.index)/\(open.count): \(open.verdict)"
      }
      if searched != classes {
        return "not complete: the shards searched \(searched) of \(classes) configuration classes"
      }
      if let open = unions.first(where: { $0.notExtended > 0 }) {
        return "not complete: \(open.notExtended) states of \(open.configuration) were extended by "
          + "no part"
      }
      return "complete: every shard complete, \(classes) configuration classes of "
        + (shards.first?.scope ?? "the scope")
    }
  }

  /// Reads every file, checks they are shards of one search, and prints the verdict.
  static func merge(_ parsed: Arguments) throws(UsageError) -> ExitStatus {
    if let flag = parsed.values.keys.sorted().first {
      throw UsageError(message: "'\(flag)' of 'explore' cannot go with '--merge'")
    }
    guard !parsed.operands.isEmpty else {
      throw UsageError(
        message:
          "'--merge' of 'explore' needs the shards' result files; expected explore --merge FILE...")
    }
    let merged = try merge(files: parsed.operands)
    if parsed.has("--json") {
      Terminal.out(json(merged))
    } else {
      for line in report(merged) { Terminal.out(terminalSafe(line, keepingNewlines: false)) }
    }
    if !merged.passed { return .failure }
    return merged.complete ? .success : .bounded
  }

  /// The shards in `files`, checked to be of one search (else a usage error naming the file).
  static func merge(files: [String]) throws(UsageError) -> Merged {
    var shards: [ShardResult] = []
    var unfinished: [(file: String, why: String)] = []
    for file in files {
      guard let data = FileManager.default.contents(atPath: file) else {
        throw UsageError(message: "cannot read \(Arguments.quoted(file)) for 'explore --merge'")
      }
      guard let result = try shardResult(data, file: file) else {
        unfinished.append(
          (file, "has no explore result line (the shard did not finish, or is not --json)"))
        continue
      }
      if let first = shards.first {
        guard result.count == first.count, result.classes == first.classes,
          result.scope == first.scope
        else {
          throw UsageError(
            message:
              "\(Arguments.quoted(file)) is shard \(result.index)/\(result.count) of \(result.scope); "
              + "\(Arguments.quoted(first.file)) is \(first.index)/\(first.count) of \(first.scope): "
              + "expected the shards of one search")
        }
        if let same = shards.first(where: { $0.index == result.index }) {
          throw UsageError(
            message:
              "\(Arguments.quoted(file)) and \(Arguments.quoted(same.file)) are both shard "
              + "\(result.index)/\(result.count); expected each shard once")
        }
      }
      shards.append(result)
    }
    let count = shards.first?.count ?? 1
    var merged = Merged(
      shards: shards.sorted { $0.index < $1.index }, unfinished: unfinished, count: count,
      classes: shards.first?.classes ?? 0)
    merged.unions = try unions(of: merged.shards, unfinished: &merged.unfinished)
    return merged
  }

  /// The classes split into parts, each the union of the states its parts wrote. A part
  /// whose file cannot be read counts as unfinished; parts of one class that divided
  /// another level, or into another number of parts, are a usage error.
  private static func unions(
    of shards: [ShardResult], unfinished: inout [(file: String, why: String)]
  ) throws(UsageError) -> [ClassUnion] {
    var byClass: [String: [ShardResult]] = [:]
    var order: [String] = []
    for shard in shards where shard.partition != nil {
      let configuration = shard.configurations.first ?? "?"
      if byClass[configuration] == nil { order.append(configuration) }
      byClass[configuration, default: []].append(shard)
    }
    var unions: [ClassUnion] = []
    for configuration in order {
      let parts = byClass[configuration] ?? []
      var states: [PartStates] = []
      for shard in parts {
        guard let partition = shard.partition, let first = parts.first?.partition else { continue }
        guard partition.depth == first.depth, partition.parts == first.parts else {
          throw UsageError(
            message:
              "\(Arguments.quoted(shard.file)) divided level \(partition.depth) into "
              + "\(partition.parts) parts; \(Arguments.quoted(parts[0].file)) level \(first.depth) "
              + "into \(first.parts): expected the parts of one split")
        }
        guard let bytes = FileManager.default.contents(atPath: partition.file),
          let read = PartStates([UInt8](bytes))
        else {
          unfinished.append(
            (
              shard.file,
              "names the states file \(Arguments.quoted(partition.file)), which cannot be read "
                + "or is not one (--states)"
            ))
          continue
        }
        states.append(read)
      }
      let union = PartStates.union(states)
      unions.append(
        ClassUnion(
          configuration: configuration, parts: parts.first?.partition?.parts ?? 0,
          states: union.states, transitions: union.transitions,
          notExtended: union.notExtended, found: states.reduce(0) { $0 + $1.count }))
    }
    return unions
  }

  /// Where a shard's states file is: next to its result file when there, else as written.
  private static func statesFile(_ written: String, besides result: String) -> String {
    let beside = URL(fileURLWithPath: result).deletingLastPathComponent()
      .appendingPathComponent(URL(fileURLWithPath: written).lastPathComponent).path
    return FileManager.default.fileExists(atPath: beside) ? beside : written
  }

  /// The last `{"result":{…}}` line of `explore --entries … --json` in `data`, or nil when
  /// there is none; a result of something else is a usage error.
  private static func shardResult(_ data: Data, file: String) throws(UsageError) -> ShardResult? {
    let text = String(decoding: data, as: UTF8.self)
    for line in text.split(separator: "\n").reversed() {
      guard line.hasPrefix("{\"result\":"),
        let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
        let result = object["result"] as? [String: Any]
      else { continue }
      guard result["command"] as? String == "explore",
        let scope = result["scope"] as? [String: Any],
        let shard = result["shard"] as? [String: Any],
        let index = shard["index"] as? Int, let count = shard["count"] as? Int,
        let classes = shard["classes"] as? Int,
        let configurations = scope["configurations"] as? [String],
        let complete = result["complete"] as? Bool, let passed = result["passed"] as? Bool,
        let states = result["states"] as? Int, let transitions = result["transitions"] as? Int
      else {
        throw UsageError(
          message:
            "\(Arguments.quoted(file)) holds a result that is not of 'explore --entries N --json'; "
            + "expected one shard's output")
      }
      // What makes two results shards of one search. Not the limits (--max-states defaults
      // to half of each machine's memory, --seconds may differ per runner): a shard they
      // stopped is not complete, and the merge says so.
      var key = ["subject \(result["subject"] as? String ?? "?")"]
      for name in ["entries", "held", "features", "reach"] {
        key.append("\(name) \(scope[name].map { "\($0)" } ?? "none")")
      }
      var partition: (part: Int, parts: Int, depth: Int, file: String)?
      if let part = result["partition"] as? [String: Any] {
        guard let index = part["part"] as? Int, let parts = part["parts"] as? Int,
          let depth = part["depth"] as? Int, let written = part["states_file"] as? String
        else {
          throw UsageError(
            message:
              "\(Arguments.quoted(file)) holds a partition that is not 'explore --shard' output; "
              + "expected part, parts, depth and states_file")
        }
        partition = (index, parts, depth, statesFile(written, besides: file))
      }
      return ShardResult(
        file: file, index: index, count: count, classes: classes,
        scope: key.joined(separator: ", "), configurations: configurations, complete: complete,
        passed: passed, states: states, transitions: transitions,
        seconds: result["seconds"] as? Double ?? 0, verdict: result["verdict"] as? String ?? "",
        collisionProbability: (result["fingerprint_collision_probability"] as? String).flatMap {
          Double($0)
        }, partition: partition)
    }
    return nil
  }

  /// The merge in words: a line per shard, the totals and the verdict.
  static func report(_ merged: Merged) -> [String] {
    var lines = [
      "explore --merge: \(merged.shards.count) of \(merged.count) shards"
        + (merged.shards.first.map { ", \($0.scope)" } ?? "")
    ]
    for shard in merged.shards {
      lines.append(
        "  shard \(shard.index)/\(shard.count) (\(shard.file)): \(shard.configurations.count) "
          + "classes, \(shard.states) states, \(shard.transitions) transitions, "
          + "\(seconds(shard.seconds)) s, "
          + (shard.complete ? "complete" : shard.verdict))
    }
    for file in merged.unfinished { lines.append("  \(file.file): \(file.why)") }
    for union in merged.unions {
      lines.append(
        "  \(union.configuration): \(union.parts) parts, \(union.states) distinct states "
          + "(\(union.found) found by the parts, summed), \(union.transitions) transitions")
    }
    lines.append(
      "total: \(merged.states) states, \(merged.transitions) transitions, \(merged.searched) of "
        + "\(merged.classes) configuration classes, \(seconds(merged.seconds)) s "
        + "(the shards' own times, summed)")
    if let probability = merged.collisionProbability {
      lines.append(
        "fingerprint collision probability, summed over the shards: \(String(probability))")
    }
    lines.append(merged.verdict)
    return lines
  }

  /// `1.5`: seconds to the millisecond, as the explorer's own lines print them.
  private static func seconds(_ value: Double) -> String { String((value * 1000).rounded() / 1000) }

  /// The merge's `{"result":{…}}` line.
  static func json(_ merged: Merged) -> String {
    JSONValue.line(
      "result",
      [
        ("command", .string("explore --merge")), ("complete", .bool(merged.complete)),
        ("passed", .bool(merged.passed)), ("shards", .int(merged.count)),
        ("present", .array(merged.shards.map { .int($0.index) })),
        ("missing", .array(merged.missing.map { .int($0) })),
        ("unfinished", .array(merged.unfinished.map { .string($0.file) })),
        ("classes", .int(merged.classes)), ("classes_searched", .int(merged.searched)),
        ("states", .int(merged.states)), ("transitions", .int(merged.transitions)),
        ("seconds", .double(merged.seconds)),
        (
          "fingerprint_collision_probability",
          merged.collisionProbability.map { .string(String($0)) } ?? .null
        ),
        ("verdict", .string(merged.verdict)),
      ])
  }
}
