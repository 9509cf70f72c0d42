import Foundation
import PlayerFuzz
import PlayerSimulation

/// `player-sim fuzz`: a thin front end over the PlayerFuzz harness: random
/// runs with progress, shrinking, saving and replaying failures; with
/// `--threads`, the multi-threaded mode (``FuzzThreads``).
enum FuzzCommand: Command {
  static let flags: [FlagSpec] = [
    .option("--seed", "N", "the run's seed (random and printed if not given)"),
    .option("--budget", "N|Ns", "how many cases (1000), or how long, as in 30s"),
    .option(
      "--shard", "I/N",
      "run only the cases whose index is I modulo N (0 <= I < N): N jobs, one seed, no overlap"),
    .option("--case", "K", "run only case K of the seed, as a failure names it (no shard)"),
    .option("--max-length", "N", "the longest case, in actions (32)"),
    .toggle("--no-swarm", "use the whole alphabet in every case (swarm testing is on by default)"),
    .toggle("--no-shrink", "report failures as found, unshrunk"),
    .option(
      "--features", "LIST",
      "the parts of the contract the player implements, a comma-separated subset of queue, preload, system, network, controls, restore, sleepTimer, volume, fade, crossfade, live (all by default; the single-item core is always on)"
    ),
    .option(
      "--subject", "NAME", "player (default), or a deliberately broken player: \(subjectNames)"),
    .option("--replay", "FILE", "check a saved failure instead of running random cases"),
    .option("--save", "FILE", "write a failure found to FILE, ready for --replay"),
    .toggle("--require-coverage", "also fail if a declared transition was never exercised"),
    .option(
      "--jobs", "N",
      "run independent cases on N threads (1 to 64, 1 by default): the same failing case and counts as one"
    ),
    .option(
      "--threads", "N",
      "the multi-threaded mode: N threads (2 to 64) send to one Player at once, round by round"),
    .option("--rounds", "R", "with --threads: how many rounds, a fresh Player each (20)"),
    .toggle("--json", "JSON lines on standard output: progress, failure, result"),
    .toggle("--quiet", "no progress on standard error"),
  ]

  static var subjectNames: String {
    (["player"] + BuggyPlayer.catalog.map(\.name)).joined(separator: ", ")
  }

  static let help = CommandHelp(
    name: "fuzz", summary: "fuzz the Player against the contract model, from a seed",
    usage:
      "fuzz [--seed N] [--budget N|Ns] [--shard I/N | --case K] [--max-length N] [--no-swarm] [--no-shrink] [--features LIST] [--subject NAME] [--replay FILE] [--save FILE] [--require-coverage] [--jobs N] [--json] [--quiet]\n       player-sim fuzz --threads N [--rounds R] [--seed N] [--features LIST] [--json] [--quiet]",
    flags: flags,
    details: [
      "Each case is decoded from the run's seed and its index, so 'seed N, case K' always",
      "replays the same case. A failure is shrunk and printed with its timeline, the saved-",
      "failure text and a Swift Testing test. Exit status 1 when a failure is found.",
      "With --shard I/N the run covers the cases whose index is I modulo N: N runs of one seed",
      "(N CI jobs) share no case, and a case budget counts indices of the whole run, so",
      "--budget 1000 --shard 1/4 runs cases 1, 5, ..., 997. A failure prints its seed and case",
      "index; --seed S --case K replays that case alone, without the shard.",
      "With --features the cases use only those parts of the contract (and a failure shrinks",
      "within them): --features none fuzzes a player of one item at a time, without the",
      "system's or the network's events; the oracle is the same.",
      "With --jobs N, N threads run the cases at once, each on its own Player: the result is",
      "one thread's (the lowest failing case index, and for a case budget the same counts).",
      "With --threads N, each of R rounds a fresh Player gets 500 random events from each of",
      "N threads at once, in bursts with a barrier between them; its engine log must equal",
      "the contract model's commands in the order the player processed the events, and none",
      "may be lost. The seed fixes the events, not the interleavings: a failure may not recur.",
    ],
    example: [
      "player-sim fuzz --seed 42 --budget 30s",
      "player-sim fuzz --seed 42 --budget 30s --shard 1/4   # one of four CI jobs",
      "player-sim fuzz --seed 42 --case 1234                # the case a shard's failure names",
      "player-sim fuzz --subject twoBools --save two-bools.txt   # finds the seeds' bug",
      "player-sim fuzz --replay two-bools.txt --subject twoBools",
      "player-sim fuzz --features queue,system --budget 30s   # no preload, no network",
      "player-sim fuzz --seed 42 --budget 30s --jobs 2      # both cores",
      "player-sim fuzz --threads 4 --rounds 200 --seed 1       # the multi-threaded mode",
    ])

