import Foundation
import PlayerState
import Testing

/// StateFuzzer's seeds (Fuzz/Corpus/state): the forged states of the
/// 2026-12-02 reliability review (issue 23) and valid states of every stage.
/// The decoder refuses each state the reducer or `description` could not take
/// (R2's attempts and backoffs, R12's shuffle list, …); a state it accepts takes
/// every event and prints, as the fuzzer checks on any bytes.
@Suite struct StateCorpusTests {
  static let directory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fuzz/Corpus/state")

  static let seeds: [String] = {
    ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
  }()

  /// The seeds the decoder must refuse.
  static let refused: Set<String> = [
    "current--1", "current-3", "current-9223372036854775807", "current-missing",
    "deep-nesting", "empty", "failure-without-failed-load", "invalid-utf8", "item-0",
    "item-twice", "item-unissued", "lone-surrogate-escape", "network-attempts-255",
    "network-attempts-300", "network-attempts-over-policy", "nul-byte", "overlong-utf8",
    "position--1", "preload-is-session", "preload-outside-queue", "rate--1", "rate-0",
    "rate-2147483648", "retry-backoff-negative", "retry-backoff-negative-many-attempts",
    "retry-max-below-backoff", "shuffle-missing-entry", "shuffle-other-media",
    "surrogate-utf8", "version-2",
  ].reduce(into: []) { $0.insert("forged-\($1).json") }

  @Test func theCorpusHoldsTheReviewsForgedStates() {
    #expect(Self.seeds.count >= 50)
    #expect(Self.refused.isSubset(of: Set(Self.seeds)))
  }

  @Test(arguments: seeds) func aSeedIsRefusedOrTakesEveryEvent(_ name: String) throws {
    let data = try Data(contentsOf: Self.directory.appendingPathComponent(name))
    let decoded = try? JSONDecoder().decode(PlaybackState.self, from: data)
    guard let state = decoded else {
      #expect(Self.refused.contains(name), "\(name) no longer decodes")
      return
    }
    #expect(!Self.refused.contains(name), "\(name) decodes: \(state)")
    #expect(state.invariantViolation == nil)
    _ = state.description
    let load = state.session?.load ?? Load(item: ItemID(1), token: LoadToken(1))
    let events: [PlaybackEvent] = [
      .play("A"), .play("A", from: .milliseconds(-1)), .user(.next), .user(.previous),
      .user(.remove(at: Int.max)), .user(.insert(["B"], at: Int.max)), .user(.jump(to: 0)),
      .user(.setShuffle(seed: 1)), .user(.setShuffle(seed: nil)), .user(.setRepeat(.all)),
      .pause, .resume, .stop, .retry, .seek(to: .milliseconds(.max)), .user(.clear),
      .ready(load, duration: .seconds(1)), .stalled(load), .resumed(load), .reachedEnd(load),
      .engine(.failed(load, .network)), .position(load, .seconds(1)),
      .seekCompleted(load, state.session?.lastSeek ?? SeekID(1)),
      .watchdogExpired(load, state.session?.lastWatchdog ?? WatchdogID(1)),
      .system(.interruptionBegan), .system(.interruptionEnded(shouldResume: true)),
      .system(.routeLost), .system(.networkLost), .system(.networkAvailable),
    ]
    var chained = state
    for event in events {
      _ = "\(event) \(state.transition(on: event))"
      let transition = chained.transition(on: event)
      _ = transition.description
      chained = transition.next
    }
    let again = try JSONDecoder().decode(PlaybackState.self, from: JSONEncoder().encode(state))
    #expect(again == state)
  }
}
