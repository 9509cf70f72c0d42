import Foundation
import PlayerEngine
import PlayerState
import Synchronization
import Testing

@testable import GStreamerEngine

/// Issue 37, items 3 and 5 on real pipelines: the crossfade's commands played by two playbins.
/// One ordered log holds the commands the engine was sent and, from the pipelines' threads,
/// playbin's `volume` read back after each change, the state a pipeline settled in after a
/// `start` or `pause`, and each pipeline's release. The checks are orderings and trends, not
/// times: the machine is shared by up to six builds.
@Suite("GStreamerEngine: crossfade on real pipelines", .serialized, .timeLimit(.minutes(1)))
struct GStreamerCrossfadeTests {
  /// The GStreamer engine, every command it is sent logged before it runs.
  struct LoggingEngine: PlaybackEngine {
    let engine: GStreamerEngine
    let log: PipelineLog

    var capabilities: EngineCapabilities { engine.capabilities }

    func execute(_ command: EngineCommand, reports: ReportSink) {
      log.append(.command(command))
      engine.execute(command, reports: reports)
    }
  }

  /// An engine reporting positions every 50 ms and the durations (a crossfade needs both),
  /// its pipelines logged.
  static func engine(_ log: PipelineLog) -> GStreamerEngine {
    var options = GStreamerEngine.Options(
      positionInterval: .milliseconds(50), reportsDuration: true)
    options.volumeChanged = { load, level in log.append(.volume(load.token.rawValue, level)) }
    options.stateSettled = { load, state in log.append(.state(load.token.rawValue, state)) }
    options.onPipelineReleased = { load, _ in log.append(.released(load.token.rawValue)) }
    return GStreamerEngine(options: options)
  }

  static func isNonIncreasing(_ levels: [Double]) -> Bool {
    zip(levels, levels.dropFirst()).allSatisfy { $0 >= $1 }
  }

  static func isNonDecreasing(_ levels: [Double]) -> Bool {
    zip(levels, levels.dropFirst()).allSatisfy { $0 <= $1 }
  }

  /// The engine alone, sent the machine's crossfade commands by hand: the preload queued in
  /// the playing load's pipeline leaves it at `start` for a playbin of its own, made at the
  /// volume it was told (0), and ramps up while the first ramps down and still reports its
  /// own end; the first pipeline is released at its `stop`, once, and the second plays on.
  /// In both formats playbin's `about-to-finish` had taken the preload's URI before the
  /// crossfade (seen once with a print), so the first pipeline rolls into it at its end and is
  /// pointed back at its own media: its end is still reported, and nothing else.
  @Test(arguments: [8_000, 48_000])
  func thePreloadLeavesForAPlaybinOfItsOwnAtItsStart(sampleRate: Int) async throws {
    let first = try TestMedia.wavFile(milliseconds: 1_500, sampleRate: sampleRate)
    let second = try TestMedia.wavFile(milliseconds: 1_500, sampleRate: sampleRate)
    let log = PipelineLog()
    let engine = Self.engine(log)
    let reports = ReportLog()
    let a = Load(1, 1)
    let b = Load(2, 2)
    func send(_ command: EngineCommand) {
      log.append(.command(command))
      engine.execute(command, reports: reports.sink)
    }
    send(.load(LoadRequest(load: a, media: MediaID(first))))
    // 12,000 samples at 8 kHz.
    _ = try await reports.first { $0 == .ready(a, duration: .milliseconds(1_500)) }
    send(.preload(LoadRequest(load: b, media: MediaID(second))))
    _ = try await reports.first { $0 == .ready(b) }
    send(.start(a))
    _ = try await reports.first {
      if case .position(a, let time) = $0 { time >= .milliseconds(1_000) } else { false }
    }
    #expect(engine.statistics.livePipelines == 1)  // b is a URI queued in a's pipeline
    send(.setVolume(b, .silent))
    send(.start(b))
    send(.setVolume(b, .full, ramp: .milliseconds(500)))
    send(.setVolume(a, .silent, ramp: .milliseconds(500)))
    #expect(engine.statistics.livePipelines == 2)
    // The first load's own end, in its own pipeline (by EOS, or by playbin's switch into the
    // URI it had taken before the crossfade, which it then leaves).
    _ = try await reports.first { $0 == .reachedEnd(a) }
    send(.stop(a))
    try await log.until("a's release") { $0 == .released(1) }
    try await log.until("b at full") { $0 == .volume(2, 1) }
    _ = try await reports.first {
      if case .position(b, let time) = $0 { time > .zero } else { false }
    }

    let all = log.all
    let startB = log.index(of: .command(.start(b)))
    // b's pipeline was made at 0, before its preroll, and only rose.
    #expect(log.levels(of: 2).first == 0, "\(all)")
    #expect(Self.isNonDecreasing(log.levels(of: 2)), "\(all)")
    #expect(log.audible(2).allSatisfy { $0 > startB }, "\(all)")
    #expect(all.contains(.state(2, "PLAYING")), "\(all)")
    // a only fell from the crossfade on, and nothing of it after its release.
    #expect(Self.isNonIncreasing(log.levels(of: 1, from: startB)), "\(all)")
    #expect(all.filter { $0 == .released(1) }.count == 1, "\(all)")
    #expect(log.levels(of: 1, from: log.index(of: .released(1))).isEmpty, "\(all)")
    #expect(!all.contains(.released(2)), "\(all)")
    #expect(engine.statistics.livePipelines == 1)
    // No report names a after its stop; b plays to its own end.
    _ = try await reports.first(within: .seconds(5)) { $0 == .reachedEnd(b) }
    send(.stop(b))
    try await log.until("b's release") { $0 == .released(2) }
    #expect(engine.statistics.livePipelines == 0)
  }

