import PlayerEngine
import PlayerState
import PlayerTesting
import Testing

/// Issue 38: progress of a live stream through the driver, on a virtual clock.
@Suite("Driver: live progress")
struct LiveProgressTests {
  /// Answers every load with `ready` and a DVR window from 60 s to the edge
  /// at 120 s, and every seek, at once.
  static func engine() -> SpyEngine {
    SpyEngine { command in
      switch command {
      case .load(let request), .preload(let request):
        [
          SpyEngine.Reply(.ready(request.load), .immediately),
          SpyEngine.Reply(
            .window(request.load, LiveWindow(start: .seconds(60), end: .seconds(120))),
            .immediately),
        ]
      case .seek(let load, _, let seek): [SpyEngine.Reply(.seekCompleted(load, seek), .immediately)]
      case .start, .setRate, .pause, .stop, .setVolume: []
      }
    }
  }

  @Test func aDVRStreamShowsItsWindowAndHowFarBehindTheEdgeItIs() {
    let timers = VirtualTimers()
    let spy = Self.engine()
    let player = Player(engine: spy, watchdog: timers.policy())
    player.send(.play("radio"))
    // The first window puts a load from 0 at the edge.
    #expect(player.progress?.description == "radio at 120000ms live 60000ms…120000ms 1x")
    #expect(player.progress?.isLive == true)
    #expect(player.progress?.liveOffset == .zero)
    #expect(player.progress?.fraction == 1)
    player.send(.seek(to: .seconds(90)))
    #expect(player.progress?.liveOffset == .seconds(30))
    #expect(player.progress?.fraction == 0.5)
    player.send(.goToLive)
    #expect(
      spy.commands.map(\.description) == [
        "load(radio#1)", "start(item1#1)", "seek(item1#1, 90000ms, seek#1)",
        "seek(item1#1, 120000ms, seek#2)",
      ])
  }

  @Test func aLiveStreamWithoutDVRHasNoFraction() {
    let progress = PlaybackProgress(
      entry: QueueEntry(item: ItemID(1), media: "radio"), position: .seconds(10), duration: nil,
      rate: .normal, window: LiveWindow(start: .seconds(10), end: .seconds(10)))
    #expect(progress.fraction == nil)
    #expect(progress.liveOffset == .zero)
    #expect(progress.isLive)
  }
}
