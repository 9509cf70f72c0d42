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
/// action, last of them one that replaces two or three adjacent actions by
/// one intent.
package enum Shrinker {
  /// The result of shrinking.
  package struct Outcome: Sendable {
    /// An outcome.
    package init(actions: [FuzzAction], violation: FuzzViolation, attempts: Int) {
      self.actions = actions
      self.violation = violation
      self.attempts = attempts
    }

    /// The smallest failing case found.
    package var actions: [FuzzAction]
    /// Its violation.
    package var violation: FuzzViolation
    /// How many candidate cases were replayed.
    package var attempts: Int
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
    let clock = ContinuousClock()
    var search = Search(
      subject: subject, canPreload: canPreload, retry: retry, limit: limit,
      deadline: clock.now.advanced(by: .nanoseconds(Int64(max(0, min(seconds, 1e6)) * 1e9))),
      best: Outcome(actions: actions, violation: violation, attempts: 0),
      tried: [actions])
    var changed = true
    while changed, !search.exhausted {
      changed = false
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
    }
    // A last polish with a fresh memory: a simplification refused earlier
    // (same text, other identities) may hold for the final case.
    search.tried = [search.best.actions]
    while !search.exhausted, search.simplify() {}
    return search.best
  }

  private struct Search {
    let subject: FuzzSubject
    let canPreload: Bool
    let retry: RetryPolicy
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

    /// Replays `candidate`; keeps it if it fails and is new and no longer
    /// (shorter, when `shorter`).
    mutating func attempt(_ candidate: [FuzzAction], shorter: Bool = false) -> Bool {
      guard !shorter || candidate.count < best.actions.count else { return false }
      guard !exhausted, tried.insert(candidate).inserted else { return false }
      best.attempts += 1
      let (runner, violation) = CaseRunner.replay(
        subject, candidate, canPreload: canPreload, retry: retry)
      guard let found = violation else { return false }
      // Keep the events the end of the case added, so the case stays explicit.
      let explicit = Array(runner.trace.prefix(max(found.step, candidate.count)))
      guard explicit.count <= best.actions.count,
        !shorter || explicit.count < best.actions.count,
        explicit == candidate || tried.insert(explicit).inserted
      else { return false }
      best.actions = explicit
      best.violation = found
      return true
    }

    /// Sends a re-entrant or held-back report directly instead: right after
    /// the action that fires it (the next one that sends the engine a
    /// command, or the `deliver`), then at every later step, then (for a
    /// held-back one) in place of a `deliver` that sends it alone.
    mutating func moveReports() -> Bool {
      guard
        best.actions.contains(where: {
          switch $0 {
          case .reentrant, .later: true
          default: false
          }
        })
      else { return false }
      // Which steps sent the engine a command: an armed report fires in the first.
      var runner = CaseRunner(subject, canPreload: canPreload, retry: retry)
      runner.recordsCoverage = false
      var commanded: [Bool] = []
      for action in best.actions {
        let before = runner.log.count
        let failed = runner.perform(action) != nil
        commanded.append(runner.log.count > before)
        if failed { break }
      }
      for (index, action) in best.actions.enumerated() {
        let report: EngineReport
        var firing: Int?
        switch action {
        case .reentrant(let armed):
          report = armed
          firing = commanded.indices.dropFirst(index + 1).first { commanded[$0] }
        case .later(let held):
          report = held
          firing = best.actions[(index + 1)...].firstIndex(of: .deliver)
        default: continue
        }
        var base = best.actions
        base.remove(at: index)
        // In `base`, the action at `firing` sits at `firing - 1`: insert after it.
        var places = firing.map { [$0] } ?? []
        places += Array(index...base.count).filter { $0 != firing }
        for place in places {
          var candidate = base
          candidate.insert(.send(.engine(report)), at: place)
          if attempt(candidate) { return true }
        }
        // A re-entrant report armed earlier fires inside an earlier command,
        // which can make the actions after that command unnecessary.
        if case .reentrant = action {
          for place in 0..<index {
            var candidate = base
            candidate.insert(action, at: place)
            if attempt(candidate) { return true }
          }
        }
        // A `deliver` that sends only this report goes with it.
        if case .later = action, let deliver = firing {
          let held = best.actions[..<deliver].lastIndex(of: .deliver).map { $0 + 1 } ?? 0
          let others = best.actions[held..<deliver].filter {
            if case .later = $0 { return true }
            return false
          }
          if others.count == 1 {
            var candidate = base
            candidate[deliver - 1] = .send(.engine(report))
            if attempt(candidate) { return true }
          }
        }
      }
      return false
    }

    /// Replaces one intent by another of a small alphabet (or by a report
    /// about the current load), with and without deleting one other action
    /// and re-aiming the reports after it by role; kept only when the case
    /// gets shorter. Bounded by the search's time, at any length.
    mutating func replaceIntents() -> Bool {
      for index in best.actions.indices {
        guard case .send(.user(let intent)) = best.actions[index] else { continue }
        let roles = Shrinker.roles(best.actions, canPreload: canPreload, retry: retry)
        let seeks = Shrinker.seekRoles(best.actions, canPreload: canPreload, retry: retry)
        for other in Shrinker.alphabet where other != intent {
          var changed = best.actions
          changed[index] = .send(.user(other))
          for deleted in changed.indices where deleted != index {
            var candidate = changed
            candidate.remove(at: deleted)
            if attempt(candidate, shorter: true) { return true }
            var kept = roles
            kept[index] = nil
            kept.remove(at: deleted)
            var keptSeeks = seeks
            keptSeeks.remove(at: deleted)
            if attempt(
              Shrinker.aim(
                candidate, roles: kept, seeks: keptSeeks, canPreload: canPreload, retry: retry),
              shorter: true)
            {
              return true
            }
          }
        }
        if exhausted { return false }
      }
      // A report replaced by an edit next to the current entry (which drops
      // a preload and preloads another, as a failure and an end did), with
      // one action or two adjacent ones deleted.
      for index in best.actions.indices where best.actions[index].load != nil {
        let roles = Shrinker.roles(best.actions, canPreload: canPreload, retry: retry)
        let seeks = Shrinker.seekRoles(best.actions, canPreload: canPreload, retry: retry)
        for edit: UserIntent in [.insert(["A"], at: 1), .remove(at: 1)] {
          var changed = best.actions
          changed[index] = .send(.user(edit))
          var kept = roles
          kept[index] = nil
          for width in 1...2 {
            for start in changed.indices where start != index && start + width <= changed.count {
              guard !(start...(start + width - 1)).contains(index) else { continue }
              var candidate = changed
              candidate.removeSubrange(start..<(start + width))
              var keptRoles = kept
              keptRoles.removeSubrange(start..<(start + width))
              var keptSeeks = seeks
              keptSeeks.removeSubrange(start..<(start + width))
              if attempt(candidate, shorter: true) { return true }
              if attempt(
                Shrinker.aim(
                  candidate, roles: keptRoles, seeks: keptSeeks, canPreload: canPreload,
                  retry: retry),
                shorter: true)
              {
                return true
              }
            }
          }
        }
        if exhausted { return false }
      }
      return false
    }

    /// Replaces two or three adjacent actions of any kind (a report and a
    /// system event, two intents…) by one intent of ``Shrinker/windowIntents(_:)``,
    /// as written and with the reports after it re-aimed by role; kept only
    /// when the case gets shorter. Tried last, when every other pass is
    /// stuck; at most 2 × (windows) × (intents) candidates per round, bounded
    /// by the search's attempts and time.
    mutating func replaceWindows() -> Bool {
      let intents = Shrinker.windowIntents(best.actions)
      let roles = Shrinker.roles(best.actions, canPreload: canPreload, retry: retry)
      let seeks = Shrinker.seekRoles(best.actions, canPreload: canPreload, retry: retry)
      for width in 2...3 {
        for start in best.actions.indices where start + width <= best.actions.count {
          let window = start..<(start + width)
          var keptRoles = roles
          keptRoles.replaceSubrange(window, with: [nil])
          var keptSeeks = seeks
          keptSeeks.replaceSubrange(window, with: [nil])
          for intent in intents {
            var candidate = best.actions
            candidate.replaceSubrange(window, with: [.send(.user(intent))])
            if attempt(candidate, shorter: true) { return true }
            let aimed = Shrinker.aim(
              candidate, roles: keptRoles, seeks: keptSeeks, canPreload: canPreload, retry: retry)
            if aimed != candidate, attempt(aimed, shorter: true) { return true }
          }
          if exhausted { return false }
        }
      }
      return false
    }

    /// Deletes one action and repairs the identity of a later report, for
    /// cases where deleting a load shifts the tokens that follow it.
    mutating func deleteAndRepair() -> Bool {
      // A held-back report sent directly where it was delivered.
      for (index, action) in best.actions.enumerated() {
        guard case .later(let report) = action,
          let deliver = best.actions[(index + 1)...].firstIndex(of: .deliver)
        else { continue }
        var candidate = best.actions
        candidate[deliver] = .send(.engine(report))
        candidate.remove(at: index)
        if attempt(candidate) { return true }
      }
      // One media throughout.
      let renamed = best.actions.map { $0.renamingMedia("B", to: "A") }
      if attempt(renamed) { return true }
      for index in best.actions.indices {
        var base = best.actions
        base.remove(at: index)
        if attempt(base) { return true }
        if attempt(repaired(base, deleted: index..<(index + 1))) { return true }
        // Rename one load everywhere after the deletion, then one report alone.
        let loads = Set(base[index...].compactMap { $0.event?.load })
        let known = knownLoads(before: base[...])
        for old in loads {
          for new in known where new != old {
            if attempt(base.prefix(index) + base[index...].map { $0.renaming(old, to: new) }) {
              return true
            }
          }
        }
        for later in index..<base.count {
          for variant in Shrinker.identities(of: base[later], knownLoads(before: base[..<later]))
            + Shrinker.kinds(of: base[later])
          {
            var candidate = base
            candidate[later] = variant
            if attempt(candidate) { return true }
          }
        }
      }
      // Another way to say an intent, or a report of another kind about the
      // same load, can make other actions unnecessary (kept only if shorter).
      for index in best.actions.indices {
        var variants = Shrinker.kinds(of: best.actions[index])
        if case .send(.user(let intent)) = best.actions[index] {
          variants += Shrinker.variants(of: intent).map { .send(.user($0)) }
        } else if best.actions[index].load != nil {
          // A seek issues a seek id as a repeat-one end or a replay does.
          variants.append(.send(.seek(to: .zero)))
        }
        for variant in variants {
          var changed = best.actions
          changed[index] = variant
          for deleted in changed.indices where deleted != index {
            var candidate = changed
            candidate.remove(at: deleted)
            if attempt(candidate) { return true }
            var roles = Shrinker.roles(best.actions, canPreload: canPreload, retry: retry)
            roles[index] = nil
            roles.remove(at: deleted)
            if attempt(Shrinker.aim(candidate, roles: roles, canPreload: canPreload, retry: retry))
            {
              return true
            }
            // The armed reports sent directly instead.
            let direct = candidate.map { action -> FuzzAction in
              if case .reentrant(let report) = action { return .send(.engine(report)) }
              return action
            }
            if direct != candidate, attempt(direct) { return true }
          }
        }
      }
      // Arming a re-entrant report earlier can make an action unnecessary.
      for index in best.actions.indices.dropLast() {
        var swapped = best.actions
        swapped.swapAt(index, index + 1)
        for deleted in swapped.indices {
          var candidate = swapped
          candidate.remove(at: deleted)
          if attempt(candidate) { return true }
          for variant in Shrinker.kinds(of: candidate[min(index, candidate.count - 1)]) {
            var changed = candidate
            changed[min(index, candidate.count - 1)] = variant
            if attempt(changed) { return true }
          }
        }
      }
      return false
    }

    /// Replaces a prefix that leaves the player freshly buffering one entry
    /// of a plain queue (repeat off, normal rate, no preload, no seek
    /// pending) by the one `queue` intent that leaves it so; a shuffled queue
    /// becomes its play order, unshuffled.
    mutating func collapse() -> Bool {
      guard best.actions.count > 2 else { return false }
      var model = ContractModel(canPreload: canPreload, retry: retry)
      var scratch: [EngineCommand] = []
      var fresh: [(Int, UserIntent)] = []
      for (index, action) in best.actions.enumerated() {
        guard case .send(let event) = action else { break }
        model.apply(event, commands: &scratch)
        guard index >= 1, let current = model.current, current.stage == .buffering,
          !current.seekPending, model.preload == nil, model.repeatMode == .off,
          model.rate == .normal, let at = model.position
        else { continue }
        fresh.append(
          (
            index,
            .replaceQueue(
              model.entries.map(\.media), start: at, from: .milliseconds(current.position),
              playWhenReady: model.playWhenReady)
          ))
      }
      let roles = Shrinker.roles(best.actions, canPreload: canPreload, retry: retry)
      for (end, intent) in fresh.reversed() {
        let candidate = [FuzzAction.send(.user(intent))] + best.actions[(end + 1)...]
        let kept = [nil] + Array(roles[(end + 1)...])
        if attempt(Shrinker.aim(candidate, roles: kept, canPreload: canPreload, retry: retry)) {
          return true
        }
      }
      return false
    }

    /// Merges two intents into one that does the same, such as `queue(A B)`
    /// then `pause` into `queue(A B, paused)`, renumbering later tokens when
    /// the merge issues fewer loads.
    mutating func merge() -> Bool {
      var index = 0
      while index + 1 < best.actions.count {
        // Across one report: the merged intent, then the report.
        if case .send(.user(let first)) = best.actions[index], index + 2 < best.actions.count,
          best.actions[index + 1].load != nil,
          case .send(.user(let third)) = best.actions[index + 2]
        {
          let roles = Shrinker.roles(best.actions, canPreload: canPreload, retry: retry)
          for merged in Shrinker.merged(first, third) {
            let report = best.actions[index + 1]
            // The report after the merged intent, or armed before it.
            for pair in [
              [FuzzAction.send(.user(merged)), report], [report, .send(.user(merged))],
            ] {
              var candidate = best.actions
              candidate.replaceSubrange(index...(index + 2), with: pair)
              if attempt(candidate) { return true }
              var kept = roles
              kept.replaceSubrange(
                index...(index + 2),
                with: pair[0] == report ? [roles[index + 1], nil] : [nil, roles[index + 1]])
              if attempt(Shrinker.aim(candidate, roles: kept, canPreload: canPreload, retry: retry))
              {
                return true
              }
            }
          }
        }
        guard case .send(.user(let first)) = best.actions[index],
          case .send(.user(let second)) = best.actions[index + 1]
        else {
          index += 1
          continue
        }
        for merged in Shrinker.merged(first, second) {
          var candidate = best.actions
          candidate.replaceSubrange(index...(index + 1), with: [.send(.user(merged))])
          if attempt(candidate) { return true }
          if attempt(renumbered(candidate, pairAt: index)) { return true }
          let roles = Shrinker.roles(best.actions, canPreload: canPreload, retry: retry)
          let origin = [index] + Array(best.actions.indices.dropFirst(index + 2))
          let kept = Array(roles[..<index]) + origin.map { $0 == index ? nil : roles[$0] }
          if attempt(Shrinker.aim(candidate, roles: kept, canPreload: canPreload, retry: retry)) {
            return true
          }
        }
        index += 1
      }
      return false
    }

    /// `candidate` (``best`` without the actions in `deleted`) with each
    /// later report re-aimed at the load that plays the same role it played
    /// in ``best`` (the current load, the preload, the one left, a token not
    /// issued yet…), so that deleting a load does not leave reports naming
    /// the wrong ones.
    func repaired(_ candidate: [FuzzAction], deleted: Range<Int>) -> [FuzzAction] {
      let roles = Shrinker.roles(best.actions, canPreload: canPreload, retry: retry)
      let seeks = Shrinker.seekRoles(best.actions, canPreload: canPreload, retry: retry)
      var origin = Array(best.actions.indices)
      origin.removeSubrange(deleted)
      guard origin.count == candidate.count else { return candidate }
      return Shrinker.aim(
        candidate, roles: origin.map { roles[$0] }, seeks: origin.map { seeks[$0] },
        canPreload: canPreload, retry: retry)
    }

    /// `candidate` with the tokens after `index` lowered by how many fewer
    /// loads the merged intent issued than the pair it replaced.
    func renumbered(_ candidate: [FuzzAction], pairAt index: Int) -> [FuzzAction] {
      func issued(_ actions: ArraySlice<FuzzAction>) -> UInt32 {
        var model = ContractModel(canPreload: canPreload, retry: retry)
        var scratch: [EngineCommand] = []
        for action in actions {
          if let event = action.event { model.apply(event, commands: &scratch) }
        }
        return model.issued
      }
      let before = issued(best.actions[..<index])
      let delta = issued(best.actions[...(index + 1)]) &- issued(candidate[...index])
      guard delta > 0, delta < 1000 else { return candidate }
      var out = Array(candidate[...index])
      for action in candidate[(index + 1)...] {
        guard let load = action.load, load.token.rawValue > before, load.token.rawValue > delta
        else {
          out.append(action)
          continue
        }
        out.append(
          action.renaming(
            load, to: Load(item: load.item, token: LoadToken(load.token.rawValue - delta))))
      }
      return out
    }

    /// The loads the model knows after `prefix`: current, preload, earlier,
    /// dropped, removed, left, and the next two never issued, with tokens 0…2.
    func knownLoads(before prefix: ArraySlice<FuzzAction>) -> [Load] {
      var model = ContractModel(canPreload: canPreload, retry: retry)
      var scratch: [EngineCommand] = []
      for action in prefix {
        if let event = action.event { model.apply(event, commands: &scratch) }
      }
      var out: [Load] = []
      for load in [
        model.current?.load, model.preload?.load, model.newest, model.previous, model.dropped,
        model.removed, model.left,
      ] {
        if let load, !out.contains(load) { out.append(load) }
      }
      let items = Set(model.entries.map(\.item) + out.map(\.item)).sorted()
      for item in items.prefix(4) {
        for token in [model.issued &+ 1, 0, 1, 2] {
          let load = Load(item: item, token: LoadToken(token))
          if !out.contains(load) { out.append(load) }
        }
      }
      return out
    }

    mutating func dropNoEffect() -> Bool {
      var runner = CaseRunner(subject, canPreload: canPreload, retry: retry)
      runner.recordsCoverage = false
      for action in best.actions { _ = runner.perform(action) }
      let effects = runner.effects
      guard effects.contains(false) else { return false }
      let kept = zip(best.actions, effects).filter { $0.1 }.map(\.0)
      if attempt(kept) { return true }
      var changed = false
      for index in effects.indices.reversed() where !effects[index] && index < best.actions.count {
        var candidate = best.actions
        candidate.remove(at: index)
        changed = attempt(candidate) || changed
      }
      return changed
    }

    mutating func deleteChunks() -> Bool {
      var changed = false
      // Short cases try every chunk size (two cancelling edits go together);
      // long ones halve.
      var chunk = best.actions.count <= 16 ? best.actions.count - 1 : best.actions.count / 2
      chunk = max(1, chunk)
      while chunk >= 1 {
        var end = best.actions.count
        while end - chunk >= 0, !best.actions.isEmpty {
          let start = end - chunk
          var candidate = best.actions
          candidate.removeSubrange(start..<end)
          if !candidate.isEmpty,
            attempt(candidate) || attempt(repaired(candidate, deleted: start..<end))
          {
            changed = true
            end = min(start, best.actions.count)
          } else {
            end -= chunk
          }
        }
        if chunk == 1 { break }
        chunk = best.actions.count <= 16 ? min(chunk - 1, best.actions.count - 1) : chunk / 2
        chunk = max(1, chunk)
      }
      return changed
    }

    mutating func simplify() -> Bool {
      var changed = false
      var index = 0
      // The model before each action, advanced one action at a time (a
      // success rewrites only the action at `index`), with held-back reports
      // applied when delivered: an identity simplifies toward the load that
      // is current when the report arrives.
      var model = ContractModel(canPreload: canPreload, retry: retry)
      var held: [EngineReport] = []
      var scratch: [EngineCommand] = []
      while index < best.actions.count {
        for candidate in Shrinker.simpler(best.actions[index], model) {
          var actions = best.actions
          actions[index] = candidate
          if attempt(actions) {
            changed = true
            break
          }
        }
        guard index < best.actions.count else { break }
        Shrinker.perform(best.actions[index], &model, &held, &scratch)
        index += 1
      }
      return changed
    }
  }

  /// The action about each of `known` instead of its own, then with each
  /// seek or watchdog id 0…3 instead of its own.
  static func identities(of action: FuzzAction, _ known: [Load]) -> [FuzzAction] {
    guard let old = action.load else { return [] }
    var out = known.filter { $0 != old }.map { action.renaming(old, to: $0) }
    for id: UInt32 in 0...3 {
      switch action {
      case .send(.watchdogExpired(let load, let watchdog)) where watchdog.rawValue != id:
        out.append(.send(.watchdogExpired(load, WatchdogID(id))))
      case .send(.engine(.seekCompleted(let load, let seek))) where seek.rawValue != id:
        out.append(.send(.seekCompleted(load, SeekID(id))))
      case .reentrant(.seekCompleted(let load, let seek)) where seek.rawValue != id:
        out.append(.reentrant(.seekCompleted(load, SeekID(id))))
      case .later(.seekCompleted(let load, let seek)) where seek.rawValue != id:
        out.append(.later(.seekCompleted(load, SeekID(id))))
      default: break
      }
    }
    return out
  }

  /// The same report (same delivery, same load) of the other common kinds.
  static func kinds(of action: FuzzAction) -> [FuzzAction] {
    guard let load = action.load, case .engine = action.event else { return [] }
    let reports: [EngineReport] = [
      .ready(load), .stalled(load), .reachedEnd(load), .position(load, .seconds(5)),
    ]
    return reports.map { action.with($0) }.filter { $0 != action }
  }

  /// The intents ``Search/replaceIntents()`` tries in place of another:
  /// one of each kind, with the smallest arguments.
  static let alphabet: [UserIntent] = [
    .play("A"), .replaceQueue(["A", "B"]), .replaceQueue(["A", "B", "C"]),
    .replaceQueue(["A", "B"], playWhenReady: false),
    .replaceQueue(["A"], playWhenReady: false), .append(["A"]), .insert(["A"], at: 0),
    .insert(["A"], at: 1), .remove(at: 0), .remove(at: 1), .move(from: 0, to: 1), .jump(to: 0),
    .jump(to: 1), .next, .previous, .setRepeat(.one), .setRepeat(.all), .setRepeat(.off),
    .setShuffle(seed: 1), .setShuffle(seed: nil), .clear, .pause, .resume, .stop,
    .seek(to: .zero), .retry,
  ]

  /// The intents ``Search/replaceWindows()`` tries in place of a window of
  /// adjacent actions: `play` of each media the case's intents name (A
  /// first, at most four) and of one they do not name (a new item, as a
  /// skip or a reload of another entry gives), then the skips and transport
  /// intents.
  static func windowIntents(_ actions: [FuzzAction]) -> [UserIntent] {
    var media: [MediaID] = ["A"]
    for action in actions {
      guard case .send(.user(let intent)) = action else { continue }
      let named: [MediaID]
      switch intent {
      case .play(let one, _): named = [one]
      case .replaceQueue(let list, _, _, _), .append(let list), .insert(let list, _): named = list
      default: named = []
      }
      for one in named where !media.contains(one) && media.count < 4 { media.append(one) }
    }
    if let new = (["B", "C", "D", "E"] as [MediaID]).first(where: { !media.contains($0) }) {
      media.append(new)
    }
    return media.map { UserIntent.play($0) } + [.next, .previous, .stop, .retry, .resume, .pause]
  }

  /// Other ways to say an intent, no longer: `play(A)` as a paused queue,
  /// a queue or jump from past the `previous` threshold, a queue paused.
  static func variants(of intent: UserIntent) -> [UserIntent] {
    // An edit right after the first entry: it drops that entry's preload
    // and (insert) preloads another, which a skip or a new queue did in two
    // steps; or the simplest load of all, `play(A)`.
    let edits: [UserIntent] = [.insert(["A"], at: 1), .remove(at: 1), .play("A")].filter {
      $0 != intent
    }
    return edits + sameKind(intent)
  }

  private static func sameKind(_ intent: UserIntent) -> [UserIntent] {
    switch intent {
    case .play(let media, let time):
      return [
        .replaceQueue([media], start: 0, from: time, playWhenReady: false),
        .play(media, from: .seconds(5)),
      ]
    case .replaceQueue(let list, let start, let time, let play):
      return [
        .replaceQueue(list, start: start, from: time, playWhenReady: !play),
        .replaceQueue(list, start: start, from: .seconds(5), playWhenReady: play),
      ]
    case .jump(let to, _):
      return [.jump(to: to, from: .seconds(5))]
    default:
      return []
    }
  }

  /// One intent that does what `first` then `second` do, when there is one.
  static func merged(_ first: UserIntent, _ second: UserIntent) -> [UserIntent] {
    switch (first, second) {
    case (.replaceQueue(let list, let start, let time, _), .pause):
      return [.replaceQueue(list, start: start, from: time, playWhenReady: false)]
    case (.play(let media, let time), .pause):
      return [.replaceQueue([media], start: 0, from: time, playWhenReady: false)]
    case (.replaceQueue(let list, _, _, let play), .jump(let to, let time))
    where list.indices.contains(to):
      return [.replaceQueue(list, start: to, from: time, playWhenReady: play)]
    case (.replaceQueue(let list, let start, .zero, let play), .seek(let time)):
      return [.replaceQueue(list, start: start, from: time, playWhenReady: play)]
    case (.play(let media, .zero), .seek(let time)):
      return [.play(media, from: time)]
    case (.replaceQueue(let list, let start, _, let play), .next) where start + 1 < list.count:
      return [.replaceQueue(list, start: start + 1, playWhenReady: play)]
    case (.replaceQueue(let list, let start, let time, let play), .append(let more)):
      return [.replaceQueue(list + more, start: start, from: time, playWhenReady: play)]
    case (.play(let media, let time), .append(let more)),
      (.play(let media, let time), .insert(let more, 1)):
      return [.replaceQueue([media] + more, start: 0, from: time)]
    case (.replaceQueue(let list, let start, let time, let play), .insert(let more, let at))
    where at == list.count:
      return [.replaceQueue(list + more, start: start, from: time, playWhenReady: play)]
    case (.append(let list), .append(let more)), (.insert(let list, 0), .append(let more)):
      // Right on an empty queue only; elsewhere the candidate simply fails.
      return [.append(list + more)]
    case (.append(let list), .insert(let more, let at)),
      (.insert(let list, 0), .insert(let more, let at)):
      // Two edits of an empty queue: one append of the entries they leave.
      guard at >= 0, at <= list.count else { return [] }
      var entries = list
      entries.insert(contentsOf: more, at: at)
      return [.append(entries)]
    case (.replaceQueue(let list, let start, let time, let play), .move(let from, let to))
    where from == start && list.indices.contains(to):
      var moved = list
      moved.insert(moved.remove(at: from), at: to)
      return [.replaceQueue(moved, start: to, from: time, playWhenReady: play)]
    case (.append(let list), .resume), (.insert(let list, _), .resume):
      return list.isEmpty ? [] : [.replaceQueue(list)]
    default:
      return []
    }
  }

  /// Simpler versions of one action, most preferred first.
  static func simpler(_ action: FuzzAction, _ model: ContractModel) -> [FuzzAction] {
    var out: [FuzzAction] = []
    switch action {
    case .deliver:
      return []
    case .reentrant(let report), .later(let report):
      out.append(.send(.engine(report)))
      out += simpler(report, model).map { action.with($0) }
    case .send(.engine(let report)):
      out += simpler(report, model).map { .send(.engine($0)) }
    case .send(.user(.play(let media, let time))):
      if time != .zero { out.append(.send(.play(media))) }
      if media != "A" { out.append(.send(.play("A", from: time))) }
    case .send(.user(.replaceQueue(let media, let start, let time, let play))):
      if media.count == 1 { out.append(.send(.play(media[0], from: time))) }
      if time != .zero {
        out.append(.send(.queue(media, start: start, playWhenReady: play)))
      }
      if start > 0, start < media.count {
        out.append(.send(.queue(Array(media[start...]), from: time, playWhenReady: play)))
      }
      for index in media.indices where media.count > 1 && index != start {
        var shorter = media
        shorter.remove(at: index)
        out.append(
          .send(
            .queue(
              shorter, start: index < start ? start - 1 : start, from: time, playWhenReady: play)))
      }
      if media.contains(where: { $0 != "A" }) {
        out.append(
          .send(.queue(media.map { _ in "A" }, start: start, from: time, playWhenReady: play)))
      }
    case .send(.user(.jump(let to, let time))) where time != .zero:
      out.append(.send(.user(.jump(to: to))))
    case .send(.user(.append(let media))) where media.count > 1:
      for index in media.indices {
        var shorter = media
        shorter.remove(at: index)
        out.append(.send(.user(.append(shorter))))
      }
    case .send(.user(.insert(let media, let at))):
      for index in media.indices where media.count > 1 {
        var shorter = media
        shorter.remove(at: index)
        out.append(.send(.user(.insert(shorter, at: at))))
      }
      if at > 0 { out.append(.send(.user(.insert(media, at: 0)))) }
    case .send(.user(.seek(let time))) where time != .zero:
      out.append(.send(.seek(to: .zero)))
    case .send(.watchdogExpired(let load, let id)):
      let newest = WatchdogID(model.current?.lastWatchdog ?? 1)
      for candidate in loads(load, model) { out.append(.send(.watchdogExpired(candidate, id))) }
      if id != newest { out.append(.send(.watchdogExpired(load, newest))) }
    case .send(.system(.interruptionEnded(shouldResume: false))):
      out.append(.send(.system(.interruptionEnded(shouldResume: true))))
    case .send(.user), .send(.system):
      break
    }
    return out
  }

  private static func simpler(_ report: EngineReport, _ model: ContractModel) -> [EngineReport] {
    var out = loads(report.load, model).map { report.with($0) }
    if case .seekCompleted(let load, let seek) = report {
      let newest = SeekID(max(model.current?.lastSeek ?? 1, 1))
      if seek != newest { out.append(.seekCompleted(load, newest)) }
    }
    if case .failed(let load, let reason, let detail) = report {
      // Without the engine's error first, then the plainest class.
      if detail != nil { out.append(.failed(load, reason)) }
      if reason != .network { out.append(.failed(load, .network, detail: detail)) }
    }
    if case .ready(let load, .some) = report { out.append(.ready(load)) }
    return out
  }

  /// The current load, then the preload, when they differ from `load`.
  private static func loads(_ load: Load, _ model: ContractModel) -> [Load] {
    var out: [Load] = []
    if let current = model.current?.load ?? model.newest, current != load { out.append(current) }
    if let preload = model.preload?.load, preload != load { out.append(preload) }
    return out
  }
}

