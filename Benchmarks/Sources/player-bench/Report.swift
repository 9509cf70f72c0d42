import Foundation

/// Turns ``Results`` into the table people read and the JSON object scripts read.
enum Report {
  static let reducerGoal = 100e6
  static let driverGoal = 5e6
  /// Issue 9: the reducer at least 0.8x the naive player on the hostile stream.
  static let reducerOverNaiveGoal = 0.8

  // MARK: Table

  static func table(_ results: Results) -> String {
    let options = results.options
    var lines: [String] = []
    lines.append(
      "Playhead benchmarks: \(grouped(options.events)) events, seed \(options.seed), "
        + "\(options.runs) rounds (median, min-max), \(cores) cores"
        + (options.smoke ? ", SMOKE MODE (sizes too small for timing)" : ""))
    lines.append("stream: " + mixLine(results.mix, total: options.events))
    lines.append("")
    lines.append(row("workload", "median", "min - max", "goal", "status"))
    lines.append(
      row(
        "reducer (transition(on:))", rate(results.reducer.median), range(results.reducer),
        ">= 100 M/s", verdict(results.reducer.median, goal: reducerGoal)))
    lines.append(
      row(
        "reducer in place (handle)", rate(results.reducerInPlace.median),
        range(results.reducerInPlace), "", ""))
    lines.append(
      row(
        "controls (+ notes, now playing)", rate(results.controls.median), range(results.controls),
        "", ""))
    lines.append(
      row(
        "controls + available commands", rate(results.controlsWithCommands.median),
        range(results.controlsWithCommands), "", ""))
    lines.append(
      row(
        "driver, 1 thread, no-op engine", rate(results.driver.median), range(results.driver),
        ">= 5 M/s", verdict(results.driver.median, goal: driverGoal)))
    let lost = results.lostEvents
    lines.append(
      row(
        "driver, \(options.threads) threads", rate(results.driverThreaded.median),
        range(results.driverThreaded), "no lost event",
        lost == 0
          ? "met: 0 lost of \(grouped(options.events * options.runs))"
          : "MISSED: \(grouped(Int(lost))) lost"))
    lines.append(
      row("naive two-Bool player", rate(results.naive.median), range(results.naive), "baseline", "")
    )
    lines.append(
      row(
        "reducer / naive (paired)", ratio(results.reducerOverNaive.median),
        ratioRange(results.reducerOverNaive), ">= 0.80x",
        verdict(results.reducerOverNaive.median, goal: reducerOverNaiveGoal)))
    lines.append(
      row(
        "in place / naive (paired)", ratio(results.reducerInPlaceOverNaive.median),
        ratioRange(results.reducerInPlaceOverNaive), ">= 0.80x",
        verdict(results.reducerInPlaceOverNaive.median, goal: reducerOverNaiveGoal)))
    lines.append(
      row(
        "driver / naive (paired)", ratio(results.driverOverNaive.median),
        ratioRange(results.driverOverNaive), "", ""))
    lines.append(
      "  (\(options.threads)-thread driver: at most \(grouped(results.maxQueued)) events queued at once)"
    )
    lines.append(
      "  (naive player: starts the engine on \(grouped(results.mix.readyWithoutStart)) `ready` "
        + "reports that Playhead answers without a start: stale, repeated, or after pause/stop)")
    lines.append("")
    lines.append(contentsOf: queueLines(results))
    lines.append("")
    lines.append(contentsOf: crossfadeLines(results))
    lines.append("")
    lines.append(contentsOf: liveLines(results))
    lines.append("")
    lines.append("allocations per event (malloc calls counted over one pass of the stream):")
    lines.append(
      allocationLine("reducer", results.reducerAllocations, events: options.events, goal: false))
    lines.append(
      allocationLine(
        "in place", results.reducerInPlaceAllocations, events: options.events, goal: false))
    lines.append(
      allocationLine("controls", results.controlsAllocations, events: options.events, goal: false))
    lines.append(
      allocationLine("driver", results.driverAllocations, events: options.events, goal: false))
    lines.append(
      allocationLine("naive", results.naiveAllocations, events: options.events, goal: false))
    lines.append("  reducer (transition(on:)) by class of event, each event counted on its own:")
    lines += kindLines(results.reducerAllocationsByKind, events: results.eventsByKind)
    lines.append("")
    lines.append(
      "sizes in bytes, size (stride): "
        + results.sizes.map { "\($0.name) \($0.size) (\($0.stride))" }.joined(separator: ", "))
    lines.append("")
    lines.append(contentsOf: fuzzLines(results.fuzz, options: options))
    lines.append("")
    if let memory = results.memory {
      lines.append(MemoryReport.table(memory))
    }
    lines.append("checksum \(String(results.checksum, radix: 16)) (keeps the optimizer honest)")
    return lines.joined(separator: "\n") + "\n"
  }

