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
  /// | `Metadata` | the current entry: its item id, its media's name, the duration when known |
  /// | `Position` | the elapsed anchor, extrapolated with the effective rate |
  /// | `CanGoNext`, `CanGoPrevious`, `CanSeek` | the available commands |
  /// - Parameter state: the state.
  public init(_ state: PlaybackState) {
    let status: MPRISPlaybackStatus
    switch state.kind {
    case .idle, .ended: status = .stopped
    case .failed: status = .paused
    case .buffering, .playing, .paused, .stalled, .suppressed, .waiting:
      status = state.playWhenReady && state.suppression == nil ? .playing : .paused
    }
    // TEMPORARY until the machine's nowPlaying/availableCommands land on main: the same
    // facts read from the state's parts.
    let entry = state.queue.currentEntry
    let session = state.session.flatMap { $0.load.item == entry?.item ? $0 : nil }
    self.init(
      status: status,
      track: entry.map { MPRISTrack(item: $0.item, title: $0.media.rawValue, length: session?.duration) },
      elapsed: session?.position ?? .zero,
      effectiveRate: state.isPlaying && session?.seekPending != true ? state.rate.multiplier : 0,
      rate: state.rate.multiplier,
      canGoNext: state.queue.current.map { $0 + 1 < state.queue.entries.count } ?? false,
      canGoPrevious: entry != nil,
      canSeek: session != nil)
  }
}

extension MPRISCommand {
  /// The event a player reduces for this command.
  ///
  /// TEMPORARY until `.remote(…)`, `toggle`, `skip(by:)` and `setPosition` land on main:
  /// `toggle`, `skip` and `setPosition` read the state and act (the race the machine's intents
  /// remove); the bridge's D-Bus plumbing is tested with it meanwhile.
  /// - Parameter state: the state the event will be reduced in.
  func event(in state: PlaybackState) -> PlaybackEvent? {
    switch self {
    case .resume: return .resume
    case .pause: return .pause
    case .toggle: return state.playWhenReady && state.session != nil && state.kind != .ended ? .pause : .resume
    case .stop: return .stop
    case .next: return .next
    case .previous: return .previous
    case .skip(let delta):
      let base = state.session?.position ?? .zero
      return .seek(to: .milliseconds(max(0, base.milliseconds + delta.milliseconds)))
    case .setPosition(let item, let time):
      return state.queue.currentEntry?.item == item ? .seek(to: time) : nil
    case .setRate(let rate): return .user(.setRate(rate))
    }
  }
}

extension Player: MPRISPlayer {
  /// What MPRIS shows of this player now.
  public var mprisView: MPRISView { MPRISView(state) }

  /// Sends the command's remote intent.
  /// - Parameter command: the command.
  public func mprisSend(_ command: MPRISCommand) {
    if let event = command.event(in: state) { send(event) }
  }

  /// The view after each accepted step (ignored ones change nothing), and whether it seeked.
  public func mprisUpdates() -> AsyncStream<MPRISUpdate> {
    let steps = self.steps(bufferingPolicy: .unbounded)
    return AsyncStream(bufferingPolicy: .unbounded) { continuation in
      let task = Task {
        for await step in steps where step.transition.ignored == nil {
          continuation.yield(MPRISUpdate(view: MPRISView(step.after), seeked: Self.seeked(step)))
        }
        continuation.finish()
      }
      continuation.onTermination = { _ in task.cancel() }
    }
  }

  /// Whether an accepted step moved the position within the current entry: a seek, or a
  /// `previous` that restarted the entry.
  static func seeked(_ step: PlayerStep) -> Bool {
    guard let item = step.after.queue.currentEntry?.item,
      step.before.queue.currentEntry?.item == item
    else { return false }
    switch step.event {
    case .user(.seek), .user(.previous): return step.after.session?.lastSeek != step.before.session?.lastSeek
    default: return false
    }
  }
}
