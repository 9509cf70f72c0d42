public import PlayerEngine
public import PlayerState

/// Everything a player's model publishes, as one value: the flags a view binds
/// to, what is playing, the buttons to enable, the queue, the sleep timer, the
/// failure, the position and the newest notifications.
///
/// Both models read their properties from this value by dynamic member lookup
/// (`model.isPlaying` is `model.viewState.isPlaying`), and an observer of one
/// property is told only when that property changes. Built from a
/// ``/PlayerState/PlaybackState`` by the model on the main actor; every field
/// is derived from the state but the notifications, which the model numbers
/// as they arrive.
///
/// ```swift
/// let values = PlayerViewState(state: player.state)
/// print(values.kind, values.isPlaying, values.availableCommands)
/// ```
public struct PlayerViewState: Hashable, Sendable {
  /// The player's whole state when these values were taken: the escape hatch
  /// for what the other fields leave out. It changes with every position
  /// report; a view that reads it is redrawn that often.
  public internal(set) var state: PlaybackState
  /// The named state: `idle`, `buffering`, `playing`, `paused`, `stalled`,
  /// `ended`, `failed`, `suppressed` or `waiting`.
  public internal(set) var kind: StateKind
  /// Whether media is playing (AVPlayer's `timeControlStatus == .playing`).
  public internal(set) var isPlaying: Bool
  /// Whether playback waits for media: first buffering, a stall, or a wait
  /// for the network before a reload (Media3's `STATE_BUFFERING`): show a spinner.
  public internal(set) var isBuffering: Bool
  /// What the user asked for: play when ready (true) or stay paused. The
  /// play/pause button shows "pause" while this is true, as Media3's
  /// `shouldShowPlayButton` does, whether or not media is audible yet.
  public internal(set) var playWhenReady: Bool
  /// What a lock screen shows: the current entry, the elapsed anchor, the
  /// rate, the duration, the entry's index and the queue's length; nil with
  /// no current entry.
  public internal(set) var nowPlaying: NowPlaying?
  /// The current entry's duration, once the engine reported it; nil for a live stream.
  public internal(set) var duration: MediaTime?
  /// What kind of media the current load is (on demand, live, live with
  /// DVR); nil with no load. Show "LIVE" and a "go to live" button for
  /// `.live` and `.dvr`, a scrubber over ``liveWindow`` for `.dvr`.
  public internal(set) var streamKind: StreamKind?
  /// A live load's window as the engine last reported it (its end the live
  /// edge); nil for on-demand media.
  public internal(set) var liveWindow: LiveWindow?
  /// The commands that would do something now: enable a button when its
  /// command is here (`availableCommands.contains(.next)`).
  public internal(set) var availableCommands: AvailableCommands
  /// The queue: its entries in play order, the current position, the repeat
  /// mode and the shuffle.
  public internal(set) var queue: PlayQueue
  /// The rate the user asked for, kept across entries.
  public internal(set) var rate: PlaybackRate
  /// The volume the user asked for (0 silent, 1 full), kept across entries, while muted and
  /// through a duck: what a volume slider shows.
  public internal(set) var volume: Volume
  /// Whether the user muted playback: a mute button's state. The ``volume`` is kept, and
  /// comes back with `unmute()`.
  public internal(set) var isMuted: Bool
  /// The volume the engine plays at: 0 while muted, the user's volume lowered while the
  /// system ducks it (``/PlayerState/PlayerConfiguration/ducking``), else the user's volume.
  public internal(set) var effectiveVolume: Volume
  /// The armed sleep timer, if any; for ``/PlayerState/SleepTimer/afterEntries(_:)``,
  /// the ends still to go.
  public internal(set) var sleepTimer: SleepTimer?
  /// Why the current entry failed, while it is failed; nil otherwise (as
  /// Media3's `playerError`, cleared when the entry is loaded again).
  public internal(set) var error: PlaybackFailure?
  /// Where playback is in the current entry, now: ``progress``'s position,
  /// extrapolated from the engine's newest report while playing and moved by
  /// the model's ticks; without a current entry, 0.
  public internal(set) var position: MediaTime
  /// What a progress bar shows: the entry, the position, the duration, the
  /// rate the position moves at, and the fraction played
  /// (``/PlayerEngine/PlaybackProgress/fraction``); nil with no current entry.
  /// Read from the player at every update and at every tick while playing.
  public internal(set) var progress: PlaybackProgress?
  /// The newest notification of any kind, numbered.
  public internal(set) var lastNotification: NumberedNotification?
  /// The newest change of the current entry (`entryChanged`), numbered: an
  /// app that shows the entry's title, or logs plays, reacts to this.
  public internal(set) var lastEntryChange: NumberedNotification?
  /// The newest end of the queue (`queueEnded`), numbered.
  public internal(set) var lastQueueEnd: NumberedNotification?

