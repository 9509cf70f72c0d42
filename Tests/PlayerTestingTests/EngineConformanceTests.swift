import Dispatch
import PlayerEngine
import PlayerState
import PlayerTesting
import Testing

/// Every promise the kit checks when no unplayable media is configured, in check order.
private let allButUnplayable: [EnginePromise] = [
  .executeReturnsPromptly, .loadAnswered, .reportNamesIssuedLoad, .systemPauseNamesPlayingLoad,
  .commandFromReportCallback,
  .seekCompletionCarriesSeekID, .stopDuringBufferingStops,
  .unknownLoadHarmless, .stoppedLoadHarmless,
]

/// A kit that drives the engine by calling `step` until nothing is due: no real time passes.
private func drivenKit(_ step: @escaping @Sendable () -> Bool) -> EngineConformance {
  EngineConformance(.init(media: "A", timing: .driven(step)))
}

/// Delivers a spy's `.later` replies; false when none were queued.
private func stepping(_ spy: SpyEngine) -> @Sendable () -> Bool {
  {
    let due = spy.pendingCount
    spy.deliverPending()
    return due > 0
  }
}

@Suite("The conformance kit passes engines that keep the contract")
struct ConformingEngineTests {
  @Test func immediateSpyConforms() async {
    let report = await drivenKit { false }.run(against: SpyEngine.conforming(.immediately))
    #expect(report.brokenNames == [], "\(report)")
    #expect(report.conforms)
    #expect(report.checked == allButUnplayable)
  }

  @Test func laterSpyConformsWhenDriven() async {
    let spy = SpyEngine.conforming(.later)
    let report = await drivenKit(stepping(spy)).run(against: spy)
    #expect(report.brokenNames == [], "\(report)")
    #expect(report.checked == allButUnplayable)
  }

  /// The real-time path (Dispatch threads, condition waits) with an engine that
  /// answers inside `execute`: every wait ends as soon as its condition holds.
  @Test func immediateSpyConformsInRealTime() async {
    let kit = EngineConformance(
      .init(media: "A", timing: .realTime(timeout: .seconds(10), quietPeriod: .zero)))
    let report = await kit.run(against: SpyEngine.conforming(.immediately))
    #expect(report.brokenNames == [], "\(report)")
    #expect(report.checked == allButUnplayable)
  }

