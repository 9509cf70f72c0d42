import Dispatch
import PlayerEngine
package import PlayerState
import PlayerTesting

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The multi-threaded mode: several threads send random intents and reports
/// to one player at once (Playhead's ``PlayerEngine/Player`` by default, or any
/// ``FuzzSubject`` whose ``FuzzSubject/isThreadSafe`` is true) (some reports armed to be sent by the engine
/// from inside whichever command runs next, on whichever thread is driving),
/// and the engine log is checked afterwards
/// against the contract replayed in the order the player processed events.
///
/// The events are intents, engine reports (failures with and without the
/// engine's ``PlayerState/FailureDetail``, `pausedBySystem`), watchdog and
/// backoff expiries, and the system's events: interruptions begun and ended
/// with and without the resume hint (unpaired and duplicated ones come up by
/// chance, since each thread draws them independently), the route lost, the
/// network lost and back. Each round's player runs with a retry policy drawn
/// from the serial mode's (standard, off, 2 reloads capped at 800 ms), so waiting for the
/// network, running out of attempts and failing at once all come up.
///
/// The driver promises that events are reduced one at a time in arrival
/// order, none is lost, and all commands of one transition reach the engine
/// before the next event is reduced. So the engine's whole log must equal
/// the contract model's commands for the processing order the player reports
/// through ``FuzzEngine/onProcessed`` (Playhead's `Player` calls it from
/// `onStep`), and every event sent must have been processed.
///
/// The senders send in bursts (``defaultBurst`` events each), started
/// together and meeting again at a barrier; at each such quiescence, with no
/// sender inside the player, every event sent so far must have been processed
/// (a lost wake-up strands one in a queue nobody drains), and the engine
/// must never have had a command begun, or an event processed, while another
/// command ran (two drains at once, or a drain inside another):
/// ``FuzzProperty/driverIsSerial``.
///
/// Every event naming a load is sent in the player's engine numbering (the
/// tokens of the commands it sent the harness's engine), and the player must
/// pass ``FuzzEngine/onProcessed`` each event as it was sent: one it never
/// sent (the same report renumbered to the reducer's tokens, say) fails with
/// ``FuzzProperty/loadsInEngineNumbering``, which names the mix-up.
///
/// A player that does part of the contract says which part with `features`
/// (``FuzzFeatures``): the senders then send only the core's events and the
/// featured ones, and without ``FuzzFeatures/network`` every round runs with
/// `RetryPolicy.off` (as in ``FuzzConfiguration/features``). The engine of
/// this mode never preloads, whatever the features.
///
/// ```swift
/// let result = try ConcurrentFuzz.run(.player, seed: 42, rounds: 50)
/// #expect(result.violation == nil)
/// ```
public enum ConcurrentFuzz {
  /// The subject does not say it is thread-safe (``FuzzSubject/isThreadSafe``).
  public struct NotThreadSafe: Error, CustomStringConvertible {
    /// The subject's name.
    public var subject: String
    /// Why the run did not start.
    public var description: String {
      "\(subject) does not say it is thread-safe (FuzzSubject(threadSafe: true)); "
        + "the concurrent mode sends from several threads at once"
    }
  }

  /// What a concurrent run found.
  public struct Result: Sendable, CustomStringConvertible {
    /// The seed.
    public var seed: UInt64
    /// Rounds run (one fresh player each).
    public var rounds: Int
    /// Events sent in all rounds.
    public var events: Int
    /// The first broken promise, or nil.
    public var violation: FuzzViolation?
    /// The round it broke in.
    public var failedRound: Int?

    /// A summary.
    public var description: String {
      var text = "concurrent fuzz: seed \(seed), \(rounds) rounds, \(events) events"
      if let violation {
        text += "\nFAILED in round \(failedRound ?? 0)\n\(violation)"
      } else {
        text += ": every round's engine log matched the contract in processing order"
      }
      return text
    }
  }

  /// Runs `rounds` rounds of `threads` threads sending `eventsPerThread` events
  /// each to Playhead's `Player`.
  /// - Parameters:
  ///   - seed: the run's seed (thread interleavings still vary from run to run).
  ///   - rounds: how many fresh players to hammer.
  ///   - threads: concurrent senders per round.
  ///   - eventsPerThread: events each sender sends.
  ///   - eventsPerBurst: events each sender sends between two quiescences.
  ///   - features: the parts of the contract the senders exercise; all by default.
  /// - Returns: counts and the first broken promise.
  public static func run(
    seed: UInt64, rounds: Int = 20, threads: Int = 4, eventsPerThread: Int = 500,
    eventsPerBurst: Int = defaultBurst, features: FuzzFeatures = .all
  ) -> Result {
    execute(
      { engine in
        let configuration = PlayerConfiguration(retry: FuzzEngine.retry(for: engine))
        return PlayerTarget(
          Player(
            engine: engine, state: PlaybackState(configuration: configuration),
            onStep: recorder(engine)))
      },
      seed: seed, rounds: rounds, threads: threads, eventsPerThread: eventsPerThread,
      eventsPerBurst: eventsPerBurst, features: features)
  }

