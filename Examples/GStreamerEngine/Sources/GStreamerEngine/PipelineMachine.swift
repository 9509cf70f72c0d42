import PlayerState

/// What the pipeline's thread must do, in order, after a command or a bus message.
enum PipelineAction: Hashable, Sendable {
  /// Send this report (unless the load was stopped meanwhile).
  case report(EngineReport)
  /// Set the pipeline to PLAYING (true) or PAUSED (false).
  case setPlaying(Bool)
  /// Send a flushing, accurate seek; if the pipeline refuses it, tell the machine
  /// (``PipelineMachine/seekRefused(_:)``).
  case seek(to: MediaTime, SeekID)
  /// Send a flushing, accurate seek to the load's start, after the preroll and before
  /// `ready`; if the pipeline refuses it, tell the machine
  /// (``PipelineMachine/startSeekRefused()``).
  case seekToStart(MediaTime)
}

/// The decisions of one load's pipeline thread, as a value: commands and bus messages
/// in, actions out. No GStreamer call, no lock; the thread performs what it returns.
///
/// It wraps ``PipelineProgress`` (bus message → report) and adds what the thread used to
/// decide inline: the user's intent (restored after a stall), a seek sent before the
/// preroll (performed right after it), and a seek the pipeline refuses (completed at
/// once where it is, so the machine is never left waiting for it).
///
/// A load from a start position (`load(L, from t)`) prerolls, seeks to `t`, and is
/// answered `ready` only once that seek is done: positions reported afterwards are from
/// `t`. A preroll that never completes fails the load with `timeout` when the thread
/// says so (``prerollTimedOut(after:)``).
struct PipelineMachine: Sendable {
  /// The load this pipeline plays; every report names it.
  let load: Load
  private(set) var progress = PipelineProgress()
  /// The user's intent: PLAYING unless paused. A stall pauses the pipeline without
  /// changing it, and the end of the stall restores it.
  private var playing = false
  /// A seek sent before the preroll finished, performed right after it.
  private var deferredSeek: (time: MediaTime, seek: SeekID)?
  /// The target of the newest seek sent to the pipeline, while it is pending.
  private var seekTarget: MediaTime?
  /// Where the load starts, while the seek there is still to be sent (nil from 0).
  private var startPosition: MediaTime?
  /// The seek to the start is sent: its ASYNC_DONE completes the preroll.
  private var seekingToStart = false
  /// A preload playing after a gapless switch, before its `start`: the machine does not
  /// take it for the playing load yet, so no position names it.
  private var awaitingStart = false
  /// The stream reached its end (EOS) and no `start` or `seek` came since: a live window is
  /// not reported for an ended load.
  private var ended = false
  /// The live window reported for this load (a new load reports its own from scratch).
  private(set) var liveWindow = PipelineLiveWindow()

  /// A machine for a pipeline that is prerolling.
  /// - Parameters:
  ///   - load: the load.
  ///   - start: where it starts (`LoadRequest.start`); past 0, it is sought before `ready`.
  init(load: Load, start: MediaTime = .zero) {
    self.load = load
    if start > .zero { startPosition = start }
  }

  /// A machine for a preload that became the pipeline's load: already
  /// answered `ready`. After a gapless switch it is already playing (as the
  /// load before it was), but reports no position before its `start`
  /// (`positionNamesPlayingLoad`); otherwise the pipeline prerolls it again,
  /// and that ASYNC_DONE answers nothing.
  init(preload: Load, playingAfterGaplessSwitch: Bool?) {
    load = preload
    progress.answered = true
    if let playing = playingAfterGaplessSwitch {
      progress.prerolled = true
      self.playing = playing
      awaitingStart = true
    }
  }

  /// The same load on a pipeline pointed at its media again (prerolling,
  /// paused): answered already; a seek still awaited (sent, or waiting for the
  /// preroll) is sent again after the new preroll, so it still completes.
  init(repointing machine: PipelineMachine) {
    load = machine.load
    progress.answered = true
    if let seek = machine.progress.pendingSeek, let time = machine.seekTarget {
      deferredSeek = (time, seek)
    } else {
      deferredSeek = machine.deferredSeek
    }
  }

  /// Whether the pipeline is playing this load: started, prerolled, not
  /// stalled nor failed.
  var isPlaying: Bool {
    playing && progress.prerolled && !progress.stalled && !progress.failed
  }

  /// Whether to report positions: playing, and, after a gapless switch, started by the
  /// machine (`start(P)`). Found by the engine fuzzer (seed 1): a 20 ms WAV rolled into
  /// its preload at once, whose positions were reported before `start(P)`.
  var reportsPositions: Bool { isPlaying && !awaitingStart }

  /// Whether to check for a live window: the load was answered `ready` (the window comes after
  /// it), is not failed nor ended, and, after a gapless switch, was started by the machine.
  /// Playing or paused alike: a paused live load must hear that its window moved past it.
  var reportsWindow: Bool {
    progress.answered && progress.prerolled && !progress.failed && !ended && !awaitingStart
  }

  /// Whether the load is live, decided by the first check after `ready` (nil before it) and
  /// kept: a pipeline in the middle of a seek may answer no duration for a moment, and an
  /// on-demand load must never report a window.
  private(set) var isLive: Bool?

