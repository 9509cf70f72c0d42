package import PlayerState

/// Shrinks a failing case on events, not bytes.
///
/// A candidate counts if it fails at all: it may break another property than
/// the original case did, when a shorter case exposes the same mistake
/// through another property (the report names the one it breaks).
///
/// In order, repeated until nothing changes: cut everything after the
/// failing step; drop actions that had no effect; delete chunks from the back,
/// halves first, then smaller (delta debugging); simplify each remaining
/// action (an earlier or never-issued token becomes the current load, media B
/// becomes A, a re-entrant or late report is sent directly, a seek id or
/// watchdog id becomes the newest, a time becomes 0, a reason `network`);
/// when all of these are stuck, the passes that try many candidates per
/// action, then one that replaces two or three adjacent actions by
/// one intent, then (issue 39) deleting two actions that are not adjacent and
/// swapping neighbours so that another can go (ShrinkReorder.swift); the start
/// state is simplified first each round and once more last.
package enum Shrinker {
  /// The result of shrinking.
  package struct Outcome: Sendable {
    /// An outcome.
    package init(
      actions: [FuzzAction], violation: FuzzViolation, attempts: Int, setup: FuzzSetup = FuzzSetup()
    ) {
      self.actions = actions
      self.violation = violation
      self.attempts = attempts
      self.setup = setup
    }

    /// What the smallest case runs with: the case's, its start state simplified
    /// (dropped, or its ids moved to their last) when it still fails.
    package var setup: FuzzSetup

    /// The smallest failing case found.
    package var actions: [FuzzAction]
    /// Its violation.
    package var violation: FuzzViolation
    /// How many candidate cases were replayed.
    package var attempts: Int
    /// Set when the shrunk case, read back from the text it is printed and saved as, did not
    /// break the same property, so the unshrunk case was kept: why, for the report.
    package var note: String?
  }

  /// Shrinks `actions`, which fail on `subject` with `violation`.
  /// - Parameters:
  ///   - subject: the player under test.
  ///   - actions: a failing case.
  ///   - violation: its violation.
  ///   - limit: the most candidates to replay.
  ///   - seconds: the most time to spend; the passes that try many
  ///     candidates per action (delete-and-repair, replacing an intent) run at
  ///     any length until then.
  ///   - canPreload: whether the engine declares `.preload`.
  ///   - retry: the player's retry policy.
  /// - Returns: the smallest failing case found, with the events the end of
  ///   the case adds made explicit.
  package static func shrink(
    _ subject: FuzzSubject, _ actions: [FuzzAction], violation: FuzzViolation, limit: Int = 20_000,
    seconds: Double = 10, canPreload: Bool = false, retry: RetryPolicy = .standard
  ) -> Outcome {
    shrink(
      subject, actions, violation: violation, limit: limit, seconds: seconds,
      setup: FuzzSetup(canPreload: canPreload, retry: retry))
  }

  /// Shrinks `actions`, which fail on `subject` set up as `setup` says, with
  /// `violation` (see ``shrink(_:_:violation:limit:seconds:canPreload:retry:)``).
  package static func shrink(
    _ subject: FuzzSubject, _ actions: [FuzzAction], violation: FuzzViolation, limit: Int = 20_000,
    seconds: Double = 10, setup: FuzzSetup
  ) -> Outcome {
    let clock = ContinuousClock()
    var search = Search(
      subject: subject, setup: setup, limit: limit,
      deadline: clock.now.advanced(by: .nanoseconds(Int64(max(0, min(seconds, 1e6)) * 1e9))),
      best: Outcome(actions: actions, violation: violation, attempts: 0, setup: setup),
      tried: [actions])
    var changed = true
    while changed, !search.exhausted {
      changed = false
      // A start state closer to a new player, or to its ids' ends.
      changed = search.simplifyStart() || changed
      changed = search.foldFirstIntent() || changed
      // Everything after the failing step is irrelevant.
      if search.best.violation.step < search.best.actions.count {
        changed =
          search.attempt(Array(search.best.actions.prefix(search.best.violation.step))) || changed
      }
      changed = search.dropNoEffect() || changed
      changed = search.deleteChunks() || changed
      changed = search.moveReports() || changed
      changed = search.simplify() || changed
      changed = search.merge() || changed
      changed = search.collapse() || changed
      if !changed { changed = search.deleteAndRepair() }
      if !changed { changed = search.replaceIntents() }
      if !changed { changed = search.replaceWindows() }
      if !changed { changed = search.deletePairs() }
      if !changed { changed = search.swapNeighbours() }
    }
    // A last polish with a fresh memory: a simplification refused earlier
    // (same text, other identities) may hold for the final case.
    search.tried = [search.best.actions]
    while !search.exhausted, search.simplify() {}
    // The start state last, too: once the actions are as short as they go, a simpler state
    // (none, or ids at their last) may hold at the same length.
    while !search.exhausted, search.simplifyStart() {}
    // The case is printed, saved and pasted as text: read back, it must break the same
    // property, or the reproduction is another case (issue 39: three of five seeds printed a
    // shrunk case that passed). Otherwise the unshrunk case is kept, and the report says so.
    var best = search.best
    if !replaysAsPrinted(subject, best) {
      let shrunk = best.actions.count
      best = Outcome(actions: actions, violation: violation, attempts: best.attempts, setup: setup)
      best.note =
        "the shrunk case (\(shrunk) action\(shrunk == 1 ? "" : "s")) does not break "
        + "\(violation.property) when read back from its saved form; the unshrunk case is kept"
      if !replaysAsPrinted(subject, best) {
        best.note? += " (it, too, does not replay from its saved form)"
      }
    }
    return best
  }

  /// Whether `outcome`'s case, spelled as a saved failure and read back
  /// (``FailureFile/parseCase(_:file:)``, as `fuzz --replay` and the printed test read it),
  /// breaks the same property on `subject`.
  package static func replaysAsPrinted(_ subject: FuzzSubject, _ outcome: Outcome) -> Bool {
    let printed = FuzzCase(outcome.actions, setup: outcome.setup)
    guard let read = try? FailureFile.parseCase(printed.text) else { return false }
    var setup = read.setup
    setup.features = outcome.setup.features
    let (_, found) = CaseRunner.replay(subject, read.actions, setup: setup)
    return found?.property == outcome.violation.property
  }

  /// A search in progress: the best failing case so far, every case tried, and
  /// the budget left. Its passes are in ShrinkPasses.swift.
  struct Search {
    let subject: FuzzSubject
    /// What the cases run with (``simplifyStart()`` may change its start state).
    var setup: FuzzSetup
    /// A time past the case's `previous` threshold (5 s at 3 s), for the
    /// candidates that start or report past it.
    var past: MediaTime { .milliseconds(setup.previousThreshold.milliseconds &+ 2000) }
    let limit: Int
    let deadline: ContinuousClock.Instant
    let clock = ContinuousClock()
    var best: Outcome
    /// Every case tried: a simplification never returns to an earlier case,
    /// so same-length rewrites cannot cycle.
    var tried: Set<[FuzzAction]> = []

    /// Whether the attempts or the time are spent.
    var exhausted: Bool {
      best.attempts >= limit || clock.now >= deadline
    }

    /// Tries the best case from simpler start states: none (a new player),
    /// then with each kind of id near its last (tokens, items, seeks,
    /// watchdogs) at its last, so that the actions that only used ids up go.
    /// Keeps the first under which the case still fails, no longer.
    mutating func simplifyStart() -> Bool {
      guard let start = setup.start else { return false }
      var candidates: [PlaybackState?] = [nil]
      let last = UInt32.max
      func near(_ id: UInt32) -> Bool { id != last && id > last - 4 }
      if near(start.issuedLoads) {
        candidates.append(
          try? PlaybackState(
            checking: start.queue, session: start.session, preload: start.preload,
            playWhenReady: start.playWhenReady, rate: start.rate, interrupted: start.interrupted,
            issuedLoads: last, issuedItems: start.issuedItems, failure: start.failure))
      }
      if near(start.issuedItems) {
        candidates.append(
          try? PlaybackState(
            checking: start.queue, session: start.session, preload: start.preload,
            playWhenReady: start.playWhenReady, rate: start.rate, interrupted: start.interrupted,
            issuedLoads: start.issuedLoads, issuedItems: last, failure: start.failure))
      }
      if var session = start.session,
        near(session.lastSeek.rawValue) || near(session.lastWatchdog.rawValue)
      {
        if near(session.lastSeek.rawValue) { session.lastSeek = SeekID(last) }
        if near(session.lastWatchdog.rawValue) { session.lastWatchdog = WatchdogID(last) }
        candidates.append(
          try? PlaybackState(
            checking: start.queue, session: session, preload: start.preload,
            playWhenReady: start.playWhenReady, rate: start.rate, interrupted: start.interrupted,
            issuedLoads: start.issuedLoads, issuedItems: start.issuedItems, failure: start.failure))
      }
      for (index, candidate) in candidates.enumerated() where index == 0 || candidate != nil {
        guard !exhausted else { return false }
        var simpler = setup
        simpler.start = candidate.map { state in
          var state = state
          state.configuration = start.configuration
          return state
        }
        if adopt(simpler, best.actions, atMost: best.actions.count) { return true }
      }
      return false
    }

    /// Replays `actions` set up as `candidate`; when it still fails within
    /// `longest` actions, makes it the best case and returns true.
    private mutating func adopt(
      _ candidate: FuzzSetup, _ actions: [FuzzAction], atMost longest: Int
    ) -> Bool {
      // A start state the failure file cannot write down exactly would be printed, saved
      // and pasted as another state, whose case may pass (issue 39): not adopted.
      if let start = candidate.start, !FuzzStart.roundTrips(start) { return false }
      best.attempts += 1
      let (runner, violation) = CaseRunner.replay(subject, actions, setup: candidate)
      guard let violation else { return false }
      let explicit = Array(runner.trace.prefix(max(violation.step, actions.count)))
      guard explicit.count <= longest else { return false }
      setup = candidate
      best.setup = candidate
      best.actions = explicit
      best.violation = violation
      // Cases tried under the old start may fail under this one.
      tried = [explicit]
      return true
    }

    /// For a case that starts from a state: the state after its first action,
    /// when that is an accepted intent, as the start, and one action fewer (a
    /// start state stands for any prefix). Kept when the case still fails.
    mutating func foldFirstIntent() -> Bool {
      guard let start = setup.start, let first = best.actions.first,
        case .send(let event) = first, event.intent != nil, !exhausted
      else { return false }
      let transition = start.transition(on: event)
      guard transition.ignored == nil else { return false }
      var folded = setup
      folded.start = transition.next
      return adopt(folded, Array(best.actions.dropFirst()), atMost: best.actions.count - 1)
    }

    /// Replays `candidate`; keeps it if it fails and is new and no longer
    /// (shorter, when `shorter`).
    mutating func attempt(_ candidate: [FuzzAction], shorter: Bool = false) -> Bool {
      guard !shorter || candidate.count < best.actions.count else { return false }
      guard !exhausted, tried.insert(candidate).inserted else { return false }
      // A candidate outside the features the case was generated within (a
      // queue for a single-item player) would fail for a reason the player disowns.
      guard setup.features.admits(candidate, setup: setup) else { return false }
      best.attempts += 1
      let (runner, violation) = CaseRunner.replay(
        subject, candidate, setup: setup)
      guard let found = violation else { return false }
      // Keep the events the end of the case added, so the case stays explicit.
      let explicit = Array(runner.trace.prefix(max(found.step, candidate.count)))
      guard explicit.count <= best.actions.count,
        explicit == candidate || setup.features.admits(explicit, setup: setup),
        !shorter || explicit.count < best.actions.count,
        explicit == candidate || tried.insert(explicit).inserted
      else { return false }
      best.actions = explicit
      best.violation = found
      return true
    }
  }
}