  static func run(_ parsed: Arguments) throws(UsageError) -> ExitStatus {
    let jobs = try parsed.integer("--jobs", in: 1...64)
    for flag in ["--threads", "--replay"] where jobs != nil && parsed.values[flag] != nil {
      throw UsageError(
        message:
          "'--jobs' and '\(flag)' of 'fuzz' cannot be combined; --jobs runs a random run's independent cases on several threads"
      )
    }
    if let threads = try parsed.integer("--threads", in: 2...64) {
      return try FuzzThreads.run(parsed, threads: threads)
    }
    if parsed.values["--rounds"] != nil {
      throw UsageError(message: "'--rounds' of 'fuzz' needs '--threads'")
    }
    let subject = try subject(parsed)
    let json = parsed.has("--json")
    if let path = parsed.values["--replay"] {
      if parsed.values["--save"] != nil {
        throw UsageError(
          message:
            "'--replay' and '--save' of 'fuzz' cannot be combined; --replay checks a saved failure, --save saves one a run finds"
        )
      }
      return replay(path, subject: subject, json: json)
    }
    // Before the run: a path that cannot take the failure is known now, not
    // after minutes of fuzzing.
    if let path = parsed.values["--save"] { try checkSavePath(path) }
    let features = try features(parsed)
    if features != .all, parsed.has("--require-coverage") {
      throw UsageError(
        message:
          "'--require-coverage' and '--features' of 'fuzz' cannot be combined; the declared transitions include those of the features left out"
      )
    }
    var random = SystemRandomNumberGenerator()
    let seed = try parsed.integer("--seed", in: 0...UInt64.max) ?? random.next()
    let maxLength = try parsed.integer("--max-length", in: 1...10_000) ?? 32
    var budget = try budget(parsed)
    var shard = try shard(parsed)
    var slice: FuzzRun.Slice? = shard.isWhole ? nil : .shard(shard)
    if let index = try parsed.integer("--case", in: 0...(Int.max - 1)) {
      for flag in ["--shard", "--budget"] where parsed.values[flag] != nil {
        throw UsageError(
          message:
            "'--case' and '\(flag)' of 'fuzz' cannot be combined; --case runs exactly one case of the seed, unsharded"
        )
      }
      // Case K alone: the cases below K + 1 whose index is K modulo K + 1
      // (K + 1 cannot overflow and K < K + 1, so the shard always exists).
      budget = .cases(index + 1)
      shard = FuzzShard(index: index, count: index + 1) ?? .whole
      slice = .single(index)
    }
    var configuration = FuzzConfiguration(
      seed: seed, budget: budget, maxLength: maxLength,
      swarm: !parsed.has("--no-swarm"), shrink: !parsed.has("--no-shrink"),
      requireFullCoverage: parsed.has("--require-coverage"), shard: shard, features: features)
    configuration.jobs = jobs ?? 1
    var replayFlags: [String] = []
    if let name = parsed.values["--subject"], name != "player" {
      replayFlags += ["--subject", name]
    }
    if maxLength != 32 { replayFlags += ["--max-length", "\(maxLength)"] }
    if !configuration.swarm { replayFlags.append("--no-swarm") }
    if features != .all { replayFlags += ["--features", features.description] }
    return FuzzRun(
      subject: subject, configuration: configuration, quiet: parsed.has("--quiet"), json: json,
      replayFlags: replayFlags, slice: slice
    ).execute(save: parsed.values["--save"])
  }

  /// Throws unless `path` names a file `--save` can write: not empty, not a
  /// directory, in a directory that exists and is writable, and writable itself
  /// if it exists.
  static func checkSavePath(_ path: String) throws(UsageError) {
    let prefix = "bad value \(Arguments.quoted(path)) for '--save' of 'fuzz'; "
    guard !path.isEmpty else {
      throw UsageError(message: prefix + "expected a file path, such as failure.txt")
    }
    let manager = FileManager.default
    var isDirectory: ObjCBool = false
    if manager.fileExists(atPath: path, isDirectory: &isDirectory) {
      if isDirectory.boolValue {
        throw UsageError(
          message: prefix + "it is a directory; expected a file path, such as \(path)/failure.txt")
      }
      if !manager.isWritableFile(atPath: path) {
        throw UsageError(message: prefix + "the file is not writable; expected a writable path")
      }
      return
    }
    let url = URL(fileURLWithPath: path)
    let parent = url.deletingLastPathComponent().path
    guard manager.fileExists(atPath: parent, isDirectory: &isDirectory), isDirectory.boolValue
    else {
      throw UsageError(
        message: prefix
          + "no directory \(Arguments.quoted(parent)); expected a path in an existing directory")
    }
    if !manager.isWritableFile(atPath: parent) {
      throw UsageError(
        message: prefix
          + "the directory \(Arguments.quoted(parent)) is not writable; expected a writable path")
    }
  }

  /// `--features LIST`: a comma-separated subset of the features
  /// (``FuzzFeatures/named``), or `none`; all of them when absent.
  /// - Parameter command: the command the flag was given to, for the error.
  static func features(_ parsed: Arguments, of command: String = "fuzz") throws(UsageError)
    -> FuzzFeatures
  {
    guard let text = parsed.values["--features"] else { return .all }
    do {
      return try FuzzFeatures(parsing: text)
    } catch {
      throw UsageError(
        message:
          "bad value \(Arguments.quoted(text)) for '--features' of '\(command)'; \(error)")
    }
  }