extension Shrinker {
  /// What a load is to the model when an action names it.
  enum Role: Hashable {
    case current, preload, left, dropped, removed, previous, newest
    /// A token not issued yet (`ahead` past the newest), for an item with this role.
    case fresh(ahead: UInt32, item: ItemRole)
    /// None of these: kept as written.
    case kept
    /// A re-entrant report's role when it fires: read on the model after
    /// the next intent (the command that fires it), not when it is armed.
    indirect case whenFired(Role)
  }

  /// What an item is to the model.
  enum ItemRole: Hashable {
    case current, next, preload
    case kept(ItemID)
  }

  static func role(of load: Load, _ model: ContractModel) -> Role {
    let named: [(Load?, Role)] = [
      (model.current?.load, .current), (model.preload?.load, .preload), (model.left, .left),
      (model.dropped, .dropped), (model.removed, .removed), (model.previous, .previous),
      (model.newest, .newest),
    ]
    for (candidate, role) in named where candidate == load { return role }
    guard load.token.rawValue > model.issued else { return .kept }
    var item = ItemRole.kept(load.item)
    if load.item == model.current?.load.item {
      item = .current
    } else if let next = model.position.flatMap({ model.after($0) }),
      model.entries[next].item == load.item
    {
      item = .next
    } else if load.item == model.preload?.load.item {
      item = .preload
    }
    return .fresh(ahead: load.token.rawValue - model.issued, item: item)
  }

