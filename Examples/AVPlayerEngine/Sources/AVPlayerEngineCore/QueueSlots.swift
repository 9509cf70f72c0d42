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
  }

  /// The load whose item is current.
  package private(set) var current: Identity?
  /// The preload whose item is queued after it.
  package private(set) var queued: Identity?

  /// Nothing loaded.
  package init() {}

  /// `load(L)`: `L`'s item replaces everything.
  package mutating func load(_ load: Identity) -> [Call] {
    current = load
    queued = nil
    return [.replaceAll(load), .advanceAtEnd(false)]
  }

  /// `preload(P)`: `P`'s item is queued after the current one (replacing a queued one).
  /// With nothing current there is nothing to follow: the caller loads it instead.
  package mutating func preload(_ load: Identity) -> [Call]? {
    guard current != nil else { return nil }
    var calls: [Call] = []
    if let old = queued { calls.append(.remove(old)) }
    queued = load
    return calls + [.insertAfterCurrent(load), .advanceAtEnd(true)]
  }

  /// `stop(L)`: the queued preload is removed; the current load makes the queued one
  /// current now (a skip), or clears the player. Any other load: nothing.
  package mutating func stop(_ load: Identity) -> [Call] {
    if load == queued {
      queued = nil
      return [.remove(load), .advanceAtEnd(false)]
    }
    guard load == current else { return [] }
    if let next = queued {
      current = next
      queued = nil
      return [.advance, .advanceAtEnd(false)]
    }
    current = nil
    return [.clear]
  }

  /// The current item played to its end: with a preload queued, the player has moved
  /// on to it by itself (`actionAtItemEnd` was `.advance`). Returns the new current load.
  package mutating func playedToEnd() -> Identity? {
    guard let next = queued else { return nil }
    current = next
    queued = nil
    return next
  }
}
