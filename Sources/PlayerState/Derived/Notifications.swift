/// Why the current entry changed (``PlayerNotification/Kind/entryChanged(from:to:reason:)``).
public enum EntryChangeReason: String, Hashable, Sendable, Codable, CaseIterable {
  /// The end of an entry advanced to another (gapless, repeat all wrapping). Media3's AUTO.
  case auto
  /// The end of an entry replays it (repeat one; repeat all over one entry): from == to.
  /// Media3's REPEAT.
  case `repeat`
  /// `next`, `previous` or `jump` went to another entry. Media3's SEEK.
  case skip
  /// A new queue, `play(M)`, or `clear` (to: nil). Media3's PLAYLIST_CHANGED.
  case queue
  /// The current entry was removed; the one that took its place (or none) is current.
  case removed
}

/// Why the user's play intent (``PlaybackState/playWhenReady``) flipped.
public enum PlayIntentReason: String, Hashable, Sendable, Codable, CaseIterable {
  /// An intent from the user (or the app).
  case user
  /// An intent from a remote control (``PlaybackEvent/remote(_:)``).
  case remote
  /// An interruption ended without the hint to resume: the platform's rule is to stay paused.
  case interruption
  /// The audio output went away.
  case routeLost
  /// The sleep timer stopped playback: its countdown ran out, or the entry it
  /// stops at ended (docs/machine.md, "Sleep timer").
  case sleepTimer
}

/// Something an app reacts to once: derived from one accepted step, exactly
/// once, never for an ignored event (``Notifications``).
public struct PlayerNotification: Hashable, Sendable, CustomStringConvertible {
  /// What happened.
  public enum Kind: Hashable, Sendable {
    /// The current entry changed (keyed on the entry's item id, never on its
    /// media: the same media twice in a queue is two entries), or an entry
    /// replayed itself at its end (`repeat`, from == to). Never on a seek
    /// inside an entry, nor on a `previous` that restarts it.
    case entryChanged(from: QueueEntry?, to: QueueEntry?, reason: EntryChangeReason)
    /// The last entry reached its end with repeat off. Never on stop, clear, skip or previous.
    case queueEnded
    /// The user's play intent flipped to `value`.
    case playIntentChanged(Bool, reason: PlayIntentReason)
  }

  /// What happened.
  public let kind: Kind
  /// Where the event that caused it came from.
  public let source: PlaybackEvent.Source

  /// A notification.
  public init(_ kind: Kind, source: PlaybackEvent.Source) {
    self.kind = kind
    self.source = source
  }

  /// `entryChanged(A -> B, skip)`, `queueEnded`, `playIntent(false, routeLost)`.
  public var description: String {
    switch kind {
    case .entryChanged(let from, let to, let reason):
      let name = { (entry: QueueEntry?) in entry.map(\.media.description) ?? "none" }
      return "entryChanged(\(name(from)) -> \(name(to)), \(reason.rawValue))"
    case .queueEnded: return "queueEnded"
    case .playIntentChanged(let value, let reason):
      return "playIntent(\(value), \(reason.rawValue))"
    }
  }
}

/// The notifications of one step, in their order: the entry change, then the
/// end of the queue, then the play intent's change. At most one of each, kept
/// inline: deriving them allocates nothing.
public struct Notifications: Hashable, Sendable, Sequence, CustomStringConvertible {
  /// The entry change, if the step made one.
  public let entryChanged: PlayerNotification?
  /// The end of the queue, if the step reached it.
  public let queueEnded: PlayerNotification?
  /// The play intent's change, if the step flipped it.
  public let playIntentChanged: PlayerNotification?

  /// No notifications.
  public static let none = Notifications(entryChanged: nil, queueEnded: nil, playIntentChanged: nil)

  private init(
    entryChanged: PlayerNotification?, queueEnded: PlayerNotification?,
    playIntentChanged: PlayerNotification?
  ) {
    self.entryChanged = entryChanged
    self.queueEnded = queueEnded
    self.playIntentChanged = playIntentChanged
  }