  static func load(for role: Role, _ model: ContractModel, else original: Load) -> Load {
    switch role {
    case .current: return model.current?.load ?? original
    case .preload: return model.preload?.load ?? original
    // A stale role with no load to play it: a token never issued is stale too.
    case .left: return model.left ?? stale(model, original)
    case .dropped: return model.dropped ?? stale(model, original)
    case .removed: return model.removed ?? stale(model, original)
    case .previous: return model.previous ?? stale(model, original)
    case .newest: return model.newest ?? original
    case .kept: return original
    case .whenFired(let inner): return load(for: inner, model, else: original)
    case .fresh(let ahead, let itemRole):
      var item = original.item
      switch itemRole {
      case .current: item = model.current?.load.item ?? item
      case .next:
        if let next = model.position.flatMap({ model.after($0) }) {
          item = model.entries[next].item
        }
      case .preload: item = model.preload?.load.item ?? item
      case .kept(let kept): item = kept
      }
      return Load(item: item, token: LoadToken(model.issued &+ ahead))
    }
  }

  /// A load the model ignores: the current item with a token not issued, one
  /// past the next (so that a re-entrant report stays stale after the load
  /// its intent creates).
  static func stale(_ model: ContractModel, _ original: Load) -> Load {
    Load(item: model.current?.load.item ?? original.item, token: LoadToken(model.issued &+ 2))
  }

