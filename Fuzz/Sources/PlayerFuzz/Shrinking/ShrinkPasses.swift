import PlayerState

extension Shrinker.Search {
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
    var runner = CaseRunner(subject, setup: setup)
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
      let roles = Shrinker.roles(best.actions, setup: setup)
      let seeks = Shrinker.seekRoles(best.actions, setup: setup)
      for other in Shrinker.positioned(intent) + Shrinker.alphabet where other != intent {
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
              candidate, roles: kept, seeks: keptSeeks, setup: setup),
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
      let roles = Shrinker.roles(best.actions, setup: setup)
      let seeks = Shrinker.seekRoles(best.actions, setup: setup)
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
                candidate, roles: keptRoles, seeks: keptSeeks, setup: setup),
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
    let roles = Shrinker.roles(best.actions, setup: setup)
    let seeks = Shrinker.seekRoles(best.actions, setup: setup)
    // The contract after each prefix: a window's end state, reached by one new queue.
    var model = ContractModel(setup)
    var held: [EngineReport] = []
    var scratch: [EngineCommand] = []
    var after: [ContractModel] = []
    for action in best.actions {
      Shrinker.perform(action, &model, &held, &scratch)
      after.append(model)
    }
    for width in 2...3 {
      for start in best.actions.indices where start + width <= best.actions.count {
        let window = start..<(start + width)
        var keptRoles = roles
        keptRoles.replaceSubrange(window, with: [nil])
        var keptSeeks = seeks
        keptSeeks.replaceSubrange(window, with: [nil])
        for intent in intents + Shrinker.reached(after[start + width - 1]) {
          var candidate = best.actions
          candidate.replaceSubrange(window, with: [.send(.user(intent))])
          if attempt(candidate, shorter: true) { return true }
          let aimed = Shrinker.aim(
            candidate, roles: keptRoles, seeks: keptSeeks, setup: setup)
          if aimed != candidate, attempt(aimed, shorter: true) { return true }
          if retargetFirstReport(candidate, after: start) { return true }
        }
        if exhausted { return false }
      }
    }
    return false
  }

  /// Tries `candidate` with the first report after `index` naming, in turn,
  /// each load the model knows there (the current item under an older
  /// token, say): a window replaced by one intent may leave the report that
  /// broke the property naming a load that no longer plays its part, and no
  /// role says which one it should name (a player that matches reports by
  /// item fails on `play(A)`, `play(B)`, `ready(B#1)`, which `play(A)`,
  /// `stop`, `resume`, `ready(A#1)` only reaches this way).
  private mutating func retargetFirstReport(_ candidate: [FuzzAction], after index: Int) -> Bool {
    guard
      let at = candidate.indices.dropFirst(index + 1).first(where: { candidate[$0].load != nil }),
      let load = candidate[at].load
    else { return false }
    for other in knownLoads(before: candidate[..<at]) where other != load {
      var retargeted = candidate
      retargeted[at] = candidate[at].renaming(load, to: other)
      if retargeted != candidate, attempt(retargeted, shorter: true) { return true }
      if exhausted { return false }
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
          + Shrinker.kinds(of: base[later], past: past)
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
      var variants = Shrinker.kinds(of: best.actions[index], past: past)
      if case .send(.user(let intent)) = best.actions[index] {
        variants += Shrinker.variants(of: intent, past: past).map { .send(.user($0)) }
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
          var roles = Shrinker.roles(best.actions, setup: setup)
          roles[index] = nil
          roles.remove(at: deleted)
          if attempt(Shrinker.aim(candidate, roles: roles, setup: setup)) {
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
        for variant in Shrinker.kinds(of: candidate[min(index, candidate.count - 1)], past: past) {
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
    var model = ContractModel(setup)
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
    let roles = Shrinker.roles(best.actions, setup: setup)
    for (end, intent) in fresh.reversed() {
      let candidate = [FuzzAction.send(.user(intent))] + best.actions[(end + 1)...]
      let kept = [nil] + Array(roles[(end + 1)...])
      if attempt(Shrinker.aim(candidate, roles: kept, setup: setup)) {
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
      // Across one report or system event: the merged intent, then it (or it first).
      if case .send(.user(let first)) = best.actions[index], index + 2 < best.actions.count,
        best.actions[index + 1].load != nil || best.actions[index + 1].isSystemEvent,
        let third = Shrinker.intent(of: best.actions[index + 2])
      {
        let roles = Shrinker.roles(best.actions, setup: setup)
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
            if attempt(Shrinker.aim(candidate, roles: kept, setup: setup)) {
              return true
            }
          }
        }
      }
      guard case .send(.user(let first)) = best.actions[index],
        let second = Shrinker.intent(of: best.actions[index + 1])
      else {
        index += 1
        continue
      }
      for merged in Shrinker.merged(first, second) {
        var candidate = best.actions
        candidate.replaceSubrange(index...(index + 1), with: [.send(.user(merged))])
        if attempt(candidate) { return true }
        if attempt(renumbered(candidate, pairAt: index)) { return true }
        let roles = Shrinker.roles(best.actions, setup: setup)
        let origin = [index] + Array(best.actions.indices.dropFirst(index + 2))
        let kept = Array(roles[..<index]) + origin.map { $0 == index ? nil : roles[$0] }
        if attempt(Shrinker.aim(candidate, roles: kept, setup: setup)) {
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
    let roles = Shrinker.roles(best.actions, setup: setup)
    let seeks = Shrinker.seekRoles(best.actions, setup: setup)
    var origin = Array(best.actions.indices)
    origin.removeSubrange(deleted)
    guard origin.count == candidate.count else { return candidate }
    return Shrinker.aim(
      candidate, roles: origin.map { roles[$0] }, seeks: origin.map { seeks[$0] },
      setup: setup)
  }

  /// `candidate` with the tokens after `index` lowered by how many fewer
  /// loads the merged intent issued than the pair it replaced.
  func renumbered(_ candidate: [FuzzAction], pairAt index: Int) -> [FuzzAction] {
    func issued(_ actions: ArraySlice<FuzzAction>) -> UInt32 {
      var model = ContractModel(setup)
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
    var model = ContractModel(setup)
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
    var runner = CaseRunner(subject, setup: setup)
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
    var model = ContractModel(setup)
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
