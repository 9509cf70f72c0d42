import PlayerEngine
public import PlayerState

/// Exhaustive mode: small-scope model checking of the real player. A
/// breadth-first search over every sequence of letters, from a fresh player,
/// in every configuration class of an ``ExplorationScope`` (queues of at most
/// N entries, at most H held-back reports), with every explored transition
/// checked against the contract model as in the random runs.
///
/// The alphabet covers every event kind, with identities relative to the
/// state and values at every rule boundary: every intent, with positions
/// relative to the current entry (before it, at it, after it, past the end)
/// and fresh or current media; times 0, below, at and past the previous
/// threshold, and the duration; `ready` with and without a duration; reports
/// about the current load, the preload, the newest earlier load, the one
/// before it, a dropped preload, the load the next intent will create, a
/// never-issued token and an issued token with the wrong item; every failure
/// reason, with and without the engine's error; seek completions and expiries
/// for the newest, a superseded and a never-issued id; re-entrant bursts; and
/// held-back reports with `deliver`.
///
/// **Merging, and what "complete" means.** Two sequences that lead to the
/// same state need to be extended only once, but only the player can say
/// what its state is. When its ``FuzzTarget/snapshot`` is an
/// ``ExplorableSnapshot`` (Playhead's `PlaybackState` is), states are merged on
/// a canonical key: the contract model, the held-back reports, what the
/// player says about itself and its snapshot, with identities renamed by role
/// and times by class (``ExplorationRenaming``). Letters that would leave the
/// scope do not apply, so the states are finitely many, and the search runs to
/// a **fixpoint**: every state reached is extended by every letter. It is
/// then ``Exploration/complete``: the properties hold for every sequence of any
/// length over the alphabet within the scope. A merged state reached again by
/// another path is probed with letters whose outcome from the first path is
/// known (the differential check): any difference, or a replay of a
/// representative's path reaching another state, means the snapshot merges
/// states that behave differently, and the search says so instead of
/// `complete`. Without a snapshot nothing is merged: every sequence up to the
/// depth is replayed, and the result is "bounded at depth N", never complete.
///
/// ```swift
/// let proof = Explorer.explore(.player, scope: ExplorationScope(entries: 2))
/// print(proof.verdict)   // complete for queues ≤ 2, ≤ 1 held-back report, configurations {…}
/// ```
public enum Explorer {
  /// The most held-back reports of the depth-bounded search
  /// (``explore(_:maxDepth:seconds:canPreload:retry:features:)``).
  public static let maxHeld = 2

  /// The most queue entries of the depth-bounded search.
  public static let boundedEntries = 3

  /// How many letters the alphabet for queues of the depth-bounded search's size has, before
  /// volume's seven (`Letter.volumeLetters`), which a scope with the feature `volume` adds.
  public static var alphabetSize: Int { alphabetSize(entries: boundedEntries) }

  /// How many letters the alphabet for queues of at most `entries` entries has.
  public static func alphabetSize(entries: Int) -> Int { Letter.alphabet(entries: entries).count }

  /// Explores every sequence up to `maxDepth` letters, or until `seconds`
  /// pass, in one configuration, over queues of at most
  /// ``boundedEntries`` entries and ``maxHeld`` held-back reports.
  ///
  /// `features` narrows the search as it narrows ``Fuzzer/run(_:_:progress:)``
  /// (``FuzzConfiguration/features``) and a scoped search (``ExplorationScope/features``): a
  /// player that implements only part of the contract is sent no letter outside it. Without
  /// ``FuzzFeatures/preload`` the engine does not preload (whatever `canPreload` says), and
  /// without ``FuzzFeatures/network`` the retry policy is `.off`, as in the random runs.
  ///
  /// ```swift
  /// // A player with no sleep timer: the letters it never claimed are not sent.
  /// let exploration = Explorer.explore(
  ///   mine, maxDepth: 3, features: FuzzFeatures.all.subtracting(.sleepTimer))
  /// ```
  /// - Parameters:
  ///   - subject: the player under test.
  ///   - maxDepth: the longest sequence to explore.
  ///   - seconds: a time limit; the result then says how deep it got.
  ///   - canPreload: whether the engine declares `.preload`.
  ///   - retry: the player's retry policy for network failures.
  ///   - features: the parts of the contract the player implements; all by default.
  /// - Returns: depth reached, state and transition counts, whether the
  ///   search is complete or bounded, the shortest counterexample if any, and
  ///   what it covered.
  public static func explore(
    _ subject: FuzzSubject, maxDepth: Int, seconds: Double? = nil, canPreload: Bool = true,
    retry: RetryPolicy = .standard, features: FuzzFeatures = .all
  ) -> Exploration {
    let configuration = ExplorationConfiguration(
      canPreload: canPreload && features.contains(.preload),
      retry: features.contains(.network) ? retry : .off)
    let scope = ExplorationScope(
      entries: boundedEntries, held: maxHeld, configurations: [configuration],
      features: features, maxDepth: max(1, maxDepth), seconds: seconds)
    return explore(subject, scope: scope).results[0]
  }

  /// Explores every sequence, of any length, over the alphabet within `scope`:
  /// each configuration class to its fixpoint (or the scope's depth, time or
  /// state limit, or the first counterexample).
  ///
  /// The classes are independent searches: with `jobs` above 1 that many run
  /// at once, each on its own thread (as TLC's workers), for a subject that
  /// is thread-safe (``FuzzSubject/isThreadSafe``; otherwise one at a time).
  /// The result is the same as one at a time: the classes in the scope's
  /// order, up to the first that found a counterexample or ran out of time or
  /// states (a class after it that ran meanwhile is left out). Memory is the
  /// sum of the searches running at once (``ExplorationScope/maxStates``
  /// bounds each).
  /// - Parameters:
  ///   - subject: the player under test.
  ///   - scope: the entries, held-back reports and configurations, and the limits.
  ///   - jobs: how many classes to search at once (1: in turn).
  ///   - progress: called about twice a second for each class being searched,
  ///     and once when a class ends (with its result), from the thread that
  ///     searches it: with `jobs` above 1, from several threads at once.
  /// - Returns: one result per configuration class searched, and the verdict.
  public static func explore(
    _ subject: FuzzSubject, scope: ExplorationScope, jobs: Int = 1,
    progress: (@Sendable (ExplorationProgress) -> Void)? = nil
  ) -> ScopedExploration {
    explore(subject, scope: scope, forgetting: [], jobs: jobs, progress: progress)
  }

