import PlayerEngine
import PlayerState

/// Collects the players' steps as timeline entries, stamped with virtual
/// time, source and player; holds the watchdog timeout the script set; and
/// knows the media of every item a load named, so loads print as `A#1` even
/// after their entry left the queue.
///
/// Each player issues its own item ids (a restored player numbers its
/// entries from 1 again), so the names are kept per player. Steps of a
/// discarded player (a relaunch) are dropped; steps of a retired one (a
/// hand-off) are marked.
final class TimelineRecorder: Sendable {
  private struct State {
    var entries: [TimelineEntry] = []
    var injectedNext = false
    /// While set, every step recorded is marked with this source (a hand-off's own steps).
    var sourceOverride: TimelineSource?
    var watchdogTimeout: Duration? = ScenarioRunner.defaultWatchdog
    /// The media of every item a `load` or `preload` named, per player.
    var names: [Int: [ItemID: MediaID]] = [:]
    /// The media of every phantom item (any player's).
    var phantomNames: [ItemID: MediaID] = [:]
    /// The phantom item of each media a script named in a load that is not live.
    var phantoms: [MediaID: ItemID] = [:]
    /// The next phantom item: counting down from 2³² − 1, far above any issued item.
    var nextPhantom = UInt32.max
    /// Players that handed off: their steps are marked.
    var retired: Set<Int> = []
    /// Players a relaunch discarded: their steps, if any still came, are dropped.
    var discarded: Set<Int> = []
  }

  private let clock: VirtualClock
  private let state = Locked(State())

  init(clock: VirtualClock) { self.clock = clock }

  var watchdogTimeout: Duration? {
    get { state.withLock { $0.watchdogTimeout } }
    set { state.withLock { $0.watchdogTimeout = newValue } }
  }

  /// Marks the next recorded step as the script's injection. The runner
  /// sends it while the player is idle, so it is the first step processed.
  func markInjected() { state.withLock { $0.injectedNext = true } }

  /// The load a script's `A#N` means now: the current load, the preload, or the
  /// load a stop is fading out (``PlayerState/PlaybackState/leaving``, whose entry a
  /// `clear` may have removed: its media is then the one its `load` named) if one
  /// has token N and media A; otherwise a load of A's phantom item (an
  /// item no entry has) with token N. The machine decides on the token first
  /// (never issued, or not live, whatever the item), so a phantom changes no
  /// decision except making `A#N` differ from a live load of other media
  /// (`itemMismatch`), and it prints as `A#N`.
  func resolve(_ name: LoadName, in playback: PlaybackState, player: Int) -> Load {
    for load in [playback.session?.load, playback.preload?.load] {
      if let load, load.token.rawValue == name.token, playback.media(of: load.item) == name.media {
        return load
      }
    }
    if let leaving = playback.leaving?.load, leaving.token.rawValue == name.token {
      let media =
        playback.media(of: leaving.item)
        ?? state.withLock { $0.names[player]?[leaving.item] }
      if media == name.media { return leaving }
    }
    return Load(item: phantom(name.media), token: LoadToken(name.token))
  }

  /// The entry a script's `set-position A …` names now: the current entry if
  /// its media is A, else the first entry of A in play order, else A's phantom
  /// item (an item no entry has).
  func entry(_ media: MediaID, in playback: PlaybackState) -> ItemID {
    if let current = playback.currentEntry, current.media == media { return current.item }
    return playback.queue.entries.first { $0.media == media }?.item ?? phantom(media)
  }

  /// The phantom item of `media`, numbered on first use.
  private func phantom(_ media: MediaID) -> ItemID {
    state.withLock { state in
      if let phantom = state.phantoms[media] { return phantom }
      let item = ItemID(state.nextPhantom)
      state.nextPhantom -= 1
      state.phantoms[media] = item
      state.phantomNames[item] = media
      return item
    }
  }

  /// Marks every step recorded until the next call as from `source` (nil: their own).
  func overrideSource(_ source: TimelineSource?) {
    state.withLock { $0.sourceOverride = source }
  }

  /// Marks `player`'s steps from now on as those of a player that handed off.
  func retire(_ player: Int) { state.withLock { _ = $0.retired.insert(player) } }

  /// Drops `player`'s steps from now on (a relaunch discarded it), and its names.
  func discard(_ player: Int) {
    state.withLock { state in
      state.discarded.insert(player)
      state.names[player] = nil
    }
  }

  /// Forgets `player`, a player that handed off and was let go: nothing of it can come any more.
  func release(_ player: Int) {
    state.withLock { state in
      state.names[player] = nil
      state.retired.remove(player)
    }
  }

  /// `load` as printed for `player`: `A#1`, or `item3#1` for an item it never loaded.
  func name(_ load: Load, player: Int) -> String {
    state.withLock { state in
      load.description(naming: { state.names[player]?[$0] ?? state.phantomNames[$0] })
    }
  }

  /// Records a step of `player` (numbered from 1).
  func record(_ step: PlayerStep, player: Int) {
    let milliseconds = clock.milliseconds
    state.withLock { state in
      guard !state.discarded.contains(player) else { return }
      let source: TimelineSource
      if state.injectedNext {
        source = .script
        state.injectedNext = false
      } else if let override = state.sourceOverride {
        source = override
      } else {
        switch step.event.source {
        case .user: source = .user
        case .remote: source = .remote
        case .engine: source = .engine
        case .timer: source = .timer
        case .system: source = .system
        }
      }
      for command in step.transition.commands {
        switch command {
        case .load(let request), .preload(let request):
          // In place: the table of names is not copied for each step.
          if state.names[player]?[request.load.item] == nil {
            state.names[player, default: [:]][request.load.item] = request.media
          }
        default: break
        }
      }
      let names = state.names[player] ?? [:]
      let phantoms = state.phantomNames
      state.entries.append(
        TimelineEntry(
          milliseconds: milliseconds, source: source, event: step.event, before: step.before,
          after: step.after, commands: Array(step.transition.commands),
          ignored: step.transition.ignored, timer: step.transition.watchdog,
          sleepTimer: step.transition.sleepTimer, player: player,
          isRetired: state.retired.contains(player),
          naming: { names[$0] ?? phantoms[$0] }))
    }
  }

  func take() -> [TimelineEntry] {
    state.withLock { state in
      defer { state.entries.removeAll(keepingCapacity: true) }
      return state.entries
    }
  }
}
