import Foundation
import PlayerState
import Testing

/// A player whose user's pause, stop and resume fade over 200 ms.
private let fading = PlaybackState(configuration: PlayerConfiguration(fade: .milliseconds(200)))
/// The same on an engine that preloads.
private let fadingGapless = PlaybackState(
  configuration: PlayerConfiguration(canPreload: true, fade: .milliseconds(200)))

private let a = Load(1, 1)
private let b2 = Load(2, 2)

private func expiry(_ load: Load, _ id: UInt32) -> PlaybackEvent {
  .watchdogExpired(load, WatchdogID(id))
}

/// Each step of `events` printed (``printedSteps(_:from:)``), from a fading player.
private func steps(_ events: [PlaybackEvent], from start: PlaybackState = fading)
  -> (state: PlaybackState, steps: [String])
{
  printedSteps(events, from: start)
}

/// Issue 37, item 2: the user's pause and stop fade out, resume fades in, and
/// a fade-out is a timer with identity (docs/machine.md, "Fades").
@Suite("Fades")
struct FadeTests {
  // MARK: The setting

  @Test func aFadeIsKeptToTheMillisecondAndNothingBelowZero() throws {
    #expect(PlayerConfiguration(fade: .microseconds(200_500)).fade == .milliseconds(201))
    #expect(PlayerConfiguration(fade: .milliseconds(-5)).fade == .zero)
    #expect(PlayerConfiguration().fade == .zero)
    // Encoded only when on, so files written before fades are written the same.
    let off = String(decoding: try JSONEncoder().encode(PlayerConfiguration()), as: UTF8.self)
    #expect(!off.contains("fade"))
    let on = try JSONEncoder().encode(PlayerConfiguration(fade: .milliseconds(200)))
    #expect(String(decoding: on, as: UTF8.self).contains(#""fade":{"milliseconds":200}"#))
    let decoded = try JSONDecoder().decode(PlayerConfiguration.self, from: on)
    #expect(decoded.fade == .milliseconds(200))
  }

