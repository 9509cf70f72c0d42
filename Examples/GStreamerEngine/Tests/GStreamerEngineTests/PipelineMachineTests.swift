import PlayerState
import Testing

@testable import GStreamerEngine

/// The pipeline thread's decisions without a pipeline: commands and bus messages in,
/// reports and pipeline calls out.
@Suite struct PipelineMachineTests {
  enum Input: Sendable {
    case command(EngineCommand)
    case message(BusMessage)
    case seekRefused(UInt32)
    case startSeekRefused
    case prerollTimedOut
  }

  static let load = Load(1, 1)
  static let start = Input.command(.start(load))
  static let pause = Input.command(.pause(load))
  static func seek(_ milliseconds: Int64, _ id: UInt32) -> Input {
    .command(.seek(load, to: .milliseconds(milliseconds), SeekID(id)))
  }
  static let asyncDone = Input.message(.asyncDone)
  static func buffering(_ percent: Int32) -> Input { .message(.buffering(percent: percent)) }

  /// Runs the inputs; prints reports as the machine prints them and pipeline calls as
  /// `PLAYING`, `PAUSED`, `seek(2000ms, seek#1)`.
  static func run(_ inputs: [Input], machine start: PipelineMachine? = nil) -> [String] {
    var machine = start ?? PipelineMachine(load: load)
    return inputs.flatMap { input in
      switch input {
      case .command(let command): machine.apply(command)
      case .message(let message): machine.handle(message)
      case .seekRefused(let id): machine.seekRefused(SeekID(id))
      case .startSeekRefused: machine.startSeekRefused()
      case .prerollTimedOut: machine.prerollTimedOut(after: .milliseconds(1500))
      }
    }.map { action in
      switch action {
      case .report(let report): report.description(naming: { _ in "A" })
      case .setPlaying(let on): on ? "PLAYING" : "PAUSED"
      case .seek(let time, let seek): "seek(\(time), \(seek))"
      case .seekToStart(let time): "seekToStart(\(time))"
      }
    }
  }

