import Foundation
import PlayerState
import Testing

/// A player on a preloading engine whose entries overlap for 2 s.
private let crossfading = PlaybackState(
  configuration: PlayerConfiguration(canPreload: true, crossfade: .seconds(2)))

private let a = Load(1, 1)
private let b = Load(2, 2)
private let c = Load(3, 3)
private let tenSeconds = MediaTime.seconds(10)

/// The queue `A B C`, `A` playing (10 s) and `B` preloaded (10 s): the
/// commands up to here are `load(A#1)`, `start(A#1)`, `preload(B#2)`.
private let playingABC: [PlaybackEvent] = [
  .queue(["A", "B", "C"]), .ready(a, duration: tenSeconds), .ready(b, duration: tenSeconds),
]

/// The commands of `playingABC`'s steps.
private let startOfABC = ["load(A#1) watchdog(A#1, watchdog#1)", "start(A#1), preload(B#2)", ""]

/// The step that starts a 2 s crossfade from `A#1` into `B#2`.
private let crossfadeAB =
  "setVolume(B#2, 0), start(B#2), setVolume(B#2, 1, ramp 2000ms), "
  + "setVolume(A#1, 0, ramp 2000ms) fadeOut(A#1, watchdog#2, 2000ms)"

/// Each step of `events` printed, from a crossfading player (or `start`).
private func steps(_ events: [PlaybackEvent], from start: PlaybackState = crossfading)
  -> (state: PlaybackState, steps: [String])
{
  printedSteps(events, from: start)
}

/// The steps after `playingABC` and a crossfade into `B` at 8 s.
private func duringCrossfade(_ events: [PlaybackEvent], from start: PlaybackState = crossfading)
  -> (state: PlaybackState, steps: [String])
{
  let result = steps(playingABC + [.position(a, .seconds(8))] + events, from: start)
  #expect(Array(result.steps.prefix(4)) == startOfABC + [crossfadeAB])
  return (result.state, Array(result.steps.dropFirst(4)))
}

/// Issue 37, item 3: within the crossfade of an entry's end its ready preload
/// starts at 0 and ramps up while the current load ramps down and is then
/// stopped exactly once (docs/machine.md, "Crossfade").
@Suite("Crossfade")
struct CrossfadeTests {
  // MARK: The setting

