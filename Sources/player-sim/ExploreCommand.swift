import Dispatch
import Foundation
import PlayerEngine
import PlayerFuzz
import PlayerSimulation

/// `player-sim explore`: every event sequence up to a depth, breadth first,
/// checked against the contract model (a thin front end over `Explorer`);
/// with `--entries N`, every sequence of any length over queues of at most N
/// entries in every configuration class, to a fixpoint.
enum ExploreCommand: Command {
  static let flags: [FlagSpec] = [
    .option(
      "--entries", "N",
      "every sequence, any length, for queues of at most N entries, every configuration class"),
    .option("--held", "H", "with --entries: at most H held-back reports at once (1)"),
    .option(
      "--features", "LIST",
      "only these of queue, preload, system, network, controls, restore, sleepTimer, volume, fade, crossfade, live (none: one item at a time)"
    ),
    .option(
      "--reach", "LIST",
      "with --entries: also removeBefore, shuffleDraw, atDuration, nearExhaustion (or all)"),
    .option(
      "--jobs", "N",
      "with --entries: search N configuration classes at once, one thread each (1)"),
    .option(
      "--max-states", "N",
      "with --entries: stop a class at N states, not complete (default: half the memory)"),
    .option(
      "--shard", "I/N",
      "with --entries: search only the configuration classes whose place is I modulo N, or, with more shards than classes, a part of one class"
    ),
    .option(
      "--split-depth", "D",
      "with a --shard that splits a class: the level whose states the class's parts divide (3)"),
    .option(
      "--states", "FILE",
      "with a --shard that splits a class: write the states this part found to FILE, for --merge (a shard of whole classes writes none)"
    ),
    .toggle(
      "--merge", "read the --json results of every shard (FILE...) and say if the scope is complete"
    ),
    .option("--depth", "N", "the longest sequence explored (3 without --entries; none with it)"),
    .option("--seconds", "S", "stop after S seconds and say how deep the search got"),
    .option("--subject", "NAME", "player (default), or a deliberately broken player"),
    .toggle(
      "--unreached", "list each declared transition never reached (by default, only their count)"),
    .toggle("--json", "JSON lines on standard output: progress, failure, result"),
    .toggle("--quiet", "no progress on standard error"),
  ]