  @Test func transcriptOfTheFirstCheck() async {
    let report = await drivenKit { false }.run(against: SpyEngine.conforming(.immediately))
    #expect(
      Array(report.transcript.prefix(5)) == [
        "load(A#1)", "ready(A#1)", "start(A#1)", "stop(A#1)", "load(A#2)",
      ])
  }

  /// An engine that declares `.preload` is checked for the four preload
  /// promises too, after the others and before unplayable media.
  @Test func preloadingSpyIsCheckedForThePreloadPromises() async {
    let spy = SpyEngine(keepsContract: true, capabilities: .preload) { command in
      switch command {
      case .load(let request), .preload(let request): [.init(.ready(request.load), .immediately)]
      case .seek(let load, _, let seek): [.init(.seekCompleted(load, seek), .immediately)]
      case .start, .setRate, .pause, .stop, .setVolume: []
      }
    }
    let report = await drivenKit { false }.run(against: spy)
    #expect(report.brokenNames == [], "\(report)")
    #expect(
      report.checked
        == allButUnplayable + [
          .preloadAnswered, .preloadBesideCurrent, .positionNamesPlayingLoad, .preloadStopIsFinal,
        ])
    let check5 = report.transcript.drop { $0 != "load(A#8)" }
    #expect(
      Array(check5) == [
        "load(A#8)", "ready(A#8)", "start(A#8)", "preload(A#9)", "ready(A#9)",
        "seek(A#8, 100ms, seek#1)", "seeked(A#8, seek#1)", "stop(A#8)", "start(A#9)",
        "preload(A#10)", "ready(A#10)", "stop(A#10)", "seek(A#9, 0ms, seek#1)",
        "seeked(A#9, seek#1)", "stop(A#9)",
      ])
  }

  /// A system pause of a load the kit started keeps the passive promise; one of a load
  /// never started (here, with its `ready`) breaks it, for each load the kit makes.
  @Test func aSystemPauseMustNameAStartedLoad() async {
    let pausesWhenStarted = SpyEngine(keepsContract: true) { command in
      switch command {
      case .load(let request), .preload(let request): [.init(.ready(request.load), .immediately)]
      case .seek(let load, _, let seek): [.init(.seekCompleted(load, seek), .immediately)]
      case .start(let load, _): [.init(.pausedBySystem(load), .immediately)]
      case .setRate, .pause, .stop, .setVolume: []
      }
    }
    let kept = await drivenKit { false }.run(against: pausesWhenStarted)
    #expect(kept.brokenNames == [], "\(kept)")
    #expect(
      kept.transcript.prefix(4) == ["load(A#1)", "ready(A#1)", "start(A#1)", "pausedBySystem(A#1)"])

    let pausesWhenLoaded = SpyEngine(keepsContract: true) { command in
      switch command {
      case .load(let request), .preload(let request):
        [
          .init(.ready(request.load), .immediately),
          .init(.pausedBySystem(request.load), .immediately),
        ]
      case .seek(let load, _, let seek): [.init(.seekCompleted(load, seek), .immediately)]
      case .start, .setRate, .pause, .stop, .setVolume: []
      }
    }
    let broken = await drivenKit { false }.run(against: pausesWhenLoaded)
    #expect(broken.brokenNames == ["systemPauseNamesPlayingLoad"], "\(broken)")
    // A#1 is started from inside its ready callback (check 1), before its pause arrives;
    // A#2 (the seeks' load) never is.
    #expect(
      broken.violations.first?.description
        == "systemPauseNamesPlayingLoad: pausedBySystem(A#2) names the load A#2, never started")
  }

  /// Every `failed` report reaches `report.failures` with the engine's detail, untouched.
  @Test func failureDetailPassesThrough() async {
    let detail = FailureDetail(domain: "NSURLErrorDomain", code: -1009, message: "offline")
    let failsBroken = SpyEngine(keepsContract: true) { command in
      switch command {
      case .load(let request) where request.media == "broken":
        [.init(.failed(request.load, .network, detail: detail), .immediately)]
      case .load(let request), .preload(let request): [.init(.ready(request.load), .immediately)]
      case .seek(let load, _, let seek): [.init(.seekCompleted(load, seek), .immediately)]
      case .start, .setRate, .pause, .stop, .setVolume: []
      }
    }
    let kit = EngineConformance(
      .init(media: "A", unplayableMedia: "broken", timing: .driven { false }))
    let report = await kit.run(against: failsBroken)
    #expect(report.brokenNames == [], "\(report)")
    #expect(report.failures == [.failed(Load(7, 7), .network, detail: detail)])
    #expect(
      report.transcript.contains(#"failed(broken#7, network, NSURLErrorDomain -1009 "offline")"#))
  }

  /// The same spy without the capability is never sent `preload`.
  @Test func engineWithoutPreloadIsNeverSentPreload() async {
    let report = await drivenKit { false }.run(against: SpyEngine.conforming(.immediately))
    #expect(!report.transcript.contains { $0.hasPrefix("preload(") })
    #expect(report.transcript.last == "stop(A#6)")
  }

  @Test func unplayableMediaIsCheckedWhenConfigured() async {
    let spy = SpyEngine(keepsContract: true) { command in
      switch command {
      case .load(let request) where request.media == "missing":
        [.init(.failed(request.load, .notFound), .immediately)]
      case .load(let request), .preload(let request): [.init(.ready(request.load), .immediately)]
      case .seek(let load, _, let seek): [.init(.seekCompleted(load, seek), .immediately)]
      case .start, .setRate, .pause, .stop, .setVolume: []
      }
    }
    let kit = EngineConformance(
      .init(media: "A", unplayableMedia: "missing", timing: .driven { false }))
    let report = await kit.run(against: spy)
    #expect(report.brokenNames == [])
    #expect(report.checked.last == .unplayableMediaFails)
  }
}

@Suite("The conformance kit fails what the machine relies on and notes what it absorbs")
struct BrokenEngineTests {
  struct Case: CustomStringConvertible, Sendable {
    let fault: FaultyEngine.Fault
    let broken: [String]
    let absorbed: [AbsorbedBreach: Int]
    var description: String { "\(fault) breaks \(broken), absorbed \(absorbed)" }
  }

  static let cases: [Case] = [
    Case(fault: .none, broken: [], absorbed: [:]),
    Case(fault: .preloadsCorrectly, broken: [], absorbed: [:]),
    Case(
      fault: .answersTwice, broken: [],
      absorbed: [.repeatedReport: 2, .reportFromInsideExecute: 6]),
    Case(fault: .neverAnswers, broken: ["loadAnswered"], absorbed: [:]),
    Case(fault: .mislabelsToken, broken: ["loadAnswered", "reportNamesIssuedLoad"], absorbed: [:]),
    Case(fault: .mislabelsSeek, broken: ["seekCompletionCarriesSeekID"], absorbed: [:]),
    Case(fault: .reportsAfterStop, broken: [], absorbed: [.reportAfterStop: 6]),
    Case(fault: .stopStopsCurrent, broken: ["stoppedLoadHarmless"], absorbed: [:]),
    Case(
      fault: .preloadAnsweredAsCurrent, broken: ["preloadAnswered"],
      absorbed: [.repeatedReport: 1]),
    Case(
      fault: .preloadReplacesCurrent, broken: ["preloadBesideCurrent", "preloadStopIsFinal"],
      absorbed: [:]),
    Case(fault: .positionForUnstartedPreload, broken: ["positionNamesPlayingLoad"], absorbed: [:]),
    Case(
      fault: .positionNamesLastLoad, broken: ["positionNamesPlayingLoad"],
      absorbed: [.reportAfterStop: 1]),
    Case(
      fault: .preloadReportsAfterStop, broken: ["preloadStopIsFinal"],
      absorbed: [.reportAfterStop: 1]),
  ]