  /// Runs `rounds` rounds of `threads` threads sending `eventsPerThread` events
  /// each to a fresh player made by `subject`.
  /// - Parameters:
  ///   - subject: a thread-safe player that calls ``FuzzEngine/onProcessed``
  ///     after each event.
  ///   - seed: the run's seed (thread interleavings still vary from run to run).
  ///   - rounds: how many fresh players to hammer.
  ///   - threads: concurrent senders per round.
  ///   - eventsPerThread: events each sender sends.
  ///   - eventsPerBurst: events each sender sends between two quiescences.
  ///   - features: the parts of the contract the player implements
  ///     (``FuzzFeatures``): only the core's events and the featured ones are
  ///     sent. All by default.
  /// - Returns: counts and the first broken promise.
  /// - Throws: ``NotThreadSafe`` when the subject does not say it is thread-safe.
  public static func run(
    _ subject: FuzzSubject, seed: UInt64, rounds: Int = 20, threads: Int = 4,
    eventsPerThread: Int = 500, eventsPerBurst: Int = defaultBurst,
    features: FuzzFeatures = .all
  ) throws(NotThreadSafe) -> Result {
    guard let make = subject.makeSendable else { throw NotThreadSafe(subject: subject.name) }
    return execute(
      make, seed: seed, rounds: rounds, threads: threads, eventsPerThread: eventsPerThread,
      eventsPerBurst: eventsPerBurst, features: features)
  }

  private static func recorder(_ engine: any PlaybackEngine) -> (@Sendable (PlayerStep) -> Void)? {
    guard let processed = FuzzEngine.onProcessed(for: engine) else { return nil }
    return { step in processed(step.event) }
  }

  private static func execute(
    _ subject: @Sendable (any PlaybackEngine) -> any FuzzTarget & Sendable, seed: UInt64,
    rounds: Int, threads: Int, eventsPerThread: Int, eventsPerBurst: Int, features: FuzzFeatures
  ) -> Result {
    var result = Result(seed: seed, rounds: 0, events: 0, violation: nil, failedRound: nil)
    for round in 0..<rounds {
      result.rounds += 1
      result.events += threads * eventsPerThread
      let roundSeed = SplitMix64.caseSeed(run: seed, case: round)
      if let violation = runRound(
        subject, seed: roundSeed, threads: threads, eventsPerThread: eventsPerThread,
        eventsPerBurst: eventsPerBurst, features: features)
      {
        result.violation = violation
        result.failedRound = round
        break
      }
    }
    return result
  }

