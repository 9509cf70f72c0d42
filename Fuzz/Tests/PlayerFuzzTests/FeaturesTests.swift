import PlayerEngine
import PlayerFuzz
import PlayerState
import Testing

/// Issue 21, item 5: a player that implements part of the contract is fuzzed
/// on that part only (`FuzzConfiguration.features`); the oracle is the same.
@Suite struct FeaturesTests {
  @Test(
    arguments: [
      (
        "queue,preload,system,network,controls,restore,sleepTimer,volume,fade,crossfade,live",
        FuzzFeatures.all,
        "queue,preload,system,network,controls,restore,sleepTimer,volume,fade,crossfade,live"
      ),
      (
        "queue,preload,system,network", [.queue, .preload, .system, .network],
        "queue,preload,system,network"
      ),
      ("network,queue", [.queue, .network], "queue,network"),
      ("sleepTimer,restore", [.restore, .sleepTimer], "restore,sleepTimer"),
      ("volume,queue", [.queue, .volume], "queue,volume"),
      ("fade,volume", [.volume, .fade], "volume,fade"),
      (" system , system ", .system, "system"),
      ("none", .core, "none"),
    ] as [(String, FuzzFeatures, String)])
  func aListParsesAndPrintsInOrder(_ list: String, _ features: FuzzFeatures, _ printed: String)
    throws
  {
    #expect(try FuzzFeatures(parsing: list) == features)
    #expect(features.description == printed)
    #expect(FuzzFeatures(printed) == features)
  }

  @Test(arguments: [
    (
      "queue,nope",
      "unknown feature 'nope'; expected a comma-separated subset of queue, preload, system, network, controls, restore, sleepTimer, volume, fade, crossfade, live (or none)"
    ),
    (
      "queue,,system",
      "an empty feature; expected a comma-separated subset of queue, preload, system, network, controls, restore, sleepTimer, volume, fade, crossfade, live (or none)"
    ),
    (
      "",
      "an empty feature; expected a comma-separated subset of queue, preload, system, network, controls, restore, sleepTimer, volume, fade, crossfade, live (or none)"
    ),
  ])
  func aBadListSaysWhy(_ list: String, _ message: String) {
    #expect(FuzzFeatures(list) == nil)
    do {
      _ = try FuzzFeatures(parsing: list)
      Issue.record("\(list) parsed")
    } catch {
      #expect(error.description == message)
    }
  }

  /// Every case of a core-only run: one entry at most, no preloading engine,
  /// retry off, and only the core's events (no queue, system or network event).
  @Test func theCoreGeneratesOnlyTheCore() {
    let configuration = FuzzConfiguration(seed: 7, features: .core)
    let core: Set<EventKind> = [
      .play, .pause, .resume, .stop, .seek, .retry, .rate, .ready, .stalled, .resumed, .seeked,
      .ended, .failed, .position, .timeout,
    ]
    var kinds: Set<EventKind> = []
    var starts = 0
    for index in 0..<400 {
      let seed = SplitMix64.caseSeed(run: 7, case: index)
      let (fuzzCase, violation) = Fuzzer.replayFuzzCase(.player, caseSeed: seed, configuration)
      #expect(violation == nil)
      #expect(!fuzzCase.canPreload)
      #expect(fuzzCase.retry == .off)
      if let start = fuzzCase.start {
        starts += 1
        #expect(start.queue.entries.count == 1)
        #expect(!start.interrupted)
      }
      for action in fuzzCase.actions {
        switch action {
        case .send(let event): kinds.insert(event.kind)
        case .reentrant(let report), .later(let report):
          kinds.insert(PlaybackEvent.engine(report).kind)
        case .deliver, .lifecycle: break
        }
      }
    }
    #expect(kinds == core)
    #expect(starts > 0)
  }

  /// A player broken in the queue's rules passes a run without the queue; one
  /// broken in the core is still found at its minimal length, shrunk within the core.
  @Test func aBugOutsideTheFeaturesIsNotGeneratedOneInsideIsFoundAndShrunkWithin() {
    let withoutQueue = FuzzConfiguration(
      seed: 1, budget: .cases(1_000), features: [.preload, .system, .network])
    #expect(Fuzzer.run(BuggyPlayer(.removeCurrentKeepsLoad).subject, withoutQueue).passed)
    let core = FuzzConfiguration(seed: 1, budget: .cases(20_000), features: .core)
    let failure = Fuzzer.run(BuggyPlayer(.stopNotSent).subject, core).failure
    #expect(failure?.actions == [.send(.play("A")), .send(.stop)])
    // The interruption bug needs the system's events: a core run has none.
    let quiet = FuzzConfiguration(seed: 1, budget: .cases(1_000), features: [.queue, .network])
    #expect(Fuzzer.run(BuggyPlayer(.interruptionEndWithoutHintResumes).subject, quiet).passed)
    let system = FuzzConfiguration(seed: 1, budget: .cases(20_000), features: .system)
    let found = Fuzzer.run(BuggyPlayer(.interruptionEndWithoutHintResumes).subject, system)
    #expect(found.failure?.actions.count == 2)
  }
}