  /// ``explore(_:scope:jobs:progress:)`` with a canonical key that leaves `forgetting` out
  /// (how the tests show that an incomplete snapshot is never called complete), what each
  /// class's search keeps in memory (`memory`; the rest goes to a temporary file), and the
  /// part of each class to search (`partition`: every class alike; nil for the whole class).
  package static func explore(
    _ subject: FuzzSubject, scope: ExplorationScope, forgetting: Set<ExplorationField>,
    memory: SearchMemory = .standard, partition: ClassPartition? = nil, jobs: Int = 1,
    progress: (@Sendable (ExplorationProgress) -> Void)? = nil
  ) -> ScopedExploration {
    let clock = ContinuousClock()
    let started = clock.now
    let deadline = scope.seconds.map { started.advanced(by: .nanoseconds(Int64($0 * 1e9))) }
    let classes = scope.configurations
    let workers = subject.isThreadSafe ? min(max(jobs, 1), classes.count) : 1
    let results: [Exploration]
    if workers <= 1 {
      var done: [Exploration] = []
      for (index, configuration) in classes.enumerated() {
        if let deadline, clock.now >= deadline, !done.isEmpty { break }
        var search = Search(
          subject: subject, scope: scope, configuration: configuration, deadline: deadline,
          forgetting: forgetting, progress: progress.map { Search.Progress(index, $0) },
          memory: memory, partition: partition)
        let result = search.run()
        done.append(result)
        if result.endsTheScope { break }
      }
      results = done
    } else {
      // Each worker takes the next class; none starts a class after one that stopped
      // the search (a counterexample, or the time limit), whose index `stop` keeps.
      let shared = Locked(Shared(results: Array(repeating: nil, count: classes.count)))
      onNewThreads(workers) { _ in
        while true {
          let index: Int? = shared.withLock { shared in
            guard shared.next < classes.count, shared.next <= shared.stop else { return nil }
            if let deadline, clock.now >= deadline, shared.next > 0 { return nil }
            defer { shared.next += 1 }
            return shared.next
          }
          guard let index else { return }
          var search = Search(
            subject: subject, scope: scope, configuration: classes[index], deadline: deadline,
            forgetting: forgetting, progress: progress.map { Search.Progress(index, $0) },
            memory: memory, partition: partition)
          let result = search.run()
          shared.withLock { shared in
            shared.results[index] = result
            if result.endsTheScope {
              shared.stop = min(shared.stop, index)
            }
          }
        }
      }
      let (found, stop) = shared.withLock { ($0.results, $0.stop) }
      // The classes in order, up to the one that stopped the search: every class
      // before it was taken (the index only grows) and has finished.
      results = Array(found.prefix(stop == Int.max ? found.count : stop + 1).prefix { $0 != nil })
        .compactMap { $0 }
    }
    return ScopedExploration(
      subject: subject.name, scope: scope, results: results,
      seconds: Fuzzer.secondsSince(started, clock))
  }

  /// What the workers of a search over several classes share.
  private struct Shared {
    var results: [Exploration?]
    var next = 0
    var stop = Int.max
  }

  /// The reports held back after `actions` (`effects`: whether each did
  /// anything, ``CaseRunner/effects``), as ``CaseRunner`` keeps them: those
  /// for the current player, in order, and how many wait for the player a
  /// hand-off retired. A `deliver` sends both; a relaunch drops both with the
  /// old engine; a hand-off leaves the current player's to it as it retires
  /// (and drops those of a player retired before).
  static func held(_ actions: [FuzzAction], effects: [Bool]) -> (
    current: [EngineReport], retired: Int
  ) {
    var held: [EngineReport] = []
    var retired = 0
    for (index, action) in actions.enumerated() {
      switch action {
      case .later(let report): held.append(report)
      case .deliver:
        held.removeAll()
        retired = 0
      case .lifecycle(.relaunch) where index < effects.count && effects[index]:
        held.removeAll()
        retired = 0
      case .lifecycle(.handoff) where index < effects.count && effects[index]:
        retired = held.count
        held.removeAll()
      default: continue
      }
    }
    return (held, retired)
  }
}

extension PlayerTarget {
  /// The player's whole state, ``PlayerEngine/Player/state``: between two
  /// events Playhead's `Player` holds nothing else its behaviour depends on
  /// (its event queue is empty and the harness runs no watchdog timer).
  /// `PlaybackState` is an ``ExplorableSnapshot``, so the explorer merges it
  /// in canonical form.
  public var snapshot: AnyHashable? { player.state }
}

/// A merged state's key: the canonical codes, and the snapshot itself when
/// the player's snapshot has no canonical form.
struct StateKey: Hashable {
  var codes: [Int32]
  var raw: AnyHashable?

  /// Hashes the codes as one buffer (much cheaper than element by element).
  func hash(into hasher: inout Hasher) {
    codes.withUnsafeBytes { hasher.combine(bytes: $0) }
    hasher.combine(raw)
  }
}

/// One configuration's search.
struct Search {
  let subject: FuzzSubject
  let scope: ExplorationScope
  let configuration: ExplorationConfiguration
  let deadline: ContinuousClock.Instant?
  let forgetting: Set<ExplorationField>
  let alphabet: [Explorer.Letter]
  let clock = ContinuousClock()
  /// How the player's state is read: directly for Playhead's `Player` (no
  /// boxing), through ``FuzzTarget/snapshot`` otherwise.
  private enum Reading { case playerTarget, forkable, snapshot }
  private var reading = Reading.snapshot
  /// Whether the subject is ``FuzzSubject/player``, run as a
  /// ``ForkablePlayerTarget``: a letter's runner is restored, not replayed.
  private let forks: Bool
  /// The subject the runners are made with.
  private let runs: FuzzSubject

