import PlayerEngine
import PlayerState
import PlayerTesting
import Testing

@testable import GStreamerEngine

/// The real engine with a system pause added: at each `start` (an engine the system
/// pauses as soon as it plays), or, broken, at each `load` (a load that never played).
struct SystemPausing: PlaybackEngine {
  let inner: GStreamerEngine
  let atLoad: Bool

  var capabilities: EngineCapabilities { inner.capabilities }

  func execute(_ command: EngineCommand, reports: ReportSink) {
    inner.execute(command, reports: reports)
    switch command {
    case .start(let load, _) where !atLoad: reports.send(.pausedBySystem(load))
    case .load(let request) where atLoad: reports.send(.pausedBySystem(request.load))
    default: break
    }
  }
}

/// The kit's passive check of `pausedBySystem`: it must name a load the kit started.
@Suite("The conformance kit and system pauses", .serialized, .timeLimit(.minutes(1)))
struct SystemPauseConformanceTests {
  func run(atLoad: Bool) async throws -> (path: String, report: ConformanceReport) {
    let path = try TestMedia.wavFile(milliseconds: 500)
    let kit = EngineConformance(
      .init(
        media: MediaID(path), seekPositions: [.zero, .milliseconds(100), .milliseconds(200)],
        timing: .realTime(timeout: .seconds(10), quietPeriod: .milliseconds(100))))
    let engine = SystemPausing(inner: GStreamerEngine(), atLoad: atLoad)
    return (path, await kit.run(against: engine))
  }

  @Test func aSystemPauseOfAStartedLoadKeepsThePromise() async throws {
    let (_, report) = try await run(atLoad: false)
    #expect(report.brokenNames == [], "\(report)")
    #expect(report.checked.contains(.systemPauseNamesPlayingLoad))
    #expect(report.transcript.contains { $0.hasPrefix("pausedBySystem(") }, "\(report.transcript)")
  }

  @Test func aSystemPauseOfALoadNeverStartedBreaksIt() async throws {
    let (path, report) = try await run(atLoad: true)
    #expect(report.brokenNames == ["systemPauseNamesPlayingLoad"], "\(report)")
    let first = report.violations.first { $0.promise == .systemPauseNamesPlayingLoad }
    #expect(
      first?.detail == "pausedBySystem(\(path)#1) names the load \(path)#1, never started",
      "\(report)")
  }
}
