/// A promise of the engine contract that the machine relies on, checked by
/// ``EngineConformance``: breaking one fails the kit.
///
/// The raw value is the promise's name, as printed in a ``ConformanceReport``:
/// `loadAnswered`, `seekCompletionCarriesSeekID`… Cases are listed in the
/// order the kit checks them. What the machine tolerates instead is an
/// ``AbsorbedBreach``: the kit counts those as notes and passes the engine.
/// The whole contract is in `docs/engine-contract.md`.
public enum EnginePromise: String, CaseIterable, Hashable, Sendable, Codable,
  CustomStringConvertible
{
  /// `execute` returns within the timeout: it never blocks waiting for a
  /// report. A ``PlayerEngine/Player`` runs commands on the thread that drives
  /// it; a command that never returns wedges the player.
  case executeReturnsPromptly
  /// Every load is answered with a `ready` or a `failed` for that load. The
  /// machine leaves buffering only on an answer (or a watchdog expiry), and
  /// acts on the first one: later answers are absorbed
  /// (``AbsorbedBreach/repeatedReport``).
  case loadAnswered
  /// Every report names a load it was sent a command for: that token, with
  /// that media. A report with a wrong token or media is ignored by the
  /// machine, so the load it was meant for is never answered.
  case reportNamesIssuedLoad
  /// A `pausedBySystem` report names a load the kit started: the system can pause
  /// only what plays. Judged passively, on every such report the engine sends during
  /// the run (the kit cannot make the system pause; an engine that never reports one
  /// keeps it trivially). A report after the load's `stop` is absorbed
  /// (``AbsorbedBreach/reportAfterStop``); one for a load never started, a preload
  /// included, breaks it: the machine would ignore it as `unexpected`, but an engine
  /// that sends it has lost track of which load plays.
  case systemPauseNamesPlayingLoad
  /// A command sent from inside the engine's own report callback is executed
  /// and returns while the callback is still running. A
  /// ``PlayerEngine/Player`` does exactly this, on the reporting thread,
  /// whenever a report arrives while no other thread is driving it: `execute`
  /// must not wait for anything the reporting thread holds. Neither hold a
  /// lock of your own while you report, nor enter with `queue.sync` the serial
  /// queue you report from (there a `Player` traps: dispatch_sync on the
  /// current queue); enqueue with `queue.async`.
  ///
  /// The kit runs that command on a thread of its own while the callback
  /// waits, up to the timeout, so an adapter that breaks this is named, not
  /// crashed or deadlocked: the callback then returns, the command runs, and
  /// the run goes on. An adapter that runs inline when already on its queue
  /// (`DispatchSpecificKey`) and uses `queue.sync` otherwise is named too,
  /// although a `Player` runs it safely: from outside it waits for its queue
  /// exactly as a `queue.sync` adapter does, and the one call that tells them
  /// apart, `execute` on that queue, traps the other.
  case commandFromReportCallback
  /// Every `seekCompleted` carries a seek id the load was sent, and the newest
  /// seek of a load completes with its own id: the machine keeps a seek
  /// pending until its own id completes.
  case seekCompletionCarriesSeekID
  /// After a load is stopped while still buffering, the engine answers the
  /// next load. (Anything it still reports for the stopped load is absorbed:
  /// ``AbsorbedBreach/reportAfterStop``.)
  case stopDuringBufferingStops
  /// Commands naming a load that was never issued return and leave the engine
  /// working: the next load is answered.
  case unknownLoadHarmless
  /// Commands naming a load that was already stopped return and leave the
  /// current load working: its seek still completes.
  case stoppedLoadHarmless
  /// Every `preload` is answered with a `ready` or a `failed` naming the
  /// preload's own load (its token, its item), never the current load's.
  /// Checked only for engines with ``PlayerEngine/EngineCapabilities/preload``.
  case preloadAnswered
  /// A preload leaves the current load working: while the next entry
  /// preloads, the current load's seek still completes. Checked only for
  /// engines with ``PlayerEngine/EngineCapabilities/preload``.
  case preloadBesideCurrent
  /// A `position` report names the load that is playing:
  /// never a preload before its `start`, and after a switch to a preload (`stop` of the
  /// current load, `start` of the preload) the started preload, if the
  /// engine reports positions at all. Checked only for engines with
  /// ``PlayerEngine/EngineCapabilities/preload``.
  case positionNamesPlayingLoad
  /// After `stop` of a preload that was never started returns, the engine
  /// sends nothing naming it, and the current load keeps working: a preload
  /// the engine still reports on is one it may still roll into at the end of
  /// the current entry, which the machine cannot undo. (A plain load's late
  /// report is absorbed instead: ``AbsorbedBreach/reportAfterStop``.)
  /// Checked only for engines with ``PlayerEngine/EngineCapabilities/preload``.
  case preloadStopIsFinal
  /// A load of media the engine cannot play is answered with `failed`, not
  /// `ready`. Checked only when the configuration names unplayable media.
  case unplayableMediaFails
  /// Every `window` report is well formed: `0 ≤ start ≤ end`, `end` the live edge. Judged
  /// passively, on every window the engine sends during the run (an engine that sends none
  /// keeps it trivially: the kit lists it as checked from the first window on, or when it
  /// runs the live check). The machine ignores a window with `start < 0` or `end < start`
  /// (`invalidArgument`) and keeps the previous one, so a live load whose windows are
  /// malformed plays as on-demand media, or keeps a window the engine no longer holds, and
  /// its seeks are clamped to the wrong range. A window after the load's `stop` is absorbed
  /// (``AbsorbedBreach/reportAfterStop``); a well-formed window of a preload is no breach
  /// at all: the machine stops the preload and loads the entry at its live edge when its
  /// turn comes.
  case windowIsWellFormed
  /// A load of live media is answered `ready`, then reports a well-formed window. The
  /// machine learns that a load is live only from its window: without one it treats the
  /// load as on-demand (it shows progress, seeks anywhere, replays it from 0, preloads
  /// beside it). A load that reports only malformed windows breaks
  /// ``windowIsWellFormed`` instead. Checked only when the configuration names live media
  /// (``EngineConformance/Configuration/liveMedia``).
  case liveMediaReportsWindow
  /// A seek inside the window a live load reported completes with its own id, even if the
  /// window slid on meanwhile (the engine seeks to the nearest position it holds): the
  /// machine sends seeks of a DVR load only inside its last window and keeps them pending
  /// until their own id completes. Checked only when the configuration names live media
  /// and its window has a length (DVR): the machine never seeks a live load without one.
  case seekInWindowCompletes
  /// A load of live media at its live edge (`load(L, at live edge)`,
  /// ``PlayerState/LoadRequest/atLiveEdge``) is answered with `ready` or `failed`: the
  /// machine sends it to reload a load that fell behind its window, came back from a
  /// network wait or was retried, and leaves buffering only on an answer. Checked only
  /// when the configuration names live media.
  case liveEdgeLoadAnswered

  /// The promise's name, as in `loadAnswered`.
  public var description: String { rawValue }
}

