import Dispatch
import PlayerEngine
import PlayerState
import PlayerTesting
import Testing

/// An engine that answers `load` with `ready` from inside `execute` and
/// records how deeply `execute` calls nest: 1 means never recursive.
private final class NestingEngine: PlaybackEngine {
  private struct Record {
    var depth = 0
    var maxDepth = 0
    var log: [String] = []
    var media: [ItemID: MediaID] = [:]
  }
  private let record = Locked(Record())

  var maxDepth: Int { record.withLock { $0.maxDepth } }
  var log: [String] { record.withLock { $0.log } }

  func execute(_ command: EngineCommand, reports: ReportSink) {
    record.withLock {
      $0.depth += 1
      $0.maxDepth = max($0.maxDepth, $0.depth)
      if case .load(let request) = command { $0.media[request.load.item] = request.media }
      let media = $0.media
      $0.log.append(command.description(naming: { media[$0] }))
    }
    switch command {
    case .load(let request): reports.send(.ready(request.load))
    case .stop(let load):
      // Reports `ready` for the load the same transition is about to issue
      // (B, next token). Reduced only after that transition's `load` has run,
      // it starts B after loading it; reduced recursively, `start` would
      // reach the engine before `load`.
      // B is the second item issued.
      reports.send(.ready(Load(2, load.token.rawValue + 1)))
    case .preload, .start, .setRate, .pause, .seek, .setVolume: break
    }
    record.withLock { $0.depth -= 1 }
  }
}

/// An engine that, during `load`, reports `ready` from another thread and
/// waits for that thread to finish before returning.
private final class CrossThreadEngine: PlaybackEngine {
  private let timedOut = Locked(false)
  private let spy = SpyEngine()
  /// Its own thread, as a real back end has. A serial queue gets a thread of
  /// its own from libdispatch; `DispatchQueue.global()` does not, and on a
  /// 2-core machine whose pool is busy with other tests (the 8-thread test
  /// below) its block waited past the timeout.
  private let thread = DispatchQueue(label: "cross-thread-engine")

  var didTimeOut: Bool { timedOut.withLock { $0 } }
  var commandLog: [String] { spy.commandLog }

  func execute(_ command: EngineCommand, reports: ReportSink) {
    spy.execute(command, reports: ReportSink { _ in })
    guard case .load(let request) = command else { return }
    let load = request.load
    let done = DispatchSemaphore(value: 0)
    thread.async {
      reports.send(.ready(load))
      done.signal()
    }
    if done.wait(timeout: .now() + .seconds(10)) == .timedOut {
      timedOut.withLock { $0 = true }
    }
  }
}

@Suite("Driver: re-entrancy and threads")
struct DriverConcurrencyTests {
  @Test func reentrantReportsAreQueuedNotRecursive() {
    let engine = NestingEngine()
    let player = Player(engine: engine)
    player.send(.play("A"))
    #expect(player.state.description == "playing(A#1)")
    #expect(engine.log == ["load(A#1)", "start(A#1)"])
    #expect(engine.maxDepth == 1)
  }

  @Test func allCommandsOfATransitionRunBeforeTheNextEvent() {
    let engine = NestingEngine()
    let player = Player(engine: engine)
    player.send(.play("A"))
    player.send(.play("B"))
    // stop(A#1) reports ready(B#2) re-entrantly, before load(B#2) has run.
    #expect(engine.log == ["load(A#1)", "start(A#1)", "stop(A#1)", "load(B#2)", "start(B#2)"])
    #expect(player.state.description == "playing(B#2)")
    #expect(engine.maxDepth == 1)
    // play A, ready(A#1), play B, ready(B#2) from stop, ready(B#2) from load (a duplicate).
    #expect(player.statistics.processed == 5)
    #expect(player.statistics.ignoredReports == 1)
  }

  @Test func reportFromAnotherThreadDuringACommandDoesNotDeadlock() {
    let engine = CrossThreadEngine()
    let player = Player(engine: engine)
    player.send(.play("A"))
    #expect(engine.didTimeOut == false)
    #expect(player.state.description == "playing(A#1)")
    #expect(engine.commandLog == ["load(A#1)", "start(A#1)"])
  }

  @Test func cooperativeSpyAnsweringImmediatelyPlays() {
    let spy = SpyEngine.cooperative(.immediately)
    let player = Player(engine: spy)
    player.send(.play("A"))
    player.send(.seek(to: .seconds(3)))
    #expect(player.state.description == "playing(A#1)")
    #expect(spy.commandLog == ["load(A#1)", "start(A#1)", "seek(A#1, 3000ms, seek#1)"])
  }

  /// 8 threads × 100,000 events: none lost, and the final state and command
  /// log equal those of reducing the same events serially in processing order.
  @Test func eightThreadsLoseNothingAndMatchTheSerialOrder() {
    let threads = 8
    let perThread = 100_000
    let processed = Locked<[PlaybackEvent]>([])
    processed.withLock { $0.reserveCapacity(threads * perThread) }
    let spy = SpyEngine()
    // Timers held, never fired: a network failure's backoff on Dispatch firing after
    // `processed` is read would be a step the serial replay never saw.
    let timers = ManualTimers()
    let player = Player(
      engine: spy, watchdog: timers.policy,
      onStep: { step in processed.withLock { $0.append(step.event) } })

    DispatchQueue.concurrentPerform(iterations: threads) { thread in
      var random = SplitMix64(seed: UInt64(thread) &* 7919)
      let media: [MediaID] = ["A", "B"]
      for _ in 0..<perThread {
        let roll = random.next()
        // Items and tokens of this run and never-issued ones, against a queue that grows.
        let load = Load(UInt32(1 + (roll >> 8) % 8), UInt32(1 + (roll >> 16) % 6))
        let event: PlaybackEvent =
          switch roll % 14 {
          case 10: .next
          case 11: .previous
          case 12: .user(.append(media))
          case 13: .user(.remove(at: Int(roll >> 24 & 3)))
          case 0: .play(media[Int(roll >> 4 & 1)])
          case 1: .pause
          case 2: .resume
          case 3: .stop
          case 4: .seek(to: .milliseconds(Int64(roll >> 20 & 0xFFF)))
          case 5: .ready(load)
          case 6: .stalled(load)
          case 7: .resumed(load)
          case 8: .reachedEnd(load)
          default: .failed(load, .network)
          }
        player.send(event)
      }
    }

    let order = processed.withLock { $0 }
    #expect(order.count == threads * perThread)
    #expect(player.statistics.processed == UInt64(threads * perThread))

    let replay = serialReplay(order)
    #expect(player.state == replay.state)
    #expect(spy.commands == replay.commands)
  }
}