  /// Every state reached, in the order found (breadth first): its key's
  /// fingerprint (``VisitedStates``), the state it was first reached from and
  /// the step from there, its depth (``SearchPaths``).
  private var visited = VisitedStates()
  private var paths = SearchPaths()
  /// What the search keeps in memory, and what it writes to a file.
  private let memory: SearchMemory
  /// The part of the class this search covers (nil: all of it), the states
  /// at its depth left to other parts, and the transitions from each state
  /// (kept only for a part: ``PartStates``).
  private let partition: ClassPartition?
  private var leftToOthers = Set<Int32>()
  private var transitionsFrom: [UInt32] = []
  /// For each expanded state, the state each letter leads to (-1: the letter
  /// does not apply) and a hash of what the step gave out: the commands and
  /// what the player said after it, renamed as the state was and with nothing
  /// forgotten (see ``output(_:_:after:_:life:)``). What the differential check
  /// compares with. 32-bit hashes: the rows are most of the search's memory,
  /// and a collision only hides one difference from one comparison.
  private var rows: SearchRows
  /// The row of the state being extended, letter by letter, until it is
  /// added to ``rows``.
  private var rowTargets: [Int32] = []
  private var rowOutputs: [UInt32] = []
  /// Each state's fine hash (see ``fine(_:_:_:)``), to tell when a merged
  /// state differs from the state's representative.
  private var fines: [Int] = []
  /// Which letter each state is probed with next (none: the first).
  private var probeCursor: [Int32: Int32] = [:]
  /// States compared on every letter with another concrete state merged into them.
  private var compared = Set<Int32>()
  /// Concrete states waiting to be compared with a state not extended yet:
  /// each the state it was reached from and the step (replayed when compared).
  private var pending: [Int32: (from: Int32, step: [FuzzAction])] = [:]
  /// For a subject that vouches for its own snapshot, the letters (their
  /// indices in the alphabet) that led from a state back to itself (events
  /// that changed nothing the snapshot shows), in order: once the state is
  /// extended, the concrete state after all of them must be the same state,
  /// and is compared with it on every letter, since what such events change
  /// is exactly what a snapshot may leave out. Each letter is worked out anew
  /// where it is sent in the row: a letter names loads and ids relative to the
  /// state (the newest seek, one never issued), and after the letters before
  /// it those are other ids, renamed alike.
  private var selfLoops: [Int32: [Int]] = [:]
  private var expanded = 0
  /// Runners kept at states found but not yet extended (a restored player
  /// needs no replay of the path), at most ``SearchMemory/keptRunners``.
  private var stored: [Int32: (runner: CaseRunner, snapshot: Snapshot)] = [:]
  /// Where the search reports how far it has got, and its class's place in the scope.
  struct Progress {
    let classIndex: Int
    let report: @Sendable (ExplorationProgress) -> Void
    init(_ classIndex: Int, _ report: @escaping @Sendable (ExplorationProgress) -> Void) {
      self.classIndex = classIndex
      self.report = report
    }
  }
  private let progress: Progress?
  /// When the search started, and when it last reported its progress.
  private let begun: ContinuousClock.Instant
  private var reported: ContinuousClock.Instant
  private var coverage = FuzzCoverage()
  /// What the player left unsaid in some step (``CaseRunner/unsaid``'s bits).
  private var unsaid: UInt16 = 0
  private var result: Exploration

  init(
    subject: FuzzSubject, scope: ExplorationScope, configuration: ExplorationConfiguration,
    deadline: ContinuousClock.Instant?, forgetting: Set<ExplorationField>,
    progress: Progress? = nil, memory: SearchMemory = .standard,
    partition: ClassPartition? = nil
  ) {
    self.subject = subject
    self.memory = memory
    self.partition = partition
    self.progress = progress
    begun = clock.now
    reported = begun
    self.scope = scope
    var configuration = configuration
    // A scope that fades runs its player with the random runs' fade, if the subject does fades.
    if scope.fades, subject.inputs.contains(.fade) { configuration.fade = FuzzSetup.fadeOn }
    // A scope that crossfades, the random runs' crossfade, for an engine that preloads.
    if scope.crossfades, subject.inputs.contains(.crossfade), configuration.canPreload {
      configuration.crossfade = FuzzSetup.crossfadeOn
    }
    self.configuration = configuration
    self.deadline = deadline
    self.forgetting = forgetting
    let letters = Explorer.Letter.alphabet(for: scope)
    // A subject that cannot restore its player is sent no snapshot, relaunch or hand-off (the
    // runner would skip them: each would only lead back to its state).
    // Nor is one that does not do volume sent volume's letters (``FuzzSubject/Inputs/volume``),
    // as the random runs send it none.
    alphabet = letters.filter { letter in
      switch letter {
      case .lifecycle: subject.restore != nil
      case .volume: subject.inputs.contains(.volume)
      case .fadeEnd:
        subject.inputs.contains(.fade)
          || (scope.crossfades && subject.inputs.contains(.crossfade))
      case .crossfade: subject.inputs.contains(.crossfade)
      case .live: subject.inputs.contains(.live)
      case .failed(.behindLiveWindow, _), .intent(.goToLive): subject.inputs.contains(.live)
      default: true
      }
    }
    forks = ForkablePlayerTarget.standsFor(subject)
    runs = forks ? ForkablePlayerTarget.subject : subject
    result = Exploration(
      subject: subject.name, depth: 0, complete: false, states: 1, transitions: 0, sequences: 0,
      seconds: 0, counterexample: nil, unreached: [])
    result.canPreload = configuration.canPreload
    result.configuration = configuration
    result.entries = scope.entries
    result.held = scope.held
    result.alphabet = alphabet.count
    rows = SearchRows(width: alphabet.count, memory: memory)
  }

  private func runner() -> CaseRunner {
    CaseRunner(runs, setup: configuration.setup)
  }

  private var timeIsUp: Bool { deadline.map { clock.now >= $0 } ?? false }

  /// A letter's actions in a context, or nil when it does not apply there or sends an event
  /// outside the scope's features.
  private func actions(of letter: Explorer.Letter, in context: Explorer.LetterContext)
    -> [FuzzAction]?
  {
    guard let actions = letter.actions(in: context),
      scope.features.admits(actions, setup: configuration.setup)
    else { return nil }
    return actions
  }

