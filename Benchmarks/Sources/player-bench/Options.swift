/// The command line of `player-bench`.
struct Options {
  /// Print one JSON object instead of the table.
  var json = false
  /// Tiny sizes, for CI: proves the benchmark builds and runs, times nothing.
  var smoke = false
  /// Events in the pre-generated stream.
  var events = 3_000_000
  /// Rounds; each round measures every workload once, interleaved.
  var runs = 7
  /// The stream's seed.
  var seed: UInt64 = 0x5EED_2026
  /// Threads for the concurrent driver figure.
  var threads = 8
  /// Seeds per buggy player for the fuzz figures.
  var fuzzSeeds = 20
  /// Also write the JSON object to this file (the table still goes to stdout).
  var jsonFile: String?
  /// Run only this workload, once, untimed: for profilers (valgrind --tool=callgrind).
  var profile: Workload?
  /// Print the usage and exit.
  var help = false
  /// Run only the memory section (docs/memory.md).
  var memoryOnly = false
  /// Events queued at once in the memory section's burst.
  var burstEvents = 1_000_000
  /// Sends per thread in the memory section's flood.
  var floodSends = 2_000_000
  /// Rounds of events sent to each never-reading subscriber.
  var subscriberEvents = 100_000
  /// Run only the observed queue edits (issue 23, R5 and R7; docs/benchmarks.md).
  var queueEditsOnly = false
  /// The edit counts of the queue-edits section.
  var queueEditSizes = [50_000, 100_000, 200_000]
  /// The queue lengths a stalled subscriber watches being edited.
  var stalledQueueSizes = [1_000, 20_000, 200_000]

  /// The workloads `--profile` can run alone.
  enum Workload: String, CaseIterable {
    case reducer
    case inPlace = "in-place"
    case driver, naive, queue
    case queueInPlace = "queue-in-place"
    case queueDriver = "queue-driver"
    case crossfade
    case crossfadeInPlace = "crossfade-in-place"
    case crossfadeDriver = "crossfade-driver"
    case live
    case liveInPlace = "live-in-place"
    case liveDriver = "live-driver"
  }

  static let usage = """
    usage: player-bench [--json] [--smoke] [--events N] [--runs N] [--seed N] [--threads N]
                        [--fuzz-seeds N] [--memory] [--burst N] [--flood N] [--queue-edits]

    Measures the Playhead reducer, the Player driver (one thread and several) and a naive
    two-Bool player on one seeded event stream, the reducer and the driver on a queue stream
    (1000 entries, an engine that preloads, position reports, auto-advances, edits) and on a
    crossfade stream (1000 entries, a 2 s crossfade, fades started by position reports and
    ended by timers, ends, skips and pauses) and on a live stream (100 live entries, DVR windows
    sliding with every window report, pauses that fall behind, go to live, 1.5x at the edge),
    plus the fuzz harness against its catalog of buggy players. Build with -c release; debug
    figures mean nothing.

      --json          one JSON object on stdout instead of the table
      --smoke         tiny sizes for CI (seconds); not for timing
      --events N      events in each stream (default 3000000; smoke 20000)
      --runs N        rounds, at least 1 (default 7; smoke 5); figures are median and min-max
      --seed N        the stream's seed (default 1592598566)
      --threads N     threads for the concurrent driver (default 8)
      --fuzz-seeds N  seeds per buggy player (default 20; smoke 3)
      --json-file F   also write the JSON object to file F (one run, both forms)
      --profile W     run only workload W (reducer, in-place, driver, naive, queue,
                      queue-in-place, queue-driver, crossfade, crossfade-in-place,
                      crossfade-driver, live, live-in-place or live-driver) once, untimed,
                      and print
                      its checksum: for valgrind --tool=callgrind
      --memory        run only the memory section: a queued burst, a flood from --threads
                      threads, and a never-reading subscriber on each stream (docs/memory.md)
      --burst N       events queued at once in the memory section (default 1000000; smoke 10000)
      --flood N       sends per thread in the memory section (default 2000000; smoke 10000)
      --queue-edits   run only the observed queue edits: 50000, 100000 and 200000 appends,
                      inserts, removes and moves through a Player with an observer, and a
                      stalled subscriber while queues of 1000, 20000 and 200000 are edited
    """

  /// Bad command-line input: says which argument and what was expected.
  struct UsageError: Error, CustomStringConvertible {
    let description: String
  }

  /// Parses the arguments after the program name.
  /// - Throws: ``UsageError`` naming the bad argument.
  static func parse(_ arguments: [String]) throws(UsageError) -> Options {
    var options = Options()
    var events: Int?
    var runs: Int?
    var fuzzSeeds: Int?
    var burst: Int?
    var flood: Int?
    var remaining = arguments[...]
    while let argument = remaining.popFirst() {
      switch argument {
      case "--json": options.json = true
      case "--smoke": options.smoke = true
      case "--help", "-h": options.help = true
      case "--memory": options.memoryOnly = true
      case "--queue-edits": options.queueEditsOnly = true
      case "--burst": burst = try number(argument, remaining.popFirst(), atLeast: 1)
      case "--flood": flood = try number(argument, remaining.popFirst(), atLeast: 1)
      case "--events": events = try number(argument, remaining.popFirst(), atLeast: 1)
      case "--runs": runs = try number(argument, remaining.popFirst(), atLeast: 1)
      case "--threads": options.threads = try number(argument, remaining.popFirst(), atLeast: 1)
      case "--fuzz-seeds": fuzzSeeds = try number(argument, remaining.popFirst(), atLeast: 1)
      case "--json-file":
        guard let path = remaining.popFirst(), !path.isEmpty else {
          throw UsageError(description: "--json-file needs a value: a file path")
        }
        options.jsonFile = path
      case "--profile":
        let names = Workload.allCases.map(\.rawValue).joined(separator: ", ")
        guard let text = remaining.popFirst() else {
          throw UsageError(description: "--profile needs a value: one of \(names)")
        }
        guard let workload = Workload(rawValue: text) else {
          throw UsageError(description: "--profile: expected one of \(names), got '\(text)'")
        }
        options.profile = workload
      case "--seed":
        guard let text = remaining.popFirst() else {
          throw UsageError(description: "--seed needs a value: a non-negative integer")
        }
        guard let seed = UInt64(text) else {
          throw UsageError(description: "--seed: expected a non-negative integer, got '\(text)'")
        }
        options.seed = seed
      default:
        throw UsageError(description: "unknown argument '\(argument)' (try --help)")
      }
    }
    options.events = events ?? (options.smoke ? 20_000 : options.events)
    options.runs = runs ?? (options.smoke ? 5 : options.runs)
    options.fuzzSeeds = fuzzSeeds ?? (options.smoke ? 3 : options.fuzzSeeds)
    options.burstEvents = burst ?? (options.smoke ? 10_000 : options.burstEvents)
    options.floodSends = flood ?? (options.smoke ? 10_000 : options.floodSends)
    if options.smoke {
      options.subscriberEvents = 2_000
      options.queueEditSizes = [1_000, 2_000]
      options.stalledQueueSizes = [1_000]
    }
    return options
  }

  private static func number(_ option: String, _ text: String?, atLeast minimum: Int)
    throws(UsageError) -> Int
  {
    guard let text else {
      throw UsageError(description: "\(option) needs a value: an integer of at least \(minimum)")
    }
    guard let value = Int(text), value >= minimum else {
      throw UsageError(
        description: "\(option): expected an integer of at least \(minimum), got '\(text)'")
    }
    return value
  }
}
