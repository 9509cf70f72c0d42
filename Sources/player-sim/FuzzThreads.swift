import PlayerFuzz
import PlayerSimulation

/// `player-sim fuzz --threads N`: the harness's multi-threaded mode
/// (`ConcurrentFuzz`): each of `--rounds` rounds, a fresh `Player` gets events
/// from N threads at once, and its engine log is checked against the contract
/// replayed in the order the player processed them.
enum FuzzThreads {
  /// Rounds when `--rounds` is not given: `ConcurrentFuzz.run`'s default.
  static let defaultRounds = 20

  /// Events each sender sends a round: `ConcurrentFuzz.run`'s default, and
  /// CampaignTests/threadsAtOnce's.
  static let eventsPerThread = 500

  /// The flags of `fuzz` that the multi-threaded mode has no use for: it runs
  /// rounds of senders, not cases.
  static let caseFlags = [
    "--budget", "--shard", "--case", "--max-length", "--no-swarm", "--no-shrink", "--replay",
    "--save", "--require-coverage",
  ]

  /// Runs `fuzz --threads N [--rounds R] [--seed S] [--features LIST] [--json] [--quiet]`.
  static func run(_ parsed: Arguments, threads: Int) throws(UsageError) -> ExitStatus {
    for flag in caseFlags where parsed.values[flag] != nil || parsed.has(flag) {
      throw UsageError(
        message:
          "'--threads' and '\(flag)' of 'fuzz' cannot be combined; --threads runs rounds of senders (--rounds), not cases"
      )
    }
    if let name = parsed.values["--subject"], name != "player" {
      throw UsageError(
        message:
          "bad value \(Arguments.quoted(name)) for '--subject' of 'fuzz' with '--threads'; expected player: the deliberately broken players are not thread-safe"
      )
    }
    let features = try FuzzCommand.features(parsed)
    let rounds = try parsed.integer("--rounds", in: 1...1_000_000) ?? defaultRounds
    var random = SystemRandomNumberGenerator()
    let seed = try parsed.integer("--seed", in: 0...UInt64.max) ?? random.next()
    let json = parsed.has("--json")
    var reproduce = "player-sim fuzz --threads \(threads) --rounds \(rounds) --seed \(seed)"
    if features != .all { reproduce += " --features \(features.description)" }
    if !json {
      Terminal.out(
        "fuzz Player with \(threads) threads at once: seed \(seed), \(rounds) round\(rounds == 1 ? "" : "s") of "
          + "\(eventsPerThread) events a thread"
          + (features == .all ? "" : ", features \(features.description)"))
    }
    let result = ConcurrentFuzz.run(
      seed: seed, rounds: rounds, threads: threads,
      eventsPerThread: eventsPerThread, features: features)
    if json {
      Terminal.out(
        JSONValue.line(
          "result",
          [
            ("command", .string("fuzz")), ("mode", .string("threads")),
            ("subject", .string("Player")), ("seed", .seed(seed)), ("threads", .int(threads)),
            ("rounds", .int(result.rounds)), ("events", .int(result.events)),
            ("failed_round", result.failedRound.map { .int($0) } ?? .null),
            ("violation", result.violation.map { .string($0.description) } ?? .null),
            ("reproduce", result.violation == nil ? .null : .string(reproduce)),
            ("passed", .bool(result.violation == nil)),
          ]))
    } else {
      Terminal.out(terminalSafe(result.description, keepingNewlines: true))
      if result.violation != nil {
        Terminal.out(
          "reproduce: \(reproduce)  (thread interleavings vary from run to run: a rerun may pass)")
      }
    }
    return result.violation == nil ? .success : .failure
  }
}
