import PlayerState
import Testing

/// A new player on an engine that preloads.
let preloadingPlayer = PlaybackState(configuration: PlayerConfiguration(canPreload: true))

/// Loads as the runs below issue them.
private let l1 = Load(1, 1)
private let l2 = Load(2, 2)
private let l3 = Load(3, 3)

@Suite("The queue: advance, repeat, preload, edits, navigation")
struct QueueTests {
  @Test func theEndOfAnEntryLoadsTheNextAndTheLastEndsTheQueue() {
    let result = run([
      .queue(["A", "B"]), .ready(l1), .reachedEnd(l1), .ready(Load(2, 2)), .reachedEnd(Load(2, 2)),
    ])
    #expect(result.state.description == "ended(B#2, autoplay)")
    #expect(result.state.queue.description == "A B*")
    #expect(
      result.commands == ["load(A#1)", "start(A#1)", "stop(A#1)", "load(B#2)", "start(B#2)"])
  }

  @Test func repeatOneReplaysWithSeekAndStartInOneTransition() {
    let result = run([.queue(["A", "B"]), .user(.setRepeat(.one)), .ready(l1), .reachedEnd(l1)])
    #expect(result.state.description == "playing(A#1, seek#1)")
    #expect(result.commands == ["load(A#1)", "start(A#1)", "seek(A#1, 0ms, seek#1)", "start(A#1)"])
    // The engine's duplicated end, from before the replay seek: ignored.
    let duplicate = result.state.transition(on: .reachedEnd(l1))
    #expect(duplicate.ignored == .seekPending)
    let seeked = result.state.transition(on: .seekCompleted(l1, SeekID(1)))
    #expect(seeked.next.description == "playing(A#1)")
  }

  @Test func repeatAllWrapsAndASingleEntryReplays() {
    let wraps = run([
      .queue(["A", "B"]), .user(.setRepeat(.all)), .ready(l1), .reachedEnd(l1), .ready(l2),
      .reachedEnd(l2),
    ])
    #expect(wraps.state.description == "buffering(A#3, autoplay)")
    #expect(wraps.state.queue.description == "A* B")
    #expect(
      wraps.commands == [
        "load(A#1)", "start(A#1)", "stop(A#1)", "load(B#2)", "start(B#2)", "stop(B#2)", "load(A#3)",
      ])
    let single = run([.play("A"), .user(.setRepeat(.all)), .ready(l1), .reachedEnd(l1)])
    #expect(single.state.description == "playing(A#1, seek#1)")
    #expect(single.commands == ["load(A#1)", "start(A#1)", "seek(A#1, 0ms, seek#1)", "start(A#1)"])
  }

  @Test func gaplessPreloadStartsTheNextEntryWithoutANewLoad() {
    let result = run(
      [
        .queue(["A", "B", "C"]), .ready(l1), .ready(l2), .reachedEnd(l1), .ready(l3),
        .reachedEnd(l2), .reachedEnd(l3),
      ], from: preloadingPlayer)
    #expect(result.state.description == "ended(C#3, autoplay)")
    #expect(
      result.commands == [
        "load(A#1)", "start(A#1)", "preload(B#2)", "stop(A#1)", "start(B#2)", "preload(C#3)",
        "stop(B#2)", "start(C#3)",
      ])
  }

  @Test func aPreloadStillBufferingBecomesTheCurrentLoad() {
    let result = run(
      [.queue(["A", "B"]), .ready(l1), .reachedEnd(l1)], from: preloadingPlayer)
    #expect(result.state.description == "buffering(B#2, autoplay)")
    #expect(result.commands == ["load(A#1)", "start(A#1)", "preload(B#2)", "stop(A#1)"])
    let ready = result.state.transition(on: .ready(l2))
    #expect(printed(ready, from: result.state).commands == "start(B#2)")
  }

  @Test func aDroppedPreloadsLateReadyIsStale() {
    let result = run(
      [.queue(["A", "B", "C"]), .ready(l1), .user(.remove(at: 1))], from: preloadingPlayer)
    #expect(result.state.description == "playing(A#1, preloading C#3)")
    #expect(
      result.commands == ["load(A#1)", "start(A#1)", "preload(B#2)", "stop(B#2)", "preload(C#3)"])
    let late = result.state.transition(on: .ready(l2))
    #expect(late.ignored == .staleLoad)
    #expect(late.commands.isEmpty)
  }

  @Test func aFailedPreloadIsStoppedAndItsEntryLoadsPlainly() {
    let result = run(
      [.queue(["A", "B"]), .ready(l1), .failed(l2, .decoding), .reachedEnd(l1)],
      from: preloadingPlayer)
    #expect(result.state.description == "buffering(B#3, autoplay)")
    #expect(
      result.commands == [
        "load(A#1)", "start(A#1)", "preload(B#2)", "stop(B#2)", "stop(A#1)", "load(B#3)",
      ])
  }

  /// The race of issue 9: the app advanced on `ended` itself; with the queue in
  /// the machine, the user's new list wins and the old entry's late end is stale.
  @Test func aNewListDuringTheEndOfTheOldOneWins() {
    let result = run([
      .queue(["A", "B", "C", "D"], start: 3), .ready(Load(4, 1)), .queue(["E", "F"]),
      .reachedEnd(Load(4, 1)),
    ])
    #expect(result.state.description == "buffering(E#2, autoplay)")
    #expect(result.state.queue.description == "E* F")
    #expect(result.commands == ["load(D#1)", "start(D#1)", "stop(D#1)", "load(E#2)"])
  }

  @Test func previousRestartsPastTheThresholdAndGoesBackBeforeIt() {
    let b = Load(2, 1)
    let past = run([
      .queue(["A", "B"], start: 1), .ready(b), .position(b, .seconds(4)), .previous,
    ])
    #expect(past.state.description == "playing(B#1, seek#1)")
    #expect(past.commands.last == "seek(B#1, 0ms, seek#1)")
    let near = run([
      .queue(["A", "B"], start: 1), .ready(b), .position(b, .seconds(2)), .previous,
    ])
    #expect(near.state.description == "buffering(A#2, autoplay)")
    #expect(near.commands == ["load(B#1)", "start(B#1)", "stop(B#1)", "load(A#2)"])
    let first = run([.queue(["A", "B"]), .ready(l1), .previous])
    #expect(first.commands == ["load(A#1)", "start(A#1)", "seek(A#1, 0ms, seek#1)"])
  }

  @Test func nextAndPreviousWithTwoEntriesPickTheOther() {
    let result = run([.queue(["A", "B"]), .ready(l1), .next, .ready(l2), .previous])
    #expect(result.state.description == "buffering(A#3, autoplay)")
    #expect(
      result.commands == [
        "load(A#1)", "start(A#1)", "stop(A#1)", "load(B#2)", "start(B#2)", "stop(B#2)", "load(A#3)",
      ])
    let atEnd = result.state.transition(on: .next)
    #expect(atEnd.next.description == "buffering(B#4, autoplay)")
    let last = run([.queue(["A", "B"], start: 1), .next])
    #expect(last.state.transition(on: .next).ignored == .noEffect)
  }

  @Test func shuffleIsDrawnFromItsSeedAndReplays() {
    let events: [PlaybackEvent] = [
      .queue(["A", "B", "C", "D", "E"]), .user(.setShuffle(seed: 42)),
    ]
    let first = run(events)
    let second = run(events)
    // Checked against an independent SplitMix64 + Fisher–Yates (Python) over B C D E.
    #expect(first.state.queue.description == "A* D B E C")
    #expect(second.state.queue == first.state.queue)
    let off = first.state.transition(on: .user(.setShuffle(seed: nil)))
    #expect(off.next.queue.description == "A* B C D E")
    let other = run([.queue(["A", "B", "C", "D", "E"]), .user(.setShuffle(seed: 7))])
    #expect(other.state.queue.description == "A* C D B E")
  }

  @Test func editsWhileShuffledKeepBothOrders() {
    let result = run([
      .queue(["A", "B", "C"]), .user(.setShuffle(seed: 42)), .user(.append(["D"])),
      .user(.insert(["E"], at: 1)), .user(.move(from: 4, to: 2)),
    ])
    let shuffled = result.state.queue.description
    #expect(shuffled == "A* E D B C")
    #expect(result.state.queue.shuffle?.unshuffled.map(\.description) == ["A", "B", "C", "D", "E"])
    let off = result.state.transition(on: .user(.setShuffle(seed: nil)))
    #expect(off.next.queue.description == "A* B C D E")
  }

  @Test func aStartPositionAndARetryResumeWhereThePlayerWas() {
    let result = run([
      .play("A", from: .seconds(12)), .ready(l1), .position(l1, .seconds(20)),
      .failed(l1, .network), .retry,
    ])
    #expect(result.state.description == "buffering(A#2, autoplay)")
    #expect(
      result.commands == [
        "load(A#1, from 12000ms)", "start(A#1)", "stop(A#1)", "load(A#2, from 20000ms)",
      ])
  }

  @Test func theRateIsKeptAcrossEntriesAndSentWhilePlaying() {
    let result = run([
      .queue(["A", "B"]), .user(.setRate(PlaybackRate(thousandths: 1500))), .ready(l1),
      .reachedEnd(l1), .ready(l2), .user(.setRate(PlaybackRate(thousandths: 2000))), .pause,
      .user(.setRate(PlaybackRate.normal)), .resume,
    ])
    #expect(
      result.commands == [
        "load(A#1)", "start(A#1, 1.5x)", "stop(A#1)", "load(B#2)", "start(B#2, 1.5x)",
        "rate(B#2, 2x)", "pause(B#2)", "start(B#2)",
      ])
    let zero = result.state.transition(on: .user(.setRate(PlaybackRate(thousandths: 0))))
    #expect(zero.ignored == .invalidArgument)
  }

  @Test func positionReportsUpdateThePositionAndNothingElse() {
    let result = run([.queue(["A", "B"]), .ready(l1), .position(l1, .seconds(3))])
    #expect(result.state.session?.position == .seconds(3))
    #expect(result.commands == ["load(A#1)", "start(A#1)"])
    #expect(
      result.state.transition(on: .position(Load(1, 0), .seconds(1))).ignored == .neverIssuedLoad)
    let seeking = result.state.transition(on: .seek(to: .seconds(30))).next
    #expect(seeking.transition(on: .position(l1, .seconds(4))).ignored == .seekPending)
    let stopped = result.state.transition(on: .stop).next
    #expect(stopped.transition(on: .position(l1, .seconds(4))).ignored == .staleLoad)
  }

  @Test func removingTheCurrentEntryMovesOnStopsAtTheEndAndEmptiesTheQueue() {
    let buffering = run([.queue(["A", "B", "C"]), .user(.remove(at: 0))])
    #expect(buffering.state.description == "buffering(B#2, autoplay)")
    #expect(buffering.commands == ["load(A#1)", "stop(A#1)", "load(B#2)"])
    let last = run([.queue(["A", "B"], start: 1), .user(.remove(at: 1))])
    #expect(last.state.description == "idle")
    #expect(last.state.queue.description == "A*")
    #expect(last.commands == ["load(B#1)", "stop(B#1)"])
    let resumed = last.state.transition(on: .resume)
    #expect(printed(resumed, from: last.state).commands == "load(A#2)")
    let only = run([.play("A"), .user(.remove(at: 0))])
    #expect(only.state.queue.description == "none")
    #expect(only.state.description == "idle")
  }

  @Test func editsAroundTheCurrentEntryKeepItPlaying() {
    let result = run([
      .queue(["A", "B", "C"], start: 1), .ready(Load(2, 1)), .user(.insert(["D", "E"], at: 0)),
      .user(.move(from: 2, to: 4)), .user(.remove(at: 0)),
    ])
    #expect(result.state.description == "playing(B#1)")
    #expect(result.state.queue.description == "E B* C A")
    #expect(result.commands == ["load(B#1)", "start(B#1)"])
  }

  @Test func stopKeepsTheQueueAndNavigationWhileIdleOnlyMoves() {
    let result = run([.queue(["A", "B", "C"]), .ready(l1), .stop, .next, .user(.jump(to: 2))])
    #expect(result.state.description == "idle")
    #expect(result.state.queue.description == "A B C*")
    #expect(result.commands == ["load(A#1)", "start(A#1)", "stop(A#1)"])
    let resumed = result.state.transition(on: .resume)
    #expect(resumed.next.description == "buffering(C#2, autoplay)")
    let cleared = result.state.transition(on: .user(.clear))
    #expect(cleared.next.queue.description == "none")
    #expect(cleared.commands.isEmpty)
  }

  @Test func aNewQueueStopsTheCurrentLoadAndThePreload() {
    let result = run(
      [.queue(["A", "B"]), .ready(l1), .queue(["C"], playWhenReady: false), .ready(Load(3, 3))],
      from: preloadingPlayer)
    #expect(result.state.description == "paused(C#3)")
    #expect(
      result.commands == [
        "load(A#1)", "start(A#1)", "preload(B#2)", "stop(A#1)", "stop(B#2)", "load(C#3)",
      ]
    )
  }

  @Test func invalidPositionsAreIgnoredWithAReason() {
    let state = run([.queue(["A", "B"])]).state
    for intent: UserIntent in [
      .remove(at: 2), .move(from: 0, to: 2), .jump(to: -1), .insert(["C"], at: 3),
      .replaceQueue(["C"], start: 1, from: .zero, playWhenReady: true),
    ] {
      let transition = state.transition(on: .user(intent))
      #expect(transition.ignored == .invalidPosition, "\(intent)")
      #expect(transition.next == state)
    }
  }

  @Test func clearEmptiesTheQueueButKeepsRepeatAndShuffle() {
    let result = run([
      .queue(["A", "B"]), .user(.setRepeat(.all)), .user(.setShuffle(seed: 7)), .user(.clear),
    ])
    #expect(result.state.description == "idle")
    #expect(result.state.queue.description == "none")
    #expect(result.state.queue.repeatMode == .all)
    #expect(result.state.queue.shuffle?.seed == 7)
    #expect(result.commands == ["load(A#1)", "stop(A#1)"])
    // The next queue plays under the same settings: repeat all wraps.
    let c2 = Load(3, 2)
    let next = run([.queue(["C"]), .ready(c2), .reachedEnd(c2)], from: result.state)
    #expect(next.state.description == "playing(C#2, seek#1)")
    #expect(next.commands == ["load(C#2)", "start(C#2)", "seek(C#2, 0ms, seek#1)", "start(C#2)"])
  }

  @Test func repeatOneAtTheEndOfAStalledLoadReplaysFromReady() {
    let result = run([
      .play("A"), .user(.setRepeat(.one)), .ready(l1), .stalled(l1), .reachedEnd(l1),
    ])
    #expect(result.state.description == "playing(A#1, seek#1)")
    #expect(result.commands == ["load(A#1)", "start(A#1)", "seek(A#1, 0ms, seek#1)", "start(A#1)"])
    // The stall's watchdog (#2) is for a stage the load has left.
    let expiry = result.state.transition(on: .watchdogExpired(l1, WatchdogID(2)))
    #expect(expiry.ignored == .staleWatchdog)
  }

  @Test func theEndSetsThePositionToTheDurationSoPreviousRestarts() {
    let b1 = Load(2, 1)
    let ended = run([
      .queue(["A", "B"], start: 1), .ready(b1, duration: .seconds(10)), .reachedEnd(b1),
    ])
    #expect(ended.state.description == "ended(B#1, autoplay)")
    #expect(ended.state.session?.position == .seconds(10))
    let previous = ended.state.transition(on: .previous)
    #expect(printed(previous, from: ended.state).commands == "seek(B#1, 0ms, seek#1) start(B#1)")
    #expect(previous.next.description == "playing(B#1, seek#1)")
  }

  @Test func previousOnAFailedLoadGoesBackWhateverThePosition() {
    let b1 = Load(2, 1)
    let failed = run([
      .queue(["A", "B"], start: 1), .position(b1, .seconds(5)), .failed(b1, .decoding),
    ])
    #expect(failed.state.description == "failed(B#1, decoding, autoplay)")
    #expect(failed.state.session?.position == .seconds(5))
    let result = run([.previous], from: failed.state)
    #expect(result.state.description == "buffering(A#2, autoplay)")
    #expect(result.state.queue.description == "A* B")
    #expect(failed.commands == ["load(B#1)", "stop(B#1)"])
    #expect(result.commands == ["load(A#2)"])
  }

  @Test func theEndIsIgnoredWhenAdvancingNeedsATokenAndNoneIsLeft() {
    let start = PlaybackState(
      queue: PlayQueue(), session: nil, playWhenReady: true, issuedLoads: UInt32.max - 1,
      issuedItems: 0)
    let last = Load(1, UInt32.max)
    let result = run([.queue(["A", "B"]), .ready(last)], from: start)
    #expect(result.state.description == "playing(A#4294967295)")
    let end = result.state.transition(on: .reachedEnd(last))
    #expect(end.ignored == .idsExhausted)
    #expect(end.next == result.state)
    #expect(end.commands.isEmpty)
  }
}
