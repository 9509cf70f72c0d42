public import PlayerEngine
public import PlayerState

/// A player under test: anything that takes ``PlayerState/PlaybackEvent``s and drives a
/// ``PlayerEngine/PlaybackEngine``. Conform your own player or engine adapter to point the
/// harness at it; ``PlayerTarget`` adapts Playhead's ``PlayerEngine/Player``.
///
/// The harness creates the engine (a recording ``FuzzEngine``), hands it to
/// your ``FuzzSubject/make`` closure, sends events through ``send(_:)``, and
/// reads ``observation`` after every step. Engine reports reach the player
/// both through ``send(_:)`` and through the `ReportSink` given to `execute`.
public protocol FuzzTarget: AnyObject {
  /// Processes one event: a user intent, an engine report or a watchdog expiry.
  func send(_ event: PlaybackEvent)
  /// What the player says about itself, read after every step.
  var observation: FuzzObservation { get }
  /// The player's state in words, for reports only (not read on the fast path).
  var stateDescription: String { get }
  /// The player's whole state, or nil (the default) if the player does not
  /// vouch for one. ``Explorer`` merges two explored states only when their
  /// snapshots are equal, so the snapshot must hold everything the player's
  /// future behaviour depends on; without one the explorer merges nothing and
  /// never claims a complete proof.
  var snapshot: AnyHashable? { get }
  /// What the player saves for a relaunch (`PlaybackState.snapshot`), or nil
  /// (the default) if it cannot restore: the harness then takes no snapshot
  /// and relaunches nothing (``FuzzLifecycle``).
  var playbackSnapshot: PlaybackSnapshot? { get }
  /// Hands playback off to `engine` (as `Player.handOff(to:)`): stops this
  /// player's load and preload and returns a player on `engine` restored from
  /// this one's snapshot that resumes with the user's intent; nil (the
  /// default) if the player cannot. Give the new player the harness's clock
  /// and recorders for `engine` (``FuzzEngine/watchdog(for:)``).
  func handOff(to engine: any PlaybackEngine) -> (any FuzzTarget)?
}

extension FuzzTarget {
  /// No snapshot: the explorer does not merge this player's states.
  public var snapshot: AnyHashable? { nil }
  /// No snapshot to restore from.
  public var playbackSnapshot: PlaybackSnapshot? { nil }
  /// No hand-off.
  public func handOff(to engine: any PlaybackEngine) -> (any FuzzTarget)? { nil }
}

/// What the oracle reads from a player after each step.
public struct FuzzObservation: Hashable, Sendable {
  /// The named state the player believes it is in.
  public var kind: StateKind { didSet { edited = true } }
  /// Whether the player says media is playing.
  public var isPlaying: Bool { didSet { edited = true } }
  /// Whether the player awaits a seek completion, or nil if it does not say.
  public var seekPending: Bool? { didSet { edited = true } }
  /// The queue as ``FuzzObservation/fingerprint(items:current:repeatMode:shuffleSeed:)``
  /// of its play order, current position, repeat mode and shuffle seed, or nil if it does not say.
  public var queue: UInt64? { didSet { edited = true } }
  /// The current load and the preloading one, or nil if it does not say.
  public var loads: (current: Load?, preload: Load?)? { didSet { edited = true } }
  /// The last known position of the current load, or nil if it does not say (or is idle).
  public var position: MediaTime? { didSet { edited = true } }
  /// Whether the preload is ready to start (false while it buffers, failed or
  /// absent), or nil if the player does not say.
  public var preloadReady: Bool? { didSet { edited = true } }
  /// The engine's own error the current load's newest failure carried
  /// (`PlaybackState.failure`): nil if the player does not say; `.some(nil)` when it
  /// says there is none (no current load, no failure, or a failure without a
  /// detail). Kept while the load is failed or waiting for the network; a
  /// reload starts without one.
  public var failure: FailureDetail?? { didSet { edited = true } }
  /// The player's whole public state, when it keeps one (``init(_:)`` says it):
  /// every field a caller can read is compared with the contract's after each
  /// step: the queue (entries and their media, the list order kept while
  /// shuffled), the intent, rate and interruption, the ids issued, the current
  /// load's stage (with its failure's reason), seeks, timers, position,
  /// duration, system pause and network attempts, the preload's stage and
  /// duration, and so the kind and the suppression derived from them. Its loads
  /// are compared by item; their tokens are the player's own numbering, so
  /// ``loads`` says them. Nil when the player does not say.
  public var state: PlaybackState? {
    get { box?.state }
    set { box = newValue.map(StateBox.init) }
  }
  /// What the player publishes to a lock screen (`PlaybackState.nowPlaying`):
  /// nil if it does not say; `.some(nil)` when it says there is no current entry.
  public var nowPlaying: NowPlaying?? { didSet { edited = true } }
  /// The remote commands the player offers (`PlaybackState.availableCommands`),
  /// or nil if it does not say.
  public var availableCommands: AvailableCommands? { didSet { edited = true } }
  /// The state, boxed: an observation is copied several times per step, and
  /// a box is one reference where a state is a dozen.
  private(set) var box: StateBox?
  /// Whether a field other than the state was set after the initializer:
  /// two observations with one box (a box is made by an initializer or by
  /// setting ``state``) are copies of one value unless either was edited.
  private var edited = false

