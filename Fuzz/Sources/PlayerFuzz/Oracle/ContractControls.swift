package import PlayerState

// What a remote control reads, derived by the model from its own state and
// docs/machine.md ("Remote controls"), never from the reducer's derivations
// (`PlaybackState.nowPlaying`, `availableCommands`, `Notifications`).

extension ContractModel {
  /// The rate a lock screen extrapolates with, in thousandths: the rate the
  /// engine plays the current load at (the user's; 1x at a live edge,
  /// ContractLive.swift) while it plays it, else 0.
  package var publishedRate: Int32 {
    guard engineIsPlaying, let current else { return 0 }
    return playingRate(of: current).thousandths
  }

  /// What the contract says a lock screen shows, given the elapsed anchor the
  /// runner tracked (``ContractAnchor``); nil with no current entry.
  package func nowPlaying(anchor: Int64) -> ContractNowPlaying? {
    guard let position else { return nil }
    let entry = entries[position]
    // The load's duration and anchor belong to the entry only while it is the one loaded.
    let live = current.flatMap { $0.load.item == entry.item ? $0 : nil }
    // Unloaded, a restored entry shows where its first `resume` loads it from.
    let saved = current == nil ? resumeFrom : 0
    return ContractNowPlaying(
      item: entry.item, media: entry.media, index: position, count: entries.count,
      duration: live?.duration, elapsed: live == nil ? saved : anchor, rate: publishedRate,
      window: live?.window)
  }

  /// The commands the contract offers: each exactly when the model would not
  /// ignore its intent as `noEffect` or `invalidPosition`. Each remote
  /// command is decided by one intent (docs/machine.md: play is `resume`,
  /// seek is tried with 0, skip with +15 s), whose reason is asked for
  /// directly, as `ignoreReason(for:)` does for that intent (ContractIgnore.swift):
  /// read every step, building each intent and going through the whole
  /// switch cost most of the model's step.
  package var availableCommands: AvailableCommands {
    var available: AvailableCommands = []
    func offer(_ command: AvailableCommands, _ reason: IgnoreReason?) {
      // A live load without DVR offers no seek nor skip (ContractLive.swift).
      if reason != .noEffect, reason != .invalidPosition, reason != .notSeekable {
        available.insert(command)
      }
    }
    offer(.play, resumeIgnoreReason)
    offer(.pause, pauseIgnoreReason)
    offer(.toggle, toggleIgnoreReason)
    offer(.stop, stopIgnoreReason)
    offer(.next, nextIgnoreReason)
    offer(.previous, previousIgnoreReason)
    // `skip(by:)` is ignored exactly when `seek(to: .zero)` is (ContractIgnore.swift).
    let seek = seekIgnoreReason(to: .zero)
    offer(.seek, seek)
    offer(.skip, seek)
    return available
  }
}

/// The now-playing information the contract expects (``ContractModel/nowPlaying(anchor:)``).
package struct ContractNowPlaying: Hashable, Sendable, CustomStringConvertible {
  /// The current entry's item id.
  package var item: ItemID
  /// Its media.
  package var media: MediaID
  /// Its index in play order.
  package var index: Int
  /// The queue's length.
  package var count: Int
  /// The duration, in milliseconds, once reported.
  package var duration: Int64?
  /// The elapsed anchor, in milliseconds.
  package var elapsed: Int64
  /// The published rate, in thousandths.
  package var rate: Int32
  /// The live window of a live load (ContractLive.swift): a lock screen shows
  /// it live, with no duration; nil for on-demand media.
  package var window: LiveWindow? = nil

  /// The first field `player` (a player's `NowPlaying`) differs in, in words, or nil.
  package func difference(from player: NowPlaying) -> String? {
    if player.entry.item != item || player.entry.media != media {
      return
        "entry: the player's \(player.entry.media)(\(player.entry.item)), the contract's \(media)(\(item))"
    }
    if player.index != index || player.count != count {
      return
        "index: the player's \(player.index + 1)/\(player.count), the contract's \(index + 1)/\(count)"
    }
    if player.duration?.milliseconds != duration {
      return "duration: the player's \(player.duration.map(\.description) ?? "none"), "
        + "the contract's \(duration.map { "\($0)ms" } ?? "none")"
    }
    if player.rate.thousandths != rate {
      return "rate: the player's \(player.rate.thousandths), the contract's \(rate)"
    }
    if player.window != window || player.isLive != (window != nil) {
      return
        "window: the player's \(player.isLive ? "live " : "")\(player.window.map(\.description) ?? "none"), "
        + "the contract's \(window.map { "live \($0)" } ?? "none")"
    }
    return nil
  }

  /// Whether `player` (a player's `NowPlaying`) is this one: no field
  /// ``difference(from:)`` compares differs, nor the elapsed anchor.
  package func matches(_ player: NowPlaying) -> Bool {
    player.entry.item == item && player.entry.media == media && player.index == index
      && player.count == count && player.duration?.milliseconds == duration
      && player.rate.thousandths == rate && player.elapsed.milliseconds == elapsed
      && player.window == window && player.isLive == (window != nil)
  }

  /// `A 1/2 at 0ms rate 1000`.
  package var description: String {
    "\(media) \(index + 1)/\(count) at \(elapsed)ms rate \(rate)"
      + (window.map { " live \($0)" } ?? duration.map { " of \($0)ms" } ?? "")
  }
}

