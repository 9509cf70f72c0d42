/// Which loads may still report: the one most recently loaded and the preload queued
/// after it, while not stopped.
///
/// An `AVQueuePlayer` holds the current item and at most one queued preload, so "no
/// report after stop" needs only those two identities, not a growing set of stopped
/// ones. `load` makes a load live (and ends every other), `preload` adds one, `stop`
/// ends one; a report is admitted only for a live load. The shell keeps this under a
/// lock and updates it in `execute` itself, before the command reaches the main queue,
/// so once `execute(stop)` returns nothing more is admitted for that load.
package struct LiveLoad<Identity: Equatable & Sendable>: Sendable {
  /// The loads that may report: at most the current one and its preload.
  package private(set) var live: [Identity] = []

  /// The load most recently loaded or preloaded and still live, if any.
  package var current: Identity? { live.last }

  /// No load yet.
  package init() {}

  /// `load(L)` was executed: `L` is live, every other load is over.
  package mutating func loaded(_ load: Identity) { live = [load] }

  /// `preload(P)` was executed: `P` is live beside the current load (a preload queued
  /// before it is over: the machine keeps one).
  package mutating func preloaded(_ load: Identity) {
    live = Array(live.prefix(1)) + [load]
  }

  /// `stop(L)` was executed: `L` is over (a stop for another load changes nothing).
  package mutating func stopped(_ load: Identity) {
    live.removeAll { $0 == load }
  }

  /// Whether a report about `load` may be sent now.
  package func admits(_ load: Identity) -> Bool { live.contains(load) }
}
