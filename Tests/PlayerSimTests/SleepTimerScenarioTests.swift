import Foundation
import PlayerSimulation
import PlayerState
import Testing

/// Issue 24 in scripts: the `sleep-timer` line, its countdown on the virtual
/// clock, its rows (source `system` for the expiry, `+sleep(…)` where it is
/// armed, `sleep` in JSON), the `sleep …` detail of an exact state, and what
/// a relaunch and a hand-off do to it.
@Suite struct SleepTimerScenarioTests: ParsesScenarios {
  private func run(_ script: String) throws -> ScenarioResult {
    let result = ScenarioRunner().run(try ScenarioParser.parse(script, file: "t.play"))
    #expect(result.failure == nil, "\(result.failure.map(String.init(describing:)) ?? "")")
    return result
  }

  @Test func everySpellingParses() throws {
    let actions = try parse(
      """
      media A
      sleep-timer 30m
      sleep-timer 1.5h
      sleep-timer 250ms
      sleep-timer end-of-entry
      sleep-timer end-of-queue
      sleep-timer entries=3
      sleep-timer entries=1   # the same as end-of-entry, counted
      sleep-timer off
      expect state playing(A#1, sleep after(30m))
      expect state paused(A#1, seek#2, sleep endOfEntry, preloaded A#3)
      expect state ended(A#1, sleep afterEntries(2))
      wait until playing(A#1, sleep endOfQueue)
      """)
    #expect(
      Array(actions.dropFirst()) == [
        .intent(.setSleepTimer(.after(.milliseconds(1_800_000)))),
        .intent(.setSleepTimer(.after(.milliseconds(5_400_000)))),
        .intent(.setSleepTimer(.after(.milliseconds(250)))),
        .intent(.setSleepTimer(.endOfEntry)),
        .intent(.setSleepTimer(.endOfQueue)),
        .intent(.setSleepTimer(.afterEntries(3))),
        .intent(.setSleepTimer(.afterEntries(1))),
        .intent(.setSleepTimer(nil)),
        .expectState(.exactly("playing(A#1, sleep after(30m))")),
        .expectState(.exactly("paused(A#1, seek#2, sleep endOfEntry, preloaded A#3)")),
        .expectState(.exactly("ended(A#1, sleep afterEntries(2))")),
        .waitUntil(.exactly("playing(A#1, sleep endOfQueue)"), within: .seconds(60)),
      ])
  }

  @Test(arguments: [
    (
      "sleep-timer",
      "t.play:2:12: error: found end of line; expected a time such as 30m, end-of-entry, end-of-queue, entries=N or off"
    ),
    ("sleep-timer 0s", "t.play:2:13: error: time '0s'; expected a time above 0ms"),
    (
      "sleep-timer 0",
      "t.play:2:13: error: bad time '0'; expected a time in ms, s, m or h, such as 250ms, 1.5s, 3m or 1h"
    ),
    (
      "sleep-timer -5s",
      "t.play:2:13: error: a negative time '-5s'; expected a time such as 30m, end-of-entry, end-of-queue, entries=N or off"
    ),
    (
      "sleep-timer entries=0",
      "t.play:2:21: error: entries=0; expected a number of entries from 1 (entries=1 stops at the end of the current one)"
    ),
    (
      "sleep-timer entries=x",
      "t.play:2:21: error: bad number 'x'; expected a number of entries: a whole number such as 1"
    ),
    (
      "sleep-timer entries=4294967296",
      "t.play:2:21: error: number '4294967296' too large; expected a number of entries of at most 4294967295"
    ),
    (
      "sleep-timer count=2",
      "t.play:2:13: error: unknown option 'count' for 'sleep-timer'; expected entries=N, as in 'sleep-timer entries=2'"
    ),
    (
      "sleep-timer soon",
      "t.play:2:13: error: unknown sleep timer 'soon'; expected a time such as 30m, end-of-entry, end-of-queue, entries=N or off"
    ),
    (
      "sleep-timer End-of-entry",
      "t.play:2:13: error: unknown sleep timer 'End-of-entry'; expected a time such as 30m, end-of-entry, end-of-queue, entries=N or off"
    ),
    (
      "sleep-timer 30",
      "t.play:2:13: error: bad time '30'; expected a time in ms, s, m or h, such as 250ms, 1.5s, 3m or 1h"
    ),
    (
      "sleep-timer 278h",
      "t.play:2:13: error: time '278h' too large; expected at most 1000000s"
    ),
    (
      "sleep-timer 30m now",
      "t.play:2:17: error: unexpected 'now' after 'sleep-timer'; expected end of line (a comment starts with ' #')"
    ),
    (
      "remote sleep-timer 30m",
      "t.play:2:8: error: found 'sleep-timer' after 'remote'; expected an intent after 'remote', as in 'remote toggle': one of play, queue, append, insert, remove, move, jump, next, previous, repeat, shuffle, rate, volume, mute, unmute, clear, pause, resume, stop, seek, retry, toggle, skip, set-position, go-live"
    ),
    (
      "expect state playing(A#1, sleep tomorrow)",
      "t.play:2:33: error: unknown sleep timer 'tomorrow'; expected after(TIME), endOfEntry, endOfQueue or afterEntries(N) after 'sleep', as in sleep after(30m)"
    ),
    (
      "expect state playing(A#1, sleep)",
      "t.play:2:32: error: 'sleep' alone; expected after(TIME), endOfEntry, endOfQueue or afterEntries(N) after 'sleep', as in sleep after(30m)"
    ),
    (
      "expect state playing(A#1, sleep after(0s))",
      "t.play:2:39: error: time '0s'; expected a time above 0ms"
    ),
    (
      "expect state playing(A#1, sleep afterEntries(0))",
      "t.play:2:46: error: afterEntries(0); expected a number of entries from 1"
    ),
    (
      "expect state playing(A#1, sleep endOfEntry, seek#1)",
      "t.play:2:45: error: 'seek#1' in a playing state; expected preloading P, preloaded P, preload failed P, preload live P, crossfade from L or ')'"
    ),
    (
      "expect state playing(A#1, zzz)",
      "t.play:2:27: error: 'zzz' in a playing state; expected seek#N (a pending seek), sleep TIMER (the armed sleep timer), preloading P, preloaded P, preload failed P, preload live P, crossfade from L or ')'"
    ),
  ])
  func aBadLineSaysWhereAndWhat(_ line: String, _ expected: String) {
    #expect(message("media A\n\(line)") == expected)
  }

  /// `sleep-timer 30s`, then `wait 31s`: the countdown runs on the virtual
  /// clock and its expiry, source `system`, pauses at 30 s, as a user pause
  /// would, notified with reason `sleepTimer`.
  @Test func aCountdownPausesOnTheVirtualClock() throws {
    let result = try run(
      """
      media A duration=1h
      watchdog off
      play A
      wait 1s
      sleep-timer 30s
      wait 31s
      expect state paused(A#1)
      expect notified entryChanged none -> A queue, playIntent false sleepTimer
      """)
    let table = TimelineTable(color: false)
    #expect(
      result.entries.flatMap { table.lines(.event($0)) }.suffix(3) == [
        " 1.000s  user    sleepTimer(after(30000ms)) playing(A#1) → playing(A#1, sleep after(30000ms))     +sleep(sleep#1, 30000ms)",
        "31.000s  system  sleepTimer(expired, sleep#1) playing(A#1, sleep after(30000ms)) → paused(A#1)      pause(A#1)",
        "          ↳ playIntent(false, sleepTimer)",
      ])
    #expect(
      result.entries.suffix(2).map(\.json) == [
        #"{"t_ms":1000,"source":"user","event":"sleepTimer(after(30000ms))","before":"playing(A#1)","after":"playing(A#1, sleep after(30000ms))","commands":[],"ignored":null,"backoff":null,"failure":null,"notifications":[],"now_playing":{"media":"A","elapsed_ms":0,"rate":1,"duration_ms":null,"index":1,"count":1,"is_live":false,"window_ms":null},"available":["pause","previous","seek","skip","stop","toggle"],"player":1,"sleep":"sleep(sleep#1, 30000ms)","volume":1}"#,
        #"{"t_ms":31000,"source":"system","event":"sleepTimer(expired, sleep#1)","before":"playing(A#1, sleep after(30000ms))","after":"paused(A#1)","commands":["pause(A#1)"],"ignored":null,"backoff":null,"failure":null,"notifications":[{"kind":"playIntentChanged","value":false,"reason":"sleepTimer"}],"now_playing":{"media":"A","elapsed_ms":0,"rate":0,"duration_ms":null,"index":1,"count":1,"is_live":false,"window_ms":null},"available":["play","previous","seek","skip","stop","toggle"],"player":1,"sleep":null,"volume":1}"#,
      ])
    #expect(
      result.entries[2].description
        == "1.000s user sleepTimer(after(30000ms)): playing(A#1) -> playing(A#1, sleep after(30000ms)) +sleep(sleep#1, 30000ms)"
    )
    #expect(result.entries.last?.source == .system)
  }

  /// Not a moment early: at 29.999 s it still plays.
  @Test func aCountdownWaitsItsWholeTime() throws {
    _ = try run(
      """
      media A duration=1h
      watchdog off
      play A
      sleep-timer 1.5m
      wait 89.999s
      expect state playing(A#1, sleep after(90s))   # 90s is 90000ms, as the state prints it
      wait 1ms
      expect state paused(A#1)
      """)
  }

  /// `entries=2` lets the first end advance as usual and stops at the
  /// second: the next entry is current and not loaded.
  @Test func entriesCountsNaturalEnds() throws {
    let result = try run(
      """
      media A duration=10s
      media B duration=10s
      media C duration=10s
      watchdog off
      queue A B C
      sleep-timer entries=2
      wait 10.2s
      expect state buffering(B#2, autoplay, sleep afterEntries(1))
      wait 10.2s
      expect state idle
      expect queue A B C*
      expect commands load(A#1) start(A#1) stop(A#1) load(B#2) start(B#2) stop(B#2)
      """)
    #expect(
      result.entries.last?.description
        == "20.400s engine ended(B#2): playing(B#2, sleep afterEntries(1)) -> idle [stop(B#2)]")
  }

  /// A relaunched player has no sleep timer, and the old player's countdown
  /// fires into nothing; a countdown does not move with a hand-off: the
  /// first player's reaches only it, disarmed by the hand-off's stop: ignored.
  @Test func relaunchAndHandoffDoNotCarryTheTimer() throws {
    let result = try run(
      """
      media A duration=1h
      watchdog off
      play A
      wait 1s
      sleep-timer 30s
      wait 1s
      handoff
      wait 29s
      expect state playing(A#1)
      expect ignored staleWatchdog
      sleep-timer 10s
      relaunch
      resume
      wait 11s
      expect state playing(A#1)
      expect ignored none
      """)
    let expiries = result.entries.filter {
      if case .system(.sleepTimerExpired) = $0.event { return true }
      return false
    }
    #expect(
      expiries.map(\.description) == [
        "31.000s system sleepTimer(expired, sleep#1): idle -> idle (ignored: stale watchdog) {player 1, handed off}"
      ])
  }

  /// A stop at an entry's end moves with a hand-off (re-armed on the new
  /// player, a step of the hand-off's own), so the new engine, which
  /// preloads, is sent no preload and stops at the entry's end.
  @Test func aHandoffMovesAStopAtAnEntrysEnd() throws {
    let result = try run(
      """
      engine preload=yes
      media A duration=10s
      media B duration=10s
      watchdog off
      queue A B
      wait 1s
      sleep-timer end-of-entry
      expect commands load(A#1) start(A#1) preload(B#2) stop(B#2)
      handoff
      expect state buffering(A#1, autoplay, sleep endOfEntry)
      wait 11s
      expect state idle
      expect queue A B*
      expect commands stop(A#1) load(A#1) start(A#1) stop(A#1)
      """)
    #expect(
      result.entries.filter { $0.player == 2 }.map(\.description) == [
        "1.000s system sleepTimer(endOfEntry): idle -> idle",
        "1.000s system resume: idle -> buffering(A#1, autoplay, sleep endOfEntry) [load(A#1)]",
        "1.200s engine ready(A#1): buffering(A#1, autoplay, sleep endOfEntry) -> playing(A#1, sleep endOfEntry) [start(A#1)]",
        "11.200s engine ended(A#1): playing(A#1, sleep endOfEntry) -> idle [stop(A#1)]",
      ])
  }

  /// An exact state's sleep countdown is compared as its milliseconds,
  /// whatever unit the script wrote.
  @Test func anExactStateComparesTheCountdownInMilliseconds() throws {
    _ = try run(
      """
      media A duration=3h
      watchdog off
      play A
      sleep-timer 1.5h
      wait 1s
      expect state playing(A#1, sleep after(1.5h))
      expect state playing(A#1,sleep after(90m))
      expect state playing(A#1, sleep after(5400000ms))
      """)
    let failed = ScenarioRunner().run(
      try ScenarioParser.parse(
        "media A\nplay A\nsleep-timer 1h\nwait 1s\nexpect state playing(A#1, sleep after(59m))\n",
        file: "t.play"))
    #expect(
      failed.failure?.description
        == "t.play:5:1: expect failed: expected state playing(A#1, sleep after(59m)); found state playing(A#1, sleep after(3600000ms))"
    )
  }

  @Test func theCLIRunsASleepTimerAndCountsAStaleExpiry() throws {
    let output = try CLI.run(
      ["run", "-"],
      input:
        "media A duration=1h\nwatchdog off\nplay A\nsleep-timer 10s\nsleep-timer off\nwait 11s\nexpect state playing(A#1)\n"
    )
    #expect(output.status == 0, "\(output.stderr)")
    #expect(
      output.lines.contains(
        "10.000s  system  sleepTimer(expired, sleep#1) playing(A#1) → playing(A#1)                           IGNORED: stale watchdog"
      ))
    #expect(
      output.lines.contains(
        "✓ <stdin>: 1 expectation held; 5 events, 1 late or stray report ignored; ends in playing(A#1)"
      ))
  }
}
