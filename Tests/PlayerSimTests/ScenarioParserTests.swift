import PlayerSimulation
import PlayerState
import PlayerTesting
import Testing

@Suite struct ScenarioParserTests {
  private func parse(_ text: String) throws(ScenarioError) -> [ScenarioAction] {
    try ScenarioParser.parse(text, file: "t.play").steps.map(\.action)
  }

  private func message(_ text: String) -> String {
    do {
      _ = try ScenarioParser.parse(text, file: "t.play")
      return "no error"
    } catch {
      return error.description
    }
  }

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
        .inject(.ready(Load("A", 1))),
        .expectState(.kind(.idle)),
        .expectCommands([.load(Load("A", 1)), .stop(Load("A", 1))]),
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
        .inject(.stalled(Load("A", 1))),
        .inject(.resumed(Load("A", 1))),
        .inject(.reachedEnd(Load("A", 1))),
        .inject(.failed(Load("A", 1), .engine(code: -11800))),
        .inject(.failed(Load("A", 2), .network)),
        .inject(.seekCompleted(Load("A", 1), SeekID(3))),
        .inject(.watchdogExpired(Load("A", 1), WatchdogID(2))),
        .expectState(.exactly("buffering(A#2, autoplay)")),
        .expectCommands([.seek(Load("A", 1), to: .seconds(2), SeekID(1)), .start(Load("A", 1))]),
        .expectCommands([]),
        .expectIgnored([.staleLoad, .supersededSeek]),
        .expectIgnored([]),
        .note("Hello, world"),
      ])
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
      "jump",
      "t.play:1:1: error: unknown action 'jump'; expected one of media, hostile, watchdog, play, pause, resume, stop, seek, retry, wait, report, expect, note"
    ),
    ("play", "t.play:1:5: error: found end of line; expected a media name, as in 'play A'"),
    (
      "play X",
      "t.play:1:6: error: unknown media 'X'; expected a media declared above with 'media X'"
    ),
    (
      "wait 10",
      "t.play:1:6: error: bad time '10'; expected a time in ms or s, such as 250ms or 1.5s"
    ),
    (
      "wait 1.5ms",
      "t.play:1:6: error: bad time '1.5ms'; expected a time in ms or s, such as 250ms or 1.5s"
    ),
    (
      "wait -5s",
      "t.play:1:6: error: bad time '-5s'; expected a time in ms or s, such as 250ms or 1.5s"
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
      "t.play:1:9: error: unknown media option 'colour'; expected one of ready-after, duration, stall-at, stall-for, fail-after, reason, seek-latency"
    ),
    (
      "media A duration=5x",
      "t.play:1:18: error: bad time '5x'; expected a time in ms or s, such as 250ms or 1.5s"
    ),
    (
      "media A stall-for=1s",
      "t.play:1:9: error: stall-for without stall-at; expected stall-at=TIME as well"
    ),
    (
      "media A fail-after=1s reason=boom",
      "t.play:1:30: error: unknown reason 'boom'; expected one of network, decoding, unsupported, notFound, timeout, engine(CODE)"
    ),
    (
      "media A(1)",
      "t.play:1:7: error: bad media name 'A(1)'; expected a media name of printable characters, without spaces or any of # = ( ) ,"
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
      "t.play:2:18: error: unknown option 'seek' for 'ready'; expected no option for 'ready'"
    ),
    (
      "media A\nreport bogus A#1",
      "t.play:2:8: error: unknown report 'bogus'; expected one of ready, stalled, resumed, ended, failed, seeked, timeout"
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
      "t.play:1:14: error: unknown state 'sleeping'; expected one of idle, buffering, playing, paused, stalled, ended, failed, optionally with details as in playing(A#1)"
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
      "t.play:1:8: error: unknown expectation 'things'; expected 'state', 'commands' or 'ignored'"
    ),
    (
      "expect ignored noEffect",
      "t.play:1:16: error: unknown ignore reason 'noEffect'; expected one of neverIssuedLoad, staleLoad, mediaMismatch, neverIssuedSeek, supersededSeek, staleWatchdog, seekPending, unexpected, or 'none'"
    ),
    (
      "media A\nexpect commands launch(A#1)",
      "t.play:2:17: error: bad command 'launch(A#1)'; expected a command such as load(A#1), start(A#1), pause(A#1), stop(A#1) or seek(A#1, 2000ms, seek#1)"
    ),
    (
      "media A\nexpect commands load(A#1",
      "t.play:2:17: error: unbalanced 'load(A#1'; expected a closing ')'"
    ),
    (
      "play\u{7}",
      "t.play:1:1: error: unknown action 'play\\u{7}'; expected one of media, hostile, watchdog, play, pause, resume, stop, seek, retry, wait, report, expect, note"
    ),
  ])
  func badInputNamesLineColumnFoundAndExpected(text: String, expected: String) {
    #expect(message(text) == expected)
  }

  @Test func hostileInputNeverTraps() {
    var random = SplitMix64(seed: 7)
    let alphabet: [String] = [
      "media", "play", "report", "expect", "state", "commands", "A", "#", "=", "(", ")", ",", " ",
      "\t", "\n", "\r\n", "ms", "s", "9", "0", ".", "seek", "ready", "A#1", "é", "\u{301}", "🎵",
      "\u{0}", "%", "-",
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
