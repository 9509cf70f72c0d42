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

private func forged(
  _ stage: EngineStage, token: UInt32 = 2, lastSeek: UInt32 = 1, pending: Bool = false,
  watchdog: UInt32 = 1
) -> PlaybackState {
  PlaybackState(
    session: Session(
      load: Load("A", token), stage: stage, playWhenReady: true, lastSeek: SeekID(lastSeek),
      seekPending: pending, lastWatchdog: WatchdogID(watchdog)),
    issuedLoads: 2)
}

let forgedStates: [ForgedState] = [
  ForgedState(
    name: "token never issued", state: forged(.ready, token: 5),
    violation: "session token 5 was never issued (issuedLoads 2)"),
  ForgedState(
    name: "token 0", state: forged(.ready, token: 0),
    violation: "session token 0 was never issued (issuedLoads 2)"),
  ForgedState(
    name: "seek pending with none issued", state: forged(.ready, lastSeek: 0, pending: true),
    violation: "a seek is pending but none was issued"),
  ForgedState(
    name: "seek pending at the end", state: forged(.ended, pending: true),
    violation: "a seek is pending in stage ended"),
  ForgedState(
    name: "seek pending after a failure", state: forged(.failed(.network), pending: true),
    violation: "a seek is pending in stage failed"),
  ForgedState(
    name: "no watchdog", state: forged(.buffering, watchdog: 0),
    violation: "a session without a watchdog (one is armed with every load)"),
]

@Suite("State invariants and ids that never wrap")
struct InvariantTests {
  @Test("a forged state is named and refused by the decoder", arguments: forgedStates)
  func forgedStateIsRefused(_ example: ForgedState) throws {
    #expect(example.state.invariantViolation == example.violation)
    let data = try JSONEncoder().encode(example.state)
    #expect(throws: DecodingError.self) { try JSONDecoder().decode(PlaybackState.self, from: data) }
  }

  @Test func everyStateTheTableReachesKeepsTheInvariants() {
    for state in TransitionTable.representativeStates {
      #expect(state.invariantViolation == nil, "\(state)")
      for event in TransitionTable.probeEvents(for: state) {
        #expect(state.transition(on: event).next.invariantViolation == nil, "\(state) + \(event)")
      }
    }
  }

  @Test func seekIdsNeverWrap() {
    let last = forged(.ready, lastSeek: .max)
    let seek = last.transition(on: .seek(to: .seconds(1)))
    #expect(seek.ignored == .idsExhausted)
    #expect(seek.next == last)
    #expect(seek.commands.isEmpty)
    let ended = forged(.ended, lastSeek: .max)
    #expect(ended.transition(on: .resume).ignored == .idsExhausted)
    // The newest seek, at the last id, still completes.
    let pending = forged(.ready, lastSeek: .max, pending: true)
    let done = pending.transition(on: .seekCompleted(Load("A", 2), SeekID(.max)))
    #expect(done.ignored == nil)
    #expect(done.next.description == "playing(A#2)")
  }

  @Test func watchdogIdsNeverWrap() {
    let last = forged(.ready, watchdog: .max)
    let stall = last.transition(on: .stalled(Load("A", 2)))
    #expect(stall.ignored == .idsExhausted)
    #expect(stall.next == last)
    #expect(stall.watchdog == nil)
  }
}
