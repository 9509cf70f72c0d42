public import PlayerEngine
public import PlayerState

/// What the MPRIS server needs of a player: the seam between the D-Bus glue and Playhead.
///
/// `Player` conforms (below); a test can give the server a fake.
public protocol MPRISPlayer: AnyObject, Sendable {
  /// What MPRIS shows now.
  var mprisView: MPRISView { get }
  /// Sends a command as a remote intent; returns without waiting for the engine.
  func mprisSend(_ command: MPRISCommand)
  /// The view after each processed event, in processing order, and whether that event
  /// moved the position in a way the rate does not explain (MPRIS's `Seeked`).
  func mprisUpdates() -> AsyncStream<MPRISUpdate>
}

/// The view after one processed event.
public struct MPRISUpdate: Hashable, Sendable {
  /// The view after the event.
  public var view: MPRISView
  /// Whether the event moved the position (a seek, a skip, a replay, a restart): `Seeked`.
  public var seeked: Bool

  /// An update.
  /// - Parameters:
  ///   - view: the view after the event.
  ///   - seeked: whether the event moved the position.
  public init(view: MPRISView, seeked: Bool) {
    self.view = view
    self.seeked = seeked
  }
}

extension MPRISView {
  /// The view of a player's state.
  ///
  /// | property | from |
  /// | --- | --- |
  /// | `PlaybackStatus` | `Stopped` when idle or ended; `Playing` when the user wants to play and nothing suppresses it (buffering, stalled and waiting for the network included); otherwise `Paused` (paused, suppressed, failed) |
  /// | `Metadata` | `nowPlaying`: the entry's item id, its media's name, the duration when known; never a duration for a live stream (`nowPlaying.isLive`: no `mpris:length`) |
  /// | `Position` | `nowPlaying`'s elapsed anchor, extrapolated with its rate (0 unless playing) |
  /// | `Rate` | the user's rate |
  /// | `Volume` | the user's volume; 0 while muted; not lowered by a duck |
  /// | `CanGoNext`, `CanGoPrevious`, `CanSeek` | `availableCommands`: `next`, `previous`, and `seek` or `skip` (so `CanSeek` is false for a live stream without DVR, true with a window to seek in) |
  /// - Parameter state: the state.
  public init(_ state: PlaybackState) {
    let status: MPRISPlaybackStatus
    switch state.kind {
    case .idle, .ended: status = .stopped
    case .failed: status = .paused
    case .buffering, .playing, .paused, .stalled, .suppressed, .waiting:
      status = state.playWhenReady && state.suppression == nil ? .playing : .paused
    }
    let now = state.nowPlaying
    let available = state.availableCommands
    self.init(
      status: status,
      track: now.map {
        // The machine publishes no duration for a live load; the view does not rely on it.
        MPRISTrack(
          item: $0.entry.item, title: $0.entry.media.rawValue,
          length: $0.isLive ? nil : $0.duration)
      },
      elapsed: now?.elapsed ?? .zero,
      effectiveRate: now?.rate.multiplier ?? 0,
      rate: state.rate.multiplier,
      canGoNext: available.contains(.next),
      canGoPrevious: available.contains(.previous),
      canSeek: !available.isDisjoint(with: [.seek, .skip]),
      volume: state.muted ? 0 : state.volume.level)
  }
}

extension MPRISCommand {
  /// The remote intent this command is: `.remote(.toggle)` for `PlayPause`, and so on.
  /// The machine decides everything else when it reduces it (is there a next entry, is the
  /// entry of a `SetPosition` still current): nothing here reads the state.
  public var event: PlaybackEvent {
    switch self {
    case .resume: .remote(.resume)
    case .pause: .remote(.pause)
    case .toggle: .remote(.toggle)
    case .stop: .remote(.stop)
    case .next: .remote(.next)
    case .previous: .remote(.previous)
    case .skip(let delta): .remote(.skip(by: delta))
    case .setPosition(let item, let time): .remote(.setPosition(item, time))
    case .setRate(let rate): .remote(.setRate(rate))
    case .setVolume(let volume): .remote(.setVolume(volume))
    }
  }
}

extension Player: MPRISPlayer {
  /// What MPRIS shows of this player now.
  public var mprisView: MPRISView { MPRISView(state) }

  /// Sends the command's remote intent (``MPRISCommand/event``).
  /// - Parameter command: the command.
  public func mprisSend(_ command: MPRISCommand) { send(command.event) }

  /// The view after each accepted step (ignored ones change nothing), and whether it seeked.
  ///
  /// Bounded like the player's own streams: a server more than
  /// `Player.defaultBufferLimit` steps behind loses the oldest (each view is whole,
  /// so the newest one is still right; only a `Seeked` that old is lost).
  public func mprisUpdates() -> AsyncStream<MPRISUpdate> {
    let limit = Player.defaultBufferLimit
    let steps = self.steps(bufferingPolicy: .bufferingNewest(limit))
    return AsyncStream(bufferingPolicy: .bufferingNewest(limit)) { continuation in
      let task = Task {
        for await step in steps where step.transition.ignored == nil {
          continuation.yield(MPRISUpdate(view: MPRISView(step.after), seeked: Self.seeked(step)))
        }
        continuation.finish()
      }
      continuation.onTermination = { _ in task.cancel() }
    }
  }

  /// Whether an accepted step moved the position in a way the rate does not explain (MPRIS's
  /// `Seeked`): a seek, skip or `setPosition` (user or remote) that the machine sent on, a
  /// `previous` that restarted the entry, or a repeat-one replay.
  static func seeked(_ step: PlayerStep) -> Bool {
    guard step.transition.ignored == nil else { return false }
    if case .entryChanged(_, _, .repeat)? = step.notifications.entryChanged?.kind { return true }
    guard let intent = step.event.intent,
      let item = step.after.queue.currentEntry?.item,
      step.before.queue.currentEntry?.item == item
    else { return false }
    switch intent {
    case .seek, .skip, .setPosition, .previous:
      // Sent to the engine, or (with no load yet) kept as where the entry will start.
      return step.transition.commands.contains { if case .seek = $0 { true } else { false } }
        || step.after.nowPlaying?.elapsed != step.before.nowPlaying?.elapsed
    default: return false
    }
  }
}
