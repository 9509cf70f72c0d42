import PlayerState

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
/// watchdog id becomes the newest, a time becomes 0, a reason `network`).
public enum Shrinker {
  /// The result of shrinking.
  public struct Outcome: Sendable {
    /// An outcome.
    public init(actions: [FuzzAction], violation: FuzzViolation, attempts: Int) {
      self.actions = actions
      self.violation = violation
      self.attempts = attempts
    }

    /// The smallest failing case found.
    public var actions: [FuzzAction]
    /// Its violation.
    public var violation: FuzzViolation
    /// How many candidate cases were replayed.
    public var attempts: Int
  }

  /// Shrinks `actions`, which fail on `subject` with `violation`.
  /// - Parameters:
  ///   - subject: the player under test.
  ///   - actions: a failing case.
  ///   - violation: its violation.
  ///   - limit: the most candidates to replay.
  ///   - canPreload: whether the engine declares `.preload`.
  /// - Returns: the smallest failing case found, with the events the end of
  ///   the case adds made explicit.
  public static func shrink(
    _ subject: FuzzSubject, _ actions: [FuzzAction], violation: FuzzViolation, limit: Int = 20_000,
    canPreload: Bool = false
  ) -> Outcome {
    var search = Search(
      subject: subject, canPreload: canPreload, limit: limit,
      best: Outcome(actions: actions, violation: violation, attempts: 0),
      tried: [actions])
    var changed = true
    while changed, search.best.attempts < limit {
      changed = false
      // Everything after the failing step is irrelevant.
      if search.best.violation.step < search.best.actions.count {
        changed =
          search.attempt(Array(search.best.actions.prefix(search.best.violation.step))) || changed
      }
      changed = search.dropNoEffect() || changed
      changed = search.deleteChunks() || changed
      changed = search.simplify() || changed
      if !changed { changed = search.deleteAndRepair() }
    }
    return search.best
  }

  private struct Search {
    let subject: FuzzSubject
    let canPreload: Bool
    let limit: Int
    var best: Outcome
    /// Every case tried: a simplification never returns to an earlier case,
    /// so same-length rewrites cannot cycle.
    var tried: Set<[FuzzAction]> = []

    /// Replays `candidate`; keeps it if it fails and is new and no longer.
    mutating func attempt(_ candidate: [FuzzAction]) -> Bool {
      guard best.attempts < limit, tried.insert(candidate).inserted else { return false }
      best.attempts += 1
      let (runner, violation) = CaseRunner.replay(subject, candidate, canPreload: canPreload)
      guard let found = violation else { return false }
      // Keep the events the end of the case added, so the case stays explicit.
      let explicit = Array(runner.trace.prefix(max(found.step, candidate.count)))
      guard explicit.count <= best.actions.count,
        explicit == candidate || tried.insert(explicit).inserted
      else { return false }
      best.actions = explicit
      best.violation = found
      return true
    }

    /// Deletes one action and repairs the identity of a later report, for
    /// cases where deleting a load shifts the tokens that follow it.
    mutating func deleteAndRepair() -> Bool {
      guard best.actions.count <= 10 else { return false }
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
        // Rename one load everywhere after the deletion, then one report alone.
        let loads = Set(base[index...].compactMap { $0.event?.load })
        for old in loads {
          for new in Shrinker.loads where new != old {
            if attempt(base.prefix(index) + base[index...].map { $0.renaming(old, to: new) }) {
              return true
            }
          }
        }
        for later in index..<base.count {
          for variant in Shrinker.identities(of: base[later]) {
            var candidate = base
            candidate[later] = variant
            if attempt(candidate) { return true }
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
        }
      }
      return false
    }

    mutating func dropNoEffect() -> Bool {
      var runner = CaseRunner(subject, canPreload: canPreload)
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
      var chunk = max(1, best.actions.count / 2)
      while chunk >= 1 {
        var end = best.actions.count
        while end - chunk >= 0, !best.actions.isEmpty {
          let start = end - chunk
          var candidate = best.actions
          candidate.removeSubrange(start..<end)
          if !candidate.isEmpty, attempt(candidate) {
            changed = true
            end = min(start, best.actions.count)
          } else {
            end -= chunk
          }
        }
        if chunk == 1 { break }
        chunk /= 2
      }
      return changed
    }

    mutating func simplify() -> Bool {
      var changed = false
      var index = 0
      while index < best.actions.count {
        var model = ContractModel(canPreload: canPreload)
        var scratch: [EngineCommand] = []
        for action in best.actions.prefix(index) {
          if let event = action.event { model.apply(event, commands: &scratch) }
        }
        for candidate in Shrinker.simpler(best.actions[index], model) {
          var actions = best.actions
          actions[index] = candidate
          if attempt(actions) {
            changed = true
            break
          }
        }
        index += 1
      }
      return changed
    }
  }

  /// The loads a repair may use: items 1…3 with tokens 0…4.
  static let loads: [Load] = (1...3).flatMap { item in (0...4).map { Load(item, $0) } }

  /// The action about each of ``loads`` instead of its own, then with each
  /// seek or watchdog id 0…3 instead of its own.
  static func identities(of action: FuzzAction) -> [FuzzAction] {
    guard let old = action.load else { return [] }
    var out = loads.filter { $0 != old }.map { action.renaming(old, to: $0) }
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
            .queue(shorter, start: index < start ? start - 1 : start, from: time, playWhenReady: play)))
      }
      if media.contains(where: { $0 != "A" }) {
        out.append(
          .send(.queue(media.map { _ in "A" }, start: start, from: time, playWhenReady: play)))
      }
    case .send(.user(.jump(let to, let time))) where time != .zero:
      out.append(.send(.user(.jump(to: to))))
    case .send(.user(.seek(let time))) where time != .zero:
      out.append(.send(.seek(to: .zero)))
    case .send(.watchdogExpired(let load, let id)):
      let newest = WatchdogID(model.current?.lastWatchdog ?? 1)
      for candidate in loads(load, model) { out.append(.send(.watchdogExpired(candidate, id))) }
      if id != newest { out.append(.send(.watchdogExpired(load, newest))) }
    case .send(.user):
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
    if case .failed(let load, let reason) = report, reason != .network {
      out.append(.failed(load, .network))
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

extension FuzzAction {
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
    case .failed(_, let reason): .failed(load, reason)
    case .position(_, let time): .position(load, time)
    }
  }
}
