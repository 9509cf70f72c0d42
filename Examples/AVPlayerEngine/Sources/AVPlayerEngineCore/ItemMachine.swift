/// Decides, for one load's `AVPlayerItem`, which reports to send and which player calls
/// to make, from the commands it is given and the facts AVFoundation delivers.
///
/// One value per load: the shell makes it at `load(L)` and drops it at `stop(L)`, so
/// everything it emits is about that load. It is a value with `mutating` methods that
/// return actions; no locks, no I/O. The rules, each tested in `ItemMachineTests`:
///
/// - **ready** once, when the item's status is `.readyToPlay` and, for streamed media,
///   playback can keep up (`isPlaybackLikelyToKeepUp` or `isPlaybackBufferFull`) or the
///   player is already playing it. A local file is ready at `.readyToPlay`. So `ready`
///   means "`play()` will play", not "the playlist parsed".
/// - **seek** before `.readyToPlay` is deferred and run when the item becomes ready; a
///   newer deferred seek replaces an older one (the machine waits only for the newest).
/// - **seekCompleted** for the newest seek whatever `finished` says (AVFoundation ends a
///   seek with `false` when "another seek request or any other operation" interrupts
///   it); a superseded seek's completion is dropped.
/// - **stalled** when, after ready and while the user wants to play, `timeControlStatus`
///   waits with reason `.toMinimizeStalls`, or a playback-stalled notification arrives
///   while the player is not playing (file-based playback drops to `.paused`).
///   `.evaluatingBufferingRate` is not a stall.
/// - **resumed** only when `timeControlStatus` is `.playing` again, never from the
///   keep-up prediction alone; except while the user has paused during the stall, when
///   a player cannot show `.playing`: then playback being able to keep up ends it.
///   If the player dropped to `.paused` in a stall the user did not ask for, the machine
///   asks for `play()` once playback can keep up (not once an interruption came: after
///   it, playing again is the machine's `start`).
/// - **reachedEnd** each time the item plays to its end after ready (again after a seek back).
/// - **pausedBySystem** once, when `timeControlStatus` drops to `.paused` after ready
///   while the user wants to play and no command asked for it: not in a stall (nor with
///   the buffer unable to keep up: file-based playback drops to `.paused` when starved),
///   not at the item's end, not during an audio session interruption the shell saw
///   (that one reaches the player as the system's event). The next `start` plays again.
/// - **failed** once, with the error, from the item's status, the failed-to-play-to-end
///   notification or the player's status, before or after ready; then nothing more.
/// - **window** of a live item (`duration` `.indefinite`) after ready, from the newest
///   timing (``LiveWindowRule``), whenever it differs from the last one sent, each just
///   after a **position** with the item's current time (when it is a number). None
///   before ready (the duration is `.indefinite` until loaded), none at the item's end
///   (the broadcast ended), none for on-demand media.
package struct ItemMachine<Seek: Equatable & Sendable>: Sendable {
  /// Whether the media is streamed (not a local file): then `ready` waits for
  /// playback to be able to keep up.
  package let streamed: Bool

  /// How far the load has come.
  private enum Stage: Equatable {
    /// The item is not `.readyToPlay` yet: seeks wait.
    case opening
    /// The item is `.readyToPlay`, but streamed and not able to keep up yet: `ready` waits.
    case prerolling
    /// `ready` was reported.
    case ready
    /// `failed` was reported: nothing more, ever.
    case failed
  }

  private var stage = Stage.opening
  private var canKeepUp = false
  private var timeControl = TimeControl.paused
  private var wantsToPlay = false
  /// `stalled` was reported and `resumed` not yet.
  private var stalled = false
  /// A stalled notification came while the player was not playing.
  private var stallNotified = false
  /// `play()` was asked for since the stall began (by the user or to leave a stall the
  /// player dropped to `.paused` in).
  private var replayAsked = false
  /// The item played to its end and has not been seeked or played since: a
  /// `timeControlStatus` still waiting from before the end is not a stall.
  private var atEnd = false
  /// The newest seek sent to the player, awaiting its completion.
  private var pendingSeek: Seek?
  /// The audio session is interrupted (the shell said so).
  private var interrupted = false
  /// A seek that came before `.readyToPlay`, to send when the item is ready.
  private var deferredSeek: (position: MediaPosition, seek: Seek)?
  /// How a live item's timeline becomes a window.
  private let live: LiveWindowRule
  /// The item's newest timing.
  private var timing: ItemTiming?
  /// The window reported last.
  private var reportedWindow: SeekableSpan?

  /// A machine for a newly loaded item.
  /// - Parameters:
  ///   - streamed: true for media fetched over the network (HLS, HTTP).
  ///   - live: how a live item's seekable ranges become its window.
  package init(streamed: Bool, live: LiveWindowRule = LiveWindowRule()) {
    self.streamed = streamed
    self.live = live
  }

  /// Applies one of the machine's commands.
  /// - Returns: the actions to perform, in order.
  package mutating func execute(_ command: ItemCommand<Seek>) -> [ItemAction<Seek>] {
    guard stage != .failed else { return [] }
    var actions: [ItemAction<Seek>]
    switch command {
    case .start:
      wantsToPlay = true
      replayAsked = true  // this `play()` is the one a stall in `.paused` needs
      actions = [.play]
    case .pause:
      wantsToPlay = false
      actions = [.pause]
    case .seek(let position, let seek):
      guard stage != .opening else {
        deferredSeek = (position, seek)
        return []
      }
      pendingSeek = seek
      atEnd = false
      actions = [.seek(to: position, seek)]
    }
    return actions + settle()
  }

  /// Takes in one fact from AVFoundation.
  /// - Returns: the actions to perform, in order.
  package mutating func observe(_ fact: ItemFact<Seek>) -> [ItemAction<Seek>] {
    guard stage != .failed else { return [] }
    var actions: [ItemAction<Seek>] = []
    switch fact {
    case .itemStatus(.unknown):
      break
    case .itemStatus(.readyToPlay):
      guard stage == .opening else { break }
      stage = .prerolling
      if let (position, seek) = deferredSeek {
        deferredSeek = nil
        pendingSeek = seek
        actions.append(.seek(to: position, seek))
      }
    case .itemStatus(.failed(let error)), .failedToPlayToEnd(let error),
      .playerFailed(let error):
      stage = .failed
      return [.report(.failed(error))]
    case .bufferingChanged(let canKeepUp):
      self.canKeepUp = canKeepUp
    case .timeControl(let now):
      let before = timeControl
      timeControl = now
      if now == .playing {
        stallNotified = false
        atEnd = false
      }
      if now == .paused, before != .paused, pausedUnasked {
        wantsToPlay = false  // the player is paused; the machine's next `start` plays
        actions.append(.report(.pausedBySystem))
      }
    case .pausedAtEnd:
      atEnd = true
    case .interruption(let active):
      interrupted = active
      // Whether playback goes on after it is the machine's to say (`start`), not the
      // stall rule's: no `play()` of our own for a stall the interruption came into.
      if active { replayAsked = true }
    case .playbackStalled(let now):
      timeControl = now
      if now != .playing, stage == .ready, wantsToPlay { stallNotified = true }
    case .seekFinished(let seek, _):
      guard seek == pendingSeek else { break }  // superseded: the newer one will answer
      pendingSeek = nil
      actions.append(.report(.seekCompleted(seek)))
    case .timing(let timing):
      self.timing = timing
    case .playedToEnd:
      guard stage == .ready else { break }
      stalled = false
      stallNotified = false
      atEnd = true
      actions.append(.report(.reachedEnd))
    }
    return actions + settle()
  }

  /// Whether a drop to `.paused` now is one nobody asked for: after ready, the user
  /// wants to play, and it is not a stall, the end or an interruption the shell saw.
  private var pausedUnasked: Bool {
    stage == .ready && wantsToPlay && !stalled && !stallNotified && !atEnd && !interrupted
      && canKeepUp
  }

  /// The reports and calls that the state now calls for (level-triggered, so the
  /// order in which facts arrive on the main queue does not matter).
  private mutating func settle() -> [ItemAction<Seek>] {
    var actions: [ItemAction<Seek>] = []
    if stage == .prerolling, !streamed || canKeepUp || timeControl == .playing {
      stage = .ready
      actions.append(.report(.ready))
    }
    guard stage == .ready else { return actions }
    if !stalled, wantsToPlay, !atEnd,
      timeControl == .waiting(.toMinimizeStalls) || stallNotified
    {
      stalled = true
      replayAsked = false
      actions.append(.report(.stalled))
    }
    if stalled, timeControl == .playing || (!wantsToPlay && canKeepUp) {
      stalled = false
      stallNotified = false
      replayAsked = false
      actions.append(.report(.resumed))
    }
    if stalled, wantsToPlay, timeControl == .paused, canKeepUp, !replayAsked, !interrupted {
      replayAsked = true
      actions.append(.play)
    }
    if !atEnd, let timing, let window = live.window(for: timing), window != reportedWindow {
      reportedWindow = window
      if let now = timing.currentTime { actions.append(.report(.position(now))) }
      actions.append(.report(.window(start: window.start, end: window.end)))
    }
    return actions
  }
}