  /// The role of each action's load, read when the action is performed (a
  /// re-entrant report when it is armed); for an intent that names the
  /// current position (remove, jump, move from), `.current`.
  static func roles(_ actions: [FuzzAction], canPreload: Bool, retry: RetryPolicy) -> [Role?] {
    var model = ContractModel(canPreload: canPreload, retry: retry)
    var scratch: [EngineCommand] = []
    var held: [EngineReport] = []
    var roles: [Role?] = []
    for (index, action) in actions.enumerated() {
      if case .reentrant(let report) = action {
        let fired = firing(actions, after: index, model, held, canPreload: canPreload, retry: retry)
        roles.append(.whenFired(role(of: report.load, fired)))
      } else if let load = action.load {
        roles.append(role(of: load, model))
      } else if let at = namedPosition(action), at == model.position {
        roles.append(.current)
      } else {
        roles.append(nil)
      }
      perform(action, &model, &held, &scratch)
    }
    return roles
  }

  /// The position an intent acts on: remove's, jump's, move's source.
  static func namedPosition(_ action: FuzzAction) -> Int? {
    switch action {
    case .send(.user(.remove(let at))), .send(.user(.jump(let at, _))),
      .send(.user(.move(let at, _))):
      at
    default: nil
    }
  }

  /// The same intent acting on position `at`.
  static func aimed(_ action: FuzzAction, at: Int) -> FuzzAction {
    switch action {
    case .send(.user(.remove)): .send(.user(.remove(at: at)))
    case .send(.user(.jump(_, let time))): .send(.user(.jump(to: at, from: time)))
    case .send(.user(.move(_, let to))): .send(.user(.move(from: at, to: to)))
    default: action
    }
  }