  /// An observation.
  /// - Parameters:
  ///   - kind: the player's named state.
  ///   - isPlaying: whether it says it is playing.
  ///   - seekPending: whether a seek is awaited; nil to leave property 5 to its effects.
  ///   - queue: the queue's fingerprint; nil to leave the queue to the command log.
  ///   - loads: the current load and the preload; nil to leave them to the command log.
  ///   - position: the last known position; nil when not said.
  ///   - preloadReady: whether the preload is ready; nil when not said.
  ///   - failure: the current load's failure detail (`.some(nil)`: none);
  ///     nil when not said.
  ///   - state: the whole public state; nil when not said.
  ///   - nowPlaying: what the player publishes to a lock screen
  ///     (`.some(nil)`: nothing current); nil when not said.
  ///   - availableCommands: the remote commands it offers; nil when not said.
  public init(
    kind: StateKind, isPlaying: Bool, seekPending: Bool? = nil, queue: UInt64? = nil,
    loads: (current: Load?, preload: Load?)? = nil, position: MediaTime? = nil,
    preloadReady: Bool? = nil, failure: FailureDetail?? = nil, state: PlaybackState? = nil,
    nowPlaying: NowPlaying?? = nil, availableCommands: AvailableCommands? = nil
  ) {
    box = state.map(StateBox.init)
    self.nowPlaying = nowPlaying
    self.availableCommands = availableCommands
    self.preloadReady = preloadReady
    self.failure = failure
    self.kind = kind
    self.isPlaying = isPlaying
    self.seekPending = seekPending
    self.queue = queue
    self.loads = loads
    self.position = position
  }

  /// What a ``PlayerState/PlaybackState`` says about itself.
  /// - Parameter state: the state to read.
  public init(_ state: PlaybackState) {
    self.init(state, itemsHash: nil)
  }

  /// The part of the queue's fingerprint that reads every entry (O(n)).
  static func itemsHash(_ entries: QueueEntries) -> UInt64 {
    var hash = Self.seed
    for entry in entries { Self.mix(&hash, UInt64(entry.item.rawValue)) }
    return hash
  }

  /// ``init(_:)`` with ``itemsHash(_:)`` of the state's entries already
  /// computed, or computed here when nil.
  init(_ state: consuming PlaybackState, itemsHash known: UInt64?) {
    // Every field is read into a local first: reading the shuffle's seed straight out of the
    // borrowed state crashed the release build's optimizer (Swift 6.3.1, CopyPropagation:
    // "Found outside of lifetime use").
    let playQueue = state.queue
    let shuffleSeed: UInt64? = playQueue.shuffle.map { $0.seed }
    let session = state.session
    let preload = state.preload
    let hash = known ?? Self.itemsHash(playQueue.entries)
    kind = state.kind
    isPlaying = state.isPlaying
    seekPending = session?.seekPending ?? false
    queue = Self.finish(
      hash, count: playQueue.entries.count, current: playQueue.current,
      repeatMode: playQueue.repeatMode, shuffleSeed: shuffleSeed)
    loads = (session?.load, preload?.load)
    position = session?.position
    preloadReady = preload?.stage == .ready
    failure = .some(state.failure)
    nowPlaying = .some(state.nowPlaying)
    availableCommands = state.availableCommands
    box = StateBox(state)
  }

