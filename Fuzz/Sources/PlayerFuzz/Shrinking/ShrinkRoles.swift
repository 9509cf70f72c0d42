import PlayerState

extension Shrinker {
  /// What a load is to the model when an action names it.
  enum Role: Hashable {
    case current, preload, left, dropped, removed, previous, newest
    /// The load fading out (a stop's or a crossfade's), and the newest one stopped after it
    /// did: a late report of a crossfade's outgoing load keeps aiming at it when a deletion
    /// renumbers the tokens.
    case leaving, stoppedLeaving
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
      (model.current?.load, .current), (model.preload?.load, .preload),
      (model.leaving?.load, .leaving), (model.stoppedLeaving?.load, .stoppedLeaving),
      (model.left, .left),
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
    case .leaving: return model.leaving?.load ?? stale(model, original)
    case .stoppedLeaving: return model.stoppedLeaving?.load ?? stale(model, original)
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
  static func roles(_ actions: [FuzzAction], setup: FuzzSetup) -> [Role?] {
    var model = ContractModel(setup)
    var scratch: [EngineCommand] = []
    var held: [EngineReport] = []
    var roles: [Role?] = []
    for (index, action) in actions.enumerated() {
      if case .reentrant(let report) = action {
        let fired = firing(actions, after: index, model, held, setup: setup)
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
    _ actions: [FuzzAction], roles: [Role?], seeks: [SeekRole?]? = nil, setup: FuzzSetup
  ) -> [FuzzAction] {
    var model = ContractModel(setup)
    var scratch: [EngineCommand] = []
    var held: [EngineReport] = []
    var out: [FuzzAction] = []
    for (index, (action, role)) in zip(actions, roles).enumerated() {
      var aimed = action
      if let old = action.load, case .whenFired(let inner)? = role {
        let fired = firing(actions, after: index, model, held, setup: setup)
        aimed = action.renaming(old, to: load(for: inner, fired, else: old))
      } else if let old = action.load, let role {
        aimed = action.renaming(old, to: load(for: role, model, else: old))
      } else if role == .current, let at = model.position {
        aimed = Shrinker.aimed(action, at: at)
      }
      if let seeks, index < seeks.count, let seek = seeks[index] {
        if aimed.seek != nil {
          aimed = aimed.withSeek(seekID(for: seek, model))
        } else if case .send(.watchdogExpired(let load, _)) = aimed, seek == .back(0),
          let current = model.current, current.load == load, current.lastWatchdog != 0
        {
          // The expiry of the current load's newest timer stays the newest's.
          aimed = .send(.watchdogExpired(load, WatchdogID(current.lastWatchdog)))
        }
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
    setup: FuzzSetup
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

  /// The seek role of each seek completion in `actions`, and `.back(0)` for
  /// the expiry of the current load's newest timer (a deletion before it keeps
  /// it the newest timer's, whatever that id is then: a fade's after a load, a
  /// promoted preload's first); nil for other actions.
  static func seekRoles(_ actions: [FuzzAction], setup: FuzzSetup)
    -> [SeekRole?]
  {
    var model = ContractModel(setup)
    var scratch: [EngineCommand] = []
    var held: [EngineReport] = []
    var out: [SeekRole?] = []
    for action in actions {
      if case .send(.watchdogExpired(let load, let id)) = action, let current = model.current,
        current.load == load, current.lastWatchdog != 0, id.rawValue == current.lastWatchdog
      {
        out.append(.back(0))
      } else {
        out.append(action.seek.map { seekRole($0, model) })
      }
      perform(action, &model, &held, &scratch)
    }
    return out
  }

  /// The model's side of one action (re-entrant reports are left out: the
  /// model alone cannot tell when they fire).
  static func perform(
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
    case .lifecycle(let step):
      // A relaunch's or a hand-off's held-back reports never reach the new player.
      if step != .snapshot { held.removeAll() }
      model.apply(step, commands: &scratch)
    }
  }
}
