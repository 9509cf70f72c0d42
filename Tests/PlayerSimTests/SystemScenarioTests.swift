import Foundation
import PlayerSimulation
import PlayerState
import Testing

/// Issue 10 in scripts: the system's lines, retry policies, failure details
/// with quoted messages, the new state forms, and the fake network.
@Suite struct SystemScenarioTests: ParsesScenarios {
  private func run(_ script: String) throws -> ScenarioResult {
    let result = ScenarioRunner().run(try ScenarioParser.parse(script, file: "t.play"))
    #expect(result.failure == nil, "\(result.failure.map(String.init(describing:)) ?? "")")
    return result
  }

  @Test func everySystemSpellingParses() throws {
    let text = """
      retry-policy attempts=3 backoff=1s max=30s
      media A network-drop-at=2s network-back-after=5s
      interrupt begin
      interrupt end
      interrupt end resume
      route lost
      network lost
      network available
      report paused-by-system A#1
      report failed A#1 reason=network domain=NSURLErrorDomain code=-1009 message="offline"
      report failed A#1 reason=decoding domain=AVFoundationErrorDomain code=-11800
      report failed A#1
      expect state suppressed(A#1, interrupted)
      expect state suppressed(A#1, system pause)
      expect state waiting(A#2, network, attempt 1, autoplay)
      expect state waiting(A#2, network, attempt 3, autoplay, interrupted)
      expect state buffering(A#1, autoplay, interrupted)
      expect state paused(A#1, system pause)
      expect state failed(A#1, network, autoplay, interrupted)
      expect ignored notInterrupted
      """
    #expect(
      try parse(text) == [
        .retryPolicy(
          RetryPolicy(attempts: 3, backoff: .seconds(1), maximumBackoff: .seconds(30))),
        .media("A", MediaProfile(networkDropAt: .seconds(2), networkBackAfter: .seconds(5))),
        .system(.interruptionBegan),
        .system(.interruptionEnded(shouldResume: false)),
        .system(.interruptionEnded(shouldResume: true)),
        .system(.routeLost),
        .system(.networkLost),
        .system(.networkAvailable),
        .inject(ScenarioReport(.pausedBySystem, LoadName("A", 1))),
        .inject(
          ScenarioReport(
            .failed(
              .network,
              detail: FailureDetail(domain: "NSURLErrorDomain", code: -1009, message: "offline")),
            LoadName("A", 1))),
        .inject(
          ScenarioReport(
            .failed(
              .decoding,
              detail: FailureDetail(domain: "AVFoundationErrorDomain", code: -11800, message: "")),
            LoadName("A", 1))),
        .inject(ScenarioReport(.failed(.network), LoadName("A", 1))),
        .expectState(.exactly("suppressed(A#1, interrupted)")),
        .expectState(.exactly("suppressed(A#1, system pause)")),
        .expectState(.exactly("waiting(A#2, network, attempt 1, autoplay)")),
        .expectState(.exactly("waiting(A#2, network, attempt 3, autoplay, interrupted)")),
        .expectState(.exactly("buffering(A#1, autoplay, interrupted)")),
        .expectState(.exactly("paused(A#1, system pause)")),
        .expectState(.exactly("failed(A#1, network, autoplay, interrupted)")),
        .expectIgnored([.notInterrupted]),
      ])
  }

  @Test func retryPolicyOffAndPartialPolicies() throws {
    #expect(try parse("retry-policy off") == [.retryPolicy(.off)])
    // One of backoff= and max= alone moves the other to fit.
    #expect(
      try parse("retry-policy max=500ms") == [
        .retryPolicy(
          RetryPolicy(attempts: 3, backoff: .milliseconds(500), maximumBackoff: .milliseconds(500)))
      ])
    #expect(
      try parse("retry-policy backoff=1m") == [
        .retryPolicy(
          RetryPolicy(attempts: 3, backoff: .seconds(60), maximumBackoff: .seconds(60)))
      ])
    #expect(
      try parse("retry-policy attempts=0") == [
        .retryPolicy(RetryPolicy(attempts: 0, backoff: .seconds(1), maximumBackoff: .seconds(30)))
      ])
  }

  @Test func quotedMessagesKeepSpacesHashesAndEscapes() throws {
    let text = #"""
      media A
      report failed A#1 domain=X code=7 message="no route # to \"host\"\\ \n\tend"  # a comment
      report failed A#1 domain=X code=0 message=""
      note a "quote that # is not one
      """#
    let actions = try parse(text)
    #expect(
      actions[1]
        == .inject(
          ScenarioReport(
            .failed(
              .network,
              detail: FailureDetail(
                domain: "X", code: 7, message: "no route # to \"host\"\\ \n\tend")),
            LoadName("A", 1))))
    #expect(
      actions[2]
        == .inject(
          ScenarioReport(
            .failed(.network, detail: FailureDetail(domain: "X", code: 0, message: "")),
            LoadName("A", 1))))
    // On a note line a quote is plain text, and `#` after a space starts a comment.
    #expect(actions[3] == .note(#"a "quote that"#))
    // A message of exactly 200 characters is accepted.
    let longest = String(repeating: "é", count: 200)
    #expect(
      try parse("media A\nreport failed A#1 domain=X code=1 message=\"\(longest)\"")[1]
        == .inject(
          ScenarioReport(
            .failed(.network, detail: FailureDetail(domain: "X", code: 1, message: longest)),
            LoadName("A", 1))))
    #expect(
      try parse("media A\nreport failed A#1 domain=X code=-9223372036854775808")[1]
        == .inject(
          ScenarioReport(
            .failed(.network, detail: FailureDetail(domain: "X", code: Int.min, message: "")),
            LoadName("A", 1))))
  }

  @Test(arguments: [
    (
      "interrupt",
      "t.play:1:10: error: found end of line; expected 'begin' or 'end'"
    ),
    (
      "interrupt start",
      "t.play:1:11: error: found 'start'; expected 'begin' or 'end'"
    ),
    (
      "interrupt end now",
      "t.play:1:15: error: found 'now'; expected 'resume' (the system's hint that playback may resume) or end of line"
    ),
    (
      "interrupt begin resume",
      "t.play:1:17: error: unexpected 'resume' after 'interrupt'; expected end of line (a comment starts with ' #')"
    ),
    (
      "route",
      "t.play:1:6: error: found end of line; expected 'lost'"
    ),
    (
      "route found",
      "t.play:1:7: error: found 'found'; expected 'lost' (the output went away, as when headphones are unplugged)"
    ),
    (
      "network gone",
      "t.play:1:9: error: found 'gone'; expected 'lost' or 'available'"
    ),
    (
      "network lost now",
      "t.play:1:14: error: unexpected 'now' after 'network'; expected end of line (a comment starts with ' #')"
    ),
    (
      "retry-policy",
      "t.play:1:13: error: found end of line; expected attempts=N backoff=TIME max=TIME, or 'off'"
    ),
    (
      "retry-policy attempts=256",
      "t.play:1:23: error: number '256' too large; expected a number of reloads of at most 255"
    ),
    (
      "retry-policy attempts=x",
      "t.play:1:23: error: bad number 'x'; expected a number of reloads: a whole number such as 1"
    ),
    (
      "retry-policy backoff=0s",
      "t.play:1:22: error: time '0s'; expected a time above 0ms"
    ),
    (
      "retry-policy backoff=2s max=1s",
      "t.play:1:29: error: max=1s below backoff=2s; expected a longest backoff (max=) at least the first one (backoff=)"
    ),
    (
      "retry-policy tries=3",
      "t.play:1:14: error: unknown option 'tries' for 'retry-policy'; expected attempts=…, backoff=…, max=…"
    ),
    (
      "retry-policy off now",
      "t.play:1:18: error: unexpected 'now' after 'retry-policy'; expected end of line (a comment starts with ' #')"
    ),
    (
      "retry-policy attempts=3 attempts=4",
      "t.play:1:25: error: option 'attempts' given twice; expected each option once"
    ),
    (
      "media A\nplay A\nretry-policy off",
      "t.play:3:1: error: 'retry-policy' after the run started; expected setup lines (engine, previous-threshold, retry-policy) before the first intent, wait, report or system event"
    ),
    (
      "retry-policy off\nretry-policy off",
      "t.play:2:1: error: a second 'retry-policy' line; expected each setup line once"
    ),
    (
      "interrupt begin\nretry-policy off",
      "t.play:2:1: error: 'retry-policy' after the run started; expected setup lines (engine, previous-threshold, retry-policy) before the first intent, wait, report or system event"
    ),
    (
      "media A\nreport paused-by-system A#1 now",
      "t.play:2:29: error: found 'now'; expected the end of the line ('paused-by-system' takes no option)"
    ),
    (
      "media A\nreport paused-by-system A#1 reason=network",
      "t.play:2:29: error: unknown option 'reason' for 'paused-by-system'; expected no option for 'paused-by-system'"
    ),
    (
      "media A\nreport failed A#1 code=-1009",
      "t.play:2:19: error: an error detail without domain=; expected domain= and code= together, as in 'domain=NSURLErrorDomain code=-1009 message=\"offline\"'"
    ),
    (
      "media A\nreport failed A#1 domain=NSURLErrorDomain",
      "t.play:2:19: error: an error detail without code=; expected domain= and code= together, as in 'domain=NSURLErrorDomain code=-1009 message=\"offline\"'"
    ),
    (
      "media A\nreport failed A#1 message=\"offline\"",
      "t.play:2:19: error: an error detail without domain=; expected domain= and code= together, as in 'domain=NSURLErrorDomain code=-1009 message=\"offline\"'"
    ),
    (
      "media A\nreport failed A#1 domain=X code=1e3",
      "t.play:2:33: error: bad error code '1e3'; expected a whole number such as -1009 or 404"
    ),
    (
      "media A\nreport failed A#1 domain=X code=-",
      "t.play:2:33: error: bad error code '-'; expected a whole number such as -1009 or 404"
    ),
    (
      "media A\nreport failed A#1 domain=X code=9223372036854775808",
      "t.play:2:33: error: error code '9223372036854775808' out of range; expected a code from -9223372036854775808 to 9223372036854775807"
    ),
    (
      "media A\nreport failed A#1 domain=X code=-9223372036854775809",
      "t.play:2:33: error: error code '-9223372036854775809' out of range; expected a code from -9223372036854775808 to 9223372036854775807"
    ),
    (
      "media A\nreport failed A#1 domain=X code=1 message=offline",
      "t.play:2:43: error: found 'offline'; expected a quoted text such as \"offline\" (\\\" for a quote inside)"
    ),
    (
      "media A\nreport failed A#1 domain=X code=1 message=\"offline",
      "t.play:2:43: error: a quote left open; expected a closing '\"' before the end of the line"
    ),
    (
      "media A\nreport failed A#1 domain=X code=1 message=\"off\"line",
      "t.play:2:48: error: text after the closing quote; expected a space or end of line after the closing '\"'"
    ),
    (
      "media A\nreport failed A#1 domain=X code=1 message=\"a\\qb\"",
      "t.play:2:45: error: unknown escape '\\q'; expected one of \\\" \\\\ \\n \\t"
    ),
    (
      "media A\nreport failed A#1 domain=X code=1 message=\"a\\",
      "t.play:2:43: error: a quote left open; expected a closing '\"' before the end of the line"
    ),
    (
      "media A\nreport failed A#1 domain=X code=1 message=\"" + String(repeating: "x", count: 201)
        + "\"",
      "t.play:2:43: error: a quoted text longer than 200 characters; expected at most 200 characters"
    ),
    (
      "media A\nreport failed A#1 domain=X code=1 message=\"a\u{7}b\"",
      "t.play:2:45: error: a control character in a quoted text; expected printable text (\\n and \\t for a newline and a tab)"
    ),
    (
      "media A\nreport failed A#1 domain=" + String(repeating: "D", count: 101) + " code=1",
      "t.play:2:26: error: error domain of 101 characters; expected at most 100 characters"
    ),
    (
      "media A\nreport failed A#1 domain=a\"b code=1",
      "t.play:2:26: error: bad error domain 'a\"b'; expected a domain of printable characters without spaces or quotes, such as NSURLErrorDomain"
    ),
    (
      "media A\nreport ready A#1 message=\"x\"",
      "t.play:2:18: error: unknown option 'message' for 'ready'; expected duration=…"
    ),
    (
      "media A network-back-after=5s",
      "t.play:1:9: error: network-back-after without network-drop-at; expected network-drop-at=TIME as well"
    ),
    (
      "media A network-drop-at=x",
      "t.play:1:25: error: bad time 'x'; expected a time in ms, s, m or h, such as 250ms, 1.5s, 3m or 1h"
    ),
    (
      "media A network-drop-at=1s network-back-after=0s",
      "t.play:1:47: error: time '0s'; expected a time above 0ms"
    ),
    (
      "media A\nexpect state waiting(A#1)",
      "t.play:2:25: error: found ')'; expected 'network', as in waiting(A#1, network, attempt 1)"
    ),
    (
      "media A\nexpect state waiting(A#1, network)",
      "t.play:2:34: error: found ')'; expected 'attempt N', as in waiting(A#1, network, attempt 1)"
    ),
    (
      "media A\nexpect state waiting(A#1, network, attempt x)",
      "t.play:2:44: error: bad number 'x'; expected an attempt: a whole number such as 1"
    ),
    (
      "media A\nexpect state waiting(A#1, timeout, attempt 1)",
      "t.play:2:27: error: 'timeout' in a waiting state; expected 'network'"
    ),
    (
      "media A\nexpect state suppressed(A#1)",
      "t.play:2:28: error: found ')'; expected 'interrupted', 'ducked' or 'system pause', as in suppressed(A#1, interrupted)"
    ),
    (
      "media A\nexpect state suppressed(A#1, paused)",
      "t.play:2:30: error: 'paused' in a suppressed state; expected 'interrupted', 'ducked' or 'system pause'"
    ),
    (
      "media A\nexpect state playing(A#1, interrupted)",
      "t.play:2:27: error: 'interrupted' in a playing state; expected seek#N (a pending seek), sleep TIMER (the armed sleep timer), preloading P, preloaded P, preload failed P, preload live P, crossfade from L or ')'"
    ),
    (
      "media A\nexpect state buffering(A#1, interrupted)",
      "t.play:2:29: error: 'interrupted' in a buffering state; expected 'autoplay' or 'paused'"
    ),
    (
      "media A\nexpect state buffering(A#1, autoplay, system pause)",
      "t.play:2:39: error: 'systempause' in a buffering state; expected seek#N (a pending seek), sleep TIMER (the armed sleep timer), preloading P, preloaded P, preload failed P, preload live P, crossfade from L or ')'"
    ),
  ])
  func badSystemInputNamesLineColumnFoundAndExpected(text: String, expected: String) {
    #expect(message(text) == expected)
  }

  @Test func theFakeNetworkFailsLoadsInFlightAndComesBack() throws {
    let result = try run(
      """
      engine preload=yes
      retry-policy attempts=2 backoff=500ms max=800ms
      watchdog off
      media A ready-after=100ms network-drop-at=300ms network-back-after=2s
      media B ready-after=100ms
      queue A B
      wait 3s
      expect state failed(A#4, network, autoplay)
      """)
    let offline = #"NSURLErrorDomain -1009 "The Internet connection appears to be offline.""#
    #expect(
      result.entries.map(\.description) == [
        "0.000s user queue(A B): idle -> buffering(A#1, autoplay) [load(A#1)]",
        "0.100s engine ready(A#1): buffering(A#1, autoplay) -> playing(A#1, preloading B#2) "
          + "[start(A#1) preload(B#2)]",
        "0.200s engine ready(B#2): playing(A#1, preloading B#2) -> playing(A#1, preloaded B#2)",
        // The preload is stopped by the first failure, so it sends nothing.
        "0.300s engine failed(A#1, network, \(offline)): playing(A#1, preloaded B#2) -> "
          + "waiting(A#1, network, attempt 1, autoplay) [stop(A#1) stop(B#2)] "
          + "+backoff(A#1, watchdog#2, 500ms)",
        "0.300s system network(lost): waiting(A#1, network, attempt 1, autoplay) -> "
          + "waiting(A#1, network, attempt 1, autoplay) (ignored: no effect in this state)",
        // `watchdog off` turns off watchdogs, not backoffs.
        "0.800s timer timeout(A#1, watchdog#2): waiting(A#1, network, attempt 1, autoplay) -> "
          + "buffering(A#3, autoplay) [load(A#3)]",
        "0.900s engine failed(A#3, network, \(offline)): buffering(A#3, autoplay) -> "
          + "waiting(A#3, network, attempt 2, autoplay) [stop(A#3)] +backoff(A#3, watchdog#2, 800ms)",
        "1.700s timer timeout(A#3, watchdog#2): waiting(A#3, network, attempt 2, autoplay) -> "
          + "buffering(A#4, autoplay) [load(A#4)]",
        "1.800s engine failed(A#4, network, \(offline)): buffering(A#4, autoplay) -> "
          + "failed(A#4, network, autoplay) [stop(A#4)]",
        "2.300s system network(available): failed(A#4, network, autoplay) -> "
          + "failed(A#4, network, autoplay) (ignored: no effect in this state)",
      ])
    #expect(result.finalState.failure == FakeMediaEngine.offline)
  }

  @Test func jsonLinesCarryTheBackoffAndTheFailureDetail() throws {
    let result = try run(
      """
      media A ready-after=100ms
      play A
      wait 100ms
      report failed A#1 domain=NSURLErrorDomain code=-1009 message="off \\"line\\""
      interrupt begin
      """)
    #expect(
      result.entries.map(\.json) == [
        #"{"t_ms":0,"source":"user","event":"play(A)","before":"idle","after":"buffering(A#1, autoplay)","commands":["load(A#1)"],"ignored":null,"backoff":null,"failure":null,"notifications":[{"kind":"entryChanged","from":null,"to":"A","reason":"queue"}],"now_playing":{"media":"A","elapsed_ms":0,"rate":0,"duration_ms":null,"index":1,"count":1,"is_live":false,"window_ms":null},"available":["pause","previous","seek","skip","stop","toggle"],"player":1,"sleep":null,"volume":1}"#,
        #"{"t_ms":100,"source":"engine","event":"ready(A#1)","before":"buffering(A#1, autoplay)","after":"playing(A#1)","commands":["start(A#1)"],"ignored":null,"backoff":null,"failure":null,"notifications":[],"now_playing":{"media":"A","elapsed_ms":0,"rate":1,"duration_ms":null,"index":1,"count":1,"is_live":false,"window_ms":null},"available":["pause","previous","seek","skip","stop","toggle"],"player":1,"sleep":null,"volume":1}"#,
        #"{"t_ms":100,"source":"script","event":"failed(A#1, network, NSURLErrorDomain -1009 \"off \"line\"\")","before":"playing(A#1)","after":"waiting(A#1, network, attempt 1, autoplay)","commands":["stop(A#1)"],"ignored":null,"backoff":"backoff(A#1, watchdog#2, 1000ms)","failure":{"domain":"NSURLErrorDomain","code":-1009,"message":"off \"line\""},"notifications":[],"now_playing":{"media":"A","elapsed_ms":0,"rate":0,"duration_ms":null,"index":1,"count":1,"is_live":false,"window_ms":null},"available":["pause","previous","stop","toggle"],"player":1,"sleep":null,"volume":1}"#,
        #"{"t_ms":100,"source":"system","event":"interruption(began)","before":"waiting(A#1, network, attempt 1, autoplay)","after":"waiting(A#1, network, attempt 1, autoplay, interrupted)","commands":[],"ignored":null,"backoff":null,"failure":{"domain":"NSURLErrorDomain","code":-1009,"message":"off \"line\""},"notifications":[],"now_playing":{"media":"A","elapsed_ms":0,"rate":0,"duration_ms":null,"index":1,"count":1,"is_live":false,"window_ms":null},"available":["pause","previous","stop"],"player":1,"sleep":null,"volume":1}"#,
      ])
    for line in result.entries.map(\.json) {
      let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
      #expect(
        Set(object?.keys.map { $0 } ?? []) == [
          "t_ms", "source", "event", "before", "after", "commands", "ignored", "backoff", "failure",
          "notifications", "now_playing", "available", "player", "sleep", "volume",
        ])
    }
  }

  @Test func theTableShowsTheSystemAndTheBackoff() throws {
    let result = try run(
      """
      media A ready-after=100ms
      play A
      network lost
      interrupt end
      """)
    let table = TimelineTable(color: false)
    #expect(
      result.entries.map { table.line(.event($0)) } == [
        " 0.000s  user    play(A)                   idle → buffering(A#1, autoplay)                       load(A#1)",
        " 0.000s  system  network(lost)             buffering(A#1, autoplay) → waiting(A#1, network, attempt 1, autoplay) stop(A#1) +backoff(A#1, watchdog#2, 1000ms)",
        " 0.000s  system  interruption(ended)       waiting(A#1, network, attempt 1, autoplay) → waiting(A#1, network, attempt 1, autoplay) IGNORED: no interruption in progress",
      ])
  }

  @Test func systemEventsWithoutEffectAreNotCheckedButRefusedOnesAre() throws {
    _ = try run(
      """
      media A
      play A
      interrupt begin
      interrupt begin              # already interrupted: no effect, not checked
      route lost                   # while buffering: a pause, as the user's
      network available            # not waiting: no effect
      expect ignored none
      interrupt end
      interrupt end                # none in progress: refused
      expect ignored notInterrupted
      """)
  }

  /// The user's resume ends a system pause; an interruption that begins during
  /// one takes it over, and its end with the hint starts the engine again.
  @Test func aSystemPauseShowsAndTheUsersResumeStartsAgain() throws {
    let result = try run(
      """
      media A ready-after=100ms
      play A
      wait 100ms
      report paused-by-system A#1
      expect state suppressed(A#1, system pause)
      expect commands load(A#1) start(A#1)
      resume
      expect state playing(A#1)
      expect commands start(A#1)
      report paused-by-system A#1
      interrupt begin
      expect state suppressed(A#1, interrupted)
      interrupt end resume
      expect state playing(A#1)
      expect commands start(A#1)
      report paused-by-system A#7
      expect ignored neverIssuedLoad
      """)
    #expect(result.finalState.isPlaying)
  }
}
