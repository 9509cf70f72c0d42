import PlayerEngine
import PlayerState

/// Drivers with a planted race, for ``ConcurrentFuzz``: Playhead's reducer
/// behind a driver whose single-threaded behaviour is right (the serial
/// runner cannot tell), but that breaks the driver's promise when threads
/// send at once. The concurrent mode must find each on every seed
/// (docs/fuzzing.md).
package struct RacyPlayer: PlantedMistakes {
  /// The races.
  package enum Race: String, Hashable, Sendable, CaseIterable {
    /// A lost wake-up: once the queue is found empty the drainer publishes the
    /// new state, and only then, in a second critical section, stops
    /// draining; an event enqueued in between waits for the next sender.
    case lostWakeUp
    /// Two drains at once: the sender checks that nobody drains in one
    /// critical section and claims the drain in another; two senders can
    /// both find it free and drain side by side.
    case twoDrainsAtOnce
  }

  /// The race.
  package let race: Race

  /// A racy player.
  package init(_ race: Race) { self.race = race }

  /// The race (``PlantedMistakes``).
  package var mistake: Race { race }

  /// The player as a thread-safe subject.
  package var subject: FuzzSubject {
    let race = race
    return FuzzSubject.threadSafe(
      name: race.rawValue, swiftExpression: "RacyPlayer(.\(race.rawValue)).subject"
    ) { (engine: any PlaybackEngine) -> any FuzzTarget & Sendable in
      RacingDriver(race: race, engine: engine)
    }
  }
}

/// Playhead's reducer behind a driver with one race.
final class RacingDriver: FuzzTarget, Sendable {
  private struct Core {
    var state: PlaybackState
    var queue: [PlaybackEvent] = []
    var draining = false
    /// The newest state published to observers (what the lost wake-up's
    /// drainer does between finding the queue empty and stopping).
    var published: PlaybackState?
    /// The newest line of the driver's trace.
    var trace = ""
  }

  private let race: RacyPlayer.Race
  private let engine: any PlaybackEngine
  private let processed: (@Sendable (PlaybackEvent) -> Void)?
  private let reduced: (@Sendable (IgnoreReason?) -> Void)?
  private let watchdog: WatchdogPolicy
  private let core: Locked<Core>

  init(race: RacyPlayer.Race, engine: any PlaybackEngine) {
    self.race = race
    self.engine = engine
    processed = FuzzEngine.onProcessed(for: engine)
    reduced = FuzzEngine.onReduced(for: engine)
    watchdog = FuzzEngine.watchdog(for: engine)
    core = Locked(Core(state: FuzzEngine.state(for: engine)))
  }

  var observation: FuzzObservation { FuzzObservation(core.withLock { $0.state }) }

  var stateDescription: String { core.withLock { $0.state.description } }

  func send(_ event: PlaybackEvent) {
    switch race {
    case .lostWakeUp:
      let first = core.withLock { core -> Bool in
        core.queue.append(event)
        guard !core.draining else { return false }
        core.draining = true
        return true
      }
      guard first else { return }
      drain(stopping: false)
      // The race: the new state is published (its description built for the
      // observers) after the queue was last found empty and before the drain
      // is given up, in its own critical section.
      let state = core.withLock { $0.state }
      let text = state.description
      core.withLock {
        $0.published = state
        $0.trace = text
      }
      core.withLock { $0.draining = false }
    case .twoDrainsAtOnce:
      // The race: checked in one critical section, claimed in another, with
      // the event traced in between.
      if core.withLock({ $0.draining }) {
        core.withLock { $0.queue.append(event) }
        return
      }
      let text = event.description
      core.withLock { core in
        core.trace = text
        core.draining = true
        core.queue.append(event)
      }
      drain(stopping: true)
    }
  }

  /// Reduces and performs queued events until the queue is found empty;
  /// when `stopping`, gives the drain up in the same critical section.
  private func drain(stopping: Bool) {
    let sink = ReportSink { [weak self] report in self?.send(.engine(report)) }
    while let effects = core.withLock({ core -> Effects? in
      guard !core.queue.isEmpty else {
        if stopping { core.draining = false }
        return nil
      }
      let event = core.queue.removeFirst()
      processed?(event)
      let effects = core.state.handle(event)
      reduced?(effects.ignored)
      return effects
    }) {
      for command in effects.commands { engine.execute(command, reports: sink) }
      if let request = effects.watchdog {
        let after = request.delay ?? watchdog.timeout
        watchdog.schedule(after) { [weak self] in
          self?.send(.watchdogExpired(request.load, request.id))
        }
      }
    }
  }
}
