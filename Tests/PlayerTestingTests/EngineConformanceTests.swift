import Dispatch
import PlayerEngine
import PlayerState
import PlayerTesting
import Testing

/// Every promise the kit checks when no unplayable media is configured, in check order.
private let allButUnplayable: [EnginePromise] = [
  .executeReturnsPromptly, .loadAnsweredOnce, .reportNamesIssuedLoad, .noReportAfterStop,
  .commandFromReportCallback, .seekCompletionCarriesSeekID, .stopDuringBufferingStops,
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

  @Test func unplayableMediaIsCheckedWhenConfigured() async {
    let spy = SpyEngine(keepsContract: true) { command in
      switch command {
      case .load(let load) where load.media == "missing":
        [.init(.failed(load, .notFound), .immediately)]
      case .load(let load): [.init(.ready(load), .immediately)]
      case .seek(let load, _, let seek): [.init(.seekCompleted(load, seek), .immediately)]
      case .start, .pause, .stop: []
      }
    }
    let kit = EngineConformance(
      .init(media: "A", unplayableMedia: "missing", timing: .driven { false }))
    let report = await kit.run(against: spy)
    #expect(report.brokenNames == [])
    #expect(report.checked.last == .unplayableMediaFails)
  }
}

@Suite("The conformance kit names each broken promise")
struct BrokenEngineTests {
  struct Case: CustomStringConvertible, Sendable {
    let fault: FaultyEngine.Fault
    let broken: [String]
    var description: String { "\(fault) breaks \(broken)" }
  }

  static let cases: [Case] = [
    Case(fault: .answersTwice, broken: ["loadAnsweredOnce"]),
    Case(fault: .neverAnswers, broken: ["loadAnsweredOnce"]),
    Case(fault: .mislabelsToken, broken: ["loadAnsweredOnce", "reportNamesIssuedLoad"]),
    Case(fault: .mislabelsSeek, broken: ["seekCompletionCarriesSeekID"]),
    Case(fault: .reportsAfterStop, broken: ["noReportAfterStop", "stopDuringBufferingStops"]),
    Case(fault: .stopStopsCurrent, broken: ["stoppedLoadHarmless"]),
  ]

  @Test(arguments: cases)
  func faultIsNamed(_ testCase: Case) async {
    let engine = FaultyEngine(testCase.fault)
    let report = await drivenKit(engine.step).run(against: engine)
    #expect(report.brokenNames == testCase.broken, "\(report)")
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
    let engine = FaultyEngine(.reportsAfterStop)
    let report = await drivenKit(engine.step).run(against: engine)
    #expect(
      report.violations.map(\.description).prefix(3) == [
        "noReportAfterStop: ended(A#1) after stop(A#1) returned",
        "noReportAfterStop: ended(A#2) after stop(A#2) returned",
        "stopDuringBufferingStops: ended(A#3) after stop(A#3) returned",
      ])
  }

  /// The spy's plain cooperative mode answers whatever it is sent, late
  /// replies after `stop` included: the hostile engine the machine's own
  /// tests need, and the kit says so.
  @Test func cooperativeSpyIsHostileOnPurpose() async {
    let later = SpyEngine.cooperative(.later)
    let laterReport = await drivenKit(stepping(later)).run(against: later)
    #expect(
      laterReport.brokenNames == [
        "stopDuringBufferingStops", "unknownLoadHarmless", "stoppedLoadHarmless",
      ])
    let immediate = await drivenKit { false }.run(against: SpyEngine.cooperative(.immediately))
    #expect(immediate.brokenNames == ["unknownLoadHarmless", "stoppedLoadHarmless"])
  }
}