  /// Whether two observations agree on everything both say.
  public static func == (lhs: FuzzObservation, rhs: FuzzObservation) -> Bool {
    lhs.kind == rhs.kind && lhs.isPlaying == rhs.isPlaying && lhs.seekPending == rhs.seekPending
      && lhs.queue == rhs.queue && lhs.loads?.current == rhs.loads?.current
      && lhs.loads?.preload == rhs.loads?.preload && (lhs.loads == nil) == (rhs.loads == nil)
      && lhs.position == rhs.position && lhs.preloadReady == rhs.preloadReady
      && lhs.failure == rhs.failure && lhs.box?.state == rhs.box?.state
      && lhs.nowPlaying == rhs.nowPlaying && lhs.availableCommands == rhs.availableCommands
  }

  /// The box of an observation not edited since it was made, else nil: all
  /// that ``repeats(box:)`` needs of it later.
  var uneditedBox: StateBox? { edited ? nil : box }

  /// Whether this observation is a copy of the one whose ``uneditedBox`` is
  /// `other`, neither edited since it was made: then every field is the same
  /// (a player that repeats its last observation, as ``PlayerTarget`` does for
  /// an unchanged state), found in O(1). False says nothing.
  func repeats(box other: StateBox) -> Bool {
    guard !edited, let box else { return false }
    return box === other
  }

  /// Hashes what the observation says (not the whole state: equal
  /// observations still hash alike).
  public func hash(into hasher: inout Hasher) {
    hasher.combine(kind)
    hasher.combine(isPlaying)
    hasher.combine(seekPending)
    hasher.combine(queue)
    hasher.combine(loads?.current)
    hasher.combine(loads?.preload)
    hasher.combine(position)
    hasher.combine(preloadReady)
    hasher.combine(failure)
  }

  /// The queue's fingerprint: FNV-1a over the play order's item ids, the
  /// current position, the repeat mode and the shuffle seed. Allocation-free.
  /// - Parameters:
  ///   - items: the entries' item ids in play order.
  ///   - current: the current position, nil when empty.
  ///   - repeatMode: the repeat mode.
  ///   - shuffleSeed: the shuffle's seed, nil when not shuffled.
  public static func fingerprint(
    items: some Sequence<ItemID>, current: Int?, repeatMode: RepeatMode, shuffleSeed: UInt64?
  ) -> UInt64 {
    var hash = seed
    var count = 0
    for item in items {
      mix(&hash, UInt64(item.rawValue))
      count += 1
    }
    return finish(
      hash, count: count, current: current, repeatMode: repeatMode, shuffleSeed: shuffleSeed)
  }

  private static let seed: UInt64 = 0xCBF2_9CE4_8422_2325

  private static func mix(_ hash: inout UInt64, _ value: UInt64) {
    hash = (hash ^ value) &* 0x100_0000_01B3
  }

  private static func finish(
    _ hash: UInt64, count: Int, current: Int?, repeatMode: RepeatMode, shuffleSeed: UInt64?
  ) -> UInt64 {
    var hash = hash
    mix(&hash, UInt64(truncatingIfNeeded: count))
    mix(&hash, current.map { UInt64(truncatingIfNeeded: $0) } ?? .max)
    mix(&hash, repeatMode == .off ? 0 : repeatMode == .one ? 1 : 2)
    mix(&hash, shuffleSeed.map { $0 ^ 0x5555 } ?? 0)
    mix(&hash, shuffleSeed == nil ? 0 : 1)
    return hash
  }
}

