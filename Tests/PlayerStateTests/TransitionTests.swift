import PlayerState
import Testing

/// One accepted transition, with its expected outcome written out.
struct TransitionCase: CustomTestStringConvertible, Sendable {
  let state: PlaybackState
  let event: PlaybackEvent
  let next: String
  let commands: String
  let watchdog: String?

  init(
    _ state: PlaybackState, _ event: PlaybackEvent, _ next: String, _ commands: String,
    watchdog: String? = nil
  ) {
    self.state = state
    self.event = event
    self.next = next
    self.commands = commands
    self.watchdog = watchdog
  }

  var testDescription: String { "\(state) + \(event)" }
}

/// Every accepted transition of the table, with literal expected state, commands and watchdog.
let transitionCases: [TransitionCase] = [
  // idle
  .init(
    idle2, .play("A"), "buffering(A#3, autoplay)", "load(A#3)",
    watchdog: "watchdog(A#3, watchdog#1)"),
  // buffering
  .init(
    fixture(.buffering), .play("B"), "buffering(B#3, autoplay)", "stop(A#2) load(B#3)",
    watchdog: "watchdog(B#3, watchdog#1)"),
  .init(fixture(.buffering), .pause, "buffering(A#2, paused)", "none"),
  .init(fixture(.buffering), .stop, "idle", "stop(A#2)"),
  .init(
    fixture(.buffering), .seek(to: .seconds(1)), "buffering(A#2, autoplay, seek#2)",
    "seek(A#2, 1000ms, seek#2)"),
  .init(fixture(.buffering), .ready(a2), "playing(A#2)", "start(A#2)"),
  .init(fixture(.buffering), .failed(a2, .network), "failed(A#2, network, autoplay)", "stop(A#2)"),
  .init(
    fixture(.buffering), .watchdogExpired(a2, WatchdogID(1)), "failed(A#2, timeout, autoplay)",
    "stop(A#2)"),
  .init(
    fixture(.buffering, seekPending: true), .seekCompleted(a2, SeekID(1)),
    "buffering(A#2, autoplay)", "none"),
  .init(fixture(.buffering, play: false), .play("A"), "buffering(A#2, autoplay)", "none"),
  .init(fixture(.buffering, play: false), .resume, "buffering(A#2, autoplay)", "none"),
  .init(fixture(.buffering, play: false), .ready(a2), "paused(A#2)", "none"),
  // playing
  .init(
    fixture(.ready), .play("B"), "buffering(B#3, autoplay)", "stop(A#2) load(B#3)",
    watchdog: "watchdog(B#3, watchdog#1)"),
  .init(fixture(.ready), .pause, "paused(A#2)", "pause(A#2)"),
  .init(fixture(.ready), .stop, "idle", "stop(A#2)"),
  .init(
    fixture(.ready), .seek(to: .seconds(1)), "playing(A#2, seek#2)", "seek(A#2, 1000ms, seek#2)"),
  .init(
    fixture(.ready), .stalled(a2), "stalled(A#2)", "none", watchdog: "watchdog(A#2, watchdog#2)"),
  .init(fixture(.ready), .reachedEnd(a2), "ended(A#2, autoplay)", "none"),
  .init(fixture(.ready), .failed(a2, .network), "failed(A#2, network, autoplay)", "stop(A#2)"),
  .init(fixture(.ready, seekPending: true), .seekCompleted(a2, SeekID(1)), "playing(A#2)", "none"),
  // paused
  .init(fixture(.ready, play: false), .play("A"), "playing(A#2)", "start(A#2)"),
  .init(
    fixture(.ready, play: false), .play("B"), "buffering(B#3, autoplay)", "stop(A#2) load(B#3)",
    watchdog: "watchdog(B#3, watchdog#1)"),
  .init(fixture(.ready, play: false), .resume, "playing(A#2)", "start(A#2)"),
  .init(fixture(.ready, play: false), .stop, "idle", "stop(A#2)"),
  .init(
    fixture(.ready, play: false), .seek(to: .seconds(1)), "paused(A#2, seek#2)",
    "seek(A#2, 1000ms, seek#2)"),
  .init(
    fixture(.ready, play: false), .stalled(a2), "stalled(A#2, paused)", "none",
    watchdog: "watchdog(A#2, watchdog#2)"),
  .init(fixture(.ready, play: false), .reachedEnd(a2), "ended(A#2)", "none"),
  .init(fixture(.ready, play: false), .failed(a2, .network), "failed(A#2, network)", "stop(A#2)"),
  .init(
    fixture(.ready, play: false, seekPending: true), .seekCompleted(a2, SeekID(1)), "paused(A#2)",
    "none"),
  // stalled
  .init(
    fixture(.stalled), .play("B"), "buffering(B#3, autoplay)", "stop(A#2) load(B#3)",
    watchdog: "watchdog(B#3, watchdog#1)"),
  .init(fixture(.stalled), .pause, "stalled(A#2, paused)", "pause(A#2)"),
  .init(fixture(.stalled), .stop, "idle", "stop(A#2)"),
  .init(
    fixture(.stalled), .seek(to: .seconds(1)), "stalled(A#2, seek#2)", "seek(A#2, 1000ms, seek#2)"),
  .init(fixture(.stalled), .resumed(a2), "playing(A#2)", "none"),
  .init(fixture(.stalled), .reachedEnd(a2), "ended(A#2, autoplay)", "none"),
  .init(fixture(.stalled), .failed(a2, .network), "failed(A#2, network, autoplay)", "stop(A#2)"),
  .init(
    fixture(.stalled), .watchdogExpired(a2, WatchdogID(1)), "failed(A#2, timeout, autoplay)",
    "stop(A#2)"),
  .init(
    fixture(.stalled, seekPending: true), .seekCompleted(a2, SeekID(1)), "stalled(A#2)", "none"),
  .init(fixture(.stalled, play: false), .play("A"), "stalled(A#2)", "start(A#2)"),
  .init(fixture(.stalled, play: false), .resume, "stalled(A#2)", "start(A#2)"),
  .init(fixture(.stalled, play: false), .resumed(a2), "paused(A#2)", "none"),
  // ended
  .init(fixture(.ended), .play("A"), "playing(A#2, seek#2)", "seek(A#2, 0ms, seek#2) start(A#2)"),
  .init(
    fixture(.ended), .play("B"), "buffering(B#3, autoplay)", "stop(A#2) load(B#3)",
    watchdog: "watchdog(B#3, watchdog#1)"),
  .init(fixture(.ended), .pause, "ended(A#2)", "none"),
  .init(fixture(.ended), .resume, "playing(A#2, seek#2)", "seek(A#2, 0ms, seek#2) start(A#2)"),
  .init(fixture(.ended), .stop, "idle", "stop(A#2)"),
  .init(
    fixture(.ended), .seek(to: .seconds(1)), "playing(A#2, seek#2)",
    "seek(A#2, 1000ms, seek#2) start(A#2)"),
  .init(fixture(.ended), .failed(a2, .network), "failed(A#2, network, autoplay)", "stop(A#2)"),
  .init(
    fixture(.ended, play: false), .seek(to: .seconds(1)), "paused(A#2, seek#2)",
    "seek(A#2, 1000ms, seek#2)"),
  // failed
  .init(
    fixture(.failed(.network)), .play("A"), "buffering(A#3, autoplay)", "load(A#3)",
    watchdog: "watchdog(A#3, watchdog#1)"),
  .init(fixture(.failed(.network)), .pause, "failed(A#2, network)", "none"),
  .init(fixture(.failed(.network)), .stop, "idle", "none"),
  .init(
    fixture(.failed(.network)), .retry, "buffering(A#3, autoplay)", "load(A#3)",
    watchdog: "watchdog(A#3, watchdog#1)"),
  .init(fixture(.failed(.network), play: false), .resume, "failed(A#2, network, autoplay)", "none"),
]

