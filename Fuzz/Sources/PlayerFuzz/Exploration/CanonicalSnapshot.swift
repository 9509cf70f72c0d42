public import PlayerState

/// A player's snapshot that the explorer can put in canonical form, so that
/// states differing only in names are merged: the numbers issued so far (item
/// ids, load tokens, seek and watchdog ids, renamed by the role they play),
/// media names (only which entries share one is kept) and the identities of
/// stopped loads (every stopped load is alike to the rules). That is what lets a search over
/// a small scope reach its fixpoint and say `complete`.
///
/// ``ExplorationRenaming`` says how: identities by the role they play now
/// (items by queue position; loads as current, preload, stopped, not issued
/// yet), the newest seek and watchdog ids as 0, 1 or more, times by class.
/// Append every field your player's future behaviour depends on, renamed; a
/// field left out merges states that behave differently, which the
/// explorer's differential check reports instead of a proof.
///
/// ```swift
/// struct MySnapshot: Hashable, ExplorableSnapshot {
///   var state: PlaybackState
///   var pendingFlag: Bool
///   func canonicalize(into key: inout [Int32], _ renaming: ExplorationRenaming) {
///     state.canonicalize(into: &key, renaming)
///     key.append(pendingFlag ? 1 : 0)
///   }
/// }
/// ```
public protocol ExplorableSnapshot: Hashable {
  /// Appends this snapshot's canonical form to `key`.
  /// - Parameters:
  ///   - key: the canonical key being built.
  ///   - renaming: how identities and times are renamed in this state.
  func canonicalize(into key: inout [Int32], _ renaming: ExplorationRenaming)
}

/// How the explorer renames one state's identities and times: built from the
/// contract model, shared by the model's, the held reports' and the player's
/// canonical forms so that they agree.
///
/// The classes are the ones the rules tell apart (docs/machine.md): a report
/// names the current load, the preload, a load that was stopped (all alike:
/// `staleLoad`), a token not issued yet (by how far: the next one becomes the
/// next load's), or token 0; an item is a queue position or gone; a seek or
/// watchdog id is the newest, an older one or a later one; a time is 0,
/// below, at or past the previous threshold, or the duration the letters report.
public struct ExplorationRenaming: Sendable {
  private var entries: [ItemID] = []
  private var issued: UInt32 = 0
  private var issuedItems: UInt32 = 0
  private var currentToken: UInt32?
  /// Whether the current load is stopped (failed or waiting): it ignores every seek completion.
  private var currentStopped = false
  private var preloadToken: UInt32?
  /// The load fading out into a stop (issue 37): its timer's expiry stops it.
  private var leavingToken: UInt32?
  private var lastSeek: UInt32 = 0
  private var threshold: MediaTime
  /// Fields deliberately left out (tests of the differential check only).
  let forgetting: Set<ExplorationField>

  /// The code of an item that is no longer in the queue: every such item is alike.
  public static let gone: Int32 = -2

  /// The code of a seek id that its load ignores whatever it is (``seek(_:of:)``).
  public static let ignoredSeek: Int32 = -4

  /// The code of the k-th item id not issued yet is `upcoming + k`: the
  /// next intent that queues media issues them in order, so a report naming
  /// one (a held-back `ready` of the load the next intent creates) names
  /// the entry that intent will make.
  public static let upcoming: Int32 = 1000

  /// The renaming of the state `model` is in, times classed against `threshold`
  /// (package: tests build one to compare keys).
  package init(
    _ model: ContractModel, threshold: MediaTime, forgetting: Set<ExplorationField> = []
  ) {
    self.threshold = threshold
    self.forgetting = forgetting
    issued = model.issued
    issuedItems = model.issuedItems
    currentToken = model.current?.load.token.rawValue
    currentStopped = model.current?.stage.isStopped ?? false
    preloadToken = model.preload?.load.token.rawValue
    leavingToken = model.leaving?.load.token.rawValue
    lastSeek = model.current?.lastSeek ?? 0
    entries = model.entries.map(\.item)
  }

  /// An item's code: its queue position, ``upcoming`` + k for the k-th id
  /// not issued yet, or ``gone``.
  public func item(_ item: ItemID) -> Int32 {
    if let index = entries.firstIndex(of: item) { return Int32(index) }
    if item.rawValue > issuedItems {
      return Self.upcoming + Int32(clamping: item.rawValue - issuedItems)
    }
    return Self.gone
  }

