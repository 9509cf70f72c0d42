package import PlayerState

/// What an `AVQueuePlayer` holds for the machine: the current item's load and, queued
/// behind it, the preload's. Commands and the player's own advance in, calls out.
///
/// `AVQueuePlayer` is the right tool for the machine's preload: `insert(_:after:)` queues
/// the next entry's item, which the player loads ahead, and at the end of the current item
/// (with `actionAtItemEnd` `.advance`) it moves on to it by itself, with no gap. The
/// machine learns of that end as `reachedEnd(A)` and answers `stop(A) start(P)`: by then
/// `P` is already current, so `stop(A)` has nothing left to do. A `stop` of the current
/// load *before* its end (a skip) makes the player advance now (`advanceToNextItem()`);
/// a `stop` of the queued preload removes its item. The player advances by itself only
/// while a live preload is queued (`actionAtItemEnd` is `.advance` then, `.pause`
/// otherwise), so a repeat-one replay (`seek` to zero, `start`) finds its item still there.
///
/// Volume: `AVPlayer.volume` is the player's, not an item's, and the engine contract gives each
/// load a volume of its own (full unless a `setVolume` named it). So each slot keeps its load's
/// volume, the player takes the current load's, and when the queued load becomes current (the
/// end, a skip) the player takes that one's. The machine sends every live load the same
/// effective volume, so in practice the preload's is the current one's; a load told nothing
/// plays at full even after one that was lowered.
///
/// A `setVolume` with a ramp: `AVPlayer.volume` has no ramp; an `AVAudioMix` on the current
/// item does (``AudioMixRamp``), on the item's media timeline. So a ramp of the current load
/// while its item plays and its audio tracks are known (the caller says so by passing
/// `playing:`) is ``Call/rampVolume(_:)``: the player's volume at 1 and the item's mix ramping
/// from the level heard now (where an earlier ramp has got to) to the target over the ramp's
/// length times the rate. Otherwise (paused, where media time does not move; a streamed item
/// whose tracks are not known, such as HLS, which takes no audio mix) a ramp is a step to the
/// target. A step after a ramp drops the mix (``Call/setVolume(_:)`` means: no mix, the
/// player's volume at the level).
package struct QueueSlots<Identity: Equatable & Sendable>: Sendable {
  /// What to do to the player, in order.
  package enum Call: Equatable, Sendable {
    /// Make `Identity`'s item the only one (a `load`): `removeAllItems()`, then insert it.
    case replaceAll(Identity)
    /// Queue `Identity`'s item right after the current one.
    case insertAfterCurrent(Identity)
    /// Remove `Identity`'s queued item.
    case remove(Identity)
    /// `advanceToNextItem()`: the queued item becomes current now.
    case advance
    /// `pause()` and `removeAllItems()`: nothing is live.
    case clear
    /// Set `actionAtItemEnd`: `.advance` (true) while a preload is queued, else `.pause`.
    case advanceAtEnd(Bool)
    /// Drop the current item's audio mix, if it has one, and set `AVPlayer.volume` (linear, 0
    /// silent, 1 full) to the current load's volume.
    case setVolume(Volume)
    /// Set `AVPlayer.volume` to 1 and the current item's audio mix to this ramp (on each of its
    /// audio tracks): the level heard moves from the ramp's start to its target.
    case rampVolume(AudioMixRamp)
  }

  /// The load whose item is current.
  package private(set) var current: Identity?
  /// The preload whose item is queued after it.
  package private(set) var queued: Identity?
  /// The volume the current load was told; full unless told.
  package private(set) var currentVolume = Volume.full
  /// The volume the queued preload was told; full unless told.
  package private(set) var queuedVolume = Volume.full
  /// What the player's `volume` was last set to: a new `AVQueuePlayer`'s is 1.
  private var playerVolume = Volume.full
  /// The current item's audio mix ramp, if one was set (the level heard is then its level;
  /// the player's volume is 1). A new item has none.
  package private(set) var mixRamp: AudioMixRamp?

  /// Nothing loaded.
  package init() {}

  /// `load(L)`: `L`'s item replaces everything.
  package mutating func load(_ load: Identity) -> [Call] {
    current = load
    queued = nil
    currentVolume = .full
    queuedVolume = .full
    mixRamp = nil
    return [.replaceAll(load), .advanceAtEnd(false)] + volumeCall()
  }

  /// `preload(P)`: `P`'s item is queued after the current one (replacing a queued one).
  /// With nothing current there is nothing to follow: the caller loads it instead.
  package mutating func preload(_ load: Identity) -> [Call]? {
    guard current != nil else { return nil }
    var calls: [Call] = []
    if let old = queued { calls.append(.remove(old)) }
    queued = load
    queuedVolume = .full
    return calls + [.insertAfterCurrent(load), .advanceAtEnd(true)]
  }

  /// `stop(L)`: the queued preload is removed; the current load makes the queued one
  /// current now (a skip), or clears the player. Any other load: nothing.
  package mutating func stop(_ load: Identity) -> [Call] {
    if load == queued {
      queued = nil
      queuedVolume = .full
      return [.remove(load), .advanceAtEnd(false)]
    }
    guard load == current else { return [] }
    if let next = queued {
      advance(to: next)
      return [.advance, .advanceAtEnd(false)] + volumeCall()
    }
    current = nil
    mixRamp = nil
    return [.clear]
  }

  /// The current item played to its end: with a preload queued, the player has moved
  /// on to it by itself (`actionAtItemEnd` was `.advance`).
  /// - Returns: the new current load and the calls that follow (its volume, if the player's
  ///   differs); nil when no preload was queued (the player stays paused at the end).
  package mutating func playedToEnd() -> (next: Identity, calls: [Call])? {
    guard let next = queued else { return nil }
    advance(to: next)
    return (next, volumeCall())
  }

  /// `setVolume(L, v, ramp: d)`: the current load's sets the player's volume now, or ramps
  /// the current item's audio mix (see the type's documentation); the queued preload's is kept
  /// for when it becomes current; any other load's does nothing.
  /// - Parameters:
  ///   - load: the load named.
  ///   - volume: its volume.
  ///   - ramp: the ramp asked for.
  ///   - playing: the current item's time and rate while it plays and takes an audio mix
  ///     (its audio tracks are known); nil otherwise, and a ramp is then a step.
  package mutating func setVolume(
    _ load: Identity, _ volume: Volume, ramp: Duration,
    playing: (time: MediaTime, rate: PlaybackRate)? = nil
  ) -> [Call] {
    if load == queued {
      queuedVolume = volume
      return []
    }
    guard load == current else { return [] }
    currentVolume = volume
    guard ramp > .zero, let playing else { return volumeCall() }
    let heard = mixRamp?.level(at: playing.time) ?? playerVolume
    guard heard != volume else { return volumeCall() }
    let planned = AudioMixRamp.planned(
      from: heard, to: volume, over: ramp, at: playing.time, rate: playing.rate)
    mixRamp = planned
    playerVolume = .full
    return [.rampVolume(planned)]
  }

  /// The queued load becomes current, with its volume (its item has no audio mix).
  private mutating func advance(to next: Identity) {
    mixRamp = nil
    current = next
    currentVolume = queuedVolume
    queued = nil
    queuedVolume = .full
  }

  /// Sets the player's volume to the current load's, unless it is there already with no mix
  /// on the item (a mix, even one that ended at this level, is dropped: a step ends a ramp).
  private mutating func volumeCall() -> [Call] {
    guard playerVolume != currentVolume || mixRamp != nil else { return [] }
    playerVolume = currentVolume
    mixRamp = nil
    return [.setVolume(currentVolume)]
  }
}