  /// Whether the thread should query the pipeline for a window now: ``reportsWindow``, not
  /// known to be on demand, and no seek pending (a flushing seek's answers are not the
  /// stream's).
  var checksWindow: Bool {
    reportsWindow && isLive != false && progress.pendingSeek == nil && deferredSeek == nil
  }

  /// The `window(L, w)` report for what the pipeline's queries say, when the load is live and
  /// its window moved since the last one reported (``PipelineLiveWindow``); nil otherwise, and
  /// nil while ``reportsWindow`` is false. The first query after `ready` decides whether the
  /// load is live (``isLive``); a live load's BUFFERING messages are no stall from then on.
  mutating func windowReport(for query: LiveQuery) -> EngineReport? {
    guard reportsWindow else { return nil }
    if isLive == nil {
      isLive = query.isLive
      progress.live = query.isLive
    }
    guard isLive == true, let window = liveWindow.window(for: query) else { return nil }
    return .window(load, window)
  }

  /// The actions for `start`, `pause` or `seek`. `load` and `stop` are the engine's.
  mutating func apply(_ command: EngineCommand) -> [PipelineAction] {
    switch command {
    case .start:
      playing = true
      awaitingStart = false
      ended = false
      return progress.stalled ? [] : [.setPlaying(true)]
    case .pause:
      playing = false
      return [.setPlaying(false)]
    case .seek(_, let time, let seek):
      ended = false
      guard progress.prerolled else {
        deferredSeek = (time, seek)
        return []
      }
      progress.pendingSeek = seek
      seekTarget = time
      return [.seek(to: time, seek)]
    case .load, .preload, .setRate, .stop, .setVolume:
      // The engine handles these, and the pipeline's thread `setVolume` (PipelineVolume):
      // they never reach the machine.
      return []
    }
  }

  /// The actions for a bus message: its report, if any, then what the report implies.
  mutating func handle(_ message: BusMessage) -> [PipelineAction] {
    if message == .asyncDone, !progress.prerolled, !progress.failed {
      if let start = startPosition, deferredSeek == nil {
        // Prerolled at 0: seek to the start; its ASYNC_DONE answers the load. A seek sent
        // before the preroll is newer than the start and replaces it.
        startPosition = nil
        seekingToStart = true
        return [.seekToStart(start)]
      }
      startPosition = nil
      seekingToStart = false
    }
    let wasPrerolled = progress.prerolled
    let report = progress.report(for: message, of: load)
    var actions = report.map { [PipelineAction.report($0)] } ?? []
    if !wasPrerolled, progress.prerolled, let (time, seek) = deferredSeek {
      // The preroll is done: the seek sent before it goes now.
      deferredSeek = nil
      progress.pendingSeek = seek
      seekTarget = time
      actions.append(.seek(to: time, seek))
    }
    guard let report else { return actions }
    switch report {
    case .ready, .position:
      break
    case .stalled:
      if playing { actions.append(.setPlaying(false)) }
    case .resumed:
      if playing { actions.append(.setPlaying(true)) }
    case .reachedEnd:
      playing = false  // The stream is over: no position to report until a new `start`.
      ended = true
    case .seekCompleted, .failed, .pausedBySystem, .window:
      break
    }
    return actions
  }

  /// The pipeline refused the seek to the start: it plays from where it prerolled, and
  /// the preroll is done.
  mutating func startSeekRefused() -> [PipelineAction] {
    guard seekingToStart else { return [] }
    return handle(.asyncDone)
  }

  /// Whether the pipeline is prerolling this load (nothing answered the preroll yet):
  /// the thread then times it out (``prerollTimedOut(after:)``).
  var isPrerolling: Bool { !progress.prerolled && !progress.failed }

  /// The preroll did not complete within `timeout` (no ASYNC_DONE nor ERROR on the bus):
  /// GStreamer can lose an error during the preroll (decodebin filters the errors of an
  /// element while it brings it to PAUSED, and drops them if the state change itself
  /// succeeds; oggdemux on a truncated file fails exactly then, now and again), and the
  /// pipeline then waits forever. The load fails with `timeout`: one not yet answered, and
  /// also a preload answered `ready` whose pipeline prerolls it again (a `failed` after
  /// `ready` is allowed; without it the preload would never play nor end). Nothing once
  /// prerolled or failed.
  mutating func prerollTimedOut(after timeout: Duration) -> [PipelineAction] {
    guard isPrerolling else { return [] }
    progress.failed = true
    let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
    let detail = FailureDetail(
      domain: PipelineMachine.failureDomain, code: PipelineMachine.prerollTimeoutCode,
      message: "the preroll did not complete within \(seconds) s (no ASYNC_DONE nor ERROR)")
    return [.report(.failed(load, .timeout, detail: detail))]
  }

  /// The ``FailureDetail/domain`` of the failures the adapter decides itself.
  static let failureDomain = "playhead-gstreamer"
  /// The ``FailureDetail/code`` of a preroll that timed out.
  static let prerollTimeoutCode = 1

  /// The pipeline refused the seek: it completes at once where it is, if it is still
  /// the newest.
  mutating func seekRefused(_ seek: SeekID) -> [PipelineAction] {
    guard progress.pendingSeek == seek else { return [] }
    progress.pendingSeek = nil
    return [.report(.seekCompleted(load, seek))]
  }
}