/// A breach of the engine contract that the machine absorbs: the kit reports
/// it as a note with a count, and the engine still passes.
///
/// Each is harmless to a ``PlayerEngine/Player`` because every report carries
/// the identity of the load (and seek) it is about, and the machine ignores a
/// report that does not match its current load and stage. Real back ends do
/// these things; an adapter needs no lock held while reporting to avoid them.
public enum AbsorbedBreach: String, CaseIterable, Hashable, Sendable, Codable,
  CustomStringConvertible
{
  /// A report for a load after its `stop` returned: a late callback. The
  /// machine ignores it as `staleLoad` (or, if the load is still current,
  /// as `unexpected` for its stage). For a preload that was never started
  /// this is a broken promise instead: ``EnginePromise/preloadStopIsFinal``.
  case reportAfterStop
  /// A report for a load token the engine was sent commands for but never
  /// loaded. The machine ignores it (`neverIssuedLoad` or `staleLoad`).
  case reportForUnloadedToken
  /// A report the load already had: a second `ready` or `failed` (other than
  /// one `failed` after `ready`, a later failure), or a seek completed twice.
  /// The machine acts on the first and ignores the rest as `unexpected`.
  case repeatedReport
  /// A report sent synchronously from inside `execute`, on the thread running
  /// it. The player queues it and processes it right after the current
  /// transition, never recursively.
  case reportFromInsideExecute
  /// A `ready` with a duration for a live load: one that reports a well-formed window,
  /// before or after its `ready`. A live load has no duration (AVPlayer's is indefinite);
  /// the machine drops it at the load's first window, and keeps none from a `ready` that
  /// comes after one. Counted once per load.
  case durationForLiveLoad

  /// The breach's name, as in `reportAfterStop`.
  public var description: String { rawValue }
}
