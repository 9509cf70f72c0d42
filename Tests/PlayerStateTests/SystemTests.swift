import PlayerState
import Testing

/// Loads as the runs below issue them.

private let b2 = Load(2, 2)

private let began = PlaybackEvent.system(.interruptionBegan)
private let endedResume = PlaybackEvent.system(.interruptionEnded(shouldResume: true))
private let endedNoResume = PlaybackEvent.system(.interruptionEnded(shouldResume: false))

/// The system's own pauses and the network: each public bug class of issue 10,
/// with the literal state and command log.
@Suite("The system: interruptions, the output route, the network")
struct SystemTests {
  /// Reported against peers: a stream that starts playing when an interruption
  /// begins (or ends) while the user had paused it.
  @Test func anInterruptionWhilePausedNeverStarts() {
    let result = run([.play("A"), .ready(a1), .pause, began, endedResume])
    #expect(result.state.description == "paused(A#1)")
    #expect(result.commands == ["load(A#1)", "start(A#1)", "pause(A#1)"])
  }

  @Test func aReadyDuringAnInterruptionWaitsForItsEnd() {
    let during = run([.play("A"), began, .ready(a1)])
    #expect(during.state.description == "suppressed(A#1, interrupted)")
    #expect(during.state.isPlaying == false)
    #expect(during.state.suppression == .interruption)
    #expect(during.commands == ["load(A#1)"])
    let after = run([endedResume], from: during.state)
    #expect(after.state.description == "playing(A#1)")
    #expect(after.commands == ["start(A#1)"])
  }

  @Test func anEndWithoutTheHintLeavesTheUserPaused() {
    let result = run([.play("A"), .ready(a1), began, endedNoResume, endedResume])
    #expect(result.state.description == "paused(A#1)")
    #expect(result.state.playWhenReady == false)
    #expect(result.commands == ["load(A#1)", "start(A#1)", "pause(A#1)"])
    // The second end had no interruption to end.
    let unpaired = result.state.transition(on: endedResume)
    #expect(unpaired.ignored == .notInterrupted)
  }

