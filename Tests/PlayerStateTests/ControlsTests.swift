import PlayerState
import Testing

private let b2 = Load(2, 2)  // a1 is the shared fixture (TransitionTests)

/// The notifications of each event of a run, from a new player, as text.
/// The notifications of each step of `events`, from a new player.
private func notified(_ events: [PlaybackEvent]) -> [String] {
  notified(events, from: PlaybackState())
}

/// Issue 22: the remote-control intents, now playing, the available commands
/// and the notifications — each public bug class of the issue, with literal values.
@Suite("Remote controls: toggle, skip, now playing, available commands, notifications")
struct ControlsTests {
  // MARK: toggle (Media3's play/pause rule, decided by the machine)

  /// gumroad-mobile PR #189, pithos #213: a buffering player is paused by a
  /// tap, never started a second time.
  @Test func toggleWhileBufferingPauses() {
    let result = run([.play("A"), .toggle, .ready(a1)])
    #expect(result.state.description == "paused(A#1)")
    #expect(result.state.playWhenReady == false)
    #expect(result.commands == ["load(A#1)"])
  }

  @Test func toggleFlipsBetweenPlayingAndPaused() {
    let result = run([.play("A"), .ready(a1), .toggle, .toggle])
    #expect(result.state.description == "playing(A#1)")
    #expect(result.commands == ["load(A#1)", "start(A#1)", "pause(A#1)", "start(A#1)"])
  }

  @Test func toggleWhenEndedReplaysFromTheStart() {
    let result = run([.play("A"), .ready(a1), .reachedEnd(a1), .toggle])
    #expect(result.state.description == "playing(A#1, seek#1)")
    #expect(result.commands == ["load(A#1)", "start(A#1)", "seek(A#1, 0ms, seek#1)", "start(A#1)"])
  }

  @Test func toggleWhenIdleLoadsTheCurrentEntry() {
    let result = run([.play("A"), .stop, .toggle])
    #expect(result.state.description == "buffering(A#2, autoplay)")
    #expect(result.commands == ["load(A#1)", "stop(A#1)", "load(A#2)"])
  }

  @Test func toggleOfAFailedLoadRetriesWithTheIntentToPlay() {
    let result = run([.play("A"), .pause, .failed(a1, .decoding), .toggle])
    #expect(result.state.description == "buffering(A#2, autoplay)")
    #expect(result.state.playWhenReady == true)
    #expect(result.commands == ["load(A#1)", "stop(A#1)", "load(A#2)"])
  }

  @Test func toggleDuringAnInterruptionWithTheIntentToPlayDoesNothing() {
    var state = PlaybackState()
    for event in [PlaybackEvent.play("A"), .ready(a1), .system(.interruptionBegan)] {
      state = state.transition(on: event).next
    }
    #expect(state.transition(on: .toggle).ignored == .noEffect)
    #expect(!state.availableCommands.contains(.toggle))
    #expect(state.availableCommands.contains(.pause))
  }

  @Test func toggleClearsASystemPause() {
    let result = run([.play("A"), .ready(a1), .engine(.pausedBySystem(a1)), .toggle])
    #expect(result.state.description == "playing(A#1)")
    #expect(result.commands == ["load(A#1)", "start(A#1)", "start(A#1)"])
  }

  // MARK: skip (relative to the machine's own target)