  /// `actions` with each load re-aimed at the one that has its role now,
  /// and each seek completion (when `seeks` is given) at the seek that has
  /// its role now (the newest, the one before…).
  static func aim(
    _ actions: [FuzzAction], roles: [Role?], seeks: [SeekRole?]? = nil, canPreload: Bool,
    retry: RetryPolicy
  ) -> [FuzzAction] {
    var model = ContractModel(canPreload: canPreload, retry: retry)
    var scratch: [EngineCommand] = []
    var held: [EngineReport] = []
    var out: [FuzzAction] = []
    for (index, (action, role)) in zip(actions, roles).enumerated() {
      var aimed = action
      if let old = action.load, case .whenFired(let inner)? = role {
        let fired = firing(actions, after: index, model, held, canPreload: canPreload, retry: retry)
        aimed = action.renaming(old, to: load(for: inner, fired, else: old))
      } else if let old = action.load, let role {
        aimed = action.renaming(old, to: load(for: role, model, else: old))
      } else if role == .current, let at = model.position {
        aimed = Shrinker.aimed(action, at: at)
      }
      if let seeks, index < seeks.count, let seek = seeks[index], aimed.seek != nil {
        aimed = aimed.withSeek(seekID(for: seek, model))
      }
      out.append(aimed)
      perform(aimed, &model, &held, &scratch)
    }
    return out
  }