  @Test func aCrossfadeIsKeptToTheMillisecondAndEncodedOnlyWhenOn() throws {
    #expect(
      PlayerConfiguration(crossfade: .microseconds(2_000_500)).crossfade == .milliseconds(2001))
    #expect(PlayerConfiguration(crossfade: .seconds(-1)).crossfade == .zero)
    #expect(PlayerConfiguration(crossfade: .seconds(1e9)).crossfade == .milliseconds(4_294_967_295))
    #expect(PlayerConfiguration().crossfade == .zero)
    let off = String(decoding: try JSONEncoder().encode(PlayerConfiguration()), as: UTF8.self)
    #expect(!off.contains("crossfade"))
    let on = try JSONEncoder().encode(PlayerConfiguration(crossfade: .seconds(3)))
    #expect(String(decoding: on, as: UTF8.self).contains(#""crossfade":{"milliseconds":3000}"#))
    #expect(try JSONDecoder().decode(PlayerConfiguration.self, from: on).crossfade == .seconds(3))
  }

  // MARK: When it starts

  @Test func aPositionInsideTheWindowStartsIt() {
    let result = steps(
      playingABC + [
        .position(a, .seconds(7)), .position(a, .milliseconds(7999)), .position(a, .seconds(8)),
      ])
    #expect(result.steps == startOfABC + ["", "", crossfadeAB])
    #expect(result.state.description == "playing(B#2, crossfade from A#1)")
    #expect(result.state.queue.current == 1)
    #expect(result.state.session?.position == .zero)
  }

  @Test func theWindowIsMediaTimeAtTheRate() {
    // At 2x, 2 s of the clock play 4 s of the media: the window opens at 6 s.
    let result = steps(
      [
        .queue(["A", "B"]), .user(.setRate(PlaybackRate(2))), .ready(a, duration: tenSeconds),
        .ready(b, duration: tenSeconds), .position(a, .milliseconds(5999)),
        .position(a, .seconds(6)),
      ])
    #expect(
      result.steps.suffix(2) == [
        "",
        "setVolume(B#2, 0), start(B#2, 2x), setVolume(B#2, 1, ramp 2000ms), "
          + "setVolume(A#1, 0, ramp 2000ms) fadeOut(A#1, watchdog#2, 2000ms)",
      ])
  }

  @Test func entryChangedIsSentOnceAtTheFadesStart() {
    let notes = notified(
      playingABC + [.position(a, .seconds(8)), .position(a, .seconds(9)), .reachedEnd(a)],
      from: crossfading)
    #expect(
      notes == ["entryChanged(none -> A, queue) [user]", "entryChanged(A -> B, auto) [engine]"])
  }

  @Test func nothingStartsOneWhenAnyConditionFails() {
    let inside = PlaybackEvent.position(a, .seconds(9))
    let quiet = { (events: [PlaybackEvent], start: PlaybackState) in
      steps(events + [inside], from: start).steps.last ?? "?"
    }
    let loaded: [PlaybackEvent] = [.queue(["A", "B"]), .ready(a, duration: tenSeconds)]
    // The preload not ready yet.
    #expect(quiet(loaded, crossfading) == "")
    // An entry shorter than twice the crossfade, and one of unknown duration.
    #expect(
      quiet(
        [.queue(["A", "B"]), .ready(a, duration: .milliseconds(3999)), .ready(b)], crossfading)
        == "")
    #expect(quiet([.queue(["A", "B"]), .ready(a), .ready(b)], crossfading) == "")
    // Repeat one, the last entry, paused, muted, a sleep timer at this entry's end.
    #expect(quiet(loaded + [.user(.setRepeat(.one)), .ready(b)], crossfading) == "")
    #expect(quiet([.play("A"), .ready(a, duration: tenSeconds)], crossfading) == "")
    #expect(quiet(loaded + [.ready(b), .pause], crossfading) == "")
    #expect(quiet(loaded + [.ready(b), .user(.setMuted(true))], crossfading) == "")
    #expect(quiet(loaded + [.ready(b), .setSleepTimer(.endOfEntry)], crossfading) == "")
    // A seek pending: the report is not where the media is.
    #expect(
      quiet(loaded + [.ready(b), .seek(to: .seconds(9))], crossfading)
        == "ignored: from before a pending seek")
    // Off, and fades alone do not crossfade.
    let fadesOnly = PlaybackState(
      configuration: PlayerConfiguration(canPreload: true, fade: .milliseconds(200)))
    #expect(quiet(loaded + [.ready(b)], fadesOnly) == "")
  }

  // MARK: How the outgoing load ends

  @Test func itsTimerStopsItOnceAndThePreloadFollows() {
    let result = duringCrossfade([
      .watchdogExpired(a, WatchdogID(2)), .reachedEnd(a), .watchdogExpired(a, WatchdogID(2)),
    ])
    #expect(
      result.steps == [
        "stop(A#1), preload(C#3)", "ignored: stale load token", "ignored: stale load token",
      ])
    #expect(result.state.description == "playing(B#2, preloading C#3)")
  }

  @Test func itsOwnEndStopsItOnceAndNeverAdvancesAgain() {
    let result = duringCrossfade([
      .reachedEnd(a), .watchdogExpired(a, WatchdogID(2)), .reachedEnd(a),
      .position(a, .seconds(10)),
    ])
    #expect(
      result.steps == [
        "stop(A#1), preload(C#3)", "ignored: stale load token", "ignored: stale load token",
        "ignored: stale load token",
      ])
    #expect(result.state.queue.current == 1)
  }

  @Test func itsFailureStopsItAsEveryFailedLoad() {
    let result = duringCrossfade([
      .failed(a, .decoding), .watchdogExpired(a, WatchdogID(2)),
    ])
    #expect(result.steps == ["stop(A#1), preload(C#3)", "ignored: stale load token"])
  }

  @Test func itsOtherReportsAndAnotherTimerAreStale() {
    let result = duringCrossfade([
      .position(a, .seconds(9)), .stalled(a), .ready(a, duration: tenSeconds),
      .watchdogExpired(a, WatchdogID(1)), .ready(Load(3, 1)),
    ])
    #expect(
      result.steps == [
        "ignored: stale load token", "ignored: stale load token", "ignored: stale load token",
        "ignored: stale watchdog",
        "ignored: item does not match the token",
      ])
  }

  @Test func aStopsFadeEndsAtItsLoadsOwnEndToo() {
    let fading = PlaybackState(configuration: PlayerConfiguration(fade: .milliseconds(200)))
    let result = steps(
      [.play("A"), .ready(a), .stop, .reachedEnd(a), .watchdogExpired(a, WatchdogID(2))],
      from: fading)
    #expect(
      result.steps == [
        "load(A#1) watchdog(A#1, watchdog#1)", "start(A#1)",
        "setVolume(A#1, 0, ramp 200ms) fadeOut(A#1, watchdog#2, 200ms)", "stop(A#1)",
        "ignored: stale load token",
      ])
    #expect(result.state.description == "idle")
    let failed = steps([.play("A"), .ready(a), .stop, .failed(a, .network)], from: fading)
    #expect(failed.steps.last == "stop(A#1)")
    #expect(failed.state.leaving == nil)
  }

  // MARK: Every interaction during a crossfade

  @Test func aSkipStopsBothAndNothingOfThemStaysAudible() {
    #expect(
      duringCrossfade([.next]).steps == [
        "stop(A#1), stop(B#2), load(C#3) watchdog(C#3, watchdog#1)"
      ])
    #expect(
      duringCrossfade([.previous]).steps == [
        "stop(A#1), stop(B#2), load(A#3) watchdog(A#3, watchdog#1)"
      ])
    #expect(duringCrossfade([.user(.clear)]).steps == ["stop(A#1), stop(B#2)"])
    #expect(
      duringCrossfade([.play("D")]).steps == [
        "stop(A#1), stop(B#2), load(D#3) watchdog(D#3, watchdog#1)"
      ])
  }

  @Test func theLargestStepIsASkipAtAVolumeBelowOne() {
    let result = steps(
      playingABC + [.setVolume(0.5), .position(a, .seconds(8)), .next])
    #expect(
      result.steps.last
        == "stop(A#1), stop(B#2), load(C#3), setVolume(C#3, 0.5) watchdog(C#3, watchdog#1)")
  }

  @Test func aPauseStopsTheOutgoingLoadAtOnce() {
    let result = duringCrossfade([.pause, .resume])
    // The fade's end would have issued the next preload: so does this step.
    #expect(result.steps == ["stop(A#1), pause(B#2), preload(C#3)", "start(B#2)"])
    #expect(result.state.leaving == nil)
    let fading = PlaybackState(
      configuration: PlayerConfiguration(
        canPreload: true, fade: .milliseconds(200), crossfade: .seconds(2)))
    #expect(
      duringCrossfade([.pause], from: fading).steps == [
        "stop(A#1), setVolume(B#2, 0, ramp 200ms), preload(C#3) fadeOut(B#2, watchdog#1, 200ms)"
      ])
  }

  @Test func aStopStopsTheOutgoingLoadAndFadesTheIncomingOne() {
    #expect(duringCrossfade([.stop]).steps == ["stop(A#1), stop(B#2)"])
    let fading = PlaybackState(
      configuration: PlayerConfiguration(
        canPreload: true, fade: .milliseconds(200), crossfade: .seconds(2)))
    let result = duringCrossfade([.stop, .watchdogExpired(b, WatchdogID(1))], from: fading)
    #expect(
      result.steps == [
        "stop(A#1), setVolume(B#2, 0, ramp 200ms) fadeOut(B#2, watchdog#1, 200ms)", "stop(B#2)",
      ])
    #expect(result.state.description == "idle")
  }

  @Test func systemHoldsStopTheOutgoingLoadAndPause() {
    #expect(
      duringCrossfade([.system(.interruptionBegan)]).steps == [
        "stop(A#1), pause(B#2), preload(C#3)"
      ])
    #expect(
      duringCrossfade([.system(.routeLost)]).steps == ["stop(A#1), pause(B#2), preload(C#3)"])
    let pausingDuck = PlaybackState(
      configuration: PlayerConfiguration(
        canPreload: true, ducking: .pause, crossfade: .seconds(2)))
    #expect(
      duringCrossfade([.system(.duckBegan)], from: pausingDuck).steps == [
        "stop(A#1), pause(B#2), preload(C#3)"
      ])
  }

  @Test func aVolumeChangeOrALoweringDuckGoesToTheIncomingLoadOnly() {
    #expect(
      duringCrossfade([.setVolume(0.5), .system(.duckBegan), .user(.setMuted(true))]).steps == [
        "setVolume(B#2, 0.5)", "setVolume(B#2, 0.1)", "setVolume(B#2, 0)",
      ])
  }

  @Test func aSeekOrAStallOfTheIncomingLoadLeavesTheOutgoingOneToItsFade() {
    let result = duringCrossfade([
      .seek(to: .seconds(5)), .stalled(b), .watchdogExpired(a, WatchdogID(2)),
    ])
    #expect(
      result.steps == [
        "seek(B#2, 5000ms, seek#1)", "watchdog(B#2, watchdog#1)", "stop(A#1)",
      ])
  }

  @Test func theIncomingEntryEndingFirstStopsTheOutgoingLoadFirst() {
    #expect(
      duringCrossfade([.reachedEnd(b)]).steps == [
        "stop(A#1), stop(B#2), load(C#3) watchdog(C#3, watchdog#1)"
      ])
    let repeating = duringCrossfade([.user(.setRepeat(.one)), .reachedEnd(b)])
    #expect(repeating.steps == ["", "stop(A#1), seek(B#2, 0ms, seek#1), start(B#2)"])
  }

  @Test func aRetryOfTheIncomingLoadStopsTheOutgoingOneFirst() {
    let result = duringCrossfade([.failed(b, .decoding), .retry])
    #expect(result.steps == ["stop(B#2)", "stop(A#1), load(B#3) watchdog(B#3, watchdog#1)"])
  }

  @Test func aQueueEditThatKeepsTheEntryLeavesTheFadeAlone() {
    let result = duringCrossfade([
      .user(.append(["D"])), .user(.move(from: 2, to: 3)), .user(.setRepeat(.all)),
      .watchdogExpired(a, WatchdogID(2)),
    ])
    #expect(result.steps == ["", "", "", "stop(A#1), preload(D#3)"])
  }

  @Test func aSleepTimerCountsTheOutgoingEntryAtTheFadesStart() {
    let result = duringCrossfade([.reachedEnd(a)], from: crossfading)
    #expect(result.state.sleepTimer == nil)
    var counting = steps(playingABC + [.setSleepTimer(.afterEntries(2))]).state
    counting = steps([.position(a, .seconds(8))], from: counting).state
    #expect(counting.sleepTimer == .afterEntries(1))
    counting = steps([.reachedEnd(a)], from: counting).state
    #expect(counting.sleepTimer == .afterEntries(1))
    // Armed during the fade to stop at B's end: no preload at the fade's end.
    let stopping = duringCrossfade([
      .setSleepTimer(.endOfEntry), .watchdogExpired(a, WatchdogID(2)),
    ])
    #expect(stopping.steps == ["", "stop(A#1)"])
  }

  @Test func theNextEntryCrossfadesOnceTheFadeIsOver() {
    let result = duringCrossfade([
      .watchdogExpired(a, WatchdogID(2)), .ready(c, duration: tenSeconds),
      .position(b, .seconds(8)),
    ])
    #expect(
      result.steps == [
        "stop(A#1), preload(C#3)", "",
        "setVolume(C#3, 0), start(C#3), setVolume(C#3, 1, ramp 2000ms), "
          + "setVolume(B#2, 0, ramp 2000ms) fadeOut(B#2, watchdog#1, 2000ms)",
      ])
  }

  // MARK: Invariants

  @Test func aLoadLeavingBesideAPreloadOrAsTheCurrentLoadIsRefused() {
    var state = steps(playingABC).state
    state.leaving = FadingLoad(load: Load(3, 3), timer: WatchdogID(1))
    #expect(state.invariantViolation == "a load fading out beside a preload")
    state.preload = nil
    state.leaving = FadingLoad(load: a, timer: WatchdogID(2))
    #expect(state.invariantViolation == "the load fading out item1#1 is the current load")
  }
}