  static let help = CommandHelp(
    name: "explore",
    summary: "check every event sequence up to a depth against the contract model",
    usage:
      "explore [--entries N [--held H] [--reach LIST] [--jobs N] [--max-states N] [--shard I/N [--split-depth D] [--states FILE]]] [--features LIST] [--depth N] [--seconds S] [--subject NAME] [--unreached] [--json] [--quiet]\n       player-sim explore --merge FILE... [--json]",
    flags: flags,
    details: [
      "With --entries N: small-scope model checking. States are merged on a canonical snapshot",
      "(identities renamed by role, times by class); queues stay within N entries, at most H",
      "reports are held back, and each of 16 configuration classes (an engine that preloads",
      "or not; retry off, 1 attempt, cap reached, standard; previous threshold 3 s with a",
      "10 s watchdog, or 0 with 1 s) is searched to its fixpoint: 'complete for queues ≤ N,",
      "…', or exactly why not. Merged states are checked to behave alike on every letter.",
      "--depth and --seconds still bound it when given (exit status 3 when they stop it with",
      "nothing broken). With --features LIST (with or without --entries) only those parts of",
      "the contract are explored (letters and configuration classes outside them are left",
      "out), for a player that does only part of it. Declared transitions a complete search did",
      "not reach are outside the scope: counted (listed with --unreached), not a failure.",
      "--jobs N searches N classes at once (the same result,",
      "in about 1/N of the time on N free cores, with the memory of N searches). A class's",
      "search holds about 100 bytes a state and 5 MB (its rows past 1 MB go to a temporary",
      "file): --max-states N stops it at N states, not complete; by default N is half this",
      "machine's memory (divided among the --jobs) at 256 bytes a state.",
      "--shard I/N searches only the classes whose place in the scope is I modulo N: N workers",
      "(0/N to N-1/N, on as many machines) cover the scope exactly, a class each; save each",
      "one's --json output and 'explore --merge FILE...' says 'complete' only when every shard",
      "is there and complete, with the states summed (exit status 3 when one is missing).",
      "With N above the classes, shard I takes class I modulo C (C classes) and part I / C of",
      "it: every part extends the first D levels (--split-depth, 3) in full, then only the",
      "states at level D whose fingerprint modulo the class's parts is its own, and all it",
      "finds from them; --states FILE keeps the states it found (16 bytes each and its",
      "transitions), and --merge, given the --json outputs, reads the files named in them",
      "(next to each output, or as written) and counts their union: the exact total. Parts",
      "of one class overlap where their states lead to the same ones: the union is exact, the",
      "work is not divided evenly.",
      "--reach LIST adds what the standard letters cannot reach: removeBefore (three entries",
      "from the middle one), shuffleDraw (three entries: a shuffle that draws), atDuration",
      "(setPosition exactly at the duration), nearExhaustion (each class again from start",
      "states whose ids are near their last).",
      "Without --entries:",
      "The alphabet holds every event kind, failure reason and identity (current, preload,",
      "earlier, dropped, the load the next intent creates, never issued, wrong item),",
      "re-entrant bursts and up to 2 held-back reports. States are merged only on a snapshot",
      "the player vouches for (FuzzTarget.snapshot; Player has one, the deliberately broken",
      "players do not and are searched unmerged). A search is complete only when merged and a",
      "level finds no new state; otherwise it is bounded at its depth: every sequence up to",
      "the depth checked. With the queue no useful depth is complete. Exit status 1 when a",
      "property breaks, or when a complete search left a declared transition unreached;",
      "3 (bounded) when --seconds ran out before the depth with no property broken.",
    ],
    example: [
      "player-sim explore --entries 2", "player-sim explore --entries 1 --features none",
      "player-sim explore --depth 4",
      "player-sim explore --depth 4 --subject stopNotSent",
      "player-sim explore --entries 2 --shard 0/2 --json > shard-0.jsonl",
      "player-sim explore --merge shard-0.jsonl shard-1.jsonl",
      "player-sim explore --entries 1 --features none --shard 3/4 --states shard-3.states --json > shard-3.jsonl",
    ])

  /// Operands: the shard results `--merge` reads; none otherwise.
  static var takesOperands: Bool { true }

  static func run(_ parsed: Arguments) throws(UsageError) -> ExitStatus {
    if parsed.has("--merge") { return try merge(parsed) }
    try parsed.noOperands()
    if let entries = try parsed.integer("--entries", in: 1...8) {
      return try runScope(parsed, entries: entries)
    }
    for flag in [
      "--held", "--reach", "--jobs", "--max-states", "--shard", "--split-depth", "--states",
    ]
    where parsed.values[flag] != nil {
      throw UsageError(message: "'\(flag)' of 'explore' needs '--entries'")
    }
    // 3 by default: the alphabet (187 letters) grows each level about
    // fifteenfold; see docs/fuzzing.md for the release figures.
    let depth = try parsed.integer("--depth", in: 1...64) ?? 3
    let seconds = try parsed.seconds(
      "--seconds", suffix: nil,
      expected: "plain decimal seconds above 0, such as 30 or 0.5")
    let features = try FuzzCommand.features(parsed, of: "explore")
    let subject = try FuzzCommand.subject(parsed)
    let json = parsed.has("--json")
    guard
      let exploration = exploreWithProgress(
        subject, depth: depth, seconds: seconds, features: features, quiet: parsed.has("--quiet"),
        json: json)
    else {
      // Unreachable: the worker stores its result before it signals.
      Terminal.error("player-sim: the explorer finished without a result")
      return .usage
    }
    // Cut short by --seconds before the depth, with nothing broken: not a
    // failure (unreached rows are expected), not a pass either.
    let bounded =
      seconds != nil && exploration.counterexample == nil && !exploration.complete
      && exploration.depth < depth
    let passed = Self.passed(exploration)
    if json {
      if let failure = exploration.counterexample { Terminal.out(JSONValue.failure(failure)) }
      Terminal.out(Self.json(exploration, maxDepth: depth, bounded: bounded))
    } else {
      let report = exploration.report(listingUnreached: parsed.has("--unreached"))
      Terminal.out(terminalSafe(report, keepingNewlines: true))
      if passed, !bounded, !exploration.complete {
        Terminal.out(
          "passed, bounded: no property broke in any sequence of at most \(exploration.depth) "
            + "letters; not a proof beyond that depth"
            + (exploration.unreached.isEmpty
              ? "" : " (the unreached rows counted above may need longer sequences)"))
      }
      if bounded {
        Terminal.out(
          "bounded: --seconds ran out after depth \(exploration.depth) of \(depth); no property broke "
            + "(exit status 3; unreached rows are expected below the requested depth)")
      }
    }
    if bounded { return .bounded }
    return passed ? .success : .failure
  }

