/// The kinds of event, without their payloads.
public enum EventKind: String, Hashable, Sendable, Codable, CaseIterable {
  /// ``UserIntent/play(_:from:)``.
  case play
  /// ``UserIntent/replaceQueue(_:start:from:playWhenReady:)``.
  case queue
  /// ``UserIntent/append(_:)``.
  case append
  /// ``UserIntent/insert(_:at:)``.
  case insert
  /// ``UserIntent/remove(at:)``.
  case remove
  /// ``UserIntent/move(from:to:)``.
  case move
  /// ``UserIntent/jump(to:from:)``.
  case jump
  /// ``UserIntent/next``.
  case next
  /// ``UserIntent/previous``.
  case previous
  /// ``UserIntent/setRepeat(_:)``.
  case `repeat`
  /// ``UserIntent/setShuffle(seed:)``.
  case shuffle
  /// ``UserIntent/setRate(_:)``.
  case rate
  /// ``UserIntent/clear``.
  case clear
  /// ``UserIntent/pause``.
  case pause
  /// ``UserIntent/resume``.
  case resume
  /// ``UserIntent/stop``.
  case stop
  /// ``UserIntent/seek(to:)``.
  case seek
  /// ``UserIntent/retry``.
  case retry
  /// ``UserIntent/toggle``.
  case toggle
  /// ``UserIntent/skip(by:)``.
  case skip
  /// ``UserIntent/setPosition(_:_:)``.
  case setPosition
  /// ``EngineReport/ready(_:duration:)``.
  case ready
  /// ``EngineReport/stalled(_:)``.
  case stalled
  /// ``EngineReport/resumed(_:)``.
  case resumed
  /// ``EngineReport/seekCompleted(_:_:)``.
  case seeked
  /// ``EngineReport/reachedEnd(_:)``.
  case ended
  /// ``EngineReport/failed(_:_:detail:)``.
  case failed
  /// ``EngineReport/position(_:_:)``.
  case position
  /// ``EngineReport/pausedBySystem(_:)``.
  case pausedBySystem
  /// ``PlaybackEvent/watchdogExpired(_:_:)``.
  case timeout
  /// ``SystemEvent/interruptionBegan``.
  case interruptionBegan
  /// ``SystemEvent/interruptionEnded(shouldResume:)``.
  case interruptionEnded
  /// ``SystemEvent/routeLost``.
  case routeLost
  /// ``SystemEvent/networkLost``.
  case networkLost
  /// ``SystemEvent/networkAvailable``.
  case networkAvailable
  /// ``UserIntent/setSleepTimer(_:)``.
  case setSleepTimer
  /// ``SystemEvent/sleepTimerExpired(_:)``.
  case sleepTimerExpired
  /// ``UserIntent/setVolume(_:)``.
  case volume
  /// ``UserIntent/setMuted(_:)``.
  case mute
  /// ``SystemEvent/duckBegan``.
  case duckBegan
  /// ``SystemEvent/duckEnded``.
  case duckEnded
  /// ``UserIntent/goToLive``.
  case goToLive
  /// ``EngineReport/window(_:_:)``.
  case window
}

/// The kinds of engine command, without their payloads.
public enum CommandKind: String, Hashable, Sendable, Codable, CaseIterable {
  /// ``EngineCommand/load(_:)``.
  case load
  /// ``EngineCommand/preload(_:)``.
  case preload
  /// ``EngineCommand/start(_:rate:)``.
  case start
  /// ``EngineCommand/setRate(_:_:)``.
  case rate
  /// ``EngineCommand/pause(_:)``.
  case pause
  /// ``EngineCommand/seek(_:to:_:)``.
  case seek
  /// ``EngineCommand/stop(_:)``.
  case stop
  /// ``EngineCommand/setVolume(_:_:ramp:)``.
  case volume
}

extension PlaybackEvent {
  /// The event's kind; a remote intent is of its intent's kind.
  public var kind: EventKind {
    switch self {
    case .user(let intent), .remote(let intent):
      switch intent {
      case .play: .play
      case .replaceQueue: .queue
      case .append: .append
      case .insert: .insert
      case .remove: .remove
      case .move: .move
      case .jump: .jump
      case .next: .next
      case .previous: .previous
      case .setRepeat: .repeat
      case .setShuffle: .shuffle
      case .setRate: .rate
      case .clear: .clear
      case .pause: .pause
      case .resume: .resume
      case .stop: .stop
      case .seek: .seek
      case .retry: .retry
      case .toggle: .toggle
      case .skip: .skip
      case .setPosition: .setPosition
      case .setSleepTimer: .setSleepTimer
      case .setVolume: .volume
      case .setMuted: .mute
      case .goToLive: .goToLive
      }
    case .engine(let report):
      switch report {
      case .ready: .ready
      case .stalled: .stalled
      case .resumed: .resumed
      case .seekCompleted: .seeked
      case .reachedEnd: .ended
      case .failed: .failed
      case .position: .position
      case .pausedBySystem: .pausedBySystem
      case .window: .window
      }
    case .watchdogExpired: .timeout
    case .system(let event):
      switch event {
      case .interruptionBegan: .interruptionBegan
      case .interruptionEnded: .interruptionEnded
      case .routeLost: .routeLost
      case .networkLost: .networkLost
      case .networkAvailable: .networkAvailable
      case .sleepTimerExpired: .sleepTimerExpired
      case .duckBegan: .duckBegan
      case .duckEnded: .duckEnded
      }
    }
  }
}

