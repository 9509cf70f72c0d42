import PlayerState

/// What a player may leave unsaid after a step: the oracle then checks it
/// through the engine's commands only, and a run's result names it
/// (``FuzzResult/notCompared``).
public enum FuzzObservable: String, CaseIterable, Hashable, Sendable, CustomStringConvertible {
  /// Whether a seek completion is awaited (``FuzzObservation/seekPending``).
  case seekPending
  /// The queue's fingerprint (``FuzzObservation/queue``).
  case queue
  /// The current and preloading loads (``FuzzObservation/loads``).
  case loads
  /// The last known position (``FuzzObservation/position``).
  case position
  /// Whether the preload is ready (``FuzzObservation/preloadReady``).
  case preloadReady
  /// The failure detail (``FuzzObservation/failure``).
  case failure
  /// The whole public state (``FuzzObservation/state``): media, intent, rate,
  /// system pause, ids, seeks, timers, durations, attempts.
  case publicState
  /// Why each event was ignored (``FuzzEngine/onReduced(for:)``).
  case ignoreReasons
  /// What a lock screen shows (``FuzzObservation/nowPlaying``).
  case nowPlaying
  /// The remote commands offered (``FuzzObservation/availableCommands``).
  case availableCommands
  /// Each step's notifications (``FuzzEngine/onNotified(for:)``).
  case notifications

  /// The name, as in `publicState`.
  public var description: String { rawValue }

  /// The bit of this observable in a mask.
  var bit: UInt16 { 1 << UInt16(Self.allCases.firstIndex(of: self) ?? 0) }

  /// The observables whose bits `mask` sets, in declaration order.
  static func decode(_ mask: UInt16) -> [FuzzObservable] {
    allCases.filter { mask & $0.bit != 0 }
  }

  /// The bits of what `observation` leaves unsaid (the reasons aside).
  static func unsaid(in observation: borrowing FuzzObservation) -> UInt16 {
    // Matched, not compared with nil: `== nil` copies an optional holding
    // references first (here every step).
    var mask: UInt16 = 0
    if case .none = observation.seekPending { mask |= 1 }
    if case .none = observation.queue { mask |= 1 << 1 }
    if case .none = observation.loads { mask |= 1 << 2 }
    if case .none = observation.position, case .none = observation.box { mask |= 1 << 3 }
    if case .none = observation.preloadReady { mask |= 1 << 4 }
    if case .none = observation.failure { mask |= 1 << 5 }
    if case .none = observation.box { mask |= 1 << 6 }
    if case .none = observation.nowPlaying { mask |= 1 << 8 }
    if case .none = observation.availableCommands { mask |= 1 << 9 }
    return mask
  }
}

/// A field of a player's public state that differs from the contract's.
struct PublicStateDifference {
  /// The property it breaks: the queue's (entries, preload) or the state's.
  var property: FuzzProperty
  /// The field, the player's value and the contract's, in words.
  var text: String

  init(_ field: String, _ player: String, _ contract: String, queue: Bool) {
    property = queue ? .queueMatchesContract : .stateMatchesContract
    text = "\(field): the player's \(player), the contract's \(contract)"
  }
}

extension StateBox {
  /// ``ContractModel/difference(from:entriesAgree:)`` of the state held,
  /// read in place.
  func difference(from model: ContractModel, entriesAgree: Bool) -> PublicStateDifference? {
    model.difference(from: state, entriesAgree: entriesAgree)
  }
}

