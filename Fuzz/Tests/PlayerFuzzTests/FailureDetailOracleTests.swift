import PlayerEngine
import PlayerFuzz
import PlayerState
import Testing

/// `PlaybackState.failure` is checked against the contract model where the player says it.
@Suite struct FailureDetailOracleTests {
  static let offline = FailureDetail(
    domain: "NSURLErrorDomain", code: -1009,
    message: "The Internet connection appears to be offline.")
  static let decoder = FailureDetail(
    domain: "AVFoundationErrorDomain", code: -11800, message: "The operation could not be completed"
  )

  /// How a driver mishandles the engine's error.
  enum Mistake: Sendable {
    /// Keeps only the failure class: the detail is lost.
    case drops
    /// Keeps the newest detail the engine gave on the player, not on the load:
    /// a later failure without one shows the old one.
    case keepsThePlayersLast
  }

  /// Playhead's `Player`, whose commands are all right, behind a driver that
  /// says the wrong failure detail.
  final class DetailPlayer: FuzzTarget {
    let player: Player
    let mistake: Mistake
    var last: FailureDetail?

    init(engine: any PlaybackEngine, mistake: Mistake) {
      player = Player(
        engine: engine, state: .fuzzed(by: engine), watchdog: FuzzEngine.watchdog(for: engine))
      self.mistake = mistake
    }

    func send(_ event: PlaybackEvent) {
      if case .engine(.failed(_, _, let detail?)) = event { last = detail }
      player.send(event)
    }

    var observation: FuzzObservation {
      var observation = FuzzObservation(player.state)
      switch mistake {
      case .drops:
        observation.failure = .some(nil)
      case .keepsThePlayersLast:
        let stage = player.state.session?.stage
        let failed =
          stage == .waitingForNetwork || { if case .failed = stage { true } else { false } }()
        observation.failure = .some(failed ? last : nil)
      }
      return observation
    }

    var stateDescription: String { player.state.description }
  }

  static func subject(_ mistake: Mistake) -> FuzzSubject {
    FuzzSubject(name: "\(mistake)") { DetailPlayer(engine: $0, mistake: mistake) }
  }

  @Test func playheadsObservationSaysTheSessionsFailure() {
    var state = PlaybackState()
    _ = state.handle(.play("A"))
    #expect(FuzzObservation(state).failure == .some(nil))
    _ = state.handle(.engine(.failed(Load(1, 1), .decoding, detail: Self.decoder)))
    #expect(FuzzObservation(state).failure == .some(Self.decoder))
    // Not said: nil, and an observation that does not say agrees with any.
    let silent = FuzzObservation(kind: .failed, isPlaying: false)
    #expect(silent.failure == nil)
  }

  @Test func playheadsPlayerKeepsTheDetailAsTheContractDoes() {
    let actions: [FuzzAction] = [
      .send(.play("A")), .send(.engine(.failed(Load(1, 1), .network, detail: Self.offline))),
      .send(.system(.networkAvailable)),
      .send(.engine(.failed(Load(1, 2), .decoding, detail: nil))),
      .send(.play("B")), .send(.engine(.failed(Load(2, 3), .notFound, detail: Self.decoder))),
    ]
    #expect(CaseRunner.check(.player, actions) == nil)
  }

  @Test func aPlayerThatDropsTheDetailIsCaught() throws {
    let actions: [FuzzAction] = [
      .send(.play("A")), .send(.engine(.failed(Load(1, 1), .decoding, detail: Self.decoder))),
    ]
    let violation = try #require(CaseRunner.check(Self.subject(.drops), actions))
    #expect(violation.property == .stateMatchesContract)
    #expect(violation.step == 2)
    #expect(
      violation.detail.hasSuffix(
        "; the player's failure detail: none, the contract's: "
          + "AVFoundationErrorDomain -11800 \"The operation could not be completed\""),
      "\(violation.detail)")
    // Waiting for the network keeps the detail too.
    let waiting: [FuzzAction] = [
      .send(.play("A")), .send(.engine(.failed(Load(1, 1), .network, detail: Self.offline))),
    ]
    #expect(CaseRunner.check(Self.subject(.drops), waiting)?.step == 2)
    // A failure without a detail is all the dropping player handles right.
    let bare: [FuzzAction] = [.send(.play("A")), .send(.failed(Load(1, 1), .decoding))]
    #expect(CaseRunner.check(Self.subject(.drops), bare) == nil)
  }

  @Test func aPlayerThatShowsAnOlderLoadsDetailIsCaught() throws {
    let actions: [FuzzAction] = [
      .send(.play("A")), .send(.engine(.failed(Load(1, 1), .decoding, detail: Self.decoder))),
      .send(.play("B")), .send(.failed(Load(2, 2), .timeout)),
    ]
    let violation = try #require(CaseRunner.check(Self.subject(.keepsThePlayersLast), actions))
    #expect(violation.property == .stateMatchesContract)
    #expect(violation.step == 4)
  }

  @Test(arguments: [Mistake.drops, .keepsThePlayersLast])
  func randomRunsFindAndShrinkIt(_ mistake: Mistake) throws {
    let result = Fuzzer.run(
      Self.subject(mistake), FuzzConfiguration(seed: 1, budget: .cases(20_000)))
    let failure = try #require(result.failure, "\(mistake) not found: \(result)")
    #expect(failure.property == .stateMatchesContract)
    // Two actions for `drops`: the player records the detail in its own `send`,
    // which a report sent from inside `execute` bypasses, so `reentrant
    // failed(A#1, network, detail)`, `play(A)` under the policy that fails at
    // once (`retry=off`) shows none where the contract keeps it. Three for
    // `keepsThePlayersLast` since issue 22 (as before issue 21): seed 1 finds
    // it through a stale failure whose detail the player keeps, `play(A)`,
    // `failed(stale, network, detail)`, `network lost`.
    #expect(failure.actions.count == (mistake == .drops ? 2 : 3), "\(failure)")
  }

  /// Playhead's `Player`, thread-safe, whose observation drops the detail.
  final class DroppingConcurrently: FuzzTarget, Sendable {
    let player: Player
    init(engine: any PlaybackEngine) {
      let processed = FuzzEngine.onProcessed(for: engine)
      player = Player(
        engine: engine, state: .fuzzed(by: engine), onStep: { step in processed?(step.event) })
    }
    func send(_ event: PlaybackEvent) { player.send(event) }
    var observation: FuzzObservation {
      var observation = FuzzObservation(player.state)
      observation.failure = .some(nil)
      return observation
    }
    var stateDescription: String { player.state.description }
  }

  @Test func theConcurrentModeComparesTheFinalFailureDetail() throws {
    let subject = FuzzSubject.threadSafe(name: "DroppingConcurrently") {
      DroppingConcurrently(engine: $0)
    }
    let result = try ConcurrentFuzz.run(
      subject, seed: 2, rounds: 60, threads: 2, eventsPerThread: 200)
    let violation = try #require(result.violation, "\(result)")
    #expect(violation.property == .stateMatchesContract)
    #expect(violation.detail.contains("; the player's failure detail: none, the contract's: "))
  }
}