  /// A failure detail's code: none, the one the letters carry, or another.
  public func detail(_ detail: FailureDetail?) -> Int32 {
    guard let detail else { return 0 }
    return detail == Explorer.Letter.detail ? 1 : 2
  }

  /// A failure reason's code: its place among the letters' reasons (another: 99).
  public func reason(_ reason: FailureReason) -> Int32 {
    Int32(Explorer.Letter.reasons.firstIndex(of: reason) ?? 99)
  }

  /// A rate's code: its thousandths (the letters reach 1x and 1.5x only, and
  /// a player may treat 1x apart, so rates are not renamed).
  public func rate(_ rate: PlaybackRate) -> Int32 { Int32(clamping: rate.thousandths) }

  /// Appends which entries share a media: for each entry, the position of the
  /// first entry with the same media (names themselves are renamed away).
  public func appendMediaPattern(_ media: [MediaID], to key: inout [Int32]) {
    for (index, name) in media.enumerated() {
      key.append(Int32(media.firstIndex(of: name) ?? index))
    }
  }

  /// A token's code: 0 for token 0, 1 the current load's, 2 the preload's,
  /// 4 the load fading out into a stop's, 3 any other issued one (stopped),
  /// 10 + k for the k-th token not issued yet.
  public func token(_ token: LoadToken) -> Int32 {
    let raw = token.rawValue
    if raw == 0 { return 0 }
    if raw == currentToken { return 1 }
    if raw == preloadToken { return 2 }
    if raw == leavingToken { return 4 }
    if raw > issued { return 10 + Int32(clamping: raw - issued) }
    return 3
  }

  /// Appends a load: its token's code, and its item's when the token is the
  /// current load's or the preload's (a stopped load's item is never read).
  public func append(_ load: Load?, to key: inout [Int32]) {
    guard let load else { return key.append(-1) }
    let token = token(load.token)
    key.append(token)
    if token == 1 || token == 2 || token >= 10 { key.append(item(load.item)) }
  }

  /// The newest seek or watchdog id of a load: 0, 1, or 2 for any later one
  /// (the letters name the newest, the one before it and the next).
  public func counter(_ id: UInt32) -> Int32 { Int32(min(id, 2)) }

  /// A seek id a report names, relative to the current load's newest seek
  /// when it names the current load and that load is not stopped (the one
  /// before, the newest, the next…); ``ignoredSeek`` for a load that ignores
  /// every seek completion alike, whatever its id (the current load once
  /// stopped, a stopped load, the load fading out); clamped otherwise (the
  /// preload, a token not issued yet: its seeks start at 0 when it becomes
  /// current, so the id still matters).
  ///
  /// Not clamped for a load that ignores them: a held-back completion is
  /// relative while its load is current, and the current load's newest seek
  /// is kept as 0, 1 or more, so two states merged with newest seeks 2 and 3
  /// and a held completion of the one before (ids 1 and 2) would part again
  /// once the load is stopped (1 and 2 clamp apart), though both then ignore it alike.
  public func seek(_ id: SeekID, of load: Load) -> Int32 {
    let raw = load.token.rawValue
    guard raw == currentToken, !currentStopped else {
      let ignores = raw == currentToken || (raw != 0 && raw <= issued && raw != preloadToken)
      return ignores ? Self.ignoredSeek : counter(id.rawValue)
    }
    let difference = Int64(id.rawValue) - Int64(lastSeek)
    return 100 + Int32(max(-2, min(2, difference))) + (id.rawValue == 0 ? 10 : 0)
  }

  /// A time's class: 0, below the threshold, at it, past it, the duration the
  /// letters report (each one value in the letters), other values as themselves.
  public func time(_ time: MediaTime?) -> Int32 {
    guard let time else { return -1 }
    if forgetting.contains(.positions) { return 0 }
    for letter in Explorer.Time.allCases where letter.value(threshold) == time {
      return Int32(letter.rawValue)
    }
    return 1000 + Int32(clamping: time.milliseconds)
  }
}