  /// The verdict, ``Exploration/passed``: a counterexample fails; a declared
  /// transition never reached fails only a complete search.
  static func passed(_ exploration: Exploration) -> Bool { exploration.passed }

  /// The `{"result":{…}}` line of an exploration.
  static func json(_ exploration: Exploration, maxDepth: Int, bounded: Bool) -> String {
    JSONValue.line(
      "result",
      [
        ("command", .string("explore")), ("subject", .string(exploration.subject)),
        ("depth", .int(exploration.depth)), ("max_depth", .int(maxDepth)),
        ("complete", .bool(exploration.complete)), ("bounded", .bool(bounded)),
        ("merged", .bool(exploration.merged)), ("alphabet", .int(exploration.alphabet)),
        ("unsent", .int(exploration.coverage.unsent.count)),
        ("states", .int(exploration.states)), ("transitions", .int(exploration.transitions)),
        ("sequences", .int(exploration.sequences)), ("seconds", .double(exploration.seconds)),
        (
          "fingerprint_collision_probability",
          exploration.collisionProbability.map { .string(String($0)) } ?? .null
        ),
        ("unreached", .array(exploration.unreached.map { .string("\($0)") })),
        ("passed", .bool(passed(exploration))),
      ])
  }

  /// Runs the search on another thread and reports elapsed time every second:
  /// the explorer itself reports only at the end.
  private static func exploreWithProgress(
    _ subject: FuzzSubject, depth: Int, seconds: Double?, features: FuzzFeatures, quiet: Bool,
    json: Bool
  ) -> Exploration? {
    withProgress("exploring \(subject.name) up to depth \(depth)", quiet: quiet, json: json) {
      Explorer.explore(subject, maxDepth: depth, seconds: seconds, features: features)
    }
  }