  @Test func withFadesOffNothingChanges() {
    let result = steps([.play("A"), .ready(a), .pause, .resume, .stop], from: PlaybackState())
    #expect(
      result.steps == [
        "load(A#1) watchdog(A#1, watchdog#1)", "start(A#1)", "pause(A#1)", "start(A#1)",
        "stop(A#1)",
      ])
  }

  // MARK: Pause and resume

  @Test func aPauseFadesOutThenPausesAtTheTimersExpiry() {
    let result = steps([.play("A"), .ready(a), .pause, expiry(a, 2)])
    #expect(
      result.steps == [
        "load(A#1) watchdog(A#1, watchdog#1)", "start(A#1)",
        "setVolume(A#1, 0, ramp 200ms) fadeOut(A#1, watchdog#2, 200ms)",
        "pause(A#1), setVolume(A#1, 1)",
      ])
    #expect(result.state.description == "paused(A#1)")
  }

  @Test func theIntentIsPausedAtOnceWhileTheEngineFades() {
    let result = steps([.play("A"), .ready(a), .pause])
    #expect(result.state.description == "paused(A#1, fading out)")
    #expect(result.state.playWhenReady == false)
    #expect(result.state.isPlaying == false)
    #expect(result.state.nowPlaying?.rate == PlaybackRate(thousandths: 0))
  }

  @Test func aResumeDuringTheFadeRampsBackWithoutAStartAndMakesItsExpiryStale() {
    let result = steps([.play("A"), .ready(a), .pause, .resume, expiry(a, 2)])
    #expect(
      Array(result.steps.suffix(2)) == [
        "setVolume(A#1, 1, ramp 200ms)", "ignored: stale watchdog",
      ])
    #expect(result.state.description == "playing(A#1)")
  }

  @Test func aResumeOfAPausedLoadFadesIn() {
    let result = steps([.play("A"), .ready(a), .pause, expiry(a, 2), .resume])
    #expect(
      result.steps.last == "setVolume(A#1, 0), start(A#1), setVolume(A#1, 1, ramp 200ms)")
  }

  @Test func aFadeInRampsToTheEffectiveVolume() {
    let result = steps([
      .play("A"), .ready(a), .setVolume(0.5), .system(.duckBegan), .pause, expiry(a, 2), .resume,
    ])
    #expect(
      Array(result.steps.suffix(3)) == [
        "setVolume(A#1, 0, ramp 200ms) fadeOut(A#1, watchdog#2, 200ms)",
        "pause(A#1), setVolume(A#1, 0.1)",
        "setVolume(A#1, 0), start(A#1), setVolume(A#1, 0.1, ramp 200ms)",
      ])
  }

  @Test func aReplayFromTheEndDoesNotFadeIn() {
    let result = steps([.play("A"), .ready(a), .reachedEnd(a), .resume])
    #expect(result.steps.last == "seek(A#1, 0ms, seek#1), start(A#1)")
  }

  @Test func aPausedBufferingLoadIsPausedAsBeforeWithoutAFade() {
    // Nothing is heard while buffering or stalled: no fade, no timer.
    let result = steps([.play("A"), .ready(a), .stalled(a), .pause])
    #expect(result.steps.last == "pause(A#1)")
  }

  @Test func aMutedLoadPausesAtOnce() {
    let result = steps([.play("A"), .ready(a), .mute, .pause, .resume])
    #expect(Array(result.steps.suffix(2)) == ["pause(A#1)", "start(A#1)"])
  }

  @Test func aRouteLossDuringTheFadePausesAtOnce() {
    let result = steps([.play("A"), .ready(a), .pause, .system(.routeLost), expiry(a, 2)])
    #expect(
      Array(result.steps.suffix(2)) == [
        "pause(A#1), setVolume(A#1, 1)", "ignored: stale watchdog",
      ])
  }

  @Test func aStoppedLoadsExpiryWithAnotherIdIsAStaleWatchdog() {
    let result = steps([.play("A"), .ready(a), .stop, expiry(a, 3), expiry(Load(2, 1), 2)])
    #expect(
      Array(result.steps.suffix(2)) == [
        "ignored: stale watchdog", "ignored: item does not match the token",
      ])
  }

  @Test func aRouteLossPausesAtOnceAndToggleFades() {
    let lost = steps([.play("A"), .ready(a), .system(.routeLost)])
    #expect(lost.steps.last == "pause(A#1)")
    let toggled = steps([.play("A"), .ready(a), .toggle])
    #expect(toggled.steps.last == "setVolume(A#1, 0, ramp 200ms) fadeOut(A#1, watchdog#2, 200ms)")
  }

  // MARK: What ends a fade-out early

  @Test func aStallEndsTheFadeAndItsExpiryIsStale() {
    let result = steps([.play("A"), .ready(a), .pause, .stalled(a), expiry(a, 2)])
    #expect(
      Array(result.steps.suffix(2)) == [
        "pause(A#1), setVolume(A#1, 1) watchdog(A#1, watchdog#3)", "ignored: stale watchdog",
      ])
    #expect(result.state.description == "stalled(A#1, paused)")
  }

  @Test func anInterruptionPausesTheFadingLoadAtOnce() {
    let result = steps([
      .play("A"), .ready(a), .pause, .system(.interruptionBegan), expiry(a, 2),
      .system(.interruptionEnded(shouldResume: true)),
    ])
    #expect(
      Array(result.steps.suffix(3)) == [
        "pause(A#1), setVolume(A#1, 1)", "ignored: stale watchdog", "",
      ])
    #expect(result.state.description == "paused(A#1)")
  }

  @Test func theEndDuringTheFadeRestoresTheVolumeOfTheLoadStillLive() {
    let result = steps([.play("A"), .ready(a), .pause, .reachedEnd(a)])
    #expect(result.steps.last == "setVolume(A#1, 1)")
    #expect(result.state.description == "ended(A#1)")
  }

  @Test func theEndDuringTheFadeAdvancesPausedAndLeavesTheOldLoadAtZero() {
    let result = steps([.queue(["A", "B"]), .ready(a), .pause, .reachedEnd(a)])
    #expect(result.steps.last == "stop(A#1), load(B#2) watchdog(B#2, watchdog#1)")
    #expect(result.state.description == "buffering(B#2, paused)")
  }

  @Test func aFailureEndsTheFade() {
    let result = steps([.play("A"), .ready(a), .pause, .failed(a, .decoding), expiry(a, 2)])
    #expect(Array(result.steps.suffix(2)) == ["stop(A#1)", "ignored: stale watchdog"])
  }

  @Test func aSeekDuringTheFadeKeepsIt() {
    let result = steps([.play("A"), .ready(a), .pause, .seek(to: .seconds(5)), expiry(a, 2)])
    #expect(
      Array(result.steps.suffix(2)) == [
        "seek(A#1, 5000ms, seek#1)", "pause(A#1), setVolume(A#1, 1)",
      ])
  }

  @Test func aVolumeChangeDuringTheFadeIsSentAtItsEnd() {
    let result = steps([
      .play("A"), .ready(a), .pause, .setVolume(0.5), .system(.duckBegan), expiry(a, 2),
    ])
    #expect(Array(result.steps.suffix(3)) == ["", "", "pause(A#1), setVolume(A#1, 0.1)"])
  }

  @Test func aSkipDuringTheFadeStopsTheLoad() {
    let result = steps([.queue(["A", "B"]), .ready(a), .pause, .next, expiry(a, 2)])
    #expect(
      Array(result.steps.suffix(2)) == [
        "stop(A#1), load(B#2) watchdog(B#2, watchdog#1)", "ignored: stale load token",
      ])
  }

  // MARK: Stop

  @Test func aStopFadesOutWhileTheStateIsIdleAndItsTimerStopsTheLoadOnce() {
    let result = steps([.play("A"), .ready(a), .stop, .ready(a), expiry(a, 2), expiry(a, 2)])
    #expect(
      Array(result.steps.suffix(4)) == [
        "setVolume(A#1, 0, ramp 200ms) fadeOut(A#1, watchdog#2, 200ms)",
        "ignored: stale load token", "stop(A#1)", "ignored: stale load token",
      ])
    #expect(result.state.description == "idle")
    #expect(result.state.leaving == nil)
  }

  @Test func theStateIsIdleAtOnceWhileAStoppedLoadFades() {
    let result = steps([.play("A"), .ready(a), .stop])
    #expect(result.state.description == "idle(fading out A#1)")
    #expect(result.state.kind == .idle)
    #expect(result.state.session == nil)
  }

  @Test func aNewLoadStopsTheLoadFadingOutFirst() {
    let result = steps([.play("A"), .ready(a), .stop, .play("B"), expiry(a, 2)])
    #expect(
      Array(result.steps.suffix(2)) == [
        "stop(A#1), load(B#2) watchdog(B#2, watchdog#1)", "ignored: stale load token",
      ])
    #expect(result.state.leaving == nil)
  }

  @Test func aResumeAfterAFadingStopStopsItThenReloads() {
    let result = steps([.play("A"), .ready(a), .stop, .resume])
    #expect(result.steps.last == "stop(A#1), load(A#2) watchdog(A#2, watchdog#1)")
  }

  @Test func aStopDuringAPauseFadeBecomesAStopFade() {
    let result = steps([.play("A"), .ready(a), .pause, .stop, expiry(a, 2), expiry(a, 3)])
    #expect(
      Array(result.steps.suffix(3)) == [
        "setVolume(A#1, 0, ramp 200ms) fadeOut(A#1, watchdog#3, 200ms)",
        "ignored: stale watchdog", "stop(A#1)",
      ])
  }

  @Test func aStopWithAPreloadStopsThePreloadAtOnce() {
    let result = steps(
      [.queue(["A", "B"]), .ready(a), .ready(b2), .stop, expiry(a, 2)], from: fadingGapless)
    #expect(
      Array(result.steps.suffix(2)) == [
        "stop(B#2), setVolume(A#1, 0, ramp 200ms) fadeOut(A#1, watchdog#2, 200ms)", "stop(A#1)",
      ])
  }

  @Test func aPausedLoadStopsAtOnce() {
    let result = steps([.play("A"), .ready(a), .system(.routeLost), .stop])
    #expect(result.steps.last == "stop(A#1)")
    #expect(result.state.leaving == nil)
  }

  @Test func aLoadFadingOutIsNotCarriedToANewEngine() throws {
    let fadingStop = steps([.play("A"), .ready(a), .stop]).state
    #expect(fadingStop.leaving == FadingLoad(load: a, timer: WatchdogID(2)))
    #expect(fadingStop.withoutLoad.leaving == nil)
    let data = try JSONEncoder().encode(fadingStop)
    #expect(try JSONDecoder().decode(PlaybackState.self, from: data) == fadingStop)
  }

  // MARK: The sleep timer

  @Test func theSleepCountdownFadesOut() {
    let result = steps([
      .play("A"), .ready(a), .setSleepTimer(.after(.seconds(60))),
      .system(.sleepTimerExpired(SleepTimerID(1))),
    ])
    #expect(result.steps.last == "setVolume(A#1, 0, ramp 200ms) fadeOut(A#1, watchdog#2, 200ms)")
  }

  // MARK: Capacity

  @Test func aFadeInBesideThePreloadItLetsInTakesFiveCommands() {
    // A state whose configuration was changed to preload after the pause: the
    // resume is the step that issues the preload, at a volume other than 1.
    var paused = steps([
      .queue(["A", "B"]), .ready(a), .setVolume(0.5), .pause, expiry(a, 2),
    ]).state
    paused.configuration.canPreload = true
    let result = steps([.resume], from: paused)
    #expect(
      result.steps == [
        "setVolume(A#1, 0), start(A#1), setVolume(A#1, 0.5, ramp 200ms), preload(B#2), "
          + "setVolume(B#2, 0.5)"
      ])
  }

  // MARK: Invariants

  @Test func aFadingLoadBesideALoadIsRefused() {
    var state = steps([.play("A"), .ready(a)]).state
    state.leaving = FadingLoad(load: a, timer: WatchdogID(2))
    #expect(state.invariantViolation == "the load fading out item1#1 is the current load")
  }
}