  mutating func run() -> Exploration {
    let started = clock.now
    let root = runner()
    reading =
      root.target is ForkablePlayerTarget
      ? .forkable : root.target is PlayerTarget ? .playerTarget : .snapshot
    result.merged = root.target.snapshot != nil
    if result.merged {
      result.canonical = root.target.snapshot?.base is any ExplorableSnapshot
      searchMerged(root)
      result.collisionProbability = visited.collisionProbability
      partition?.report(partStates())
    } else {
      searchUnmerged()
    }
    result.transitions = result.sequences
    result.coverage = coverage
    result.notCompared = FuzzObservable.decode(unsaid)
    result.unreached = coverage.unexercised
    result.complete =
      result.merged && result.fixpoint && result.counterexample == nil && result.unsound == nil
      && !result.interrupted && result.stateLimit == nil
    result.seconds = Fuzzer.secondsSince(started, clock)
    report(level: result.depth, states: result.states, expanded: expanded, ended: true)
    return result
  }

  /// Reports the search's progress: at its end (with the result), or when
  /// half a second has passed since the last report.
  private mutating func report(level: Int, states: Int, expanded: Int, ended: Bool = false) {
    guard let progress else { return }
    let now = clock.now
    guard ended || now - reported >= .milliseconds(500) else { return }
    reported = now
    progress.report(
      ExplorationProgress(
        configuration: configuration, classIndex: progress.classIndex,
        classCount: scope.configurations.count, level: level,
        states: ended ? result.states : states, expanded: expanded,
        transitions: result.sequences, seconds: Fuzzer.secondsSince(begun, clock),
        result: ended ? result : nil))
  }

  // MARK: Keys

  /// The player's snapshot: Playhead's state read directly (no boxing), with
  /// what the player says in it (worked out once: the key and the step's
  /// output both read it), or what the subject vouches for.
  private enum Snapshot: Equatable {
    case state(PlaybackState, FuzzObservation)
    case other(AnyHashable?)
  }

  private func snapshot(_ runner: CaseRunner) -> Snapshot {
    let state: PlaybackState
    switch reading {
    case .forkable:
      let observed = unsafeDowncast(runner.target as AnyObject, to: ForkablePlayerTarget.self)
        .observed
      return .state(observed.state, observed.observation)
    case .playerTarget:
      state = unsafeDowncast(runner.target as AnyObject, to: PlayerTarget.self).player.state
    case .snapshot: return .other(runner.target.snapshot)
    }
    return .state(state, FuzzObservation(state))
  }

  /// Puts `runner`'s player (shared with the runners copied from it) back in
  /// `snapshot`'s state.
  private func restore(_ runner: CaseRunner, _ snapshot: Snapshot) {
    guard case .state(let state, let observation) = snapshot else { return }
    unsafeDowncast(runner.target as AnyObject, to: ForkablePlayerTarget.self).restore(
      state, observation: observation)
  }

  /// Performs `step` on `runner`; with a restored player, an expiry (a
  /// watchdog's or a sleep countdown's) it sends is first aimed at the player
  /// in `runner`.
  private func perform(_ step: [FuzzAction], on runner: inout CaseRunner) -> FuzzViolation? {
    for action in step {
      if forks {
        let target = unsafeDowncast(runner.target as AnyObject, to: ForkablePlayerTarget.self)
        if case .send(.watchdogExpired(let load, let id)) = action { target.aimExpiry(load, id) }
        if case .send(.system(.sleepTimerExpired(let id))) = action { target.aimSleepExpiry(id) }
      }
      if let violation = runner.perform(action) { return violation }
    }
    return nil
  }

  private func key(_ runner: CaseRunner) -> StateKey {
    key(runner, snapshot(runner))
  }

  private func key(_ runner: CaseRunner, _ snapshot: Snapshot) -> StateKey {
    key(runner, snapshot, forgetting: forgetting)
  }

  private func key(
    _ runner: CaseRunner, _ snapshot: Snapshot, forgetting: Set<ExplorationField>
  ) -> StateKey {
    let (held, retired) = held(runner)
    let renaming = ExplorationRenaming(
      runner.model, threshold: configuration.previousThreshold, forgetting: forgetting)
    var codes: [Int32] = []
    codes.reserveCapacity(128)
    // Ids near exhaustion (from a start state): how far each is from its last. Nothing else.
    Explorer.appendExhaustion(of: runner.model, into: &codes)
    // The player a hand-off retired: only how many reports wait for it (``retiredDeliveryBreaks
    // (_:_:depth:)`` says why). First: -8 begins no other key (the model's queue length does).
    if retired > 0 { codes += [-8, Int32(retired)] }
    let observation: FuzzObservation
    switch snapshot {
    case .state(_, let seen): observation = seen
    case .other: observation = runner.engine.contract(runner.target.observation)
    }
    Explorer.canonicalize(
      runner.model, held: held, observation: observation, into: &codes, renaming)
    switch snapshot {
    case .state(let state, _):
      state.canonicalize(into: &codes, renaming)
      return StateKey(codes: codes, raw: nil)
    case .other(let snapshot):
      if let explorable = snapshot?.base as? any ExplorableSnapshot {
        explorable.canonicalize(into: &codes, renaming)
        return StateKey(codes: codes, raw: nil)
      }
      return StateKey(codes: codes, raw: snapshot)
    }
  }

  /// The reports held back at `runner` (``Explorer/held(_:effects:)``): none,
  /// without reading its trace, in a scope that holds none back (no `later`
  /// letter applies there).
  private func held(_ runner: CaseRunner) -> (current: [EngineReport], retired: Int) {
    scope.held == 0 ? ([], 0) : Explorer.held(runner.trace, effects: runner.effects)
  }

  private func context(_ runner: CaseRunner) -> Explorer.LetterContext {
    let held = held(runner)
    return Explorer.LetterContext(
      model: runner.model, held: held.current, retired: held.retired, entries: scope.entries,
      maxHeld: scope.held, threshold: configuration.previousThreshold)
  }

  /// Delivers at once the reports a hand-off (the last of `step`) left for the
  /// player it stopped, on a replay of `path` and `step`: a property they break
  /// is reported (the counterexample ends with that `deliver`), and true
  /// returned.
  ///
  /// Why the key keeps only how many reports wait for a retired player, not
  /// what they are nor its state: it is sent nothing but them, at the next
  /// `deliver`, so what it does then is fixed at the hand-off, whatever the
  /// letters in between. Every hand-off the search explores is followed here
  /// by that `deliver`, so two states whose retired reports differ are merged
  /// only when each one's are known to make the player send nothing.
  private mutating func retiredDeliveryBreaks(
    _ path: [FuzzAction], _ step: [FuzzAction], depth: Int32
  ) -> Bool {
    var runner = replay(path + step)
    runner.recordsCoverage = false
    guard let violation = runner.perform(.deliver) else { return false }
    report(
      violation, trace: runner.trace, shortest: path + step + [.deliver], depth: Int(depth) + 2)
    return true
  }