  /// feishin #2083, plezy #1819; Pillarbox's testMultipleSkipsForOnDemand:
  /// three presses before any completion land at p + 3Δ.
  @Test func skipsPileUpFromThePendingTarget() {
    let result = run([
      .play("A"), .ready(a1, duration: .seconds(300)), .position(a1, .seconds(10)),
      .skip(by: .seconds(15)), .skip(by: .seconds(15)), .skip(by: .seconds(15)),
      .seekCompleted(a1, SeekID(1)),
    ])
    #expect(
      result.commands == [
        "load(A#1)", "start(A#1)", "seek(A#1, 25000ms, seek#1)", "seek(A#1, 40000ms, seek#2)",
        "seek(A#1, 55000ms, seek#3)",
      ])
    #expect(result.state.session?.position == .seconds(55))
    #expect(result.state.session?.seekPending == true)
  }

  @Test func skipClampsToZeroAndToTheDuration() {
    let back = run([.play("A"), .ready(a1, duration: .seconds(30)), .skip(by: .seconds(-10))])
    #expect(back.commands.last == "seek(A#1, 0ms, seek#1)")
    let forward = run([.play("A"), .ready(a1, duration: .seconds(30)), .skip(by: .seconds(45))])
    #expect(forward.commands.last == "seek(A#1, 30000ms, seek#1)")
    let unknown = run([.play("A"), .ready(a1), .skip(by: .seconds(45))])
    #expect(unknown.commands.last == "seek(A#1, 45000ms, seek#1)")
    let huge = run([.play("A"), .ready(a1), .skip(by: .milliseconds(.max))])
    #expect(huge.commands.last == "seek(A#1, 9223372036854775807ms, seek#1)")
  }

  @Test func skipWithoutALiveLoadIsIgnored() {
    #expect(PlaybackState().transition(on: .skip(by: .seconds(15))).ignored == .noEffect)
    let failed = run([.play("A"), .failed(a1, .decoding)]).state
    #expect(failed.transition(on: .skip(by: .seconds(15))).ignored == .noEffect)
  }

  // MARK: setPosition (MPRIS: identity again)

  @Test func setPositionOfAnEntryThatIsNoLongerCurrentIsIgnored() {
    let state = run([.queue(["A", "B"]), .ready(a1, duration: .seconds(30)), .next]).state
    let stale = state.transition(on: .remote(.setPosition(ItemID(1), .seconds(5))))
    #expect(stale.ignored == .notCurrentEntry)
    #expect(stale.next == state)
    let current = state.transition(on: .remote(.setPosition(ItemID(2), .seconds(5))))
    #expect(current.ignored == nil)
    #expect(current.commands.description(naming: naming(state)) == "seek(B#2, 5000ms, seek#1)")
  }

  @Test func setPositionPastTheDurationIsIgnored() {
    let state = run([.play("A"), .ready(a1, duration: .seconds(30))]).state
    #expect(
      state.transition(on: .user(.setPosition(ItemID(1), .seconds(31)))).ignored == .invalidArgument
    )
    #expect(state.transition(on: .user(.setPosition(ItemID(1), .seconds(30)))).ignored == nil)
  }

  // MARK: Now playing

  /// RNTP #1426, StreamingKit #381, music-assistant #494: next while loading
  /// publishes rate 0 and the new entry's 0 elapsed, never a running clock.
  @Test func nextWhileLoadingPublishesRateZero() {
    var state = run([
      .queue(["A", "B"]), .ready(a1, duration: .seconds(30)), .position(a1, .seconds(12)),
    ]).state
    #expect(
      state.nowPlaying
        == NowPlaying(
          entry: QueueEntry(item: ItemID(1), media: "A"), elapsed: .zero, rate: .normal,
          duration: .seconds(30), index: 0, count: 2))
    state = state.transition(on: .next).next
    #expect(state.nowPlaying?.description == "B 2/2 at 0ms 0x")
    state = state.transition(on: .ready(b2, duration: .seconds(20))).next
    #expect(state.nowPlaying?.description == "B 2/2 at 0ms 1x of 20000ms")
  }

  /// The anchor moves at discontinuities only: a pause, a seek when issued, a
  /// start; never at a position report.
  @Test func theElapsedAnchorMovesAtDiscontinuitiesOnly() {
    var state = run([.play("A"), .ready(a1, duration: .seconds(60))]).state
    var anchors: [String] = []
    let events: [PlaybackEvent] = [
      .position(a1, .seconds(5)), .position(a1, .seconds(6)), .pause, .position(a1, .seconds(7)),
      .seek(to: .seconds(20)), .resume, .seekCompleted(a1, SeekID(1)), .position(a1, .seconds(21)),
      .stalled(a1), .resumed(a1), .user(.setRate(PlaybackRate(thousandths: 1500))),
    ]
    for event in events {
      state = state.transition(on: event).next
      anchors.append(state.nowPlaying.map { "\($0.elapsed.milliseconds)@\($0.rate)" } ?? "-")
    }
    #expect(
      anchors == [
        "0@1x", "0@1x", "6000@0x", "6000@0x", "20000@0x", "20000@1x", "20000@1x", "20000@1x",
        "21000@0x", "21000@1x", "21000@1.5x",
      ])
  }

  @Test func nothingIsPlayingWithoutACurrentEntry() {
    #expect(PlaybackState().nowPlaying == nil)
    #expect(run([.play("A"), .user(.clear)]).state.nowPlaying == nil)
  }

  // MARK: Available commands

  /// RNTP #508: previous on the first song; Media3 #1708: next only with a next item.
  @Test func availableCommandsFollowTheRules() {
    #expect(PlaybackState().availableCommands.description == "")
    let first = run([.queue(["A", "B"]), .ready(a1)]).state
    #expect(first.availableCommands.description == "next pause previous seek skip stop toggle")
    let last = first.transition(on: .next).next
    #expect(last.availableCommands.description == "pause previous seek skip stop toggle")
    let paused = run([.play("A"), .ready(a1), .pause]).state
    #expect(paused.availableCommands.description == "play previous seek skip stop toggle")
    let idle = run([.play("A"), .stop]).state
    #expect(idle.availableCommands.description == "play toggle")
  }

  @Test func aCommandIsAvailableExactlyWhenTheReducerTakesIt() {
    for state in TransitionTable.representativeStates {
      let available = state.availableCommands
      for (command, _, intent) in AvailableCommands.all {
        let ignored = state.transition(on: .user(intent)).ignored
        let taken = ignored != .noEffect && ignored != .invalidPosition && ignored != .notSeekable
        #expect(available.contains(command) == taken, "\(command) in \(state)")
      }
    }
  }

  /// The O(1) reading agrees with the eight reductions that define it on
  /// every state the transition table reaches in two steps (2,500 and more,
  /// with ids exhausted too) and on a long random walk.
  @Test func theDirectReadingEqualsTheReductions() {
    var states = TransitionTable.representativeStates
    for state in TransitionTable.representativeStates {
      var exhausted = state
      exhausted.issuedLoads = .max
      states.append(exhausted)
    }
    var frontier = states
    for _ in 0..<2 {
      var next: [PlaybackState] = []
      for state in frontier {
        for event in TransitionTable.probeEvents(for: state) {
          let after = state.transition(on: event)
          if after.ignored == nil { next.append(after.next) }
        }
      }
      states += next
      frontier = next
    }
    #expect(states.count > 2_500)
    var differing = 0
    for state in states where state.availableCommands != state.availableCommandsByReduction {
      differing += 1
      Issue.record("\(state): \(state.availableCommands) != \(state.availableCommandsByReduction)")
      if differing > 5 { break }
    }
    var random = SplitMix64(seed: 21)
    var state = PlaybackState(configuration: PlayerConfiguration(canPreload: true))
    for _ in 0..<20_000 {
      let events = TransitionTable.probeEvents(for: state)
      state = state.transition(on: events[Int(random.next() % UInt64(events.count))]).next
      #expect(state.availableCommands == state.availableCommandsByReduction, "\(state)")
    }
  }

  // MARK: Notifications

  /// RNTP #2060: queue ended once, at the end of the last entry, never at its start.
  @Test func queueEndedOnceAtTheEndOfTheLastEntry() {
    let notes = notified([
      .queue(["A", "B"]), .ready(a1), .reachedEnd(a1), .ready(b2), .reachedEnd(b2),
      .reachedEnd(b2), .stop,
    ])
    #expect(
      notes == [
        "entryChanged(none -> A, queue) [user]", "entryChanged(A -> B, auto) [engine]",
        "queueEnded [engine]",
      ])
  }

  /// androidx/media #68 (the same media twice is two entries), #3248 (no
  /// change on a seek inside one), RNTP #2409 (changed once, not twice).
  @Test func entryChangedOncePerChangeKeyedOnTheEntry() {
    let notes = notified([
      .queue(["A", "A"]), .ready(a1), .seek(to: .seconds(5)), .next, .previous,
      .user(.setRepeat(.one)), .ready(Load(1, 3)), .reachedEnd(Load(1, 3)),
    ])
    #expect(
      notes == [
        "entryChanged(none -> A, queue) [user]", "entryChanged(A -> A, skip) [user]",
        "entryChanged(A -> A, skip) [user]", "entryChanged(A -> A, repeat) [engine]",
      ])
  }

  @Test func aPreviousThatRestartsIsNotAnEntryChange() {
    let notes = notified([.queue(["A", "B"]), .ready(a1), .position(a1, .seconds(10)), .previous])
    #expect(notes == ["entryChanged(none -> A, queue) [user]"])
  }

  @Test func removedAndClearedEntries() {
    let notes = notified([
      .queue(["A", "B", "C"]), .ready(a1), .user(.remove(at: 0)), .user(.clear),
    ])
    #expect(
      notes == [
        "entryChanged(none -> A, queue) [user]", "entryChanged(A -> B, removed) [user]",
        "entryChanged(B -> none, queue) [user]",
      ])
  }

  @Test func playIntentChangesWithTheirReasons() {
    let notes = notified([
      .play("A"), .ready(a1), .remote(.toggle), .toggle, .system(.routeLost),
      .resume, .system(.interruptionBegan), .system(.interruptionEnded(shouldResume: false)),
      .pause,
    ])
    #expect(
      notes == [
        "entryChanged(none -> A, queue) [user]", "playIntent(false, remote) [remote]",
        "playIntent(true, user) [user]", "playIntent(false, routeLost) [system]",
        "playIntent(true, user) [user]", "playIntent(false, interruption) [system]",
      ])
  }

  @Test func ignoredEventsNotifyNothing() {
    let state = run([.play("A"), .ready(a1)]).state
    let late = state.transition(on: .reachedEnd(Load(1, 9)))
    #expect(late.ignored == .neverIssuedLoad)
    let notes = Notifications(
      before: state, event: .reachedEnd(Load(1, 9)), after: late.next, ignored: late.ignored)
    #expect(notes.isEmpty)
    #expect(Array(notes).isEmpty)
  }

  @Test func aRemoteIntentFollowsTheUserRules() {
    let user = run([.play("A"), .ready(a1), .pause, .seek(to: .seconds(3))])
    let remote = run([.play("A"), .ready(a1), .remote(.pause), .remote(.seek(to: .seconds(3)))])
    #expect(remote.commands == user.commands)
    #expect(remote.state == user.state)
    #expect(PlaybackEvent.remote(.toggle).description == "remote(toggle)")
    #expect(PlaybackEvent.remote(.toggle).source == .remote)
    #expect(PlaybackEvent.skip(by: .seconds(-10)).description == "skip(-10000ms)")
  }
}