  /// Which seek a seek completion names, relative to the newest seek of the
  /// current load when the action is performed.
  enum SeekRole: Hashable {
    /// The newest (0) or one `k` seeks before it.
    case back(UInt32)
    /// A seek id `k` past the newest, not issued yet.
    case ahead(UInt32)
  }

  static func seekRole(_ seek: SeekID, _ model: ContractModel) -> SeekRole {
    let newest = model.current?.lastSeek ?? 0
    return seek.rawValue <= newest
      ? .back(newest - seek.rawValue) : .ahead(seek.rawValue - newest)
  }

  static func seekID(for role: SeekRole, _ model: ContractModel) -> SeekID {
    let newest = model.current?.lastSeek ?? 0
    switch role {
    case .back(let k): return SeekID(newest >= k ? newest - k : 0)
    case .ahead(let k): return SeekID(newest &+ k)
    }
  }

  /// The model after the actions that follow `index` up to and including
  /// the next intent: where a report armed at `index` fires.
  static func firing(
    _ actions: [FuzzAction], after index: Int, _ model: ContractModel, _ held: [EngineReport],
    canPreload: Bool, retry: RetryPolicy
  ) -> ContractModel {
    var model = model
    var held = held
    var scratch: [EngineCommand] = []
    for action in actions.dropFirst(index + 1) {
      perform(action, &model, &held, &scratch)
      if case .send(.user) = action { break }
    }
    return model
  }