  /// The actions from the start to state `id`, along the path it was first reached by.
  private func path(to id: Int32) -> [FuzzAction] { paths.path(to: id) }

  /// A fresh runner after `actions`, recording no coverage (those steps were
  /// recorded when first explored).
  private func replay(_ actions: [FuzzAction]) -> CaseRunner {
    var runner = runner()
    runner.recordsCoverage = false
    for action in actions { _ = runner.perform(action) }
    runner.recordsCoverage = true
    return runner
  }

  private mutating func add(
    _ key: StateKey, fine: Int, parent: Int32, step: [FuzzAction], depth: Int32
  ) -> (id: Int32, new: Bool) {
    let (id, new) = visited.insert(key)
    guard new else { return (id, false) }
    fines.append(fine)
    paths.add(parent: parent, step: step, depth: depth)
    return (id, true)
  }

  /// A hash of the state with what the canonical form leaves out by design
  /// put back (the rate, the failure's reason and detail, the seek and timer
  /// ids and duration of a stopped load, which stopped loads exist, the sleep
  /// countdowns issued) and
  /// nothing forgotten: two merged states whose fine hashes differ are two
  /// concrete states the differential check compares.
  private func fine(_ runner: CaseRunner, _ snapshot: Snapshot, _ key: StateKey) -> Int {
    var hasher = Hasher()
    // Fine hashes are compared only between states of one key (a state and a
    // concrete state merged into it), so the key itself need not be hashed
    // again; a key that forgets fields merges states the whole key tells
    // apart, so that one is.
    if !forgetting.isEmpty { self.key(runner, snapshot, forgetting: []).hash(into: &hasher) }
    let model = runner.model
    hasher.combine(model.rate)
    hasher.combine(model.current?.failure)
    hasher.combine(model.current.map { min($0.lastSeek, 2) })
    hasher.combine(model.current.map { min($0.lastWatchdog, 2) })
    hasher.combine(model.current?.duration)
    hasher.combine(Explorer.older(model) != nil)
    hasher.combine(model.dropped != nil)
    hasher.combine(min(model.issuedSleep, 2))
    if case .state(let state, _) = snapshot {
      hasher.combine(state.rate)
      hasher.combine(state.failure)
      hasher.combine(state.session?.stage)
      hasher.combine(state.preload?.stage)
    }
    return hasher.finalize()
  }

  /// A hash of what a step gave out: the commands since `logged` and what
  /// the player says after it (its observation, the queue's fingerprint
  /// aside: it hashes raw item ids), renamed by `renaming` (the state's
  /// before the step, with nothing forgotten). Two concrete states merged into
  /// one must give out the same for every letter, or the canonical form left
  /// out something that matters. After a relaunch or a hand-off in the step
  /// (the runner's life is no longer `life`), the new player numbers items and
  /// loads from 1 again: what it gave out, and what it says, are renamed as
  /// the state after the step is, since the old state's names mean nothing to it.
  private func output(
    _ runner: CaseRunner, _ snapshot: Snapshot, after logged: Int, _ renaming: ExplorationRenaming,
    life: Int
  ) -> UInt32 {
    let renewed =
      runner.life == life
      ? renaming : ExplorationRenaming(runner.model, threshold: configuration.previousThreshold)
    var codes: [Int32] = []
    codes.reserveCapacity(32)
    let log = runner.log
    if logged < log.count {
      let media = runner.model.entries.map(\.media)
      for index in logged..<log.count {
        let names = runner.life != life && index >= runner.life ? renewed : renaming
        Explorer.append(log[index], media: media, into: &codes, names)
      }
    }
    codes.append(-7)
    let observation: FuzzObservation
    switch snapshot {
    case .state(_, let seen): observation = seen
    case .other: observation = runner.engine.contract(runner.target.observation)
    }
    Explorer.append(observation, into: &codes, renewed)
    var hasher = Hasher()
    codes.withUnsafeBytes { hasher.combine(bytes: $0) }
    return UInt32(truncatingIfNeeded: hasher.finalize())
  }

  // MARK: The merged search

  private mutating func searchMerged(_ root: CaseRunner) {
    let rootSnapshot = snapshot(root)
    let rootKey = key(root, rootSnapshot)
    _ = add(rootKey, fine: fine(root, rootSnapshot, rootKey), parent: -1, step: [], depth: 0)
    var id: Int32 = 0
    while Int(id) < visited.count {
      let depth = Int(paths.depth(of: id))
      if let maxStates = scope.maxStates, visited.count > maxStates {
        // More states than the limit allows, and states still to extend: bounded here, as by
        // time (the level the state's successors would be in is partly found). A search
        // holds at most the limit and one state's successors.
        result.depth = depth
        result.stateLimit = maxStates
        break
      }
      if let maxDepth = scope.maxDepth, depth >= maxDepth {
        // Every state left is at the depth limit: the search is bounded there.
        result.depth = maxDepth
        result.newAtLastLevel = visited.count - Int(id)
        result.states = visited.count
        return
      }
      result.depth = depth
      if let partition, depth == partition.depth, !partition.owns(visited.fingerprint(of: id)) {
        leaveToOthers(id)
        id += 1
        continue
      }
      let before = result.sequences
      if !expand(id) { break }
      if partition != nil { transitionsFrom.append(UInt32(clamping: result.sequences - before)) }
      id += 1
      // Reading the clock costs more than a few states' work: look every 64.
      if id & 63 == 0 { report(level: depth, states: visited.count, expanded: expanded) }
      // An unsound merge makes the search no proof, whatever it finds later: say so now.
      if result.unsound != nil { break }
    }
    result.states = visited.count
    // A fixpoint only when every state was extended: the search also stops, with no
    // counterexample, when a property broke on a path that passes replayed (unsound).
    if result.counterexample == nil, !result.interrupted, Int(id) == visited.count {
      result.fixpoint = true
      // A part's rows leave out the states other parts extend: no quotient of the class.
      result.distinctStates = partition == nil ? behaviouralClasses(rows) : nil
      result.depth = Int(paths.lastDepth) + 1
      result.newAtLastLevel = 0
    }
  }