/// A named way to build a fresh player under test around the harness's engine.
///
/// ```swift
/// enum MySubjects {
///   static let player = FuzzSubject(name: "MyPlayer", swiftExpression: "MySubjects.player") {
///     engine in MyPlayerAdapter(engine: engine, watchdog: FuzzEngine.watchdog(for: engine))
///   }
/// }
/// let result = Fuzzer.run(MySubjects.player, FuzzConfiguration(seed: 42, budget: .cases(10_000)))
/// ```
///
/// The engine handed to ``make`` is the harness's ``FuzzEngine``: give its
/// ``FuzzEngine/watchdog`` to the player as its watchdog clock (a player that
/// never requests its watchdogs fails ``FuzzProperty/watchdogRequested``), and,
/// for ``ConcurrentFuzz``, call ``FuzzEngine/onProcessed`` after each event.
public struct FuzzSubject: Sendable {
  /// What a player takes from the harness, beyond the engine and the watchdog
  /// clock (``FuzzEngine/watchdog(for:)``, whose timeout every subject must
  /// schedule its watchdogs with): the harness draws per case only what the
  /// player says it reads, and keeps the rest at a new `PlayerConfiguration`'s.
  public struct Inputs: OptionSet, Hashable, Sendable {
    /// The raw bits.
    public let rawValue: UInt8
    /// A set of inputs.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The retry policy, ``FuzzEngine/retry(for:)``: read by every subject,
    /// so drawn for every case (off, one attempt, a cap that is reached, the standard one).
    public static let retryPolicy = Inputs(rawValue: 1)
    /// The whole configuration, ``FuzzEngine/configuration(for:)``: the
    /// `previous` threshold is drawn too (0, 1 s, 3 s, 10 s).
    public static let configuration = Inputs(rawValue: 2)
    /// The state to start from, ``FuzzEngine/state(for:)`` (with the whole
    /// configuration): one case in four starts from a generated valid state,
    /// ids within a few of exhaustion included. The player must take it as it
    /// is, its load tokens too (it goes on numbering from them).
    public static let startState = Inputs(rawValue: 4)
    /// The sleep timer's countdowns on the harness's clock: the player
    /// schedules each countdown it arms (`Effects.sleepTimer`) on
    /// ``FuzzEngine/watchdog(for:)`` with its delay, and sends
    /// `.system(.sleepTimerExpired(id))` when it fires (Playhead's `Player`
    /// does). Only then does a case set sleep timers and send their expiries
    /// (``FuzzFeatures/sleepTimer``).
    public static let sleepTimer = Inputs(rawValue: 8)
    /// Volume, mute and ducking (issue 37): the player takes `setVolume`,
    /// `setMuted`, `duckBegan` and `duckEnded` as Playhead's contract says and
    /// sends each live load its volume (`EngineCommand.setVolume`; Playhead's
    /// `Player` does). Only then does a case send them (``FuzzFeatures/volume``),
    /// and, with ``configuration``, draw the duck policy
    /// (`PlayerConfiguration.ducking`: lower to 0.2, to 0.5 or to 0, or pause).
    public static let volume = Inputs(rawValue: 16)
    /// Fades (issue 37, item 2): the player is built with
    /// ``FuzzEngine/configuration(for:)`` and takes its `fade` (200 ms with
    /// ``FuzzFeatures/fade``; the harness's engine then declares
    /// `EngineCapabilities.volumeRamp`), fades the user's pause, resume and
    /// stop as Playhead's contract says, and schedules each fade's timer on
    /// ``FuzzEngine/watchdog(for:)`` with the fade's length (Playhead's `Player`
    /// does). Without it a case's player never fades.
    public static let fade = Inputs(rawValue: 32)
    /// Crossfade (issue 37, item 3): the player is built with
    /// ``FuzzEngine/configuration(for:)`` and takes its `crossfade` (1 s with
    /// ``FuzzFeatures/crossfade`` when the engine preloads; the harness's engine
    /// then declares `EngineCapabilities.volumeRamp`), crossfades into the
    /// preload as Playhead's contract says, and schedules the outgoing load's
    /// timer on ``FuzzEngine/watchdog(for:)`` with the crossfade's length
    /// (Playhead's `Player` does). Without it a case's player never crossfades.
    public static let crossfade = Inputs(rawValue: 64)
    /// Live and DVR streams (issue 38): the player takes the engine's
    /// `window(L, start…end)` reports, `goToLive` and `failed(L, behindLiveWindow)`
    /// as Playhead's contract says (``FuzzFeatures/live``). Without it a case
    /// sends none of them.
    public static let live = Inputs(rawValue: 128)
    /// Everything the harness can vary.
    public static let all: Inputs = [
      .retryPolicy, .configuration, .startState, .sleepTimer, .volume, .fade, .crossfade, .live,
    ]
  }

