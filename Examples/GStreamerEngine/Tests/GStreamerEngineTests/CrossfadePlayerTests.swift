import Foundation
import PlayerEngine
import PlayerState
import Testing

@testable import GStreamerEngine

/// Issue 37, item 5: a `Player` made with `PlayerConfiguration(crossfade:)` over the GStreamer
/// engine, on real WAVs, read through ``GStreamerCrossfadeTests``' ordered log (the commands,
/// playbin's `volume` after each change, the states settled, the releases). Orderings and
/// trends only, no times: both playbins are heard only inside the fade, the fading one is
/// released once, and a skip during the fade releases it at once.
@Suite("GStreamerEngine: a Player crossfading real pipelines", .serialized, .timeLimit(.minutes(1)))
struct GStreamerPlayerCrossfadeTests {
  typealias LoggingEngine = GStreamerCrossfadeTests.LoggingEngine

  static func engine(_ log: PipelineLog) -> GStreamerEngine { GStreamerCrossfadeTests.engine(log) }

  static func isNonIncreasing(_ levels: [Double]) -> Bool {
    GStreamerCrossfadeTests.isNonIncreasing(levels)
  }

  static func isNonDecreasing(_ levels: [Double]) -> Bool {
    GStreamerCrossfadeTests.isNonDecreasing(levels)
  }

  /// The commands the engine was sent, in order.
  static func commands(_ log: PipelineLog) -> [EngineCommand] {
    log.all.compactMap { entry in if case .command(let command) = entry { command } else { nil } }
  }

  /// A `Player` with a crossfade of 500 ms over two 2 s WAVs: the machine's four commands at
  /// once, then one `stop` of the first load. The second playbin exists only from the
  /// crossfade on, made at 0, and only rises to full; the first only falls from there, and its
  /// pipeline is released once, after its `stop`: both are heard only inside the fade.
  @Test func aPlayerCrossfadesFromOnePlaybinIntoAnother() async throws {
    let first = try TestMedia.wavFile(milliseconds: 2_000, sampleRate: 48_000)
    let second = try TestMedia.wavFile(milliseconds: 2_000, sampleRate: 48_000)
    let log = PipelineLog()
    let engine = Self.engine(log)
    let player = Player(
      engine: LoggingEngine(engine: engine, log: log),
      configuration: PlayerConfiguration(crossfade: .milliseconds(500)))
    #expect(player.state.configuration.crossfade == .milliseconds(500))
    player.send(.queue([MediaID(first), MediaID(second)]))
    try await log.until("the first pipeline's release") { $0 == .released(1) }
    try await log.until("the second at full") { $0 == .volume(2, 1) }
    #expect(player.state.description == "playing(\(second)#2)")

    let a = Load(1, 1)
    let b = Load(2, 2)
    let all = log.all
    let commands = Self.commands(log)
    let fade = try #require(commands.firstIndex(of: .setVolume(b, .silent)), "\(all)")
    #expect(
      Array(commands[fade...].prefix(5)) == [
        .setVolume(b, .silent), .start(b), .setVolume(b, .full, ramp: .milliseconds(500)),
        .setVolume(a, .silent, ramp: .milliseconds(500)), .stop(a),
      ], "\(commands)")
    #expect(commands.filter { $0 == .stop(a) }.count == 1, "\(commands)")
    #expect(!commands.contains(.stop(b)), "\(commands)")