  static func runRound(
    _ subject: @Sendable (any PlaybackEngine) -> any FuzzTarget & Sendable, seed: UInt64,
    threads: Int, eventsPerThread: Int, eventsPerBurst: Int = defaultBurst,
    features: FuzzFeatures = .all
  ) -> FuzzViolation? {
    // The engine records the processing order, read back in the contract's
    // token numbering at the moment each event was processed.
    let retry = policy(seed, features: features)
    let engine = FuzzEngine(canPreload: false, retry: retry, recordsProcessing: true)
    let player = subject(engine)
    let direct = Locked(0)
    // Bursts: the senders start together, send a few events each, and meet
    // again; then, with no sender inside the player, everything sent must
    // have been processed and no two commands may have run at once.
    let perBurst = max(1, eventsPerBurst)
    let bursts = (eventsPerThread + perBurst - 1) / perBurst
    let barrier = Barrier(parties: threads + 1)
    let arrived = Locked(0)
    let stop = Locked(false)
    let stranded = Locked<FuzzViolation?>(nil)
    onNewThreads(threads + 1) { thread in
      if thread == threads {
        // The coordinator: checks each quiescence, and the contract so far.
        var model = ContractModel(canPreload: false, retry: retry)
        var expected: [EngineCommand] = []
        var events: [PlaybackEvent] = []
        var commands: [EngineCommand] = []
        var applied = 0
        for burst in 0..<bursts {
          barrier.wait()
          barrier.wait()
          guard stop.withLock({ !$0 }) else { continue }
          let (processed, fired, overlaps) = engine.quiescence
          let sent = direct.withLock { $0 } + fired
          var found: FuzzViolation?
          if let mixed = engine.unsentNumberingMistake {
            found = FuzzViolation(
              property: .loadsInEngineNumbering, step: processed, event: mixed.event,
              expected: [], actual: [], detail: mixed.detail)
          } else if processed != sent || overlaps > 0 {
            let detail =
              overlaps > 0
              ? "two drains at once: a command began, or an event was processed, while another command was being executed (\(overlaps) times by burst \(burst + 1) of \(bursts)); "
              : "after burst \(burst + 1) of \(bursts), with every sender returned, \(sent) events were sent and \(processed) processed: \(sent - processed) stranded in a queue nobody drains (a lost wake-up); "
            found = FuzzViolation(
              property: .driverIsSerial, step: processed, event: nil, expected: [], actual: [],
              detail: detail + "\(threads) threads sending \(perBurst) events each per burst, "
                + describe(retry))
          } else {
            // Everything processed: the commands and the state so far agree
            // with the contract replayed in processing order.
            engine.progress(events: &events, commands: &commands)
            found = check(
              &model, &expected, events: events[applied...], actual: commands, player: player,
              context: "at the quiescence after burst \(burst + 1) of \(bursts), "
                + "\(threads) threads sending at once, " + describe(retry))
            applied = events.count
          }
          if let found {
            stranded.withLock { $0 = found }
            stop.withLock { $0 = true }
          }
        }
        return
      }
      var random = SplitMix64(seed: SplitMix64.caseSeed(run: seed, case: thread))
      for burst in 0..<bursts {
        barrier.wait()
        if !stop.withLock({ $0 }) {
          // Line up: each sender checks in, then spins (briefly) until all
          // have, so that they enter the player together, not a wake-up apart.
          // After its first 1,000 turns it yields its core at each turn: with
          // fewer cores than senders, the ones still to check in wait for a core
          // a spinner holds (spinning alone, up to the whole 20,000 turns every
          // burst: on 2 cores, 4 threads' 200 rounds took 163 CPU-s in release
          // and far more under ThreadSanitizer). With a core each, nothing else
          // is runnable and a yield returns at once.
          arrived.withLock { $0 += 1 }
          let all = (burst + 1) * threads
          var spins = 0
          while spins < 20_000, arrived.withLock({ $0 }) < all {
            spins += 1
            if spins > 1_000 { sched_yield() }
          }
          var sent = 0
          for _ in 0..<min(perBurst, eventsPerThread - burst * perBurst) {
            let event = randomEvent(&random, near: engine.newestLoad, features: features)
            if case .engine(let report) = event, random.next() % 8 == 0 {
              engine.arm(report)
            } else {
              player.send(engine.sending(event))
              sent += 1
            }
          }
          direct.withLock { $0 += sent }
        }
        barrier.wait()
      }
    }
    if let violation = stranded.withLock({ $0 }) {
      var violation = violation
      var actual: [EngineCommand] = []
      var fired: [EngineReport] = []
      engine.drain(commands: &actual, sent: &fired)
      violation.actual = actual
      return violation
    }
    let processed = engine.processed
    var actual: [EngineCommand] = []
    var fired: [EngineReport] = []
    engine.drain(commands: &actual, sent: &fired)
    let delivered = direct.withLock { $0 } + fired.count
    // The quiescences' own check (``check``), once more over the whole round from a new model:
    // one check, not a copy of it (issue 39, item 5).
    var model = ContractModel(canPreload: false, retry: retry)
    var expected: [EngineCommand] = []
    let context = "at the end of the round, \(threads) threads sending at once, " + describe(retry)
    if let found = check(
      &model, &expected, events: processed[...], actual: actual, player: player, context: context)
    {
      return found
    }
    if processed.count != delivered {
      return FuzzViolation(
        property: .commandsMatchContract, step: processed.count, event: nil, expected: expected,
        actual: actual,
        detail: "\(delivered) events delivered, \(processed.count) processed " + context)
    }
    return nil
  }

  /// Replays the events processed since the last check on `model` (the
  /// commands predicted so far in `expected`); the engine's whole log must
  /// equal `expected`, and the player's state (its whole public state when it
  /// says it) the contract's.
  private static func check(
    _ model: inout ContractModel, _ expected: inout [EngineCommand],
    events: ArraySlice<PlaybackEvent>, actual: [EngineCommand], player: any FuzzTarget,
    context: String
  ) -> FuzzViolation? {
    var step = events.startIndex
    for event in events {
      step += 1
      let offset = expected.count
      let accepted = model.apply(event, commands: &expected)
      guard expected.count <= actual.count, actual[offset..<expected.count] == expected[offset...]
      else {
        let property = FuzzViolation.classify(
          expected: expected, actual: actual, from: offset, event: event, accepted: accepted)
        return FuzzViolation(
          property: property, step: step, event: event, expected: expected, actual: actual,
          detail: "in processing order " + context)
      }
    }
    if actual.count != expected.count {
      return FuzzViolation(
        property: .commandsMatchContract, step: step, event: events.last, expected: expected,
        actual: actual,
        detail: "\(expected.count) commands expected, \(actual.count) received " + context)
    }
    let state = player.observation
    let difference = state.box.flatMap { model.difference(from: $0.state) }
    if state.kind != model.kind || state.isPlaying != model.engineIsPlaying
      || state.failure.map({ $0 != model.current?.failure }) == true || difference != nil
    {
      return FuzzViolation(
        property: difference?.property ?? .stateMatchesContract, step: step, event: events.last,
        expected: expected, actual: actual,
        detail: "the player is \(player.stateDescription); the contract expects \(model.kind)"
          + CaseRunner.failureDescription(seen: state.failure, expected: model.current?.failure)
          + (difference.map { "; \($0.text)" } ?? "") + "; " + context)
    }
    return nil
  }