  /// The name printed in reports.
  public let name: String
  /// Builds a fresh, idle player that sends its commands to the given engine.
  public let make: @Sendable (any PlaybackEngine) -> any FuzzTarget
  /// A Swift expression of type `FuzzSubject` that names this subject from a
  /// test target, as in `MySubjects.player`: the printed Swift test
  /// (``FuzzFailure/swiftTest``) and the saved failure's replay line use it, so
  /// they reproduce on this player. Nil when the subject has none: the printed
  /// test then says so and leaves a placeholder to fill in.
  public let swiftExpression: String?
  /// What the player takes from the harness; ``Inputs/retryPolicy`` unless
  /// the subject says more (``reading(_:)``).
  public private(set) var inputs: Inputs = .retryPolicy
  /// Whether the player may be sent events from several threads at once
  /// (``ConcurrentFuzz`` runs only such subjects): made with
  /// ``threadSafe(name:swiftExpression:make:)``.
  public var isThreadSafe: Bool { makeSendable != nil }
  /// Builds a player restored from a snapshot around a new engine, as after
  /// a relaunch (Playhead's `Player(engine:restoring:)`), or nil when the
  /// subject cannot: ``FuzzLifecycle`` actions are then not generated, and a
  /// saved `relaunch` or `handoff` does nothing. Set with ``restoring(_:)``.
  public private(set) var restore:
    (@Sendable (any PlaybackEngine, PlaybackSnapshot) -> (any FuzzTarget)?)?
  /// Starts a player this subject made over for a new case on `engine`, the
  /// engine it was made with, reset for that case: the random run restarts
  /// its players instead of making one per case (making a player and its
  /// engine, and freeing them, cost a case as much as its checks did). The
  /// runner keeps one player per watchdog timeout and per choice of step
  /// records (``FuzzEngine/reportsCostlyReasons``), what a player's clock and
  /// step callback fix when it is made, and restarts the one made for the
  /// case's; everything else the player reads from the engine (its state,
  /// configuration and capabilities) the restart reads again. False when the
  /// player cannot be restarted: a new one is made. Nil (the default): every
  /// case makes its player.
  package private(set) var restart: (@Sendable (any FuzzTarget, FuzzEngine) -> Bool)?
  /// Builds the player as a `Sendable` one, for the concurrent mode.
  let makeSendable: (@Sendable (any PlaybackEngine) -> any FuzzTarget & Sendable)?

  /// A subject.
  /// - Parameters:
  ///   - name: the name printed in reports.
  ///   - swiftExpression: how a test names this subject (see ``swiftExpression``).
  ///   - make: builds a fresh idle player around the given engine (read the
  ///     engine's `capabilities`: the harness runs cases on engines that
  ///     preload and on engines that do not; give the player
  ///     ``FuzzEngine/watchdog(for:)`` as its watchdog clock).
  public init(
    name: String, swiftExpression: String? = nil,
    make: @escaping @Sendable (any PlaybackEngine) -> any FuzzTarget
  ) {
    self.name = name
    self.swiftExpression = swiftExpression
    self.make = make
    makeSendable = nil
  }

  private init(
    name: String, swiftExpression: String?,
    sendable: @escaping @Sendable (any PlaybackEngine) -> any FuzzTarget & Sendable
  ) {
    self.name = name
    self.swiftExpression = swiftExpression
    self.make = sendable
    makeSendable = sendable
  }

  /// The same subject, saying it takes `inputs` from the harness: a player
  /// built with ``FuzzEngine/configuration(for:)`` reads ``Inputs/configuration``.
  /// - Parameter inputs: what the player reads.
  /// - Returns: the subject with its inputs.
  public func reading(_ inputs: Inputs) -> FuzzSubject {
    var subject = self
    subject.inputs = inputs.union(.retryPolicy)
    return subject
  }