    let startB = log.index(of: .command(.start(b)))
    let stopA = log.index(of: .command(.stop(a)))
    let releasedA = log.index(of: .released(1))
    // Before the crossfade, one playbin: b's has no volume yet.
    #expect(
      !all[..<log.index(of: .command(.setVolume(b, .silent)))].contains { entry in
        if case .volume(2, _) = entry { true } else { false }
      }, "\(all)")
    // b: made at 0, audible only after its start, rising to full.
    #expect(log.levels(of: 2).first == 0, "\(all)")
    #expect(log.levels(of: 2).last == 1, "\(all)")
    #expect(Self.isNonDecreasing(log.levels(of: 2)), "\(all)")
    #expect(log.audible(2).allSatisfy { $0 > startB }, "\(all)")
    // a: full until the crossfade, then falling, then released once, after its stop.
    #expect(
      all[..<startB].allSatisfy { entry in
        if case .volume(1, let level) = entry { level == 1 } else { true }
      }, "\(all)")
    let fadingA = log.levels(of: 1, from: startB)
    #expect(Self.isNonIncreasing(fadingA), "\(all)")
    #expect(fadingA.allSatisfy { $0 < 1 }, "\(all)")
    #expect(stopA < releasedA, "\(all)")
    #expect(all.filter { $0 == .released(1) }.count == 1, "\(all)")
    #expect(log.audible(1).allSatisfy { $0 < releasedA }, "\(all)")
    #expect(engine.statistics.livePipelines == 1)
    player.send(.stop)
    try await log.until("the second pipeline's release") { $0 == .released(2) }
    #expect(engine.statistics.livePipelines == 0)
  }

  /// `next` during a crossfade of 1 s: the fading load is stopped first, in the same step,
  /// and its pipeline released while it was still audible (its ramp cut short, not waited
  /// out); then the rising one is stopped and the next entry loaded at full. The fading
  /// load's timer, expiring later, sends nothing.
  @Test func aSkipDuringTheCrossfadeReleasesTheFadingPlaybinAtOnce() async throws {
    let paths = try (0..<3).map { _ in try TestMedia.wavFile(milliseconds: 2_000) }
    let log = PipelineLog()
    let engine = Self.engine(log)
    let player = Player(
      engine: LoggingEngine(engine: engine, log: log),
      configuration: PlayerConfiguration(crossfade: .seconds(1)))
    player.send(.queue(paths.map { MediaID($0) }))
    try await log.until("the second rising") { entry in
      if case .volume(2, let level) = entry { level > 0 } else { false }
    }
    player.send(.next)
    try await log.until("the first pipeline's release") { $0 == .released(1) }
    try await log.until("the second pipeline's release") { $0 == .released(2) }
    try await log.until("the third playing") { $0 == .state(3, "PLAYING") }
    // Past the first load's crossfade timer (1 s from the fade's start).
    try await Task.sleep(for: .seconds(1))

    let a = Load(1, 1)
    let b = Load(2, 2)
    let all = log.all
    let commands = Self.commands(log)
    let skip = try #require(commands.firstIndex(of: .stop(a)), "\(commands)")
    #expect(Array(commands[skip...].prefix(2)) == [.stop(a), .stop(b)], "\(commands)")
    #expect(
      commands.dropFirst(skip + 2).first
        == .load(LoadRequest(load: Load(3, 3), media: MediaID(paths[2]))), "\(commands)")
    #expect(commands.filter { $0 == .stop(a) }.count == 1, "\(commands)")
    #expect(all.filter { $0 == .released(1) }.count == 1, "\(all)")
    // Cut short: a's last level, set before the release, was still above 0.
    let releasedA = log.index(of: .released(1))
    #expect((log.levels(of: 1).last ?? 0) > 0, "\(all)")
    // At most one wake of its thread (two steps) between the command and the mailbox.
    let afterStop = all[log.index(of: .command(.stop(a)))..<releasedA].filter { entry in
      if case .volume(1, _) = entry { true } else { false }
    }
    #expect(afterStop.count <= 2, "\(all)")
    // The next entry opens at full, in a playbin of its own; two playbins released.
    #expect(log.levels(of: 3) == [1], "\(all)")
    #expect(engine.statistics.releasedPipelines == 2)
    #expect(engine.statistics.livePipelines == 1)
    player.send(.stop)
  }

  /// `pause` during a 1 s crossfade: the fading load is stopped at once and its playbin
  /// released, still audible when cut; the rising one pauses in its own playbin, and `resume`
  /// starts it there again (no new pipeline, nothing more of the first).
  @Test func aPauseDuringTheCrossfadeReleasesTheFadingPlaybinAndPausesTheOther() async throws {
    let paths = try (0..<2).map { _ in try TestMedia.wavFile(milliseconds: 2_000) }
    let log = PipelineLog()
    let engine = Self.engine(log)
    let player = Player(
      engine: LoggingEngine(engine: engine, log: log),
      configuration: PlayerConfiguration(crossfade: .seconds(1)))
    player.send(.queue(paths.map { MediaID($0) }))
    try await log.until("the second rising") { entry in
      if case .volume(2, let level) = entry { level > 0 } else { false }
    }
    player.send(.pause)
    try await log.until("the first pipeline's release") { $0 == .released(1) }
    try await log.until("the second paused") { $0 == .state(2, "PAUSED") }
    #expect(player.state.description == "paused(\(paths[1])#2)")
    let a = Load(1, 1)
    let b = Load(2, 2)
    let commands = Self.commands(log)
    let pause = try #require(commands.firstIndex(of: .stop(a)), "\(commands)")
    #expect(Array(commands[pause...].prefix(2)) == [.stop(a), .pause(b)], "\(commands)")
    #expect((log.levels(of: 1).last ?? 0) > 0, "\(log.all)")

    let resumedAt = log.all.count
    player.send(.resume)
    try await log.until("the second playing again") { entry in
      log.all.dropFirst(resumedAt).contains(.state(2, "PLAYING"))
    }
    #expect(engine.statistics.livePipelines == 1)
    #expect(engine.statistics.releasedPipelines == 1)
    #expect(Self.commands(log).filter { $0 == .stop(a) }.count == 1)
    player.send(.stop)
  }

  /// With ``GStreamerEngine/Options/prerollsPreloads``, each preload prerolls in a playbin of
  /// its own and its `ready` carries its duration, so every entry crossfades into the next,
  /// not only the first (whose `load` tells its duration): A into B, then B into C.
  @Test func prerolledPreloadsCrossfadeEveryEntry() async throws {
    let paths = try (0..<3).map { _ in try TestMedia.wavFile(milliseconds: 1_200) }
    let log = PipelineLog()
    var options = GStreamerEngine.Options(
      positionInterval: .milliseconds(50), reportsDuration: true, prerollsPreloads: true)
    options.volumeChanged = { load, level in log.append(.volume(load.token.rawValue, level)) }
    options.onPipelineReleased = { load, _ in log.append(.released(load.token.rawValue)) }
    let engine = GStreamerEngine(options: options)
    let player = Player(
      engine: LoggingEngine(engine: engine, log: log),
      configuration: PlayerConfiguration(crossfade: .milliseconds(400)))
    let states = player.stateChanges()
    player.send(.queue(paths.map { MediaID($0) }))
    _ = try await kinds(in: states, until: .ended)
    let commands = Self.commands(log)
    let loads = (1...3).map { Load(UInt32($0), UInt32($0)) }
    for (from, to) in zip(loads, loads.dropFirst()) {
      let start = try #require(commands.firstIndex(of: .start(to)), "\(commands)")
      #expect(
        Array(commands[(start - 1)...].prefix(4)) == [
          .setVolume(to, .silent), .start(to), .setVolume(to, .full, ramp: .milliseconds(400)),
          .setVolume(from, .silent, ramp: .milliseconds(400)),
        ], "\(commands)")
      #expect(commands.filter { $0 == .stop(from) }.count == 1, "\(commands)")
    }
    #expect(log.all.filter { $0 == .released(1) }.count == 1)
    #expect(log.all.filter { $0 == .released(2) }.count == 1)
    player.send(.stop)
  }
}
