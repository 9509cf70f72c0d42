public import PlayerEngine
public import PlayerState

/// The engine conformance kit: one contract test that a back-end author runs
/// against their own ``PlayerEngine/PlaybackEngine`` adapter.
///
/// The kit drives the engine directly, the way a ``PlayerEngine/Player`` does (one command
/// at a time; a command sent from a report callback runs while the callback
/// runs: a `Player` runs it on the reporting thread, the kit on a thread of its
/// own while the callback waits, so that an engine that would trap or deadlock
/// there is named instead), with load tokens it chooses, including tokens never loaded and
/// tokens already stopped, which a `Player` never sends. It records every
/// report through a ``PlayerEngine/ReportSink``, judges each one as it arrives, and returns
/// a ``ConformanceReport``. It imports no test framework: assert on the
/// report with whichever you use.
///
/// The report separates two kinds of breach, as `docs/engine-contract.md`
/// does. A broken ``EnginePromise`` is one the machine relies on (a load is
/// answered, reports name their load and seek, `execute` returns and accepts
/// a command from inside a report callback): the engine fails. An
/// ``AbsorbedBreach`` is one the machine ignores safely (late reports after
/// `stop`, repeated reports, reports from inside `execute`): the kit counts
/// it in ``ConformanceReport/notes`` and the engine passes. No adapter needs
/// to hold a lock while reporting to pass.
///
/// ```swift
/// @Test func myEngineConforms() async {
///   let kit = EngineConformance(.init(media: "file:///tmp/tone.wav"))
///   let report = await kit.run(against: MyEngine())
///   #expect(report.broken == [], "\(report)")
/// }
/// ```
///
/// The checks, in order (load tokens 1, 2, … are the kit's; all loads use
/// ``Configuration/media``):
/// 1. `load` is answered; from inside its `ready` callback the kit sends
///    `start`, which must return while the callback waits (it must not need
///    the lock or the serial queue the engine reports under); then `stop`.
/// 2. A seek sent while the load is still buffering, then one on its own,
///    then two back to back: each completion must carry an id that was sent,
///    and each awaited seek (the newest of the pair) must complete.
/// 3. `stop` right after `load`, while buffering: the next `load` must still
///    be answered.
/// 4. `start`, `pause`, `seek`, `stop` for a token never loaded, then for a
///    token already stopped while another load is current: they return, and
///    the next load is answered and the current load's seek still completes.
/// 5. For engines with ``PlayerEngine/EngineCapabilities/preload`` only: a
///    load plays (`start`) while a second load is preloaded beside it
///    (`preload`, answered for its own token); a seek of the playing load
///    still completes; then the switch a gapless advance makes (`stop` of the
///    first, `start` of the preload), after which position reports, if the
///    engine sends any, name the started preload; then a third load is
///    preloaded and stopped before it starts: nothing more may name it, and
///    the playing load's seek still completes.
/// 6. With ``Configuration/unplayableMedia``: its load is answered `failed`.
/// 7. With ``Configuration/liveMedia`` (tokens 11 and 12): its load is
///    answered `ready` and reports a well-formed window
///    (``EnginePromise/liveMediaReportsWindow``); if the window has a length
///    (DVR), a seek to its middle completes with its id
///    (``EnginePromise/seekInWindowCompletes``); then `stop`, and a load of it
///    at its live edge (`load(L#12, at live edge)`) is answered
///    (``EnginePromise/liveEdgeLoadAnswered``).
///
/// Throughout, reports for stopped or never-loaded tokens, repeated reports
/// and reports sent from inside `execute` are counted as notes; a `pausedBySystem`
/// must name a load the kit started (``EnginePromise/systemPauseNamesPlayingLoad``,
/// judged passively: the kit cannot make the system pause); every `window`
/// must be well formed, `0 ≤ start ≤ end` (``EnginePromise/windowIsWellFormed``,
/// judged passively, live media configured or not), and a `ready` with a
/// duration for a load that reports one is noted
/// (``AbsorbedBreach/durationForLiveLoad``); and every `failed`
/// report is kept, with the engine's ``PlayerState/FailureDetail``, in
/// ``ConformanceReport/failures``.
public struct EngineConformance: Sendable {
  /// How the kit waits for the engine.
  public enum Timing: Sendable {
    /// For engines that answer on their own, on their own threads (a real
    /// back end). Each expected report or `execute` return is awaited for up
    /// to `timeout` (a condition wait: it ends as soon as it holds), and
    /// reports that must not come are watched for during `quietPeriod` after
    /// each check: the only fixed wait, since absence takes time to see.
    /// Commands are executed on a Dispatch thread, so an engine that blocks
    /// in `execute` is reported, not hung on. The command sent from a report
    /// callback is waited for inside the callback for up to `timeout` too
    /// (``EnginePromise/commandFromReportCallback``).
    case realTime(timeout: Duration = .seconds(5), quietPeriod: Duration = .milliseconds(200))
    /// For deterministic engines (a spy, a fake over a virtual clock): the kit
    /// executes commands on the calling thread and, while a condition does
    /// not hold, calls `step` (deliver queued replies, advance the clock)
    /// until it holds or `step` returns false, meaning nothing is left to
    /// happen. No real time passes; the run is reproducible. (The command
    /// sent from a report callback runs on a thread of the kit's own while
    /// the callback waits, up to 5 real seconds if it blocks.)
    case driven(_ step: @Sendable () -> Bool)
  }