  /// `--subject`: `player` or the name of a broken player from the harness's catalog.
  static func subject(_ parsed: Arguments) throws(UsageError) -> FuzzSubject {
    guard let name = parsed.values["--subject"], name != "player" else { return .player }
    guard let buggy = BuggyPlayer.catalog.first(where: { $0.name == name }) else {
      throw UsageError(
        message:
          "bad value \(Arguments.quoted(name)) for '--subject' of '\(parsed.command)'; expected one of \(subjectNames)"
      )
    }
    return buggy.subject
  }

  /// `--shard I/N`: two unsigned decimal numbers with `0 <= I < N`.
  private static func shard(_ parsed: Arguments) throws(UsageError) -> FuzzShard {
    guard let text = parsed.values["--shard"] else { return .whole }
    if let shard = FuzzShard(text) { return shard }
    let prefix = "bad value \(Arguments.quoted(text)) for '--shard' of 'fuzz'; "
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    if parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), index >= 0,
      parts.allSatisfy({ $0.first.map { ("0"..."9").contains($0) } ?? false })
    {
      if count < 1 {
        throw UsageError(message: prefix + "the shard count N must be at least 1, as in 0/1")
      }
      throw UsageError(
        message: prefix
          + "the shard index I must be below the count N: 0 to \(count - 1) for \(count) shards")
    }
    throw UsageError(
      message: prefix
        + "expected I/N, shard I of N with 0 <= I < N, such as 0/4 (whole numbers, no sign)")
  }

  /// `--budget`: a number of cases (`1000`) or plain decimal seconds (`30s`,
  /// `0.5s`); hexadecimal, exponents, `inf` and `nan` are refused.
  private static func budget(_ parsed: Arguments) throws(UsageError) -> FuzzBudget {
    guard let text = parsed.values["--budget"] else { return .cases(1_000) }
    if text.hasSuffix("s") {
      let seconds = try parsed.seconds(
        "--budget", suffix: "s",
        expected: "a number of cases such as 1000, or plain decimal seconds such as 30s or 0.5s")
      return .seconds(seconds ?? 0)
    }
    guard text.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) }), let cases = Int(text),
      cases > 0
    else {
      throw UsageError(
        message:
          "bad value \(Arguments.quoted(text)) for '--budget' of 'fuzz'; expected a number of cases such as 1000, or seconds such as 30s"
      )
    }
    return .cases(cases)
  }

  /// Checks a saved failure: its timeline, then the failure or "passed".
  /// Everything printed from the file is escaped: a saved failure is untrusted input.
  private static func replay(_ path: String, subject: FuzzSubject, json: Bool) -> ExitStatus {
    let name = path == "-" ? "<stdin>" : path
    let fuzzCase: FuzzCase
    do {
      let text = try ScenarioFile.read(path)
      fuzzCase = try FailureFile.parseCase(text, file: name)
    } catch let error as ScenarioError {
      Terminal.error(error.description)
      return .usage
    } catch {
      Terminal.error(terminalSafe("\(error)"))
      return .usage
    }
    let actions = fuzzCase.actions
    // The engine line, then one action a line: what --replay reads back (for --json only).
    var lines: [String] { [fuzzCase.header] + fuzzCase.lines }
    guard !actions.isEmpty else {
      Terminal.error(
        "\(terminalSafe(name)):1:1: error: no actions; expected one action a line, such as play(A)")
      return .usage
    }
    // Row by row as the passing case is checked: the timeline is never held whole
    // (with --json, it is the result line's array).
    var timeline: [JSONValue] = []
    let found = Fuzzer.replay(subject, fuzzCase) { row in
      if json {
        timeline.append(.string(row))
      } else {
        Terminal.out(terminalSafe(row))
      }
    }
    guard let failure = found else {
      if json {
        Terminal.out(
          JSONValue.line(
            "result",
            [
              ("command", .string("fuzz")), ("mode", .string("replay")),
              ("subject", .string(subject.name)), ("file", .string(name)),
              ("actions", .array(lines.map { .string($0) })),
              ("timeline", .array(timeline)),
              ("passed", .bool(true)),
            ]))
        return .success
      }
      Terminal.out(
        "passed: \(subject.name) kept every property over the \(actions.count) saved action\(actions.count == 1 ? "" : "s")"
      )
      return .success
    }
    if json {
      Terminal.out(JSONValue.failure(failure))
      Terminal.out(
        JSONValue.line(
          "result",
          [
            ("command", .string("fuzz")), ("mode", .string("replay")),
            ("subject", .string(subject.name)), ("file", .string(name)),
            ("actions", .array(lines.map { .string($0) })), ("passed", .bool(false)),
          ]))
    } else {
      Terminal.out(terminalSafe(failure.report, keepingNewlines: true))
    }
    return .failure
  }
}