@Suite("Transition table")
struct TransitionTests {
  @Test("accepted transition", arguments: transitionCases)
  func accepted(_ example: TransitionCase) {
    let transition = example.state.transition(on: example.event)
    #expect(transition.ignored == nil)
    #expect(transition.next.description == example.next)
    #expect(transition.commands.description == example.commands)
    #expect(transition.watchdog?.description == example.watchdog)
  }

  @Test func everyRowOfTheTableHasALiteralCase() {
    let covered = Set(
      transitionCases.map {
        TransitionTable.Row(
          before: $0.state, event: $0.event, transition: $0.state.transition(on: $0.event))
      })
    let missing = TransitionTable.accepted.filter { !covered.contains($0) }
    #expect(missing.map(\.description) == [])
    #expect(TransitionTable.accepted.count == 54)
  }

  @Test func newLoadsKeepCountingAfterStop() {
    let result = run([.play("A"), .stop, .play("A"), .stop, .play("B")])
    #expect(result.state.description == "buffering(B#3, autoplay)")
    #expect(result.state.issuedLoads == 3)
    #expect(result.commands == ["load(A#1)", "stop(A#1)", "load(A#2)", "stop(A#2)", "load(B#3)"])
  }

  @Test func seekIdsRestartForEachLoad() {
    let result = run([
      .play("A"), .seek(to: .seconds(1)), .seek(to: .seconds(2)), .play("B"), .seek(to: .zero),
    ])
    #expect(result.state.description == "buffering(B#2, autoplay, seek#1)")
    #expect(
      result.commands == [
        "load(A#1)", "seek(A#1, 1000ms, seek#1)", "seek(A#1, 2000ms, seek#2)", "stop(A#1)",
        "load(B#2)", "seek(B#2, 0ms, seek#1)",
      ])
  }

  @Test func stallsArmNewWatchdogsAndOldOnesAreStale() {
    let a1 = Load("A", 1)
    let result = run([
      .play("A"), .ready(a1), .stalled(a1), .resumed(a1), .stalled(a1),
      .watchdogExpired(a1, WatchdogID(1)), .watchdogExpired(a1, WatchdogID(2)),
    ])
    #expect(result.state.description == "stalled(A#1)")
    #expect(result.state.session?.lastWatchdog == WatchdogID(3))
    let expiry = result.state.transition(on: .watchdogExpired(a1, WatchdogID(3)))
    #expect(expiry.next.description == "failed(A#1, timeout, autoplay)")
    #expect(expiry.commands.description == "stop(A#1)")
  }

  @Test func derivedIsPlayingNeedsBothReadyAndIntent() {
    #expect(fixture(.ready, play: true).isPlaying == true)
    #expect(fixture(.ready, play: false).isPlaying == false)
    #expect(fixture(.buffering, play: true).isPlaying == false)
    #expect(fixture(.stalled, play: true).isPlaying == false)
    #expect(fixture(.ended, play: true).isPlaying == false)
    #expect(idle2.isPlaying == false)
  }

  @Test func pureReduceAgreesWithTransition() {
    let state = PlaybackState.reduce(PlaybackState(), .play("A"))
    #expect(
      state
        == PlaybackState(
          session: Session(
            load: Load("A", 1), stage: .buffering, playWhenReady: true, lastWatchdog: WatchdogID(1)),
          issuedLoads: 1))
  }
}
