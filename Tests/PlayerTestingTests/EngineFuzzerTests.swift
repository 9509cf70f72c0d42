import PlayerEngine
import PlayerSimulation
import PlayerState
import PlayerTesting
import Testing

/// An engine over a virtual clock that answers a load 50 ms after it, and a
/// seek 20 ms after the load is ready; with one bug, or none.
private final class TimedEngine: PlaybackEngine {
  enum Bug: Sendable {
    case none
    /// A seek sent while an earlier one of the load is pending is dropped: the
    /// older seek completes, the newest never does.
    case oldSeekWins
    /// After a load is stopped while buffering, the next load's `ready` names
    /// the stopped load (a single-slot adapter that kept the old identity).
    case readyNamesPreviousLoad
  }

  private struct State {
    var live: Set<Load> = []
    var ready: Set<Load> = []
    var pendingSeek: [Load: SeekID] = [:]
    var stoppedWhileBuffering: Load?
  }

  let clock: VirtualClock
  private let bug: Bug
  private let state = Locked(State())

  init(_ bug: Bug, clock: VirtualClock) {
    self.bug = bug
    self.clock = clock
  }

  /// A fresh engine and clock, as the fuzzer takes them.
  static func fuzzed(_ bug: Bug) -> FuzzedEngine {
    let clock = VirtualClock()
    return .virtual(TimedEngine(bug, clock: clock), advance: { clock.advance(by: $0) })
  }

  func execute(_ command: EngineCommand, reports: ReportSink) {
    switch command {
    case .load(let request), .preload(let request):
      let load = request.load
      let tag = state.withLock { state in
        state.live.insert(load)
        return bug == .readyNamesPreviousLoad ? state.stoppedWhileBuffering ?? load : load
      }
      clock.schedule(after: .milliseconds(50)) { [self] in
        let seek = state.withLock { state -> Bool? in
          guard state.live.contains(load) else { return nil }
          state.ready.insert(load)
          return state.pendingSeek[load] != nil
        }
        guard let seek else { return }
        reports.send(.ready(tag))
        if seek { completeSeek(of: load, reports: reports) }
      }
    case .seek(let load, _, let seek):
      let ready = state.withLock { state -> Bool? in
        guard state.live.contains(load) else { return nil }
        if bug == .oldSeekWins, state.pendingSeek[load] != nil { return nil }
        state.pendingSeek[load] = seek
        return state.ready.contains(load)
      }
      if ready == true { completeSeek(of: load, reports: reports) }
    case .stop(let load):
      state.withLock { state in
        if state.live.remove(load) != nil, !state.ready.contains(load) {
          state.stoppedWhileBuffering = load
        }
        state.pendingSeek[load] = nil
      }
    case .start, .pause, .setRate, .setVolume:
      break
    }
  }

  private func completeSeek(of load: Load, reports: ReportSink) {
    clock.schedule(after: .milliseconds(20)) { [self] in
      let seek = state.withLock { state in
        state.live.contains(load) ? state.pendingSeek.removeValue(forKey: load) : nil
      }
      if let seek { reports.send(.seekCompleted(load, seek)) }
    }
  }
}

@Suite("The engine fuzzer")
struct EngineFuzzerTests {
  private static let configuration = EngineFuzzer.Configuration(
    media: ["A", "B"], budget: .commands(2_000), seed: 42, commandsPerCase: 40,
    engineSource: "TimedEngine.fuzzed(.oldSeekWins)")

