public import PlayerEngine
public import PlayerState
import Synchronization

/// A small media player written by hand around PlayerState's reducer: not
/// Playhead's `Player`. What it does its own way:
///
/// - **Load ids** come from one process-wide counter, so that the logs of
///   several players never share an id (Playhead numbers 1, 2, 3 per player).
///   It keeps a table between its ids and the reducer's tokens.
/// - **Re-entrant reports** (an engine that answers from inside `execute`) are
///   queued and processed after the current event, by whichever thread drains.
/// - **Watchdogs** are scheduled on the clock it is given; a retry backoff
///   (waiting for the network) after the delay the machine asks for; the sleep
///   timer's countdown after the delay the user set.
/// - **The system's events** (interruptions, route loss, the network) and the
///   engine's `pausedBySystem` go to the reducer like any other event, under the
///   retry policy it is given.
/// - **Thread safety**: one `Mutex`; any thread may send.
///
/// `bug` plants a mistake, for the tests that show the harness catches it.
public final class MiniPlayer: Sendable {
  /// A planted mistake.
  public enum Bug: Sendable {
    /// A report naming an id this player never issued (or no longer knows) is
    /// taken as being about the current load.
    case unknownIdMeansCurrent
  }

  private struct Core {
    var state = PlaybackState()
    var pending: [PlaybackEvent] = []
    var draining = false
    /// The reducer's token for each of this player's ids, and back.
    var tokenOfId: [UInt32: LoadToken] = [:]
    var idOfToken: [LoadToken: UInt32] = [:]
  }

  /// The process-wide id counter.
  private static let nextId = Mutex<UInt32>(1)

  private let engine: any PlaybackEngine
  private let watchdog: WatchdogPolicy?
  private let onProcessed: (@Sendable (PlaybackEvent) -> Void)?
  private let bug: Bug?
  private let core = Mutex(Core())

  /// A player.
  /// - Parameters:
  ///   - engine: the media back end.
  ///   - watchdog: the clock for buffering and stall timeouts; nil for none.
  ///   - retry: how a load that failed for want of the network is retried.
  ///   - bug: a planted mistake, nil for none.
  ///   - onProcessed: called after each event is processed, in processing order.
  public init(
    engine: any PlaybackEngine, watchdog: WatchdogPolicy?, retry: RetryPolicy = .standard,
    bug: Bug? = nil, onProcessed: (@Sendable (PlaybackEvent) -> Void)? = nil
  ) {
    self.engine = engine
    self.watchdog = watchdog
    self.bug = bug
    self.onProcessed = onProcessed
    let canPreload = engine.capabilities.contains(.preload)
    core.withLock {
      $0.state.configuration.canPreload = canPreload
      $0.state.configuration.retry = retry
    }
  }

  /// The reducer's state (its loads carry the reducer's tokens, not this player's ids).
  public var state: PlaybackState { core.withLock { $0.state } }

  /// The current and preloading loads, under this player's ids.
  public var loads: (current: Load?, preload: Load?) {
    core.withLock { core in
      (
        core.state.session.map { Self.outward($0.load, &core) },
        core.state.preload.map { Self.outward($0.load, &core) }
      )
    }
  }

  /// Sends an event; reports and expiries name loads by this player's ids.
  public func send(_ event: PlaybackEvent) {
    var work = core.withLock { core -> Work? in
      guard !core.draining else {
        core.pending.append(event)
        return nil
      }
      core.draining = true
      return reduce(event, &core)
    }
    let sink = ReportSink { [weak self] report in self?.send(.engine(report)) }
    while let current = work {
      for command in current.commands { engine.execute(command, reports: sink) }
      if let request = current.watchdog, let watchdog {
        // A backoff waits the machine's delay; a watchdog, the clock's timeout.
        let after = request.delay ?? watchdog.timeout
        watchdog.schedule(after) { [weak self] in
          self?.send(.watchdogExpired(request.load, request.id))
        }
      }
      if let request = current.sleepTimer, let watchdog {
        // The sleep timer's countdown, on the same clock (its id is no load's: not renumbered).
        watchdog.schedule(request.delay) { [weak self] in
          self?.send(.system(.sleepTimerExpired(request.id)))
        }
      }
      onProcessed?(current.event)
      work = core.withLock { core -> Work? in
        guard !core.pending.isEmpty else {
          core.draining = false
          return nil
        }
        return reduce(core.pending.removeFirst(), &core)
      }
    }
  }

  private struct Work {
    var event: PlaybackEvent
    var commands: [EngineCommand]
    var watchdog: WatchdogRequest?
    var sleepTimer: SleepTimerRequest?
  }

  private func reduce(_ event: PlaybackEvent, _ core: inout Core) -> Work {
    let transition = core.state.transition(on: inward(event, core))
    core.state = transition.next
    let commands = transition.commands.map { Self.outward($0, &core) }
    let watchdog = transition.watchdog.map {
      WatchdogRequest(
        load: Self.outward($0.load, &core), id: $0.id, purpose: $0.purpose, delay: $0.delay)
    }
    return Work(
      event: event, commands: commands, watchdog: watchdog, sleepTimer: transition.sleepTimer)
  }

  // MARK: Ids

  /// A load named by this player's id, as the reducer's load.
  private func inward(_ load: Load, _ core: Core) -> Load {
    if let token = core.tokenOfId[load.token.rawValue] {
      return Load(item: load.item, token: token)
    }
    if bug == .unknownIdMeansCurrent, let current = core.state.session?.load {
      return current
    }
    // An id this player never issued: a token the reducer never issued either.
    return Load(item: load.item, token: LoadToken(0))
  }

  private func inward(_ event: PlaybackEvent, _ core: Core) -> PlaybackEvent {
    event.withLoad { inward($0, core) }
  }

  /// The reducer's load under this player's id (a new token gets the next process-wide id).
  private static func outward(_ load: Load, _ core: inout Core) -> Load {
    if let id = core.idOfToken[load.token] { return Load(item: load.item, token: LoadToken(id)) }
    let id = nextId.withLock { next in
      defer { next &+= 1 }
      return next
    }
    core.idOfToken[load.token] = id
    core.tokenOfId[id] = load.token
    return Load(item: load.item, token: LoadToken(id))
  }

  private static func outward(_ command: EngineCommand, _ core: inout Core) -> EngineCommand {
    command.withLoad(outward(command.load, &core))
  }
}
