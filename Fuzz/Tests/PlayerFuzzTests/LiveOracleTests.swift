import PlayerEngine
import PlayerFuzz
import PlayerState
import Testing

/// Issue 38 (live and DVR streams) in the harness: the oracle's own live rules with literal
/// logs, written from docs/machine.md's "Live and DVR streams", the replay spellings, the
/// catalog's live bugs, and Playhead's player on hand-made cases.
@Suite struct LiveOracleTests {
  static let a = Load(1, 1)
  static let a2 = Load(1, 2)

  static func run(
    _ events: [PlaybackEvent], canPreload: Bool = false, retry: RetryPolicy = .off
  ) -> (model: ContractModel, log: [String], reasons: [IgnoreReason?]) {
    var model = ContractModel(canPreload: canPreload, retry: retry)
    var commands: [EngineCommand] = []
    var reasons: [IgnoreReason?] = []
    for event in events { reasons.append(model.process(event, commands: &commands)) }
    return (model, commands.map(model.describe), reasons)
  }

  static func window(_ start: Int64, _ end: Int64) -> LiveWindow {
    LiveWindow(start: .milliseconds(start), end: .milliseconds(end))
  }

  /// `play(A)`, ready, a DVR window 60 s to 120 s: at the edge, 120 s.
  static let dvr: [PlaybackEvent] = [.play("A"), .ready(a), .window(a, window(60_000, 120_000))]

  /// ``dvr``, then a seek back to 90 s, completed.
  static let behind = dvr + [.seek(to: .seconds(90)), .seekCompleted(a, SeekID(1))]

  // MARK: The model, from the spec

