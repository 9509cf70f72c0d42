import PlayerEngine
import PlayerFuzz
import PlayerState
import PlayerTesting
import Testing

/// Issue 21, item 5: the features a player implements narrow every mode, not
/// only `FuzzConfiguration`: `ConcurrentFuzz` and `FuzzMeasurement` take them
/// too (all by default, as before).
@Suite struct FeaturesEverywhereTests {
  /// The single-item core's event kinds.
  static let core: Set<EventKind> = [
    .play, .pause, .resume, .stop, .seek, .retry, .rate, .ready, .stalled, .resumed, .seeked,
    .ended, .failed, .position, .timeout,
  ]

  /// Playhead's `Player`, but a player of single items with no system events:
  /// it drops every event outside the core unprocessed (as a player that
  /// does not handle them would).
  final class SingleItemOnly: FuzzTarget, Sendable {
    let player: Player

    init(engine: any PlaybackEngine) {
      var onStep: (@Sendable (PlayerStep) -> Void)?
      if let processed = FuzzEngine.onProcessed(for: engine) {
        onStep = { step in processed(step.event) }
      }
      let configuration = PlayerConfiguration(retry: FuzzEngine.retry(for: engine))
      player = Player(
        engine: engine, state: PlaybackState(configuration: configuration),
        watchdog: FuzzEngine.watchdog(for: engine), onStep: onStep)
    }

    func send(_ event: PlaybackEvent) {
      guard FeaturesEverywhereTests.core.contains(event.kind), event.source != .remote else {
        return
      }
      player.send(event)
    }

    var observation: FuzzObservation { FuzzObservation(player.state) }
    var stateDescription: String { player.state.description }

    static let subject = FuzzSubject.threadSafe(
      name: "SingleItemOnly", swiftExpression: "FeaturesEverywhereTests.SingleItemOnly.subject"
    ) { engine in SingleItemOnly(engine: engine) }
  }

  // MARK: ConcurrentFuzz

  @Test func theConcurrentSendersSendOnlyTheFeaturedKinds() {
    var random = SplitMix64(seed: 1)
    var kinds: Set<EventKind> = []
    for _ in 0..<3_000 {
      kinds.insert(ConcurrentFuzz.randomEvent(&random, features: .core).kind)
    }
    // The core less the rate, which the concurrent senders never change.
    #expect(
      kinds == [
        .play, .pause, .resume, .stop, .seek, .retry, .ready, .stalled, .resumed, .seeked, .ended,
        .failed, .position, .timeout,
      ])
    var withSystem = SplitMix64(seed: 1)
    kinds = []
    for _ in 0..<3_000 {
      kinds.insert(
        ConcurrentFuzz.randomEvent(&withSystem, features: .system).kind)
    }
    #expect(
      kinds.subtracting(Self.core) == [
        .interruptionBegan, .interruptionEnded, .routeLost, .pausedBySystem,
      ])
  }

  @Test func everyFeatureSendsWhatItSentBefore() {
    var before = SplitMix64(seed: 9)
    var now = SplitMix64(seed: 9)
    for _ in 0..<1_000 {
      #expect(
        ConcurrentFuzz.randomEvent(&before) == ConcurrentFuzz.randomEvent(&now, features: .all))
    }
    let policies = (0..<16).map { ConcurrentFuzz.policy(UInt64($0)) }
    #expect(policies == (0..<16).map { ConcurrentFuzz.policy(UInt64($0), features: .all) })
  }

  @Test func withoutTheNetworkEveryRoundRetriesNothing() {
    let policies = Set(
      (0..<16).map { ConcurrentFuzz.policy(UInt64($0), features: [.queue, .system]) })
    #expect(policies == [.off])
    let withNetwork = Set((0..<16).map { ConcurrentFuzz.policy(UInt64($0), features: .network) })
    #expect(withNetwork.count == 4)
  }

  @Test func aSingleItemPlayerPassesTheCoreAndFailsTheWhole() throws {
    let core = try ConcurrentFuzz.run(
      SingleItemOnly.subject, seed: 1, rounds: 5, threads: 4, eventsPerThread: 200,
      features: .core)
    #expect(core.violation == nil, "\(core)")
    #expect(core.events == 4_000)
    // Under the whole contract its first dropped event is stranded.
    let whole = try ConcurrentFuzz.run(
      SingleItemOnly.subject, seed: 1, rounds: 5, threads: 4, eventsPerThread: 200)
    let violation = try #require(whole.violation)
    #expect(violation.property == .driverIsSerial)
    #expect(whole.failedRound == 0)
  }

  @Test func aPlantedBugInTheFeaturesIsStillFound() throws {
    let stop = try ConcurrentFuzz.run(
      BuggyPlayer(.stopNotSent).concurrentSubject, seed: 1, rounds: 5, threads: 4,
      eventsPerThread: 200, features: .core)
    #expect(stop.violation != nil, "\(stop)")
    let interruption = BuggyPlayer(.interruptionEndWithoutHintResumes).concurrentSubject
    let quiet = try ConcurrentFuzz.run(
      interruption, seed: 7, rounds: 5, threads: 4, eventsPerThread: 200, features: .core)
    #expect(quiet.violation == nil, "\(quiet)")
    let found = try ConcurrentFuzz.run(
      interruption, seed: 7, rounds: 20, threads: 4, eventsPerThread: 300, features: .system)
    #expect(found.violation != nil, "\(found)")
  }

  // MARK: FuzzMeasurement

  @Test func theMeasurementsRunWithinTheFeatures() {
    let caught = FuzzMeasurement.catching(
      BuggyPlayer(.stopNotSent).subject, seeds: 2, caseBudget: 20_000, features: .core)
    #expect(caught.missed == 0)
    #expect(caught.shortest == 2)
    #expect(caught.seedsAtShortest == 2)
    let single = FuzzMeasurement.catching(
      SingleItemOnly.subject, seeds: 2, caseBudget: 300, features: .core)
    #expect(single.missed == 2)
    let rate = FuzzMeasurement.throughput(SingleItemOnly.subject, seconds: 0.2, features: .core)
    #expect(rate.passed, "\(rate)")
    #expect(rate.configuration.features == .core)
    let explored = FuzzMeasurement.exhaustive(
      SingleItemOnly.subject, seconds: 20, maxDepth: 2, features: .core)
    #expect(explored.counterexample == nil, "\(explored)")
    let whole = FuzzMeasurement.exhaustive(SingleItemOnly.subject, seconds: 20, maxDepth: 2)
    #expect(whole.counterexample != nil, "\(whole)")
  }
}
