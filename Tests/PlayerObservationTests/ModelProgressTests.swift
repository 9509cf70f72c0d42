import PlayerEngine
import PlayerObservation
import PlayerSimulation
import PlayerState
import PlayerTesting
import Testing

/// The model's position and progress: read at every update, moved by the
/// player's ticks while playing on a virtual clock, and no timer left once
/// the model goes.
@MainActor
@Suite("PlayerModel: progress", .timeLimit(.minutes(1)))
struct ModelProgressTests {
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

  @Test func thePositionMovesWithTheTicksWhilePlayingOnly() async {
    let timers = CountedTimers()
    let player = Player(engine: Self.engine(), watchdog: timers.policy)
    let model = PlayerModel(player: player, progressInterval: .milliseconds(500))
    model.play("A")
    #expect(model.progress?.description == "A at 0ms of 30000ms 1x")

    timers.clock.advance(by: .milliseconds(500))
    await until(model) { $0.position == .milliseconds(500) }
    timers.clock.advance(by: .milliseconds(1000))
    await until(model) { $0.position == .milliseconds(1500) }
    #expect(model.progress?.fraction == 0.05)
    // The next tick, and the load's watchdog (stale once ready, due at 5 s).
    #expect(timers.live == [.milliseconds(500), .seconds(5)])

    // Paused: the position stops where it got, and no tick is pending.
    model.pause()
    #expect(model.progress?.description == "A at 1500ms of 30000ms 0x")
    #expect(timers.live == [.seconds(5)])
    timers.clock.advance(by: .seconds(5))
    #expect(model.position == .milliseconds(1500))
    #expect(timers.live == [])

    // A seek shows at once; playing again ticks again.
    model.seek(to: .seconds(10))
    #expect(model.position == .seconds(10))
    model.play()
    timers.clock.advance(by: .milliseconds(500))
    await until(model) { $0.position == .milliseconds(10_500) }
  }

  @Test func withoutAnIntervalThePositionMovesOnlyWithTheState() {
    let timers = CountedTimers()
    let player = Player(engine: Self.engine(), watchdog: timers.policy)
    let model = PlayerModel(player: player, progressInterval: nil)
    model.play("A")
    timers.clock.advance(by: .seconds(2))
    #expect(timers.live == [.seconds(5)])  // the load's watchdog only: no tick
    #expect(model.position == .zero)
    // The next update reads the progress then.
    model.send(.position(Load(1, 1), .milliseconds(1900)))
    #expect(model.position == .milliseconds(1900))
  }

  @Test func noTimerIsLeftOnceTheModelGoes() async {
    let timers = CountedTimers()
    let player = Player(engine: Self.engine(), watchdog: timers.policy)
    do {
      let model = PlayerModel(player: player, progressInterval: .milliseconds(250))
      model.play("A")
      timers.clock.advance(by: .seconds(1))
      await until(model) { $0.position == .seconds(1) }
      #expect(timers.live == [.milliseconds(250), .seconds(5)])
      #expect(player.subscriberCountForTesting == 3)
    }
    // The tasks end a few turns of the main actor later; the stream's end cancels the tick.
    for _ in 0..<100 where player.subscriberCountForTesting > 0 { await Task.yield() }
    #expect(player.subscriberCountForTesting == 0)
    #expect(timers.live == [.seconds(5)])
    timers.clock.advance(by: .seconds(10))
    #expect(timers.live == [])
    #expect(player.isPlayingForTest == true)
  }
}

extension Player {
  /// Whether the player still plays: the model's going is not a pause.
  fileprivate var isPlayingForTest: Bool { state.isPlaying }
}

/// A watchdog policy on PlayerSimulation's virtual clock whose timers can be
/// cancelled, listing those still live (scheduled, neither fired nor cancelled).
final class CountedTimers: Sendable {
  /// The clock; time moves only with `clock.advance(by:)`.
  let clock = VirtualClock()
  private let pending = Locked(LiveTimers())

  private struct LiveTimers {
    var delays: [Int: Duration] = [:]
    var next = 0
  }

  /// The policy: a 5 s watchdog timeout, the clock's time and timers.
  var policy: WatchdogPolicy {
    WatchdogPolicy(timeout: .seconds(5), now: { [clock] in clock.now }) {
      [pending, clock] after, fire in
      let id = pending.withLock { timers -> Int in
        timers.next += 1
        timers.delays[timers.next] = after
        return timers.next
      }
      clock.schedule(after: after) {
        if pending.withLock({ $0.delays.removeValue(forKey: id) }) != nil { fire() }
      }
      return TimerHandle { pending.withLock { _ = $0.delays.removeValue(forKey: id) } }
    }
  }

  /// The delays of the timers scheduled and neither fired nor cancelled, shortest first.
  var live: [Duration] { pending.withLock { $0.delays.values.sorted() } }
}
