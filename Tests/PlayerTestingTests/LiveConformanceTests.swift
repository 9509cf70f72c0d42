import PlayerEngine
import PlayerState
import PlayerTesting
import Testing

/// Every promise the kit checks with live media configured and a DVR window, in check order.
private let withLiveDVR: [EnginePromise] = [
  .executeReturnsPromptly, .loadAnswered, .reportNamesIssuedLoad, .systemPauseNamesPlayingLoad,
  .commandFromReportCallback,
  .seekCompletionCarriesSeekID, .stopDuringBufferingStops,
  .unknownLoadHarmless, .stoppedLoadHarmless,
  .windowIsWellFormed, .liveMediaReportsWindow, .seekInWindowCompletes, .liveEdgeLoadAnswered,
]

/// Delivers a spy's `.later` replies; false when none were queued.
private func delivering(_ spy: SpyEngine) -> @Sendable () -> Bool {
  {
    let due = spy.pendingCount
    spy.deliverPending()
    return due > 0
  }
}

/// A kit for `A` with `L` as its live media, driving the spy until nothing is queued.
private func liveKit(_ spy: SpyEngine) -> EngineConformance {
  EngineConformance(.init(media: "A", liveMedia: "L", timing: .driven(delivering(spy))))
}

/// The window `start…end`, in milliseconds.
private func window(_ start: Int64, _ end: Int64) -> LiveWindow {
  LiveWindow(start: .milliseconds(start), end: .milliseconds(end))
}

/// A contract-keeping spy, all of whose replies come later: `A` is answered `ready`;
/// `L` is live, answered `ready` (with `duration`, if any) then `windows`, or `windows`
/// first when `windowsFirst`; seeks complete.
/// - Parameters:
///   - completesLiveSeeks: false to drop the completions of seeks of `L`.
///   - answersAtLiveEdge: false to leave `load(L, at live edge)` unanswered.
///   - answersLive: false to leave every load of `L` unanswered.
private func liveSpy(
  windows: [LiveWindow], duration: MediaTime? = nil, windowsFirst: Bool = false,
  completesLiveSeeks: Bool = true, answersAtLiveEdge: Bool = true, answersLive: Bool = true
) -> SpyEngine {
  SpyEngine(keepsContract: true) { command in
    switch command {
    case .load(let request) where request.media == "L":
      if !answersLive || (request.atLiveEdge && !answersAtLiveEdge) { return [] }
      let ready = SpyEngine.Reply(.ready(request.load, duration: duration), .later)
      let reported = windows.map { SpyEngine.Reply(.window(request.load, $0), .later) }
      return windowsFirst ? reported + [ready] : [ready] + reported
    case .load(let request), .preload(let request):
      return [.init(.ready(request.load), .later)]
    case .seek(let load, _, let seek):
      if load.token.rawValue >= 11, !completesLiveSeeks { return [] }
      return [.init(.seekCompleted(load, seek), .later)]
    case .start, .setRate, .pause, .stop, .setVolume:
      return []
    }
  }
}