  @Test func aSeekBeforeThePrerollIsSentRightAfterIt() {
    #expect(
      Self.run([Self.seek(1000, 1), Self.seek(2000, 2), Self.asyncDone, Self.asyncDone])
        == ["ready(A#1)", "seek(2000ms, seek#2)", "seeked(A#1, seek#2)"])
  }

  @Test func aStallPausesAPlayingPipelineAndItsEndRestoresIt() {
    #expect(
      Self.run([Self.asyncDone, Self.start, Self.buffering(30), Self.buffering(100)])
        == ["ready(A#1)", "PLAYING", "stalled(A#1)", "PAUSED", "resumed(A#1)", "PLAYING"])
  }

  @Test func startDuringAStallWaitsForItsEnd() {
    #expect(
      Self.run([Self.asyncDone, Self.buffering(30), Self.start, Self.buffering(100)])
        == ["ready(A#1)", "stalled(A#1)", "resumed(A#1)", "PLAYING"])
  }

  @Test func aPausedPipelineStaysPausedAfterAStall() {
    #expect(
      Self.run([Self.asyncDone, Self.start, Self.pause, Self.buffering(30), Self.buffering(100)])
        == ["ready(A#1)", "PLAYING", "PAUSED", "stalled(A#1)", "resumed(A#1)"])
  }

  /// A preload that becomes current without the gapless path (a `next`): the
  /// pipeline prerolls it again, and that preroll answers nothing (it was
  /// answered `ready` when preloaded); a seek sent meanwhile goes right after.
  @Test func aPreloadTakingThePipelineIsNotAnsweredTwice() {
    let machine = PipelineMachine(preload: Self.load, playingAfterGaplessSwitch: nil)
    #expect(
      Self.run([Self.start, Self.seek(100, 1), Self.asyncDone, Self.asyncDone], machine: machine)
        == ["PLAYING", "seek(100ms, seek#1)", "seeked(A#1, seek#1)"])
  }

  /// After a gapless switch the preload plays at once: nothing to preroll.
  @Test func aGaplessSwitchPlaysAtOnce() {
    var playing = PipelineMachine(preload: Self.load, playingAfterGaplessSwitch: true)
    #expect(playing.isPlaying)
    // No position for the preload before the machine's `start(P)`.
    #expect(!playing.reportsPositions)
    #expect(
      Self.run([Self.seek(100, 1), Self.asyncDone], machine: playing)
        == ["seek(100ms, seek#1)", "seeked(A#1, seek#1)"])
    #expect(playing.apply(.start(Self.load)) == [.setPlaying(true)])
    #expect(playing.reportsPositions)
    #expect(!PipelineMachine(preload: Self.load, playingAfterGaplessSwitch: false).isPlaying)
    #expect(!PipelineMachine(load: Self.load).isPlaying)
  }

  /// playbin rolled into a preload stopped meanwhile: the pipeline goes back to the
  /// load's media, and a seek still awaited is sent again after the new preroll.
  @Test func aRepointedPipelineResendsTheAwaitedSeek() {
    var machine = PipelineMachine(load: Self.load)
    _ = machine.handle(.asyncDone)
    _ = machine.apply(.seek(Self.load, to: .milliseconds(200), SeekID(1)))
    let repointed = PipelineMachine(repointing: machine)
    #expect(
      Self.run([Self.asyncDone, Self.asyncDone], machine: repointed)
        == ["seek(200ms, seek#1)", "seeked(A#1, seek#1)"])
    // Nothing awaited: the new preroll answers nothing and sends nothing.
    let idle = PipelineMachine(repointing: PipelineMachine(load: Self.load))
    #expect(Self.run([Self.asyncDone], machine: idle) == [])
  }

  @Test func aRefusedSeekCompletesAtOnceOnlyIfNewest() {
    #expect(
      Self.run([Self.asyncDone, Self.seek(1000, 1), .seekRefused(1), .seekRefused(1)])
        == ["ready(A#1)", "seek(1000ms, seek#1)", "seeked(A#1, seek#1)"])
    #expect(
      Self.run([Self.asyncDone, Self.seek(1000, 1), Self.seek(2000, 2), .seekRefused(1)])
        == ["ready(A#1)", "seek(1000ms, seek#1)", "seek(2000ms, seek#2)"])
  }

  static let fromOneSecond = PipelineMachine(load: load, start: .milliseconds(1000))

  /// `load(A#1, from 1000ms)`: prerolled at 0, sought to 1000 ms, and only then `ready`;
  /// nothing plays (no position) before that.
  @Test func aLoadFromAStartIsReadyOnlyOnceSoughtThere() {
    #expect(
      Self.run(
        [Self.start, Self.asyncDone, Self.asyncDone, Self.asyncDone], machine: Self.fromOneSecond)
        == ["PLAYING", "seekToStart(1000ms)", "ready(A#1)"])
    var machine = Self.fromOneSecond
    _ = machine.apply(.start(Self.load))
    _ = machine.handle(.asyncDone)
    #expect(!machine.isPlaying)
    _ = machine.handle(.asyncDone)
    #expect(machine.isPlaying)
    // From 0: ready at the preroll, no seek.
    #expect(Self.run([Self.asyncDone], machine: PipelineMachine(load: Self.load)) == ["ready(A#1)"])
  }

  /// A seek sent before the preroll is newer than the start: it replaces it. One sent
  /// while the pipeline seeks to the start goes right after `ready`.
  @Test func aUserSeekWinsOverTheStart() {
    #expect(
      Self.run([Self.seek(200, 1), Self.asyncDone, Self.asyncDone], machine: Self.fromOneSecond)
        == ["ready(A#1)", "seek(200ms, seek#1)", "seeked(A#1, seek#1)"])
    #expect(
      Self.run(
        [Self.asyncDone, Self.seek(200, 1), Self.asyncDone, Self.asyncDone],
        machine: Self.fromOneSecond)
        == ["seekToStart(1000ms)", "ready(A#1)", "seek(200ms, seek#1)", "seeked(A#1, seek#1)"])
  }

  /// The pipeline refuses the seek to the start: the load is ready where it prerolled.
  @Test func aRefusedStartSeekAnswersReadyAtOnce() {
    #expect(
      Self.run(
        [Self.asyncDone, .startSeekRefused, .startSeekRefused, Self.asyncDone],
        machine: Self.fromOneSecond) == ["seekToStart(1000ms)", "ready(A#1)"])
  }

  /// A preroll that never completes fails the load once, with the adapter's own detail;
  /// a prerolled (or failed) load is left alone.
  @Test func aPrerollThatTimesOutFailsTheLoadOnce() {
    #expect(
      Self.run([.prerollTimedOut, .prerollTimedOut, Self.asyncDone, Self.start])
        == [
          "failed(A#1, timeout, playhead-gstreamer 1 \"the preroll did not complete within 1.5 s (no ASYNC_DONE nor ERROR)\")",
          "PLAYING",
        ])
    #expect(Self.run([Self.asyncDone, .prerollTimedOut]) == ["ready(A#1)"])
    // Still seeking to the start: not answered yet, so it fails.
    #expect(
      Self.run([Self.asyncDone, .prerollTimedOut, Self.asyncDone], machine: Self.fromOneSecond)
        .count == 2)
    // A preload answered `ready`, prerolled again when it takes the pipeline: it fails too.
    let preload = PipelineMachine(preload: Self.load, playingAfterGaplessSwitch: nil)
    #expect(preload.isPrerolling)
    #expect(Self.run([.prerollTimedOut], machine: preload).count == 1)
    // After a gapless switch nothing prerolls.
    let switched = PipelineMachine(preload: Self.load, playingAfterGaplessSwitch: true)
    #expect(!switched.isPrerolling)
    #expect(Self.run([.prerollTimedOut], machine: switched) == [])
  }
}