extension EngineCommand {
  /// The command's kind.
  public var kind: CommandKind {
    switch self {
    case .load: .load
    case .preload: .preload
    case .start: .start
    case .setRate: .rate
    case .pause: .pause
    case .seek: .seek
    case .stop: .stop
    case .setVolume: .volume
    }
  }
}

/// The machine's transition table, read off the reducer itself.
///
/// The reducer is the only source of truth. The table runs it on a
/// representative of every (stage, intent, pending seek) combination and
/// every event kind, with current, stale and never-issued identities, and
/// records what happened by kind. Nothing here can drift from the code.
///
/// ```swift
/// print(TransitionTable.mermaid())   // paste into any Mermaid renderer
/// ```
public enum TransitionTable {
  /// One kind of transition: from a state kind, on an event kind, to a state
  /// kind, with these command kinds, or ignored for a reason.
  public struct Row: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The state kind before the event.
    public let from: StateKind
    /// The event kind.
    public let event: EventKind
    /// The state kind after the event.
    public let to: StateKind
    /// The command kinds, in order.
    public let commands: [CommandKind]
    /// Why the event was ignored, or nil when it was accepted.
    public let ignored: IgnoreReason?

    /// The row that one observed step belongs to.
    /// - Parameters:
    ///   - before: the state the event was reduced in.
    ///   - event: the event.
    ///   - transition: what the reducer returned.
    public init(before: PlaybackState, event: PlaybackEvent, transition: Transition) {
      from = before.kind
      self.event = event.kind
      to = transition.next.kind
      commands = transition.commands.map(\.kind)
      ignored = transition.ignored
    }

    /// The label used in diagrams: `event / commands`, as in `ready / start`.
    public var label: String {
      commands.isEmpty
        ? event.rawValue : "\(event.rawValue) / \(commands.map(\.rawValue).joined(separator: ", "))"
    }