  /// The queue workload: its stream, its rates, and its allocations per class of event.
  private static func queueLines(_ results: Results) -> [String] {
    let mix = results.queueMix
    let total = results.options.events
    func percent(_ count: Int) -> String {
      String(format: "%.0f%%", Double(count) / Double(max(total, 1)) * 100)
    }
    return [
      "queue stream (\(grouped(QueueStream.length)) entries, an engine that preloads): "
        + "\(percent(mix.positions)) position reports, \(percent(mix.reports)) other reports, "
        + "\(percent(mix.timers)) watchdogs, \(percent(mix.intents)) intents (edits, navigation); "
        + "\(grouped(mix.endsAccepted)) auto-advances, \(grouped(mix.gaplessAdvances)) of them "
        + "gapless; \(percent(mix.ignored)) ignored by the reducer",
      row(
        "queue reducer", rate(results.queueReducer.median), range(results.queueReducer), "", ""),
      row(
        "queue reducer in place", rate(results.queueReducerInPlace.median),
        range(results.queueReducerInPlace), "", ""),
      row(
        "queue driver, 1 thread", rate(results.queueDriver.median), range(results.queueDriver),
        ">= 5 M/s", verdict(results.queueDriver.median, goal: driverGoal)),
      "allocations per event of the queue reducer (transition(on:)), by class, each event "
        + "counted on its own:",
    ] + kindLines(results.queueAllocationsByKind, events: results.queueEventsByKind)
  }

