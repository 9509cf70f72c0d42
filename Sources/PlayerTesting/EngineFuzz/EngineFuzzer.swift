public import PlayerEngine
public import PlayerState

/// A randomized conformance fuzzer for a ``PlayerEngine/PlaybackEngine``: seeded
/// sequences of hostile command rhythms, sent straight to a fresh engine per
/// case with real time between them, every report judged against the engine
/// contract's promises (the same judge as ``EngineConformance``'s), and the
/// first failure shrunk to a minimal ``EngineFuzzScript``.
///
/// ```swift
/// let fuzzer = EngineFuzzer(.init(media: ["file:///tmp/tone.wav"], budget: .seconds(5)))
/// let report = await fuzzer.run { .realTime(MyEngine()) }
/// #expect(report.failure == nil, "\(report)")
/// ```
///
/// Each case sends ``Configuration/commandsPerCase`` commands chosen from the
/// case's seed by a model of how the machine issues identities (tokens
/// increase and are never reused, seek ids increase per load, only the
/// current load is started, paused and sought, preloads only to engines that
/// declare ``PlayerEngine/EngineCapabilities/preload``), in bursts of hostile
/// rhythms: switching media while buffering, rapid load/start/stop, seek
/// storms, start/pause flapping, stop right after a seek, preload then skip
/// or drop, with gaps of 0 ms (back to back, earlier commands still in
/// flight) up to ~0.8 s. The commands depend on the seed only; the timing is
/// real, so an engine's answers may differ between runs.
///
/// Judged as each report arrives (``EnginePromise``): every report names an
/// issued load, a seek completion names a seek sent, a `position` or
/// `pausedBySystem` never names an unstarted load, nothing names a stopped
/// preload. Judged once the case's commands have returned and the engine had
/// ``Configuration/timeout``: `execute` returned, every load and preload not
/// stopped was answered, unplayable media failed, and the newest seek of every
/// live, ready load completed with its own id. Absorbed breaches (late reports
/// after `stop`, repeats, reports from inside `execute`) are counted, not failed.
///
/// Memory: a case keeps its commands, one record per issued load, and at most
/// ``Configuration/reportsKept`` entries in each of its growing lists (the
/// transcript, failures, violations, each load's positions); a run keeps one
/// case at a time plus the failure.
public struct EngineFuzzer: Sendable {
  /// What the fuzzer sends, how long it runs and how it waits.
  public struct Configuration: Sendable {
    /// Media the engine can play (it may still answer `failed`, say for a
    /// truncated file): loads of them must be answered, either way.
    public var media: [MediaID]
    /// Media the engine cannot play: loads of them must be answered `failed`.
    public var unplayableMedia: [MediaID]
    /// Positions for seeks and load starts: each within every playable media.
    public var seekPositions: [MediaTime]
    /// How long the run may take: a number of commands or of seconds.
    public var budget: Budget
    /// The run's seed: the commands of every case follow from it.
    public var seed: UInt64
    /// The commands of one case.
    public var commandsPerCase: Int
    /// How long an expected `execute` return, answer or seek completion is
    /// awaited (in real time; in virtual time the clock is advanced this far).
    public var timeout: Duration
    /// In real time, how long the fuzzer watches for late reports at the end of a case.
    public var quietPeriod: Duration
    /// How many times a shrinking candidate is run before it counts as
    /// passing (real time is not deterministic; virtual time runs once).
    public var attempts: Int
    /// The most case runs shrinking may take.
    public var shrinkRuns: Int
    /// The bound on each growing list of a case (see ``EngineFuzzer``).
    public var reportsKept: Int
    /// The Swift expression that makes the engine, in the printed test:
    /// `.realTime(MyEngine())`.
    public var engineSource: String