  /// Where a sweep of the alphabet starts: a runner at a state, what its
  /// player says, and the letters' context there.
  private struct Start {
    var runner: CaseRunner
    var snapshot: Snapshot
    var context: Explorer.LetterContext
    /// The path to the state, replayed when the runner must be made again.
    var path: [FuzzAction]
  }

  /// A runner at state `id`: the one kept when it was found (its player
  /// restored), or the path replayed.
  private mutating func start(_ id: Int32) -> Start {
    let path = path(to: id)
    if let kept = stored.removeValue(forKey: id) {
      restore(kept.runner, kept.snapshot)
      if id % 64 == 0 {
        // Now and then the path is replayed too: a restored player must be the same.
        let replayed = replay(path)
        checkReplay(replayed, snapshot(replayed), of: id, path)
      }
      return Start(
        runner: kept.runner, snapshot: kept.snapshot, context: context(kept.runner), path: path)
    }
    let runner = replay(path)
    let state = snapshot(runner)
    checkReplay(runner, state, of: id, path)
    return Start(runner: runner, snapshot: state, context: context(runner), path: path)
  }

  /// Extends state `id` by every letter, then compares it with another path
  /// to it waiting for that. Returns false when the search must stop.
  private mutating func expand(_ id: Int32) -> Bool {
    let start = start(id)
    rowTargets = Array(repeating: -1, count: alphabet.count)
    rowOutputs = Array(repeating: 0, count: alphabet.count)
    guard sweep(start, of: id, comparing: false) else { return false }
    rows.append(targets: rowTargets, outputs: rowOutputs)
    expanded += 1
    if let other = pending.removeValue(forKey: id) {
      // Made again by a replay: a runner kept for each such state would cost far more.
      let path = path(to: other.from) + other.step
      let runner = replay(path)
      let start = Start(
        runner: runner, snapshot: snapshot(runner), context: context(runner), path: path)
      guard compare(start, with: id) else { return false }
    }
    if let loops = selfLoops.removeValue(forKey: id), result.unsound == nil {
      return loop(loops, from: start, at: id)
    }
    return true
  }

  /// Sends the letters that each led state `id` back to itself in a row,
  /// from a replay of its path, each worked out where it is sent; the state
  /// they reach must be `id` again, and behave as it does on every letter.
  /// Returns false when the search must stop (a property broke).
  private mutating func loop(_ loops: [Int], from start: Start, at id: Int32) -> Bool {
    var runner = replay(start.path)
    runner.recordsCoverage = false
    var sent: [FuzzAction] = []
    for index in loops {
      guard let step = actions(of: alphabet[index], in: context(runner)) else {
        disagree(
          id, start.path + sent, letter: "\(alphabet[index])",
          detail: "applies from the state, but not after the letters that led back to it")
        return true
      }
      sent += step
      if let violation = perform(step, on: &runner) {
        report(
          violation, trace: runner.trace, shortest: runner.trace,
          depth: Int(paths.depth(of: id)) + loops.count)
        return false
      }
    }
    let state = snapshot(runner)
    guard visited.isState(key(runner, state), id) else {
      disagree(
        id, start.path + sent, letter: describe(sent),
        detail: "each lead back to the state, but not all of them in a row")
      return true
    }
    let other = Start(
      runner: runner, snapshot: state, context: context(runner), path: start.path + sent)
    return compare(other, with: id)
  }