@Suite("The conformance kit judges live windows")
struct LiveConformanceTests {
  /// A live engine that keeps the contract passes every promise, the live ones included.
  @Test func wellBehavedLiveEngineConforms() async {
    let spy = liveSpy(windows: [window(0, 60000)])
    let report = await liveKit(spy).run(against: spy)
    #expect(report.brokenNames == [], "\(report)")
    #expect(report.conforms)
    #expect(report.checked == withLiveDVR)
    #expect(report.notes == [])
    #expect(
      Array(report.transcript.drop { $0 != "load(L#11)" }) == [
        "load(L#11)", "ready(L#11)", "window(L#11, 0ms…60000ms)", "seek(L#11, 30000ms, seek#1)",
        "seeked(L#11, seek#1)", "stop(L#11)", "load(L#12, at live edge)", "ready(L#12)",
        "window(L#12, 0ms…60000ms)", "stop(L#12)",
      ])
    #expect(report.description == "conforms: 13 promises kept")
  }

  /// Without DVR (a window of zero length) the machine never seeks: the kit does not either,
  /// and does not count the seek promise as skipped.
  @Test func liveEngineWithoutDVRIsNotSought() async {
    let spy = liveSpy(windows: [window(5000, 5000)])
    let report = await liveKit(spy).run(against: spy)
    #expect(report.brokenNames == [], "\(report)")
    #expect(report.conforms)
    #expect(report.checked == withLiveDVR.filter { $0 != .seekInWindowCompletes })
    #expect(!report.transcript.contains { $0.hasPrefix("seek(L#") })
  }

  struct Case: CustomStringConvertible, Sendable {
    let name: String
    let engine: @Sendable () -> SpyEngine
    let violations: [String]
    let notes: [String]
    let skipped: [EnginePromise: String]
    var description: String { name }
  }

  static let cases: [Case] = [
    Case(
      name: "an edge behind the start, then a good window",
      engine: { liveSpy(windows: [window(60000, 50000), window(0, 60000)]) },
      violations: [
        "windowIsWellFormed: window(L#11, 60000ms…50000ms) has its live edge before its start",
        "windowIsWellFormed: window(L#12, 60000ms…50000ms) has its live edge before its start",
      ],
      notes: [], skipped: [:]),
    Case(
      name: "a negative start, then a good window",
      engine: { liveSpy(windows: [window(-5000, 60000), window(0, 60000)]) },
      violations: [
        "windowIsWellFormed: window(L#11, -5000ms…60000ms) has a negative start",
        "windowIsWellFormed: window(L#12, -5000ms…60000ms) has a negative start",
      ],
      notes: [], skipped: [:]),
    Case(
      name: "only an edge behind the start",
      engine: { liveSpy(windows: [window(60000, 50000)]) },
      violations: [
        "windowIsWellFormed: window(L#11, 60000ms…50000ms) has its live edge before its start",
        "windowIsWellFormed: window(L#12, 60000ms…50000ms) has its live edge before its start",
      ],
      notes: [],
      skipped: [.seekInWindowCompletes: "load(L#11) reported no well-formed window"]),
    Case(
      name: "no window for the live media",
      engine: { liveSpy(windows: []) },
      violations: [
        "liveMediaReportsWindow: load(L#11) was answered ready(L#11), but reported no window "
          + "before the engine went idle"
      ],
      notes: [],
      skipped: [.seekInWindowCompletes: "load(L#11) reported no well-formed window"]),
    Case(
      name: "a live ready with a duration",
      engine: { liveSpy(windows: [window(0, 60000)], duration: .milliseconds(10000)) },
      violations: [],
      notes: [
        "durationForLiveLoad ×2, first: ready(L#11, duration 10000ms) of a live load, before "
          + "window(L#11, 0ms…60000ms)"
      ],
      skipped: [:]),
    Case(
      name: "a live ready with a duration, after the window",
      engine: {
        liveSpy(windows: [window(0, 60000)], duration: .milliseconds(10000), windowsFirst: true)
      },
      violations: [],
      notes: [
        "durationForLiveLoad ×2, first: ready(L#11, duration 10000ms) of a live load, after "
          + "window(L#11, 0ms…60000ms)"
      ],
      skipped: [:]),
    Case(
      name: "a seek inside the window never completes",
      engine: { liveSpy(windows: [window(0, 60000)], completesLiveSeeks: false) },
      violations: [
        "seekInWindowCompletes: seek(L#11, 30000ms, seek#1), inside window(L#11, 0ms…60000ms), "
          + "got no seeked(L#11, seek#1) before the engine went idle"
      ],
      notes: [], skipped: [:]),
    Case(
      name: "a load at the live edge is never answered",
      engine: { liveSpy(windows: [window(0, 60000)], answersAtLiveEdge: false) },
      violations: [
        "liveEdgeLoadAnswered: load(L#12, at live edge) got no ready or failed before the "
          + "engine went idle"
      ],
      notes: [], skipped: [:]),
    Case(
      name: "the live media is never answered",
      engine: { liveSpy(windows: [window(0, 60000)], answersLive: false) },
      violations: [
        "loadAnswered: load(L#11) got no ready or failed before the engine went idle"
      ],
      notes: [],
      skipped: [
        .liveMediaReportsWindow: "load(L#11) got no answer",
        .seekInWindowCompletes: "load(L#11) got no answer",
        .liveEdgeLoadAnswered: "load(L#11) got no answer",
      ]),
  ]

  /// Each planted fault is named exactly: a broken promise, or a note the machine absorbs.
  @Test(arguments: cases)
  func faultIsNamedOrNoted(_ testCase: Case) async {
    let spy = testCase.engine()
    let report = await liveKit(spy).run(against: spy)
    #expect(report.violations.map(\.description) == testCase.violations, "\(report)")
    #expect(report.notes.map(\.description) == testCase.notes, "\(report)")
    #expect(report.skipped == testCase.skipped, "\(report)")
  }

  /// The whole printed report of an engine whose live windows have their edge behind
  /// their start.
  @Test func reportOfAnEdgeBehindTheStart() async {
    let spy = liveSpy(windows: [window(60000, 50000)], duration: .milliseconds(10000))
    let report = await liveKit(spy).run(against: spy)
    #expect(
      report.description == """
        broken: windowIsWellFormed
          windowIsWellFormed: window(L#11, 60000ms…50000ms) has its live edge before its start
          windowIsWellFormed: window(L#12, 60000ms…50000ms) has its live edge before its start
          skipped seekInWindowCompletes: load(L#11) reported no well-formed window
        """)
  }

  /// Windows are judged passively, live media configured or not: a malformed window for
  /// on-demand media `A` breaks the promise, and the kit lists it as checked from then on.
  @Test func windowsAreJudgedWithoutLiveMedia() async {
    let spy = SpyEngine(keepsContract: true) { command in
      switch command {
      case .load(let request) where request.load.token == LoadToken(2):
        [
          .init(.ready(request.load), .later),
          .init(.window(request.load, window(-1, 0)), .later),
        ]
      case .load(let request), .preload(let request): [.init(.ready(request.load), .later)]
      case .seek(let load, _, let seek): [.init(.seekCompleted(load, seek), .later)]
      case .start, .setRate, .pause, .stop, .setVolume: []
      }
    }
    let kit = EngineConformance(.init(media: "A", timing: .driven(delivering(spy))))
    let report = await kit.run(against: spy)
    #expect(
      report.violations.map(\.description) == [
        "windowIsWellFormed: window(A#2, -1ms…0ms) has a negative start"
      ])
    // Listed in declaration order, although first exercised during check 2.
    #expect(report.checked == Array(withLiveDVR.prefix(10)))
  }

  /// A preload that reports a window is stopped by the machine: no breach, and no
  /// note. An unplayable live media's failure skips the window and the seek, not the
  /// load at the live edge.
  @Test func aLivePreloadIsNoBreach() async {
    let spy = SpyEngine(keepsContract: true, capabilities: .preload) { command in
      switch command {
      case .preload(let request):
        [
          .init(.ready(request.load), .later),
          .init(.window(request.load, window(0, 60000)), .later),
        ]
      case .load(let request) where request.media == "L" && !request.atLiveEdge:
        [.init(.failed(request.load, .network), .later)]
      case .load(let request): [.init(.ready(request.load), .later)]
      case .seek(let load, _, let seek): [.init(.seekCompleted(load, seek), .later)]
      case .start, .setRate, .pause, .stop, .setVolume: []
      }
    }
    let report = await liveKit(spy).run(against: spy)
    #expect(report.violations == [], "\(report)")
    #expect(report.notes == [], "\(report)")
    #expect(
      report.skipped == [
        .liveMediaReportsWindow: "load(L#11) was answered failed(L#11, network)",
        .seekInWindowCompletes: "load(L#11) was answered failed(L#11, network)",
      ])
    #expect(
      report.checked.suffix(3) == [
        .windowIsWellFormed, .liveMediaReportsWindow, .liveEdgeLoadAnswered,
      ])
  }
}
