import PlayerEngine
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
    harness.withRecord { [media = configuration.media] in $0.defaultMedia = media }
    do {
      let answersLoads = try await answersAndStops()
      try await seeks()
      try await stopWhileBuffering(answersLoads: answersLoads)
      try await harmlessCommands(answersLoads: answersLoads)
      if harness.capabilities.contains(.preload) { try await preloads() }
      if configuration.unplayableMedia != nil { try await unplayable() }
      if configuration.liveMedia != nil { try await live() }
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
    checked(
      .executeReturnsPromptly, .loadAnswered, .reportNamesIssuedLoad, .systemPauseNamesPlayingLoad)
    harness.withRecord { $0.reentrantLoad = load }
    try await execute(.load(request(load)))
    let answer = await answered(load)
    if case .ready = answer {
      checked(.commandFromReportCallback)
      let returned = await waitPastCallback { record in
        record.reentrantCommand.map(record.returned.contains) ?? false
      }
      if !returned {
        violate(
          .commandFromReportCallback,
          "start(\(name(load))), sent from inside the ready(\(name(load))) callback, did not return \(within)"
        )
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
        "after stop(\(name(stopped))) during buffering, load(\(name(next))) got no ready or failed \(within)"
      )
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
        "after commands for \(name(unknown)), never loaded, load(\(name(first))) got no ready or failed \(within)"
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
        "after commands for \(name(first)), stopped, seek(\(name(current)), seek#1) of the current load "
          + "was not completed \(within)")
    }
    try await execute(.stop(current))
    await harness.settle()
  }

  /// Check 5, for engines that preload: a load plays while the next entry
  /// preloads beside it; then the switch to the preload (`stop` of the
  /// current load, `start` of the preload, as a gapless advance or a `next`
  /// sends them); then a second preload stopped before it starts.
  private func preloads() async throws {
    let current = load(8)
    let next = load(9)
    let dropped = load(10)
    try await execute(.load(request(current)))
    let answer = await answered(current)
    guard case .ready = answer else {
      for promise in Self.preloadPromises { skip(promise, because: answer, of: current) }
      return try await execute(.stop(current))
    }
    checked(.preloadAnswered, .preloadBesideCurrent, .positionNamesPlayingLoad)
    try await execute(.start(current))
    try await execute(.preload(request(next)))
    let preloaded = await preloadAnswered(next)
    try await execute(.seek(current, to: position(1), SeekID(1)))
    if !(await harness.wait { $0.completed(SeekID(1), of: current) }) {
      violate(
        .preloadBesideCurrent,
        "seek(\(name(current)), seek#1), sent while \(name(next)) was preloaded, got no "
          + "seeked(\(name(current)), seek#1) \(within)")
    }
    await harness.settle()
    guard case .ready = preloaded else {
      skip(.preloadStopIsFinal, because: preloaded, of: next)
      try await execute(.stop(current))
      return await harness.settle()
    }

    // The switch: the current load stops, the preload starts.
    let reportsPositions = harness.withRecord { $0.positions[current.token] != nil }
    try await execute(.stop(current))
    try await execute(.start(next))
    if reportsPositions, !(await harness.wait { $0.positions[next.token] != nil }) {
      violate(
        .positionNamesPlayingLoad,
        "the engine reported positions for \(name(current)), but none for \(name(next)) after "
          + "stop(\(name(current))) and start(\(name(next))) \(within)")
    }

    // A preload dropped before it starts: nothing more names it.
    checked(.preloadStopIsFinal)
    try await execute(.preload(request(dropped)))
    _ = await preloadAnswered(dropped)
    try await execute(.stop(dropped))
    await harness.settle()
    try await execute(.seek(next, to: position(2), SeekID(1)))
    if !(await harness.wait { $0.completed(SeekID(1), of: next) }) {
      violate(
        .preloadStopIsFinal,
        "after stop(\(name(dropped))) of a preload, seek(\(name(next)), seek#1) of the playing load got no "
          + "seeked(\(name(next)), seek#1) \(within)")
    }
    try await execute(.stop(next))
    await harness.settle()
  }

  /// The promises only engines that preload are checked for.
  private static let preloadPromises: [EnginePromise] = [
    .preloadAnswered, .preloadBesideCurrent, .positionNamesPlayingLoad, .preloadStopIsFinal,
  ]

  /// Check 6: media the engine cannot play fails.
  private func unplayable() async throws {
    guard let media = configuration.unplayableMedia else { return }
    let load = Load(item: ItemID(7), token: LoadToken(7))
    checked(.unplayableMediaFails)
    try await execute(.load(LoadRequest(load: load, media: media)))
    if case .ready = await answered(load) {
      violate(.unplayableMediaFails, "load(\(name(load))) was answered ready(\(name(load)))")
    }
    try await execute(.stop(load))
    await harness.settle()
  }

  /// Check 7, with live media: its load reports a well-formed window after
  /// `ready`; a seek inside a DVR window completes; a load at its live edge is
  /// answered (unless the first load was not). The load is not started: a live engine reports its window
  /// whether it plays or not (AVPlayer's seekable ranges, a paused DVR
  /// window that slides on).
  private func live() async throws {
    guard let media = configuration.liveMedia else { return }
    let load = self.load(11)
    checked(.windowIsWellFormed, .liveMediaReportsWindow)
    try await execute(.load(LoadRequest(load: load, media: media)))
    let answer = await answered(load)
    if case .ready = answer {
      try await windowAndSeek(of: load, answer: answer)
    } else {
      skip(.liveMediaReportsWindow, because: answer, of: load)
      skip(.seekInWindowCompletes, because: answer, of: load)
    }
    try await execute(.stop(load))
    await harness.settle()

    let edge = self.load(12)
    // Unanswered, the live load broke `loadAnswered`: the next is not blamed on its own.
    guard answer != nil else { return skip(.liveEdgeLoadAnswered, because: answer, of: load) }
    checked(.liveEdgeLoadAnswered)
    let command = EngineCommand.load(LoadRequest(load: edge, media: media, atLiveEdge: true))
    try await execute(command)
    if !(await harness.wait { $0.answer(of: edge) != nil }) {
      violate(.liveEdgeLoadAnswered, "\(describe(command)) got no ready or failed \(within)")
    }
    try await execute(.stop(edge))
    await harness.settle()
  }

  /// Check 7's middle: waits for the ready live load's first well-formed
  /// window, then, if it has a length, seeks to its middle.
  private func windowAndSeek(of load: Load, answer: EngineReport?) async throws {
    _ = await harness.wait { $0.windows[load.token] != nil }
    let (window, malformed) = harness.withRecord {
      ($0.windows[load.token], $0.malformedWindows.contains(load.token))
    }
    guard let window else {
      // Malformed windows broke `windowIsWellFormed` already, each as it came.
      if !malformed {
        let ready = answer.map { describe($0) } ?? "ready(\(name(load)))"
        violate(
          .liveMediaReportsWindow,
          "load(\(name(load))) was answered \(ready), but reported no window \(within)")
      }
      return skip(.seekInWindowCompletes, "load(\(name(load))) reported no well-formed window")
    }
    // A live stream without DVR: the machine never seeks it.
    guard window.isSeekable else { return }
    checked(.seekInWindowCompletes)
    // Well formed, so `0 ≤ start ≤ end`: the difference cannot overflow.
    let middle = MediaTime(
      milliseconds: window.start.milliseconds
        + (window.end.milliseconds - window.start.milliseconds) / 2)
    let seek = EngineCommand.seek(load, to: middle, SeekID(1))
    try await execute(seek)
    if !(await harness.wait { $0.completed(SeekID(1), of: load) }) {
      let windowText = describe(.window(load, window))
      violate(
        .seekInWindowCompletes,
        "\(describe(seek)), inside \(windowText), got no seeked(\(name(load)), seek#1) \(within)")
    }
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

  /// A load in its compact form, `A#2`.
  private func name(_ load: Load) -> String { harness.withRecord { $0.name(load) } }

  /// A report in its compact form, `ready(A#2)`.
  private func describe(_ report: EngineReport) -> String {
    harness.withRecord { record in report.description(naming: { record.name($0) }) }
  }

  /// A command in its compact form, `load(L#12, at live edge)`.
  private func describe(_ command: EngineCommand) -> String {
    harness.withRecord { $0.describe(command) }
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

  /// Waits until `condition` holds, as ``ConformanceHarness/wait(until:)``
  /// does, but never gives up while a report callback waits for a command,
  /// nor just after one stopped waiting: that wait is bounded by the harness,
  /// and a command it holds back returns only once it ends, so the timeout
  /// runs again from there.
  private func waitPastCallback(
    until condition: @escaping @Sendable (Record) -> Bool
  ) async -> Bool {
    var ended = harness.withRecord { $0.callbackWaitsEnded }
    while true {
      if await harness.wait(until: condition) { return true }
      while harness.withRecord({ $0.callbackWaits }) {
        _ = await harness.wait { !$0.callbackWaits }
      }
      let now = harness.withRecord { $0.callbackWaitsEnded }
      guard now != ended else { return false }
      ended = now
    }
  }

  /// Sends a command and waits for `execute` to return.
  private func execute(_ command: EngineCommand) async throws {
    let id = harness.send(command)
    guard await waitPastCallback(until: { $0.returned.contains(id) }) else {
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
      violate(.loadAnswered, "load(\(name(load))) got no ready or failed \(within)")
    }
    return answer
  }

  /// Waits for a preload's first `ready` or `failed`; records a violation if none comes.
  private func preloadAnswered(_ load: Load) async -> EngineReport? {
    _ = await harness.wait { $0.answer(of: load) != nil }
    let answer = harness.withRecord { $0.answer(of: load) }
    if answer == nil {
      violate(.preloadAnswered, "preload(\(name(load))) got no ready or failed \(within)")
    }
    return answer
  }

  private func expectCompletion(_ seek: SeekID, of load: Load, _ promise: EnginePromise) async {
    if !(await harness.wait { $0.completed(seek, of: load) }) {
      violate(
        promise, "seek(\(name(load)), \(seek)) got no seeked(\(name(load)), \(seek)) \(within)")
    }
  }

  private func checked(_ promises: EnginePromise...) {
    harness.withRecord { record in
      for promise in promises { record.report.markChecked(promise) }
    }
  }

  private func violate(_ promise: EnginePromise, _ detail: String) {
    harness.withRecord { $0.violate(promise, detail) }
  }

  private func skip(_ promise: EnginePromise, because answer: EngineReport?, of load: Load) {
    let reason =
      answer.map { "load(\(name(load))) was answered \(describe($0))" }
      ?? "load(\(name(load))) got no answer"
    skip(promise, reason)
  }

  private func skip(_ promise: EnginePromise, _ reason: String) {
    harness.withRecord { $0.report.skipped[promise] = reason }
  }
}
