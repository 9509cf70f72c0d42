import PlayerEngine
import PlayerFuzz
import PlayerState
import Testing

/// Issue 21, item 6: one numbering for everything a player hands back to the
/// harness (its engine's: the tokens of the commands it sent), and a player
/// that mixes it up with its reducer's fails with its own error, which says
/// what was mixed up and which rule applies.
@Suite struct NumberingTests {
  /// How an adapter hands its loads back to the harness.
  enum Mistake: Sendable {
    /// Everything in the engine's numbering: the rule.
    case none
    /// `FuzzObservation.loads` straight from the reducer's state (its 1, 2, 3).
    case observationInReducerNumbering
    /// `FuzzObservation.loads` re-tagged with the wrong offset: tokens never issued.
    case observationOffByOne
    /// `FuzzEngine.onProcessed` given the event as the reducer saw it.
    case processedInReducerNumbering
    /// `FuzzEngine.onProcessed` given the event re-tagged with the wrong offset.
    case processedOffByOne
  }

  /// Playhead's `Player` behind a driver boundary that numbers the engine's
  /// loads 1001, 1002, …: out to the engine and back with `withLoad`.
  final class Offset: FuzzTarget, Sendable {
    /// The engine side of the boundary: commands renumbered, reports back.
    final class Engine: PlaybackEngine {
      let inner: any PlaybackEngine
      init(_ inner: any PlaybackEngine) { self.inner = inner }
      var capabilities: EngineCapabilities { inner.capabilities }
      func execute(_ command: EngineCommand, reports: ReportSink) {
        let renumbered = command.withLoad(out(command.load))
        inner.execute(
          renumbered,
          reports: ReportSink { report in reports.send(report.withLoad(back(report.load))) })
      }
    }

    let player: Player
    let mistake: Mistake

    init(engine: any PlaybackEngine, mistake: Mistake) {
      self.mistake = mistake
      var onStep: (@Sendable (PlayerStep) -> Void)?
      if let processed = FuzzEngine.onProcessed(for: engine) {
        // The reducer saw its own numbering; the harness sent the engine's.
        let tag: @Sendable (Load) -> Load =
          switch mistake {
          case .processedInReducerNumbering: { $0 }
          case .processedOffByOne: { out(out($0)) }
          default: out
          }
        onStep = { step in processed(step.event.withLoad(tag)) }
      }
      let configuration = PlayerConfiguration(retry: FuzzEngine.retry(for: engine))
      player = Player(
        engine: Engine(engine), state: PlaybackState(configuration: configuration),
        watchdog: FuzzEngine.watchdog(for: engine), onStep: onStep)
    }

    func send(_ event: PlaybackEvent) { player.send(event.withLoad(back)) }

    var observation: FuzzObservation {
      var seen = FuzzObservation(player.state)
      if mistake != .observationInReducerNumbering, let loads = seen.loads {
        let tag = mistake == .observationOffByOne ? { (load: Load) in out(out(load)) } : out
        seen.loads = (loads.current.map(tag), loads.preload.map(tag))
      }
      return seen
    }

    var stateDescription: String { player.state.description }

    static func subject(_ mistake: Mistake) -> FuzzSubject {
      .threadSafe(name: "Offset(\(mistake))") { engine in Offset(engine: engine, mistake: mistake) }
    }
  }