    /// A configuration.
    /// - Parameters:
    ///   - media: playable media; loads pick among these and `unplayableMedia`.
    ///   - unplayableMedia: media whose loads must fail.
    ///   - seekPositions: seek targets and load starts; `[0ms, 100ms]` by default.
    ///   - budget: 200 commands by default.
    ///   - seed: the run's seed; 0 by default.
    ///   - commandsPerCase: commands per case; 40 by default.
    ///   - timeout: the wait for what must come; 5 s by default.
    ///   - quietPeriod: the wait for late reports at the end of a case; 100 ms by default.
    ///   - attempts: runs per shrinking candidate in real time; 3 by default.
    ///   - shrinkRuns: the most runs shrinking takes; 300 by default.
    ///   - reportsKept: the bound on each growing list of a case; 1000 by default.
    ///   - engineSource: the engine's Swift expression for the printed test.
    public init(
      media: [MediaID], unplayableMedia: [MediaID] = [],
      seekPositions: [MediaTime] = [.zero, .milliseconds(100)],
      budget: Budget = .commands(200), seed: UInt64 = 0, commandsPerCase: Int = 40,
      timeout: Duration = .seconds(5), quietPeriod: Duration = .milliseconds(100),
      attempts: Int = 3, shrinkRuns: Int = 300, reportsKept: Int = 1_000,
      engineSource: String = ".realTime(MyEngine())"
    ) {
      self.media = media
      self.unplayableMedia = unplayableMedia
      self.seekPositions = seekPositions.isEmpty ? [.zero] : seekPositions
      self.budget = budget
      self.seed = seed
      self.commandsPerCase = max(commandsPerCase, 1)
      self.timeout = timeout
      self.quietPeriod = quietPeriod
      self.attempts = max(attempts, 1)
      self.shrinkRuns = max(shrinkRuns, 0)
      self.reportsKept = max(reportsKept, 1)
      self.engineSource = engineSource
    }

    /// The media scripts name by letter: ``media`` then ``unplayableMedia``
    /// (`A` is the first playable one).
    public var allMedia: [MediaID] { media + unplayableMedia }
  }

  /// How long a run goes on: cases are run until the budget is spent (a case
  /// is never cut short).
  public enum Budget: Sendable, Hashable {
    /// At least this many commands.
    case commands(Int)
    /// At least this much real time.
    case duration(Duration)

    /// At least this many seconds of real time.
    public static func seconds(_ seconds: Double) -> Budget { .duration(.seconds(seconds)) }
  }

  /// The configuration.
  public var configuration: Configuration

  /// A fuzzer.
  /// - Parameter configuration: what to send and for how long.
  public init(_ configuration: Configuration) {
    self.configuration = configuration
  }

  /// Runs cases against fresh engines until the budget is spent or a case
  /// breaks a promise; then shrinks that case to a minimal script.
  /// - Parameter makeEngine: makes the engine under test, once per case run.
  /// - Returns: what was run and checked, and the failure, if any.
  public func run(against makeEngine: @escaping @Sendable () -> FuzzedEngine) async
    -> EngineFuzzReport
  {
    let clock = ContinuousClock()
    let started = clock.now
    let preloads = makeEngine().engine.capabilities.contains(.preload)
    var report = EngineFuzzReport(seed: configuration.seed)
    while !spent(report, since: started, clock: clock) {
      let caseSeed = SplitMix64.caseSeed(run: configuration.seed, case: report.cases)
      let script = generate(caseSeed: caseSeed, preloads: preloads)
      let outcome = await check(script, against: makeEngine)
      report.cases += 1
      report.commands += script.steps.count
      report.reportsChecked += outcome.reportsChecked
      report.absorb(outcome.notes)
      if !outcome.violations.isEmpty {
        report.failure = await shrink(
          script, outcome: outcome, caseIndex: report.cases - 1, caseSeed: caseSeed,
          against: makeEngine)
        break
      }
    }
    report.elapsed = clock.now - started
    return report
  }

  private func spent(
    _ report: EngineFuzzReport, since start: ContinuousClock.Instant, clock: ContinuousClock
  )
    -> Bool
  {
    switch configuration.budget {
    case .commands(let count): report.commands >= count
    case .duration(let duration): clock.now - start >= duration
    }
  }

  /// The script of one case: its commands follow from `caseSeed` alone.
  /// - Parameters:
  ///   - caseSeed: the case's seed, as printed in a failure.
  ///   - preloads: whether to send `preload` (the engine declares the capability).
  /// - Returns: ``Configuration/commandsPerCase`` steps.
  public func generate(caseSeed: UInt64, preloads: Bool = true) -> EngineFuzzScript {
    generate(SplitMix64(seed: caseSeed), preloads: preloads)
  }

  /// The script a libFuzzer input decodes to: the same generator as
  /// ``generate(caseSeed:preloads:)``, its choices read from `bytes` instead
  /// of a seeded generator, so every input gives a script the machine could
  /// send (identities issued as the machine issues them).
  /// - Parameters:
  ///   - bytes: the input; each choice reads one byte (two when it is among
  ///     more than 256 values, as a gap in milliseconds may be), zeros once the
  ///     bytes run out, and generation stops at the end of that burst.
  ///   - preloads: whether to send `preload` (the engine declares the capability).
  /// - Returns: at most ``Configuration/commandsPerCase`` steps; none for no bytes.
  public func generate(bytes: [UInt8], preloads: Bool = true) -> EngineFuzzScript {
    generate(FuzzBytes(bytes), preloads: preloads)
  }