  /// The race a crossfade can lose: its `start(B)` arrives after playbin has already rolled
  /// into B's stream at A's end (the position that started it was among A's last). B still
  /// leaves for a playbin of its own, from its start; the old pipeline, silenced by
  /// `setVolume(B, 0)` and paused, plays nothing more, and is released at `stop(A)`.
  @Test func aCrossfadeStartedAfterTheSwitchStillGivesThePreloadItsOwnPlaybin() async throws {
    let path = try TestMedia.wavFile(milliseconds: 300)
    let log = PipelineLog()
    let engine = Self.engine(log)
    let reports = ReportLog()
    let a = Load(1, 1)
    let b = Load(2, 2)
    func send(_ command: EngineCommand) {
      log.append(.command(command))
      engine.execute(command, reports: reports.sink)
    }
    send(.load(LoadRequest(load: a, media: MediaID(path))))
    _ = try await reports.first { if case .ready(a, _) = $0 { true } else { false } }
    send(.preload(LoadRequest(load: b, media: MediaID(path))))
    _ = try await reports.first { $0 == .ready(b) }
    send(.start(a))
    _ = try await reports.first { $0 == .reachedEnd(a) }  // the pipeline now plays B's stream
    let before = reports.reports.count
    send(.setVolume(b, .silent))
    send(.start(b))
    send(.setVolume(b, .full, ramp: .milliseconds(200)))
    send(.setVolume(a, .silent, ramp: .milliseconds(200)))
    #expect(engine.statistics.livePipelines == 2)
    send(.stop(a))
    try await log.until("a's release") { $0 == .released(1) }
    try await log.until("b's own pipeline playing") { $0 == .state(2, "PLAYING") }
    _ = try await reports.first { $0 == .reachedEnd(b) }
    // B's own pipeline: its positions from its start, its own end; nothing from the old one.
    let positions = reports.reports.dropFirst(before).compactMap { entry in
      if case .position(b, let time) = entry.report { time } else { nil }
    }
    #expect(zip(positions, positions.dropFirst()).allSatisfy { $0 <= $1 }, "\(positions)")
    #expect(reports.reports.dropFirst(before).filter { $0.report == .reachedEnd(b) }.count == 1)
    #expect(!reports.reports.dropFirst(before).contains { $0.report.load == a })
    #expect(log.all.filter { $0 == .released(1) }.count == 1, "\(log.all)")
    send(.stop(b))
    try await log.until("b's release") { $0 == .released(2) }
    #expect(engine.statistics.livePipelines == 0)
  }

  /// Without a crossfade the machine stops the load before it starts the preload, and the
  /// preload stays in the pipeline: one playbin, gapless, as before.
  @Test func theGaplessAdvanceKeepsOnePipeline() async throws {
    let path = try TestMedia.wavFile(milliseconds: 400)
    let log = PipelineLog()
    let engine = Self.engine(log)
    let player = Player(engine: LoggingEngine(engine: engine, log: log))
    let states = player.stateChanges()
    player.send(.queue([MediaID(path), MediaID(path)]))
    _ = try await kinds(in: states, until: .ended)
    // `stop(A#1)` before `start(B#2)`: B played in A's pipeline, the only one made.
    #expect(engine.statistics.livePipelines == 1, "\(log.all)")
    #expect(engine.statistics.releasedPipelines == 0, "\(log.all)")
    player.send(.stop)
    try await log.until("the release") { $0 == .released(1) }
    #expect(engine.statistics.releasedPipelines == 1, "\(log.all)")
    #expect(!log.all.contains(.released(2)), "\(log.all)")
  }
}
