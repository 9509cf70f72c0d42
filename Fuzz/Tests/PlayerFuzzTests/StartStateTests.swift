import PlayerEngine
import PlayerFuzz
import PlayerState
import Testing

/// Issue 21, item 2: cases start from generated valid states, ids within a
/// few of exhaustion for every kind, so the `idsExhausted` rules are fuzzed.
@Suite struct StartStateTests {
  static let last = UInt32.max

  /// The start states of seed 17's first 2,000 cases for Playhead's `Player`.
  static let drawn: [PlaybackState] = {
    let configuration = FuzzConfiguration(seed: 17)
    return (0..<2_000).compactMap { index in
      let seed = SplitMix64.caseSeed(run: 17, case: index)
      return Fuzzer.replayFuzzCase(.player, caseSeed: seed, configuration).0.start
    }
  }()

  @Test func aQuarterOfTheCasesStartFromAValidStateNearEachKindOfExhaustion() throws {
    let states = Self.drawn
    #expect((400...600).contains(states.count), "\(states.count) of 2,000")
    for state in states { #expect(state.invariantViolation == nil) }
    // Every kind of id comes within three of its last, and to its last.
    let kinds: [(String, (PlaybackState) -> UInt32?)] = [
      ("tokens", { $0.issuedLoads }), ("items", { $0.issuedItems }),
      ("seeks", { $0.session?.lastSeek.rawValue }),
      ("watchdogs", { $0.session?.lastWatchdog.rawValue }),
    ]
    for (kind, id) in kinds {
      let near = states.compactMap(id).filter { $0 > Self.last - 4 }
      #expect(near.count > 20, "\(kind) near exhaustion: \(near.count)")
      #expect(near.contains(Self.last), "\(kind) never at the last id")
    }
    // Every stage, a preload, an interruption, a system pause and a pending seek.
    let stages = Set(states.map { $0.kind })
    #expect(
      stages.isSuperset(of: [.idle, .buffering, .playing, .paused, .stalled, .ended, .failed]))
    #expect(stages.contains(.waiting))
    #expect(states.contains { $0.preload != nil })
    #expect(states.contains { $0.interrupted })
    #expect(states.contains { $0.suppression == .systemPause })
    #expect(states.contains { $0.session?.seekPending == true })
  }

  @Test func aStartStateIsSpelledOnTheEngineLineAndReadBack() throws {
    for state in Self.drawn.prefix(300) {
      let fuzzCase = FuzzCase([.send(.next)], canPreload: state.preload != nil, start: state)
      let read = try FailureFile.parseCase(fuzzCase.text)
      #expect(read.start == state, "\(fuzzCase.header)")
      #expect(read.text == fuzzCase.text)
    }
  }

  @Test(arguments: [
    // A skip that needs a token after the last.
    (
      "engine preload=no start(loads=4294967295 items=2 queue=A:1*,B:2 session=4294967295:ready watchdog=1)\nnext",
      IgnoreReason.idsExhausted
    ),
    // The preload is promoted without a token: the advance goes through.
    (
      "engine preload=yes start(loads=4294967295 items=2 queue=A:1*,B:2 session=4294967294:ready watchdog=1 preload=2#4294967295:ready)\nnext",
      nil
    ),
    // An entry that needs an item id after the last.
    (
      "engine preload=no start(loads=0 items=4294967295 queue=A:4294967295*)\nappend(B)",
      .idsExhausted
    ),
    // A seek that needs a seek id after the last.
    (
      "engine preload=no start(loads=1 items=1 queue=A:1* session=1:ready seek=4294967295 watchdog=1)\nseek(0ms)",
      .idsExhausted
    ),
    // A stall that needs a watchdog id after the last.
    (
      "engine preload=no start(loads=1 items=1 queue=A:1* session=1:ready watchdog=4294967295)\nstalled(A#1)",
      .idsExhausted
    ),
    // A network failure whose backoff needs a watchdog id after the last.
    (
      "engine preload=no start(loads=1 items=1 queue=A:1* session=1:buffering watchdog=4294967295)\nfailed(A#1, network)",
      .idsExhausted
    ),
  ])
  func theContractAndThePlayerAgreeAtEachKindOfExhaustion(_ text: String, _ reason: IgnoreReason?)
    throws
  {
    let fuzzCase = try FailureFile.parseCase(text)
    let failure = Fuzzer.check(.player, fuzzCase)
    #expect(failure == nil, "\(failure?.report ?? "")")
    var state = try #require(fuzzCase.start)
    let event = try #require(fuzzCase.actions.last?.event)
    #expect(state.handle(event).ignored == reason)
  }

  @Test func anIgnoredSeekThatMovesThePositionAtTheLastSeekIdIsCaught() throws {
    let fuzzCase = try FailureFile.parseCase(
      """
      engine preload=no start(loads=1 items=1 queue=A:1* session=1:ready seek=4294967295 watchdog=1)
      seek(2000ms)
      """)
    let failure = try #require(
      Fuzzer.check(BuggyPlayer(.exhaustedSeekMovesPosition).subject, fuzzCase))
    #expect(failure.property == .queueMatchesContract)
    #expect(failure.violation.detail.contains("position 0ms"), "\(failure.violation.detail)")
  }

  @Test func aStartStateIsShrunkToTheLastIdWhenThatSavesActions() throws {
    // Two ids before the last: the seeks that use them up go once the start
    // state's seek id is moved to the last.
    let fuzzCase = try FailureFile.parseCase(
      """
      engine preload=no start(loads=1 items=1 queue=A:1* session=1:ready seek=4294967293 watchdog=1)
      seek(0ms)
      seek(0ms)
      seek(2000ms)
      """)
    let subject = BuggyPlayer(.exhaustedSeekMovesPosition).subject
    let violation = try #require(CaseRunner.check(subject, fuzzCase.actions, setup: fuzzCase.setup))
    let outcome = Shrinker.shrink(
      subject, fuzzCase.actions, violation: violation, setup: fuzzCase.setup)
    #expect(outcome.actions.count == 1)
    #expect(outcome.setup.start?.session?.lastSeek == SeekID(Self.last))
  }

  @Test(arguments: [
    ("start(loads=1)", "f.txt:1:25: error: a start line needs loads= and items="),
    (
      "start(loads=1 items=1 queue=A:2*)",
      "f.txt:1:25: error: unreachable state: queue entry item2 was never issued (issuedItems 1)"
    ),
    ("start(loads=1 items=1 color=red)", "f.txt:1:41: error: expected a start field"),
  ])
  func aBadStartStateIsReportedWhereItIs(_ field: String, _ message: String) {
    #expect {
      try FailureFile.parseCase("engine preload=no \(field)\n", file: "f.txt")
    } throws: { error in
      "\(error)".hasPrefix(message)
    }
  }

  @Test func aSubjectThatDoesNotTakeAStartStateNeverGetsOne() {
    let blind = FuzzSubject(name: "NoStart") { engine in
      PlayerTarget(Player(engine: engine, watchdog: FuzzEngine.watchdog(for: engine)))
    }.reading(.configuration)
    let configuration = FuzzConfiguration(seed: 17)
    for index in 0..<300 {
      let seed = SplitMix64.caseSeed(run: 17, case: index)
      #expect(Fuzzer.replayFuzzCase(blind, caseSeed: seed, configuration).0.start == nil)
    }
  }
}
