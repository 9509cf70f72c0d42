import PlayerState
import Testing

/// An event that must change nothing, and the reason the machine gives.
struct IgnoredCase: CustomTestStringConvertible, Sendable {
  let state: PlaybackState
  let event: PlaybackEvent
  let reason: IgnoreReason

  init(_ state: PlaybackState, _ event: PlaybackEvent, _ reason: IgnoreReason) {
    self.state = state
    self.event = event
    self.reason = reason
  }

  var testDescription: String { "\(state) + \(event) → \(reason)" }
}

let a1 = Load(1, 1)
let a3 = Load(1, 3)

let ignoredCases: [IgnoredCase] = [
  // Identity: never issued, stale, forged.
  .init(fixture(.buffering), .ready(a3), .neverIssuedLoad),
  .init(fixture(.buffering), .ready(Load(1, 0)), .neverIssuedLoad),
  .init(fixture(.buffering), .ready(a1), .staleLoad),
  .init(fixture(.buffering), .ready(Load(9, 2)), .itemMismatch),
  .init(idle2, .ready(a1), .staleLoad),
  .init(idle2, .ready(a2), .staleLoad),
  .init(idle2, .failed(a2, .network), .staleLoad),
  .init(fixture(.ready), .reachedEnd(a1), .staleLoad),
  .init(fixture(.ready), .failed(a1, .decoding), .staleLoad),
  .init(fixture(.ready), .stalled(a1), .staleLoad),
  .init(fixture(.buffering), .watchdogExpired(a1, WatchdogID(1)), .staleLoad),
  // Duplicates and reports the stage does not expect.
  .init(fixture(.ready), .ready(a2), .unexpected),
  .init(fixture(.ready, play: false), .ready(a2), .unexpected),
  .init(fixture(.buffering), .stalled(a2), .unexpected),
  .init(fixture(.stalled), .stalled(a2), .unexpected),
  .init(fixture(.ready), .resumed(a2), .unexpected),
  .init(fixture(.buffering), .reachedEnd(a2), .unexpected),
  .init(fixture(.ended), .reachedEnd(a2), .unexpected),
  .init(fixture(.failed(.network)), .failed(a2, .network), .unexpected),
  .init(fixture(.failed(.network)), .ready(a2), .unexpected),
  // Seeks.
  .init(fixture(.ready, seekPending: true), .seekCompleted(a2, SeekID(2)), .neverIssuedSeek),
  .init(fixture(.ready, seekPending: true), .seekCompleted(a2, SeekID(0)), .neverIssuedSeek),
  .init(fixture(.ready, seekPending: false), .seekCompleted(a2, SeekID(1)), .unexpected),
  .init(fixture(.ready, seekPending: true), .reachedEnd(a2), .seekPending),
  .init(fixture(.failed(.network)), .seekCompleted(a2, SeekID(2)), .unexpected),
  .init(fixture(.failed(.network)), .seekCompleted(a2, SeekID(1)), .unexpected),
  // The system.
  .init(fixture(.ready), .system(.interruptionEnded(shouldResume: true)), .notInterrupted),
  .init(queued(.ready, interrupted: true), .system(.interruptionBegan), .noEffect),
  .init(fixture(.ready), .engine(.pausedBySystem(Load(1, 1))), .staleLoad),
  .init(fixture(.ready, play: false), .engine(.pausedBySystem(a2)), .unexpected),
  .init(fixture(.ready), .system(.networkAvailable), .noEffect),
  .init(fixture(.ready), .system(.networkLost), .noEffect),
  .init(fixture(.ready, play: false), .system(.routeLost), .noEffect),
  .init(queued(.waitingForNetwork), .watchdogExpired(a2, WatchdogID(0)), .staleWatchdog),
  .init(queued(.waitingForNetwork), .ready(a2), .unexpected),
  // Negative times: refused, so no state holds one and no engine gets one.
  .init(fixture(.ready), .position(a2, .milliseconds(-5)), .unexpected),
  .init(fixture(.ready), .seek(to: .milliseconds(-100)), .invalidArgument),
  .init(idle2, .queue(["A", "B"], from: .milliseconds(-3)), .invalidArgument),
  .init(idle2, .play("A", from: .milliseconds(-1)), .invalidArgument),
  .init(fixture(.ready), .user(.jump(to: 0, from: .milliseconds(-1))), .invalidArgument),
  // Watchdogs.
  .init(fixture(.ready), .watchdogExpired(a2, WatchdogID(1)), .staleWatchdog),
  .init(fixture(.buffering), .watchdogExpired(a2, WatchdogID(2)), .staleWatchdog),
  .init(fixture(.ended), .watchdogExpired(a2, WatchdogID(1)), .staleWatchdog),
  // User intents that change nothing.
  .init(idle2, .pause, .noEffect),
  .init(idle2, .resume, .noEffect),
  .init(idle2, .stop, .noEffect),
  .init(idle2, .seek(to: .zero), .noEffect),
  .init(idle2, .retry, .noEffect),
  .init(fixture(.ready), .play("A"), .noEffect),
  .init(fixture(.ready), .resume, .noEffect),
  .init(fixture(.ready, play: false), .pause, .noEffect),
  .init(fixture(.ready), .retry, .noEffect),
  .init(fixture(.failed(.network)), .seek(to: .zero), .noEffect),
]

@Suite("Ignored events")
struct IgnoredEventTests {
  @Test("ignored event", arguments: ignoredCases)
  func ignored(_ example: IgnoredCase) {
    let transition = example.state.transition(on: example.event)
    #expect(transition.ignored == example.reason)
    #expect(transition.next == example.state)
    #expect(transition.commands.isEmpty)
    #expect(transition.watchdog == nil)
  }

  @Test func supersededSeekIsIgnoredButTheNewestCompletes() {
    let result = run([.play("A"), .ready(a1), .seek(to: .seconds(1)), .seek(to: .seconds(5))])
    let superseded = result.state.transition(on: .seekCompleted(a1, SeekID(1)))
    #expect(superseded.ignored == .supersededSeek)
    #expect(superseded.next.description == "playing(A#1, seek#2)")
    let newest = result.state.transition(on: .seekCompleted(a1, SeekID(2)))
    #expect(newest.ignored == nil)
    #expect(newest.next.description == "playing(A#1)")
  }

  /// Totality and the ignore contract over every representative state and probe event.
  @Test func everyIgnoredEventLeavesStateAndEngineAlone() {
    var ignored = 0
    var pairs = 0
    for state in TransitionTable.representativeStates {
      for event in TransitionTable.probeEvents(for: state) {
        pairs += 1
        let transition = state.transition(on: event)
        if transition.ignored != nil {
          ignored += 1
          #expect(transition.next == state, "\(state) + \(event)")
          #expect(transition.commands.isEmpty, "\(state) + \(event)")
        }
      }
    }
    #expect(pairs == 4092)
    #expect(ignored == 2394)
  }
}
