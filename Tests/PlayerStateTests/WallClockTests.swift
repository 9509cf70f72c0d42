import Foundation
import PlayerState
import Testing

/// Issue 40: wall-clock time (the sleep countdown, the retry backoffs) is a
/// `Duration` in the API and whole milliseconds inside: rounded to the
/// nearest, with every printed and encoded form as before.
@Suite("Wall-clock durations: sleep countdown and retry backoffs")
struct WallClockTests {
  private static func json(_ value: some Encodable) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    return String(decoding: try encoder.encode(value), as: UTF8.self)
  }

  @Test func sleepTimersEncodeAsBefore() throws {
    let timers: [(SleepTimer, String)] = [
      (.after(.seconds(1800)), #"{"after":{"_0":{"milliseconds":1800000}}}"#),
      (.after(.seconds(1.5)), #"{"after":{"_0":{"milliseconds":1500}}}"#),
      (.endOfEntry, #"{"endOfEntry":{}}"#),
      (.endOfQueue, #"{"endOfQueue":{}}"#),
      (.afterEntries(2), #"{"afterEntries":{"_0":2}}"#),
    ]
    for (timer, expected) in timers {
      #expect(try Self.json(timer) == expected)
      #expect(try JSONDecoder().decode(SleepTimer.self, from: Data(expected.utf8)) == timer)
    }
    // A countdown below the millisecond is encoded rounded.
    #expect(
      try Self.json(SleepTimer.after(.microseconds(2500)))
        == #"{"after":{"_0":{"milliseconds":3}}}"#)
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(SleepTimer.self, from: Data(#"{"after":{}}"#.utf8))
    }
  }

  @Test func aStateWithASleepCountdownRoundTripsAsBefore() throws {
    let state = PlaybackState.reduce(PlaybackState(), .user(.setSleepTimer(.after(.seconds(1800)))))
    let text = try Self.json(state)
    #expect(
      text
        == #"{"configuration":{"canPreload":false,"previousThreshold":{"milliseconds":3000},"#
        + #""retry":{"attempts":3,"backoff":{"milliseconds":1000},"maximumBackoff":{"milliseconds":30000}}},"#
        + #""interrupted":false,"issuedItems":0,"issuedLoads":0,"issuedSleepTimers":1,"playWhenReady":true,"#
        + #""queue":{"entries":[],"repeatMode":"off"},"rate":1000,"#
        + #""sleepTimer":{"after":{"_0":{"milliseconds":1800000}}},"version":3}"#)
    let decoded = try JSONDecoder().decode(PlaybackState.self, from: Data(text.utf8))
    #expect(decoded == state)
    #expect(decoded.sleepTimer == .after(.seconds(1800)))
  }

  @Test func aCountdownIsRoundedToTheMillisecondWhenArmed() {
    let state = PlaybackState()
    let armed = state.transition(on: .user(.setSleepTimer(.after(.seconds(1.1)))))
    // `Duration.seconds(1.1)` is 1.100000000000000096 s: kept as 1100 ms.
    #expect(armed.next.sleepTimer == .after(.milliseconds(1100)))
    #expect(armed.sleepTimer == SleepTimerRequest(id: SleepTimerID(1), delay: .milliseconds(1100)))
    #expect(armed.sleepTimer?.description == "sleep(sleep#1, 1100ms)")
    let half = state.transition(on: .user(.setSleepTimer(.after(.microseconds(500)))))
    #expect(half.sleepTimer?.delay == .milliseconds(1))
    // Below half a millisecond it rounds to 0 and is refused, as 0 is.
    let tiny = state.transition(on: .user(.setSleepTimer(.after(.microseconds(499)))))
    #expect(tiny.ignored == .invalidArgument)
    // Beyond what an Int64 of milliseconds holds it saturates; it never traps.
    let forever = state.transition(on: .user(.setSleepTimer(.after(.seconds(Int64.max)))))
    #expect(forever.ignored == nil)
    #expect(forever.sleepTimer?.description == "sleep(sleep#1, 9223372036854775807ms)")
    #expect(
      SleepTimer.after(.seconds(Int64.max) * 10).description == "after(9223372036854775807ms)")
    #expect(SleepTimer.after(.seconds(-1.5)).description == "after(-1500ms)")
  }

  @Test func aRequestKeepsItsDelayToTheMillisecond() throws {
    let request = SleepTimerRequest(id: SleepTimerID(1), delay: .nanoseconds(1_800_000_400_000))
    #expect(request.delay == .seconds(1800))
    #expect(request.description == "sleep(sleep#1, 1800000ms)")
    #expect(try Self.json(request) == #"{"delay":{"milliseconds":1800000},"id":1}"#)
    let watchdog = WatchdogRequest(load: Load(1, 2), id: WatchdogID(3), delay: .seconds(1))
    #expect(watchdog.purpose == .networkBackoff)
    #expect(watchdog.description == "backoff(item1#2, watchdog#3, 1000ms)")
    #expect(
      try Self.json(watchdog)
        == #"{"delay":{"milliseconds":1000},"id":3,"load":{"item":1,"token":2},"purpose":"networkBackoff"}"#
    )
    let plain = WatchdogRequest(load: Load(1, 2), id: WatchdogID(1))
    #expect(plain.delay == nil && plain.purpose == .loadWatchdog)
    #expect(
      try Self.json(plain) == #"{"id":1,"load":{"item":1,"token":2},"purpose":"loadWatchdog"}"#)
  }

  @Test func retryBackoffsAreDurationsKeptToTheMillisecond() throws {
    var policy = RetryPolicy(
      attempts: 2, backoff: .microseconds(250_400), maximumBackoff: .seconds(1.5))
    #expect(policy.backoff == .milliseconds(250))
    #expect(policy.maximumBackoff == .milliseconds(1500))
    #expect(policy.delay(before: 1) == .milliseconds(250))
    #expect(policy.delay(before: 4) == .milliseconds(1500))
    #expect(
      try Self.json(policy)
        == #"{"attempts":2,"backoff":{"milliseconds":250},"maximumBackoff":{"milliseconds":1500}}"#)
    policy.backoff = .microseconds(1500)
    #expect(policy.backoff == .milliseconds(2))
    policy.maximumBackoff = .seconds(Int64.max)
    #expect(policy.maximumBackoff == .milliseconds(Int64.max))
    // A backoff that rounds to 0 is one the reducer cannot take.
    let tooShort = RetryPolicy(
      attempts: 1, backoff: .microseconds(400), maximumBackoff: .seconds(1))
    #expect(tooShort.backoff == .zero)
    #expect(throws: InvalidStateError.self) {
      try PlaybackState(
        checking: PlayQueue(), session: nil, playWhenReady: true,
        configuration: PlayerConfiguration(retry: tooShort), issuedLoads: 0, issuedItems: 0)
    }
  }
}