/// The elapsed anchor as the contract tracks it across steps: the position at
/// the newest discontinuity (a load's start, a seek issued, a change of the
/// published rate); a position report never moves it.
package struct ContractAnchor: Hashable, Sendable {
  /// The anchor, in milliseconds (0 with no load).
  package private(set) var value: Int64 = 0

  /// What the step compares against.
  private var load: Load?
  private var lastSeek: UInt32 = 0
  private var rate: Int32 = 0
  /// The load's last known position and whether its window was known.
  private var position: Int64 = 0
  private var live = false

  /// The anchor of a model that starts as `model` with the given anchor (a
  /// start state's own anchor; 0 for a new player).
  package init(_ model: ContractModel, anchor: Int64 = 0) {
    value = model.current == nil ? 0 : anchor
    remember(model)
  }

  private mutating func remember(_ model: ContractModel) {
    load = model.current?.load
    lastSeek = model.current?.lastSeek ?? 0
    rate = model.publishedRate
    position = model.current?.position ?? 0
    live = model.current?.window != nil
  }

  /// After the model accepted an event: a discontinuity moves the anchor to
  /// the position.
  package mutating func step(_ model: ContractModel) {
    if let current = model.current {
      if current.load != load || current.lastSeek != lastSeek || model.publishedRate != rate {
        value = current.position
      } else if !live, current.window != nil, current.position != position {
        // The first window moved the position to the live edge, and the anchor
        // with it (ContractLive.swift).
        value = current.position
      }
    } else {
      value = 0
    }
    remember(model)
  }
}

/// One notification the contract expects or a player published, keyed on item ids.
package struct ContractNotification: Hashable, Sendable, CustomStringConvertible {
  /// What happened.
  package enum Kind: Hashable, Sendable {
    /// The current entry changed, or replayed (`repeat`).
    case entryChanged(from: ItemID?, to: ItemID?, reason: EntryChangeReason)
    /// The last entry reached its end with repeat off.
    case queueEnded
    /// The play intent flipped.
    case playIntentChanged(Bool, reason: PlayIntentReason)
  }

  /// What happened.
  package var kind: Kind
  /// The source of the event that caused it.
  package var source: PlaybackEvent.Source

  /// A notification.
  package init(_ kind: Kind, source: PlaybackEvent.Source) {
    self.kind = kind
    self.source = source
  }

  /// A player's notification, keyed on item ids.
  package init(_ notification: PlayerNotification) {
    source = notification.source
    switch notification.kind {
    case .entryChanged(let from, let to, let reason):
      kind = .entryChanged(from: from?.item, to: to?.item, reason: reason)
    case .queueEnded: kind = .queueEnded
    case .playIntentChanged(let value, let reason): kind = .playIntentChanged(value, reason: reason)
    }
  }

  /// `entryChanged(item1 -> item2, skip) from user`.
  package var description: String {
    let what: String
    switch kind {
    case .entryChanged(let from, let to, let reason):
      let name = { (item: ItemID?) in item.map(\.description) ?? "none" }
      what = "entryChanged(\(name(from)) -> \(name(to)), \(reason.rawValue))"
    case .queueEnded: what = "queueEnded"
    case .playIntentChanged(let value, let reason):
      what = "playIntent(\(value), \(reason.rawValue))"
    }
    return "\(what) from \(source.rawValue)"
  }
}

