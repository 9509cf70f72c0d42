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
/// plays at full even after one that was lowered. A `setVolume` with a ramp is a step to the
/// target: `AVPlayer.volume` has no ramp, and an `AVAudioMix` volume ramp runs on the item's
/// media timeline (a pause, a seek or a rate other than 1x moves it against the wall-clock
/// time the command means) and needs the item's audio tracks, which a streamed item does not
/// know before it loads.
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
    /// Set `AVPlayer.volume` (linear, 0 silent, 1 full) to the current load's volume.
    case setVolume(Volume)
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

  /// Nothing loaded.
  package init() {}

  /// `load(L)`: `L`'s item replaces everything.
  package mutating func load(_ load: Identity) -> [Call] {
    current = load
    queued = nil
    currentVolume = .full
    queuedVolume = .full
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

  /// `setVolume(L, v, ramp: d)`: the current load's sets the player's volume now (a ramp is a
  /// step: see the type's documentation); the queued preload's is kept for when it becomes
  /// current; any other load's does nothing.
  /// - Parameters:
  ///   - load: the load named.
  ///   - volume: its volume.
  ///   - ramp: the ramp asked for; the volume is set at once whatever it is.
  package mutating func setVolume(_ load: Identity, _ volume: Volume, ramp: Duration) -> [Call] {
    if load == queued {
      queuedVolume = volume
      return []
    }
    guard load == current else { return [] }
    currentVolume = volume
    return volumeCall()
  }

  /// The queued load becomes current, with its volume.
  private mutating func advance(to next: Identity) {
    current = next
    currentVolume = queuedVolume
    queued = nil
    queuedVolume = .full
  }

  /// Sets the player's volume to the current load's, unless it is there already.
  private mutating func volumeCall() -> [Call] {
    guard playerVolume != currentVolume else { return [] }
    playerVolume = currentVolume
    return [.setVolume(currentVolume)]
  }
}