/// A field the canonical snapshot can be told to leave out, to show that the
/// explorer never calls such a search complete (its differential check finds
/// two merged states that behave differently). Tests only.
package enum ExplorationField: Hashable, Sendable {
  /// Whether a seek is pending.
  case seekPending
  /// Every position and duration (all times alike).
  case positions
  /// Whether the system paused the current load.
  case systemPaused
  /// The reloads made for want of the network.
  case attempts
}

extension PlaybackState: ExplorableSnapshot {
  /// Playhead's state, renamed: every stored field (the queue's shape, which
  /// entries share a media, its modes, the session's stage (a failure
  /// without its reason), seek, timer, position class, duration, system pause and
  /// attempts, the preload with its stage and duration, the intent, the rate,
  /// the interruption, the newest token, the failure detail, the sleep timer,
  /// a restored entry's saved position, the volume, muted and ducked (only when
  /// not the defaults)). Left out: the
  /// configuration (one per search), media names, the ids issued (renamed by
  /// role; the sleep countdowns' not at all), a stopped load's seek and timer ids and duration (a stopped
  /// load is never sent to again: a reload is a new load), and a failed
  /// session's reason (written once, read by no rule: the public state shows
  /// it unchanged until the next load replaces the session).
  public func canonicalize(into key: inout [Int32], _ renaming: ExplorationRenaming) {
    key.append(-100)
    key.append(Int32(queue.entries.count))
    key.append(Int32(queue.current ?? -1))
    renaming.appendMediaPattern(queue.entries.map(\.media), to: &key)
    key.append(queue.repeatMode == .off ? 0 : queue.repeatMode == .one ? 1 : 2)
    if let shuffle = queue.shuffle {
      key.append(Int32(truncatingIfNeeded: shuffle.seed))
      for entry in shuffle.unshuffled { key.append(renaming.item(entry.item)) }
    } else {
      key.append(-1)
    }
    key += [playWhenReady ? 1 : 0, interrupted ? 1 : 0, renaming.rate(rate)]
    key.append(renaming.detail(failure))
    key.append(renaming.token(LoadToken(issuedLoads)))
    if let session {
      renaming.append(session.load, to: &key)
      var stopped = false
      switch session.stage {
      case .buffering: key.append(0)
      case .ready: key.append(1)
      case .stalled: key.append(2)
      case .ended: key.append(3)
      case .failed:
        // Not its reason: no rule reads a failed session's reason (the
        // reducer and the contract model only match `.failed`; it is written
        // when the load fails, shown as is, and replaced only with the load),
        // so states that differ in it alone have the same future.
        key.append(4)
        stopped = true
      case .waitingForNetwork:
        key.append(5)
        stopped = true
      }
      key.append(stopped ? -1 : renaming.counter(session.lastSeek.rawValue))
      key.append(renaming.forgetting.contains(.seekPending) ? 0 : session.seekPending ? 1 : 0)
      if case .failed = session.stage {
        key.append(-1)
      } else {
        key.append(renaming.counter(session.lastWatchdog.rawValue))
        key.append(
          session.timerPurpose == .loadWatchdog ? 0 : session.timerPurpose == .stallWatchdog ? 1 : 2
        )
      }
      key.append(renaming.time(session.position))
      key.append(stopped ? -1 : renaming.time(session.duration))
      key.append(renaming.forgetting.contains(.systemPaused) ? 0 : session.systemPaused ? 1 : 0)
      key.append(renaming.forgetting.contains(.attempts) ? 0 : Int32(session.networkAttempts))
      // A fade into a pause (issue 37): only when on, so that every other key stays.
      if session.fadingOut { key.append(-9) }
      // A live load's window (issue 38): only when known, likewise.
      if let window = session.window {
        key += [-10, renaming.time(window.start), renaming.time(window.end)]
      }
      // At its edge, or opened behind it: only when so, likewise.
      if session.playsAtEdge { key.append(-11) }
      if session.openedAtLiveEdge { key.append(-12) }
    } else {
      key.append(-1)
    }
    if let preload {
      renaming.append(preload.load, to: &key)
      switch preload.stage {
      case .buffering: key.append(0)
      case .ready: key.append(1)
      case .failed(let reason): key += [2, renaming.reason(reason)]
      case .live: key.append(3)
      }
      key.append(renaming.time(preload.duration))
    } else {
      key.append(-1)
    }
    renaming.append(sleepTimer, to: &key)
    key.append(resumePoint.map { renaming.item($0.item) } ?? -1)
    key.append(resumePoint.map { renaming.time($0.position) } ?? -1)
    renaming.appendVolume(volume, muted: muted, ducked: ducked, to: &key)
    if let leaving {
      // A load fading out into a stop and its timer (only then: every other key stays).
      key.append(-10)
      renaming.append(leaving.load, to: &key)
      key.append(renaming.counter(leaving.timer.rawValue))
    }
  }
}

