import PlayerEngine
import PlayerState

/// Collects the player's steps as timeline entries, stamped with virtual
/// time and source; holds the watchdog timeout the script set; and knows the
/// media of every item a load named, so loads print as `A#1` even after
/// their entry left the queue.
final class TimelineRecorder: Sendable {
  private struct State {
    var entries: [TimelineEntry] = []
    var injectedNext = false
    var watchdogTimeout: Duration? = ScenarioRunner.defaultWatchdog
    /// The media of every item a `load` or `preload` named, and of every phantom item.
    var names: [ItemID: MediaID] = [:]
    /// The phantom item of each media a script named in a load that is not live.
    var phantoms: [MediaID: ItemID] = [:]
    /// The next phantom item: counting down from 2³² − 1, far above any issued item.
    var nextPhantom = UInt32.max
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

  /// The load a script's `A#N` means now: the current load or the preload if
  /// one has token N and media A; otherwise a load of A's phantom item (an
  /// item no entry has) with token N. The machine decides on the token first
  /// (never issued, or not live, whatever the item), so a phantom changes no
  /// decision except making `A#N` differ from a live load of other media
  /// (`itemMismatch`), and it prints as `A#N`.
  func resolve(_ name: LoadName, in playback: PlaybackState) -> Load {
    for load in [playback.session?.load, playback.preload?.load] {
      if let load, load.token.rawValue == name.token, playback.media(of: load.item) == name.media {
        return load
      }
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
      state.names[item] = media
      return item
    }
  }

  func record(_ step: PlayerStep) {
    let milliseconds = clock.milliseconds
    state.withLock { state in
      let source: TimelineSource
      if state.injectedNext {
        source = .script
        state.injectedNext = false
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
          if state.names[request.load.item] == nil {
            state.names[request.load.item] = request.media
          }
        default: break
        }
      }
      let names = state.names
      state.entries.append(
        TimelineEntry(
          milliseconds: milliseconds, source: source, event: step.event, before: step.before,
          after: step.after, commands: Array(step.transition.commands),
          ignored: step.transition.ignored, timer: step.transition.watchdog,
          naming: { names[$0] }))
    }
  }

  func take() -> [TimelineEntry] {
    state.withLock { state in
      defer { state.entries.removeAll(keepingCapacity: true) }
      return state.entries
    }
  }
}
