import Foundation
import PlayerEngine
import PlayerState
import Synchronization
import Testing

@testable import GStreamerEngine

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a sink received, with when (since the sink was made).
final class ReportLog: Sendable {
  private let clock = ContinuousClock()
  private let origin: ContinuousClock.Instant
  private let entries = Mutex<[(at: Duration, report: EngineReport)]>([])
  private let arrived = AsyncStream<Void>.makeStream()

  init() { origin = clock.now }

  var sink: ReportSink {
    ReportSink { [self] report in
      entries.withLock { $0.append((clock.now - origin, report)) }
      arrived.continuation.yield()
    }
  }

  var reports: [(at: Duration, report: EngineReport)] { entries.withLock { $0 } }

  /// Waits until a report satisfies `condition`, at most `timeout`; returns it and when it came.
  func first(
    within timeout: Duration = .seconds(10),
    where condition: @escaping @Sendable (EngineReport) -> Bool
  ) async throws -> (at: Duration, report: EngineReport) {
    let deadline = clock.now + timeout
    while clock.now < deadline {
      if let found = reports.first(where: { condition($0.report) }) { return found }
      try await Task.sleep(for: .milliseconds(10))
    }
    throw TimedOut(what: "a report (got \(reports.map(\.report)))")
  }
}

/// `load(L, from t)` on real pipelines, and a preroll that never completes.
@Suite(
  "GStreamerEngine: start positions and the preroll timeout", .serialized, .timeLimit(.minutes(1)))
struct StartAndPrerollTests {
  static let load = Load(1, 1)

  /// A 2 s WAV loaded from 1000 ms: `ready` after the seek there, every position
  /// reported from 1000 ms on, and the end about 1 s after `start`.
  @Test func aLoadFromAStartPlaysFromThere() async throws {
    let path = try TestMedia.wavFile(milliseconds: 2_000)
    let engine = GStreamerEngine(options: .init(positionInterval: .milliseconds(50)))
    let log = ReportLog()
    let request = LoadRequest(load: Self.load, media: MediaID(path), start: .milliseconds(1_000))
    engine.execute(.load(request), reports: log.sink)
    let ready = try await log.first { $0 == .ready(Self.load) }
    engine.execute(.start(Self.load), reports: log.sink)
    let end = try await log.first { $0 == .reachedEnd(Self.load) }
    engine.execute(.stop(Self.load), reports: log.sink)

    let positions = log.reports.compactMap { entry -> Int64? in
      guard case .position(_, let time) = entry.report else { return nil }
      return time.milliseconds
    }
    #expect(positions.count >= 5, "\(positions)")  // about 20 in 1 s, every 50 ms
    let first = try #require(positions.first)
    #expect(first >= 1_000 && first < 1_300, "\(positions)")
    #expect(positions.allSatisfy { $0 >= 1_000 && $0 <= 2_000 }, "\(positions)")
    // The second that is left plays in real time.
    let played = end.at - ready.at
    #expect(played >= .milliseconds(800) && played < .milliseconds(1_700), "\(played)")
    #expect(log.reports.first?.report == .ready(Self.load))
  }

  /// The player's `play(M, from: 1500ms)`: the machine sends `load(L, from 1500ms)`, and
  /// every position the pipeline reports is from there.
  @Test func playFromAPositionPlaysFromThere() async throws {
    let path = try TestMedia.wavFile(milliseconds: 2_000)
    let positions = Mutex<[Int64]>([])
    let engine = GStreamerEngine(options: .init(positionInterval: .milliseconds(50)))
    let player = Player(engine: engine) { step in
      if case .engine(.position(_, let time)) = step.event {
        positions.withLock { $0.append(time.milliseconds) }
      }
    }
    let states = player.stateChanges()
    player.send(.play(MediaID(path), from: .milliseconds(1_500)))
    #expect(try await kinds(in: states, until: .ended).last == .ended)
    #expect(player.state.description == "ended(\(path)#1, autoplay)")
    let seen = positions.withLock { $0 }
    #expect(seen.count >= 3, "\(seen)")  // about 10 in 0.5 s, every 50 ms
    #expect(seen.allSatisfy { $0 >= 1_500 && $0 <= 2_000 }, "\(seen)")
    player.send(.stop)
  }

  /// A pipeline that never prerolls and posts no error (a FIFO that a writer keeps open
  /// without writing: the source waits for data for ever) is answered
  /// `failed(L, timeout)` after ``GStreamerEngine/Options/prerollTimeout``.
  @Test func aPrerollThatNeverCompletesFailsWithTimeout() async throws {
    let fifo = try TestMedia.folder().appendingPathComponent("stall.ogg").path
    #expect(mkfifo(fifo, 0o600) == 0)
    let writer = open(fifo, O_RDWR)  // does not block; keeps the FIFO open, empty
    #expect(writer >= 0)
    let engine = GStreamerEngine(options: .init(prerollTimeout: .milliseconds(400)))
    let log = ReportLog()
    engine.execute(.load(LoadRequest(load: Self.load, media: MediaID(fifo))), reports: log.sink)
    let failed = try await log.first { if case .failed = $0 { true } else { false } }
    #expect(failed.at >= .milliseconds(400) && failed.at < .seconds(5), "\(failed.at)")
    #expect(
      failed.report.description(naming: { _ in "S" })
        == "failed(S#1, timeout, playhead-gstreamer 1 \"the preroll did not complete within 0.4 s (no ASYNC_DONE nor ERROR)\")"
    )
    close(writer)  // the source reads the end of the FIFO: the pipeline can shut down
    engine.execute(.stop(Self.load), reports: log.sink)
    #expect(log.reports.count == 1, "\(log.reports.map(\.report))")
  }
}