  /// The crossfade workload (issue 37, item 3): its stream, its rates, and its
  /// allocations per class of event in each form, the position reports that
  /// start a crossfade apart (the goal: a crossfade adds no
  /// allocation per report).
  private static func crossfadeLines(_ results: Results) -> [String] {
    let mix = results.crossfadeMix
    let total = results.options.events
    func percent(_ count: Int) -> String {
      String(format: "%.0f%%", Double(count) / Double(max(total, 1)) * 100)
    }
    let stopped = mix.stoppedByTimer + mix.stoppedByEnd + mix.stoppedByFailure + mix.stoppedEarly
    var lines = [
      "crossfade stream (\(grouped(CrossfadeStream.length)) entries, a "
        + "\(CrossfadeStream.crossfade.components.seconds) s crossfade, an engine that preloads and "
        + "ramps): \(percent(mix.positions)) position reports, \(percent(mix.reports)) other reports, "
        + "\(percent(mix.timers)) timers, \(percent(mix.intents)) intents, "
        + "\(percent(mix.system)) system; \(grouped(mix.crossfades)) crossfades started, "
        + "\(grouped(stopped)) outgoing loads stopped (\(grouped(mix.stoppedByTimer)) by the fade's "
        + "timer, \(grouped(mix.stoppedByEnd)) by their end, \(grouped(mix.stoppedByFailure)) by "
        + "their failure, \(grouped(mix.stoppedEarly)) early by a control or the system); "
        + "\(grouped(mix.endsAccepted)) ends without a crossfade; \(percent(mix.ignored)) ignored "
        + "by the reducer",
      row(
        "crossfade reducer", rate(results.crossfadeReducer.median),
        range(results.crossfadeReducer), "", ""),
      row(
        "crossfade reducer in place", rate(results.crossfadeReducerInPlace.median),
        range(results.crossfadeReducerInPlace), "", ""),
      row(
        "crossfade driver, 1 thread", rate(results.crossfadeDriver.median),
        range(results.crossfadeDriver), ">= 5 M/s",
        verdict(results.crossfadeDriver.median, goal: driverGoal)),
    ]
    guard let counts = results.crossfadeAllocations else {
      return lines + ["  allocations: n/a (counted on Linux with glibc, without sanitizers)"]
    }
    let forms = [
      ("reducer (transition(on:))", counts.reducer),
      ("reducer in place (handle(_:into:))", counts.inPlace),
      ("driver (Player.send)", counts.driver),
    ]
    for (name, form) in forms {
      let driver = form.timerStepCount > 0
      lines.append(
        "allocations per event of the crossfade \(name), by class, each event counted on its own"
          + (driver ? ", the steps that arm a timer apart:" : ":"))
      lines.append(contentsOf: kindLines(form.byKind, events: form.events))
      lines.append(
        "    crossfade starts " + perEvent(form.crossfadeStarts, events: mix.crossfades)
          + " (\(grouped(Int(form.crossfadeStarts))) calls / \(grouped(mix.crossfades)) "
          + "position reports)"
          + (driver
            ? "  no goal (the driver schedules the fade's timer)"
            : form.crossfadeStarts == 0 ? "  goal 0: met" : "  goal 0: MISSED"))
      if driver {
        lines.append(
          "    arming a timer   " + perEvent(form.timerSteps, events: form.timerStepCount)
            + " (\(grouped(Int(form.timerSteps))) calls / \(grouped(form.timerStepCount)) "
            + "other steps)  no goal (the driver schedules the timer)")
      }
    }
    return lines
  }

  /// The live workload (issue 38): its stream, its rates, and its allocations
  /// per class of event in each form, the window reports apart (the issue's
  /// goal: window reports allocate nothing).
  private static func liveLines(_ results: Results) -> [String] {
    let mix = results.liveMix
    let total = results.options.events
    func percent(_ count: Int) -> String {
      String(format: "%.0f%%", Double(count) / Double(max(total, 1)) * 100)
    }
    var lines = [
      "live stream (\(grouped(LiveStream.length)) live entries, 3 in 4 with a "
        + "\(LiveStream.dvrWindow.milliseconds / 1000) s DVR window): \(percent(mix.windows)) window "
        + "reports, \(percent(mix.positions)) position reports, \(percent(mix.reports)) other reports, "
        + "\(percent(mix.timers)) timers, \(percent(mix.intents)) intents, \(percent(mix.system)) "
        + "system; \(grouped(mix.reloadsAtEdge)) reloads at the live edge (\(grouped(mix.fellBehind)) "
        + "fell behind, seen from a window or a position), \(grouped(mix.wentLive)) go to live, "
        + "\(grouped(mix.rateClampedAtEdge)) times 1x at the edge; \(percent(mix.ignored)) ignored "
        + "by the reducer",
      row("live reducer", rate(results.liveReducer.median), range(results.liveReducer), "", ""),
      row(
        "live reducer in place", rate(results.liveReducerInPlace.median),
        range(results.liveReducerInPlace), "", ""),
      row(
        "live driver, 1 thread", rate(results.liveDriver.median), range(results.liveDriver),
        ">= 5 M/s", verdict(results.liveDriver.median, goal: driverGoal)),
    ]
    guard let counts = results.liveAllocations else {
      return lines + ["  allocations: n/a (counted on Linux with glibc, without sanitizers)"]
    }
    for (name, form) in [
      ("reducer (transition(on:))", counts.reducer),
      ("reducer in place (handle(_:into:))", counts.inPlace),
      ("driver (Player.send)", counts.driver),
    ] {
      let driver = form.timerStepCount > 0
      lines.append(
        "allocations per event of the live \(name), by class, each event counted on its own"
          + (driver ? ", the steps that arm a timer apart:" : ":"))
      lines.append(contentsOf: kindLines(form.byKind, events: form.events))
      lines.append(
        "    window reports   " + perEvent(form.windows, events: form.windowCount)
          + " (\(grouped(Int(form.windows))) calls / \(grouped(form.windowCount)) events)"
          + (form.windows == 0 ? "  goal 0: met" : "  goal 0: MISSED"))
      if driver {
        lines.append(
          "    arming a timer   " + perEvent(form.timerSteps, events: form.timerStepCount)
            + " (\(grouped(Int(form.timerSteps))) calls / \(grouped(form.timerStepCount)) "
            + "steps)  no goal (the driver schedules the timer)")
      }
    }
    return lines
  }

