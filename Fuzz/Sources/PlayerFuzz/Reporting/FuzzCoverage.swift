public import PlayerState

/// What a run exercised: hits per (state kind × event kind), hits per
/// (state kind × event kind × ``Variant``) — which identity a report named,
/// which seek or watchdog id, which failure reason — and which of the
/// machine's declared transitions (``PlayerState/TransitionTable/accepted``,
/// one row per from-kind, event kind, to-kind and command kinds) it reached.
///
/// Full coverage (``isFull``) needs both: every declared row reached, and
/// every variant sent in every state kind where the run could have sent it
/// (``unsent`` lists the gaps), so a run that never sends `unsupported`, or
/// never names the load the next intent will create, does not pass
/// `requireFullCoverage`.
public struct FuzzCoverage: Hashable, Sendable, CustomStringConvertible {
  /// What an event named, relative to the contract's state when it arrived.
  public enum Variant: UInt8, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    /// A user intent (intents carry no identity).
    case intent
    /// The current load.
    case current
    /// The preloading load.
    case preload
    /// A preload that was dropped before it became current.
    case dropped
    /// The newest issued load that is neither current nor preloading (the one just left).
    case previous
    /// An issued load older than ``previous``.
    case older
    /// The token the next load will get: the load the next intent will create.
    case upcoming
    /// A token never issued and not the next one.
    case neverIssued
    /// An issued token with another item than the one it was issued for.
    case wrongItem
    /// A seek completion for the newest seek.
    case seekNewest
    /// A seek completion for a superseded seek.
    case seekSuperseded
    /// A seek completion for a seek never sent.
    case seekNeverIssued
    /// An expiry of the newest watchdog.
    case watchdogNewest
    /// An expiry of a superseded watchdog.
    case watchdogSuperseded
    /// An expiry of a watchdog never armed.
    case watchdogNeverIssued
    /// A failure: the network.
    case network
    /// A failure: decoding.
    case decoding
    /// A failure: an unsupported format.
    case unsupported
    /// A failure: the media does not exist.
    case notFound
    /// A failure: a timeout reported by the engine (not a watchdog expiry).
    case timeout
    /// A failure: an engine-specific code.
    case engine
    /// A failure carrying the engine's own error (``PlayerState/FailureDetail``).
    case detail
    /// An interruption's end with the system's hint to resume.
    case resumeHint
    /// An interruption's end without the hint.
    case noResumeHint
    /// A failure: a live load fell behind its window.
    case behindLiveWindow

    /// The variant's name, as in `upcoming`.
    public var description: String { Self.names[Int(rawValue)] }

    private static let names = [
      "intent", "current", "preload", "dropped", "previous", "older", "upcoming", "neverIssued",
      "wrongItem", "seekNewest", "seekSuperseded", "seekNeverIssued", "watchdogNewest",
      "watchdogSuperseded", "watchdogNeverIssued", "network", "decoding", "unsupported", "notFound",
      "timeout", "engine", "detail", "resumeHint", "noResumeHint", "behindLiveWindow",
    ]

    /// The failure reason's variant.
    public init(_ reason: FailureReason) {
      switch reason {
      case .network: self = .network
      case .decoding: self = .decoding
      case .unsupported: self = .unsupported
      case .notFound: self = .notFound
      case .timeout: self = .timeout
      case .engine: self = .engine
      case .behindLiveWindow: self = .behindLiveWindow
      }
    }

    /// Whether an event of `event`'s kind can carry this variant.
    public func applies(to event: EventKind) -> Bool {
      switch self {
      case .intent: !Self.namesLoad(event)
      case .current, .preload, .dropped, .previous, .older, .upcoming, .neverIssued, .wrongItem:
        Self.namesLoad(event)
      case .seekNewest, .seekSuperseded, .seekNeverIssued: event == .seeked
      case .watchdogNewest, .watchdogSuperseded, .watchdogNeverIssued: event == .timeout
      case .network, .decoding, .unsupported, .notFound, .timeout, .engine, .detail,
        .behindLiveWindow:
        event == .failed
      case .resumeHint, .noResumeHint: event == .interruptionEnded
      }
    }

    /// Whether events of this kind name a load (reports and expiries).
    static func namesLoad(_ event: EventKind) -> Bool {
      switch event {
      case .ready, .stalled, .resumed, .seeked, .ended, .failed, .position, .pausedBySystem,
        .timeout, .window:
        true
      default: false
      }
    }