extension ExplorationRenaming {
  /// Appends volume's state (issue 37): the user's volume in thousandths (not
  /// renamed: the letters reach 1 and 0.5, and the effective volume the
  /// commands carry is computed from it), whether muted and whether ducked.
  /// Nothing at the defaults (full, not muted, not ducked), so that every state
  /// a search without the volume letters reaches keeps its key, and its counts.
  func appendVolume(_ volume: Volume, muted: Bool, ducked: Bool, to key: inout [Int32]) {
    guard volume.thousandths != 1000 || muted || ducked else { return }
    key += [-8, volume.thousandths, muted ? 1 : 0, ducked ? 1 : 0]
  }

  /// Appends the armed sleep timer: its kind and the ends an `afterEntries`
  /// still waits for (a countdown's delay is one value in the letters). The
  /// countdown ids issued are left out: the letters name the armed one, the
  /// one before it and the next, and every expiry but the armed one's is
  /// stale alike.
  func append(_ timer: SleepTimer?, to key: inout [Int32]) {
    key.append(-7)
    switch timer {
    case nil: key.append(-1)
    case .after: key.append(0)
    case .endOfEntry: key.append(1)
    case .endOfQueue: key.append(2)
    case .afterEntries(let count): key += [3, Int32(clamping: count)]
    }
  }
}

extension Explorer {
  /// The harness's side of a state in canonical form: the contract model,
  /// which roles a letter can name, the held-back reports and what the player
  /// says about itself, renamed as ``PlaybackState``'s form is.
  static func canonicalize(
    _ model: ContractModel, held: [EngineReport], observation: FuzzObservation,
    into key: inout [Int32], _ renaming: ExplorationRenaming
  ) {
    key.append(Int32(model.entries.count))
    key.append(Int32(model.position ?? -1))
    renaming.appendMediaPattern(model.entries.map(\.media), to: &key)
    key.append(model.repeatMode == .off ? 0 : model.repeatMode == .one ? 1 : 2)
    if let shuffle = model.shuffle {
      key.append(Int32(truncatingIfNeeded: shuffle.seed))
      for entry in shuffle.list { key.append(renaming.item(entry.item)) }
    } else {
      key.append(-1)
    }
    key += [model.playWhenReady ? 1 : 0, model.interrupted ? 1 : 0, renaming.rate(model.rate)]
    key.append(renaming.token(LoadToken(model.issued)))
    if let current = model.current {
      renaming.append(current.load, to: &key)
      let stopped = current.stage.isStopped
      key += [
        Int32(current.stage.rawValue), stopped ? -1 : renaming.counter(current.lastSeek),
        renaming.forgetting.contains(.seekPending) ? 0 : current.seekPending ? 1 : 0,
        current.stage == .failed ? -1 : renaming.counter(current.lastWatchdog),
        current.started ? 1 : 0, renaming.time(.milliseconds(current.position)),
        stopped ? -1 : renaming.time(current.duration.map { .milliseconds($0) }),
        renaming.forgetting.contains(.systemPaused) ? 0 : current.systemPaused ? 1 : 0,
        renaming.forgetting.contains(.attempts) ? 0 : Int32(current.attempts),
        renaming.detail(current.failure),
      ]
      if current.fadingOut { key.append(-9) }
      if let window = current.window {
        key += [-10, renaming.time(window.start), renaming.time(window.end)]
      }
      if current.playsAtEdge { key.append(-11) }
      if current.openedAtLiveEdge { key.append(-12) }
    } else {
      key.append(-1)
    }
    if let preload = model.preload {
      renaming.append(preload.load, to: &key)
      key += [
        Int32(preload.stage.rawValue), renaming.time(preload.duration.map { .milliseconds($0) }),
      ]
      // A preload stopped for its window (issue 38): only then, so that every other key stays.
      if preload.live { key.append(-11) }
    } else {
      key.append(-1)
    }
    renaming.append(model.sleep, to: &key)
    key.append(model.resumePoint.map { renaming.item($0.item) } ?? -1)
    key.append(model.resumePoint.map { renaming.time(.milliseconds($0.position)) } ?? -1)
    renaming.appendVolume(model.volume, muted: model.muted, ducked: model.ducked, to: &key)
    if let leaving = model.leaving {
      key.append(-10)
      renaming.append(leaving.load, to: &key)
      key.append(renaming.counter(leaving.timer))
    }
    // Whether the letters can name a stopped load (all alike to the rules).
    key.append(previous(model) == nil ? 0 : 1)
    append(held: held, into: &key, renaming)
    key.append(-6)
    append(observation, into: &key, renaming)
  }