  /// One line per class of event: allocations per event, and the goal (0 but for intents).
  private static func kindLines(_ counts: [UInt64]?, events: [Int]) -> [String] {
    guard let counts, events.count == counts.count else {
      return ["  n/a (allocations are counted on Linux with glibc, without sanitizers)"]
    }
    return EventKind.allCases.compactMap { kind in
      let count = events[kind.rawValue]
      guard count > 0 else { return nil }
      let calls = counts[kind.rawValue]
      let label = "    " + "\(kind)s".padding(toLength: 17, withPad: " ", startingAt: 0)
      let goal =
        switch kind {
        case .intent: "  no goal (queue edits may allocate)"
        case .detailedFailure: "  no goal (a failure's detail may allocate)"
        default: calls == 0 ? "  goal 0: met" : "  goal 0: MISSED"
        }
      return label + perEvent(calls, events: count)
        + " (\(grouped(Int(calls))) calls / \(grouped(count)) events)" + goal
    }
  }

  private static var cores: Int { ProcessInfo.processInfo.activeProcessorCount }

  private static func row(_ a: String, _ b: String, _ c: String, _ d: String, _ e: String) -> String
  {
    let text =
      a.padding(toLength: 32, withPad: " ", startingAt: 0)
      + b.padding(toLength: 12, withPad: " ", startingAt: 0)
      + c.padding(toLength: 22, withPad: " ", startingAt: 0)
      + d.padding(toLength: 15, withPad: " ", startingAt: 0) + e
    return text.trimmingCharacters(in: .whitespaces)
  }

  private static func rate(_ value: Double) -> String { String(format: "%.1f M/s", value / 1e6) }

  private static func range(_ sample: Sample) -> String {
    String(format: "%.1f - %.1f M/s", sample.min / 1e6, sample.max / 1e6)
  }

  private static func ratio(_ value: Double) -> String { String(format: "%.2fx", value) }

  private static func ratioRange(_ sample: Sample) -> String {
    String(format: "%.2f - %.2fx", sample.min, sample.max)
  }

  private static func verdict(_ value: Double, goal: Double) -> String {
    value >= goal
      ? String(format: "met (%.1fx the goal)", value / goal)
      : String(format: "MISSED by %.0f%% (%.2fx the goal)", (1 - value / goal) * 100, value / goal)
  }

  private static func allocationLine(_ name: String, _ calls: UInt64?, events: Int, goal: Bool)
    -> String
  {
    let label = "  " + name.padding(toLength: 9, withPad: " ", startingAt: 0)
    guard let calls else {
      return label + "n/a (allocations are counted on Linux with glibc, without sanitizers)"
    }
    var text =
      label + perEvent(calls, events: events)
      + " (\(grouped(Int(calls))) calls / \(grouped(events)) events)"
    if goal { text += calls == 0 ? "  goal 0: met" : "  goal 0: MISSED" }
    return text
  }

  private static func perEvent(_ calls: UInt64, events: Int) -> String {
    calls == 0 ? "0" : String(format: "%.6f", Double(calls) / Double(events))
  }