    /// Which load variant `load` is, for an event arriving at `model`.
    package static func identity(of load: Load, in model: ContractModel) -> Variant {
      if let current = model.current, load == current.load { return .current }
      if let preload = model.preload, load == preload.load { return .preload }
      let token = load.token.rawValue
      if token == model.issued &+ 1 { return .upcoming }
      if token == 0 || token > model.issued { return .neverIssued }
      if let item = model.item(ofToken: token), item != load.item { return .wrongItem }
      if load == model.dropped { return .dropped }
      return token == newestStale(model) ? .previous : .older
    }

    /// The newest issued token that is neither current nor preloading, or 0.
    static func newestStale(_ model: ContractModel) -> UInt32 {
      var token = model.issued
      // A load fading out is live (its end and failure count): not stale.
      while token > 0,
        token == model.current?.load.token.rawValue || token == model.preload?.load.token.rawValue
          || token == model.leaving?.load.token.rawValue
      {
        token -= 1
      }
      return token
    }

    /// The variants an event could carry at `model`, one bit per case.
    static func available(in model: ContractModel) -> UInt32 {
      func bit(_ variant: Variant) -> UInt32 { 1 << UInt32(variant.rawValue) }
      var mask =
        bit(.intent) | bit(.upcoming) | bit(.neverIssued) | bit(.seekNeverIssued)
        | bit(.watchdogNeverIssued) | bit(.network) | bit(.decoding) | bit(.unsupported)
        | bit(.notFound) | bit(.timeout) | bit(.engine) | bit(.detail) | bit(.resumeHint)
        | bit(.noResumeHint)
      if model.issued >= 1 { mask |= bit(.wrongItem) }
      if let current = model.current {
        mask |= bit(.current)
        if current.lastSeek >= 1 { mask |= bit(.seekNewest) }
        if current.lastSeek >= 2 { mask |= bit(.seekSuperseded) }
        if current.lastWatchdog >= 1 { mask |= bit(.watchdogNewest) }
        if current.lastWatchdog >= 2 { mask |= bit(.watchdogSuperseded) }
      }
      if model.preload != nil { mask |= bit(.preload) }
      let live = (model.current == nil ? 0 : 1) + (model.preload == nil ? 0 : 1)
      let stale = Int(model.issued) - live
      let newest = newestStale(model)
      let dropped = model.dropped?.token.rawValue
      if dropped != nil { mask |= bit(.dropped) }
      if stale >= 1, newest > 0, dropped != newest { mask |= bit(.previous) }
      let droppedBelow = dropped.map { $0 < newest } ?? false
      if stale - 1 - (droppedBelow ? 1 : 0) > 0 { mask |= bit(.older) }
      return mask
    }
  }

  /// One (state kind × event kind × variant) the run could have sent and never did.
  public struct Gap: Hashable, Sendable, CustomStringConvertible {
    /// The contract's state kind when the event would have arrived.
    public var kind: StateKind
    /// The event kind.
    public var event: EventKind
    /// The variant.
    public var variant: Variant

    /// A gap.
    /// - Parameters:
    ///   - kind: the state kind.
    ///   - event: the event kind.
    ///   - variant: the variant never sent there.
    public init(kind: StateKind, event: EventKind, variant: Variant) {
      self.kind = kind
      self.event = event
      self.variant = variant
    }

    /// `playing × failed × unsupported`.
    public var description: String { "\(kind.rawValue) × \(event.rawValue) × \(variant)" }
  }

  private var hits: [Int] = []
  /// Hits per (state kind × event kind × variant); allocated on first use.
  private var variantHits: [Int] = []
  /// Per state kind, the variants the run could have sent there (one bit each).
  private var available: [UInt32] = []
  /// One bit per (from, event, to, up to four command kinds); allocated on first use.
  private var reached: [UInt64] = []

  /// No hits.
  public init() {}

  /// The state kinds, in table order.
  public static let kinds = StateKind.allCases
  /// The event kinds, in table order.
  public static let events = EventKind.allCases
  private static let commandKinds = CommandKind.allCases
  /// Command signatures: up to four command kinds, each 1…8 (0 for none), base 9 (base 8
  /// until `setVolume`, the eighth kind, whose digit 8 would have carried into the next).
  private static let signatures = 9 * 9 * 9 * 9
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

  /// How many events of `event`'s kind carrying `variant` arrived in a state of `kind`.
  public func hits(_ kind: StateKind, _ event: EventKind, _ variant: Variant) -> Int {
    guard !variantHits.isEmpty else { return 0 }
    return variantHits[Self.variantIndex(kind, event, variant)]
  }

  /// The (state kind × event kind × variant) triples never sent although the
  /// run was in that state kind at a moment the variant existed (a preload to
  /// name, a superseded seek, an earlier load): every event, every failure
  /// reason, every identity, in every state the run visited.
  public var unsent: [Gap] {
    guard !available.isEmpty else { return [] }
    var gaps: [Gap] = []
    for kind in Self.kinds {
      let mask = available[Self.index(kind)]
      for variant in Variant.allCases where mask & (1 << UInt32(variant.rawValue)) != 0 {
        for event in Self.events where variant.applies(to: event) {
          if hits(kind, event, variant) == 0 {
            gaps.append(Gap(kind: kind, event: event, variant: variant))
          }
        }
      }
    }
    return gaps
  }

  /// Whether every declared transition was reached and nothing the run
  /// could have sent was left unsent (``unexercised`` and ``unsent`` empty).
  public var isFull: Bool { unexercised.isEmpty && unsent.isEmpty }

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
    for index in variantHits.indices { variantHits[index] += other.variantHits[index] }
    for index in available.indices { available[index] |= other.available[index] }
  }

  /// Allocates the tables on first use; the check is inlined into every
  /// `record`, the allocation is not.
  private mutating func allocate() {
    if hits.isEmpty { allocateTables() }
  }

  @inline(never)
  private mutating func allocateTables() {
    hits = [Int](repeating: 0, count: Self.kinds.count * Self.events.count)
    reached = [UInt64](repeating: 0, count: (Self.keyCount + 63) / 64)
    variantHits = [Int](
      repeating: 0, count: Self.kinds.count * Self.events.count * Variant.allCases.count)
    available = [UInt32](repeating: 0, count: Self.kinds.count)
  }

  private static func variantIndex(_ kind: StateKind, _ event: EventKind, _ variant: Variant)
    -> Int
  {
    variantRow(kind, event) + Int(variant.rawValue)
  }

  /// Where the variants of (`kind`, `event`) start in `variantHits`.
  private static func variantRow(_ kind: StateKind, _ event: EventKind) -> Int {
    (index(kind) * events.count + index(event)) * Variant.allCases.count
  }

  /// Records what `event` names, arriving at `model` (before the model applies it),
  /// and which variants that state offered.
  mutating func record(variantsOf event: PlaybackEvent, at model: ContractModel) {
    allocate()
    let kind = model.kind
    available[Self.index(kind)] |= Variant.available(in: model)
    // Worked out once for every hit.
    let row = Self.variantRow(kind, event.kind)
    func hit(_ variant: Variant) {
      variantHits[row + Int(variant.rawValue)] &+= 1
    }
    guard let load = event.load else {
      hit(.intent)
      if case .system(.interruptionEnded(let resume)) = event {
        hit(resume ? .resumeHint : .noResumeHint)
      }
      return
    }
    hit(Variant.identity(of: load, in: model))
    switch event {
    case .engine(.failed(_, let reason, let detail)):
      hit(Variant(reason))
      if detail != nil { hit(.detail) }
    case .engine(.seekCompleted(_, let id)):
      let newest = model.current?.lastSeek ?? 0
      hit(
        id.rawValue == newest && newest > 0
          ? .seekNewest
          : id.rawValue >= 1 && id.rawValue < newest ? .seekSuperseded : .seekNeverIssued)
    case .watchdogExpired(_, let id):
      let newest = model.current?.lastWatchdog ?? 0
      hit(
        id.rawValue == newest && newest > 0
          ? .watchdogNewest
          : id.rawValue >= 1 && id.rawValue < newest ? .watchdogSuperseded : .watchdogNeverIssued)
    default: break
    }
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
    for command in commands.prefix(4) { signature = signature * 9 + Self.index(command.kind) + 1 }
    let key = Self.key(from: from, event: event, to: to, signature: signature)
    reached[key >> 6] |= 1 << UInt64(key & 63)
  }

  private static func signature(_ commands: [CommandKind]) -> Int {
    commands.reduce(0) { $0 * 9 + index($1) + 1 }
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
    case .suppressed: 7
    case .waiting: 8
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
    case .pausedBySystem: 25
    case .timeout: 26
    case .interruptionBegan: 27
    case .interruptionEnded: 28
    case .routeLost: 29
    case .networkLost: 30
    case .networkAvailable: 31
    case .toggle: 32
    case .skip: 33
    case .setPosition: 34
    case .setSleepTimer: 35
    case .sleepTimerExpired: 36
    case .volume: 37
    case .mute: 38
    case .duckBegan: 39
    case .duckEnded: 40
    case .goToLive: 41
    case .window: 42
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
    case .volume: 7
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
    let gaps = unsent
    lines.append(
      gaps.isEmpty
        ? "every identity, id and failure reason sent in every state kind where it existed"
        : "never sent although available (state × event × variant): \(gaps.count)")
    return lines.joined(separator: "\n")
  }
}