  /// Runs `work` on another thread and reports progress every second: elapsed
  /// time and, given `classes`, each configuration class being searched, with
  /// a line that stays for each class as it ends.
  private static func withProgress<Result: Sendable>(
    _ what: String, quiet: Bool, json: Bool, classes: ClassProgress? = nil,
    _ work: @escaping @Sendable () -> Result
  ) -> Result? {
    let box = ResultBox<Result>()
    let done = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      let result = work()
      box.result.withLock { $0 = result }
      done.signal()
    }
    let progress = Progress(quiet: quiet, unit: "levels", found: "failures found", json: json)
    func noteEnded() -> [ExplorationProgress] {
      guard let classes else { return [] }
      let (running, ended) = classes.take()
      for class_ in ended {
        progress.note(class_.description, fields: [("ended", .object(fields(class_)))])
      }
      return running
    }
    while done.wait(timeout: .now() + .milliseconds(250)) == .timedOut {
      let running = noteEnded()
      if classes == nil {
        progress.tick(what)
      } else {
        progress.tick(
          what, detail: running.map(\.description).joined(separator: "; "),
          fields: [("classes", .array(running.map { .object(fields($0)) }))])
      }
    }
    _ = noteEnded()
    progress.finish()
    return box.result.withLock { $0 }
  }

  /// A class's progress as JSON fields.
  private static func fields(_ class_: ExplorationProgress) -> [(String, JSONValue)] {
    var fields: [(String, JSONValue)] = [
      ("class", .int(class_.classIndex + 1)), ("of", .int(class_.classCount)),
      ("configuration", .string(class_.configuration.description)),
      ("level", .int(class_.level)), ("states", .int(class_.states)),
      ("frontier", .int(class_.states - class_.expanded)),
      ("transitions", .int(class_.transitions)), ("seconds", .double(class_.seconds)),
    ]
    if let result = class_.result {
      fields.append(("complete", .bool(result.complete)))
      fields.append(("why_not_complete", result.whyNotComplete.map { .string($0) } ?? .null))
    }
    return fields
  }

  private final class ResultBox<Result: Sendable>: Sendable {
    let result = Locked<Result?>(nil)
  }

  /// The latest progress of each configuration class being searched, and the
  /// classes that ended since the last look: written by the searching threads,
  /// read by the thread that prints. It holds at most one entry per class.
  private final class ClassProgress: Sendable {
    private let state = Locked<(running: [Int: ExplorationProgress], ended: [ExplorationProgress])>(
      ([:], []))

    /// Records a class's progress (``Explorer/explore(_:scope:jobs:progress:)`` calls it).
    func update(_ progress: ExplorationProgress) {
      state.withLock {
        if progress.result == nil {
          $0.running[progress.classIndex] = progress
        } else {
          $0.running[progress.classIndex] = nil
          $0.ended.append(progress)
        }
      }
    }

    /// The classes running, in the scope's order, and those that ended since the last call.
    func take() -> (running: [ExplorationProgress], ended: [ExplorationProgress]) {
      state.withLock { state in
        defer { state.ended = [] }
        return (state.running.values.sorted { $0.classIndex < $1.classIndex }, state.ended)
      }
    }
  }

  // MARK: --entries

  /// `explore --entries N`: the whole scope, every configuration class, to a fixpoint.
  private static func runScope(_ parsed: Arguments, entries: Int) throws(UsageError) -> ExitStatus {
    let held = try parsed.integer("--held", in: 0...4) ?? 1
    let jobs = try parsed.integer("--jobs", in: 1...64) ?? 1
    let maxStates =
      try parsed.integer("--max-states", in: 1...1_000_000_000) ?? defaultMaxStates(jobs: jobs)
    let depth = try parsed.integer("--depth", in: 1...10_000)
    let seconds = try parsed.seconds(
      "--seconds", suffix: nil,
      expected: "plain decimal seconds above 0, such as 30 or 0.5")
    let features = try FuzzCommand.features(parsed, of: "explore")
    let subject = try FuzzCommand.subject(parsed)
    let json = parsed.has("--json")
    let whole = ExplorationScope(
      entries: entries, held: held, features: features, maxDepth: depth, seconds: seconds,
      maxStates: maxStates, reach: try reach(parsed))
    let shard = try Self.shard(parsed, classes: whole.configurations.count)
    let split = try Self.split(parsed, shard: shard, classes: whole.configurations.count)
    let scope =
      split == nil
      ? whole.shard(shard.index, of: shard.count)
      : whole.shard(shard.index % whole.configurations.count, of: whole.configurations.count)
    let classes = ClassProgress()
    let found = Locked<PartStates?>(nil)
    let partition = split.map { split in
      ClassPartition(part: split.part, parts: split.parts, depth: split.depth) { states in
        found.withLock { $0 = states }
      }
    }
    guard
      let exploration = withProgress(
        "exploring \(subject.name), queues ≤ \(entries)", quiet: parsed.has("--quiet"), json: json,
        classes: classes,
        {
          Explorer.explore(
            subject, scope: scope, forgetting: [], partition: partition, jobs: jobs,
            progress: classes.update)
        })
    else {
      Terminal.error("player-sim: the explorer finished without a result")
      return .usage
    }
    if let split {
      try Self.write(found.withLock { $0 } ?? PartStates(), to: split.file)
    }
    // Stopped by --depth or --seconds with nothing broken: bounded, not a failure.
    let bounded = !exploration.complete && exploration.passed
    if json {
      if let failure = exploration.counterexample { Terminal.out(JSONValue.failure(failure)) }
      Terminal.out(
        Self.json(
          exploration, bounded: bounded, shard: shard, classes: whole.configurations.count,
          split: split))
    } else {
      if let split {
        Terminal.out(
          "shard \(shard): part \(split.part + 1) of \(split.parts) of the class "
            + "\(scope.configurations.first?.description ?? "?"), the states of level "
            + "\(split.depth) divided by fingerprint; its states are in "
            + "\(Arguments.quoted(split.file)) (explore --merge counts their union)")
      } else if shard.count > 1 {
        Terminal.out(
          "shard \(shard): \(scope.configurations.count) of the scope's "
            + "\(whole.configurations.count) configuration classes (explore --merge sums the shards)"
        )
      }
      let report = exploration.report(listingUnreached: parsed.has("--unreached"))
      Terminal.out(terminalSafe(report, keepingNewlines: true))
    }
    if !exploration.passed { return .failure }
    return bounded ? .bounded : .success
  }

  /// `--reach LIST`: none when absent.
  private static func reach(_ parsed: Arguments) throws(UsageError) -> ExplorationReach {
    guard let text = parsed.values["--reach"] else { return [] }
    guard let reach = ExplorationReach(text) else {
      let names = ExplorationReach.named.map(\.name).joined(separator: ", ")
      throw UsageError(
        message:
          "bad value \(Arguments.quoted(text)) for '--reach' of 'explore'; expected a "
          + "comma-separated subset of \(names), or all, or none")
    }
    return reach
  }

  /// The most parts one class is split into.
  static let maxParts = 64

  /// `--shard I/N`: the whole scope when absent; at most ``maxParts`` shards per class.
  private static func shard(_ parsed: Arguments, classes: Int) throws(UsageError) -> FuzzShard {
    guard let text = parsed.values["--shard"] else { return .whole }
    let prefix = "bad value \(Arguments.quoted(text)) for '--shard' of 'explore'; "
    guard let shard = FuzzShard(text) else {
      throw UsageError(
        message: prefix
          + "expected I/N, shard I of N with 0 <= I < N, such as 0/4 (whole numbers, no sign)")
    }
    guard shard.count <= classes * maxParts else {
      throw UsageError(
        message: prefix
          + "this scope has \(classes) configuration class\(classes == 1 ? "" : "es") and a class "
          + "is split into at most \(maxParts) parts: N must be at most \(classes * maxParts)")
    }
    return shard
  }

  /// A shard's part of one class, when there are more shards than classes.
  struct Split {
    var part: Int
    var parts: Int
    var depth: Int
    var file: String
  }

  /// The part of its class shard `shard` searches (nil when it searches whole
  /// classes): class I modulo C, part I / C of the shards that share it.
  private static func split(_ parsed: Arguments, shard: FuzzShard, classes: Int) throws(UsageError)
    -> Split?
  {
    let depth = try parsed.integer("--split-depth", in: 1...64)
    let file = parsed.values["--states"]
    guard shard.count > classes else {
      // --states is accepted (and nothing written) so that one command line serves every
      // scope: a shard of whole classes is counted from its result alone.
      if depth != nil {
        throw UsageError(
          message:
            "'--split-depth' of 'explore' needs a --shard I/N that splits a class (N above the "
            + "scope's \(classes) configuration class\(classes == 1 ? "" : "es"))")
      }
      return nil
    }
    guard let file, !file.isEmpty else {
      throw UsageError(
        message:
          "--shard \(shard) of 'explore' splits a class (\(classes) configuration "
          + "class\(classes == 1 ? "" : "es")): it needs --states FILE, where it writes the states "
          + "it found for --merge")
    }
    let ofClass = shard.index % classes
    return Split(
      part: shard.index / classes, parts: (shard.count - 1 - ofClass) / classes + 1,
      depth: depth ?? 3, file: file)
  }

  /// Writes a part's states to `file`.
  private static func write(_ states: PartStates, to file: String) throws(UsageError) {
    guard FileManager.default.createFile(atPath: file, contents: Data(states.bytes)) else {
      throw UsageError(
        message: "cannot write the states of this part to \(Arguments.quoted(file)) (--states)")
    }
  }

  /// The states one class may hold by default: half the machine's memory, shared
  /// among the classes searched at once, at 256 bytes a state (docs/memory.md,
  /// "The explorer"), and at least 10,000.
  static func defaultMaxStates(jobs: Int) -> Int {
    let half = ProcessInfo.processInfo.physicalMemory / 2
    return max(10_000, Int(clamping: half / 256) / max(1, jobs))
  }

  /// The `{"result":{…}}` line of a scoped exploration: the verdict, the
  /// scope, the totals and one object per configuration class.
  static func json(
    _ exploration: ScopedExploration, bounded: Bool, shard: FuzzShard = .whole, classes: Int,
    split: Split? = nil
  ) -> String {
    let scope = exploration.scope
    let configurations = exploration.results.map { result -> JSONValue in
      .object([
        ("configuration", .string(result.configuration.description)),
        ("can_preload", .bool(result.configuration.canPreload)),
        ("retry", .string(result.configuration.retryClass?.rawValue ?? "other")),
        ("previous_threshold_ms", .int(Int(result.configuration.previousThreshold.milliseconds))),
        ("complete", .bool(result.complete)), ("fixpoint", .bool(result.fixpoint)),
        ("states", .int(result.states)), ("transitions", .int(result.transitions)),
        ("depth", .int(result.depth)), ("probes", .int(result.probes)),
        ("distinct_states", result.distinctStates.map { .int($0) } ?? .null),
        ("seconds", .double(result.seconds)),
        ("why_not_complete", result.whyNotComplete.map { .string($0) } ?? .null),
      ])
    }
    return JSONValue.line(
      "result",
      [
        ("command", .string("explore")), ("subject", .string(exploration.subject)),
        ("complete", .bool(exploration.complete)), ("bounded", .bool(bounded)),
        (
          "scope",
          .object([
            ("entries", .int(scope.entries)), ("held", .int(scope.held)),
            ("configurations", .array(scope.configurations.map { .string($0.description) })),
            ("features", .string(scope.features.description)),
            ("reach", .string(scope.reach.description)),
            ("max_depth", scope.maxDepth.map { .int($0) } ?? .null),
            ("max_states", scope.maxStates.map { .int($0) } ?? .null),
            ("seconds", scope.seconds.map { .double($0) } ?? .null),
          ])
        ),
        (
          "shard",
          .object([
            ("index", .int(shard.index)), ("count", .int(shard.count)), ("classes", .int(classes)),
          ])
        ),
        (
          "partition",
          split.map { split in
            .object([
              ("part", .int(split.part)), ("parts", .int(split.parts)),
              ("depth", .int(split.depth)), ("states_file", .string(split.file)),
            ])
          } ?? .null
        ),
        ("verdict", .string(exploration.verdict)),
        ("states", .int(exploration.states)), ("transitions", .int(exploration.transitions)),
        ("seconds", .double(exploration.seconds)),
        (
          "fingerprint_collision_probability",
          exploration.collisionProbability.map { .string(String($0)) } ?? .null
        ),
        ("configurations", .array(configurations)),
        ("unreached", .array(exploration.unreached.map { .string("\($0)") })),
        ("passed", .bool(exploration.passed)),
      ])
  }
}
