// libFuzzer entry point for states from outside: any bytes, decoded as a JSON
// `PlaybackState` (a persisted or untrusted state), must decode or throw; a
// state that decodes is one the reducer and `description` take (docs/machine.md:
// the decoder refuses what they cannot), so every event kind is reduced from it,
// and every state, transition, event and command met is described, without a
// trap. Then the events run again as one chain, so later events meet the states
// earlier ones made. Seeds: Fuzz/Corpus/state, the forged states of the
// 2026-12-02 reliability review (issue 23).
import CLibFuzzer
import Foundation
import PlayerState

@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = data.map { Data(UnsafeBufferPointer(start: $0, count: size)) } ?? Data()
  guard let state = try? JSONDecoder().decode(PlaybackState.self, from: bytes) else { return 0 }
  describe(state)
  let events = everyEvent(for: state)
  for event in events {
    describe(event, state.transition(on: event))
  }
  var chained = state
  for event in events {
    let transition = chained.transition(on: event)
    describe(event, transition)
    chained = transition.next
  }
  if strict {
    // Stricter than "never traps": every state the reducer returns keeps the
    // invariants (so it decodes back). Off by default until the machine keeps
    // them from every decodable state (docs/fuzzing.md, "StateFuzzer").
    for event in events {
      let next = state.transition(on: event).next
      if let violation = next.invariantViolation {
        fatalError("\(state) + \(event) -> \(next): \(violation)")
      }
    }
  }
  return 0
}

/// `PLAYHEAD_STATE_FUZZ_STRICT=1`: also require the reducer to keep the invariants.
let strict = ProcessInfo.processInfo.environment["PLAYHEAD_STATE_FUZZ_STRICT"] == "1"

/// Describes every part of `state` a caller might print.
func describe(_ state: PlaybackState) {
  _ = state.description
  _ = state.queue.description
  _ = state.kind
  _ = state.isPlaying
  _ = state.invariantViolation
  _ = state.queue.currentEntry?.description
}

/// Describes the event, the transition and each of its parts.
func describe(_ event: PlaybackEvent, _ transition: Transition) {
  _ = event.description
  _ = transition.description
  describe(transition.next)
  let name = { (item: ItemID) in transition.next.media(of: item) }
  _ = event.description(naming: name)
  for command in transition.commands { _ = command.description(naming: name) }
  _ = transition.watchdog?.description(naming: name)
  _ = transition.ignored?.description
}

/// Every kind of event, with values taken from `state` (its loads, ids, media
/// and positions) and from the edges of each type (0, -1, the largest).
func everyEvent(for state: PlaybackState) -> [PlaybackEvent] {
  let count = state.queue.entries.count
  let media: [MediaID] = [state.queue.currentEntry?.media ?? "A", "Z"]
  let positions = [0, -1, count - 1, count, Int.max, Int.min]
  let times: [MediaTime] = [.zero, .milliseconds(-1), .milliseconds(3001), .milliseconds(.max),
    .milliseconds(.min)]
  var loads = [Load(item: ItemID(0), token: LoadToken(0)), Load(item: ItemID(.max), token: LoadToken(.max))]
  if let load = state.session?.load { loads.insert(load, at: 0) }
  if let load = state.preload?.load { loads.append(load) }
  let seeks = [state.session?.lastSeek ?? SeekID(0), SeekID(0), SeekID(.max)]
  let watchdogs = [state.session?.lastWatchdog ?? WatchdogID(0), WatchdogID(1), WatchdogID(.max)]

  var events: [PlaybackEvent] = []
  for time in times {
    events.append(.user(.play(media[0], from: time)))
    events.append(.user(.jump(to: 0, from: time)))
    events.append(.user(.seek(to: time)))
  }
  for position in positions {
    events.append(.user(.replaceQueue(media, start: position, from: .zero, playWhenReady: true)))
    events.append(.user(.insert(media, at: position)))
    events.append(.user(.remove(at: position)))
    events.append(.user(.move(from: position, to: 0)))
    events.append(.user(.move(from: 0, to: position)))
    events.append(.user(.jump(to: position, from: .zero)))
  }
  events += [
    .user(.replaceQueue([], start: 0, from: .zero, playWhenReady: false)),
    .user(.append(media)), .user(.append([])), .user(.next), .user(.previous),
    .user(.setRepeat(.one)), .user(.setRepeat(.all)), .user(.setRepeat(.off)),
    .user(.setShuffle(seed: 7)), .user(.setShuffle(seed: .max)), .user(.setShuffle(seed: nil)),
    .user(.setRate(PlaybackRate(thousandths: 0))), .user(.setRate(PlaybackRate(thousandths: -1))),
    .user(.setRate(PlaybackRate(thousandths: .max))), .user(.setRate(PlaybackRate(thousandths: 1500))),
    .user(.pause), .user(.resume), .user(.stop), .user(.retry), .user(.clear),
  ]
  let detail = FailureDetail(domain: "NSURLErrorDomain", code: .min, message: "offline")
  for load in loads {
    for time in times {
      events.append(.engine(.ready(load, duration: time)))
      events.append(.engine(.position(load, time)))
    }
    events += [
      .engine(.ready(load, duration: nil)), .engine(.stalled(load)), .engine(.resumed(load)),
      .engine(.reachedEnd(load)), .engine(.pausedBySystem(load)),
      .engine(.failed(load, .network, detail: detail)), .engine(.failed(load, .timeout)),
      .engine(.failed(load, .engine(code: .min))),
    ]
    for seek in seeks { events.append(.engine(.seekCompleted(load, seek))) }
    for watchdog in watchdogs { events.append(.watchdogExpired(load, watchdog)) }
  }
  events += [
    .system(.interruptionBegan), .system(.interruptionEnded(shouldResume: true)),
    .system(.interruptionBegan), .system(.interruptionEnded(shouldResume: false)),
    .system(.routeLost), .system(.networkLost), .system(.networkAvailable),
  ]
  return events
}

/// LeakSanitizer's suppressions for this fuzzer (the hook LSan calls at start):
/// the first decoding error that names a type (`Cannot initialize TimerPurpose
/// from invalid String value`, a `CodingKeys` description) makes the Swift
/// runtime cache that type's name in `swift_getTypeName`, once per type, where
/// LeakSanitizer does not see it referenced: an 11-13 byte "leak" per type, not
/// per input. Every other allocation is still checked.
@_cdecl("__lsan_default_suppressions")
func leakSuppressions() -> UnsafePointer<CChar> {
  UnsafeRawPointer(suppressions.utf8Start).assumingMemoryBound(to: CChar.self)
}

let suppressions: StaticString = "leak:swift_getTypeName\n"

/// The entry SwiftPM links as `main` (see CLibFuzzer.h): runs libFuzzer on ``testOneInput(_:_:)``.
@_cdecl("StateFuzzer_main")
func fuzzerMain(
  _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> CInt {
  var argc = argc
  var argv = argv
  return LLVMFuzzerRunDriver(&argc, &argv) { data, size in testOneInput(data, size) }
}