  private func generate(_ choices: some FuzzChoices, preloads: Bool) -> EngineFuzzScript {
    var generator = FuzzGenerator(
      choices, media: configuration.allMedia, positions: configuration.seekPositions,
      preloads: preloads)
    return EngineFuzzScript(
      steps: generator.steps(configuration.commandsPerCase), media: configuration.allMedia)
  }

  /// Reads a script (printed by a failure) and runs it once against a fresh engine.
  /// - Parameters:
  ///   - text: the script.
  ///   - file: its file name, for errors.
  ///   - makeEngine: makes the engine under test.
  /// - Returns: what the engine broke, if anything.
  /// - Throws: ``EngineFuzzScriptError`` if the script cannot be read.
  public func replay(
    _ text: String, file: String = "script",
    against makeEngine: @escaping @Sendable () -> FuzzedEngine
  ) async throws(EngineFuzzScriptError) -> EngineFuzzOutcome {
    let script = try EngineFuzzScript.parse(text, media: configuration.allMedia, file: file)
    return await check(script, against: makeEngine)
  }

  /// Runs a script once against a fresh engine and judges every report.
  /// - Parameters:
  ///   - script: the commands and delays.
  ///   - makeEngine: makes the engine under test.
  /// - Returns: what the engine broke, if anything.
  public func check(
    _ script: EngineFuzzScript, against makeEngine: @escaping @Sendable () -> FuzzedEngine
  ) async -> EngineFuzzOutcome {
    let subject = makeEngine()
    let steps = steps(of: script, for: subject.engine)
    return await FuzzCase(
      subject: subject, configuration: configuration, steps: steps, media: script.media
    ).run()
  }

  /// Runs a script once against an engine over a virtual clock, synchronously:
  /// no real time passes and nothing suspends (for a libFuzzer entry point or
  /// any other synchronous caller). `preload` commands go to the engine only
  /// if it declares the capability, as in ``check(_:against:)``.
  /// - Parameters:
  ///   - script: the commands and delays.
  ///   - engine: a fresh engine.
  ///   - advance: moves the engine's clock forward, delivering what falls due.
  /// - Returns: what the engine broke, if anything.
  public func check(
    _ script: EngineFuzzScript, engine: any PlaybackEngine,
    advance: @escaping @Sendable (Duration) -> Void
  ) -> EngineFuzzOutcome {
    FuzzCase(
      subject: .virtual(engine, advance: advance), configuration: configuration,
      steps: steps(of: script, for: engine), media: script.media
    ).run(advancing: advance)
  }

  /// The script's steps an engine is sent: without `preload` (and its load's
  /// commands) unless the engine declares the capability.
  private func steps(of script: EngineFuzzScript, for engine: any PlaybackEngine)
    -> [EngineFuzzScript.Step]
  {
    if engine.capabilities.contains(.preload) { return script.steps }
    let dropped = Set(
      script.steps.compactMap { step -> LoadToken? in
        if case .preload(let request) = step.command { return request.load.token }
        return nil
      })
    return FuzzShrinker.removing(dropped, from: script.steps)
  }
}

/// The engine under test, and how time passes for it.
public struct FuzzedEngine: Sendable {
  /// The engine.
  public let engine: any PlaybackEngine
  /// Advances the engine's virtual clock, or nil for real time.
  let advance: (@Sendable (Duration) -> Void)?

  /// An engine that answers on its own threads, in real time: the fuzzer
  /// sleeps between commands and awaits reports.
  /// - Parameter engine: the engine.
  /// - Returns: the engine under test.
  public static func realTime(_ engine: any PlaybackEngine) -> FuzzedEngine {
    FuzzedEngine(engine: engine, advance: nil)
  }

  /// An engine over a virtual clock: the fuzzer calls `advance` instead of
  /// sleeping, runs commands on its own thread, and no real time passes.
  /// - Parameters:
  ///   - engine: the engine.
  ///   - advance: moves the engine's clock forward, delivering what falls due.
  /// - Returns: the engine under test.
  public static func virtual(
    _ engine: any PlaybackEngine, advance: @escaping @Sendable (Duration) -> Void
  ) -> FuzzedEngine {
    FuzzedEngine(engine: engine, advance: advance)
  }
}