  private static func mixLine(_ mix: EventStream.Mix, total: Int) -> String {
    func percent(_ count: Int) -> String {
      String(format: "%.0f%%", Double(count) / Double(max(total, 1)) * 100)
    }
    return "\(percent(mix.intents)) intents, \(percent(mix.currentReports)) current reports, "
      + "\(percent(mix.staleReports)) stale, \(percent(mix.neverIssuedReports)) never issued, "
      + "\(percent(mix.mismatchedReports)) wrong item, \(percent(mix.duplicates)) duplicates, "
      + "\(percent(mix.watchdogs)) watchdogs, \(grouped(mix.hostileOrders)) play-stop-late-ready triples, "
      + "\(percent(mix.system)) system events, \(grouped(mix.systemPauses)) system pauses, "
      + "\(grouped(mix.detailedFailures)) failures with a detail; "
      + "\(percent(mix.ignored)) ignored by the reducer"
  }

  private static func fuzzLines(_ fuzz: FuzzFigures?, options: Options) -> [String] {
    guard let fuzz else {
      return ["fuzz harness (PlayerFuzz): pending (the library offers no usable API yet)"]
    }
    // Two decimals: the goal sits between runs a tenth apart.
    func fine(_ sample: Sample) -> String {
      String(
        format: "%.2f M/s (%.2f - %.2f M/s, %d runs of %g s)", sample.median / 1e6,
        sample.min / 1e6, sample.max / 1e6, sample.values.count, fuzz.secondsPerRun)
    }
    // The goal is judged on the whole machine: the cases are independent,
    // and `--jobs` runs them on every core (one thread alone is shown too).
    let allCores = fuzz.checkedEventsPerSecondAllCores
    let judged = allCores.values.isEmpty ? fuzz.checkedEventsPerSecond : allCores
    var lines = [
      "fuzz harness (PlayerFuzz.FuzzMeasurement, the library's default case shape):",
      "  checked events/s vs the real Player, 1 thread   " + fine(fuzz.checkedEventsPerSecond),
    ]
    if !allCores.values.isEmpty {
      lines.append("  the same, \(fuzz.jobs) threads (--jobs \(fuzz.jobs))   " + fine(allCores))
    }
    lines[lines.count - 1] += "  goal >= 1 M/s: " + verdict(judged.median, goal: 1e6)
    if let exploration = fuzz.exploration {
      let met =
        exploration.counterexample == nil && (exploration.complete || exploration.depth >= 8)
      lines.append(
        "  exhaustive, real Player, \(exploration.budget) s budget: depth \(exploration.depth)"
          + (exploration.complete ? " (complete: no new state at the last level)" : "")
          + ", \(grouped(exploration.states)) states, \(grouped(exploration.sequences)) sequences in "
          + String(format: "%.2f s", exploration.seconds)
          + (exploration.counterexample.map { "; BROKE \($0)" } ?? "")
          + "  goal depth 8 in 10 s: " + (met ? "met" : "MISSED"))
    }
    lines.append(
      "  buggy players, seeds 1...\(options.fuzzSeeds), at most \(grouped(fuzz.caseBudget)) cases per "
        + "seed; medians over the seeds that found the bug; goal: found on every seed, shrunk in "
        + "< 10 ms, at the minimal length on >= 95% of seeds and never above minimal + 1:")
    lines.append(
      "  " + "buggy player".padding(toLength: 37, withPad: " ", startingAt: 0)
        + "ms to fail  cases  ms to shrunk  shrunk (min)  at min  <= min+1  missed  goal")
    for player in fuzz.players {
      let shrunk = String(format: "%g (%d)", player.shrunkLength, player.minimalLength)
      let met =
        player.missed == 0 && player.millisecondsToShrunk < 10
        && player.seedsAtMinimalLength * 20 >= player.seeds * 19
        && player.seedsWithinOneOfMinimal == player.seeds
      lines.append(
        "  " + player.name.padding(toLength: 37, withPad: " ", startingAt: 0)
          + String(
            format: "%-11.2f %-6g %-13.2f ", player.milliseconds, player.cases,
            player.millisecondsToShrunk)
          + shrunk.padding(toLength: 14, withPad: " ", startingAt: 0)
          + "\(player.seedsAtMinimalLength)/\(player.seeds)".padding(
            toLength: 8, withPad: " ", startingAt: 0)
          + "\(player.seedsWithinOneOfMinimal)/\(player.seeds)".padding(
            toLength: 10, withPad: " ", startingAt: 0)
          + "\(player.missed)".padding(toLength: 8, withPad: " ", startingAt: 0)
          + (met ? "met" : "MISSED"))
    }
    return lines
  }

