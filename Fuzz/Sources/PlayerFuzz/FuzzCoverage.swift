public import PlayerState

/// What a run exercised: hits per (state kind × event kind), and which of the
/// machine's declared transitions (``PlayerState/TransitionTable/accepted``) it reached.
public struct FuzzCoverage: Hashable, Sendable, CustomStringConvertible {
  private var hits = [Int](repeating: 0, count: Self.kinds.count * Self.events.count)
  private var reached = [Bool](repeating: false, count: Self.keyCount)

  /// No hits.
  public init() {}

  /// The state kinds, in table order.
  public static let kinds = StateKind.allCases
  /// The event kinds, in table order.
  public static let events = EventKind.allCases
  private static let keyCount = 7 * 13 * 7 * 64

  /// How many events of `event`'s kind arrived in a state of `kind`.
  public func hits(_ kind: StateKind, _ event: EventKind) -> Int {
    hits[Self.index(kind) * Self.events.count + Self.index(event)]
  }

  /// Whether a declared transition was exercised.
  public func reached(_ row: TransitionTable.Row) -> Bool {
    guard row.commands.count <= 2 else { return false }
    return reached[
      Self.key(from: row.from, event: row.event, to: row.to, commands: row.commands.map(Self.index))
    ]
  }

  /// The declared transitions (accepted rows of the table) not exercised yet.
  public var unexercised: [TransitionTable.Row] { TransitionTable.accepted.filter { !reached($0) } }

  /// How many distinct declared transitions were exercised.
  public var exercisedCount: Int { TransitionTable.accepted.count - unexercised.count }

  /// Adds another run's hits.
  public mutating func merge(_ other: FuzzCoverage) {
    for index in hits.indices { hits[index] += other.hits[index] }
    for index in reached.indices where other.reached[index] { reached[index] = true }
  }

  mutating func record(from: StateKind, event: EventKind) {
    hits[Self.index(from) * Self.events.count + Self.index(event)] &+= 1
  }

  mutating func record(
    from: StateKind, event: EventKind, to: StateKind, commands: ArraySlice<EngineCommand>
  ) {
    record(from: from, event: event)
    var kinds: (Int, Int) = (0, 0)
    if let first = commands.first { kinds.0 = Self.index(first.kind) + 1 }
    if commands.count > 1 { kinds.1 = Self.index(commands[commands.startIndex + 1].kind) + 1 }
    let key =
      ((Self.index(from) * 13 + Self.index(event)) * 7 + Self.index(to)) * 64 + kinds.0 * 8
      + kinds.1
    reached[key] = true
  }

  private static func key(from: StateKind, event: EventKind, to: StateKind, commands: [Int]) -> Int
  {
    let first = commands.count > 0 ? commands[0] + 1 : 0
    let second = commands.count > 1 ? commands[1] + 1 : 0
    return ((index(from) * 13 + index(event)) * 7 + index(to)) * 64 + first * 8 + second
  }

  private static func index(_ kind: StateKind) -> Int {
    switch kind {
    case .idle: 0
    case .buffering: 1
    case .playing: 2
    case .paused: 3
    case .stalled: 4
    case .ended: 5
    case .failed: 6
    }
  }

  private static func index(_ kind: EventKind) -> Int {
    switch kind {
    case .play: 0
    case .pause: 1
    case .resume: 2
    case .stop: 3
    case .seek: 4
    case .retry: 5
    case .ready: 6
    case .stalled: 7
    case .resumed: 8
    case .seeked: 9
    case .ended: 10
    case .failed: 11
    case .timeout: 12
    }
  }

  private static func index(_ kind: CommandKind) -> Int {
    switch kind {
    case .load: 0
    case .start: 1
    case .pause: 2
    case .seek: 3
    case .stop: 4
    }
  }

  /// A grid of hits: one row per state kind, one column per event kind.
  public var description: String {
    let width = 9
    func pad(_ text: String) -> String {
      text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
    }
    var lines = [pad("") + Self.events.map { pad($0.rawValue) }.joined()]
    for kind in Self.kinds {
      lines.append(pad(kind.rawValue) + Self.events.map { pad(String(hits(kind, $0))) }.joined())
    }
    lines.append(
      "declared transitions exercised: \(exercisedCount) of \(TransitionTable.accepted.count)")
    return lines.joined(separator: "\n")
  }
}
