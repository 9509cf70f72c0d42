import Foundation
import PlayerEngine
import PlayerSimulation
import PlayerState
import Testing

/// Issue 24 in scripts: the `relaunch` and `handoff` lines, their rows in the
/// table and in JSON, the rows of a player that handed off, and the fake
/// engine a relaunch discards.
@Suite struct RelaunchHandoffTests: ParsesScenarios {
  /// Runs `script`, which must pass, and returns every item it showed.
  private func items(_ script: String) throws -> [TimelineItem] {
    var items: [TimelineItem] = []
    let result = ScenarioRunner().run(try ScenarioParser.parse(script, file: "t.play")) {
      items.append($0)
    }
    #expect(result.failure == nil, "\(result.failure.map(String.init(describing:)) ?? "")")
    return items
  }

  /// The table's lines for `items`, without colour.
  private func table(_ items: [TimelineItem]) -> [String] {
    let table = TimelineTable(color: false)
    return items.flatMap { table.lines($0) }
  }

  @Test func theLinesParse() throws {
    #expect(
      try parse("media A\nplay A\nrelaunch\nhandoff   # to a speaker\n").dropFirst(2)
        == [.relaunch, .handoff])
  }

  @Test(arguments: [
    (
      "relaunch now",
      "t.play:2:10: error: unexpected 'now' after 'relaunch'; expected end of line (a comment starts with ' #')"
    ),
    (
      "handoff B",
      "t.play:2:9: error: unexpected 'B' after 'handoff'; expected end of line (a comment starts with ' #')"
    ),
    (
      "remote relaunch",
      "t.play:2:8: error: found 'relaunch' after 'remote'; expected an intent after 'remote', as in 'remote toggle': one of play, queue, append, insert, remove, move, jump, next, previous, repeat, shuffle, rate, volume, mute, unmute, clear, pause, resume, stop, seek, retry, toggle, skip, set-position, go-live"
    ),
    (
      "handoff\nengine preload=yes",
      "t.play:3:1: error: 'engine' after the run started; expected setup lines (engine, previous-threshold, retry-policy) before the first intent, wait, report or system event"
    ),
    (
      "relaunched",
      "t.play:2:1: error: unknown action 'relaunched'; expected one of media, engine, previous-threshold, retry-policy, ducking, fade, crossfade, hostile, watchdog, play, queue, append, insert, remove, move, jump, next, previous, repeat, shuffle, rate, volume, mute, unmute, clear, pause, resume, stop, seek, retry, toggle, skip, set-position, go-live, sleep-timer, remote, interrupt, route, network, duck, unduck, relaunch, handoff, wait, report, expect, note"
    ),
  ])
  func aBadLineSaysWhereAndWhat(_ line: String, _ expected: String) {
    #expect(message("media A\n\(line)") == expected)
  }

  /// The first engine's `ready` is due at 1 s; the relaunch at 0.5 s
  /// discards the engine, so it reaches nobody, and the restored player
  /// loads only when the user resumes.
  @Test func aRelaunchDropsTheOldEnginesCallbacksAndSaysSo() throws {
    let items = try items(
      """
      media A ready-after=1s
      hostile on duplicate=0% reentrant=0%
      watchdog off
      play A
      wait 500ms
      relaunch
      wait 1s
      resume
      """)
    #expect(
      table(items) == [
        " 0.000s  user    play(A)                   idle → buffering(A#1, autoplay)                       load(A#1)",
        "          ↳ entryChanged(none -> A, queue)",
        " 0.500s  system  relaunch                  buffering(A#1, autoplay) → idle                       player 2 on engine 2; engine 1 discarded, pending callbacks of A#1 dropped",
        " 1.500s  user    resume                    idle → buffering(A#1, autoplay)                       load(A#1)",
        "          ↳ playIntent(true, user)",
      ])
    guard case .playerChange(let change) = items[1] else {
      Issue.record("not a player change: \(items[1])")
      return
    }
    #expect(
      change.json
        == #"{"t_ms":500,"source":"system","event":"relaunch","before":"buffering(A#1, autoplay)","after":"idle","commands":[],"ignored":null,"backoff":null,"failure":null,"notifications":[],"now_playing":{"media":"A","elapsed_ms":0,"rate":0,"duration_ms":null,"index":1,"count":1,"is_live":false,"window_ms":null},"available":["play","toggle"],"player":2,"sleep":null,"volume":1,"dropped":[{"engine":1,"load":"A#1"}]}"#
    )
    #expect(
      change.description
        == "0.500s system relaunch: buffering(A#1, autoplay) -> idle; player 2 on engine 2; engine 1 discarded, pending callbacks of A#1 dropped"
    )
    let json = try JSONSerialization.jsonObject(with: Data(change.json.utf8)) as? [String: Any]
    #expect(json?["player"] as? Int == 2)
    guard case .event(let resume) = items[2] else {
      Issue.record("not an event: \(items[2])")
      return
    }
    #expect(resume.player == 2)
    #expect(!resume.isRetired)
  }

  /// The old player's own timers (its buffering watchdog, due at 1 s) fire
  /// into nothing after a relaunch: only the new player's steps show.
  @Test func theOldPlayersTimersReachNobody() throws {
    let items = try items(
      """
      media A ready-after=3s
      watchdog 1s
      play A
      wait 500ms
      relaunch
      wait 10s
      expect state idle
      """)
    #expect(
      table(items) == [
        " 0.000s  user    play(A)                   idle → buffering(A#1, autoplay)                       load(A#1)",
        "          ↳ entryChanged(none -> A, queue)",
        " 0.500s  system  relaunch                  buffering(A#1, autoplay) → idle                       player 2 on engine 2; engine 1 discarded, pending callbacks of A#1 dropped",
        "          ✓ line 7: expect state idle",
      ])
  }

  /// A relaunch after a hand-off discards both engines; each dropped load
  /// is named with its engine. With nothing pending it says so.
  @Test func aRelaunchNamesEveryEngineItDiscards() throws {
    let items = try items(
      """
      media A duration=30s
      hostile on duplicate=0% reentrant=0%
      play A
      wait 1s
      handoff
      wait 1s
      relaunch
      relaunch
      """)
    let changes = items.compactMap { item -> PlayerChange? in
      if case .playerChange(let change) = item { return change }
      return nil
    }
    #expect(
      changes.map(\.summary) == [
        "player 2 on engine 2; engine 1 stopped, its late callbacks go to player 1 only",
        "player 3 on engine 3; engines 1, 2 discarded, pending callbacks of A#1 of engine 1, A#1 of engine 2 dropped",
        "player 4 on engine 4; engine 3 discarded, no callback pending",
      ])
    #expect(changes.map(\.kind) == [.handoff, .relaunch, .relaunch])
    #expect(changes.map(\.discarded) == [[], [1, 2], [3]])
    #expect(
      changes[1].json.hasSuffix(
        #""player":3,"sleep":null,"volume":1,"dropped":[{"engine":1,"load":"A#1"},{"engine":2,"load":"A#1"}]}"#
      ))
  }

  /// The hand-off's own steps come from the system; the first player's are
  /// marked, and its engine's late end goes to it only, which ignores it.
  @Test func aHandoffShowsTheFirstPlayersLateCallbacks() throws {
    let items = try items(
      """
      media A ready-after=500ms duration=2s
      hostile on duplicate=0% reentrant=0%
      watchdog off
      play A
      wait 1s
      handoff
      wait 2s
      """)
    #expect(
      table(items) == [
        " 0.000s  user    play(A)                   idle → buffering(A#1, autoplay)                       load(A#1)",
        "          ↳ entryChanged(none -> A, queue)",
        " 0.500s  engine  ready(A#1)                buffering(A#1, autoplay) → playing(A#1)               start(A#1)",
        " 1.000s  system  handoff                   playing(A#1) → buffering(A#1, autoplay)               player 2 on engine 2; engine 1 stopped, its late callbacks go to player 1 only",
        " 1.000s  system  stop                      playing(A#1) → idle                                   stop(A#1) {player 1, handed off}",
        " 1.000s  system  resume                    idle → buffering(A#1, autoplay)                       load(A#1)",
        "          ↳ playIntent(true, user)",
        " 1.500s  engine  ready(A#1)                buffering(A#1, autoplay) → playing(A#1)               start(A#1)",
        " 2.500s  engine  ended(A#1)                idle → idle                                           IGNORED: stale load token {player 1, handed off}",
      ])
    let entries = items.compactMap { item -> TimelineEntry? in
      if case .event(let entry) = item { return entry }
      return nil
    }
    #expect(entries.map(\.player) == [1, 1, 1, 2, 2, 1])
    #expect(entries.map(\.isRetired) == [false, false, true, false, false, true])
    #expect(
      entries.last?.description
        == "2.500s engine ended(A#1): idle -> idle (ignored: stale load token) {player 1, handed off}"
    )
    #expect(
      entries.last?.json
        == #"{"t_ms":2500,"source":"engine","event":"ended(A#1)","before":"idle","after":"idle","commands":[],"ignored":"staleLoad","backoff":null,"failure":null,"notifications":[],"now_playing":{"media":"A","elapsed_ms":0,"rate":0,"duration_ms":null,"index":1,"count":1,"is_live":false,"window_ms":null},"available":["play","toggle"],"player":1,"sleep":null,"volume":1}"#
    )
    guard case .playerChange(let change) = items[2] else {
      Issue.record("not a player change: \(items[2])")
      return
    }
    #expect(
      change.json
        == #"{"t_ms":1000,"source":"system","event":"handoff","before":"playing(A#1)","after":"buffering(A#1, autoplay)","commands":[],"ignored":null,"backoff":null,"failure":null,"notifications":[],"now_playing":{"media":"A","elapsed_ms":0,"rate":0,"duration_ms":null,"index":1,"count":1,"is_live":false,"window_ms":null},"available":["pause","previous","seek","skip","stop","toggle"],"player":2,"sleep":null,"volume":1,"dropped":[]}"#
    )
  }

  /// The result's commands are every engine's, in the order sent; the
  /// final state is the newest player's.
  @Test func theResultHoldsEveryEnginesCommands() throws {
    let script = """
      media A ready-after=100ms
      watchdog off
      play A
      wait 200ms
      report position A#1 3s
      handoff
      wait 200ms
      relaunch
      resume
      """
    let result = ScenarioRunner().run(try ScenarioParser.parse(script, file: "t.play"))
    #expect(result.failure == nil)
    let named = result.commands.map { $0.description(naming: { _ in "A" }) }
    #expect(
      named == [
        "load(A#1)", "start(A#1)", "stop(A#1)", "load(A#1, from 3000ms)", "start(A#1)",
        "load(A#1, from 3000ms)",
      ])
    #expect(result.finalState.description == "buffering(A#1, autoplay)")
  }

  /// A hand-off paused stays paused on the new engine; a relaunch restores
  /// the queue paused, and a `hostile` line after it applies to the new engine.
  @Test func theNewEngineKeepsTheProfilesAndStartsWellBehaved() throws {
    let script = """
      media A ready-after=700ms duration=1m
      media B ready-after=100ms
      queue A B
      wait 1s
      pause
      handoff
      expect state buffering(A#1, paused)
      wait 600ms
      expect state buffering(A#1, paused)   # A's profile on engine 2: ready after 700 ms
      wait 100ms
      expect state paused(A#1)
      relaunch
      expect queue A* B
      next
      resume
      wait 100ms
      expect state playing(B#1)             # B's profile on engine 3
      """
    let result = ScenarioRunner().run(try ScenarioParser.parse(script, file: "t.play"))
    #expect(result.failure == nil, "\(result.failure.map(String.init(describing:)) ?? "")")
  }

  /// An expectation after a relaunch that does not hold names the line, as any other.
  @Test func aFailingExpectationAfterARelaunchSaysWhatWasFound() throws {
    let script = "media A\nplay A\nwait 1s\nrelaunch\nexpect state playing\n"
    let result = ScenarioRunner().run(try ScenarioParser.parse(script, file: "t.play"))
    #expect(
      result.failure?.description
        == "t.play:5:1: expect failed: expected state playing; found state idle")
  }

  /// The engine a relaunch discards: its loads' pending reports reach
  /// nobody, and a command sent to it afterwards does nothing.
  @Test func aDiscardedEngineSendsNothingMore() {
    let clock = VirtualClock()
    let engine = FakeMediaEngine(clock: clock)
    let steps = StepLog()
    let player = Player(engine: engine) { steps.append($0.event.description) }
    player.send(.play("A"))
    #expect(engine.discard() == [Load(1, 1)])
    #expect(engine.isDiscarded)
    #expect(engine.discard() == [])
    clock.advance(by: .seconds(20))
    #expect(steps.events == ["play(A)"])
    player.send(.stop)
    player.send(.play("B"))
    clock.advance(by: .seconds(20))
    #expect(steps.events == ["play(A)", "stop", "play(B)"])
    #expect(
      engine.commands.map(\.description) == [
        "load(A#1)", "stop(item1#1)", "load(B#2)",
      ])
  }

  @Test func theCLIPrintsTheRelaunchRowInJSON() throws {
    let output = try CLI.run(
      ["run", "--json", "-"], input: "media A\nplay A\nrelaunch\nexpect state idle\n")
    #expect(output.status == 0, "\(output.stderr)")
    #expect(
      output.lines.dropFirst().first
        == #"{"t_ms":0,"source":"system","event":"relaunch","before":"buffering(A#1, autoplay)","after":"idle","commands":[],"ignored":null,"backoff":null,"failure":null,"notifications":[],"now_playing":{"media":"A","elapsed_ms":0,"rate":0,"duration_ms":null,"index":1,"count":1,"is_live":false,"window_ms":null},"available":["play","toggle"],"player":2,"sleep":null,"volume":1,"dropped":[{"engine":1,"load":"A#1"}]}"#
    )
  }
}

/// The events a player processed, in order, from any thread.
private final class StepLog: Sendable {
  private let lock = Locked<[String]>([])
  func append(_ event: String) { lock.withLock { $0.append(event) } }
  var events: [String] { lock.withLock { $0 } }
}
