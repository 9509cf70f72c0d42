/// The kinds of event, without their payloads.
public enum EventKind: String, Hashable, Sendable, Codable, CaseIterable {
  /// ``UserIntent/play(_:)``.
  case play
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
  /// ``EngineReport/ready(_:)``.
  case ready
  /// ``EngineReport/stalled(_:)``.
  case stalled
  /// ``EngineReport/resumed(_:)``.
  case resumed
  /// ``EngineReport/seekCompleted(_:_:)``.
  case seeked
  /// ``EngineReport/reachedEnd(_:)``.
  case ended
  /// ``EngineReport/failed(_:_:)``.
  case failed
  /// ``PlaybackEvent/watchdogExpired(_:_:)``.
  case timeout
}

/// The kinds of engine command, without their payloads.
public enum CommandKind: String, Hashable, Sendable, Codable, CaseIterable {
  /// ``EngineCommand/load(_:)``.
  case load
  /// ``EngineCommand/start(_:)``.
  case start
  /// ``EngineCommand/pause(_:)``.
  case pause
  /// ``EngineCommand/seek(_:to:_:)``.
  case seek
  /// ``EngineCommand/stop(_:)``.
  case stop
}

extension PlaybackEvent {
  /// The event's kind.
  public var kind: EventKind {
    switch self {
    case .user(.play): .play
    case .user(.pause): .pause
    case .user(.resume): .resume
    case .user(.stop): .stop
    case .user(.seek): .seek
    case .user(.retry): .retry
    case .engine(.ready): .ready
    case .engine(.stalled): .stalled
    case .engine(.resumed): .resumed
    case .engine(.seekCompleted): .seeked
    case .engine(.reachedEnd): .ended
    case .engine(.failed): .failed
    case .watchdogExpired: .timeout
    }
  }
}

extension EngineCommand {
  /// The command's kind.
  public var kind: CommandKind {
    switch self {
    case .load: .load
    case .start: .start
    case .pause: .pause
    case .seek: .seek
    case .stop: .stop
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

  /// The representative states the table is read from: idle, and every
  /// engine stage × user intent × pending seek for the load `A#2`, less the
  /// two combinations no event sequence reaches (a seek pending in `ended`
  /// or `failed`: seeking leaves `ended`, failing clears the pending seek).
  public static let representativeStates: [PlaybackState] = {
    var states = [PlaybackState(session: nil, issuedLoads: 2)]
    let stages: [EngineStage] = [.buffering, .ready, .stalled, .ended, .failed(.network)]
    for stage in stages {
      for playWhenReady in [true, false] {
        for seekPending in [false, true] {
          if seekPending, stage == .ended || stage == .failed(.network) { continue }
          let session = Session(
            load: Load("A", 2), stage: stage, playWhenReady: playWhenReady,
            lastSeek: SeekID(1), seekPending: seekPending, lastWatchdog: WatchdogID(1))
          states.append(PlaybackState(session: session, issuedLoads: 2))
        }
      }
    }
    return states
  }()

  /// Every event the table tries in `state`: each intent (playing the same
  /// and another media), and each report and watchdog with the current,
  /// an earlier and a never-issued identity.
  public static func probeEvents(for state: PlaybackState) -> [PlaybackEvent] {
    let current = state.load ?? Load("A", state.issuedLoads)
    let token = current.token.rawValue
    let loads = [
      current, Load(current.media, token &- 1), Load(current.media, state.issuedLoads &+ 1),
    ]
    let seek = state.session?.lastSeek ?? SeekID(1)
    let watchdog = state.session?.lastWatchdog ?? WatchdogID(1)
    var events: [PlaybackEvent] = [
      .play(current.media), .play("B"), .pause, .resume, .stop, .seek(to: .seconds(1)), .retry,
    ]
    for load in loads {
      events += [
        .ready(load), .stalled(load), .resumed(load), .seekCompleted(load, seek),
        .reachedEnd(load), .failed(load, .network), .watchdogExpired(load, watchdog),
      ]
    }
    events += [
      .seekCompleted(current, SeekID(seek.rawValue &- 1)),
      .seekCompleted(current, SeekID(seek.rawValue &+ 1)),
      .watchdogExpired(current, WatchdogID(watchdog.rawValue &+ 1)),
    ]
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

  /// The accepted transitions as a Graphviz DOT digraph; parallel edges are merged.
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

  /// The accepted transitions as a Mermaid `stateDiagram-v2`, one line per
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
    for row in accepted {
      let edge = Edge(from: row.from, to: row.to)
      if labels[edge] == nil { order.append(edge) }
      if labels[edge, default: []].contains(row.label) { continue }
      labels[edge, default: []].append(row.label)
    }
    return order.map { ($0, labels[$0] ?? []) }
  }
}