  @Test func aDroppedSeekIsCaughtAndShrunkToThreeCommands() async throws {
    let fuzzer = EngineFuzzer(Self.configuration)
    let report = await fuzzer.run { TimedEngine.fuzzed(.oldSeekWins) }
    let failure = try #require(report.failure, "\(report)")
    #expect(failure.promise == .seekCompletionCarriesSeekID)
    #expect(failure.reproduced == failure.attempts)
    #expect(
      failure.minimal.lines == [
        "+0ms load(A#1)", "+0ms seek(A#1, 0ms, seek#1)", "+0ms seek(A#1, 0ms, seek#2)",
      ], "\(failure)")
    #expect(
      failure.minimalOutcome.violations.map(\.description) == [
        "seekCompletionCarriesSeekID: seek(A#1, seek#2) got no seeked(A#1, seek#2) "
          + "within 5.0 seconds of virtual time"
      ])
    #expect(
      failure.minimalOutcome.transcript == [
        "load(A#1)", "seek(A#1, 0ms, seek#1)", "seek(A#1, 0ms, seek#2)", "ready(A#1)",
        "seeked(A#1, seek#1)",
      ])
    // The printed test replays the script against the same engine.
    #expect(failure.swiftTest.contains("against: { TimedEngine.fuzzed(.oldSeekWins) })"))
    #expect(failure.swiftTest.contains("      +0ms seek(A#1, 0ms, seek#2)\n"))
  }

  @Test func thePrintedScriptReplaysToTheSameViolation() async throws {
    let fuzzer = EngineFuzzer(Self.configuration)
    let report = await fuzzer.run { TimedEngine.fuzzed(.oldSeekWins) }
    let failure = try #require(report.failure)
    let replayed = try await fuzzer.replay("\(failure.minimal)", file: "shrunk.script") {
      TimedEngine.fuzzed(.oldSeekWins)
    }
    #expect(replayed.violations == failure.minimalOutcome.violations)
    // The same script against the fixed engine breaks nothing.
    let fixed = try await fuzzer.replay("\(failure.minimal)") { TimedEngine.fuzzed(.none) }
    #expect(fixed.violations == [])
    #expect(fixed.reportsChecked == 2)
  }

  @Test func aReadyUnderTheStoppedLoadIsCaughtAsAnUnansweredLoad() async throws {
    let fuzzer = EngineFuzzer(Self.configuration)
    let report = await fuzzer.run { TimedEngine.fuzzed(.readyNamesPreviousLoad) }
    let failure = try #require(report.failure, "\(report)")
    #expect(failure.promise == .loadAnswered)
    #expect(
      failure.minimal.lines == ["+0ms load(A#1)", "+0ms stop(A#1)", "+0ms load(A#2)"],
      "\(failure)")
    #expect(
      failure.minimalOutcome.notes.map(\.description) == [
        "reportAfterStop ×1, first: ready(A#1) after stop(A#1) returned"
      ])
  }

  @Test func aCorrectEngineKeepsEveryPromiseOverTwoThousandCommands() async {
    let report = await EngineFuzzer(Self.configuration).run { TimedEngine.fuzzed(.none) }
    #expect(report.failure == nil, "\(report)")
    #expect(report.commands == 2_000)
    #expect(report.cases == 50)
    #expect(report.reportsChecked == 279, "\(report)")
  }

  private static let fakeConfiguration = EngineFuzzer.Configuration(
    media: ["A", "B"], unplayableMedia: ["broken"], budget: .commands(2_000), seed: 7)

  /// player-sim's fake media, with unplayable media among the loads.
  private static func fake(hostile: HostileMode?, preload: Bool) -> FuzzedEngine {
    let clock = VirtualClock()
    let profiles: [MediaID: MediaProfile] = [
      "B": MediaProfile(readyAfter: .milliseconds(5), duration: .milliseconds(300)),
      "broken": MediaProfile(failAfter: .milliseconds(30), failureReason: .decoding),
    ]
    let engine = FakeMediaEngine(
      clock: clock, profiles: profiles, hostile: hostile, preload: preload)
    return .virtual(engine, advance: { clock.advance(by: $0) })
  }

  /// Well-behaved and preloading, the fake keeps every promise; hostile (late
  /// reports after stop, repeats, re-entrant answers) without preloading, it
  /// keeps them too, and the absorbed breaches are counted.
  @Test func theFakeMediaEngineKeepsEveryPromise() async {
    let fuzzer = EngineFuzzer(Self.fakeConfiguration)
    let preloading = await fuzzer.run { Self.fake(hostile: nil, preload: true) }
    #expect(preloading.failure == nil, "\(preloading)")
    #expect(preloading.commands == 2_000)
    #expect(preloading.reportsChecked == 437, "\(preloading)")
    #expect(preloading.notes == [])
    let hostile = await fuzzer.run { Self.fake(hostile: HostileMode(seed: 3), preload: false) }
    #expect(hostile.failure == nil, "\(hostile)")
    #expect(hostile.reportsChecked == 1_443, "\(hostile)")
    #expect(
      hostile.notes.map(\.breach) == [
        .reportAfterStop, .repeatedReport, .reportFromInsideExecute,
      ])
  }

  /// Hostile and preloading, the fake calls back for a stopped preload: a
  /// breach the machine does not absorb (it could still roll into that preload).
  @Test func theHostileFakeBreaksPreloadStopIsFinal() async throws {
    let fuzzer = EngineFuzzer(Self.fakeConfiguration)
    let report = await fuzzer.run { Self.fake(hostile: HostileMode(seed: 3), preload: true) }
    let failure = try #require(report.failure)
    #expect(failure.promise == .preloadStopIsFinal)
    // The shortest script a player could send: a preload needs a current load.
    #expect(
      failure.minimal.lines == ["+0ms load(A#1)", "+0ms preload(A#2)", "+0ms stop(A#2)"],
      "\(failure)")
    #expect(
      failure.minimalOutcome.violations.map(\.description) == [
        "preloadStopIsFinal: ready(A#2) after stop(A#2) of the preload returned"
      ])
  }

  /// Shrinking keeps a script one the machine could send: every generated
  /// script is, and a candidate that is not is never run (it would blame the
  /// engine for commands no player sends).
  @Test func shrinkingKeepsScriptsTheMachineCouldSend() throws {
    let fuzzer = EngineFuzzer(.init(media: ["A", "B"], unplayableMedia: ["C"]))
    for seed in UInt64(0)..<200 {
      #expect(FuzzShrinker.isMachineShaped(fuzzer.generate(caseSeed: seed).steps), "seed \(seed)")
    }
    let media: [MediaID] = ["A", "B"]
    func shaped(_ text: String) throws -> Bool {
      FuzzShrinker.isMachineShaped(try EngineFuzzScript.parse(text, media: media).steps)
    }
    #expect(try shaped("+0ms load(A#1)\n+0ms preload(B#2)\n+0ms stop(A#1)\n+0ms start(B#2)"))
    #expect(try shaped("+0ms load(A#1)\n+0ms seek(A#1, 0ms, seek#1)\n+0ms stop(A#1)"))
    // A preload with nothing playing, a seek of an unstarted preload, two live
    // loads, a command after stop (a reused token or a seek id going back is
    // refused by the parser already).
    #expect(try !shaped("+0ms preload(A#1)\n+0ms stop(A#1)"))
    #expect(try !shaped("+0ms load(A#1)\n+0ms preload(B#2)\n+0ms seek(B#2, 0ms, seek#1)"))
    #expect(try !shaped("+0ms load(A#1)\n+0ms load(B#2)"))
    #expect(try !shaped("+0ms load(A#1)\n+0ms stop(A#1)\n+0ms start(A#1)"))
  }

  @Test func commandsFollowFromTheSeedAndPrintBackToTheSameScript() throws {
    let fuzzer = EngineFuzzer(.init(media: ["A", "B"], unplayableMedia: ["C"]))
    let script = fuzzer.generate(caseSeed: 99)
    #expect(script == fuzzer.generate(caseSeed: 99))
    #expect(script != fuzzer.generate(caseSeed: 100))
    #expect(script.steps.count == 40)
    let parsed = try EngineFuzzScript.parse("\(script)", media: ["A", "B", "C"])
    #expect(parsed == script)
    let withoutPreloads = fuzzer.generate(caseSeed: 99, preloads: false)
    #expect(!withoutPreloads.lines.contains { $0.contains("preload(") })
  }

  @Test(arguments: [
    (
      "+0ms load(A#1)\nplay",
      "t.script:2: expected `+<delay>ms <command>`, as in `+0ms load(A#1)`, got `play`"
    ),
    ("+5s load(A#1)", "t.script:1: the delay must be whole milliseconds, as in `+25ms`, got `+5s`"),
    (
      "+0ms play(A#1)",
      "t.script:1: unknown command `play`: expected load, preload, start, pause, seek or stop"
    ),
    ("# x\n\n+0ms load(Q#1)", "t.script:3: unknown media `Q`: the fuzzer has 2 media (A, B)"),
    ("+0ms start(A#1)", "t.script:1: A#1 was never loaded: load or preload it on an earlier line"),
    (
      "+0ms load(A#2)\n+0ms load(B#1)",
      "t.script:2: token 1 is below token 2 of line 1: tokens are issued in increasing order"
    ),
    (
      "+0ms load(A#1)\n+0ms load(A#1)",
      "t.script:2: token 1 was already loaded on line 1: a token is issued once"
    ),
    ("+0ms load(A#1)\n+0ms stop(B#1)", "t.script:2: B#1 was loaded as A#1 on line 1"),
    (
      "+0ms load(A#1)\n+0ms seek(A#1, 0ms, seek#2)\n+0ms seek(A#1, 0ms, seek#2)",
      "t.script:3: seek#2 of A#1 is not newer than seek#2 of line 2"
    ),
    (
      "+0ms load(A#1)\n+0ms seek(A#1, 1s, seek#1)",
      "t.script:2: expected a time in whole milliseconds such as `100ms`, got `1s`"
    ),
    (
      "+0ms load(A#1)\n+0ms seek(A#1, 0ms)",
      "t.script:2: `seek` takes 3 arguments, got 2: `seek(A#1, 0ms)`"
    ),
    (
      "+0ms load(A#0)",
      "t.script:1: expected a load such as `A#1` (media letter, #, token from 1), got `A#0`"
    ),
    ("+700000ms load(A#1)", "t.script:1: the delay 700000ms is longer than the longest, 600000ms"),
  ])
  func badScriptsAreRejectedWithFileAndLine(text: String, message: String) {
    #expect(throws: EngineFuzzScriptError.self) {
      try EngineFuzzScript.parse(text, media: ["A", "B"], file: "t.script")
    }
    do {
      _ = try EngineFuzzScript.parse(text, media: ["A", "B"], file: "t.script")
    } catch {
      #expect(error.description == message)
    }
  }
}
