import PlayerEngine

/// Collects the player's steps as timeline entries, stamped with virtual
/// time and source, and holds the watchdog timeout the script set.
final class TimelineRecorder: Sendable {
  private struct State {
    var entries: [TimelineEntry] = []
    var injectedNext = false
    var watchdogTimeout: Duration? = ScenarioRunner.defaultWatchdog
  }

  private let clock: VirtualClock
  private let state = Locked(State())

  init(clock: VirtualClock) { self.clock = clock }

  var watchdogTimeout: Duration? {
    get { state.withLock { $0.watchdogTimeout } }
    set { state.withLock { $0.watchdogTimeout = newValue } }
  }

  /// Marks the next recorded step as the script's injection. The runner
  /// sends it while the player is idle, so it is the first step processed.
  func markInjected() { state.withLock { $0.injectedNext = true } }

  func record(_ step: PlayerStep) {
    let milliseconds = clock.milliseconds
    state.withLock { state in
      let source: TimelineSource
      if state.injectedNext {
        source = .script
        state.injectedNext = false
      } else {
        switch step.event.source {
        case .user: source = .user
        case .engine: source = .engine
        case .timer: source = .timer
        }
      }
      state.entries.append(
        TimelineEntry(
          milliseconds: milliseconds, source: source, event: step.event, before: step.before,
          after: step.after, commands: Array(step.transition.commands),
          ignored: step.transition.ignored))
    }
  }

  func take() -> [TimelineEntry] {
    state.withLock { state in
      defer { state.entries.removeAll(keepingCapacity: true) }
      return state.entries
    }
  }
}