  /// The same subject, able to restore its player from a snapshot on a new
  /// engine (a relaunch); its players give their snapshot through
  /// ``FuzzTarget/playbackSnapshot`` and hand off with ``FuzzTarget/handOff(to:)``.
  /// - Parameter restore: builds a restored, idle player that sends nothing
  ///   (nil when the snapshot cannot be restored).
  /// - Returns: the subject with its restore.
  public func restoring(
    _ restore: @escaping @Sendable (any PlaybackEngine, PlaybackSnapshot) -> (any FuzzTarget)?
  ) -> FuzzSubject {
    var subject = self
    subject.restore = restore
    return subject
  }

  /// A subject whose player is thread-safe, so ``ConcurrentFuzz`` can send to it
  /// from several threads at once. The player must call
  /// ``FuzzEngine/onProcessed(for:)``'s closure, when there is one, after each
  /// event it processes, in processing order.
  /// - Parameters:
  ///   - name: the name printed in reports.
  ///   - swiftExpression: how a test names this subject (see ``swiftExpression``).
  ///   - make: builds a fresh idle, `Sendable` player around the given engine.
  public static func threadSafe(
    name: String, swiftExpression: String? = nil,
    make: @escaping @Sendable (any PlaybackEngine) -> any FuzzTarget & Sendable
  ) -> FuzzSubject {
    FuzzSubject(name: name, swiftExpression: swiftExpression, sendable: make)
  }

  /// Playhead's own ``PlayerEngine/Player``, with the harness's watchdog clock.
  public static let player = FuzzSubject.threadSafe(
    name: "Player", swiftExpression: ".player",
    make: { engine in
      // Each step's ignore reason, notifications (and, concurrently, its event)
      // straight into the harness's engine (PlayerTarget.onStep(for:)).
      return PlayerTarget(FuzzEngine.player(for: engine, onStep: PlayerTarget.onStep(for: engine)))
    }
  ).reading(.all).restoring { engine, snapshot in
    let player = try? Player(
      engine: engine, restoring: snapshot, configuration: FuzzEngine.configuration(for: engine),
      watchdog: FuzzEngine.watchdog(for: engine), onStep: PlayerTarget.onStep(for: engine))
    return player.map(PlayerTarget.init)
  }.restarting { target, engine in
    // Made as above, from `FuzzEngine.state(for:)` as it is.
    (target as? PlayerTarget)?.restart(from: engine.startState) ?? false
  }

  /// The same subject, whose players the random run restarts for each case
  /// (``restart``).
  func restarting(
    _ restart: @escaping @Sendable (any FuzzTarget, FuzzEngine) -> Bool
  ) -> FuzzSubject {
    var subject = self
    subject.restart = restart
    return subject
  }
}

/// Adapts ``PlayerEngine/Player`` to ``FuzzTarget``.
public final class PlayerTarget: FuzzTarget, Sendable {
  /// The adapted player.
  public let player: Player

  /// The last observation and the hash of its state's entries: a step that
  /// left the state as it was (an ignored event) gives the same observation
  /// again (all of it derives from the state), and most events leave the
  /// queue as it was (the same buffer, compared in O(1)), so an observation
  /// costs O(queue) only after the queue changed.
  private let last: Locked<Observed?>

  /// An observation, the state it was made from and the hash of its entries,
  /// shared (one reference read under the lock, not the observation's fields).
  private final class Observed: Sendable {
    let observation: FuzzObservation
    /// The observation's own box of the state.
    let box: StateBox
    let hash: UInt64

    init(_ observation: FuzzObservation, _ box: StateBox, _ hash: UInt64) {
      self.observation = observation
      self.box = box
      self.hash = hash
    }
  }

  /// Adapts a player.
  /// - Parameter player: a player whose engine is the harness's engine.
  public init(_ player: Player) {
    self.player = player
    last = Locked(nil)
  }

  /// Adapts a player whose state's observation is already known: `observation`
  /// made by `FuzzObservation(_:)` of the player's state (the explorer's
  /// restored players), given back until the state changes.
  init(_ player: Player, observed observation: FuzzObservation?) {
    self.player = player
    last = Locked(observation.flatMap(Self.observed))
  }

  /// Sends the event to the player.
  public func send(_ event: PlaybackEvent) { player.send(event) }