  /// What the kit loads and how it waits.
  public struct Configuration: Sendable {
    /// Media the engine can load and play: a URL, a path or a catalogue id,
    /// as the engine understands ``PlayerState/MediaID``. Every load of the kit uses it.
    public var media: MediaID
    /// Media the engine cannot play (a missing file), to check that its load
    /// fails; nil skips ``EnginePromise/unplayableMediaFails``.
    public var unplayableMedia: MediaID?
    /// Live media the engine can load (a live HLS stream, a radio): it must report a
    /// window after `ready`. Nil (the default) skips the live check
    /// (``EnginePromise/liveMediaReportsWindow``, ``EnginePromise/seekInWindowCompletes``,
    /// ``EnginePromise/liveEdgeLoadAnswered``); every window the engine sends is judged
    /// either way (``EnginePromise/windowIsWellFormed``).
    public var liveMedia: MediaID?
    /// Positions for the kit's seeks: each must be within the media.
    public var seekPositions: [MediaTime]
    /// How the kit waits.
    public var timing: Timing

    /// A configuration.
    /// - Parameters:
    ///   - media: media the engine can play.
    ///   - unplayableMedia: media the engine must fail to load, or nil.
    ///   - liveMedia: live media the engine can load, or nil (the default).
    ///   - seekPositions: where to seek, cycled through; `[0ms, 100ms]` by default.
    ///   - timing: how to wait; real time with a 5 s timeout by default.
    public init(
      media: MediaID, unplayableMedia: MediaID? = nil, liveMedia: MediaID? = nil,
      seekPositions: [MediaTime] = [.zero, .milliseconds(100)],
      timing: Timing = .realTime()
    ) {
      self.media = media
      self.unplayableMedia = unplayableMedia
      self.liveMedia = liveMedia
      self.seekPositions = seekPositions.isEmpty ? [.zero] : seekPositions
      self.timing = timing
    }
  }

  /// The configuration.
  public var configuration: Configuration

  /// A kit.
  /// - Parameter configuration: what to load and how to wait.
  public init(_ configuration: Configuration) {
    self.configuration = configuration
  }

  /// Runs every check against an engine and reports the broken promises.
  ///
  /// Use a fresh engine: the kit's tokens start at 1. The run stops early,
  /// with ``EnginePromise/executeReturnsPromptly`` broken, if `execute` does
  /// not return within the timeout (the engine is then wedged).
  /// - Parameter engine: the adapter under test.
  /// - Returns: the checked promises, the violations and a transcript.
  public func run(against engine: any PlaybackEngine) async -> ConformanceReport {
    let run = ConformanceRun(
      harness: ConformanceHarness(engine: engine, timing: configuration.timing),
      configuration: configuration)
    await run.all()
    return run.harness.report
  }
}