  /// Sends every letter from `start`, each to a copy of its runner. Expanding
  /// (`comparing` false), each letter's successor is added (a new state is
  /// kept for its own expansion) and written in the state's `row`; comparing,
  /// it must be the one the row says, and a difference means the canonical
  /// form merged two states that behave differently.
  /// Returns false when the search must stop (a property broke).
  private mutating func sweep(_ start: Start, of id: Int32, comparing: Bool) -> Bool {
    var base = start.runner
    var valid = true
    // Whether `base` must be made again by a replay, not restored: the player a hand-off
    // retired, which its copies share and a restore does not touch, may have been sent its
    // reports. (Nor is a runner with such reports kept for its expansion, below.)
    var replayBase = false
    var tried: [[FuzzAction]: (target: Int32, output: UInt32)] = [:]
    tried.reserveCapacity(alphabet.count)
    let before = ExplorationRenaming(
      start.runner.model, threshold: configuration.previousThreshold)
    let depth = paths.depth(of: id)
    /// The output of a letter that left everything as it was (worked out once).
    var silent: UInt32?
    for (index, letter) in alphabet.enumerated() {
      if timeIsUp {
        result.interrupted = true
        return false
      }
      if !valid {
        if forks, !replayBase {
          restore(base, start.snapshot)
        } else {
          replayBase = false
          base = replay(start.path)
          checkReplay(base, snapshot(base), of: id, start.path)
        }
        valid = true
      }
      let step = actions(of: letter, in: start.context)
      if comparing, (step == nil) != (rows.target(id, index) == -1) {
        disagree(
          id, start.runner.trace, letter: describe(letter, step),
          detail: step == nil
            ? "applies after the first path only" : "applies after the other path only")
        return true
      }
      guard let step else { continue }
      if let known = tried[step] {
        if !comparing {
          rowTargets[index] = known.target
          rowOutputs[index] = known.output
        }
        continue
      }
      let logged = base.log.count
      var child = base
      if !comparing { swap(&coverage, &child.coverage) }
      child.recordsCoverage = !comparing
      let violation = perform(step, on: &child)
      if !comparing { swap(&coverage, &child.coverage) }
      if comparing { result.probes += 1 } else { result.sequences += 1 }
      unsaid |= child.unsaid
      if let violation {
        if comparing {
          disagree(id, start.runner.trace, letter: describe(step), detail: "breaks a property")
        }
        report(violation, trace: child.trace, shortest: start.path + step, depth: Int(depth) + 1)
        return false
      }
      // The reports waiting for a retired player: only a `deliver`, a relaunch or a hand-off
      // changes them.
      let retired =
        step.contains(where: Self.movesRetired) ? held(child).retired : start.context.retired
      if !comparing, retired > 0, step.contains(.lifecycle(.handoff)),
        retiredDeliveryBreaks(start.path, step, depth: depth)
      {
        return false
      }
      let childSnapshot = snapshot(child)
      // A relaunch or a hand-off replaces the child's player: the old one, which `base`
      // shares, may have changed (a hand-off stops it) even when the new one looks the same.
      let unchanged =
        child.log.count == logged && (child.target as AnyObject) === (base.target as AnyObject)
        && Self.same(childSnapshot, start.snapshot) && child.model == base.model
      if unchanged, reading != .snapshot, !step.contains(where: Self.movesHeld) {
        // The state as it was (a stale report, most letters): the start's key and fine
        // hash, and its observation as the only output. Nothing else to work out. Only
        // for Playhead's `Player`, whose observation is read off the state the snapshot
        // holds: a subject's own snapshot may leave out what its observation says.
        let output =
          silent ?? self.output(child, childSnapshot, after: logged, before, life: base.life)
        silent = output
        if comparing {
          let known = rows.entry(id, index)
          guard output == known.output, known.target == id else {
            disagree(
              id, start.runner.trace, letter: describe(step),
              detail: output == known.output
                ? "leads to another state than from the first path"
                : "gives out other commands or another observation than from the first path")
            return true
          }
        } else {
          rowTargets[index] = id
          rowOutputs[index] = output
        }
        tried[step] = (id, output)
        continue
      }
      let childKey = key(child, childSnapshot)
      let output = self.output(child, childSnapshot, after: logged, before, life: base.life)
      let target: Int32
      var new = false
      if comparing {
        let known = rows.entry(id, index)
        guard output == known.output else {
          disagree(
            id, start.runner.trace, letter: describe(step),
            detail: "gives out other commands or another observation than from the first path")
          return true
        }
        guard let reached = visited[childKey], reached == known.target else {
          disagree(
            id, start.runner.trace, letter: describe(step),
            detail: "leads to another state than from the first path")
          return true
        }
        target = reached
      } else {
        let childFine = fine(child, childSnapshot, childKey)
        (target, new) = add(
          childKey, fine: childFine, parent: id, step: step, depth: depth + 1)
        rowTargets[index] = target
        rowOutputs[index] = output
        if !new, target == id, reading == .snapshot { selfLoops[id, default: []].append(index) }
        if !new, childFine != fines[Int(target)] {
          // Another concrete state merged into `target`: compare them.
          if !check(&child, childSnapshot, at: target, from: id, step: step) { return false }
          valid = false
          // Its probe may have delivered the reports for the retired player `base` shares.
          if start.context.retired > 0 { replayBase = true }
        }
      }
      tried[step] = (target, output)
      // Did the letter change the player or the engine, which `base` shares?
      // If not, `base` is still where it was (a held report only changed the
      // child's own copy; an ignored event, nothing the player vouches for).
      let untouched = unchanged || step.allSatisfy { if case .later = $0 { true } else { false } }
      if !untouched {
        // Kept for its own expansion: restored then, not replayed. Not with reports for a
        // retired player: that player is one `base` shares (the one it had, or it was `base`'s).
        if new, !comparing, forks, retired == 0, stored.count < memory.keptRunners {
          stored[target] = (child, childSnapshot)
        }
        valid = false
      }
      if start.context.retired > 0, step.contains(.deliver) {
        // The retired player `base` shares was sent its reports, even if nothing else changed.
        valid = false
        replayBase = true
      }
    }
    return true
  }

  /// Whether two snapshots are equal; in O(1) when both observations are the
  /// one the forkable target made once for the state and gave out again.
  private static func same(_ lhs: Snapshot, _ rhs: Snapshot) -> Bool {
    // Both unedited copies of one observation: the right one's box, repeated by the left.
    if case .state(_, let left) = lhs, case .state(_, let right) = rhs,
      let box = right.uneditedBox, left.repeats(box: box)
    {
      return true
    }
    return lhs == rhs
  }

  /// Whether an action changes the reports held back (the key's `held`).
  private static func movesHeld(_ action: FuzzAction) -> Bool {
    switch action {
    case .later, .deliver: true
    default: false
    }
  }

  /// Whether an action changes the reports waiting for a retired player.
  private static func movesRetired(_ action: FuzzAction) -> Bool {
    switch action {
    case .deliver, .lifecycle: true
    default: false
    }
  }

  /// The differential check of a concrete state (where `runner` is) merged
  /// into `state` although it differs from the state's representative. The
  /// first such state is compared with the representative on every letter
  /// (now, or when the representative is extended); later ones on one letter
  /// each, in turn. Returns false when a property broke (the search stops).
  /// `runner` was reached from state `from` by `step`.
  private mutating func check(
    _ runner: inout CaseRunner, _ snapshot: Snapshot, at state: Int32, from: Int32,
    step: [FuzzAction]
  ) -> Bool {
    guard result.unsound == nil, !leftToOthers.contains(state) else { return true }
    if !compared.contains(state) {
      compared.insert(state)
      if Int(state) < expanded {
        let other = Start(
          runner: runner, snapshot: snapshot, context: context(runner), path: runner.trace)
        return compare(other, with: state)
      }
      if pending[state] == nil { pending[state] = (from, step) }
      return true
    }
    return Int(state) < expanded ? probe(&runner, at: state) : true
  }

  /// Compares every letter from `other` with state `state`'s row.
  private mutating func compare(_ other: Start, with state: Int32) -> Bool {
    var other = other
    if forks, other.context.retired == 0 {
      restore(other.runner, other.snapshot)
    } else {
      // The runner kept shares its player (or its retired player) with the runners used
      // since: replayed.
      other.runner = replay(other.path)
    }
    return sweep(other, of: state, comparing: true)
  }

  /// The differential check on replays: the representative's path must reach
  /// the state it reached when found.
  private mutating func checkReplay(
    _ runner: CaseRunner, _ snapshot: Snapshot, of id: Int32, _ prefix: [FuzzAction]
  ) {
    result.replays += 1
    guard result.unsound == nil, !visited.isState(key(runner, snapshot), id) else { return }
    result.unsound =
      "replaying the path to a state reached another state: "
      + describe(prefix) + " (the player is not deterministic, or its snapshot leaves out state)"
  }