  /// The seek role of each seek completion in `actions` (nil for other actions).
  static func seekRoles(_ actions: [FuzzAction], canPreload: Bool, retry: RetryPolicy)
    -> [SeekRole?]
  {
    var model = ContractModel(canPreload: canPreload, retry: retry)
    var scratch: [EngineCommand] = []
    var held: [EngineReport] = []
    var out: [SeekRole?] = []
    for action in actions {
      out.append(action.seek.map { seekRole($0, model) })
      perform(action, &model, &held, &scratch)
    }
    return out
  }

  /// The model's side of one action (re-entrant reports are left out: the
  /// model alone cannot tell when they fire).
  private static func perform(
    _ action: FuzzAction, _ model: inout ContractModel, _ held: inout [EngineReport],
    _ scratch: inout [EngineCommand]
  ) {
    switch action {
    case .send(let event): model.apply(event, commands: &scratch)
    case .later(let report): held.append(report)
    case .deliver:
      for report in held { model.apply(.engine(report), commands: &scratch) }
      held.removeAll()
    case .reentrant: break
    }
  }
}

extension FuzzAction {
  /// The seek id a seek completion names.
  var seek: SeekID? {
    if case .engine(.seekCompleted(_, let seek))? = event { return seek }
    return nil
  }

  /// The same seek completion naming another seek.
  func withSeek(_ id: SeekID) -> FuzzAction {
    guard case .engine(.seekCompleted(let load, _))? = event else { return self }
    return with(.seekCompleted(load, id))
  }

