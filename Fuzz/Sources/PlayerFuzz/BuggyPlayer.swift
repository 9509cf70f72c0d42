import PlayerEngine
import PlayerState

/// A catalog of deliberately broken players: the proof that the harness
/// catches real bugs, and a yardstick for how fast (see docs/fuzzing.md).
///
/// Each is Playhead's reducer behind a driver with one classic mistake, so
/// that everything else is right and the harness must find the one ordering
/// that exposes it. ``minimalLength`` is the length of the shortest failing
/// case, which the shrinker is expected to reach.
public struct BuggyPlayer: Hashable, Sendable, CustomStringConvertible {
  /// The mistakes.
  public enum Bug: String, Hashable, Sendable, CaseIterable {
    /// The seeds' two-Bool player: a late `ready` starts playback whatever the
    /// user did since (stop, pause), because the callback is treated as a command.
    case twoBools
    /// Reports are applied to the current load whatever load they name.
    case ignoresIdentity
    /// Reports are matched on media only, so a token of another load of the
    /// same media (another entry, or a token never issued) passes.
    case checksMediaNotToken
    /// A repeated `ready` for the current load starts the engine again.
    case doubleStartOnRepeatedReady
    /// A user `stop` goes idle without telling the engine.
    case stopNotSent
    /// `pause` during the first buffering is dropped, so `ready` starts playback.
    case pauseLostWhileBuffering
    /// `stalled` and `ended` reports are applied whatever load they name.
    case staleStallOrEndAccepted
    /// A report sent from inside `execute` is processed at once, recursively,
    /// against the state from before the command; the outer step then overwrites it.
    case reentrantProcessedRecursively
    /// A seek completion counts whatever seek id it names.
    case supersededSeekCompletes
    /// A watchdog expiry fails the current load whatever its id and stage.
    case staleWatchdogFires
  }

  /// The mistake.
  public let bug: Bug

  /// A buggy player.
  public init(_ bug: Bug) { self.bug = bug }

  /// Every buggy player.
  public static let catalog = Bug.allCases.map(BuggyPlayer.init)

  /// The bug's name, as in `twoBools`.
  public var name: String { bug.rawValue }

  /// The length of the shortest case that exposes the bug.
  public var minimalLength: Int {
    switch bug {
    case .twoBools: 3  // play(A), stop, ready(A#1)
    case .ignoresIdentity: 2  // play(A), ready(B#1)
    case .checksMediaNotToken: 2  // play(A), ready(A#2)
    case .doubleStartOnRepeatedReady: 3  // play(A), ready(A#1), ready(A#1)
    case .stopNotSent: 2  // play(A), stop
    case .pauseLostWhileBuffering: 3  // play(A), pause, ready(A#1)
    case .staleStallOrEndAccepted: 3  // play(A), ready(A#1), stalled(A#2)
    case .reentrantProcessedRecursively: 2  // reentrant ready(A#1), play(A)
    case .supersededSeekCompletes: 3  // play(A), seek(0ms), seeked(A#1, seek#2)
    case .staleWatchdogFires: 2  // play(A), timeout(A#1, watchdog#2)
    }
  }

  /// The player as a fuzz subject.
  public var subject: FuzzSubject {
    let bug = bug
    return FuzzSubject(name: bug.rawValue) { engine in CatalogPlayer(bug: bug, engine: engine) }
  }

  /// The bug's name.
  public var description: String { name }
}

/// Playhead's reducer behind a driver with one mistake.
final class CatalogPlayer: FuzzTarget, Sendable {
  private struct Core {
    var state = PlaybackState()
    var lastLoaded: Load?
    /// Each loaded item's media, from the `load` and `preload` commands.
    var media: [ItemID: MediaID] = [:]
    var queue: [PlaybackEvent] = []
    var draining = false
  }

  private let bug: BuggyPlayer.Bug
  private let engine: any PlaybackEngine
  private let core = Locked(Core())

  init(bug: BuggyPlayer.Bug, engine: any PlaybackEngine) {
    self.bug = bug
    self.engine = engine
  }

  var observation: FuzzObservation { core.withLock { FuzzObservation($0.state) } }

  var stateDescription: String { core.withLock { $0.state.description } }

  func send(_ event: PlaybackEvent) {
    if bug == .reentrantProcessedRecursively {
      // The mistake: reduce now, run the commands (whose re-entrant reports
      // recurse into `send` and see the old state), then commit.
      let transition = core.withLock { $0.state.transition(on: event) }
      perform(Array(transition.commands))
      core.withLock { $0.state = transition.next }
      return
    }
    var commands = core.withLock { core -> [EngineCommand]? in
      guard !core.draining else {
        core.queue.append(event)
        return nil
      }
      core.draining = true
      return reduce(event, &core)
    }
    while let current = commands {
      perform(current)
      commands = core.withLock { core -> [EngineCommand]? in
        guard !core.queue.isEmpty else {
          core.draining = false
          return nil
        }
        return reduce(core.queue.removeFirst(), &core)
      }
    }
  }

  private func perform(_ commands: [EngineCommand]) {
    let sink = ReportSink { [weak self] report in self?.send(.engine(report)) }
    for command in commands { engine.execute(command, reports: sink) }
  }

  private func reduce(_ event: PlaybackEvent, _ core: inout Core) -> [EngineCommand] {
    let state = core.state
    let session = state.session
    var event = event
    switch (bug, event) {
    case (.twoBools, .engine(.ready(let load, _))) where load == core.lastLoaded:
      // The callback is taken as a command: start, whatever the user did since.
      if var session, session.load == load {
        session.stage = .ready
        core.state.playWhenReady = true
        core.state.session = session
      }
      return [.start(load, rate: state.rate)]
    case (.ignoresIdentity, .engine(let report)):
      if let session { event = .engine(report.with(session.load)) }
    case (.ignoresIdentity, .watchdogExpired(_, let id)):
      if let session { event = .watchdogExpired(session.load, id) }
    case (.checksMediaNotToken, .engine(let report)):
      if let session, let media = core.media[session.load.item],
        core.media[report.load.item] == media
      {
        event = .engine(report.with(session.load))
      }
    case (.doubleStartOnRepeatedReady, .engine(.ready(let load, _))):
      if let session, session.load == load, session.stage == .ready, state.playWhenReady {
        return [.start(load, rate: state.rate)]
      }
    case (.stopNotSent, .user(.stop)):
      core.state = state.transition(on: event).next
      return []
    case (.pauseLostWhileBuffering, .user(.pause)):
      if session?.stage == .buffering { return [] }
    case (.staleStallOrEndAccepted, .engine(.stalled)),
      (.staleStallOrEndAccepted, .engine(.reachedEnd)):
      if let session, case .engine(let report) = event {
        event = .engine(report.with(session.load))
      }
    case (.supersededSeekCompletes, .engine(.seekCompleted(let load, _))):
      if let session { event = .seekCompleted(load, session.lastSeek) }
    case (.staleWatchdogFires, .watchdogExpired(let load, _)):
      if var session, session.load == load {
        if case .failed = session.stage { break }
        session.stage = .failed(.timeout)
        session.seekPending = false
        core.state.session = session
        return [.stop(load)]
      }
    default:
      break
    }
    let transition = core.state.transition(on: event)
    core.state = transition.next
    for command in transition.commands {
      switch command {
      case .load(let request):
        core.lastLoaded = request.load
        core.media[request.load.item] = request.media
      case .preload(let request):
        core.media[request.load.item] = request.media
      default: break
      }
    }
    return Array(transition.commands)
  }
}
