public import PlayerState

/// One processed event: what came in, the state before, and the transition.
public struct PlayerStep: Hashable, Sendable, CustomStringConvertible {
  /// 1 for the player's first processed event, then 2, 3, …: the processing order.
  public let sequence: UInt64
  /// The event.
  public let event: PlaybackEvent
  /// The state the event was reduced in.
  public let before: PlaybackState
  /// What the reducer returned; its commands were executed before this step was published.
  public let transition: Transition

  /// Describes a step.
  public init(sequence: UInt64, event: PlaybackEvent, before: PlaybackState, transition: Transition)
  {
    self.sequence = sequence
    self.event = event
    self.before = before
    self.transition = transition
  }

  /// The state after the event.
  public var after: PlaybackState { transition.next }

  /// What this step tells an app once: an entry change, the end of the queue,
  /// a flip of the play intent (none for an ignored event). Derived on demand
  /// from the step; allocates nothing.
  public var notifications: Notifications {
    // `transition.next`, read in place: `after` would return a copy of the state;
    // and through a function, which borrows the states an initializer would copy.
    Notifications.of(
      before: before, event: event, after: transition.next, ignored: transition.ignored)
  }

  /// The media of an item, from the state after the step or, for an entry it
  /// removed, the state before: for printing loads as `A#1`.
  public func media(of item: ItemID) -> MediaID? {
    transition.next.media(of: item) ?? before.media(of: item)
  }

  /// `#3 ready(A#1): buffering(A#1, autoplay) -> playing(A#1) [start(A#1)]`.
  public var description: String {
    let name = { (item: ItemID) in self.media(of: item) }
    var text = "#\(sequence) \(event.description(naming: name)): \(before) -> \(transition.next)"
    if !transition.commands.isEmpty {
      text += " [\(transition.commands.description(naming: name))]"
    }
    if let ignored = transition.ignored { text += " (ignored: \(ignored))" }
    return text
  }
}

/// An engine report or watchdog expiry that the player ignored, and why.
public struct IgnoredReport: Hashable, Sendable, CustomStringConvertible {
  /// The ignored event: an engine report or a watchdog expiry.
  public let event: PlaybackEvent
  /// Why it was ignored.
  public let reason: IgnoreReason
  /// The player's state when it arrived (and still after it).
  public let state: PlaybackState

  /// Describes an ignored report.
  public init(event: PlaybackEvent, reason: IgnoreReason, state: PlaybackState) {
    self.event = event
    self.reason = reason
    self.state = state
  }

  /// `ready(A#1) ignored in idle: stale load token`; `item1#1` when the state
  /// no longer holds the item's entry.
  public var description: String {
    "\(event.description(naming: state.media(of:))) ignored in \(state): \(reason)"
  }
}

/// How many events a player has processed and ignored.
public struct PlayerStatistics: Hashable, Sendable {
  /// Events reduced so far, accepted or not.
  public var processed: UInt64 = 0
  /// Engine reports and watchdog expiries ignored so far.
  public var ignoredReports: UInt64 = 0
  /// The most events that waited in the queue at once.
  public var maxQueued: Int = 0

  /// Zero counts.
  public init() {}
}