  /// Events each sender sends per burst by default: one, so that a round of
  /// 500 events a thread has 500 quiescences to be checked at.
  public static let defaultBurst = 1

  /// The round's retry policy, drawn from the serial mode's by the round's
  /// seed; `RetryPolicy.off` without ``FuzzFeatures/network``.
  package static func policy(_ seed: UInt64, features: FuzzFeatures = .all) -> RetryPolicy {
    guard features.contains(.network) else { return .off }
    var random = SplitMix64(seed: seed ^ 0x5245_5452_59)
    return ActionDecoder.policies[Int(random.next() % UInt64(ActionDecoder.policies.count))]
  }

  private static func describe(_ retry: RetryPolicy) -> String {
    "retry policy: \(retry.attempts) reloads after \(retry.backoff.roundedMilliseconds)ms, "
      + "at most \(retry.maximumBackoff.roundedMilliseconds)ms"
  }

  /// A random event over a small domain, so that identities collide often:
  /// intents, engine reports (failures of every kind the machine tells apart,
  /// with and without the engine's detail), watchdog and backoff expiries, and
  /// the system's events.
  /// - Parameters:
  ///   - random: the sender's generator.
  ///   - near: the newest load the engine was told about, if any: three
  ///     reports and expiries in four name it (the rest name item 1 or 2 with
  ///     a token up to 4, mostly stale), so that loads get ready and play and
  ///     the system's events meet playing loads.
  ///   - features: the features whose event kinds are sent (``FuzzFeatures/sends(_:)``).
  /// - Returns: the event, in the contract's token numbering.
  package static func randomEvent(
    _ random: inout SplitMix64, near: Load? = nil, features: FuzzFeatures
  ) -> PlaybackEvent {
    // Drawn again until it is of a kind sent (the core's are 17 of the 30 draws).
    while true {
      let event = randomEvent(&random, near: near)
      if features.sends(event.kind) { return event }
    }
  }

  /// ``randomEvent(_:near:features:)`` of every kind.
  package static func randomEvent(_ random: inout SplitMix64, near: Load? = nil) -> PlaybackEvent {
    let bits = random.next()
    var load = Load(UInt32(bits & 1) + 1, UInt32((bits >> 1) % 5))
    if let near, (bits >> 60) & 3 != 0 { load = near }
    let small = UInt32((bits >> 4) % 4)
    switch (bits >> 8) % 30 {
    case 0: return .play("A")
    case 1: return .play("B")
    case 2: return .pause
    case 3: return .resume
    case 4: return .stop
    case 5: return .seek(to: .milliseconds(Int64(small) * 1000))
    case 6: return .retry
    case 7: return .ready(load)
    case 8: return .stalled(load)
    case 9: return .resumed(load)
    case 10: return .seekCompleted(load, SeekID(small))
    case 11: return .reachedEnd(load)
    case 12, 13:
      // Network failures wait (or fail, once the attempts are spent); the
      // others fail at once. Half carry the engine's own error.
      let reason: FailureReason = (bits >> 16) % 3 == 0 ? .decoding : .network
      let details = ActionDecoder.details
      let detail = (bits >> 18) & 1 == 0 ? nil : details[Int((bits >> 19) % UInt64(details.count))]
      return .engine(.failed(load, reason, detail: detail))
    case 14: return .queue(["A", "B"])
    case 15: return .next
    case 16: return .previous
    case 17: return .user(.remove(at: Int(small % 2)))
    case 18: return .user(.setRepeat(small % 2 == 0 ? .one : .all))
    case 19: return .position(load, .milliseconds(Int64(small) * 1000))
    case 20: return .engine(.pausedBySystem(load))
    case 21, 22: return .system(.interruptionBegan)
    case 23: return .system(.interruptionEnded(shouldResume: true))
    case 24: return .system(.interruptionEnded(shouldResume: false))
    case 25: return .system(.routeLost)
    case 26: return .system(.networkLost)
    case 27: return .system(.networkAvailable)
    default: return .watchdogExpired(load, WatchdogID(small))
    }
  }
}