  @Test(arguments: cases)
  func faultIsNamedOrNoted(_ testCase: Case) async {
    let engine = FaultyEngine(testCase.fault)
    let report = await drivenKit(engine.step).run(against: engine)
    #expect(report.brokenNames == testCase.broken, "\(report)")
    #expect(report.absorbed == testCase.absorbed, "\(report)")
  }

  @Test func neverAnsweringSkipsWhatNeedsAReadyLoad() async {
    let engine = FaultyEngine(.neverAnswers)
    let report = await drivenKit(engine.step).run(against: engine)
    #expect(
      report.skipped == [
        .commandFromReportCallback: "load(A#1) got no answer",
        .seekCompletionCarriesSeekID: "load(A#2) got no answer",
        .stoppedLoadHarmless: "load(A#5) got no answer",
      ])
    #expect(!report.conforms)
  }

  @Test func violationsSayWhatHappened() async {
    let engine = FaultyEngine(.mislabelsToken)
    let report = await drivenKit(engine.step).run(against: engine)
    #expect(
      report.violations.map(\.description).prefix(2) == [
        "reportNamesIssuedLoad: ready(A#101) names token 101, never issued",
        "loadAnswered: load(A#1) got no ready or failed before the engine went idle",
      ])
  }

  @Test func preloadViolationsSayWhatHappened() async {
    let replaced = FaultyEngine(.preloadReplacesCurrent)
    let replacedReport = await drivenKit(replaced.step).run(against: replaced)
    #expect(
      replacedReport.violations.map(\.description).first
        == "preloadBesideCurrent: seek(A#8, seek#1), sent while A#9 was preloaded, got no "
        + "seeked(A#8, seek#1) before the engine went idle")
    let positions = FaultyEngine(.positionNamesLastLoad)
    let positionsReport = await drivenKit(positions.step).run(against: positions)
    #expect(
      positionsReport.violations.map(\.description) == [
        "positionNamesPlayingLoad: the engine reported positions for A#8, but none for A#9 "
          + "after stop(A#8) and start(A#9) before the engine went idle"
      ])
    let early = FaultyEngine(.positionForUnstartedPreload)
    let earlyReport = await drivenKit(early.step).run(against: early)
    #expect(
      earlyReport.violations.map(\.description) == [
        "positionNamesPlayingLoad: position(A#9, 0ms) names the preload A#9, never started",
        "positionNamesPlayingLoad: position(A#10, 0ms) names the preload A#10, never started",
      ])
  }

  /// Late reports after `stop` are what real engines do: the machine ignores
  /// them, so the kit passes the engine and counts them.
  @Test func lateReportsAfterStopAreNotesNotFailures() async {
    let engine = FaultyEngine(.reportsAfterStop)
    let report = await drivenKit(engine.step).run(against: engine)
    #expect(report.conforms)
    #expect(
      report.notes.map(\.description) == [
        "reportAfterStop ×6, first: ended(A#1) after stop(A#1) returned"
      ])
    #expect(
      report.description == """
        conforms: 9 promises kept
        notes (absorbed by the machine, not failures):
          reportAfterStop ×6, first: ended(A#1) after stop(A#1) returned
        """)
  }

  /// The spy's plain cooperative mode answers whatever it is sent, late
  /// replies after `stop` and replies for never-loaded tokens included: the
  /// hostile engine the machine's own tests need. It passes, with notes.
  @Test func hostileSpyPassesWithNotes() async {
    let later = SpyEngine.cooperative(.later)
    let laterReport = await drivenKit(stepping(later)).run(against: later)
    #expect(laterReport.brokenNames == [], "\(laterReport)")
    #expect(laterReport.absorbed == [.reportAfterStop: 2, .reportForUnloadedToken: 1])
    let immediate = await drivenKit { false }.run(against: SpyEngine.cooperative(.immediately))
    #expect(immediate.brokenNames == [], "\(immediate)")
    #expect(
      immediate.absorbed == [
        .reportAfterStop: 1, .reportForUnloadedToken: 1, .reportFromInsideExecute: 13,
      ])
    #expect(
      immediate.notes.map(\.first) == [
        "seeked(A#5, seek#1) after stop(A#5) returned",
        "seeked(A#1000, seek#1) for a load never loaded",
        "ready(A#1) from inside execute(load(A#1))",
      ])
  }
}
