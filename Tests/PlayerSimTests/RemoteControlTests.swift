import Foundation
import PlayerSimulation
import PlayerState
import Testing

/// Issue 22 in scripts: `toggle`, `skip ±T`, `set-position`, `remote …`, the
/// notifications under their step, `--json`'s `notifications`, `now_playing`
/// and `available`, and the `expect now-playing`, `expect notified` and
/// `expect available` lines.
@Suite struct RemoteControlTests: ParsesScenarios {
  private func run(_ script: String) throws -> ScenarioResult {
    let result = ScenarioRunner().run(try ScenarioParser.parse(script, file: "t.play"))
    #expect(result.failure == nil, "\(result.failure.map(String.init(describing:)) ?? "")")
    return result
  }

  @Test func everyRemoteSpellingParses() throws {
    let actions = try parse(
      """
      media A
      media B
      toggle
      skip +15s
      skip -10s
      skip +1.5m
      set-position A 10s
      remote toggle
      remote next
      remote seek 1m
      remote skip +15s
      remote pause
      remote play B from=2s
      remote set-position B 250ms
      expect now-playing A 2/3 at 15s rate 1x
      expect now-playing B 1/1 at 0ms rate 0 of unknown
      expect now-playing B 1/1 at 0ms rate 1.5x of 30s
      expect now-playing none
      expect notified entryChanged A -> B auto, queueEnded,playIntent false remote
      expect notified entryChanged none -> A queue , playIntent true user
      expect notified none
      expect available toggle next pause
      expect available none
      expect ignored notCurrentEntry
      """)
    #expect(
      Array(actions.dropFirst(2)) == [
        .intent(.toggle),
        .intent(.skip(by: .seconds(15))),
        .intent(.skip(by: .milliseconds(-10_000))),
        .intent(.skip(by: .seconds(90))),
        .setPosition("A", .seconds(10), remote: false),
        .remote(.toggle),
        .remote(.next),
        .remote(.seek(to: .seconds(60))),
        .remote(.skip(by: .seconds(15))),
        .remote(.pause),
        .remote(.play("B", from: .seconds(2))),
        .setPosition("B", .milliseconds(250), remote: true),
        .expectNowPlaying(
          NowPlayingExpectation(
            media: "A", index: 2, count: 3, elapsed: .seconds(15), rate: .normal)),
        .expectNowPlaying(
          NowPlayingExpectation(
            media: "B", index: 1, count: 1, elapsed: .zero, rate: PlaybackRate(thousandths: 0),
            duration: .some(nil))),
        .expectNowPlaying(
          NowPlayingExpectation(
            media: "B", index: 1, count: 1, elapsed: .zero, rate: PlaybackRate(thousandths: 1500),
            duration: .some(.seconds(30)))),
        .expectNowPlaying(nil),
        .expectNotified([
          ScenarioNotification("entryChanged(A -> B, auto)"), ScenarioNotification("queueEnded"),
          ScenarioNotification("playIntent(false, remote)"),
        ]),
        .expectNotified([
          ScenarioNotification("entryChanged(none -> A, queue)"),
          ScenarioNotification("playIntent(true, user)"),
        ]),
        .expectNotified([]),
        .expectAvailable([.toggle, .next, .pause]),
        .expectAvailable([]),
        .expectIgnored([.notCurrentEntry]),
      ])
  }

  @Test(arguments: [
    (
      "skip 15s",
      "t.play:2:6: error: found '15s' without a sign; expected a signed time such as +15s or -10s (+ skips forward, - back)"
    ),
    (
      "skip +15",
      "t.play:2:7: error: bad time '15'; expected a time in ms, s, m or h, such as 250ms, 1.5s, 3m or 1h"
    ),
    (
      "skip +",
      "t.play:2:6: error: a sign without a time; expected a signed time such as +15s or -10s (+ skips forward, - back)"
    ),
    ("skip", "t.play:2:5: error: found end of line; expected a signed time such as +15s or -10s"),
    (
      "remote",
      "t.play:2:7: error: found end of line; expected an intent after 'remote', as in 'remote toggle': one of play, queue, append, insert, remove, move, jump, next, previous, repeat, shuffle, rate, volume, mute, unmute, clear, pause, resume, stop, seek, retry, toggle, skip, set-position, go-live"
    ),
    (
      "remote wait 1s",
      "t.play:2:8: error: found 'wait' after 'remote'; expected an intent after 'remote', as in 'remote toggle': one of play, queue, append, insert, remove, move, jump, next, previous, repeat, shuffle, rate, volume, mute, unmute, clear, pause, resume, stop, seek, retry, toggle, skip, set-position, go-live"
    ),
    (
      "remote remote toggle",
      "t.play:2:8: error: found 'remote' after 'remote'; expected an intent after 'remote', as in 'remote toggle': one of play, queue, append, insert, remove, move, jump, next, previous, repeat, shuffle, rate, volume, mute, unmute, clear, pause, resume, stop, seek, retry, toggle, skip, set-position, go-live"
    ),
    (
      "remote toggle now",
      "t.play:2:15: error: unexpected 'now' after 'toggle'; expected end of line (a comment starts with ' #')"
    ),
    (
      "remote skip 15s",
      "t.play:2:13: error: found '15s' without a sign; expected a signed time such as +15s or -10s (+ skips forward, - back)"
    ),
    (
      "set-position X 1s",
      "t.play:2:14: error: unknown media 'X'; expected a media declared above with 'media X'"
    ),
    (
      "set-position A",
      "t.play:2:15: error: found end of line; expected a position such as 10s, as in 'set-position A 10s'"
    ),
    (
      "set-position A 1x",
      "t.play:2:16: error: bad time '1x'; expected a time in ms, s, m or h, such as 250ms, 1.5s, 3m or 1h"
    ),
  ])
  func aBadRemoteLineSaysWhereAndWhat(_ line: String, _ expected: String) {
    #expect(message("media A\n\(line)") == expected)
  }

  @Test(arguments: [
    (
      "now-playing",
      "t.play:2:19: error: found end of line; expected what a lock screen shows, as in 'expect now-playing A 2/3 at 15s rate 1x', or 'none'"
    ),
    (
      "now-playing A 2-3 at 1s rate 1x",
      "t.play:2:22: error: found '2-3'; expected the entry's 1-based position and the queue's count, as in 2/3"
    ),
    (
      "now-playing A 3/2 at 1s rate 1x",
      "t.play:2:22: error: position '3/2'; expected a position from 1 to the count, as in 2/3"
    ),
    (
      "now-playing A 1/x at 1s rate 1x",
      "t.play:2:24: error: bad number 'x'; expected a count of entries: a whole number such as 1"
    ),
    (
      "now-playing A 1/1 in 1s rate 1x",
      "t.play:2:26: error: found 'in'; expected 'at TIME', as in 'A 2/3 at 15s rate 1x'"
    ),
    (
      "now-playing A 1/1 at 1s rate fast",
      "t.play:2:37: error: bad rate 'fast'; expected a rate such as 1, 1.5 or 0.75x (at most three decimals, at most 1000)"
    ),
    (
      "now-playing A 1/1 at 1s rate 1x for 3s",
      "t.play:2:40: error: found 'for'; expected 'of TIME' or 'of unknown' (the duration), 'live START…END' (a live window), or end of line"
    ),
    (
      "now-playing A 1/1 at 1s rate 1x of 3s more",
      "t.play:2:46: error: unexpected 'more' after 'expect'; expected end of line (a comment starts with ' #')"
    ),
    (
      "notified",
      "t.play:2:16: error: found end of line; expected notifications such as 'entryChanged A -> B auto', 'queueEnded' or 'playIntent false remote', separated by commas, or 'none'"
    ),
    (
      "notified ended",
      "t.play:2:17: error: unknown notification 'ended'; expected one of entryChanged, queueEnded, playIntent"
    ),
    (
      "notified entryChanged A B auto",
      "t.play:2:32: error: found 'B'; expected '->' (entryChanged FROM -> TO REASON, as in 'entryChanged A -> B auto')"
    ),
    (
      "notified entryChanged A -> A",
      "t.play:2:36: error: found the end of the notification; expected a reason: one of auto, repeat, skip, queue, removed (entryChanged FROM -> TO REASON, as in 'entryChanged A -> B auto')"
    ),
    (
      "notified entryChanged A -> A later",
      "t.play:2:37: error: unknown reason 'later'; expected one of auto, repeat, skip, queue, removed"
    ),
    (
      "notified entryChanged X -> A auto",
      "t.play:2:30: error: unknown media 'X'; expected a media declared above with 'media X'"
    ),
    (
      "notified playIntent maybe user",
      "t.play:2:28: error: found 'maybe'; expected true or false (the new play intent)"
    ),
    (
      "notified playIntent false bored",
      "t.play:2:34: error: unknown reason 'bored'; expected one of user, remote, interruption, routeLost, sleepTimer"
    ),
    (
      "notified queueEnded playIntent false user",
      "t.play:2:28: error: unexpected 'playIntent' after queueEnded; expected a comma before the next notification, or end of line"
    ),
    (
      "notified queueEnded,",
      "t.play:2:27: error: an empty notification at a comma; expected notifications such as 'entryChanged A -> B auto', 'queueEnded' or 'playIntent false remote', separated by commas, or 'none'"
    ),
    (
      "available fly",
      "t.play:2:18: error: unknown command 'fly'; expected one of next, pause, play, previous, seek, skip, stop, toggle, or 'none'"
    ),
    (
      "available next next",
      "t.play:2:23: error: command 'next' given twice; expected each command once"
    ),
  ])
  func aBadExpectationSaysWhereAndWhat(_ line: String, _ expected: String) {
    #expect(message("media A\nexpect \(line)") == expected)
  }

  /// The lock screen's toggle while buffering pauses; the second press plays,
  /// and the load is started once.
  @Test func theTableShowsRemoteRowsAndNotificationsUnderTheirStep() throws {
    let result = try run(
      """
      media A ready-after=500ms
      media B
      play A
      wait 100ms
      remote toggle
      wait 1s
      remote toggle
      remote next
      remote set-position B 1s
      set-position A 1s
      """)
    let table = TimelineTable(color: false)
    #expect(
      result.entries.flatMap { table.lines(.event($0)) } == [
        " 0.000s  user    play(A)                   idle → buffering(A#1, autoplay)                       load(A#1)",
        "          ↳ entryChanged(none -> A, queue)",
        " 0.100s  remote  remote(toggle)            buffering(A#1, autoplay) → buffering(A#1, paused)     —",
        "          ↳ playIntent(false, remote)",
        " 0.500s  engine  ready(A#1)                buffering(A#1, paused) → paused(A#1)                  —",
        " 1.100s  remote  remote(toggle)            paused(A#1) → playing(A#1)                            start(A#1)",
        "          ↳ playIntent(true, remote)",
        " 1.100s  remote  remote(next)              playing(A#1) → playing(A#1)                           no effect",
        " 1.100s  remote  remote(setPosition(B item4294967295, 1000ms)) playing(A#1) → playing(A#1)                           REFUSED: not the current entry",
        " 1.100s  user    setPosition(A item1, 1000ms) playing(A#1) → playing(A#1, seek#1)                   seek(A#1, 1000ms, seek#1)",
      ])
  }

  @Test func jsonRowsCarryNotificationsNowPlayingAndAvailable() throws {
    let result = try run(
      """
      media A ready-after=100ms
      media B ready-after=100ms
      queue A B
      rate 1.5
      wait 100ms
      remote pause
      remote next
      """)
    #expect(
      result.entries.map(\.json) == [
        #"{"t_ms":0,"source":"user","event":"queue(A B)","before":"idle","after":"buffering(A#1, autoplay)","commands":["load(A#1)"],"ignored":null,"backoff":null,"failure":null,"notifications":[{"kind":"entryChanged","from":null,"to":"A","reason":"queue"}],"now_playing":{"media":"A","elapsed_ms":0,"rate":0,"duration_ms":null,"index":1,"count":2,"is_live":false,"window_ms":null},"available":["next","pause","previous","seek","skip","stop","toggle"],"player":1,"sleep":null,"volume":1}"#,
        #"{"t_ms":0,"source":"user","event":"rate(1.5x)","before":"buffering(A#1, autoplay)","after":"buffering(A#1, autoplay)","commands":[],"ignored":null,"backoff":null,"failure":null,"notifications":[],"now_playing":{"media":"A","elapsed_ms":0,"rate":0,"duration_ms":null,"index":1,"count":2,"is_live":false,"window_ms":null},"available":["next","pause","previous","seek","skip","stop","toggle"],"player":1,"sleep":null,"volume":1}"#,
        #"{"t_ms":100,"source":"engine","event":"ready(A#1)","before":"buffering(A#1, autoplay)","after":"playing(A#1)","commands":["start(A#1, 1.5x)"],"ignored":null,"backoff":null,"failure":null,"notifications":[],"now_playing":{"media":"A","elapsed_ms":0,"rate":1.5,"duration_ms":null,"index":1,"count":2,"is_live":false,"window_ms":null},"available":["next","pause","previous","seek","skip","stop","toggle"],"player":1,"sleep":null,"volume":1}"#,
        #"{"t_ms":100,"source":"remote","event":"remote(pause)","before":"playing(A#1)","after":"paused(A#1)","commands":["pause(A#1)"],"ignored":null,"backoff":null,"failure":null,"notifications":[{"kind":"playIntentChanged","value":false,"reason":"remote"}],"now_playing":{"media":"A","elapsed_ms":0,"rate":0,"duration_ms":null,"index":1,"count":2,"is_live":false,"window_ms":null},"available":["next","play","previous","seek","skip","stop","toggle"],"player":1,"sleep":null,"volume":1}"#,
        #"{"t_ms":100,"source":"remote","event":"remote(next)","before":"paused(A#1)","after":"buffering(B#2, paused)","commands":["stop(A#1)","load(B#2)"],"ignored":null,"backoff":null,"failure":null,"notifications":[{"kind":"entryChanged","from":"A","to":"B","reason":"skip"}],"now_playing":{"media":"B","elapsed_ms":0,"rate":0,"duration_ms":null,"index":2,"count":2,"is_live":false,"window_ms":null},"available":["play","previous","seek","skip","stop","toggle"],"player":1,"sleep":null,"volume":1}"#,
      ])
    for line in result.entries.map(\.json) {
      let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
      #expect(
        object.map { Set($0.keys) } == [
          "t_ms", "source", "event", "before", "after", "commands", "ignored", "backoff", "failure",
          "notifications", "now_playing", "available", "player", "sleep", "volume",
        ])
    }
  }

  @Test func theQueuesEndAndAnIdleStateInJSON() throws {
    let result = try run(
      """
      media A ready-after=0ms duration=1s report-duration=yes
      play A
      wait 1s
      clear
      """)
    #expect(
      result.entries.map(\.json).suffix(2) == [
        #"{"t_ms":1000,"source":"engine","event":"ended(A#1)","before":"playing(A#1)","after":"ended(A#1, autoplay)","commands":[],"ignored":null,"backoff":null,"failure":null,"notifications":[{"kind":"queueEnded"}],"now_playing":{"media":"A","elapsed_ms":1000,"rate":0,"duration_ms":1000,"index":1,"count":1,"is_live":false,"window_ms":null},"available":["pause","play","previous","seek","skip","stop","toggle"],"player":1,"sleep":null,"volume":1}"#,
        #"{"t_ms":1000,"source":"user","event":"clear","before":"ended(A#1, autoplay)","after":"idle","commands":["stop(A#1)"],"ignored":null,"backoff":null,"failure":null,"notifications":[{"kind":"entryChanged","from":"A","to":null,"reason":"queue"}],"now_playing":null,"available":[],"player":1,"sleep":null,"volume":1}"#,
      ])
  }

  /// Media names with control characters are refused where declared; a
  /// library user's entry with one is escaped in the table and exact in JSON.
  @Test func aControlCharacterInAMediaNameNeverReachesTheTerminal() {
    let name = MediaID("A\u{1B}]0;owned\u{07}")
    let before = PlaybackState()
    let transition = before.transition(on: .remote(.play(name)))
    let entry = TimelineEntry(
      milliseconds: 0, source: .remote, event: .remote(.play(name)), before: before,
      after: transition.next, commands: Array(transition.commands), ignored: transition.ignored)
    let line = TimelineTable(color: false).notificationLine(entry)
    #expect(line == "          ↳ entryChanged(none -> A\\u{1b}]0;owned\\u{7}, queue)")
    #expect(
      entry.json.contains(
        #""notifications":[{"kind":"entryChanged","from":null,"to":"A\u001b]0;owned\u0007","reason":"queue"}],"now_playing":{"media":"A\u001b]0;owned\u0007","#
      ))
  }

  @Test func aFailedNowPlayingOrNotifiedExpectationSaysWhatWasFound() throws {
    let script = """
      media A ready-after=100ms
      queue A A
      wait 100ms
      expect now-playing A 2/2 at 0s rate 0 of 10s
      """
    let result = ScenarioRunner().run(try ScenarioParser.parse(script, file: "t.play"))
    #expect(
      result.failure?.description
        == "t.play:4:1: expect failed: expected now-playing A 2/2 at 0ms rate 0x of 10000ms; found now-playing A 1/2 at 0ms rate 1x of unknown"
    )
    let notified = ScenarioRunner().run(
      try ScenarioParser.parse(
        "media A\nplay A\nstop\nexpect notified entryChanged none -> A queue, queueEnded\n",
        file: "t.play"))
    #expect(
      notified.failure?.description
        == "t.play:4:1: expect failed: expected notified entryChanged(none -> A, queue), queueEnded; found notified entryChanged(none -> A, queue)"
    )
    let available = ScenarioRunner().run(
      try ScenarioParser.parse("media A\nexpect available play\n", file: "t.play"))
    #expect(
      available.failure?.description
        == "t.play:2:1: expect failed: expected available play; found available none")
  }

  /// `expect notified` is exact: a replay that ends again notifies the end
  /// again, and a line expecting one end fails on two, as a duplicated end
  /// would fail it (RNTP #1243).
  @Test func expectNotifiedIsExactSoTwiceFails() throws {
    let script = """
      media A ready-after=0ms duration=1s
      watchdog off
      play A
      wait 1s
      resume
      wait 2s
      expect notified entryChanged none -> A queue, queueEnded
      """
    let result = ScenarioRunner().run(try ScenarioParser.parse(script, file: "t.play"))
    #expect(
      result.failure?.description
        == "t.play:7:1: expect failed: expected notified entryChanged(none -> A, queue), queueEnded; found notified entryChanged(none -> A, queue), queueEnded, queueEnded"
    )
  }

  @Test func theCLIPrintsTheNotificationLineAndExitsTwoOnABadSkip() throws {
    let output = try CLI.run(
      ["run", "-"],
      input:
        "media A duration=1s\nqueue A A\nwait 10s\nexpect notified entryChanged none -> A queue, entryChanged A -> A auto, queueEnded\n"
    )
    #expect(output.status == 0, "\(output.stderr)")
    #expect(output.lines.contains("          ↳ entryChanged(A -> A, auto)"))
    #expect(output.lines.contains("          ↳ queueEnded"))
    let bad = try CLI.run(["run", "-"], input: "media A\nremote skip 15\n")
    #expect(bad.status == 2)
    #expect(
      bad.stderr
        == "<stdin>:2:13: error: found '15' without a sign; expected a signed time such as +15s or -10s (+ skips forward, - back)\n"
    )
  }
}
