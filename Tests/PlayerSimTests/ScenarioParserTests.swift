import PlayerSimulation
import PlayerState
import PlayerTesting
import Testing

/// The words that may begin a line, as the unknown-action message lists them.
private let actionList =
  "media, engine, previous-threshold, retry-policy, ducking, fade, crossfade, hostile, watchdog, "
  + "play, queue, append, insert, remove, move, jump, next, previous, repeat, shuffle, rate, volume, "
  + "mute, unmute, clear, pause, resume, stop, seek, retry, toggle, skip, set-position, "
  + "go-live, sleep-timer, remote, interrupt, route, network, duck, unduck, relaunch, handoff, "
  + "wait, report, expect, note"

@Suite struct ScenarioParserTests: ParsesScenarios {
  @Test func theIssueExampleParses() throws {
    let text = """
      media A ready-after=300ms duration=5s          # a fake media profile
      media B ready-after=50ms stall-at=2s stall-for=500ms
      media C fail-after=100ms reason=network
      hostile on                                     # late, duplicate and re-entrant callbacks
      play A
      wait 100ms
      stop
      report ready A#1
      expect state idle
      expect commands load(A#1) stop(A#1)
      """
    let scenario = try ScenarioParser.parse(text, file: "issue.play")
    #expect(scenario.steps.map(\.line) == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
    #expect(
      scenario.steps.map(\.action) == [
        .media("A", MediaProfile(readyAfter: .milliseconds(300), duration: .seconds(5))),
        .media(
          "B",
          MediaProfile(
            readyAfter: .milliseconds(50), stallAt: .seconds(2), stallFor: .milliseconds(500))),
        .media("C", MediaProfile(failAfter: .milliseconds(100), failureReason: .network)),
        .hostile(HostileMode(seed: 1, duplicatePercent: 25, reentrantPercent: 25)),
        .intent(.play("A")),
        .wait(.milliseconds(100)),
        .intent(.stop),
        .inject(ScenarioReport(.ready(duration: nil), LoadName("A", 1))),
        .expectState(.kind(.idle)),
        .expectCommands([ScenarioCommand("load(A#1)"), ScenarioCommand("stop(A#1)")]),
      ])
  }

  @Test func everyActionOfTheVocabulary() throws {
    let text = """
      media A seek-latency=20ms
      hostile on seed=42 duplicate=10% reentrant=0
      hostile off
      watchdog 1.5s
      watchdog off
      play A
      pause
      resume
      seek 2s
      stop
      retry
      wait 1.25s
      wait until playing
      wait until buffering(A#2, autoplay) within=1.5s
      report stalled A#1
      report resumed A#1
      report ended A#1
      report failed A#1 reason=engine(-11800)
      report failed A#2
      report seeked A#1 seek=3
      report timeout A#1 watchdog=2
      expect state buffering(A#2,  autoplay)
      expect commands seek(A#1, 2000ms, seek#1) start(A#1)
      expect commands none
      expect ignored staleLoad supersededSeek
      expect ignored none
      note Hello,   world
      """
    #expect(
      try parse(text) == [
        .media("A", MediaProfile(seekLatency: .milliseconds(20))),
        .hostile(HostileMode(seed: 42, duplicatePercent: 10, reentrantPercent: 0)),
        .hostile(nil),
        .watchdog(.milliseconds(1500)),
        .watchdog(nil),
        .intent(.play("A")), .intent(.pause), .intent(.resume), .intent(.seek(to: .seconds(2))),
        .intent(.stop), .intent(.retry),
        .wait(.milliseconds(1250)),
        .waitUntil(.kind(.playing), within: .seconds(60)),
        .waitUntil(.exactly("buffering(A#2, autoplay)"), within: .milliseconds(1500)),
        .inject(ScenarioReport(.stalled, LoadName("A", 1))),
        .inject(ScenarioReport(.resumed, LoadName("A", 1))),
        .inject(ScenarioReport(.ended, LoadName("A", 1))),
        .inject(ScenarioReport(.failed(.engine(code: -11800)), LoadName("A", 1))),
        .inject(ScenarioReport(.failed(.network), LoadName("A", 2))),
        .inject(ScenarioReport(.seeked(SeekID(3)), LoadName("A", 1))),
        .inject(ScenarioReport(.timeout(WatchdogID(2)), LoadName("A", 1))),
        .expectState(.exactly("buffering(A#2, autoplay)")),
        .expectCommands([
          ScenarioCommand("seek(A#1, 2000ms, seek#1)"), ScenarioCommand("start(A#1)"),
        ]),
        .expectCommands([]),
        .expectIgnored([.staleLoad, .supersededSeek]),
        .expectIgnored([]),
        .note("Hello, world"),
      ])
  }

  @Test func everyQueueSpelling() throws {
    let text = """
      engine preload=yes
      previous-threshold 2.5s
      media A position-every=250ms report-duration=yes
      media B
      media C
      play A from=12s
      queue A B C
      queue A B C start=2 from=1m paused
      queue B paused start=1
      append A B
      insert C A at=2
      remove 3
      move 4 to=1
      jump 2
      jump 1 from=1.5m
      next
      previous
      repeat off
      repeat one
      repeat all
      shuffle on seed=7
      shuffle off
      rate 1.5
      rate 0.75x
      clear
      report position A#1 12s
      report ready A#1 duration=3m
      expect queue A B* C
      expect queue none
      expect commands load(A#2, from 12s) preload(B#3) start(A#2, 1.5x) rate(A#2, 0.75x)
      expect commands load(A#2, from 0ms) start(A#2, 1x) preload(C#9, from 2000ms)
      expect state playing(A#1, preloading B#2)
      expect state playing(A#1, seek#1, preloaded B#2)
      expect state stalled(A#1, paused, preload failed B#2)
      expect ignored invalidPosition invalidArgument idsExhausted itemMismatch
      """
    #expect(
      try parse(text) == [
        .engine(preload: true),
        .previousThreshold(.milliseconds(2500)),
        .media("A", MediaProfile(positionEvery: .milliseconds(250), reportsDuration: true)),
        .media("B", MediaProfile()),
        .media("C", MediaProfile()),
        .intent(.play("A", from: .seconds(12))),
        .intent(.replaceQueue(["A", "B", "C"])),
        .intent(
          .replaceQueue(["A", "B", "C"], start: 1, from: .seconds(60), playWhenReady: false)),
        .intent(.replaceQueue(["B"], start: 0, playWhenReady: false)),
        .intent(.append(["A", "B"])),
        .intent(.insert(["C", "A"], at: 1)),
        .intent(.remove(at: 2)),
        .intent(.move(from: 3, to: 0)),
        .intent(.jump(to: 1)),
        .intent(.jump(to: 0, from: .seconds(90))),
        .intent(.next),
        .intent(.previous),
        .intent(.setRepeat(.off)),
        .intent(.setRepeat(.one)),
        .intent(.setRepeat(.all)),
        .intent(.setShuffle(seed: 7)),
        .intent(.setShuffle(seed: nil)),
        .intent(.setRate(PlaybackRate(thousandths: 1500))),
        .intent(.setRate(PlaybackRate(thousandths: 750))),
        .intent(.clear),
        .inject(ScenarioReport(.position(.seconds(12)), LoadName("A", 1))),
        .inject(ScenarioReport(.ready(duration: .seconds(180)), LoadName("A", 1))),
        .expectQueue("A B* C"),
        .expectQueue("none"),
        .expectCommands([
          ScenarioCommand("load(A#2, from 12000ms)"), ScenarioCommand("preload(B#3)"),
          ScenarioCommand("start(A#2, 1.5x)"), ScenarioCommand("rate(A#2, 0.75x)"),
        ]),
        .expectCommands([
          ScenarioCommand("load(A#2)"), ScenarioCommand("start(A#2)"),
          ScenarioCommand("preload(C#9, from 2000ms)"),
        ]),
        .expectState(.exactly("playing(A#1, preloading B#2)")),
        .expectState(.exactly("playing(A#1, seek#1, preloaded B#2)")),
        .expectState(.exactly("stalled(A#1, paused, preload failed B#2)")),
        .expectIgnored([.invalidPosition, .invalidArgument, .idsExhausted, .itemMismatch]),
      ])
  }

  @Test func timesInMinutes() throws {
    #expect(
      try parse("wait 3m\nwait 1.5m\nwait 0.001m") == [
        .wait(.seconds(180)), .wait(.seconds(90)), .wait(.milliseconds(60)),
      ])
  }

  /// Hours (issue 24, for sleep timers): up to 277h, the largest whole
  /// number of hours within 1000000s.
  @Test func timesInHours() throws {
    #expect(
      try parse("wait 1h\nwait 1.5h\nwait 0.001h\nwait 277h") == [
        .wait(.seconds(3600)), .wait(.seconds(5400)), .wait(.milliseconds(3600)),
        .wait(.seconds(997_200)),
      ])
    #expect(
      message("wait 278h")
        == "t.play:1:6: error: time '278h' too large; expected at most 1000000s")
    #expect(
      message("wait 1.0001h")
        == "t.play:1:6: error: bad time '1.0001h'; expected a time in ms, s, m or h, such as 250ms, 1.5s, 3m or 1h"
    )
    #expect(
      message("wait h")
        == "t.play:1:6: error: bad time 'h'; expected a time in ms, s, m or h, such as 250ms, 1.5s, 3m or 1h"
    )
  }

  @Test func commentsBlankLinesTabsAndCRLF() throws {
    let text = "# header\r\n\r\n\tmedia A\t# tab\r\n  play A  # c\r\n# report ready A#1\r\n"
    let scenario = try ScenarioParser.parse(text, file: "t.play")
    #expect(scenario.steps.map(\.action) == [.media("A", MediaProfile()), .intent(.play("A"))])
    #expect(scenario.steps.map(\.line) == [3, 4])
    #expect(scenario.steps.map(\.column) == [2, 3])
  }

  @Test func emptyScriptIsEmptyScenario() throws {
    #expect(try parse("") == [])
    #expect(try parse("\n\n   # only comments\n") == [])
  }

  @Test(arguments: [
    (
      "bounce",
      "t.play:1:1: error: unknown action 'bounce'; expected one of \(actionList)"
    ),
    ("play", "t.play:1:5: error: found end of line; expected a media name, as in 'play A'"),
    (
      "play X",
      "t.play:1:6: error: unknown media 'X'; expected a media declared above with 'media X'"
    ),
    (
      "wait 10",
      "t.play:1:6: error: bad time '10'; expected a time in ms, s, m or h, such as 250ms, 1.5s, 3m or 1h"
    ),
    (
      "wait 1.5ms",
      "t.play:1:6: error: bad time '1.5ms'; expected a time in ms, s, m or h, such as 250ms, 1.5s, 3m or 1h"
    ),
    (
      "wait -5s",
      "t.play:1:6: error: bad time '-5s'; expected a time in ms, s, m or h, such as 250ms, 1.5s, 3m or 1h"
    ),
    (
      "wait 99999999999999999999999s",
      "t.play:1:6: error: time '99999999999999999999999s' too large; expected at most 1000000s"
    ),
    (
      "stop now",
      "t.play:1:6: error: unexpected 'now' after 'stop'; expected end of line (a comment starts with ' #')"
    ),
    (
      "media A duration",
      "t.play:1:9: error: found 'duration'; expected an option key=value, such as duration=5s"
    ),
    (
      "media A colour=red",
      "t.play:1:9: error: unknown media option 'colour'; expected one of live, window, ends, ready-after, duration, stall-at, stall-for, fail-after, reason, seek-latency, position-every, report-duration, network-drop-at, network-back-after"
    ),
    (
      "media A duration=5x",
      "t.play:1:18: error: bad time '5x'; expected a time in ms, s, m or h, such as 250ms, 1.5s, 3m or 1h"
    ),
    (
      "media A stall-for=1s",
      "t.play:1:9: error: stall-for without stall-at; expected stall-at=TIME as well"
    ),
    (
      "media A fail-after=1s reason=boom",
      "t.play:1:30: error: unknown reason 'boom'; expected one of network, decoding, unsupported, notFound, timeout, behindLiveWindow, engine(CODE)"
    ),
    (
      "media A preload=yes",
      "t.play:1:9: error: 'preload' is not a media option; expected 'engine preload=yes' on a line of its own before the first action (preloading is the engine's)"
    ),
    (
      "media A*",
      "t.play:1:7: error: bad media name 'A*'; expected a media name of printable characters, without spaces or any of # = ( ) , *"
    ),
    (
      "media A(1)",
      "t.play:1:7: error: bad media name 'A(1)'; expected a media name of printable characters, without spaces or any of # = ( ) , *"
    ),
    (
      "media A\nreport ready A#x",
      "t.play:2:16: error: bad number 'x'; expected a load token: a whole number such as 1"
    ),
    (
      "media A\nreport ready A#4294967296",
      "t.play:2:16: error: number '4294967296' too large; expected a load token of at most 4294967295"
    ),
    (
      "media A\nreport ready B#1",
      "t.play:2:14: error: unknown media 'B'; expected a media declared above with 'media B'"
    ),
    (
      "media A\nreport seeked A#1",
      "t.play:2:18: error: found end of line; expected seek=N, the seek id (as in 'report seeked A#1 seek=1')"
    ),
    (
      "media A\nreport ready A#1 seek=1",
      "t.play:2:18: error: unknown option 'seek' for 'ready'; expected duration=…"
    ),
    (
      "media A\nreport bogus A#1",
      "t.play:2:8: error: unknown report 'bogus'; expected one of ready, stalled, resumed, ended, failed, seeked, position, window, timeout, paused-by-system"
    ),
    ("hostile maybe", "t.play:1:9: error: found 'maybe'; expected 'on' or 'off'"),
    (
      "hostile on duplicate=150%",
      "t.play:1:22: error: bad percentage '150%'; expected a percentage from 0% to 100%"
    ),
    (
      "hostile on seed=18446744073709551616",
      "t.play:1:17: error: number '18446744073709551616' too large; expected a seed of at most 18446744073709551615"
    ),
    ("watchdog 0ms", "t.play:1:10: error: time '0ms'; expected a time above 0ms"),
    (
      "expect state sleeping",
      "t.play:1:14: error: unknown state 'sleeping'; expected one of idle, buffering, playing, paused, stalled, ended, failed, suppressed, waiting, optionally with details as in playing(A#1)"
    ),
    (
      "expect state",
      "t.play:1:13: error: found end of line; expected a state such as idle, playing or buffering(A#1, autoplay)"
    ),
    (
      "wait until playing within=0s",
      "t.play:1:27: error: time '0s'; expected a time above 0ms"
    ),
    (
      "wait until",
      "t.play:1:11: error: found end of line; expected a state such as idle, playing or buffering(A#1, autoplay)"
    ),
    (
      "expect things",
      "t.play:1:8: error: unknown expectation 'things'; expected 'state', 'queue', 'commands', 'ignored', 'now-playing', 'notified', 'available', 'volume' or 'engine-volume'"
    ),
    (
      "expect ignored noEffect",
      "t.play:1:16: error: unknown ignore reason 'noEffect'; expected one of neverIssuedLoad, staleLoad, itemMismatch, neverIssuedSeek, supersededSeek, staleWatchdog, seekPending, unexpected, idsExhausted, invalidPosition, invalidArgument, notInterrupted, notCurrentEntry, notDucked, notSeekable, notLive, liveStream, or 'none'"
    ),
    (
      "media A\nexpect commands launch(A#1)",
      "t.play:2:17: error: bad command 'launch(A#1)'; expected a command such as load(A#1), load(A#1, from 12s), load(A#1, at live edge), load(A#1, 30s behind live edge), preload(B#2), start(A#1), start(A#1, 1.5x), rate(A#1, 1.5x), pause(A#1), stop(A#1), seek(A#1, 2000ms, seek#1), setVolume(A#1, 0.5) or setVolume(A#1, 0.5, ramp 200ms)"
    ),
    (
      "media A\nexpect commands load(A#1",
      "t.play:2:17: error: unbalanced 'load(A#1'; expected a closing ')'"
    ),
    (
      "play\u{7}",
      "t.play:1:1: error: unknown action 'play\\u{7}'; expected one of \(actionList)"
    ),
    (
      "media A\nqueue",
      "t.play:2:6: error: found end of line; expected one or more media names, as in 'queue A B C'"
    ),
    (
      "media A\nqueue A start=0",
      "t.play:2:15: error: position 0; expected a position from 1 (1 is the first entry)"
    ),
    (
      "media A\nqueue A start=x",
      "t.play:2:15: error: bad number 'x'; expected a position (1 is the first entry): a whole number such as 1"
    ),
    (
      "media A\nqueue A shuffled",
      "t.play:2:9: error: unknown media 'shuffled'; expected a media declared above with 'media shuffled'"
    ),
    (
      "media A\nqueue A paused paused",
      "t.play:2:16: error: 'paused' given twice; expected each option once"
    ),
    (
      "media A\nqueue A start=1 shuffled",
      "t.play:2:17: error: found 'shuffled'; expected an option key=value, such as start=2"
    ),
    (
      "media A\nqueue A at=1",
      "t.play:2:9: error: unknown option 'at' for 'queue'; expected start=N, from=TIME or paused"
    ),
    (
      "media A\nqueue A from=5",
      "t.play:2:14: error: bad time '5'; expected a time in ms, s, m or h, such as 250ms, 1.5s, 3m or 1h"
    ),
    (
      "media A\nqueue A X",
      "t.play:2:9: error: unknown media 'X'; expected a media declared above with 'media X'"
    ),
    (
      "media A\ninsert A",
      "t.play:2:9: error: found end of line; expected at=N, as in 'insert A B at=2'"
    ),
    ("remove", "t.play:1:7: error: found end of line; expected a position such as 2"),
    (
      "remove 0", "t.play:1:8: error: position 0; expected a position from 1 (1 is the first entry)"
    ),
    ("move 2", "t.play:1:7: error: found end of line; expected to=N, as in 'move 3 to=1'"),
    (
      "move 2 at=1",
      "t.play:1:8: error: unknown option 'at' for 'move'; expected to=N, as in 'move 3 to=1'"
    ),
    ("jump 2 to=1", "t.play:1:8: error: unknown option 'to' for 'jump'; expected from=…"),
    (
      "next 2",
      "t.play:1:6: error: unexpected '2' after 'next'; expected end of line (a comment starts with ' #')"
    ),
    (
      "repeat sometimes",
      "t.play:1:8: error: unknown repeat mode 'sometimes'; expected off, one or all"
    ),
    (
      "shuffle on",
      "t.play:1:11: error: found end of line; expected seed=N, as in 'shuffle on seed=7' (the order is drawn from the seed)"
    ),
    ("shuffle yes", "t.play:1:9: error: found 'yes'; expected 'on seed=N' or 'off'"),
    (
      "rate fast",
      "t.play:1:6: error: bad rate 'fast'; expected a rate such as 1, 1.5 or 0.75x (at most three decimals, at most 1000)"
    ),
    (
      "rate 1.2345",
      "t.play:1:6: error: bad rate '1.2345'; expected a rate such as 1, 1.5 or 0.75x (at most three decimals, at most 1000)"
    ),
    ("engine", "t.play:1:7: error: found end of line; expected preload=yes or preload=no"),
    ("engine preload=maybe", "t.play:1:16: error: found 'maybe'; expected yes or no"),
    (
      "media A\nplay A\nengine preload=yes",
      "t.play:3:1: error: 'engine' after the run started; expected setup lines (engine, previous-threshold, retry-policy) before the first intent, wait, report or system event"
    ),
    (
      "previous-threshold 1s\nprevious-threshold 2s",
      "t.play:2:1: error: a second 'previous-threshold' line; expected each setup line once"
    ),
    (
      "media A\nreport position A#1",
      "t.play:2:20: error: found end of line; expected a position such as 12s, as in 'report position A#1 12s'"
    ),
    (
      "media A\nreport ready A#1 duration=3",
      "t.play:2:27: error: bad time '3'; expected a time in ms, s, m or h, such as 250ms, 1.5s, 3m or 1h"
    ),
    (
      "media A\nexpect queue A* B",
      "t.play:2:17: error: unknown media 'B'; expected a media declared above with 'media B'"
    ),
    (
      "media A\nexpect queue A* A*",
      "t.play:2:17: error: a second starred entry 'A*'; expected at most one current entry (starred)"
    ),
    (
      "media A\nexpect queue",
      "t.play:2:13: error: found end of line; expected the entries in play order with the current one starred, as in A B* C, or 'none'"
    ),
    (
      "media A\nexpect commands load(A#1, at 5s)",
      "t.play:2:17: error: bad command 'load(A#1, at 5s)'; expected a command such as load(A#1), load(A#1, from 12s), load(A#1, at live edge), load(A#1, 30s behind live edge), preload(B#2), start(A#1), start(A#1, 1.5x), rate(A#1, 1.5x), pause(A#1), stop(A#1), seek(A#1, 2000ms, seek#1), setVolume(A#1, 0.5) or setVolume(A#1, 0.5, ramp 200ms)"
    ),
    (
      "media A\nexpect state playing(A#1, preloading X#2)",
      "t.play:2:38: error: unknown media 'X'; expected a media declared above with 'media X'"
    ),
    (
      "media A\nexpect state playing(A#1, preloaded A#2, seek#1)",
      "t.play:2:42: error: 'seek#1' after the preload; expected ')': the preload comes last"
    ),
    (
      "media A position-every=0ms",
      "t.play:1:24: error: time '0ms'; expected a time above 0ms"
    ),
  ])
  func badInputNamesLineColumnFoundAndExpected(text: String, expected: String) {
    // Every case names the file, line and column where the error is.
    #expect(message(text) == expected)
  }

  @Test func hostileInputNeverTraps() {
    var random = SplitMix64(seed: 7)
    let alphabet: [String] = [
      "media", "play", "report", "expect", "state", "commands", "A", "#", "=", "(", ")", ",", " ",
      "\t", "\n", "\r\n", "ms", "s", "9", "0", ".", "seek", "ready", "A#1", "é", "\u{301}", "🎵",
      "\u{0}", "%", "-", "queue", "insert", "move", "jump", "remove", "rate", "shuffle", "repeat",
      "engine", "previous-threshold", "at=", "to=", "start=", "from=", "seed=", "paused", "*",
      "queue A B*", "preloading", "preload(", "m", "1.5", "x", "position", "duration=",
    ]
    for _ in 0..<2000 {
      let length = Int.random(in: 0..<40, using: &random)
      let text = (0..<length).map { _ in
        alphabet[Int.random(in: 0..<alphabet.count, using: &random)]
      }
      .joined()
      do {
        _ = try ScenarioParser.parse(text, file: "fuzz")
      } catch {
        #expect(!error.description.contains("\n"))
      }
    }
  }
}
