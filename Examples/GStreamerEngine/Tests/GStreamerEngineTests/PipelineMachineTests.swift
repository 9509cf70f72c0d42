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
      }
    }.map { action in
      switch action {
      case .report(let report): report.description(naming: { _ in "A" })
      case .setPlaying(let on): on ? "PLAYING" : "PAUSED"
      case .seek(let time, let seek): "seek(\(time), \(seek))"
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
    let playing = PipelineMachine(preload: Self.load, playingAfterGaplessSwitch: true)
    #expect(playing.isPlaying)
    #expect(
      Self.run([Self.seek(100, 1), Self.asyncDone], machine: playing)
        == ["seek(100ms, seek#1)", "seeked(A#1, seek#1)"])
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
}