  /// The same action with `old` replaced by `new` wherever it names a load.
  func renaming(_ old: Load, to new: Load) -> FuzzAction {
    switch self {
    case .send(.watchdogExpired(old, let id)): .send(.watchdogExpired(new, id))
    case .send(.engine(let report)) where report.load == old: .send(.engine(report.with(new)))
    case .reentrant(let report) where report.load == old: .reentrant(report.with(new))
    case .later(let report) where report.load == old: .later(report.with(new))
    default: self
    }
  }

  /// The same action with media `old` replaced by `new` in every intent.
  func renamingMedia(_ old: MediaID, to new: MediaID) -> FuzzAction {
    func swap(_ list: [MediaID]) -> [MediaID] { list.map { $0 == old ? new : $0 } }
    switch self {
    case .send(.user(.play(old, let time))): return .send(.play(new, from: time))
    case .send(.user(.replaceQueue(let list, let start, let time, let play))):
      return .send(.queue(swap(list), start: start, from: time, playWhenReady: play))
    case .send(.user(.append(let list))): return .send(.user(.append(swap(list))))
    case .send(.user(.insert(let list, let at))): return .send(.user(.insert(swap(list), at: at)))
    default: return self
    }
  }

  /// The same delivery with another report.
  func with(_ report: EngineReport) -> FuzzAction {
    switch self {
    case .reentrant: .reentrant(report)
    case .later: .later(report)
    case .send, .deliver: .send(.engine(report))
    }
  }
}

extension EngineReport {
  /// The same report about another load.
  func with(_ load: Load) -> EngineReport {
    switch self {
    case .ready(_, let duration): .ready(load, duration: duration)
    case .stalled: .stalled(load)
    case .resumed: .resumed(load)
    case .seekCompleted(_, let seek): .seekCompleted(load, seek)
    case .reachedEnd: .reachedEnd(load)
    case .failed(_, let reason, let detail): .failed(load, reason, detail: detail)
    case .position(_, let time): .position(load, time)
    case .pausedBySystem: .pausedBySystem(load)
    }
  }
}