  /// The first window moves a position below its start to the edge and drops the duration; a
  /// bad window is the engine's bug and changes nothing.
  @Test func theFirstWindowMovesToTheEdgeAndABadOneChangesNothing() {
    let (model, log, reasons) = Self.run(
      [
        .play("A"), .ready(Self.a, duration: .seconds(500)),
        .window(Self.a, Self.window(60_000, 120_000)),
        .window(Self.a, Self.window(9_000, 1_000)), .window(Self.a, Self.window(-1_000, 1_000)),
      ])
    #expect(log == ["load(A#1)", "start(A#1)"])
    #expect(reasons == [nil, nil, nil, .invalidArgument, .invalidArgument])
    #expect(model.current?.position == 120_000)
    #expect(model.current?.duration == nil)
    #expect(model.current?.window == Self.window(60_000, 120_000))
    #expect(
      model.nowPlaying(anchor: 120_000)?.description
        == "A 1/1 at 120000ms rate 1000 live 60000ms…120000ms")
    // A window the position is inside keeps it; a window while ended is unexpected.
    let kept = Self.run([
      .play("A", from: .seconds(90)), .window(Self.a, Self.window(60_000, 120_000)),
    ])
    #expect(kept.model.current?.position == 90_000)
  }

  /// A paused load the window slid past reloads at the edge once, paused; the old load's
  /// late window and position are stale; its own first window moves it to its edge.
  @Test func aPausedLoadThatFellBehindReloadsAtTheEdgeOnce() {
    let (model, log, reasons) = Self.run(
      Self.behind + [
        .pause, .window(Self.a, Self.window(70_000, 130_000)),
        .window(Self.a, Self.window(100_000, 160_000)),
        .window(Self.a, Self.window(100_000, 160_000)), .position(Self.a, .seconds(95)),
        .ready(Self.a2), .window(Self.a2, Self.window(110_000, 170_000)), .resume,
      ])
    #expect(
      log == [
        "load(A#1)", "start(A#1)", "seek(A#1, 90000ms, seek#1)", "pause(A#1)", "stop(A#1)",
        "load(A#2, at live edge)", "start(A#2)",
      ])
    #expect(Array(reasons.suffix(6)) == [nil, .staleLoad, .staleLoad, nil, nil, nil])
    #expect(model.current?.position == 170_000)
  }

  /// The engine's `failed(behindLiveWindow)` of a load that played reloads at the edge; of a
  /// buffering load it fails as any failure.
  @Test func theEnginesBehindLiveWindowReloadsOnlyALoadThatPlayed() {
    let ready = Self.run([.play("A"), .ready(Self.a), .failed(Self.a, .behindLiveWindow)])
    #expect(ready.log == ["load(A#1)", "start(A#1)", "stop(A#1)", "load(A#2, at live edge)"])
    let buffering = Self.run([.play("A"), .failed(Self.a, .behindLiveWindow)])
    #expect(buffering.log == ["load(A#1)", "stop(A#1)"])
    #expect(buffering.model.kind == .failed)
  }

  /// Seeks stay in a DVR window; without DVR every seek, skip, setPosition, jump and
  /// goToLive is refused, and neither seek nor skip is offered.
  @Test func seeksStayInTheWindowAndWithoutDVRGoNowhere() {
    let dvr = Self.run(
      Self.dvr + [
        .seek(to: .seconds(500)), .seekCompleted(Self.a, SeekID(1)), .seek(to: .seconds(1)),
        .user(.setPosition(ItemID(1), .seconds(30))), .user(.setPosition(ItemID(1), .seconds(70))),
      ])
    #expect(
      Array(dvr.log.suffix(3)) == [
        "seek(A#1, 120000ms, seek#1)", "seek(A#1, 60000ms, seek#2)", "seek(A#1, 70000ms, seek#3)",
      ])
    #expect(Array(dvr.reasons.suffix(2)) == [.invalidArgument, nil])
    let still = Self.run(
      [.play("A"), .ready(Self.a), .window(Self.a, Self.window(120_000, 120_000))]
        + [
          .seek(to: .seconds(1)), .skip(by: .seconds(15)), .user(.setPosition(ItemID(1), .zero)),
          .user(.jump(to: 0)), .goToLive,
        ])
    #expect(Array(still.reasons.suffix(5)) == Array(repeating: .notSeekable, count: 5))
    #expect(still.model.availableCommands.description == "pause stop toggle")
    #expect(Self.run(Self.dvr).model.availableCommands.description == "pause seek skip stop toggle")
  }

  /// goToLive: a seek to the edge, the intent kept; at the edge, idle or on demand refused.
  @Test func goToLiveSeeksToTheEdge() {
    let paused = Self.run(Self.behind + [.pause, .goToLive])
    #expect(paused.log.last == "seek(A#1, 120000ms, seek#2)")
    #expect(paused.model.playWhenReady == false)
    #expect(Self.run(Self.dvr + [.goToLive]).reasons.last == .noEffect)
    #expect(Self.run([.goToLive]).reasons.last == .noEffect)
    #expect(Self.run([.play("A"), .ready(Self.a), .goToLive]).reasons.last == .notLive)
  }

  /// The engine plays a live load at 1x at its edge: setRate when the rate it is told changes,
  /// once; a rate at or below 1x is never changed.
  @Test func theEngineIsNeverFasterThanRealTimeAtTheEdge() {
    let (_, log, _) = Self.run(
      Self.behind + [
        .user(.setRate(PlaybackRate(thousandths: 1500))), .position(Self.a, .seconds(120)),
        .position(Self.a, .seconds(121)), .window(Self.a, Self.window(65_000, 125_000)),
        .position(Self.a, .seconds(123)), .goToLive,
        .user(.setRate(PlaybackRate(thousandths: 2000))),
        .user(.setRate(.normal)),
      ])
    // The edge is kept while the window moves on: no 1.5x at the next report.
    #expect(
      Array(log.suffix(3)) == ["rate(A#1, 1.5x)", "rate(A#1, 1x)", "seek(A#1, 125000ms, seek#2)"])
    // The first window at the edge at 2x: the engine is told 1x in that step.
    let first = Self.run(
      [
        .play("A"), .user(.setRate(PlaybackRate(thousandths: 2000))), .ready(Self.a),
        .window(Self.a, Self.window(120_000, 120_000)),
      ])
    #expect(first.log == ["load(A#1)", "start(A#1, 2x)", "rate(A#1, 1x)"])
  }

  /// previous on a live load goes back an entry, never to the window's start; a live end is
  /// never replayed and resume reloads at the edge.
  @Test func previousAndTheEndOfABroadcast() {
    let previous = Self.run(
      [
        .queue(["A", "L"], start: 1), .ready(Load(2, 1)),
        .window(Load(2, 1), Self.window(60_000, 120_000)), .previous,
      ])
    #expect(Array(previous.log.suffix(2)) == ["stop(L#1)", "load(A#2)"])
    #expect(Self.run(Self.dvr + [.previous]).reasons.last == .noEffect)
    let ended = Self.run(
      Self.dvr + [.user(.setRepeat(.one)), .reachedEnd(Self.a), .resume, .ready(Self.a2)])
    #expect(
      Array(ended.log.suffix(3)) == ["stop(A#1)", "load(A#2, at live edge)", "start(A#2)"])
  }

  /// Nothing is preloaded beside a live load, and a preload's window stops it: its entry loads
  /// plainly at its turn.
  @Test func nothingIsPreloadedBesideALiveLoad() {
    let (model, log, _) = Self.run(
      [
        .queue(["A", "L", "B"]), .ready(Load(1, 1)), .ready(Load(2, 2)),
        .window(Load(2, 2), Self.window(60_000, 120_000)), .reachedEnd(Load(1, 1)),
        .ready(Load(2, 3)), .window(Load(2, 3), Self.window(60_000, 120_000)),
      ], canPreload: true)
    #expect(
      log == [
        "load(A#1)", "start(A#1)", "preload(L#2)", "stop(L#2)", "stop(A#1)", "load(L#3)",
        "start(L#3)", "preload(B#4)", "stop(B#4)",
      ])
    #expect(model.preload == nil)
  }

  /// The network's reload and a hand retry of a live load reload at the edge; a load that
  /// never reported a window retries from its position.
  @Test func retriesOfALiveLoadReloadAtTheEdge() {
    let (_, log, _) = Self.run(
      Self.behind + [
        .failed(Self.a, .network), .system(.networkAvailable), .failed(Self.a2, .decoding),
        .retry, .failed(Load(1, 3), .decoding), .retry,
      ], retry: .standard)
    #expect(
      Array(log.suffix(6)) == [
        "stop(A#1)", "load(A#2, at live edge)", "stop(A#2)", "load(A#3)", "stop(A#3)", "load(A#4)",
      ])
    let hand = Self.run(Self.dvr + [.failed(Self.a, .decoding), .retry])
    #expect(hand.log.last == "load(A#2, at live edge)")
  }

  /// A stop-at-end sleep timer is refused on a live load; a countdown is not. The snapshot
  /// keeps a DVR offset from the edge only while the window holds the position, and none
  /// without DVR.
  @Test func theSleepTimerAndTheSnapshot() {
    let model = Self.run(Self.behind).model
    #expect(model.ignoreReason(for: .setSleepTimer(.endOfEntry)) == .liveStream)
    #expect(model.ignoreReason(for: .setSleepTimer(.afterEntries(2))) == .liveStream)
    #expect(model.ignoreReason(for: .setSleepTimer(.after(.seconds(60)))) == nil)
    // Behind the edge by 30 s: the offset, not the position (its timeline ends with the load).
    #expect(model.snapshot.position == .zero)
    #expect(model.snapshot.liveOffset == .seconds(30))
    let still = Self.run([.play("A"), .window(Self.a, Self.window(120_000, 120_000))]).model
    #expect(still.snapshot.position == .zero)
  }

  // MARK: Spellings

  /// A window, goToLive and behindLiveWindow print and read back.
  @Test func liveEventsReadBack() throws {
    let text =
      "engine preload=no\nplay(A)\nwindow(A#1, 60000ms…120000ms)\nwindow(A#1, 0ms...10ms)\ngoToLive\nfailed(A#1, behindLiveWindow)"
    let fuzzCase = try FailureFile.parseCase(text)
    #expect(
      fuzzCase.actions == [
        .send(.play("A")), .send(.window(Self.a, Self.window(60_000, 120_000))),
        .send(.window(Self.a, Self.window(0, 10))), .send(.goToLive),
        .send(.failed(Self.a, .behindLiveWindow)),
      ])
    #expect(throws: FuzzParseError.self) { try FailureFile.parseCase("window(A#1, 60000ms)") }
  }

  // MARK: The catalog and Playhead's player

  /// Each live bug and the property that catches it.
  static let bugs: [(bug: BuggyPlayer.Bug, property: FuzzProperty)] = [
    (.seekPastLiveEdge, .seekInsideLiveWindow),
    (.restoreIntoVanishedPosition, .snapshotMatchesContract),
    (.reloadAtOldPositionAfterFallingBehind, .fellBehindReloadsAtEdgeOnce),
    (.progressShownForLive, .nowPlayingMatchesContract),
  ]

  @Test(arguments: bugs.indices)
  func eachLiveBugIsCaughtByItsProperty(_ index: Int) throws {
    let (bug, property) = Self.bugs[index]
    _ = try CatalogBugChecks.caughtOnSeedOne(bug, by: property)
  }

  /// Each bug's minimal case, written out, breaks its property at its last step, and
  /// Playhead's player passes it.
  @Test(arguments: [
    (
      "play(A)\nwindow(A#1, 60000ms…120000ms)\nseek(0ms)", BuggyPlayer.Bug.seekPastLiveEdge
    ),
    ("play(A)\nwindow(A#1, 120000ms…120000ms)\nsnapshot", .restoreIntoVanishedPosition),
    ("play(A)\nready(A#1)\nfailed(A#1, behindLiveWindow)", .reloadAtOldPositionAfterFallingBehind),
    ("play(A)\nwindow(A#1, 120000ms…120000ms)", .progressShownForLive),
  ])
  func eachMinimalCaseBreaksOnlyTheBuggyPlayer(_ text: String, _ bug: BuggyPlayer.Bug) throws {
    let property = try #require(Self.bugs.first { $0.bug == bug }?.property)
    try CatalogBugChecks.minimalCaseBreaksOnly(bug, by: property, "engine preload=no\n" + text)
  }

  /// Hand-made cases through the live rules, on Playhead's player: every step agrees with the
  /// contract.
  @Test(arguments: [
    "engine preload=no\nplay(A)\nready(A#1)\nwindow(A#1, 60000ms…120000ms)\nseek(90000ms)\nseeked(A#1, seek#1)\npause\nwindow(A#1, 100000ms…160000ms)\nwindow(A#1, 100000ms…160000ms)\nready(A#2)\nresume",
    "engine preload=no\nplay(A)\nready(A#1)\nwindow(A#1, 120000ms…120000ms)\nseek(0ms)\nskip(15000ms)\ngoToLive\nprevious",
    "engine preload=yes\nqueue(A B C)\nready(A#1)\nready(B#2)\nwindow(B#2, 60000ms…120000ms)\nended(A#1)\nready(B#3)\nwindow(B#3, 60000ms…120000ms)\nrepeat(one)\nended(B#3)\nresume",
    "engine preload=no retry=3/1000ms/30000ms\nplay(A)\nready(A#1)\nwindow(A#1, 60000ms…120000ms)\nfailed(A#1, network)\nnetwork available\nfailed(A#2, decoding)\nretry",
  ])
  func playheadsPlayerFollowsTheLiveRules(_ text: String) throws {
    let fuzzCase = try FailureFile.parseCase(text)
    let failure = Fuzzer.check(.player, fuzzCase)
    #expect(failure == nil, "\(failure?.report ?? "")")
  }

  /// Found by this feature (seed 1 of every feature), fixed in the reducer: a load that
  /// plays faster than 1x and reports its first window at its edge is sent `setRate(L, 1x)`
  /// in that step (docs/machine.md, "The rate at the edge").
  @Test func playheadsPlayerOnTheFirstWindowAtAFasterRate() throws {
    let fuzzCase = try FailureFile.parseCase(
      "engine preload=no\nplay(A)\nrate(2x)\nready(A#1)\nwindow(A#1, 120000ms…120000ms)")
    let failure = Fuzzer.check(.player, fuzzCase)
    #expect(failure == nil, "\(failure?.report ?? "")")
  }

  /// The spec changes after the feature was first written, each on Playhead's player:
  /// the edge is kept while the window moves on (no setRate at each report), a window alone
  /// does not reload a DVR load that plays, and a relaunch resumes as far behind the edge.
  @Test(arguments: [
    "engine preload=no\nplay(A)\nrate(2x)\nready(A#1)\nwindow(A#1, 60000ms…120000ms)\nwindow(A#1, 70000ms…130000ms)\nposition(A#1, 125000ms)\npause\nresume",
    "engine preload=no\nplay(A)\nready(A#1)\nwindow(A#1, 60000ms…120000ms)\nwindow(A#1, 130000ms…190000ms)\npause\nwindow(A#1, 140000ms…200000ms)",
  ])
  func playheadsPlayerFollowsTheLaterLiveRules(_ text: String) throws {
    let fuzzCase = try FailureFile.parseCase(text)
    let failure = Fuzzer.check(.player, fuzzCase)
    #expect(failure == nil, "\(failure?.report ?? "")")
  }
}
