import Dispatch
import PlayerEngine
import PlayerState
import PlayerTesting
import Testing

/// The system's pauses through the real `Player`: the bug classes issue 10
/// names, with engines that answer late, re-entrantly and from other threads,
/// asserted on the final state and the engine's whole command log.
@Suite("The system through the driver: interruptions, system pauses, network waits")
struct SystemDriverTests {
  /// The complaint that opened the issue: the engine went silent on its own,
  /// the UI still said playing, and the user's tap on play did nothing. Here
  /// the engine reports the system pause from inside `start` (AVPlayer's rate
  /// drops at once when the session is not active): the state shows it at
  /// once, and the user's `resume` starts the engine again.
  @Test func aSystemPauseShowsAtOnceAndTheUsersTapStartsAgain() {
    let paused = Locked(false)
    let spy = SpyEngine { command in
      switch command {
      case .load(let request): return [SpyEngine.Reply(.ready(request.load), .immediately)]
      case .start(let load, _):
        // Only the first start is refused by the system.
        let first = paused.withLock { wasPaused in
          defer { wasPaused = true }
          return !wasPaused
        }
        return first ? [SpyEngine.Reply(.pausedBySystem(load), .immediately)] : []
      case .preload, .setRate, .pause, .seek, .stop, .setVolume: return []
      }
    }
    let player = Player(engine: spy)
    player.send(.play("A"))
    #expect(player.state.description == "suppressed(A#1, system pause)")
    #expect(player.state.isPlaying == false)
    #expect(player.state.playWhenReady == true)
    player.send(.resume)
    #expect(player.state.description == "playing(A#1)")
    #expect(spy.commandLog == ["load(A#1)", "start(A#1)", "start(A#1)"])
  }

