public import PlayerEngine
public import PlayerState

/// The user's intents as methods, for both models (``PlayerModel``,
/// `PlayerModelObject`): each sends one ``/PlayerState/UserIntent`` to the
/// player and publishes the state it left at once.
///
/// The names are the ones AVPlayer, SwiftAudioEx and Media3 users reach for:
/// `play()`, `pause()`, `toggle()`, `seek(to:)`, `setRate(_:)`, `setVolume(_:)`,
/// `mute()`, `next()`, `setQueue(_:)`. The player's rules decide what each does (a `pause` while
/// buffering stays paused once ready; `next` at the end of the queue without
/// repeat does nothing); ``PlayerViewState/availableCommands`` says which
/// would do something now.
///
/// ```swift
/// model.setQueue(["intro.mp3", "chapter-1.mp3"])
/// model.seek(to: .seconds(30))
/// model.toggle()
/// ```
@MainActor
public protocol PlayerIntents: AnyObject {
  /// The player the intents go to.
  var player: Player { get }

  /// Sends any event to the player (a remote control's intent, a system
  /// event the app observed) and publishes the state it left.
  /// - Parameter event: the event, such as `.remote(.toggle)` or `.system(.routeLost)`.
  func send(_ event: PlaybackEvent)
}

extension PlayerIntents {
  /// Plays `media` from a position: a queue of that one media
  /// (``/PlayerState/UserIntent/play(_:from:)``). While it is already the only
  /// entry and not failed, it resumes instead.
  /// - Parameters:
  ///   - media: what to play.
  ///   - position: where to start; 0 by default.
  public func play(_ media: MediaID, from position: MediaTime = .zero) {
    send(.user(.play(media, from: position)))
  }

  /// Plays the current entry (AVPlayer's `play()`): the same as ``resume()``.
  public func play() { send(.user(.resume)) }

  /// Resumes the current entry; from its end, replays it; while idle with a
  /// queue, loads the current entry.
  public func resume() { send(.user(.resume)) }

  /// Pauses, or stays paused once buffering finishes.
  public func pause() { send(.user(.pause)) }

  /// The play/pause button: pauses when the user wants to play and media can
  /// play, else plays (retrying a failed entry).
  public func toggle() { send(.user(.toggle)) }

  /// Stops and unloads the current entry; the queue stays.
  public func stop() { send(.user(.stop)) }

  /// Goes to the next entry.
  public func next() { send(.user(.next)) }

  /// Goes to the previous entry, or back to the start of this one when past
  /// 3 s (``/PlayerState/PlayerConfiguration/previousThreshold``).
  public func previous() { send(.user(.previous)) }

  /// Moves playback to a position in the current entry.
  /// - Parameter position: where to go.
  public func seek(to position: MediaTime) { send(.user(.seek(to: position))) }

  /// Seeks a live stream with DVR to its live edge; the play intent is kept
  /// (``/PlayerState/UserIntent/goToLive``).
  public func goToLive() { send(.user(.goToLive)) }

  /// Seeks relative to the newest target: N calls land at p + N × `delta`,
  /// whatever the engine has completed. Negative goes back.
  /// - Parameter delta: how far, such as `.seconds(15)` or `.seconds(-15)`.
  public func skip(by delta: MediaTime) { send(.user(.skip(by: delta))) }

  /// Moves playback to a position in one entry, if that entry is current
  /// (MPRIS `SetPosition`).
  /// - Parameters:
  ///   - position: where to go.
  ///   - item: the entry the position belongs to.
  public func setPosition(_ position: MediaTime, of item: ItemID) {
    send(.user(.setPosition(item, position)))
  }

  /// Sets the playback rate, kept across entries.
  /// - Parameter rate: the rate, such as `PlaybackRate(thousandths: 1500)`.
  public func setRate(_ rate: PlaybackRate) { send(.user(.setRate(rate))) }

  /// Sets the user's volume (AVPlayer's `volume`, Media3's `setVolume`), kept across
  /// entries. A volume outside 0…1 is ignored; while muted it is kept for `unmute()`; a duck
  /// lowers what is heard, never this.
  ///
  /// ```swift
  /// Slider(value: Binding(get: { model.volume.level }, set: { model.setVolume(Volume($0)) }))
  /// ```
  /// - Parameter volume: the volume, such as `0.5` or `Volume(thousandths: 250)`.
  public func setVolume(_ volume: Volume) { send(.user(.setVolume(volume))) }

  /// Mutes playback; the user's volume is kept.
  public func mute() { send(.user(.setMuted(true))) }

  /// Unmutes playback, at the user's volume.
  public func unmute() { send(.user(.setMuted(false))) }

  /// Replaces the queue and loads the entry at `index` (Media3's
  /// `setMediaItems`); an empty list clears it.
  /// - Parameters:
  ///   - media: the new queue, in list order.
  ///   - index: the entry to start with, 0-based.
  ///   - position: where to start in it.
  ///   - playWhenReady: false loads it paused.
  public func setQueue(
    _ media: [MediaID], startingAt index: Int = 0, from position: MediaTime = .zero,
    playWhenReady: Bool = true
  ) {
    send(
      .user(.replaceQueue(media, start: index, from: position, playWhenReady: playWhenReady)))
  }

  /// Adds entries at the end of the queue.
  /// - Parameter media: what to add.
  public func append(_ media: [MediaID]) { send(.user(.append(media))) }

  /// Inserts entries so that the first ends at `index`.
  /// - Parameters:
  ///   - media: what to insert.
  ///   - index: where the first goes, 0-based in play order.
  public func insert(_ media: [MediaID], at index: Int) { send(.user(.insert(media, at: index))) }

  /// Removes the entry at a position in play order.
  /// - Parameter index: its 0-based position.
  public func remove(at index: Int) { send(.user(.remove(at: index))) }

  /// Moves the entry at `source` so that it ends at `destination`.
  /// - Parameters:
  ///   - source: its 0-based position now.
  ///   - destination: its 0-based position after the move.
  public func move(from source: Int, to destination: Int) {
    send(.user(.move(from: source, to: destination)))
  }

  /// Makes the entry at a position current (SwiftAudioEx's `jumpToItem`,
  /// Media3's `seekTo(index, position)`).
  /// - Parameters:
  ///   - index: its 0-based position in play order.
  ///   - position: where to start in it.
  public func jump(to index: Int, from position: MediaTime = .zero) {
    send(.user(.jump(to: index, from: position)))
  }

  /// Sets what happens at the end of an entry: `off`, `one` or `all`.
  /// - Parameter mode: the repeat mode.
  public func setRepeatMode(_ mode: RepeatMode) { send(.user(.setRepeat(mode))) }

  /// Shuffles the queue with a seed (the current entry first), or restores
  /// the list order with nil.
  /// - Parameter seed: the shuffle's seed; nil turns shuffling off.
  public func setShuffle(seed: UInt64?) { send(.user(.setShuffle(seed: seed))) }

  /// Empties the queue and stops.
  public func clear() { send(.user(.clear)) }

  /// Loads the failed entry again, at its last known position.
  public func retry() { send(.user(.retry)) }

  /// Arms a sleep timer, replacing any armed one, or turns it off with nil.
  /// - Parameter timer: when to stop, such as `.after(.seconds(1800))` or `.endOfEntry`.
  public func setSleepTimer(_ timer: SleepTimer?) { send(.user(.setSleepTimer(timer))) }
}
