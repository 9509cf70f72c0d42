import Dispatch
import PlayerEngine
import PlayerState
import PlayerTesting

/// The multi-threaded mode: several threads send random intents and reports
/// to one player at once (Playhead's ``PlayerEngine/Player`` by default, or any
/// ``FuzzSubject`` whose ``FuzzSubject/isThreadSafe`` is true) (some reports armed to be sent by the engine
/// from inside whichever command runs next, on whichever thread is driving),
/// and the engine log is checked afterwards
/// against the contract replayed in the order the player processed events.
///
/// The driver promises that events are reduced one at a time in arrival
/// order, none is lost, and all commands of one transition reach the engine
/// before the next event is reduced. So the engine's whole log must equal
/// the contract model's commands for the processing order the player reports
/// through ``FuzzEngine/onProcessed`` (Playhead's `Player` calls it from
/// `onStep`), and every event sent must have been processed.
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
  /// - Returns: counts and the first broken promise.
  public static func run(
    seed: UInt64, rounds: Int = 20, threads: Int = 4, eventsPerThread: Int = 500
  ) -> Result {
    execute(
      { engine in PlayerTarget(Player(engine: engine, onStep: recorder(engine))) },
      seed: seed, rounds: rounds, threads: threads, eventsPerThread: eventsPerThread)
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
  /// - Returns: counts and the first broken promise.
  /// - Throws: ``NotThreadSafe`` when the subject does not say it is thread-safe.
  public static func run(
    _ subject: FuzzSubject, seed: UInt64, rounds: Int = 20, threads: Int = 4,
    eventsPerThread: Int = 500
  ) throws(NotThreadSafe) -> Result {
    guard let make = subject.makeSendable else { throw NotThreadSafe(subject: subject.name) }
    return execute(
      make, seed: seed, rounds: rounds, threads: threads, eventsPerThread: eventsPerThread)
  }

  private static func recorder(_ engine: any PlaybackEngine) -> (@Sendable (PlayerStep) -> Void)? {
    guard let processed = FuzzEngine.onProcessed(for: engine) else { return nil }
    return { step in processed(step.event) }
  }

  private static func execute(
    _ subject: @Sendable (any PlaybackEngine) -> any FuzzTarget & Sendable, seed: UInt64,
    rounds: Int, threads: Int, eventsPerThread: Int
  ) -> Result {
    var result = Result(seed: seed, rounds: 0, events: 0, violation: nil, failedRound: nil)
    for round in 0..<rounds {
      result.rounds += 1
      result.events += threads * eventsPerThread
      let roundSeed = SplitMix64.caseSeed(run: seed, case: round)
      if let violation = runRound(
        subject, seed: roundSeed, threads: threads, eventsPerThread: eventsPerThread)
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
    threads: Int, eventsPerThread: Int
  ) -> FuzzViolation? {
    // The engine records the processing order, read back in the contract's
    // token numbering at the moment each event was processed.
    let engine = FuzzEngine(canPreload: false, recordsProcessing: true)
    let player = subject(engine)
    let direct = Locked(0)
    DispatchQueue.concurrentPerform(iterations: threads) { thread in
      var random = SplitMix64(seed: SplitMix64.caseSeed(run: seed, case: thread))
      var sent = 0
      for _ in 0..<eventsPerThread {
        let event = randomEvent(&random)
        if case .engine(let report) = event, random.next() % 8 == 0 {
          engine.arm(report)
        } else {
          player.send(engine.player(event))
          sent += 1
        }
      }
      direct.withLock { $0 += sent }
    }
    let processed = engine.processed
    var actual: [EngineCommand] = []
    var fired: [EngineReport] = []
    engine.drain(commands: &actual, sent: &fired)
    let delivered = direct.withLock { $0 } + fired.count
    var model = ContractModel(canPreload: false)
    var expected: [EngineCommand] = []
    for (index, event) in processed.enumerated() {
      let offset = expected.count
      let accepted = model.apply(event, commands: &expected)
      guard expected.count <= actual.count, actual[offset..<expected.count] == expected[offset...]
      else {
        let property = FuzzViolation.classify(
          expected: expected, actual: actual, from: offset, event: event, accepted: accepted)
        return FuzzViolation(
          property: property, step: index + 1, event: event, expected: expected, actual: actual,
          detail: "in processing order, with \(threads) threads sending at once")
      }
    }
    if processed.count != delivered || actual.count != expected.count {
      return FuzzViolation(
        property: .commandsMatchContract, step: processed.count, event: nil, expected: expected,
        actual: actual,
        detail: "\(delivered) events delivered, \(processed.count) processed; "
          + "\(expected.count) commands expected, \(actual.count) received")
    }
    let state = player.observation
    if state.kind != model.kind || state.isPlaying != model.engineIsPlaying {
      return FuzzViolation(
        property: .stateMatchesContract, step: processed.count, event: processed.last,
        expected: expected, actual: actual,
        detail: "the player ends \(player.stateDescription); the contract expects \(model.kind)")
    }
    return nil
  }

  /// A random event over a small domain, so that identities collide often.
  static func randomEvent(_ random: inout SplitMix64) -> PlaybackEvent {
    let bits = random.next()
    let load = Load(UInt32(bits & 1) + 1, UInt32((bits >> 1) % 5))
    let small = UInt32((bits >> 4) % 4)
    switch (bits >> 8) % 20 {
    case 14: return .queue(["A", "B"])
    case 15: return .next
    case 16: return .previous
    case 17: return .user(.remove(at: Int(small % 2)))
    case 18: return .user(.setRepeat(small % 2 == 0 ? .one : .all))
    case 19: return .position(load, .milliseconds(Int64(small) * 1000))
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
    case 12: return .failed(load, .network)
    default: return .watchdogExpired(load, WatchdogID(small))
    }
  }
}