extension ContractModel {
  /// The first field of `state` (a player's whole public state) that differs
  /// from the contract's, or nil when every field agrees. Loads are compared
  /// by item: their tokens are the player's numbering (compared through
  /// ``FuzzObservation/loads`` in the contract's).
  /// - Parameter entriesAgree: whether the queue's entries and the shuffle's
  ///   list order are already known to agree (the only parts that cost
  ///   O(queue)); they are then not compared again.
  func difference(from state: PlaybackState, entriesAgree: Bool = false)
    -> PublicStateDifference?
  {
    func differs(
      _ field: String, _ player: some CustomStringConvertible,
      _ contract: some CustomStringConvertible, queue: Bool = false
    ) -> PublicStateDifference {
      PublicStateDifference(field, "\(player)", "\(contract)", queue: queue)
    }
    // The queue: entries with their media, position, repeat, shuffle and its list order.
    let queue = state.queue
    if !entriesAgree, !Self.same(queue.entries, entries) {
      return differs(
        "queue entries", queue.entries.map { "\($0.media)(\($0.item))" }.joined(separator: " "),
        entries.map { "\($0.media)(\($0.item))" }.joined(separator: " "), queue: true)
    }
    if queue.current != position {
      return differs(
        "current position", queue.current.map(String.init) ?? "none",
        position.map(String.init) ?? "none", queue: true)
    }
    if queue.repeatMode != repeatMode {
      return differs("repeat", queue.repeatMode.rawValue, repeatMode.rawValue, queue: true)
    }
    if queue.shuffle?.seed != shuffle?.seed {
      return differs(
        "shuffle seed", queue.shuffle.map { String($0.seed) } ?? "none",
        shuffle.map { String($0.seed) } ?? "none", queue: true)
    }
    if !entriesAgree, let list = queue.shuffle?.unshuffled, let expected = shuffle?.list,
      !Self.same(list, expected)
    {
      return differs(
        "shuffle's list order", list.map(\.item.description).joined(separator: " "),
        expected.map(\.item.description).joined(separator: " "), queue: true)
    }
    // The user's side and the system's.
    if state.playWhenReady != playWhenReady {
      return differs("playWhenReady", state.playWhenReady, playWhenReady)
    }
    if state.rate != rate { return differs("rate", state.rate, rate) }
    if state.interrupted != interrupted {
      return differs("interrupted", state.interrupted, interrupted)
    }
    // Volume, mute and the duck (ContractVolume.swift).
    if state.volume != volume { return differs("volume", state.volume, volume) }
    if state.muted != muted { return differs("muted", state.muted, muted) }
    if state.ducked != ducked { return differs("ducked", state.ducked, ducked) }
    // A load fading out into a stop, and its timer (ContractFade.swift).
    if state.leaving?.load.item != leaving?.load.item
      || state.leaving?.timer.rawValue != leaving?.timer
    {
      return differs(
        "leaving", state.leaving.map { "\($0.load) \($0.timer)" } ?? "none",
        leaving.map { "\($0.load) watchdog#\($0.timer)" } ?? "none")
    }
    if state.suppression != suppression {
      return differs(
        "suppression", state.suppression?.rawValue ?? "none", suppression?.rawValue ?? "none")
    }
    // The ids issued (never reset, never reused).
    if state.issuedLoads != issued { return differs("issuedLoads", state.issuedLoads, issued) }
    if state.issuedItems != issuedItems {
      return differs("issuedItems", state.issuedItems, issuedItems)
    }
    // The sleep timer (ContractSleepTimer.swift).
    if state.sleepTimer != sleep {
      return differs(
        "sleepTimer", state.sleepTimer.map(\.description) ?? "none",
        sleep.map(\.description) ?? "none")
    }
    if state.issuedSleepTimers != issuedSleep {
      return differs("issuedSleepTimers", state.issuedSleepTimers, issuedSleep)
    }
    // A restored entry's saved position (ContractRestore.swift).
    let point = state.resumePoint
    // A DVR entry's point is an offset behind the live edge (ContractLive.swift).
    let theirs = point.map {
      (
        item: $0.item, time: ($0.liveOffset ?? $0.position).milliseconds,
        offset: $0.liveOffset != nil
      )
    }
    let ours = resumePoint.map { (item: $0.item, time: $0.position, offset: $0.liveOffset) }
    if theirs?.item != ours?.item || theirs?.time != ours?.time || theirs?.offset != ours?.offset {
      func spelled(_ point: (item: ItemID, time: Int64, offset: Bool)) -> String {
        "\(point.item) \(point.offset ? "\(point.time)ms behind the live edge" : "at \(point.time)ms")"
      }
      return differs(
        "resumePoint", theirs.map(spelled) ?? "none", ours.map(spelled) ?? "none")
    }
    // The current load.
    switch (state.session, current) {
    case (nil, nil): break
    case (let session?, nil):
      return differs("session", session.load.item.description, "none")
    case (nil, let current?):
      return differs("session", "none", current.load.item.description)
    case (let session?, let current?):
      if let difference = difference(session, current) { return difference }
    }
    // The preload.
    switch (state.preload, preload) {
    case (nil, nil): break
    case (let preload?, nil):
      return differs("preload", preload.load.item.description, "none", queue: true)
    case (nil, let preload?):
      return differs("preload", "none", preload.load.item.description, queue: true)
    case (let player?, let contract?):
      if player.load.item != contract.load.item {
        return differs("preload's item", player.load.item, contract.load.item, queue: true)
      }
      if !Self.matches(player.stage, contract) {
        return differs(
          "preload's stage", Self.words(player.stage), Self.words(contract), queue: true)
      }
      if player.duration?.milliseconds != contract.duration {
        return differs(
          "preload's duration", player.duration.map(\.description) ?? "none",
          contract.duration.map { "\($0)ms" } ?? "none", queue: true)
      }
    }
    return nil
  }