/// The notifications the contract expects from one accepted step, at most one
/// of each, in order: the entry change, the end of the queue, the intent's flip.
/// Trivial to store (no references).
package struct ContractNotifications: Hashable, Sendable {
  /// The entry change.
  package var entryChanged: ContractNotification?
  /// The end of the queue.
  package var queueEnded: ContractNotification?
  /// The intent's flip.
  package var playIntentChanged: ContractNotification?

  /// None.
  package static let none = ContractNotifications()

  private init() {}

  /// What the model expects from `event`, accepted, taking `before` to `after`
  /// (docs/machine.md, "Remote controls").
  package init(before: ContractModel, event: PlaybackEvent, after: ContractModel) {
    self.init(
      before: before.position.map { before.entries[$0].item },
      playWhenReady: before.playWhenReady, event: event, after: after)
  }

  /// ``init(before:event:after:)`` from what it reads of `before`: the
  /// current entry's item and the intent (the runner keeps these instead of
  /// a copy of the model). `after` is borrowed: an initializer takes its
  /// arguments owned, and the runner's model, passed owned, was copied whole
  /// on every accepted event.
  package init(
    before from: ItemID?, playWhenReady wanted: Bool, event: PlaybackEvent,
    after: borrowing ContractModel
  ) {
    let source = event.source
    let to: ItemID? = if let position = after.position { after.entries[position].item } else { nil }
    let ended = after.current?.stage == .ended
    let playWhenReady = after.playWhenReady
    if case .engine(.reachedEnd(let load)) = event, after.stoppedLeaving?.load != load {
      // An accepted end of the current load: the queue advanced (auto),
      // replayed (repeat) or ended. (A load fading out that ends is stopped: no change.)
      if ended {
        queueEnded = ContractNotification(.queueEnded, source: source)
      } else {
        entryChanged = ContractNotification(
          .entryChanged(from: from, to: to, reason: from == to ? .repeat : .auto), source: source)
      }
    } else if from != to {
      let reason: EntryChangeReason
      switch event.intent {
      case .next, .previous, .jump: reason = .skip
      case .remove: reason = .removed
      default: if case .engine = event { reason = .auto } else { reason = .queue }
      }
      entryChanged = ContractNotification(
        .entryChanged(from: from, to: to, reason: reason), source: source)
    }
    if wanted != playWhenReady {
      let reason: PlayIntentReason?
      switch event {
      case .user: reason = .user
      case .remote: reason = .remote
      case .system(.routeLost): reason = .routeLost
      // A countdown's expiry, or the end of the entry a sleep timer stops at.
      case .system(.sleepTimerExpired), .engine(.reachedEnd): reason = .sleepTimer
      case .system: reason = .interruption
      // The contract never flips the intent on any other report, nor on a watchdog.
      case .engine, .watchdogExpired: reason = nil
      }
      if let reason {
        playIntentChanged = ContractNotification(
          .playIntentChanged(playWhenReady, reason: reason), source: source)
      }
    }
  }

  /// The notifications in order.
  package var list: [ContractNotification] {
    [entryChanged, queueEnded, playIntentChanged].compactMap { $0 }
  }

  /// Whether `said` (one step's notifications from the player) is exactly these, in order.
  package func matches(_ said: [PlayerNotification]) -> Bool {
    var index = 0
    func next(_ expected: ContractNotification?) -> Bool {
      guard let expected else { return true }
      guard index < said.count, ContractNotification(said[index]) == expected else { return false }
      index += 1
      return true
    }
    return next(entryChanged) && next(queueEnded) && next(playIntentChanged) && index == said.count
  }
}

extension ContractNowPlaying? {
  /// Whether a player's now playing, `player`, is this one: both none, or
  /// both some and matching (``ContractNowPlaying/matches(_:)``).
  package func matches(_ player: NowPlaying?) -> Bool {
    switch self {
    case .none: if case .none = player { true } else { false }
    case .some(let expected): player.map { expected.matches($0) } ?? false
    }
  }
}