    /// `from --label--> to`, or `from --event--> ignored (reason)`.
    public var description: String {
      if let ignored { return "\(from.rawValue) --\(event.rawValue)--> ignored (\(ignored))" }
      return "\(from.rawValue) --\(label)--> \(to.rawValue)"
    }
  }

  /// The representative states the table is read from: idle with an empty
  /// queue and with a queue; and for the queue `A B C` playing `A` as load
  /// `A#2` (item 1), every engine stage × user intent × pending seek, less
  /// the combinations no event sequence reaches (a seek pending in `ended`
  /// or `failed`); on an engine that preloads, `A` ready with `B`
  /// preloading as `B#3`, buffering or ready; and `A` ready with each kind
  /// of sleep timer armed, and `C` with an end-of-queue one.
  public static let representativeStates: [PlaybackState] = {
    let entries = [
      QueueEntry(item: ItemID(1), media: "A"), QueueEntry(item: ItemID(2), media: "B"),
      QueueEntry(item: ItemID(3), media: "C"),
    ]
    let queue = PlayQueue(entries: entries, current: 0)
    var states = [
      PlaybackState(
        queue: PlayQueue(), session: nil, playWhenReady: true, issuedLoads: 2, issuedItems: 3),
      PlaybackState(
        queue: queue, session: nil, playWhenReady: true, issuedLoads: 2, issuedItems: 3),
    ]
    let stages: [EngineStage] = [
      .buffering, .ready, .stalled, .ended, .failed(.network), .waitingForNetwork,
    ]
    for stage in stages {
      for playWhenReady in [true, false] {
        for seekPending in [false, true] {
          if seekPending, stage == .ended || stage.isStopped { continue }
          let session = Session(
            load: Load(1, 2), stage: stage, lastSeek: SeekID(1), seekPending: seekPending,
            lastWatchdog: WatchdogID(1), position: .seconds(10))
          states.append(
            PlaybackState(
              queue: queue, session: session, playWhenReady: playWhenReady, issuedLoads: 2,
              issuedItems: 3))
        }
      }
    }
    // The system: an interruption in progress at each live stage, and a load
    // the engine reported paused by the system.
    for stage in [EngineStage.buffering, .ready, .stalled] {
      for playWhenReady in [true, false] {
        let session = Session(
          load: Load(1, 2), stage: stage, lastSeek: SeekID(1), lastWatchdog: WatchdogID(1),
          position: .seconds(10))
        states.append(
          PlaybackState(
            queue: queue, session: session, playWhenReady: playWhenReady, interrupted: true,
            issuedLoads: 2, issuedItems: 3))
      }
    }
    states.append(
      PlaybackState(
        queue: queue,
        session: Session(
          load: Load(1, 2), stage: .ready, lastSeek: SeekID(1), lastWatchdog: WatchdogID(1),
          position: .seconds(10), systemPaused: true), playWhenReady: true, issuedLoads: 2,
        issuedItems: 3))
    for preloadStage in [PreloadStage.buffering, .ready] {
      for playWhenReady in [true, false] {
        let session = Session(
          load: Load(1, 2), stage: .ready, lastSeek: SeekID(1), lastWatchdog: WatchdogID(1))
        states.append(
          PlaybackState(
            queue: queue, session: session,
            preload: Preload(load: Load(2, 3), stage: preloadStage), playWhenReady: playWhenReady,
            configuration: PlayerConfiguration(canPreload: true), issuedLoads: 3, issuedItems: 3))
      }
    }
    // The sleep timer (issue 24): `A` playing and paused with each kind armed
    // (a countdown as `sleep#1`), and the last entry `C` playing with an
    // end-of-queue timer. (Arming one beside a preload is probed from the
    // preload states above.)
    let timers: [SleepTimer] = [.after(.seconds(1800)), .endOfEntry, .endOfQueue, .afterEntries(2)]
    for timer in timers {
      for playWhenReady in [true, false] {
        let session = Session(
          load: Load(1, 2), stage: .ready, lastSeek: SeekID(1), lastWatchdog: WatchdogID(1),
          position: .seconds(10))
        states.append(
          PlaybackState(
            queue: queue, session: session, playWhenReady: playWhenReady, issuedLoads: 2,
            issuedItems: 3, sleepTimer: timer, issuedSleepTimers: 1))
      }
    }
    let lastOfQueue = PlayQueue(entries: entries, current: 2)
    states.append(
      PlaybackState(
        queue: lastOfQueue,
        session: Session(
          load: Load(3, 2), stage: .ready, lastSeek: SeekID(1), lastWatchdog: WatchdogID(1)),
        playWhenReady: true, issuedLoads: 2, issuedItems: 3, sleepTimer: .endOfQueue))
    // Live streams (issue 38): `A` live with a DVR window, playing at its
    // edge and paused behind it, and live without DVR.
    let windows = [
      (LiveWindow(start: .seconds(60), end: .seconds(120)), MediaTime.seconds(120)),
      (LiveWindow(start: .seconds(60), end: .seconds(120)), MediaTime.seconds(90)),
      (LiveWindow(start: .seconds(120), end: .seconds(120)), MediaTime.seconds(120)),
    ]
    for (window, position) in windows {
      for playWhenReady in [true, false] {
        states.append(
          PlaybackState(
            queue: queue,
            session: Session(
              load: Load(1, 2), stage: .ready, lastSeek: SeekID(1), lastWatchdog: WatchdogID(1),
              position: position, window: window,
              playsAtEdge: playWhenReady && position >= window.end), playWhenReady: playWhenReady,
            issuedLoads: 2, issuedItems: 3))
      }
    }
    return states
  }()

  /// Every event the table tries in `state`: each intent (playing the same
  /// and another media, every queue edit, at the current and another
  /// position), and each report and watchdog with the current, the
  /// preloading, an earlier and a never-issued identity and a wrong item.
  public static func probeEvents(for state: PlaybackState) -> [PlaybackEvent] {
    let current = state.load ?? Load(1, state.issuedLoads)
    let token = current.token.rawValue
    var loads = [
      current, Load(current.item.rawValue, token &- 1),
      Load(current.item.rawValue, state.issuedLoads &+ 1), Load(9, token),
    ]
    if let preload = state.preload { loads.append(preload.load) }
    let seek = state.session?.lastSeek ?? SeekID(1)
    let watchdog = state.session?.lastWatchdog ?? WatchdogID(1)
    var events: [PlaybackEvent] = [
      .play("A"), .play("B"), .queue(["D", "E"]), .queue(["D"], playWhenReady: false),
      .user(.append(["D"])), .user(.insert(["D"], at: 1)), .user(.remove(at: 0)),
      .user(.remove(at: 1)), .user(.move(from: 2, to: 1)), .user(.jump(to: 0)),
      .user(.jump(to: 2)), .next, .previous, .user(.setRepeat(.one)), .user(.setRepeat(.all)),
      .user(.setShuffle(seed: 7)), .user(.setRate(PlaybackRate(thousandths: 1500))), .user(.clear),
      .pause, .resume, .stop, .seek(to: .seconds(1)), .retry,
    ]
    for load in loads {
      events += [
        .ready(load), .stalled(load), .resumed(load), .seekCompleted(load, seek),
        .reachedEnd(load), .failed(load, .network), .failed(load, .decoding),
        .position(load, .seconds(5)), .engine(.pausedBySystem(load)),
        .watchdogExpired(load, watchdog),
      ]
    }
    events += [
      .system(.interruptionBegan), .system(.interruptionEnded(shouldResume: true)),
      .system(.interruptionEnded(shouldResume: false)), .system(.routeLost),
      .system(.networkLost), .system(.networkAvailable),
    ]
    events += [
      .seekCompleted(current, SeekID(seek.rawValue &- 1)),
      .seekCompleted(current, SeekID(seek.rawValue &+ 1)),
      .watchdogExpired(current, WatchdogID(watchdog.rawValue &+ 1)),
    ]
    // The remote-control intents (issue 22), last so that the rows read before them keep their order.
    events += [
      .toggle, .skip(by: .seconds(15)), .skip(by: .seconds(-15)),
      .user(.setPosition(state.currentEntry?.item ?? ItemID(1), .seconds(1))),
      .user(.setPosition(ItemID(2), .seconds(1))),
    ]
    // The sleep timer (issue 24), last for the same reason: arming each kind,
    // turning it off, and the expiry of the newest countdown id.
    events += [
      .user(.setSleepTimer(.after(.seconds(1800)))), .user(.setSleepTimer(.endOfEntry)),
      .user(.setSleepTimer(.endOfQueue)), .user(.setSleepTimer(.afterEntries(2))),
      .user(.setSleepTimer(nil)),
      .system(.sleepTimerExpired(SleepTimerID(state.issuedSleepTimers))),
    ]
    // Live streams (issue 38): a window that moves past the position, one the
    // engine got wrong, the engine's own fall behind, and going to the edge.
    events += [
      .window(current, LiveWindow(start: .seconds(60), end: .seconds(120))),
      .window(current, LiveWindow(start: .seconds(100), end: .seconds(160))),
      .window(current, LiveWindow(start: .seconds(9), end: .seconds(1))),
      .failed(current, .behindLiveWindow), .goToLive,
    ]
    if let preload = state.preload {
      events.append(.window(preload.load, LiveWindow(start: .zero, end: .seconds(60))))
    }
    return events
  }

  /// Every row, accepted and ignored, in a stable order.
  public static let rows: [Row] = {
    var seen = Set<Row>()
    var rows: [Row] = []
    for state in representativeStates {
      for event in probeEvents(for: state) {
        let row = Row(before: state, event: event, transition: state.transition(on: event))
        if seen.insert(row).inserted { rows.append(row) }
      }
    }
    return rows
  }()

  /// The rows in which the event was accepted: the machine's real transitions.
  public static var accepted: [Row] { rows.filter { $0.ignored == nil } }

  /// The accepted transitions between different named states as a Graphviz
  /// DOT digraph; parallel edges are merged.
  public static func dot() -> String {
    var lines = [
      "digraph Playhead {", "  rankdir=LR;", "  node [shape=box, style=rounded];",
      "  start [shape=point];", "  start -> idle;",
    ]
    for (edge, labels) in mergedEdges() {
      let label = labels.joined(separator: "\\n")
      lines.append("  \(edge.from.rawValue) -> \(edge.to.rawValue) [label=\"\(label)\"];")
    }
    lines.append("}")
    return lines.joined(separator: "\n") + "\n"
  }

  /// The accepted transitions between different named states as a Mermaid
  /// `stateDiagram-v2`, one line per
  /// distinct label (Mermaid ends a statement at `;`, so labels are not merged).
  public static func mermaid() -> String {
    var lines = ["stateDiagram-v2", "  [*] --> idle"]
    for (edge, labels) in mergedEdges() {
      for label in labels {
        lines.append("  \(edge.from.rawValue) --> \(edge.to.rawValue) : \(label)")
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  private struct Edge: Hashable {
    let from: StateKind
    let to: StateKind
  }

  private static func mergedEdges() -> [(Edge, [String])] {
    var order: [Edge] = []
    var labels: [Edge: [String]] = [:]
    // Self-transitions (queue edits, position reports, preload reports that
    // keep the named state) are in the table and docs/machine.md but not drawn:
    // the picture shows how a player moves between named states.
    for row in accepted where row.from != row.to {
      let edge = Edge(from: row.from, to: row.to)
      if labels[edge] == nil { order.append(edge) }
      if labels[edge, default: []].contains(row.label) { continue }
      labels[edge, default: []].append(row.label)
    }
    return order.map { ($0, labels[$0] ?? []) }
  }
}
