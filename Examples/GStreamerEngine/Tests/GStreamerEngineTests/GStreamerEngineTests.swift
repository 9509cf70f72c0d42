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
    let engine = GStreamerEngine(options: .init(positionInterval: nil))  // one state per stage
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
      events.withLock { $0.append(step.event.description(naming: step.media(of:))) }
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

  @Test func missingFileFailsWithNotFoundAndGStreamersError() async throws {
    let player = Player(engine: GStreamerEngine())
    let states = player.stateChanges()
    player.send(.play("/nonexistent/playhead/missing.wav"))
    #expect(try await kinds(in: states, until: .failed) == [.idle, .buffering, .failed])
    #expect(
      player.state.description == "failed(/nonexistent/playhead/missing.wav#1, notFound, autoplay)")
    let detail = try #require(player.state.failure)
    #expect(detail.domain == "gst-resource-error-quark")
    #expect(detail.code == 3)  // GST_RESOURCE_ERROR_NOT_FOUND
    #expect(detail.message.isEmpty == false, "GStreamer's text: \(detail)")
  }

  /// A file that claims to be a WAV (a RIFF header) but whose format chunk is garbage:
  /// playbin finds the type, then the WAV parser cannot read it.
  @Test func corruptWavFailsWithAStreamError() async throws {
    let path = try TestMedia.corruptWavFile()
    let player = Player(engine: GStreamerEngine())
    let states = player.stateChanges()
    player.send(.play(MediaID(path)))
    #expect(try await kinds(in: states, until: .failed) == [.idle, .buffering, .failed])
    let detail = try #require(player.state.failure)
    #expect(player.state.description == "failed(\(path)#1, decoding, autoplay)", "\(detail)")
    #expect(detail.domain == "gst-stream-error-quark")
    // GST_STREAM_ERROR_FAILED, "GStreamer encountered a general stream error." (1.22)
    #expect(detail.code == 1, "\(detail)")
  }

  /// Bytes that are not media (a run of `Z`s): the type finder calls them text, which
  /// nothing plays.
  @Test func textBytesFailWithUnsupported() async throws {
    let path = try TestMedia.file(named: "noise.wav", bytes: Array(repeating: 0x5A, count: 4_096))
    let player = Player(engine: GStreamerEngine())
    let states = player.stateChanges()
    player.send(.play(MediaID(path)))
    #expect(try await kinds(in: states, until: .failed) == [.idle, .buffering, .failed])
    let detail = try #require(player.state.failure)
    #expect(player.state.description == "failed(\(path)#1, unsupported, autoplay)", "\(detail)")
    #expect(detail.domain == "gst-stream-error-quark")
    // GST_STREAM_ERROR_WRONG_TYPE, "This appears to be a text file" (1.22)
    #expect(detail.code == 5, "\(detail)")
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
    let evidence = report.transcript.suffix(24).map { $0.replacingOccurrences(of: path, with: "T") }
    #expect(report.brokenNames == [], "\(report)\n\(evidence.joined(separator: " "))")
    #expect(report.conforms, "\(report)")
    // The 10 promises of every engine, and the 4 of engines that preload.
    #expect(report.checked.count == 14)
    #expect(report.checked.contains(.systemPauseNamesPlayingLoad))
    // The unplayable load's failure reaches the report with GStreamer's own error.
    let failures = report.failures.map { "\($0)" }
    #expect(failures.count == 1, "\(failures)")
    #expect(
      failures.first?.hasPrefix("failed(item7#7, notFound, gst-resource-error-quark 3 ") == true,
      "\(failures)")
  }

  /// A seek to the very end of an entry whose next entry is preloaded into the pipeline:
  /// playbin goes straight on with the next URI and no ASYNC_DONE completes the seek, so the
  /// engine completes it at the switch, before the end. Without that the machine (which
  /// ignores an end while a seek is pending) waited for ever: found by the MPRIS test's
  /// `playerctl position 100+`.
  @Test func aSeekToTheEndWithAPreloadCompletesThenEnds() async throws {
    let first = try TestMedia.wavFile(milliseconds: 2_000)
    let second = try TestMedia.wavFile(milliseconds: 2_000)
    let engine = GStreamerEngine(options: .init(positionInterval: nil))
    let player = Player(engine: engine)
    var steps = player.steps().makeAsyncIterator()
    player.send(.queue([MediaID(first), MediaID(second)]))
    _ = await events(&steps, through: "ready(\(second)#2)")
    player.send(.seek(to: .milliseconds(2_000)))
    #expect(
      await events(&steps, through: "ended(\(first)#1)") == [
        "seek(2000ms)", "seeked(\(first)#1, seek#1)", "ended(\(first)#1)",
      ])
    #expect(player.state.description == "playing(\(second)#2)")
    player.send(.stop)
  }

  /// Two generated WAVs back to back in one pipeline: the machine preloads
  /// the second while the first plays; at the first's end playbin goes on
  /// with the second (about-to-finish), and the machine starts it: no second
  /// `load`, no second pipeline. Positions are reported for each in turn.
  @Test func aQueueOfTwoPlaysGaplesslyInOnePipeline() async throws {
    let first = try TestMedia.wavFile(milliseconds: 600)
    let second = try TestMedia.wavFile(milliseconds: 600)
    let engine = GStreamerEngine(options: .init(positionInterval: .milliseconds(100)))
    let log = Mutex<[String]>([])
    let player = Player(engine: engine) { step in
      let name = step.media(of:)
      log.withLock { log in
        if case .engine(.position(let load, _)) = step.event {
          let text = "position(\(load.description(naming: name)))"
          if log.last != text { log.append(text) }  // one line per run of positions
          return
        }
        log.append(step.event.description(naming: name))
        log += step.transition.commands.map { "  " + $0.description(naming: name) }
      }
    }
    let states = player.stateChanges()
    player.send(.queue([MediaID(first), MediaID(second)]))
    _ = try await kinds(in: states, until: .ended)
    #expect(player.state.description == "ended(\(second)#2, autoplay)")
    #expect(
      log.withLock { $0 } == [
        "queue(\(first) \(second))", "  load(\(first)#1)", "ready(\(first)#1)",
        "  start(\(first)#1)", "  preload(\(second)#2)", "ready(\(second)#2)",
        "position(\(first)#1)", "ended(\(first)#1)", "  stop(\(first)#1)",
        "  start(\(second)#2)", "position(\(second)#2)", "ended(\(second)#2)",
      ])
    #expect(engine.statistics.livePipelines + engine.statistics.releasedPipelines == 1)
    player.send(.stop)
  }
}
