import PlayerState

/// The checks of one ``EngineConformance`` run, in order. Each check uses
/// its own load tokens, so a report can always be traced to the check that
/// caused it.
struct ConformanceRun: Sendable {
  let harness: ConformanceHarness
  let configuration: EngineConformance.Configuration

  /// The engine stopped returning from `execute`; the run cannot go on.
  private struct Wedged: Error {}

  func all() async {
    do {
      let answersLoads = try await answersAndStops()
      try await seeks()
      try await stopWhileBuffering(answersLoads: answersLoads)
      try await harmlessCommands(answersLoads: answersLoads)
      if configuration.unplayableMedia != nil { try await unplayable() }
    } catch {
      // The violation is recorded; later checks would only queue behind the stuck command.
    }
  }

  // MARK: The checks

  /// Check 1: the load is answered, a command from the report callback, stop.
  /// Returns whether the load was answered at all: if not, later checks do
  /// not blame their own promises for loads that go unanswered too.
  private func answersAndStops() async throws -> Bool {
    let load = self.load(1)
    checked(.executeReturnsPromptly, .loadAnswered, .reportNamesIssuedLoad)
    harness.withRecord { $0.reentrantLoad = load }
    try await execute(.load(request(load)))
    let answer = await answered(load)
    if case .ready = answer {
      checked(.commandFromReportCallback)
      let returned = await harness.wait { record in
        record.reentrantCommand.map(record.returned.contains) ?? false
      }
      if !returned {
        violate(
          .commandFromReportCallback,
          "start(\(load)), sent from inside the ready(\(load)) callback, did not return \(within)")
      }
    } else {
      skip(.commandFromReportCallback, because: answer, of: load)
    }
    try await execute(.stop(load))
    await harness.settle()
    return answer != nil
  }

  /// Check 2: a seek sent while buffering (the machine sends those), then a
  /// seek awaited on its own, then two back to back.
  private func seeks() async throws {
    let load = self.load(2)
    try await execute(.load(request(load)))
    try await execute(.seek(load, to: position(1), SeekID(1)))
    let answer = await answered(load)
    guard case .ready = answer else {
      skip(.seekCompletionCarriesSeekID, because: answer, of: load)
      return try await execute(.stop(load))
    }
    checked(.seekCompletionCarriesSeekID)
    await expectCompletion(SeekID(1), of: load, .seekCompletionCarriesSeekID)
    try await execute(.seek(load, to: position(2), SeekID(2)))
    await expectCompletion(SeekID(2), of: load, .seekCompletionCarriesSeekID)
    try await execute(.seek(load, to: position(3), SeekID(3)))
    try await execute(.seek(load, to: position(4), SeekID(4)))
    await expectCompletion(SeekID(4), of: load, .seekCompletionCarriesSeekID)
    try await execute(.stop(load))
    await harness.settle()
  }

  /// Check 3: stop right after load; the engine then answers the next load.
  private func stopWhileBuffering(answersLoads: Bool) async throws {
    let stopped = load(3)
    let next = load(4)
    checked(.stopDuringBufferingStops)
    try await execute(.load(request(stopped)))
    try await execute(.stop(stopped))
    await harness.settle()
    try await execute(.load(request(next)))
    if await answered(next) == nil, answersLoads {
      violate(
        .stopDuringBufferingStops,
        "after stop(\(stopped)) during buffering, load(\(next)) got no ready or failed \(within)")
    }
    try await execute(.stop(next))
    await harness.settle()
  }