  /// A stream that started playing when an interruption began while it was
  /// paused: here the interruption and its end arrive from another thread
  /// while the user has paused, and the engine is never started.
  @Test func anInterruptionFromAnotherThreadWhilePausedStartsNothing() {
    let spy = SpyEngine.cooperative(.immediately)
    let player = Player(engine: spy)
    player.send(.play("A"))
    player.send(.pause)
    let done = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      player.send(.system(.interruptionBegan))
      player.send(.system(.interruptionEnded(shouldResume: true)))
      done.signal()
    }
    done.wait()
    #expect(player.state.description == "paused(A#1)")
    #expect(spy.commandLog == ["load(A#1)", "start(A#1)", "pause(A#1)"])
  }

  /// A `ready` held back by the engine and delivered during an interruption
  /// starts nothing; the end with the hint starts the load once, and a
  /// duplicated end is ignored with a reason.
  @Test func aLateReadyDuringAnInterruptionStartsOnlyAtItsEnd() {
    let spy = SpyEngine.cooperative(.later)
    let player = Player(engine: spy)
    player.send(.play("A"))
    player.send(.system(.interruptionBegan))
    spy.deliverPending()  // ready(A#1)
    #expect(player.state.description == "suppressed(A#1, interrupted)")
    #expect(spy.commandLog == ["load(A#1)"])
    player.send(.system(.interruptionEnded(shouldResume: true)))
    player.send(.system(.interruptionEnded(shouldResume: true)))
    #expect(player.state.description == "playing(A#1)")
    #expect(spy.commandLog == ["load(A#1)", "start(A#1)"])
    #expect(player.statistics.processed == 5)
  }

  /// A "paused for interruption" flag kept across an item change resumed the
  /// wrong item. Here the interruption spans a skip whose old entry's `ready`
  /// arrives late: the stale report is ignored, and the end starts the new
  /// entry, once.
  @Test func anInterruptionSpanningASkipWithALateReadyStartsTheNewEntryOnce() {
    let spy = SpyEngine.cooperative(.later)
    let player = Player(engine: spy)
    player.send(.queue(["A", "B"]))
    player.send(.system(.interruptionBegan))
    player.send(.next)
    spy.deliverPending()  // ready(A#1): stale; ready(B#2): current, suppressed
    player.send(.system(.interruptionEnded(shouldResume: true)))
    #expect(player.state.description == "playing(B#2)")
    #expect(spy.commandLog == ["load(A#1)", "stop(A#1)", "load(B#2)", "start(B#2)"])
    #expect(player.statistics.ignoredReports == 1)
  }

  /// The engine's own pause and the interruption's notification arrive in
  /// either order; the end with the hint starts the engine once either way.
  @Test(arguments: [true, false])
  func theEnginesPauseAndTheNotificationInEitherOrderResumeOnce(reportFirst: Bool) {
    let spy = SpyEngine.cooperative(.immediately)
    let player = Player(engine: spy)
    player.send(.play("A"))
    if reportFirst {
      spy.report(.pausedBySystem(Load(1, 1)))
      player.send(.system(.interruptionBegan))
    } else {
      player.send(.system(.interruptionBegan))
      spy.report(.pausedBySystem(Load(1, 1)))
    }
    #expect(player.state.description == "suppressed(A#1, interrupted)")
    player.send(.system(.interruptionEnded(shouldResume: true)))
    #expect(player.state.description == "playing(A#1)")
    let expected =
      reportFirst
      ? ["load(A#1)", "start(A#1)", "start(A#1)"]
      : ["load(A#1)", "start(A#1)", "pause(A#1)", "start(A#1)"]
    #expect(spy.commandLog == expected)
  }

  /// A backoff timer scheduled before a skip fires after it: it names a load
  /// that is gone, so nothing is reloaded; the new entry's own network wait
  /// gets its own timer, which does reload.
  @Test func aBackoffFromBeforeASkipReloadsNothing() {
    let timers = ManualTimers()
    let spy = SpyEngine()
    let player = Player(engine: spy, watchdog: timers.policy)
    player.send(.queue(["A", "B"]))
    spy.report(.failed(Load(1, 1), .network))
    #expect(player.state.description == "waiting(A#1, network, attempt 1, autoplay)")
    player.send(.next)
    timers.fire(1)  // A's backoff, late
    #expect(player.state.description == "buffering(B#2, autoplay)")
    spy.report(.failed(Load(2, 2), .network))
    #expect(timers.delays == [.seconds(5), .seconds(1), .seconds(5), .seconds(1)])
    timers.fire(3)  // B's backoff
    #expect(player.state.description == "buffering(B#3, autoplay)")
    #expect(
      spy.commandLog == [
        "load(A#1)", "stop(A#1)", "load(B#2)", "stop(B#2)", "load(B#3)",
      ])
    #expect(player.statistics.ignoredReports == 1)
  }

  /// Eight threads send interruptions (paired, unpaired, duplicated), route
  /// losses, network events, system pauses, user intents and reports at once.
  /// No step taken while interrupted starts the engine, nothing is lost, and
  /// the result is exactly the serial replay of the order the driver took.
  @Test func eightThreadsNeverStartDuringAnInterruption() {
    let threads = 8
    let perThread = 20_000
    let processed = Locked<[PlaybackEvent]>([])
    let startedWhileInterrupted = Locked(0)
    let spy = SpyEngine()
    // Timers held, never fired: without a policy a network failure's backoff runs on
    // Dispatch, and one firing after `processed` is read (ThreadSanitizer made it slow
    // enough) is a step the replay below never saw. Every expiry here is a thread's event.
    let timers = ManualTimers()
    let player = Player(
      engine: spy, watchdog: timers.policy,
      onStep: { step in
        processed.withLock { $0.append(step.event) }
        guard step.after.interrupted else { return }
        let starts = step.transition.commands.filter { $0.kind == .start || $0.kind == .rate }
        if !starts.isEmpty { startedWhileInterrupted.withLock { $0 += 1 } }
      })

    DispatchQueue.concurrentPerform(iterations: threads) { thread in
      var random = SplitMix64(seed: UInt64(thread) &* 104_729)
      for _ in 0..<perThread {
        let roll = random.next()
        let load = Load(UInt32(1 + (roll >> 8) % 4), UInt32(1 + (roll >> 16) % 6))
        let event: PlaybackEvent =
          switch roll % 16 {
          case 0: .play(["A", "B"][Int(roll >> 4 & 1)])
          case 1: .pause
          case 2: .resume
          case 3: .next
          case 4: .system(.interruptionBegan)
          case 5: .system(.interruptionEnded(shouldResume: roll >> 5 & 1 == 0))
          case 6: .system(.routeLost)
          case 7: .system(.networkLost)
          case 8: .system(.networkAvailable)
          case 9: .engine(.pausedBySystem(load))
          case 10: .ready(load)
          case 11: .stalled(load)
          case 12: .resumed(load)
          case 13: .failed(load, .network)
          case 14: .retry
          default: .watchdogExpired(load, WatchdogID(UInt32(roll >> 24 & 3)))
          }
        player.send(event)
      }
    }

    let order = processed.withLock { $0 }
    #expect(order.count == threads * perThread)
    #expect(startedWhileInterrupted.withLock { $0 } == 0)
    let replay = serialReplay(order)
    #expect(player.state == replay.state)
    #expect(spy.commands == replay.commands)
  }
}
