import Foundation
import PlayerState
import Testing

/// Issue 23, R2 and R3: values from outside (decoded JSON, a UI's index, a
/// policy built by hand) never reach a trap. The decoder refuses what the
/// reducer and `description` cannot take; every `description` and
/// `RetryPolicy.delay(before:)` is total.
@Suite("Totality: decoding and describing extreme values")
struct TotalityTests {
  /// A state written by a version 3 encoder, waiting for the network (R2a's
  /// reproduction), with the attempts and retry policy given.
  private static func waitingJSON(attempts: Int, retry: String) -> Data {
    Data(
      """
      {"configuration":{"canPreload":false,"previousThreshold":{"milliseconds":3000},\
      "retry":\(retry)},"interrupted":false,"issuedItems":1,"issuedLoads":1,\
      "playWhenReady":true,"queue":{"current":0,"entries":[{"item":1,"media":"A"}],\
      "repeatMode":"off"},"rate":1000,"session":{"lastSeek":0,"lastWatchdog":2,\
      "load":{"item":1,"token":1},"networkAttempts":\(attempts),"position":{"milliseconds":0},\
      "seekPending":false,"stage":{"waitingForNetwork":{}},"systemPaused":false},"version":3}
      """.utf8)
  }

  private static let standardRetry =
    #"{"attempts":3,"backoff":{"milliseconds":1000},"maximumBackoff":{"milliseconds":30000}}"#

