/// Which load may still report: the one most recently loaded and not yet stopped.
///
/// An `AVPlayer` plays one item at a time, so at most one load is live, and "no report
/// after stop" needs only that one identity, not a growing set of stopped ones. `load`
/// makes a load live (and so ends any other), `stop` ends it; a report is admitted only
/// for the live load. The shell keeps this under a lock and updates it in `execute`
/// itself, before the command reaches the main queue, so once `execute(stop)` returns
/// nothing more is admitted for that load.
package struct LiveLoad<Identity: Equatable & Sendable>: Sendable {
  /// The load that may report, if any.
  package private(set) var current: Identity?

  /// No load yet.
  package init() {}

  /// `load(L)` was executed: `L` is live, any other load is over.
  package mutating func loaded(_ load: Identity) { current = load }

  /// `stop(L)` was executed: `L` is over (a stop for another load changes nothing).
  package mutating func stopped(_ load: Identity) {
    if current == load { current = nil }
  }

  /// Whether a report about `load` may be sent now.
  package func admits(_ load: Identity) -> Bool { current == load }
}
