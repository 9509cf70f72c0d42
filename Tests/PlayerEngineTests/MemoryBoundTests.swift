import Dispatch
import PlayerEngine
import PlayerState
import PlayerTesting
import Testing

/// An engine that answers every `load` with `ready` and every `seek` with its
/// completion from inside `execute`, and counts the commands it receives.
private final class EchoEngine: PlaybackEngine {
  private let counts = Locked([String: Int]())

  var received: [String: Int] { counts.withLock { $0 } }

  func execute(_ command: EngineCommand, reports: ReportSink) {
    counts.withLock { $0["\(command.kind)", default: 0] += 1 }
    switch command {
    case .load(let request): reports.send(.ready(request.load))
    case .seek(let load, _, let seek): reports.send(.seekCompleted(load, seek))
    case .preload, .start, .setRate, .pause, .stop, .setVolume: break
    }
  }
}

/// An engine that, inside `execute`, sends a burst of reports re-entrantly:
/// they queue up behind the current transition.
private final class BurstEngine: PlaybackEngine {
  let burst: Int

  init(burst: Int) { self.burst = burst }

  func execute(_ command: EngineCommand, reports: ReportSink) {
    guard case .load(let request) = command else { return }
    let load = request.load
    for _ in 0..<burst { reports.send(.stalled(load)) }
    reports.send(.ready(load))
  }
}

@Suite("Memory bounds: the driver's queue and the streams")
struct MemoryBoundTests {
  @Test func aBurstQueuedReEntrantlyIsGivenBackOnceDrained() {
    let player = Player(engine: BurstEngine(burst: 10_000))
    player.send(.play("A"))
    // Every queued report was reduced (none lost), in order: the stalls are
    // unexpected while buffering, the final ready is accepted.
    #expect(player.statistics.processed == 10_002)
    #expect(player.statistics.maxQueued == 10_001)
    #expect(player.state.description == "playing(A#1)")
    #expect(player.pendingCountForTesting == 0)
    #expect(player.pendingCapacityForTesting <= Player.retainedQueueCapacityForTesting)
  }

  @Test func aSmallBacklogKeepsItsBufferSoSteadyTrafficDoesNotAllocate() {
    let player = Player(engine: BurstEngine(burst: 10))
    player.send(.play("A"))
    #expect(player.statistics.processed == 12)
    #expect(player.pendingCapacityForTesting > 0)
    #expect(player.pendingCapacityForTesting <= Player.retainedQueueCapacityForTesting)
  }

  /// After a peak of 100,001 queued events, the backlog never empties: each
  /// processed event sends one more `pause` (from `onStep`, so it is queued)
  /// while at most 100 wait, 20,000 times. Only an empty queue frees its buffer, so
  /// this checks that compaction gives the peak back too.
  @Test func aBacklogThatNeverEmptiesGivesItsPeakBack() {
    struct Probe {
      var peakCapacity = 0
      var refills = 0
      /// Over the last 10,000 refills: the fewest queued and the largest buffer.
      var steadyMinCount = Int.max
      var steadyMaxCapacity = 0
    }
    let current = Locked<Player?>(nil)
    let probe = Locked(Probe())
    let player = Player(engine: BurstEngine(burst: 100_000)) { _ in
      guard let player = current.withLock({ $0 }) else { return }
      let count = player.pendingCountForTesting
      let capacity = player.pendingCapacityForTesting
      let refill = probe.withLock { probe -> Bool in
        probe.peakCapacity = max(probe.peakCapacity, capacity)
        guard count <= 100, probe.refills < 20_000 else { return false }
        probe.refills += 1
        if probe.refills > 10_000 {
          probe.steadyMinCount = min(probe.steadyMinCount, count)
          probe.steadyMaxCapacity = max(probe.steadyMaxCapacity, capacity)
        }
        return true
      }
      if refill { player.send(.pause) }  // acted on once, then `noEffect`: no command
    }
    current.withLock { $0 = player }
    player.send(.play("A"))
    current.withLock { $0 = nil }  // the callback no longer holds the player
    let seen = probe.withLock { $0 }
    #expect(player.statistics.processed == 120_002)
    #expect(player.statistics.maxQueued == 100_001)
    #expect(seen.peakCapacity >= 100_001)
    #expect(seen.refills == 20_000)
    // Never empty in the steady state, yet its buffer is back to a small one.
    #expect(seen.steadyMinCount >= 99)
    #expect(seen.steadyMaxCapacity <= 1_024)
    #expect(player.pendingCountForTesting == 0)
  }

  @Test func eightThreadsWithReEntrantReportsLoseNothing() async {
    let engine = EchoEngine()
    let player = Player(engine: engine)
    let perThread = 2_000
    await withTaskGroup(of: Void.self) { group in
      for thread in 0..<8 {
        group.addTask {
          for index in 0..<perThread {
            switch (thread + index) % 4 {
            case 0: player.send(.play(MediaID(thread % 2 == 0 ? "A" : "B")))
            case 1: player.send(.seek(to: .seconds(1)))
            case 2: player.send(.pause)
            default: player.send(.resume)
            }
          }
        }
      }
    }
    let received = engine.received
    // Each intent is one event; each load and seek adds one re-entrant report.
    let expected = UInt64(
      8 * perThread + received["load", default: 0] + received["seek", default: 0])
    #expect(player.statistics.processed == expected)
    #expect(player.pendingCountForTesting == 0)
    #expect(player.pendingCapacityForTesting <= Player.retainedQueueCapacityForTesting)
  }

  @Test func aSubscriberThatNeverReadsKeepsOnlyTheNewestByDefault() async {
    let player = Player(engine: SpyEngine())
    let steps = player.steps()
    for index in 0..<3_000 { player.send(index % 2 == 0 ? .play("A") : .stop) }
    var sequences: [UInt64] = []
    for await step in steps {
      sequences.append(step.sequence)
      if step.sequence == 3_000 { break }
    }
    #expect(Player.defaultBufferLimit == 1024)
    #expect(sequences.count == 1024)
    #expect(sequences.first == 1_977)
    #expect(sequences.last == 3_000)
  }

  @Test func anUnboundedSubscriberKeepsEverything() async {
    let player = Player(engine: SpyEngine())
    let ignored = player.ignoredReports(bufferingPolicy: .unbounded)
    for token in 1...2_000 { player.send(.ready(Load(1, UInt32(token)))) }
    var count = 0
    for await report in ignored {
      count += 1
      #expect(report.reason == .neverIssuedLoad)
      if count == 2_000 { break }
    }
    #expect(count == 2_000)
  }

  @Test func subscribeAndCancelChurnLeavesNoSubscriber() async {
    let player = Player(engine: SpyEngine())
    for _ in 0..<500 {
      let task = Task { for await _ in player.stateChanges() {} }
      player.send(.play("A"))
      task.cancel()
      await task.value
    }
    // Cancellation runs `onTermination`, which removes the subscriber.
    #expect(player.subscriberCountForTesting == 0)
  }

  @Test func droppingAPlayerMidFlightFinishesItsStreamsAndDropsLateReports() async {
    let spy = SpyEngine.cooperative(.later)
    var player: Player? = Player(engine: spy)
    let states = player?.stateChanges()
    player?.send(.play("A"))
    player = nil
    spy.deliverPending()  // the late ready finds no player: dropped, no crash
    var seen: [String] = []
    if let states { for await state in states { seen.append(state.description) } }
    #expect(seen == ["idle", "buffering(A#1, autoplay)"])
    #expect(spy.commandLog == ["load(A#1)"])
  }
}