  static func grouped(_ value: Int) -> String {
    let digits = String(value.magnitude)
    var result = ""
    for (index, digit) in digits.enumerated() {
      if index > 0, (digits.count - index) % 3 == 0 { result.append(",") }
      result.append(digit)
    }
    return value < 0 ? "-" + result : result
  }

  // MARK: JSON

  static func json(_ results: Results) -> String {
    let options = results.options
    var fields: [(String, String)] = [
      ("events", "\(options.events)"), ("runs", "\(options.runs)"), ("seed", "\(options.seed)"),
      ("smoke", "\(options.smoke)"), ("cores", "\(cores)"),
    ]
    func sample(_ key: String, _ value: Sample) {
      fields.append((key, number(value.median.rounded())))
      fields.append((key + "_min", number(value.min.rounded())))
      fields.append((key + "_max", number(value.max.rounded())))
    }
    sample("reducer_events_per_second", results.reducer)
    fields.append(
      ("reducer_allocations_per_event", allocationsPerEvent(results.reducerAllocations, options)))
    sample("driver_events_per_second", results.driver)
    fields.append(
      ("driver_allocations_per_event", allocationsPerEvent(results.driverAllocations, options)))
    sample("driver_events_per_second_\(options.threads)_threads", results.driverThreaded)
    fields.append(("driver_\(options.threads)_threads_lost_events", "\(results.lostEvents)"))
    sample("naive_events_per_second", results.naive)
    fields.append(
      ("naive_allocations_per_event", allocationsPerEvent(results.naiveAllocations, options)))
    fields.append(("reducer_over_naive", number(results.reducerOverNaive.median)))
    fields.append(("driver_over_naive", number(results.driverOverNaive.median)))
    fields.append(("naive_wrong_starts", "\(results.mix.readyWithoutStart)"))
    fields.append(("reducer_over_naive_goal", number(reducerOverNaiveGoal)))
    sample("reducer_in_place_events_per_second", results.reducerInPlace)
    fields.append(("reducer_in_place_over_naive", number(results.reducerInPlaceOverNaive.median)))
    fields.append(
      (
        "reducer_in_place_allocations_per_event",
        allocationsPerEvent(results.reducerInPlaceAllocations, options)
      ))
    sample("controls_events_per_second", results.controls)
    sample("controls_with_commands_events_per_second", results.controlsWithCommands)
    fields.append(
      ("controls_allocations_per_event", allocationsPerEvent(results.controlsAllocations, options)))
    fields += kindFields("reducer", results.reducerAllocationsByKind, results.eventsByKind)
    sample("queue_reducer_events_per_second", results.queueReducer)
    sample("queue_reducer_in_place_events_per_second", results.queueReducerInPlace)
    sample("queue_driver_events_per_second", results.queueDriver)
    fields += kindFields("queue", results.queueAllocationsByKind, results.queueEventsByKind)
    let queueMix = results.queueMix
    fields.append(("queue_length", "\(QueueStream.length)"))
    fields.append(("queue_auto_advances", "\(queueMix.endsAccepted)"))
    fields.append(("queue_gapless_advances", "\(queueMix.gaplessAdvances)"))
    fields.append(("queue_ignored_events", "\(queueMix.ignored)"))
    sample("crossfade_reducer_events_per_second", results.crossfadeReducer)
    sample("crossfade_reducer_in_place_events_per_second", results.crossfadeReducerInPlace)
    sample("crossfade_driver_events_per_second", results.crossfadeDriver)
    let crossfadeMix = results.crossfadeMix
    func perEvent(_ calls: UInt64?, _ events: Int) -> String {
      calls.map { number(events == 0 ? 0 : Double($0) / Double(events)) } ?? "null"
    }
    for (prefix, form) in [
      ("crossfade", results.crossfadeAllocations?.reducer),
      ("crossfade_in_place", results.crossfadeAllocations?.inPlace),
      ("crossfade_driver", results.crossfadeAllocations?.driver),
    ] {
      fields += kindFields(prefix, form?.byKind, form?.events ?? [])
      fields.append(
        (
          "\(prefix)_start_allocations_per_event",
          perEvent(form?.crossfadeStarts, crossfadeMix.crossfades)
        ))
    }
    let driverForm = results.crossfadeAllocations?.driver
    fields.append(
      (
        "crossfade_driver_timer_step_allocations_per_event",
        perEvent(driverForm?.timerSteps, driverForm?.timerStepCount ?? 0)
      ))
    fields.append(("crossfade_starts", "\(crossfadeMix.crossfades)"))
    fields.append(("crossfade_stopped_by_timer", "\(crossfadeMix.stoppedByTimer)"))
    fields.append(("crossfade_stopped_by_end", "\(crossfadeMix.stoppedByEnd)"))
    fields.append(("crossfade_stopped_by_failure", "\(crossfadeMix.stoppedByFailure)"))
    fields.append(("crossfade_stopped_early", "\(crossfadeMix.stoppedEarly)"))
    fields.append(("crossfade_ends_without_crossfade", "\(crossfadeMix.endsAccepted)"))
    fields.append(("crossfade_ignored_events", "\(crossfadeMix.ignored)"))
    sample("live_reducer_events_per_second", results.liveReducer)
    sample("live_reducer_in_place_events_per_second", results.liveReducerInPlace)
    sample("live_driver_events_per_second", results.liveDriver)
    let liveMix = results.liveMix
    for (prefix, form) in [
      ("live", results.liveAllocations?.reducer),
      ("live_in_place", results.liveAllocations?.inPlace),
      ("live_driver", results.liveAllocations?.driver),
    ] {
      fields += kindFields(prefix, form?.byKind, form?.events ?? [])
      fields.append(
        ("\(prefix)_window_allocations_per_event", perEvent(form?.windows, form?.windowCount ?? 0)))
    }
    let liveDriverForm = results.liveAllocations?.driver
    fields.append(
      (
        "live_driver_timer_step_allocations_per_event",
        perEvent(liveDriverForm?.timerSteps, liveDriverForm?.timerStepCount ?? 0)
      ))
    fields.append(("live_window_reports", "\(liveMix.windows)"))
    fields.append(("live_reloads_at_edge", "\(liveMix.reloadsAtEdge)"))
    fields.append(("live_fell_behind", "\(liveMix.fellBehind)"))
    fields.append(("live_went_live", "\(liveMix.wentLive)"))
    fields.append(("live_rate_clamped_at_edge", "\(liveMix.rateClampedAtEdge)"))
    fields.append(("live_ignored_events", "\(liveMix.ignored)"))
    // Sizes only: the strides of the state and the event are in the memory fields.
    for (key, value) in zip(
      ["state", "event", "transition", "command", "load", "session", "queue"], results.sizes)
    {
      fields.append((key + "_size_bytes", "\(value.size)"))
    }
    if let fuzz = results.fuzz {
      fields.append(("fuzz_status", "\"measured\""))
      fields.append(
        ("fuzz_checked_events_per_second", number(fuzz.checkedEventsPerSecond.median.rounded())))
      fields.append(
        ("fuzz_checked_events_per_second_min", number(fuzz.checkedEventsPerSecond.min.rounded())))
      fields.append(
        ("fuzz_checked_events_per_second_max", number(fuzz.checkedEventsPerSecond.max.rounded())))
      let allCores = fuzz.checkedEventsPerSecondAllCores
      fields.append(("fuzz_jobs", "\(fuzz.jobs)"))
      for (suffix, value) in [
        ("", allCores.median), ("_min", allCores.min), ("_max", allCores.max),
      ] {
        // An empty sample's figures are NaN, printed `null`: a one-core machine.
        fields.append(
          ("fuzz_checked_events_per_second_all_cores" + suffix, number(value.rounded())))
      }
      fields.append(("fuzz_exhaustive_depth", fuzz.exploration.map { "\($0.depth)" } ?? "null"))
      fields.append(
        ("fuzz_exhaustive_complete", fuzz.exploration.map { "\($0.complete)" } ?? "null"))
      fields.append(("fuzz_exhaustive_states", fuzz.exploration.map { "\($0.states)" } ?? "null"))
      fields.append(
        ("fuzz_exhaustive_seconds", fuzz.exploration.map { number($0.seconds) } ?? "null"))
      fields.append(
        ("fuzz_exhaustive_budget_seconds", fuzz.exploration.map { number($0.budget) } ?? "null"))
      fields.append(("fuzz_case_budget_per_seed", "\(fuzz.caseBudget)"))
      let players = fuzz.players.map { player in
        "\(string(player.name)): {\"median_ms_to_first_failure\": \(number(player.milliseconds)), "
          + "\"median_cases_to_first_failure\": \(number(player.cases)), "
          + "\"median_ms_to_shrunk_failure\": \(number(player.millisecondsToShrunk)), "
          + "\"median_shrunk_length\": \(number(player.shrunkLength)), "
          + "\"minimal_length\": \(player.minimalLength), "
          + "\"seeds_at_minimal_length\": \(player.seedsAtMinimalLength), "
          + "\"seeds_within_one_of_minimal_length\": \(player.seedsWithinOneOfMinimal), "
          + "\"seeds\": \(player.seeds), \"missed_seeds\": \(player.missed)}"
      }
      fields.append(("fuzz_buggy_players", "{" + players.joined(separator: ", ") + "}"))
    } else {
      fields.append(("fuzz_status", "\"pending\""))
      fields.append(("fuzz_checked_events_per_second", "null"))
      fields.append(("fuzz_checked_events_per_second_all_cores", "null"))
      fields.append(("fuzz_jobs", "null"))
      fields.append(("fuzz_exhaustive_depth", "null"))
      fields.append(("fuzz_buggy_players", "{}"))
    }
    if let memory = results.memory { fields += MemoryReport.fields(memory) }
    fields.append(("checksum", "\(results.checksum)"))
    var seen = Set<String>()
    let body = fields.filter { seen.insert($0.0).inserted }.map { "  \(string($0.0)): \($0.1)" }
    return "{\n" + body.joined(separator: ",\n") + "\n}\n"
  }

