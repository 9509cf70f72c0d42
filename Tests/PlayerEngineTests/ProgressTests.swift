import PlayerEngine
import PlayerState
import PlayerTesting
import Testing

/// Issue 40, item 5: progress read on the policy's clock, and a stream of
/// ticks while playing, driven here by a virtual clock.
@Suite("Driver: progress")
struct ProgressTests {
  /// Answers every load with `ready` for 30 s of media, and every seek, at once.
  static func engine() -> SpyEngine {
    SpyEngine { command in
      switch command {
      case .load(let request), .preload(let request):
        [SpyEngine.Reply(.ready(request.load, duration: .seconds(30)), .immediately)]
      case .seek(let load, _, let seek): [SpyEngine.Reply(.seekCompleted(load, seek), .immediately)]
      case .start, .setRate, .pause, .stop, .setVolume: []
      }
    }
  }

  @Test func theProgressMovesWithThePolicyClock() {
    let timers = VirtualTimers()
    let player = Player(engine: Self.engine(), watchdog: timers.policy())
    #expect(player.progress == nil)  // no entry yet
    player.send(.play("A"))
    #expect(player.progress?.description == "A at 0ms of 30000ms 1x")
    timers.advance(by: .milliseconds(1500))
    #expect(player.currentPosition == .milliseconds(1500))
    // The engine's report is newer than the anchor: the progress follows it.
    player.send(.engine(.position(Load(1, 1), .milliseconds(1400))))
    #expect(player.currentPosition == .milliseconds(1400))
    timers.advance(by: .milliseconds(500))
    #expect(player.currentPosition == .milliseconds(1900))
    // A pause carries on from where the progress had got; the lock screen's
    // anchor is the engine's last report.
    player.send(.pause)
    #expect(player.progress?.description == "A at 1900ms of 30000ms 0x")
    #expect(player.state.nowPlaying?.elapsed == .milliseconds(1400))
    timers.advance(by: .seconds(1))
    #expect(player.currentPosition == .milliseconds(1900))
    player.send(.resume)
    player.send(.user(.setRate(PlaybackRate(thousandths: 2000))))
    timers.advance(by: .seconds(1))
    #expect(player.progress?.description == "A at 3900ms of 30000ms 2x")
    player.send(.user(.seek(to: .seconds(10))))
    #expect(player.currentPosition == .seconds(10))
    #expect(player.progress(at: timers.now + .seconds(2))?.position == .seconds(14))
    // Clamped to the duration.
    timers.advance(by: .seconds(60))
    #expect(player.progress?.fraction == 1)
    #expect(player.currentPosition == .seconds(30))
  }

  @Test func theFirstReadTakesTheEnginesLastPositionAsCurrent() {
    let timers = VirtualTimers()
    let player = Player(engine: Self.engine(), watchdog: timers.policy())
    player.send(.play("A"))
    timers.advance(by: .seconds(3))
    player.send(.engine(.position(Load(1, 1), .milliseconds(2500))))
    timers.advance(by: .seconds(1))
    // Nothing was timed before this read: it starts from the report.
    #expect(player.currentPosition == .milliseconds(2500))
    timers.advance(by: .seconds(1))
    #expect(player.currentPosition == .milliseconds(3500))
  }

  @Test func ticksComeOnlyWhilePlaying() async {
    let timers = VirtualTimers()
    let player = Player(engine: Self.engine(), watchdog: timers.policy())
    player.send(.play("A"))
    let updates = player.progressUpdates(every: .milliseconds(500))
    var iterator = updates.makeAsyncIterator()
    #expect(await iterator.next()?.description == "A at 0ms of 30000ms 1x")
    // One tick pending, beside the load's watchdog.
    #expect(timers.dueTimes == [.milliseconds(500), .seconds(5)])
    timers.advance(by: .milliseconds(500))
    #expect(await iterator.next()?.position == .milliseconds(500))
    timers.advance(by: .milliseconds(500))
    #expect(await iterator.next()?.position == .milliseconds(1000))
    player.send(.pause)
    #expect(await iterator.next()?.description == "A at 1000ms of 30000ms 0x")
    #expect(timers.dueTimes == [.seconds(5)])  // no tick while paused
    timers.advance(by: .seconds(2))
    player.send(.resume)
    #expect(await iterator.next()?.description == "A at 1000ms of 30000ms 1x")
    #expect(timers.dueTimes == [.milliseconds(3500), .seconds(5)])
    timers.advance(by: .milliseconds(500))
    #expect(await iterator.next()?.position == .milliseconds(1500))
  }

  @Test func noTicksWhileBuffering() async {
    let timers = VirtualTimers()
    let player = Player(engine: SpyEngine(), watchdog: timers.policy())  // never ready
    player.send(.play("A"))
    let updates = player.progressUpdates(every: .milliseconds(500))
    var iterator = updates.makeAsyncIterator()
    #expect(await iterator.next()?.description == "A at 0ms 0x")
    #expect(timers.dueTimes == [.seconds(5)])
  }

  @Test func aDroppedStreamLeavesNoTickPending() {
    let timers = VirtualTimers()
    let player = Player(engine: Self.engine(), watchdog: timers.policy())
    player.send(.play("A"))
    for _ in 0..<1_000 {
      let updates = player.progressUpdates(every: .seconds(1))
      _ = updates
    }
    #expect(timers.dueTimes == [.seconds(5)])
    #expect(timers.scheduledCount == 1_001)
    #expect(timers.cancelledCount == 1_000)
    #expect(player.subscriberCountForTesting == 0)
  }

  @Test func theStreamEndsWhenThePlayerGoes() async throws {
    let timers = VirtualTimers()
    var player: Player? = Player(engine: Self.engine(), watchdog: timers.policy())
    player?.send(.play("A"))
    let updates = try #require(player).progressUpdates(every: .seconds(1))
    var iterator = updates.makeAsyncIterator()
    #expect(await iterator.next()?.position == .zero)
    player = nil
    #expect(await iterator.next() == nil)
    #expect(timers.pendingCount == 0)  // the tick and the watchdog, cancelled
  }
}
