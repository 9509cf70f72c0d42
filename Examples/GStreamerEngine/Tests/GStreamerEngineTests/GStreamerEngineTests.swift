import PlayerEngine
import PlayerState
import PlayerTesting
import Synchronization
import Testing

@testable import GStreamerEngine

/// Real pipelines: each test writes its own short WAV file, and the sinks are
/// fake sinks in real time, so no sound device is needed.
@Suite("GStreamerEngine with real pipelines", .serialized, .timeLimit(.minutes(1)))
struct GStreamerPipelineTests {
  @Test func loadPrerollsThenPlaysToTheEnd() async throws {
    let path = try TestMedia.wavFile(milliseconds: 300)
    let engine = GStreamerEngine()
    let player = Player(engine: engine)
    let states = player.stateChanges()
    player.send(.play(MediaID(path)))
    let seen = try await kinds(in: states, until: .ended)
    #expect(seen == [.idle, .buffering, .playing, .ended])
    #expect(player.state.description == "ended(\(path)#1, autoplay)")
    // The pipeline's thread may still be publishing `ended`: then it runs the
    // stop itself, right after; either way the player goes idle.
    let afterStop = player.stateChanges()
    player.send(.stop)
    #expect(try await kinds(in: afterStop, until: .idle).last == .idle)
    #expect(engine.statistics.livePipelines + engine.statistics.releasedPipelines == 1)
  }

  @Test func stopDuringPrerollIsHonouredAndTheLateMessageDropped() async throws {
    let path = try TestMedia.wavFile(milliseconds: 200)
    let prerolled = Signal()
    let proceed = Signal()
    let released = Signal()
    let releases = Mutex<[String]>([])
    var options = GStreamerEngine.Options { load, dropped in
      releases.withLock { $0.append("\(load.token): \(dropped) dropped") }
      if load.token == LoadToken(1) { released.fire() }
    }
    // Hold load 1's thread with its preroll ASYNC_DONE popped but not yet handled.
    options.beforeFirstMessage = { load in
      guard load.token == LoadToken(1) else { return }
      prerolled.fire()
      proceed.block()
    }
    let engine = GStreamerEngine(options: options)
    let events = Mutex<[String]>([])
    let player = Player(engine: engine) { step in
      events.withLock { $0.append(step.event.description) }
    }

    player.send(.play(MediaID(path)))
    await prerolled.wait()
    player.send(.stop)  // while load 1's ready is in the thread's hands
    proceed.fire()
    await released.wait()

    #expect(events.withLock { $0 } == ["play(\(path))", "stop"])
    #expect(releases.withLock { $0 } == ["1: 1 dropped"])
    #expect(player.state.description == "idle")

    // The engine goes on: the next load has its own pipeline and token.
    let states = player.stateChanges()
    player.send(.play(MediaID(path)))
    #expect(try await kinds(in: states, until: .ended) == [.idle, .buffering, .playing, .ended])
    #expect(player.state.description == "ended(\(path)#2, autoplay)")
    player.send(.stop)
  }

  @Test func missingFileFailsWithNotFound() async throws {
    let player = Player(engine: GStreamerEngine())
    let states = player.stateChanges()
    player.send(.play("/nonexistent/playhead/missing.wav"))
    #expect(try await kinds(in: states, until: .failed) == [.idle, .buffering, .failed])
    #expect(
      player.state.description == "failed(/nonexistent/playhead/missing.wav#1, notFound, autoplay)")
  }

  @Test func seekWhilePausedCompletesWithItsID() async throws {
    let path = try TestMedia.wavFile(milliseconds: 500)
    let player = Player(engine: GStreamerEngine())
    var steps = player.steps().makeAsyncIterator()
    player.send(.play(MediaID(path)))
    player.send(.pause)  // while buffering: it stops at ready, paused
    #expect(
      await events(&steps, through: "ready(\(path)#1)") == [
        "play(\(path))", "pause", "ready(\(path)#1)",
      ])
    player.send(.seek(to: .milliseconds(250)))
    #expect(
      await events(&steps, through: "seeked(\(path)#1, seek#1)") == [
        "seek(250ms)", "seeked(\(path)#1, seek#1)",
      ])
    #expect(player.state.description == "paused(\(path)#1)")
    player.send(.stop)
  }

  @Test func engineConformsToTheKit() async throws {
    let path = try TestMedia.wavFile(milliseconds: 500)
    let kit = EngineConformance(
      .init(
        media: MediaID(path), unplayableMedia: "/nonexistent/playhead/missing.wav",
        seekPositions: [.zero, .milliseconds(100), .milliseconds(200)],
        timing: .realTime(timeout: .seconds(10), quietPeriod: .milliseconds(200))))
    let engine = GStreamerEngine()
    let report = await kit.run(against: engine)
    #expect(report.brokenNames == [], "\(report)")
    #expect(report.conforms, "\(report)")
    #expect(report.checked.count == 9)
  }
}