  @Test func aWaitingStateWithAttemptsBeyondItsPolicyIsRefused() throws {
    for attempts in [3, 4, 254, 255] {
      #expect(throws: DecodingError.self, "networkAttempts \(attempts)") {
        try JSONDecoder().decode(
          PlaybackState.self, from: Self.waitingJSON(attempts: attempts, retry: Self.standardRetry))
      }
    }
    // The last wait the policy allows decodes, describes and reduces.
    var state = try JSONDecoder().decode(
      PlaybackState.self, from: Self.waitingJSON(attempts: 2, retry: Self.standardRetry))
    #expect(state.description == "waiting(A#1, network, attempt 3, autoplay)")
    _ = state.handle(.system(.networkAvailable))
    #expect(state.description == "buffering(A#2, autoplay)")
    #expect(state.invariantViolation == nil)
  }

  @Test func aHandBuiltWaitingStateBeyondItsPolicyIsAViolation() {
    let state = PlaybackState(
      queue: PlayQueue(entries: [QueueEntry(item: ItemID(1), media: "A")], current: 0),
      session: Session(
        load: Load(1, 1), stage: .waitingForNetwork, lastWatchdog: WatchdogID(2),
        networkAttempts: 3),
      playWhenReady: true, issuedLoads: 1, issuedItems: 1)
    #expect(
      state.invariantViolation
        == "waiting for the network after 3 reloads, with a retry policy of 3")
  }

  @Test func aRetryPolicyTheReducerCannotTakeIsRefused() throws {
    let unusable: [(backoff: Int64, maximum: Int64, violation: String)] = [
      (0, 0, "retry backoff 0ms is not positive"),
      (-1, 0, "retry backoff -1ms is not positive"),
      (.min, 0, "retry backoff \(Int64.min)ms is not positive"),
      (.min, .max, "retry backoff \(Int64.min)ms is not positive"),
      (1000, 999, "retry maximumBackoff 999ms is below the backoff 1000ms"),
      (.max, 1, "retry maximumBackoff 1ms is below the backoff \(Int64.max)ms"),
    ]
    for policy in unusable {
      let retry =
        #"{"attempts":3,"backoff":{"milliseconds":\#(policy.backoff)},"#
        + #""maximumBackoff":{"milliseconds":\#(policy.maximum)}}"#
      #expect(throws: DecodingError.self, "\(retry)") {
        try JSONDecoder().decode(RetryPolicy.self, from: Data(retry.utf8))
      }
      #expect(throws: DecodingError.self, "\(retry)") {
        try JSONDecoder().decode(
          PlaybackState.self, from: Self.waitingJSON(attempts: 0, retry: retry))
      }
      var state = PlaybackState()
      state.configuration.retry = RetryPolicy(
        attempts: 3, backoff: .milliseconds(policy.backoff),
        maximumBackoff: .milliseconds(policy.maximum))
      #expect(state.invariantViolation == policy.violation)
    }
    // R2b's reproduction: a buffering load whose policy backs off Int64.min ms.
    let forged = Data(
      """
      {"configuration":{"canPreload":false,"previousThreshold":{"milliseconds":3000},\
      "retry":{"attempts":3,"backoff":{"milliseconds":-9223372036854775808},\
      "maximumBackoff":{"milliseconds":0}}},"interrupted":false,"issuedItems":1,"issuedLoads":1,\
      "playWhenReady":true,"queue":{"current":0,"entries":[{"item":1,"media":"A"}],\
      "repeatMode":"off"},"rate":1000,"session":{"lastSeek":0,"lastWatchdog":1,\
      "load":{"item":1,"token":1},"networkAttempts":1,"position":{"milliseconds":0},\
      "seekPending":false,"stage":{"buffering":{}},"systemPaused":false},"version":3}
      """.utf8)
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(PlaybackState.self, from: forged)
    }
    // Every usable policy round-trips, the shipped ones included.
    for policy in [
      RetryPolicy.standard, .off,
      RetryPolicy(
        attempts: 255, backoff: .milliseconds(1), maximumBackoff: .milliseconds(Int64.max)),
    ] {
      let data = try JSONEncoder().encode(policy)
      #expect(try JSONDecoder().decode(RetryPolicy.self, from: data) == policy)
    }
  }

  @Test func retryDelaysSaturateForAnyPolicy() {
    let times: [Int64] = [.min, .min / 2 - 1, -1_000, -1, 0, 1, 1_000, .max / 2 + 1, .max]
    for backoff in times {
      for maximum in times {
        let policy = RetryPolicy(
          attempts: 255, backoff: .milliseconds(backoff), maximumBackoff: .milliseconds(maximum))
        for attempt in UInt8.min...UInt8.max {
          let delay = policy.delay(before: attempt)
          #expect(
            delay >= .zero && delay <= .milliseconds(max(0, maximum)),
            "\(backoff) \(maximum) \(attempt)")
        }
      }
    }
    // R2b: `delay * 2` overflowed after 64 doublings of a negative backoff.
    let negative = RetryPolicy(attempts: 255, backoff: .milliseconds(-1), maximumBackoff: .zero)
    #expect(negative.delay(before: 66) == .zero)
    // Usable policies keep their schedule, saturating at the longest backoff.
    #expect(
      (1...6).map { RetryPolicy.standard.delay(before: $0) } == [
        .seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(16), .seconds(30),
      ])
    let huge = RetryPolicy(
      attempts: 255, backoff: .milliseconds(Int64.max / 2 + 1),
      maximumBackoff: .milliseconds(Int64.max))
    #expect(huge.delay(before: 1) == .milliseconds(Int64.max / 2 + 1))
    #expect(huge.delay(before: 255) == .milliseconds(Int64.max))
  }

  /// Every `description` in PlaybackEvent.swift and Identity.swift, over the
  /// extreme values of every field: none traps, and positions print 1-based
  /// past `Int.max`.
  @Test func everyDescriptionIsTotalOnExtremeValues() {
    let positions: [Int] = [.min, -1, 0, 1, .max - 1, .max]
    let times: [MediaTime] = [.milliseconds(.min), .milliseconds(-1), .zero, .milliseconds(.max)]
    let ids: [UInt32] = [0, 1, .max]
    let rates: [Int32] = [.min, -1_500, -1, 0, 1, 1_000, .max]
    let loads = ids.flatMap { item in ids.map { Load(item, $0) } }
    var intents: [UserIntent] = [
      .append([]), .append(["A", ""]), .next, .previous, .clear, .pause, .resume, .stop, .retry,
      .setShuffle(seed: nil), .setShuffle(seed: 0), .setShuffle(seed: .max),
      .setRepeat(.off), .setRepeat(.one), .setRepeat(.all),
    ]
    intents += rates.map { .setRate(PlaybackRate(thousandths: $0)) }
    for time in times {
      intents += [.play("A", from: time), .seek(to: time)]
      intents += positions.map { .jump(to: $0, from: time) }
      intents += positions.flatMap { start in
        [true, false].map {
          .replaceQueue(["A", "B"], start: start, from: time, playWhenReady: $0)
        }
      }
    }
    for position in positions {
      intents += [.insert(["A"], at: position), .remove(at: position)]
      intents += positions.map { .move(from: position, to: $0) }
    }
    var reports: [EngineReport] = []
    let reasons: [FailureReason] =
      [.network, .decoding, .unsupported, .notFound, .timeout]
      + [Int32.min, -1, 0, .max].map { .engine(code: $0) }
    let details: [FailureDetail?] = [
      nil, FailureDetail(domain: "", code: .min, message: ""),
      FailureDetail(domain: "D", code: .max, message: "\u{0}\"\n"),
    ]
    for load in loads {
      reports += [.stalled(load), .resumed(load), .reachedEnd(load), .pausedBySystem(load)]
      reports += ([nil] + times).map { .ready(load, duration: $0) }
      reports += ids.map { .seekCompleted(load, SeekID($0)) }
      reports += times.map { .position(load, $0) }
      reports += reasons.flatMap { reason in details.map { .failed(load, reason, detail: $0) } }
    }
    let systems: [SystemEvent] = [
      .interruptionBegan, .interruptionEnded(shouldResume: true),
      .interruptionEnded(shouldResume: false), .routeLost, .networkLost, .networkAvailable,
    ]
    var events: [PlaybackEvent] = intents.map { .user($0) } + reports.map { .engine($0) }
    events += systems.map { .system($0) }
    events += loads.flatMap { load in ids.map { .watchdogExpired(load, WatchdogID($0)) } }
    let naming: (ItemID) -> MediaID? = { $0.rawValue == .max ? "Z" : nil }
    var described = 0
    for event in events {
      #expect(!event.description.isEmpty)
      #expect(!event.description(naming: naming).isEmpty)
      #expect(!event.source.rawValue.isEmpty)
      described += 1
    }
    for load in loads {
      #expect(!load.description.isEmpty && !load.description(naming: naming).isEmpty)
    }
    for id in ids {
      _ = (ItemID(id).description, LoadToken(id).description, SeekID(id).description)
      _ = WatchdogID(id).description
    }
    for reason in reasons { #expect(!reason.description.isEmpty) }
    for case let detail? in details { #expect(!detail.description.isEmpty) }
    #expect(described == events.count && described > 500)

    // Positions print as the user counts them, one more than the index, past Int.max too.
    #expect(UserIntent.remove(at: .max).description == "remove(9223372036854775808)")
    #expect(UserIntent.remove(at: .min).description == "remove(-9223372036854775807)")
    #expect(UserIntent.remove(at: -1).description == "remove(0)")
    #expect(
      UserIntent.insert(["A"], at: .max).description == "insert(A, at 9223372036854775808)")
    #expect(
      UserIntent.move(from: .max, to: .min).description
        == "move(9223372036854775808, to -9223372036854775807)")
    #expect(
      UserIntent.jump(to: .max, from: .milliseconds(.min)).description
        == "jump(9223372036854775808, from -9223372036854775808ms)")
    #expect(
      PlaybackEvent.queue(["A"], start: .max).description
        == "queue(A, start 9223372036854775808)")
    #expect(
      UserIntent.replaceQueue(["A"], start: .max - 1, playWhenReady: false).description
        == "queue(A, start 9223372036854775807, paused)")
    #expect(PlaybackRate(thousandths: .min).description == "-2147483.648x")
    #expect(PlaybackRate(thousandths: .max).description == "2147483.647x")
    #expect(MediaTime.seconds(.max) == .milliseconds(.max))
    #expect(MediaTime.seconds(.min) == .milliseconds(.min))
    #expect(Load(.max, .max).description == "item4294967295#4294967295")
  }
}