  /// Probes a concrete state merged into `state` (`runner` is there; it is
  /// used up) with the next letter in turn. Returns false when the probe
  /// broke a property (the search stops).
  private mutating func probe(_ runner: inout CaseRunner, at state: Int32) -> Bool {
    let context = context(runner)
    var index = Int(probeCursor[state] ?? 0) % alphabet.count
    // The letters that do not apply from the representative must not apply here either.
    var step: [FuzzAction]?
    for _ in 0..<alphabet.count {
      let actions = actions(of: alphabet[index], in: context)
      if (actions == nil) != (rows.target(state, index) == -1) {
        result.probes += 1
        disagree(
          state, runner.trace, letter: describe(alphabet[index], actions),
          detail: actions == nil
            ? "applies after the first path only" : "applies after the other path only")
        return true
      }
      index = (index + 1) % alphabet.count
      if actions != nil {
        step = actions
        break
      }
    }
    probeCursor[state] = Int32(index)
    guard let step else { return true }
    let probed = (index + alphabet.count - 1) % alphabet.count
    let arrival = runner.trace
    result.probes += 1
    runner.recordsCoverage = false
    let before = ExplorationRenaming(runner.model, threshold: configuration.previousThreshold)
    let logged = runner.log.count
    let life = runner.life
    if let violation = perform(step, on: &runner) {
      disagree(state, arrival, letter: describe(step), detail: "breaks a property")
      report(
        violation, trace: runner.trace, shortest: runner.trace,
        depth: Int(paths.depth(of: state)) + 1)
      return false
    }
    let after = snapshot(runner)
    if output(runner, after, after: logged, before, life: life) != rows.output(state, probed) {
      disagree(
        state, arrival, letter: describe(step),
        detail: "gives out other commands or another observation than from the first path")
    } else if visited[key(runner, after)] != rows.target(state, probed) {
      disagree(
        state, arrival, letter: describe(step),
        detail: "leads to another state than from the first path")
    }
    return true
  }

  private mutating func disagree(
    _ state: Int32, _ other: [FuzzAction], letter: String, detail: String
  ) {
    guard result.unsound == nil else { return }
    result.unsound =
      "two paths reach the same canonical state, \(describe(path(to: state))) and "
      + "\(describe(other)), yet \(letter) \(detail)"
  }

  private func describe(_ letter: Explorer.Letter, _ actions: [FuzzAction]?) -> String {
    guard let actions else { return "\(letter)" }
    return describe(actions)
  }

  private func describe(_ actions: [FuzzAction]) -> String {
    let lines = FuzzCase(actions, setup: configuration.setup).lines.filter {
      !$0.hasPrefix("engine ")
    }
    return lines.isEmpty ? "(the start)" : lines.joined(separator: ", ")
  }

  /// Records a counterexample: the shortest path that breaks a property when
  /// replayed from the start (`shortest`, else `trace`). When neither does,
  /// the player changed on letters it ignored (the runner was kept across
  /// them) in a way its snapshot does not show: the snapshot is not sound.
  private mutating func report(
    _ violation: FuzzViolation, trace: [FuzzAction], shortest: [FuzzAction], depth: Int
  ) {
    for actions in shortest == trace ? [trace] : [shortest, trace] {
      guard
        let found = CaseRunner.replay(subject, actions, setup: configuration.setup).violation,
        found.step <= actions.count
      else { continue }
      result.depth = depth
      result.counterexample = FuzzFailure(
        subject: subject, origin: .exhaustive(depth: depth), original: actions, actions: actions,
        violation: found, shrinkAttempts: 0,
        timeline: Fuzzer.timeline(subject, FuzzCase(actions, setup: configuration.setup)),
        setup: configuration.setup)
      return
    }
    if result.unsound == nil {
      result.unsound =
        "\(violation.property) broke after \(describe(trace)), yet that path replayed from the "
        + "start passes: letters the player ignored changed state its snapshot does not show "
        + "(or it is not deterministic)"
    }
  }

  // MARK: A part of the class

  /// Leaves state `id`, at the partition's depth, to the part that owns it:
  /// an empty row (no letter applies; never compared: ``check(_:_:at:from:step:)``
  /// skips it), and nothing waiting to be compared with it.
  private mutating func leaveToOthers(_ id: Int32) {
    rows.append(
      targets: Array(repeating: -1, count: alphabet.count),
      outputs: Array(repeating: 0, count: alphabet.count))
    expanded += 1
    leftToOthers.insert(id)
    transitionsFrom.append(PartStates.notExtended)
    pending.removeValue(forKey: id)
    selfLoops.removeValue(forKey: id)
  }

  /// The states this part found, and the transitions from those it extended.
  private func partStates() -> PartStates {
    var states = PartStates()
    states.high.reserveCapacity(visited.count)
    states.low.reserveCapacity(visited.count)
    states.transitions.reserveCapacity(visited.count)
    for id in 0..<Int32(visited.count) {
      let fingerprint = visited.fingerprint(of: id)
      states.high.append(fingerprint.high)
      states.low.append(fingerprint.low)
      states.transitions.append(
        Int(id) < transitionsFrom.count ? transitionsFrom[Int(id)] : PartStates.notExtended)
    }
    return states
  }

  // MARK: Without a snapshot

  /// Every sequence up to the depth, each replayed from the start: nothing
  /// can be merged without a snapshot.
  private mutating func searchUnmerged() {
    let maxDepth = scope.maxDepth ?? 3
    var frontier: [[FuzzAction]] = [[]]
    var nodes = 1
    var extended = 0
    level: for depth in 1...max(1, maxDepth) {
      var next: [[FuzzAction]] = []
      for prefix in frontier {
        if timeIsUp {
          result.interrupted = true
          break level
        }
        report(level: depth, states: nodes, expanded: extended)
        extended += 1
        let base = replay(prefix)
        var tried = Set<[FuzzAction]>()
        for letter in alphabet {
          guard let step = actions(of: letter, in: context(base)), tried.insert(step).inserted
          else { continue }
          let actions = prefix + step
          var runner = runner()
          swap(&coverage, &runner.coverage)
          var violation: FuzzViolation?
          for action in actions where violation == nil { violation = runner.perform(action) }
          swap(&coverage, &runner.coverage)
          result.sequences += 1
          unsaid |= runner.unsaid
          if let violation {
            report(violation, trace: actions, shortest: actions, depth: depth)
            break level
          }
          nodes += 1
          next.append(actions)
        }
      }
      result.depth = depth
      result.newAtLastLevel = next.count
      frontier = next
    }
    result.states = nodes
  }
}