  /// Reported against peers: a "paused for interruption" flag not reset when
  /// the item changes, so the end resumes the wrong thing. Here the
  /// interruption spans a skip, and its end acts on whatever is current then.
  @Test func anInterruptionSpanningASkipActsOnTheNewEntry() {
    let result = run([
      .queue(["A", "B"]), .ready(a1), began, .next, .ready(b2), endedResume,
    ])
    #expect(result.state.description == "playing(B#2)")
    #expect(
      result.commands == [
        "load(A#1)", "start(A#1)", "pause(A#1)", "stop(A#1)", "load(B#2)", "start(B#2)",
      ])
  }

  @Test func theUsersIntentsDuringAnInterruptionAreKept() {
    let result = run([.play("A"), .ready(a1), began, .pause, .resume, .seek(to: .seconds(4))])
    #expect(result.state.description == "suppressed(A#1, interrupted, seek#1)")
    #expect(
      result.commands == ["load(A#1)", "start(A#1)", "pause(A#1)", "seek(A#1, 4000ms, seek#1)"])
  }

  @Test func aLostRouteIsAPauseThatNeverResumesByItself() {
    let result = run([.play("A"), .ready(a1), .system(.routeLost), began, endedResume])
    #expect(result.state.description == "paused(A#1)")
    #expect(result.commands == ["load(A#1)", "start(A#1)", "pause(A#1)"])
  }

  /// Reported against Playhead itself: the engine paused on its own, the UI
  /// showed playing, and the user's tap on play did nothing.
  @Test func aSystemPauseShowsAndTheUsersResumeStartsAgain() {
    let paused = run([.play("A"), .ready(a1), .engine(.pausedBySystem(a1))])
    #expect(paused.state.description == "suppressed(A#1, system pause)")
    #expect(paused.state.isPlaying == false)
    let resumed = run([.resume], from: paused.state)
    #expect(resumed.state.description == "playing(A#1)")
    #expect(resumed.commands == ["start(A#1)"])
  }

  /// On iOS the engine's pause (rate 0) and the interruption's notification
  /// arrive in either order; the end with the hint resumes in both.
  @Test func anInterruptionTakesOverASystemPauseWhateverTheOrder() {
    for first in [began, .engine(.pausedBySystem(a1))] {
      let second: PlaybackEvent = first == began ? .engine(.pausedBySystem(a1)) : began
      let result = run([.play("A"), .ready(a1), first, second, endedResume])
      #expect(result.state.description == "playing(A#1)", "\(first) first")
      #expect(result.commands.last == "start(A#1)", "\(first) first")
    }
  }

  /// Found by the fuzzer (property 6, `isPlaying` agrees with the engine's
  /// log): a system-paused load's end with repeat one sent `start` while the
  /// state still showed the system pause. The end ends the system pause.
  @Test func theEndOfASystemPausedLoadEndsTheSystemPause() {
    let replay = run([
      .play("A"), .ready(a1), .user(.setRepeat(.one)), .engine(.pausedBySystem(a1)),
      .reachedEnd(a1),
    ])
    #expect(replay.state.description == "playing(A#1, seek#1)")
    #expect(replay.state.isPlaying == true)
    #expect(
      replay.commands == ["load(A#1)", "start(A#1)", "seek(A#1, 0ms, seek#1)", "start(A#1)"])
    let ended = run([.play("A"), .ready(a1), .engine(.pausedBySystem(a1)), .reachedEnd(a1)])
    #expect(ended.state.description == "ended(A#1, autoplay)")
    #expect(ended.state.session?.systemPaused == false)
    let again = run([.resume], from: ended.state)
    #expect(again.state.description == "playing(A#1, seek#1)")
    #expect(again.commands == ["seek(A#1, 0ms, seek#1)", "start(A#1)"])
  }

  @Test func aSystemPauseBelongsToItsLoadAndAStaleOneIsIgnored() {
    let result = run([
      .queue(["A", "B"]), .ready(a1), .engine(.pausedBySystem(a1)), .next, .ready(b2),
    ])
    #expect(result.state.description == "playing(B#2)")
    #expect(result.state.suppression == nil)
    let stale = result.state.transition(on: .engine(.pausedBySystem(a1)))
    #expect(stale.ignored == .staleLoad)
  }

  @Test func networkLostThenBackReloadsAtTheLastPositionWithANewToken() {
    let waiting = run([.play("A"), .ready(a1), .position(a1, .seconds(12)), .stalled(a1)])
    let lost = waiting.state.transition(on: .system(.networkLost))
    #expect(lost.next.description == "waiting(A#1, network, attempt 1, autoplay)")
    #expect(printed(lost, from: waiting.state).commands == "stop(A#1)")
    #expect(printed(lost, from: waiting.state).watchdog == "backoff(A#1, watchdog#3, 1000ms)")
    let back = lost.next.transition(on: .system(.networkAvailable))
    #expect(back.next.description == "buffering(A#2, autoplay)")
    #expect(printed(back, from: lost.next).commands == "load(A#2, from 12000ms)")
    // The backoff timer of the wait is stale once the reload happened.
    let timer = back.next.transition(on: .watchdogExpired(a1, WatchdogID(3)))
    #expect(timer.ignored == .staleLoad)
  }

  @Test func aStaleBackoffAfterStopReloadsNothing() {
    let result = run([.play("A"), .failed(a1, .network), .stop])
    #expect(result.state.description == "idle")
    #expect(result.commands == ["load(A#1)", "stop(A#1)"])
    let timer = result.state.transition(on: .watchdogExpired(a1, WatchdogID(2)))
    #expect(timer.ignored == .staleLoad)
    #expect(timer.commands.isEmpty)
  }

  @Test func theBackoffDoublesAndTheAttemptsRunOut() {
    let policy = RetryPolicy(attempts: 2, backoff: .seconds(1), maximumBackoff: .milliseconds(1500))
    let start = PlaybackState(configuration: PlayerConfiguration(retry: policy))
    var state = run([.play("A"), .failed(a1, .network)], from: start).state
    let first = state.transition(on: .watchdogExpired(a1, WatchdogID(2)))
    #expect(first.next.description == "buffering(A#2, autoplay)")
    state = first.next
    let second = state.transition(on: .failed(Load(1, 2), .network))
    #expect(second.next.description == "waiting(A#2, network, attempt 2, autoplay)")
    #expect(printed(second, from: state).watchdog == "backoff(A#2, watchdog#2, 1500ms)")
    state = second.next.transition(on: .system(.networkAvailable)).next
    let last = state.transition(on: .failed(Load(1, 3), .network))
    #expect(last.next.description == "failed(A#3, network, autoplay)")
    #expect(printed(last, from: state).commands == "stop(A#3)")
    #expect(policy.delay(before: 1) == .seconds(1))
    #expect(policy.delay(before: 3) == .milliseconds(1500))
  }

  @Test func otherFailuresFailAtOnceAndKeepTheEnginesDetail() {
    let detail = FailureDetail(
      domain: "AVFoundationErrorDomain", code: -11800, message: "cannot decode")
    let result = run([.play("A"), .engine(.failed(a1, .decoding, detail: detail))])
    #expect(result.state.description == "failed(A#1, decoding, autoplay)")
    #expect(result.state.failure == detail)
    #expect(
      EngineReport.failed(a1, .decoding, detail: detail).description
        == "failed(item1#1, decoding, AVFoundationErrorDomain -11800 \"cannot decode\")")
    let off = PlaybackState(configuration: PlayerConfiguration(retry: .off))
    let network = run([.play("A"), .failed(a1, .network)], from: off)
    #expect(network.state.description == "failed(A#1, network, autoplay)")
  }
}