  /// Whether the player's entries are the contract's, item and media, in order
  /// (the player's iterated, each entry read once: a subscript of
  /// `QueueEntries` retains its tree's root; not `zip`, which costs the debug
  /// build a metadata lookup an entry).
  private static func same(_ player: QueueEntries, _ contract: [Entry]) -> Bool {
    guard player.count == contract.count else { return false }
    var index = 0
    for entry in player {
      if entry.item != contract[index].item || entry.media != contract[index].media { return false }
      index += 1
    }
    return true
  }

  /// What the contract says holds playback: an interruption or a `.pause`
  /// duck (a hold like an interruption), or a system pause of a ready or stalled load.
  var suppression: Suppression? {
    if interrupted || duckHolds { return .interruption }
    return suppressed ? .systemPause : nil
  }

  private func difference(_ session: Session, _ current: Current) -> PublicStateDifference? {
    func differs(_ field: String, _ player: String, _ contract: String) -> PublicStateDifference {
      PublicStateDifference(field, player, contract, queue: false)
    }
    if session.load.item != current.load.item {
      return differs("session's item", "\(session.load.item)", "\(current.load.item)")
    }
    if !Self.matches(session.stage, current) {
      return differs("stage", Self.words(session.stage), Self.words(current))
    }
    if session.lastSeek.rawValue != current.lastSeek || session.seekPending != current.seekPending {
      return differs(
        "seek", "\(session.lastSeek)\(session.seekPending ? " pending" : "")",
        "seek#\(current.lastSeek)\(current.seekPending ? " pending" : "")")
    }
    if session.lastWatchdog.rawValue != current.lastWatchdog {
      return differs("newest timer", "\(session.lastWatchdog)", "watchdog#\(current.lastWatchdog)")
    }
    if session.position.milliseconds != current.position {
      return differs("position", "\(session.position)", "\(current.position)ms")
    }
    if session.duration?.milliseconds != current.duration {
      return differs(
        "duration", session.duration.map(\.description) ?? "none",
        current.duration.map { "\($0)ms" } ?? "none")
    }
    if session.fadingOut != current.fadingOut {
      return differs("fadingOut", "\(session.fadingOut)", "\(current.fadingOut)")
    }
    if session.systemPaused != current.systemPaused {
      return differs("systemPaused", "\(session.systemPaused)", "\(current.systemPaused)")
    }
    if session.networkAttempts != current.attempts {
      return differs("networkAttempts", "\(session.networkAttempts)", "\(current.attempts)")
    }
    if session.window != current.window {
      return differs(
        "window", session.window.map(\.description) ?? "none",
        current.window.map(\.description) ?? "none")
    }
    return nil
  }

  /// Whether the player's stage is the contract's (a failure with its reason).
  private static func matches(_ stage: EngineStage, _ current: Current) -> Bool {
    switch (stage, current.stage) {
    case (.buffering, .buffering), (.ready, .ready), (.stalled, .stalled), (.ended, .ended),
      (.waitingForNetwork, .waiting):
      true
    case (.failed(let reason), .failed): reason == current.reason
    default: false
    }
  }

  private static func matches(_ stage: PreloadStage, _ preload: Preloading) -> Bool {
    switch (stage, preload.stage) {
    case (.buffering, .buffering), (.ready, .ready): true
    case (.live, .failed): preload.live
    case (.failed(let reason), .failed): !preload.live && reason == preload.reason
    default: false
    }
  }

  private static func words(_ stage: EngineStage) -> String { stage.fuzzWords }

  private static func words(_ stage: PreloadStage) -> String {
    switch stage {
    case .buffering: "buffering"
    case .ready: "ready"
    case .failed(let reason): "failed(\(reason))"
    case .live: "live"
    }
  }

  private static func words(_ current: Current) -> String {
    current.stage == .failed
      ? "failed(\(current.reason.map(\.description) ?? "?"))" : "\(current.stage)"
  }

  private static func words(_ preload: Preloading) -> String {
    preload.live
      ? "live"
      : preload.stage == .failed
        ? "failed(\(preload.reason.map(\.description) ?? "?"))" : "\(preload.stage)"
  }
}
