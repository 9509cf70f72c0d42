import Foundation
import PlayerState
import Testing

/// A state the reducer can never produce, and the rule it breaks.
struct ForgedState: CustomTestStringConvertible, Sendable {
  let name: String
  let state: PlaybackState
  let violation: String

  var testDescription: String { name }
}

let forgedStates: [ForgedState] = [
  ForgedState(
    name: "session token never issued",
    state: PlaybackState(
      queue: queueOfA, session: Session(load: Load(1, 5), stage: .ready), playWhenReady: true,
      issuedLoads: 1, issuedItems: 1),
    violation: "session token 5 was never issued (issuedLoads 1)"),
  ForgedState(
    name: "session token 0",
    state: PlaybackState(
      queue: queueOfA, session: Session(load: Load(1, 0), stage: .ready), playWhenReady: true,
      issuedLoads: 1, issuedItems: 1),
    violation: "session token 0 was never issued (issuedLoads 1)"),
  ForgedState(
    name: "seek pending with none issued",
    state: PlaybackState(
      queue: queueOfA, session: Session(load: a2, stage: .ready, seekPending: true),
      playWhenReady: true, issuedLoads: 2, issuedItems: 1),
    violation: "a seek is pending but none was issued"),
  ForgedState(
    name: "seek pending at the end",
    state: PlaybackState(
      queue: queueOfA,
      session: Session(load: a2, stage: .ended, lastSeek: SeekID(3), seekPending: true),
      playWhenReady: true, issuedLoads: 2, issuedItems: 1),
    violation: "a seek is pending in stage ended"),
  ForgedState(
    name: "buffering without a watchdog",
    state: PlaybackState(
      queue: queueOfA, session: Session(load: a2, stage: .buffering), playWhenReady: true,
      issuedLoads: 2, issuedItems: 1),
    violation:
      "a buffering session without a watchdog (one is armed with every load and stall)"),
  ForgedState(
    name: "entry never issued",
    state: PlaybackState(
      queue: queueOfA, session: nil, playWhenReady: true, issuedLoads: 0, issuedItems: 0),
    violation: "queue entry item1 was never issued (issuedItems 0)"),
  ForgedState(
    name: "entry twice",
    state: PlaybackState(
      queue: PlayQueue(entries: Array(queueOfA.entries) + queueOfA.entries, current: 0),
      session: nil,
      playWhenReady: true, issuedLoads: 0, issuedItems: 1),
    violation: "queue entry item1 appears twice"),
  ForgedState(
    name: "current outside the queue",
    state: PlaybackState(
      queue: PlayQueue(entries: queueOfA.entries, current: 1), session: nil, playWhenReady: true,
      issuedLoads: 0, issuedItems: 1),
    violation: "current position 1 is outside the queue of 1"),
  ForgedState(
    name: "entries without a current one",
    state: PlaybackState(
      queue: PlayQueue(entries: queueOfA.entries, current: nil), session: nil,
      playWhenReady: true, issuedLoads: 0, issuedItems: 1),
    violation: "a queue of 1 entries has no current position"),
  ForgedState(
    name: "session of another entry",
    state: PlaybackState(
      queue: queueABC, session: Session(load: Load(2, 2), stage: .ready), playWhenReady: true,
      issuedLoads: 2, issuedItems: 3),
    violation: "the session's load item2#2 is not the current queue entry"),
  ForgedState(
    name: "preload without a session",
    state: PlaybackState(
      queue: queueABC, session: nil, preload: Preload(load: b3, stage: .ready),
      playWhenReady: true, issuedLoads: 3, issuedItems: 3),
    violation: "a preload without a current load"),
  ForgedState(
    name: "preload of the current entry",
    state: PlaybackState(
      queue: queueABC, session: Session(load: a2, stage: .ready),
      preload: Preload(load: Load(1, 3), stage: .ready), playWhenReady: true, issuedLoads: 3,
      issuedItems: 3),
    violation: "the preload item1#3 is the current load"),
  ForgedState(
    name: "rate zero",
    state: PlaybackState(
      queue: PlayQueue(), session: nil, playWhenReady: true, rate: PlaybackRate(thousandths: 0),
      issuedLoads: 0, issuedItems: 0),
    violation: "rate 0x is not positive"),
]

@Suite("State invariants")
struct InvariantTests {
  @Test("a forged state is named and refused by the decoder", arguments: forgedStates)
  func forged(_ example: ForgedState) throws {
    #expect(example.state.invariantViolation == example.violation)
    let data = try JSONEncoder().encode(example.state)
    #expect(throws: DecodingError.self) { try JSONDecoder().decode(PlaybackState.self, from: data) }
  }

  @Test func everyRepresentativeStateKeepsTheInvariants() {
    for state in TransitionTable.representativeStates {
      #expect(state.invariantViolation == nil, "\(state)")
      for event in TransitionTable.probeEvents(for: state) {
        #expect(state.transition(on: event).next.invariantViolation == nil, "\(state) + \(event)")
      }
    }
  }

  @Test func seekAndWatchdogIdsNeverWrap() {
    var state = fixture(.ready)
    state.session?.lastSeek = SeekID(.max)
    let seek = state.transition(on: .seek(to: .seconds(1)))
    #expect(seek.ignored == .idsExhausted)
    #expect(seek.next == state)
    state.session?.lastWatchdog = WatchdogID(.max)
    let stall = state.transition(on: .stalled(a2))
    #expect(stall.ignored == .idsExhausted)
    #expect(stall.next == state)
  }

  @Test func itemIdsNeverWrap() {
    let full = PlaybackState(
      queue: queueOfA, session: nil, playWhenReady: true, issuedLoads: 0, issuedItems: .max - 1)
    let two = full.transition(on: .user(.append(["B", "C"])))
    #expect(two.ignored == .idsExhausted)
    #expect(two.next == full)
    let one = full.transition(on: .user(.append(["B"])))
    #expect(one.ignored == nil)
    #expect(one.next.queue.description == "A* B")
    #expect(one.next.issuedItems == .max)
  }
}

/// The public way to build a state by hand checks it (issue 20: a state no
/// caller can break).
@Suite struct CheckedStateTests {
  @Test func aStateTheReducerCouldReachIsBuilt() throws {
    let queue = PlayQueue(entries: [QueueEntry(item: ItemID(1), media: "A")], current: 0)
    let state = try PlaybackState(
      checking: queue, session: nil, playWhenReady: false, issuedLoads: 0, issuedItems: 1)
    #expect(state.description == "idle")
    #expect(
      state.transition(on: .resume).description
        == "buffering(A#1, autoplay) [load(A#1)] +watchdog(A#1, watchdog#1)")
  }

  @Test func aStateTheReducerWouldTrapOnIsRefused() {
    let queue = PlayQueue(entries: [QueueEntry(item: ItemID(1), media: "A")], current: 3)
    #expect(throws: InvalidStateError(reason: "current position 3 is outside the queue of 1")) {
      try PlaybackState(
        checking: queue, session: nil, playWhenReady: true, issuedLoads: 0, issuedItems: 1)
    }
    let session = Session(load: Load(1, 1), stage: .buffering, lastWatchdog: WatchdogID(1))
    let current = PlayQueue(entries: [QueueEntry(item: ItemID(1), media: "A")], current: 0)
    #expect(throws: InvalidStateError(reason: "session token 1 was never issued (issuedLoads 0)")) {
      try PlaybackState(
        checking: current, session: session, playWhenReady: true, issuedLoads: 0, issuedItems: 1)
    }
  }
}