  @Test func anObservationInTheReducersNumberingSaysSo() throws {
    let violation = try #require(
      CaseRunner.check(Offset.subject(.observationInReducerNumbering), [.send(.play("A"))]))
    #expect(violation.property == .loadsInEngineNumbering)
    #expect(violation.step == 1)
    #expect(
      violation.detail
        == "FuzzObservation.loads names the current load A#1, its number in the contract's numbering (a new reducer's 1, 2, 3); the player's engine was sent it as A#1001. One numbering: every load the harness sends the player (reports, watchdog expiries, stale and forged ones) and every load it reads back (FuzzObservation.loads, the events passed to FuzzEngine.onProcessed) is named by the token of the command the player sent the harness's engine, not by its reducer's token; re-tag at the boundary with PlaybackEvent.withLoad or EngineReport.withLoad."
    )
    #expect(violation.actualLog == ["load(A#1)"])
    #expect(
      violation.description.hasPrefix(
        "property violated: loadsInEngineNumbering (the loads a player hands back are in its engine's numbering, as the harness sends them)\nat step 1: play(A)\n"
      ), "\(violation)")
  }

  @Test func anObservationOfATokenNeverIssuedSaysSo() throws {
    let actions: [FuzzAction] = [.send(.play("A")), .send(.ready(Load(1, 1)))]
    let violation = try #require(CaseRunner.check(Offset.subject(.observationOffByOne), actions))
    #expect(violation.property == .loadsInEngineNumbering)
    #expect(violation.step == 1)
    #expect(
      violation.detail
        == "FuzzObservation.loads names the current load A#2001, a token no command the player sent its engine carried (the contract's current load is A#1001 in the engine's numbering). One numbering: every load the harness sends the player (reports, watchdog expiries, stale and forged ones) and every load it reads back (FuzzObservation.loads, the events passed to FuzzEngine.onProcessed) is named by the token of the command the player sent the harness's engine, not by its reducer's token; re-tag at the boundary with PlaybackEvent.withLoad or EngineReport.withLoad."
    )
  }

  /// A random run shrinks the mix-up to its one action and names it.
  @Test func aRandomRunFindsTheMixUpAndShrinksIt() throws {
    let result = Fuzzer.run(
      Offset.subject(.observationInReducerNumbering),
      FuzzConfiguration(seed: 3, budget: .cases(200)))
    let failure = try #require(result.failure)
    #expect(failure.violation.property == .loadsInEngineNumbering)
    #expect(failure.actions.count == 1)
  }

  /// The rule kept: every serial mode passes, and the concurrent one.
  @Test func theRuleKeptPasses() throws {
    let subject = Offset.subject(.none)
    let result = Fuzzer.run(subject, FuzzConfiguration(seed: 5, budget: .cases(1_500)))
    #expect(result.failure == nil, "\(result.failure?.report ?? "")")
    let concurrent = try ConcurrentFuzz.run(
      subject, seed: 2, rounds: 4, threads: 3, eventsPerThread: 200)
    #expect(concurrent.violation == nil, "\(concurrent)")
  }

  @Test func aProcessedEventInTheReducersNumberingSaysSo() throws {
    let result = try ConcurrentFuzz.run(
      Offset.subject(.processedInReducerNumbering), seed: 1, rounds: 1, threads: 1,
      eventsPerThread: 200)
    let violation = try #require(result.violation, "\(result)")
    #expect(violation.property == .loadsInEngineNumbering)
    #expect(violation.step == 10)
    #expect(violation.event == .engine(.failed(Load(1, 1), .network, detail: nil)))
    #expect(
      violation.detail
        == "the player passed FuzzEngine.onProcessed failed(item1#1, network), an event the harness never sent it: it sent failed(item1#1001, network), the same event with the load in the engine's numbering (item1#1 is item1#1001's number in the contract's numbering, a new reducer's 1, 2, 3). One numbering: every load the harness sends the player (reports, watchdog expiries, stale and forged ones) and every load it reads back (FuzzObservation.loads, the events passed to FuzzEngine.onProcessed) is named by the token of the command the player sent the harness's engine, not by its reducer's token; re-tag at the boundary with PlaybackEvent.withLoad or EngineReport.withLoad."
    )
  }

  @Test func aProcessedEventNamingATokenNeverIssuedSaysSo() throws {
    let result = try ConcurrentFuzz.run(
      Offset.subject(.processedOffByOne), seed: 1, rounds: 1, threads: 1, eventsPerThread: 200)
    let violation = try #require(result.violation, "\(result)")
    #expect(violation.property == .loadsInEngineNumbering)
    #expect(violation.step == 10)
    #expect(violation.event == .engine(.failed(Load(1, 2001), .network, detail: nil)))
    #expect(
      violation.detail
        == "the player passed FuzzEngine.onProcessed failed(item1#2001, network), an event the harness never sent it (item1#2001 is no load the player sent its engine): each event must be passed as it was sent. One numbering: every load the harness sends the player (reports, watchdog expiries, stale and forged ones) and every load it reads back (FuzzObservation.loads, the events passed to FuzzEngine.onProcessed) is named by the token of the command the player sent the harness's engine, not by its reducer's token; re-tag at the boundary with PlaybackEvent.withLoad or EngineReport.withLoad."
    )
  }

  /// Loads the engine was sent, said in the contract's numbering: both the
  /// current load and the preload match the contract's numbers and not the
  /// engine's, so the mix-up is named even though each token was issued.
  @Test func issuedTokensInTheContractsNumberingAreNamed() {
    let engine = FuzzEngine(canPreload: true)
    let sink = ReportSink { _ in }
    // The player's engine numbering is the contract's plus one: 2, 3, 4.
    engine.execute(.load(LoadRequest(load: Load(1, 2), media: "A")), reports: sink)
    engine.execute(.stop(Load(1, 2)), reports: sink)
    engine.execute(.load(LoadRequest(load: Load(2, 3), media: "B")), reports: sink)
    engine.execute(.preload(LoadRequest(load: Load(3, 4), media: "C")), reports: sink)
    let media: [ItemID: MediaID] = [ItemID(1): "A", ItemID(2): "B", ItemID(3): "C"]
    // The contract: B#2 current, C#3 preloading; the engine knows them as B#3, C#4.
    let contract = (current: Load?.some(Load(2, 2)), preload: Load?.some(Load(3, 3)))
    #expect(
      engine.numberingMistake(contract, expected: contract, media: media)
        == "FuzzObservation.loads names the current load B#2, its number in the contract's numbering (a new reducer's 1, 2, 3); the player's engine was sent it as B#3. "
        + "One numbering: every load the harness sends the player (reports, watchdog expiries, stale and forged ones) and every load it reads back (FuzzObservation.loads, the events passed to FuzzEngine.onProcessed) is named by the token of the command the player sent the harness's engine, not by its reducer's token; re-tag at the boundary with PlaybackEvent.withLoad or EngineReport.withLoad."
    )
    // The engine's numbering is the rule: no mistake.
    #expect(
      engine.numberingMistake(
        (Load(2, 3), Load(3, 4)), expected: contract, media: media) == nil)
    // A stale load of the player's own (A#2, issued) is a wrong observation,
    // left to the comparison, not a numbering mistake.
    #expect(
      engine.numberingMistake((Load(1, 2), Load(3, 4)), expected: contract, media: media) == nil)
  }
}

/// The engine side's renumbering: the machine's token t is the engine's 1000 + t.
private func out(_ load: Load) -> Load {
  Load(item: load.item, token: LoadToken(load.token.rawValue == 0 ? 0 : load.token.rawValue + 1000))
}

/// Back from the engine's numbering: a token outside 1001…1999 is none of the machine's (0).
private func back(_ load: Load) -> Load {
  let token = load.token.rawValue
  return Load(item: load.item, token: LoadToken(token > 1000 && token < 2000 ? token - 1000 : 0))
}