  /// Starts the player over from `state` (`Player.restart(from:)`), forgetting
  /// the last observation, or taking `observation` as it when known (made by
  /// `FuzzObservation(_:)` of `state`, as ``init(_:observed:)`` takes it).
  /// - Returns: false, changing nothing, while the player is processing an event.
  func restart(from state: consuming PlaybackState, observed observation: FuzzObservation? = nil)
    -> Bool
  {
    guard player.restart(from: state) else { return false }
    let known = observation.flatMap(Self.observed)
    last.withLock { $0 = known }
    return true
  }

  /// What ``last`` keeps of a known observation.
  private static func observed(_ observation: FuzzObservation) -> Observed? {
    observation.box.map {
      Observed(observation, $0, FuzzObservation.itemsHash($0.state.queue.entries))
    }
  }

  /// The player's snapshot (`PlaybackState.snapshot`).
  public var playbackSnapshot: PlaybackSnapshot? { player.state.snapshot }

  /// `Player.handOff(to:)`, with the harness's clock and recorders for `engine`.
  public func handOff(to engine: any PlaybackEngine) -> (any FuzzTarget)? {
    let next = try? player.handOff(
      to: engine, watchdog: FuzzEngine.watchdog(for: engine), onStep: Self.onStep(for: engine))
    return next.map(PlayerTarget.init)
  }

  /// The step callback that reports each step's ignore reason and
  /// notifications (and, concurrently, its event) straight into the
  /// harness's engine, which does not own the player; nil for another engine.
  /// (A step record costs Player ~2,000 instructions an event: a random run
  /// asks for it in one case in four, a replay always.)
  static func onStep(for engine: any PlaybackEngine) -> (@Sendable (PlayerStep) -> Void)? {
    guard let harness = engine as? FuzzEngine else { return nil }
    let processed = harness.onProcessed
    if harness.reportsCostlyReasons {
      return { step in
        processed?(step.event)
        harness.record(step.transition.ignored, notifications: step.notifications)
      }
    }
    guard let processed else { return nil }
    return { step in processed(step.event) }
  }

  /// The player's state, read once under its lock.
  public var observation: FuzzObservation { observe(player.state) }

  /// The player's state, read once under its lock, and its observation.
  var observed: (state: PlaybackState, observation: FuzzObservation) {
    let state = player.state
    return (state, observe(state))
  }

  /// The observation of `state`, the player's state just read: the last one
  /// when its state is this one. Taken owned, so the observation's box takes
  /// the state without copying it.
  private func observe(_ state: consuming PlaybackState) -> FuzzObservation {
    // The last observation when its state is this one; else the hash of
    // these entries, when they are the last state's. (Compared through the
    // box: reading the last state out of it would copy it.)
    let previous = last.withLock { $0 }
    if let previous, previous.box.holds(state) { return previous.observation }
    let entries = state.queue.entries
    let hash =
      previous.flatMap { $0.box.holds(entries) ? $0.hash : nil }
      ?? FuzzObservation.itemsHash(entries)
    let observation = FuzzObservation(state, itemsHash: hash)
    if let box = observation.box {
      let observed = Observed(observation, box, hash)
      last.withLock { $0 = observed }
    }
    return observation
  }

  /// The compact form of the player's state, as in `playing(A#1)`.
  public var stateDescription: String { player.state.description }
}

/// A player's public state, once, shared by the copies of an observation.
final class StateBox: Sendable {
  let state: PlaybackState
  init(_ state: consuming PlaybackState) { self.state = state }

  /// Whether the state held is `other`, telling most unequal pairs apart by
  /// the fields a step changes most (the load, the preload, the intent, the
  /// tokens) before comparing the whole states. A method, so the state held
  /// is read in place (reading it out of the box copies it).
  func holds(_ other: borrowing PlaybackState) -> Bool { state.isSame(as: other) }

  /// Whether the state held has these queue entries.
  func holds(_ entries: QueueEntries) -> Bool { state.queue.entries == entries }
}

extension PlaybackState {
  /// Whether this state is `other` (`==`), telling most unequal pairs apart
  /// by the fields a step changes most (the load, the preload, the intent,
  /// the tokens) before comparing the whole states.
  func isSame(as other: borrowing PlaybackState) -> Bool {
    session == other.session && preload == other.preload && playWhenReady == other.playWhenReady
      && issuedLoads == other.issuedLoads && self == other
  }
}