  /// The notifications of the step that reduced `event` from `before` to `after`.
  /// - Parameters:
  ///   - before: the state the event was reduced from.
  ///   - event: the event.
  ///   - after: the state after it.
  ///   - ignored: why the event was ignored, if it was: then there are none.
  public init(
    before: PlaybackState, event: PlaybackEvent, after: PlaybackState, ignored: IgnoreReason?
  ) {
    self = .of(before: before, event: event, after: after, ignored: ignored)
  }

  /// ``init(before:event:after:ignored:)`` as a function, which borrows the
  /// states where an initializer takes them owned: a caller that holds them
  /// in place (`PlayerStep.notifications`) then copies neither (~300
  /// instructions a step).
  package static func of(
    before: PlaybackState, event: PlaybackEvent, after: PlaybackState, ignored: IgnoreReason?
  ) -> Notifications {
    guard ignored == nil else { return .none }
    let source = event.source
    let from = before.currentEntry
    let to = after.currentEntry
    var entryChanged: PlayerNotification?
    var queueEnded: PlayerNotification?
    if case .engine(.reachedEnd(let load)) = event, before.session?.load == load {
      // An end accepted: the queue advanced (auto), replayed (repeat) or ended.
      if after.session?.stage == .ended {
        queueEnded = PlayerNotification(.queueEnded, source: source)
      } else {
        let reason: EntryChangeReason = from?.item == to?.item ? .repeat : .auto
        entryChanged = PlayerNotification(
          .entryChanged(from: from, to: to, reason: reason), source: source)
      }
    } else if from?.item != to?.item {
      // (An engine report that changes the entry without its end: a crossfade's start, `auto`.)
      entryChanged = PlayerNotification(
        .entryChanged(from: from, to: to, reason: Self.reason(for: event)), source: source)
    }
    var intent: PlayerNotification?
    if before.playWhenReady != after.playWhenReady, let reason = Self.intentReason(for: event) {
      intent = PlayerNotification(
        .playIntentChanged(after.playWhenReady, reason: reason), source: source)
    }
    return Notifications(
      entryChanged: entryChanged, queueEnded: queueEnded, playIntentChanged: intent)
  }

  /// Why an event that is not an entry's end changed the current entry.
  private static func reason(for event: PlaybackEvent) -> EntryChangeReason {
    if case .engine = event { return .auto }
    return switch event.intent {
    case .next, .previous, .jump: .skip
    case .remove: .removed
    default: .queue
    }
  }

  /// Why an event flipped the play intent; nil for watchdogs, which never do
  /// (the harness checks that every flip is notified). An engine report flips
  /// it only as the end of an entry a sleep timer stops at.
  private static func intentReason(for event: PlaybackEvent) -> PlayIntentReason? {
    switch event {
    case .user: .user
    case .remote: .remote
    case .system(.routeLost): .routeLost
    case .system(.sleepTimerExpired), .engine(.reachedEnd): .sleepTimer
    case .system: .interruption
    case .engine, .watchdogExpired: nil
    }
  }

  /// Whether there are none.
  public var isEmpty: Bool { entryChanged == nil && queueEnded == nil && playIntentChanged == nil }

  /// The notifications in order.
  public func makeIterator() -> Iterator { Iterator(notifications: self) }

  /// Walks the three slots in order, skipping empty ones; allocates nothing.
  public struct Iterator: IteratorProtocol {
    let notifications: Notifications
    var slot = 0

    /// The next notification, or nil after the last.
    public mutating func next() -> PlayerNotification? {
      while slot < 3 {
        slot += 1
        let next: PlayerNotification? =
          switch slot {
          case 1: notifications.entryChanged
          case 2: notifications.queueEnded
          default: notifications.playIntentChanged
          }
        if let next { return next }
      }
      return nil
    }
  }

  /// The notifications, comma-separated; empty with none.
  public var description: String { map(\.description).joined(separator: ", ") }
}

extension PlaybackState {
  /// The current entry, if any.
  public var currentEntry: QueueEntry? { queue.currentEntry }
}
