import Foundation
import PlayerEngine
import PlayerState
import Synchronization
import Testing

@testable import GStreamerEngine

/// Issue 37, item 2 on real pipelines: a `Player` made with a fade of 200 ms over the
/// GStreamer engine (which declares `.volumeRamp`, so the player keeps the fade). What the
/// pipeline did is read on its own thread, in order: playbin's `volume` property after each
/// change, the state it settled in after each `start` and `pause`, and its release.
@Suite("GStreamerEngine: fades on real pipelines", .serialized, .timeLimit(.minutes(1)))
struct GStreamerFadeTests {
  static func engine(_ log: PipelineLog) -> GStreamerEngine {
    var options = GStreamerEngine.Options(positionInterval: nil)
    options.volumeChanged = { load, level in log.append(.volume(load.token.rawValue, level)) }
    options.stateSettled = { load, state in log.append(.state(load.token.rawValue, state)) }
    options.onPipelineReleased = { load, _ in log.append(.released(load.token.rawValue)) }
    return GStreamerEngine(options: options)
  }

  static let fade = PlayerConfiguration(fade: .milliseconds(200))

  /// The engine ramps, so the player keeps the fade.
  @Test func theEngineDeclaresTheRampAndThePlayerKeepsTheFade() {
    let engine = GStreamerEngine()
    #expect(engine.capabilities == [.preload, .volumeRamp])
    let player = Player(engine: engine, configuration: Self.fade)
    #expect(player.state.configuration.fade == .milliseconds(200))
  }

  /// `pause` with a fade: playbin's volume goes down in steps while the pipeline still plays,
  /// then (the fade's timer) the pipeline is paused and set back to the user's volume for the
  /// next resume; nothing of it is heard, paused.
  @Test func aPauseFadesThePipelineDownThenPausesIt() async throws {
    let path = try TestMedia.wavFile(milliseconds: 5_000)
    let log = PipelineLog()
    let player = Player(engine: Self.engine(log), configuration: Self.fade)
    let states = player.stateChanges()
    player.send(.play(MediaID(path)))
    _ = try await kinds(in: states, until: .playing)
    try await log.until("PLAYING") { $0 == .state(1, "PLAYING") }
    let beforePause = log.all.count

    player.send(.pause)
    #expect(player.state.description == "paused(\(path)#1, fading out)")
    try await log.until("PAUSED") { $0 == .state(1, "PAUSED") }
    try await log.until("the volume back at 1") { _ in log.all.last == .volume(1, 1) }
    #expect(player.state.description == "paused(\(path)#1)")

    let fadeOut = log.levels(from: beforePause)
    // Stepped at the thread's wakes (every 5 ms at most): several levels, each lower, all
    // while the pipeline played, and down near 0 before the pause.
    #expect(fadeOut.count >= 3, "\(log.all)")
    #expect(zip(fadeOut, fadeOut.dropFirst()).allSatisfy { $0 > $1 }, "\(log.all)")
    #expect(fadeOut.allSatisfy { $0 < 1 }, "\(log.all)")
    #expect((fadeOut.last ?? 1) < 0.5, "\(log.all)")
    // Then, in this order: the pause, and the user's volume for the next resume.
    #expect(
      Array(log.all.suffix(2)) == [.state(1, "PAUSED"), .volume(1, 1)], "\(log.all)")
    player.send(.stop)
  }

  /// `resume` during the fade ramps back up from where the pipeline got to: no `start` (the
  /// pipeline was never paused), and the fade's timer, when it fires, pauses nothing.
  @Test func aResumeDuringTheFadeRampsBackWithoutAPause() async throws {
    let path = try TestMedia.wavFile(milliseconds: 5_000)
    let log = PipelineLog()
    let player = Player(
      engine: Self.engine(log), configuration: PlayerConfiguration(fade: .milliseconds(400)))
    let states = player.stateChanges()
    player.send(.play(MediaID(path)))
    _ = try await kinds(in: states, until: .playing)
    try await log.until("PLAYING") { $0 == .state(1, "PLAYING") }
    player.send(.pause)
    try await log.until("a level below 0.9") {
      if case .volume(1, let level) = $0 { level < 0.9 } else { false }
    }
    player.send(.resume)
    try await log.until("the volume back at 1") { _ in log.all.last == .volume(1, 1) }
    // Past the fade's timer (400 ms from the pause): nothing more, the pipeline plays.
    try await Task.sleep(for: .milliseconds(600))
    #expect(player.state.description == "playing(\(path)#1)")
    #expect(!log.all.contains(.state(1, "PAUSED")), "\(log.all)")
    #expect(log.all.last == .volume(1, 1), "\(log.all)")
    player.send(.stop)
  }

  /// `stop` with a fade: the state is idle at once, the pipeline fades down while it still
  /// plays, and the fade's timer stops the load: the pipeline goes to NULL and is released
  /// after the fade, once.
  @Test func aStopFadesThePipelineDownThenReleasesIt() async throws {
    let path = try TestMedia.wavFile(milliseconds: 5_000)
    let log = PipelineLog()
    let engine = Self.engine(log)
    let player = Player(engine: engine, configuration: Self.fade)
    let states = player.stateChanges()
    player.send(.play(MediaID(path)))
    _ = try await kinds(in: states, until: .playing)
    try await log.until("PLAYING") { $0 == .state(1, "PLAYING") }
    let beforeStop = log.all.count

    player.send(.stop)
    #expect(player.state.description == "idle(fading out \(path)#1)")
    try await log.until("the release") { $0 == .released(1) }
    #expect(player.state.description == "idle")
    let fadeOut = log.levels(from: beforeStop)
    #expect(fadeOut.count >= 3, "\(log.all)")
    #expect(zip(fadeOut, fadeOut.dropFirst()).allSatisfy { $0 > $1 }, "\(log.all)")
    #expect((fadeOut.last ?? 1) < 0.5, "\(log.all)")
    // The fade's steps, then the release: never paused, released once.
    #expect(log.all.count == beforeStop + fadeOut.count + 1, "\(log.all)")
    #expect(log.all.last == .released(1))
    #expect(engine.statistics.livePipelines == 0)
    #expect(engine.statistics.releasedPipelines == 1)
  }

  /// A new load during a stop's fade stops the fading load first: its pipeline is released,
  /// and the new load's pipeline plays at full volume.
  @Test func aNewLoadDuringTheStopsFadeReleasesTheOldPipeline() async throws {
    let path = try TestMedia.wavFile(milliseconds: 5_000)
    let log = PipelineLog()
    let engine = Self.engine(log)
    let player = Player(
      engine: engine, configuration: PlayerConfiguration(fade: .milliseconds(2_000)))
    let states = player.stateChanges()
    player.send(.play(MediaID(path)))
    _ = try await kinds(in: states, until: .playing)
    try await log.until("PLAYING") { $0 == .state(1, "PLAYING") }
    player.send(.stop)
    try await log.until("a level below 1") {
      if case .volume(1, let level) = $0 { level < 1 } else { false }
    }
    let next = player.stateChanges()
    player.send(.play(MediaID(path)))
    _ = try await kinds(in: next, until: .playing)
    try await log.until("the release") { $0 == .released(1) }
    try await log.until("PLAYING") { $0 == .state(2, "PLAYING") }
    #expect(log.all.filter { $0 == .released(1) }.count == 1)
    #expect(log.all.contains(.volume(2, 1)))
    #expect(!log.all.contains { if case .volume(2, let level) = $0 { level < 1 } else { false } })
    player.send(.stop)
  }
}
