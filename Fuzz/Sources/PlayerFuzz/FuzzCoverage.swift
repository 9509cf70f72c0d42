public import PlayerState

/// What a run exercised: hits per (state kind × event kind), and which of the
/// machine's declared transitions (``PlayerState/TransitionTable/accepted``,
/// one row per from-kind, event kind, to-kind and command kinds) it reached.
public struct FuzzCoverage: Hashable, Sendable, CustomStringConvertible {
  private var hits: [Int] = []
  /// One bit per (from, event, to, up to four command kinds); allocated on first use.
  private var reached: [UInt64] = []

  /// No hits.
  public init() {}

  /// The state kinds, in table order.
  public static let kinds = StateKind.allCases
  /// The event kinds, in table order.
  public static let events = EventKind.allCases
  private static let commandKinds = CommandKind.allCases
  /// Command signatures: up to four command kinds, each 1…7 (0 for none), base 8.
  private static let signatures = 8 * 8 * 8 * 8
  private static let keyCount = kinds.count * events.count * kinds.count * signatures

  /// How many events of `event`'s kind arrived in a state of `kind`.
  public func hits(_ kind: StateKind, _ event: EventKind) -> Int {
    guard !hits.isEmpty else { return 0 }
    return hits[Self.index(kind) * Self.events.count + Self.index(event)]
  }

  /// Whether a declared transition was exercised.
  public func reached(_ row: TransitionTable.Row) -> Bool {
    guard row.commands.count <= 4, !reached.isEmpty else { return false }
    let key = Self.key(
      from: row.from, event: row.event, to: row.to, signature: Self.signature(row.commands))
    return reached[key >> 6] & (1 << UInt64(key & 63)) != 0
  }

  /// The declared transitions (accepted rows of the table) not exercised yet.
  public var unexercised: [TransitionTable.Row] { TransitionTable.accepted.filter { !reached($0) } }

  /// How many distinct declared transitions were exercised.
  public var exercisedCount: Int { TransitionTable.accepted.count - unexercised.count }

  /// Adds another run's hits.
  public mutating func merge(_ other: FuzzCoverage) {
    guard !other.hits.isEmpty else { return }
    allocate()
    for index in hits.indices { hits[index] += other.hits[index] }
    for index in reached.indices { reached[index] |= other.reached[index] }
  }

  private mutating func allocate() {
    guard hits.isEmpty else { return }
    hits = [Int](repeating: 0, count: Self.kinds.count * Self.events.count)
    reached = [UInt64](repeating: 0, count: (Self.keyCount + 63) / 64)
  }

  mutating func record(from: StateKind, event: EventKind) {
    allocate()
    hits[Self.index(from) * Self.events.count + Self.index(event)] &+= 1
  }

  mutating func record(
    from: StateKind, event: EventKind, to: StateKind, commands: ArraySlice<EngineCommand>
  ) {
    record(from: from, event: event)
    var signature = 0
    for command in commands.prefix(4) { signature = signature * 8 + Self.index(command.kind) + 1 }
    let key = Self.key(from: from, event: event, to: to, signature: signature)
    reached[key >> 6] |= 1 << UInt64(key & 63)
  }

  private static func signature(_ commands: [CommandKind]) -> Int {
    commands.reduce(0) { $0 * 8 + index($1) + 1 }
  }

  private static func key(from: StateKind, event: EventKind, to: StateKind, signature: Int) -> Int {
    ((index(from) * events.count + index(event)) * kinds.count + index(to)) * signatures
      + signature
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
    case .queue: 1
    case .append: 2
    case .insert: 3
    case .remove: 4
    case .move: 5
    case .jump: 6
    case .next: 7
    case .previous: 8
    case .repeat: 9
    case .shuffle: 10
    case .rate: 11
    case .clear: 12
    case .pause: 13
    case .resume: 14
    case .stop: 15
    case .seek: 16
    case .retry: 17
    case .ready: 18
    case .stalled: 19
    case .resumed: 20
    case .seeked: 21
    case .ended: 22
    case .failed: 23
    case .position: 24
    case .timeout: 25
    }
  }

  private static func index(_ kind: CommandKind) -> Int {
    switch kind {
    case .load: 0
    case .preload: 1
    case .start: 2
    case .rate: 3
    case .pause: 4
    case .seek: 5
    case .stop: 6
    }
  }

  /// A grid of hits: one row per state kind, one column per event kind, then
  /// how many of the table's declared transitions were exercised.
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
