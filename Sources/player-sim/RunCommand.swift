import PlayerSimulation

/// `player-sim run FILE...`: runs scenario scripts.
enum RunCommand: Command {
  static let flags: [FlagSpec] = [
    .toggle("--json", "one JSON object per processed event instead of the table"),
    .toggle("--quiet", "no progress and no summary lines"),
    .toggle("--realtime", "let virtual time pass at wall-clock speed, to watch"),
    .option("--seed", "N", "replace the seed of every 'hostile on' line"),
  ]

  static let help = CommandHelp(
    name: "run", summary: "run scenario scripts and check their expect lines",
    usage: "run [--json] [--quiet] [--realtime] [--seed N] FILE...",
    flags: flags,
    details: [
      "Each FILE is a scenario script ('-' reads standard input); see docs/player-sim.md.",
      "Every file is parsed before any runs. A run stops at its first failing 'expect',",
      "or after 1,000,000 events (a script that never settles, such as repeat all over",
      "media that end at once): both exit 1.",
    ],
    example: [
      "player-sim run Examples/scenarios/late-ready-after-stop.play",
      "printf 'media A\\nplay A\\nwait 1s\\nexpect state playing\\n' | player-sim run --json -",
    ])

  static let takesOperands = true

  static func run(_ parsed: Arguments) throws(UsageError) -> ExitStatus {
    let seed: UInt64? = try parsed.integer("--seed", in: 0...UInt64.max)
    guard !parsed.operands.isEmpty else {
      throw UsageError(
        message:
          "missing FILE for 'run'; expected one or more scenario files, or '-' for standard input")
    }
    var scenarios: [Scenario] = []
    do {
      for path in parsed.operands {
        let text = try ScenarioFile.read(path)
        scenarios.append(try ScenarioParser.parse(text, file: path == "-" ? "<stdin>" : path))
      }
    } catch {
      Terminal.error(error.description)
      return .usage
    }
    let options = RunOptions(
      json: parsed.has("--json"), quiet: parsed.has("--quiet"), realtime: parsed.has("--realtime"),
      seed: seed)
    return execute(scenarios, options)
  }

  struct RunOptions {
    var json = false
    var quiet = false
    var realtime = false
    var seed: UInt64?
  }

  /// Whether `entry` is a late or stray report or timer the machine ignored
  /// (the script's own reports, and a cancelled sleep countdown's expiry,
  /// included); a user's or the system's event that changed nothing is not.
  static func isStray(_ entry: TimelineEntry) -> Bool {
    guard entry.ignored != nil else { return false }
    if case .system(.sleepTimerExpired) = entry.event { return true }
    return entry.source != .user && entry.source != .remote && entry.source != .system
  }

  /// Runs parsed scenarios, printing their timelines; 1 if any expect failed.
  static func execute(_ scenarios: [Scenario], _ options: RunOptions) -> ExitStatus {
    let table = TimelineTable(color: Terminal.colorOutput)
    var runner = ScenarioRunner(
      seed: options.seed, pace: options.realtime ? .realTime(speed: 1) : .instant)
    // Entries stream through the callback; keeping them all would make memory
    // grow with the number of events.
    runner.keepsEntries = false
    let progress = Progress(
      quiet: options.quiet || options.realtime, unit: "events", found: "failed")
    var failures = 0
    var events = 0
    for (index, scenario) in scenarios.enumerated() {
      if !options.json {
        if scenarios.count > 1 {
          Terminal.out((index > 0 ? "\n" : "") + "== \(terminalSafe(scenario.file)) ==")
        }
        Terminal.out(table.header)
      }
      var checks = 0
      var processed = 0
      var ignored = 0
      let result = runner.run(scenario) { item in
        if case .check = item { checks += 1 }
        if case .event(let entry) = item {
          processed += 1
          if isStray(entry) { ignored += 1 }
          events += 1
          progress.update(done: events, total: nil, found: failures)
        }
        if options.json {
          switch item {
          case .event(let entry): Terminal.out(entry.json)
          case .playerChange(let change): Terminal.out(change.json)
          case .note, .check: break
          }
        } else {
          for line in table.lines(item) { Terminal.out(line) }
        }
        if options.realtime { Terminal.flush() }
      }
      if let failure = result.failure {
        failures += 1
        if options.json {
          Terminal.out(failure.json)
        } else {
          Terminal.out(table.failureLine(failure))
        }
        Terminal.error(failure.description)
      } else if !options.json, !options.quiet {
        Terminal.out(
          table.successLine(
            "\(scenario.file): \(checks) expectation\(checks == 1 ? "" : "s") held; \(processed) events, \(ignored) late or stray report\(ignored == 1 ? "" : "s") ignored; ends in \(result.finalState)"
          ))
      }
      progress.update(done: events, total: nil, found: failures)
    }
    progress.finish()
    return failures > 0 ? .failure : .success
  }
}

/// `player-sim demo`: the narrated late-callback scenario.
enum DemoCommand: Command {
  static let flags: [FlagSpec] = [
    .toggle("--json", "one JSON object per processed event instead of the table"),
    .toggle("--quiet", "no introduction and no summary"),
    .toggle("--realtime", "let virtual time pass at wall-clock speed, to watch"),
    .toggle("--script", "print the demo's scenario script and exit"),
  ]

  static let help = CommandHelp(
    name: "demo",
    summary: "watch late callbacks after stop, a switch and a new queue be ignored",
    usage: "demo [--json] [--quiet] [--realtime] [--script]", flags: flags,
    details: [
      "The demo is a scenario script: --script prints it, and 'player-sim run FILE' runs a",
      "copy you changed.",
    ],
    example: ["player-sim demo", "player-sim demo --realtime", "player-sim demo --script"])

  static func run(_ parsed: Arguments) throws(UsageError) -> ExitStatus {
    if parsed.has("--script") {
      Terminal.out(DemoScenario.text)
      return .success
    }
    let scenario: Scenario
    do {
      scenario = try ScenarioParser.parse(DemoScenario.text, file: DemoScenario.file)
    } catch {
      Terminal.error(error.description)
      return .usage
    }
    let json = parsed.has("--json")
    if !json, !parsed.has("--quiet") {
      Terminal.out(
        """
        player-sim demo: the real Player, driving fake media on a virtual clock.

        The fake engine here behaves like many real ones: when told to stop a load, it
        still calls back for it later. Each callback names its load (A#1 = media A, load 1).
        Watch the rows marked IGNORED: late reports that change nothing and send no command,
        up to a queue's late end that must not advance past a list the user replaced.

        """)
    }
    return RunCommand.execute(
      [scenario],
      .init(json: json, quiet: parsed.has("--quiet"), realtime: parsed.has("--realtime")))
  }
}