  /// Appends held-back reports, in order, renamed.
  static func append(
    held: [EngineReport], into key: inout [Int32], _ renaming: ExplorationRenaming
  ) {
    for report in held {
      key.append(-5)
      renaming.append(report.load, to: &key)
      switch report {
      case .ready(_, let duration): key += [0, renaming.time(duration)]
      case .stalled: key.append(1)
      case .resumed: key.append(2)
      case .reachedEnd: key.append(3)
      case .failed(_, let reason, _): key += [4, reason == .network ? 0 : 1]
      case .seekCompleted(let load, let id): key += [5, renaming.seek(id, of: load)]
      case .position(_, let time): key += [6, renaming.time(time)]
      case .pausedBySystem: key.append(7)
      case .window(_, let window):
        key += [8, renaming.time(window.start), renaming.time(window.end)]
      }
    }
  }

  /// Appends what a player says about itself, renamed (its queue fingerprint
  /// aside: the model's queue is in the key, and the oracle compares the two).
  static func append(
    _ observation: FuzzObservation, into key: inout [Int32], _ renaming: ExplorationRenaming
  ) {
    key.append(Int32(StateKind.allCases.firstIndex(of: observation.kind) ?? -1))
    key.append(observation.isPlaying ? 1 : 0)
    key.append(
      renaming.forgetting.contains(.seekPending)
        ? 0 : observation.seekPending.map { $0 ? 1 : 0 } ?? 2)
    if let loads = observation.loads {
      renaming.append(loads.current, to: &key)
      renaming.append(loads.preload, to: &key)
    } else {
      key.append(-3)
    }
    key.append(renaming.time(observation.position))
    key.append(observation.preloadReady.map { $0 ? 1 : 0 } ?? 2)
    key.append(observation.failure.map { renaming.detail($0) } ?? -1)
  }

  /// Appends a command, renamed: its kind, its load, its media as an entry of
  /// `media` (the queue before the step; -3 for another), its times by class,
  /// its rate and its seek id relative to the current load's newest.
  static func append(
    _ command: EngineCommand, media: [MediaID], into key: inout [Int32],
    _ renaming: ExplorationRenaming
  ) {
    switch command {
    case .load(let request), .preload(let request):
      if case .load = command { key.append(-20) } else { key.append(-21) }
      renaming.append(request.load, to: &key)
      key.append(Int32(media.firstIndex(of: request.media) ?? -3))
      key.append(renaming.time(request.start))
    case .start(let load, let rate):
      key.append(-22)
      renaming.append(load, to: &key)
      key.append(renaming.rate(rate))
    case .setRate(let load, let rate):
      key.append(-23)
      renaming.append(load, to: &key)
      key.append(renaming.rate(rate))
    case .pause(let load):
      key.append(-24)
      renaming.append(load, to: &key)
    case .seek(let load, let time, let id):
      key.append(-25)
      renaming.append(load, to: &key)
      key.append(renaming.time(time))
      key.append(renaming.seek(id, of: load))
    case .stop(let load):
      key.append(-26)
      renaming.append(load, to: &key)
    case .setVolume(let load, let volume, let ramp):
      key.append(-27)
      renaming.append(load, to: &key)
      key.append(volume.thousandths)
      key.append(renaming.time(MediaTime(ramp)))
    }
  }
}