  /// `PREFIX_report_allocations_per_event` and `PREFIX_report_events`, one pair per class.
  private static func kindFields(_ prefix: String, _ counts: [UInt64]?, _ events: [Int])
    -> [(String, String)]
  {
    EventKind.allCases.flatMap { kind -> [(String, String)] in
      let count = events.indices.contains(kind.rawValue) ? events[kind.rawValue] : 0
      let calls = counts.flatMap { $0.indices.contains(kind.rawValue) ? $0[kind.rawValue] : nil }
      let perEvent = calls.map { number(count == 0 ? 0 : Double($0) / Double(count)) } ?? "null"
      return [
        ("\(prefix)_\(kind)_allocations_per_event", perEvent),
        ("\(prefix)_\(kind)_events", "\(count)"),
      ]
    }
  }

  private static func allocationsPerEvent(_ calls: UInt64?, _ options: Options) -> String {
    guard let calls else { return "null" }
    return number(Double(calls) / Double(options.events))
  }

  static func number(_ value: Double) -> String {
    guard value.isFinite else { return "null" }
    if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
    return String(format: "%.6g", value)
  }

  private static func string(_ text: String) -> String {
    var escaped = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": escaped += "\\\""
      case "\\": escaped += "\\\\"
      case "\n": escaped += "\\n"
      default:
        if scalar.value < 0x20 {
          escaped += String(format: "\\u%04x", scalar.value)
        } else {
          escaped.unicodeScalars.append(scalar)
        }
      }
    }
    return escaped + "\""
  }
}