  /// Check 4: commands for a token never loaded, then for a stopped one.
  private func harmlessCommands(answersLoads: Bool) async throws {
    let unknown = load(1000)
    checked(.unknownLoadHarmless)
    try await execute(.start(unknown))
    try await execute(.pause(unknown))
    try await execute(.seek(unknown, to: position(1), SeekID(1)))
    try await execute(.stop(unknown))
    let first = load(5)
    try await execute(.load(request(first)))
    let answer = await answered(first)
    if answer == nil, answersLoads {
      violate(
        .unknownLoadHarmless,
        "after commands for \(unknown), never loaded, load(\(first)) got no ready or failed \(within)"
      )
    }
    try await execute(.stop(first))
    await harness.settle()
    guard case .ready = answer else {
      return skip(.stoppedLoadHarmless, because: answer, of: first)
    }

    let current = load(6)
    try await execute(.load(request(current)))
    let currentAnswer = await answered(current)
    guard case .ready = currentAnswer else {
      skip(.stoppedLoadHarmless, because: currentAnswer, of: current)
      return try await execute(.stop(current))
    }
    checked(.stoppedLoadHarmless)
    try await execute(.start(first))
    try await execute(.pause(first))
    try await execute(.seek(first, to: position(1), SeekID(1)))
    try await execute(.stop(first))
    try await execute(.seek(current, to: position(2), SeekID(1)))
    // Any completion will do here: a wrong id is the other promise's business.
    let completed = await harness.wait { $0.seeksCompleted[current.token] != nil }
    if !completed {
      violate(
        .stoppedLoadHarmless,
        "after commands for \(first), stopped, seek(\(current), seek#1) of the current load "
          + "was not completed \(within)")
    }
    try await execute(.stop(current))
    await harness.settle()
  }

  /// Check 5: media the engine cannot play fails.
  private func unplayable() async throws {
    guard let media = configuration.unplayableMedia else { return }
    let load = Load(item: ItemID(7), token: LoadToken(7))
    checked(.unplayableMediaFails)
    try await execute(.load(LoadRequest(load: load, media: media)))
    if case .ready = await answered(load) {
      violate(.unplayableMediaFails, "load(\(load)) was answered ready(\(load))")
    }
    try await execute(.stop(load))
    await harness.settle()
  }

  // MARK: Helpers

  /// The kit's load number `token`, of its own item `token`.
  private func load(_ token: UInt32) -> Load {
    Load(item: ItemID(token), token: LoadToken(token))
  }

  /// The `load` command for one of the kit's loads of the configured media.
  private func request(_ load: Load) -> LoadRequest {
    LoadRequest(load: load, media: configuration.media)
  }

  private func position(_ index: Int) -> MediaTime {
    configuration.seekPositions[index % configuration.seekPositions.count]
  }

  private var within: String {
    switch configuration.timing {
    case .realTime(let timeout, _): "within \(timeout)"
    case .driven: "before the engine went idle"
    }
  }

  /// Sends a command and waits for `execute` to return.
  private func execute(_ command: EngineCommand) async throws {
    let id = harness.send(command)
    guard await harness.wait(until: { $0.returned.contains(id) }) else {
      checked(.executeReturnsPromptly)
      violate(.executeReturnsPromptly, "execute(\(command)) did not return \(within)")
      throw Wedged()
    }
  }

  /// Waits for the load's first `ready` or `failed`; records a violation if none comes.
  private func answered(_ load: Load) async -> EngineReport? {
    _ = await harness.wait { $0.answer(of: load) != nil }
    let answer = harness.withRecord { $0.answer(of: load) }
    if answer == nil {
      violate(.loadAnswered, "load(\(load)) got no ready or failed \(within)")
    }
    return answer
  }

  private func expectCompletion(_ seek: SeekID, of load: Load, _ promise: EnginePromise) async {
    if !(await harness.wait { $0.completed(seek, of: load) }) {
      violate(promise, "seek(\(load), \(seek)) got no seeked(\(load), \(seek)) \(within)")
    }
  }

  private func checked(_ promises: EnginePromise...) {
    harness.withRecord { record in
      for promise in promises where !record.report.checked.contains(promise) {
        record.report.checked.append(promise)
      }
    }
  }

  private func violate(_ promise: EnginePromise, _ detail: String) {
    harness.withRecord { $0.violate(promise, detail) }
  }

  private func skip(_ promise: EnginePromise, because answer: EngineReport?, of load: Load) {
    let reason = answer.map { "load(\(load)) was answered \($0)" } ?? "load(\(load)) got no answer"
    harness.withRecord { $0.report.skipped[promise] = reason }
  }
}