  /// The values of `state`, with no notification yet.
  /// - Parameters:
  ///   - state: the player's state.
  ///   - progress: the player's progress (``/PlayerEngine/Player/progress``);
  ///     without it, the position is the state's last known one (the
  ///     engine's newest report, a seek's target, or a restored entry's
  ///     saved position).
  public init(state: PlaybackState, progress: PlaybackProgress? = nil) {
    self.state = state
    kind = state.kind
    isPlaying = state.isPlaying
    isBuffering = Self.buffering(state.kind)
    playWhenReady = state.playWhenReady
    nowPlaying = state.nowPlaying
    duration = state.session?.duration
    streamKind = state.streamKind
    liveWindow = state.session?.window
    availableCommands = state.availableCommands
    queue = state.queue
    rate = state.rate
    volume = state.volume
    isMuted = state.muted
    effectiveVolume = state.effectiveVolume
    sleepTimer = state.sleepTimer
    error = PlaybackFailure(state)
    position = progress?.position ?? Self.position(in: state)
    self.progress = progress
    lastNotification = nil
    lastEntryChange = nil
    lastQueueEnd = nil
  }

  /// These values with every field derived from `state` taken from it, and
  /// the notifications kept.
  func updated(from state: PlaybackState, progress: PlaybackProgress?) -> PlayerViewState {
    var next = PlayerViewState(state: state, progress: progress)
    next.lastNotification = lastNotification
    next.lastEntryChange = lastEntryChange
    next.lastQueueEnd = lastQueueEnd
    return next
  }

  /// Records a notification in the fields it belongs to.
  mutating func record(_ notification: NumberedNotification) {
    lastNotification = notification
    switch notification.notification.kind {
    case .entryChanged: lastEntryChange = notification
    case .queueEnded: lastQueueEnd = notification
    case .playIntentChanged: break
    }
  }

  private static func buffering(_ kind: StateKind) -> Bool {
    switch kind {
    case .buffering, .stalled, .waiting: true
    case .idle, .playing, .paused, .ended, .failed, .suppressed: false
    }
  }

  /// The last known position of the current load; without one, a restored
  /// entry's saved position; else 0.
  private static func position(in state: PlaybackState) -> MediaTime {
    state.session?.position ?? state.resumePoint?.position ?? .zero
  }
}

extension PlayerViewState {
  /// Calls `visitor` with the key path of every field, once each: the one
  /// list of the fields, from which a model tells each property's observers
  /// apart (``PlayerModel``).
  @MainActor
  static func visitFields(_ visitor: inout some ViewStateFieldVisitor) {
    visitor.visit(\.state)
    visitor.visit(\.kind)
    visitor.visit(\.isPlaying)
    visitor.visit(\.isBuffering)
    visitor.visit(\.playWhenReady)
    visitor.visit(\.nowPlaying)
    visitor.visit(\.duration)
    visitor.visit(\.availableCommands)
    visitor.visit(\.queue)
    visitor.visit(\.rate)
    visitor.visit(\.volume)
    visitor.visit(\.isMuted)
    visitor.visit(\.effectiveVolume)
    visitor.visit(\.sleepTimer)
    visitor.visit(\.error)
    visitor.visit(\.position)
    visitor.visit(\.progress)
    visitor.visit(\.lastNotification)
    visitor.visit(\.lastEntryChange)
    visitor.visit(\.lastQueueEnd)
  }
}

/// Something that looks at each field of a ``PlayerViewState`` with its type.
@MainActor
protocol ViewStateFieldVisitor {
  /// Looks at one field.
  mutating func visit<Value: Equatable>(_ field: KeyPath<PlayerViewState, Value>)
}

/// A ``/PlayerState/PlayerNotification`` as a published value: numbered in
/// arrival order (1, 2, 3… per model), so that the same notification twice
/// (`entryChanged(A -> B, skip)` after going back to A) is two different
/// values, and SwiftUI's `onChange(of:)` sees both.
public struct NumberedNotification: Hashable, Sendable, Identifiable, CustomStringConvertible {
  /// The notification's number in this model, from 1.
  public let id: Int
  /// The notification.
  public let notification: PlayerNotification

  /// A numbered notification.
  public init(id: Int, notification: PlayerNotification) {
    self.id = id
    self.notification = notification
  }

  /// `#2 entryChanged(A -> B, skip)`.
  public var description: String { "#\(id) \(notification)" }
}
