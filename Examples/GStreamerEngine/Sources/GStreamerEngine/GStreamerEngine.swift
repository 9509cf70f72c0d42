import CGStreamer
public import PlayerEngine
public import PlayerState
import Synchronization

/// A ``PlaybackEngine`` over GStreamer's `playbin`: one pipeline per load,
/// and gapless queue playback through playbin's `about-to-finish` (it
/// declares ``EngineCapabilities/preload``). It ramps volume on the pipeline's
/// own thread, so it declares ``EngineCapabilities/volumeRamp`` too: a player
/// made with `PlayerConfiguration(fade:)` fades the user's pause, resume and stop,
/// and one made with `PlayerConfiguration(crossfade:)` crossfades: two playbins play
/// at once, one ramping up while the other ramps down.
///
/// | command | GStreamer |
/// | --- | --- |
/// | `load(L)` | a new playbin for `L`'s media (a URI, or a file path made into a `file://` URI), set to PAUSED: it prerolls |
/// | `load(L, from t)` | the same, then a flushing, accurate seek to `t` once prerolled; `ready(L)` comes after that seek, and positions are from `t` |
/// | `load(L, at live edge)` | the same as from 0, with no seek: a live stream prerolls at its default position, which for HLS (hlsdemux) is the live edge |
/// | `preload(P)` | `P`'s URI is kept for the newest load's pipeline: at its `about-to-finish`, playbin goes on with it, no gap |
/// | `preload(P, from t)`, `t` > 0, or any preload with ``Options/prerollsPreloads`` | a pipeline of its own, as a `load` from `t` (no gapless switch into the middle of a stream) |
/// | `start(L)` | PLAYING |
/// | `start(P)` of a preload queued in a pipeline whose load is still live (a crossfade) | `P` leaves that pipeline for a playbin of its own, made at `P`'s volume and set PLAYING as it prerolls; the load before it plays on in the old one |
/// | `pause(L)` | PAUSED |
/// | `seek(L, t, s)` | a flushing, accurate seek to `t` (after the preroll, if sent before it) |
/// | `setRate(L, r)` | ignored: this example plays at 1x |
/// | `setVolume(L, v)` | playbin's `volume` property (linear) set to `v` while `L` is the pipeline's load; for the preload queued behind it, kept and set at the switch. A new load plays at 1 unless told |
/// | `setVolume(L, v, ramp: d)` | the same, stepped from where the volume is to `v` over `d` by the pipeline's thread (at each wake, every ``Options/pollInterval`` at most) |
/// | `stop(L)` | no more reports for `L`; once no load of its pipeline is live, the pipeline goes to NULL and is released. Stopping the current load with a preload queued points the pipeline at the preload (READY, its URI, PAUSED) |
///
/// | bus message (on `L`'s pipeline) | report |
/// | --- | --- |
/// | first ASYNC_DONE (preroll done; for a load from `t`, the one after the seek to `t`) | `ready(L)`; with ``Options/reportsDuration``, `ready(L, duration: d)` when the pipeline knows `d` |
/// | (no ASYNC_DONE nor ERROR within ``Options/prerollTimeout`` of a preroll's start, or of its last BUFFERING) | `failed(L, timeout)`, detail domain `playhead-gstreamer`, code 1 (also for a preload answered `ready` whose pipeline prerolls it again) |
/// | later ASYNC_DONE after a seek | `seekCompleted(L, newest seek id)` |
/// | BUFFERING < 100% after the preroll | `stalled(L)` (the pipeline pauses while it rebuffers) |
/// | BUFFERING 100% while stalled | `resumed(L)` |
/// | EOS | `reachedEnd(L)` |
/// | STREAM_START after `about-to-finish` took the preload `P` | `reachedEnd(L)`; from then on the pipeline's reports name `P` |
/// | ERROR | `failed(L, reason)`, see ``GStreamerError/reason`` |
/// | (a position query every ``Options/positionInterval`` while playing) | `position(L, t)` |
/// | (after `ready`, playing or paused: the duration and seeking queries every ``Options/positionInterval`` and at each DURATION_CHANGED, for a load whose pipeline knows no duration) | `window(L, start…end)` when it moved: the seekable range, or `p…p` at the position `p` when the stream cannot seek; nothing for on-demand media |
///
/// A load is live when its prerolled pipeline knows no duration (AVPlayer's rule: an indefinite
/// duration is live), decided once, at the first check after `ready`. A live pipeline is never
/// paused on BUFFERING (GStreamer's advice for live pipelines): its BUFFERING messages are no
/// stall. No GStreamer error means "behind the live window": hlsdemux goes on from the
/// segments the server still has, so the machine sees the fall from the window itself.
///
/// A preload is answered `ready(P)` as soon as its URI is kept (a `file://`
/// URI whose file is missing is answered `failed(P, notFound)`): playbin
/// cannot preroll a second stream beside the first, so a decoding error in
/// `P` shows only once it plays, as `failed(P, …)`. With
/// ``Options/prerollsPreloads``, every preload prerolls in a pipeline of its
/// own instead and is answered by that preroll, as a load is.
///
/// Each load is identified by its pipeline and, after a gapless switch, by
/// the pipeline's current stream: every report names the load it is about.
/// Commands naming a load that is not live are ignored.
///
/// ```swift
/// let player = Player(engine: GStreamerEngine())
/// player.send(.queue(["/path/to/one.wav", "/path/to/two.wav"]))  // gapless
/// ```
public final class GStreamerEngine: PlaybackEngine {
  /// How pipelines are built and watched.
  public struct Options: Sendable {
    /// The element factory for audio output: `fakesink` (the default: no sound
    /// device needed, as in CI) or `autoaudiosink` to hear it.
    public var audioSink: String
    /// The element factory for video output: `fakesink` or `autovideosink`.
    public var videoSink: String
    /// Whether sinks play in real time (`sync`); with false, a fake sink
    /// consumes the media as fast as it decodes.
    public var sync: Bool
    /// How long a pipeline's thread waits on the bus before it looks at its
    /// mailbox again: the latency of `start`, `pause`, `seek` and `stop`.
    public var pollInterval: Duration
    /// How often a playing pipeline's position is reported (`position(L, t)`), and a live
    /// pipeline's window checked, playing or paused (`window(L, w)`, when it moved); nil for
    /// never (a live window is then checked only at DURATION_CHANGED).
    public var positionInterval: Duration?
    /// How long a pipeline may preroll (no ASYNC_DONE nor ERROR, and no BUFFERING message
    /// meanwhile) before its load fails with `timeout`; nil to wait for ever. GStreamer can lose an error during a preroll (decodebin drops the
    /// error of an element it is bringing to PAUSED when that state change succeeds:
    /// oggdemux on a truncated file, now and again), and the pipeline then never
    /// prerolls; a load must be answered.
    public var prerollTimeout: Duration?
    /// Whether a load's `ready` carries the duration the prerolled pipeline knows
    /// (`ready(L, duration: d)`), which Now Playing and MPRIS's `mpris:length` show. Off
    /// by default. A gapless preload is answered `ready` before its stream is read, so it
    /// carries none (one that prerolls in a pipeline of its own does: ``prerollsPreloads``).
    /// A crossfade needs it: the machine starts one only within its length of a known end.
    public var reportsDuration: Bool
    /// Whether every preload prerolls in a playbin of its own, as a load does, rather than
    /// being queued behind the newest load for playbin's gapless switch. Off by default.
    ///
    /// A crossfade (`PlayerConfiguration(crossfade:)`) starts only within its length of the
    /// end of an entry whose duration is known, and a queued preload is answered `ready`
    /// before its stream is read, with no duration; so with the default, only an entry opened
    /// by a `load` crossfades into the next. With this on (and ``reportsDuration``), each
    /// preload's `ready` carries its duration, so every entry can crossfade into the next.
    /// The cost: where there is no crossfade (an entry shorter than twice it, repeat one, a
    /// sleep timer at the end), the next entry starts when the machine sends `start` after
    /// the end, in its own prerolled pipeline, not sample-exact as playbin's switch is.
    public var prerollsPreloads: Bool
    /// Called on a pipeline's thread once it is shut down and released, with
    /// the load it was made for and how many reports were dropped because
    /// they came after their load's `stop` (late bus messages).
    public var onPipelineReleased: (@Sendable (Load, _ droppedReports: Int) -> Void)?
    /// Test seam: called on a load's pipeline thread after it pops its first
    /// bus message other than STREAM_START (the preroll's ASYNC_DONE) and
    /// before it handles it.
    var beforeFirstMessage: (@Sendable (Load) -> Void)?
    /// Test seam: called on a pipeline's thread once it is made and after each change of its
    /// volume, with the load it plays and playbin's `volume` property as the pipeline reads
    /// it back.
    var volumeChanged: (@Sendable (Load, Double) -> Void)?
    /// Test seam: called on a pipeline's thread after it applies a `start` or `pause` of its
    /// load, with the load and the pipeline's state once that change has settled (at most
    /// 2 s): "PLAYING", "PAUSED".
    var stateSettled: (@Sendable (Load, String) -> Void)?

    /// Options.
    /// - Parameters:
    ///   - audioSink: the audio sink's factory name.
    ///   - videoSink: the video sink's factory name.
    ///   - sync: whether sinks play in real time.
    ///   - pollInterval: the bus poll interval.
    ///   - positionInterval: how often to report the position while playing; nil for never.
    ///   - prerollTimeout: how long a preroll may go without an answer or a BUFFERING
    ///     message before the load fails with `timeout`; nil for ever.
    ///   - reportsDuration: whether `ready` carries the duration (for Now Playing and MPRIS,
    ///     and for a crossfade, which needs it).
    ///   - prerollsPreloads: whether each preload prerolls in a pipeline of its own (its
    ///     `ready` then carries its duration, so every entry can crossfade) rather than waiting
    ///     for playbin's gapless switch.
    ///   - onPipelineReleased: called when a pipeline is released.
    public init(
      audioSink: String = "fakesink", videoSink: String = "fakesink", sync: Bool = true,
      pollInterval: Duration = .milliseconds(5), positionInterval: Duration? = .milliseconds(250),
      prerollTimeout: Duration? = .seconds(5), reportsDuration: Bool = false,
      prerollsPreloads: Bool = false,
      onPipelineReleased: (@Sendable (Load, _ droppedReports: Int) -> Void)? = nil
    ) {
      self.reportsDuration = reportsDuration
      self.prerollsPreloads = prerollsPreloads
      self.audioSink = audioSink
      self.videoSink = videoSink
      self.sync = sync
      self.pollInterval = pollInterval
      self.positionInterval = positionInterval
      self.prerollTimeout = prerollTimeout
      self.onPipelineReleased = onPipelineReleased
    }
  }

  /// Counts of pipelines and dropped reports.
  public struct Statistics: Hashable, Sendable {
    /// Pipelines created and not yet released.
    public var livePipelines = 0
    /// Pipelines released so far.
    public var releasedPipelines = 0
    /// Reports dropped because they came after their load's `stop`.
    public var droppedReports = 0
  }

  private let options: Options
  private let pipelines = Mutex(Pipelines())
  private let counts = Mutex(Statistics())

  /// The live loads' sessions (a preload shares its pipeline's), and the
  /// newest load's session, to which preloads are attached.
  private struct Pipelines {
    var sessions: [Load: PipelineSession] = [:]
    var newest: PipelineSession?
    /// The preloads queued in another load's pipeline, with what made them and the volume
    /// they were last told: what a crossfade needs to give one a pipeline of its own.
    var attached: [Load: Attached] = [:]
  }

  /// A preload queued in another load's pipeline.
  private struct Attached {
    let request: LoadRequest
    /// The target of the newest `setVolume` naming it; nil for none (full).
    var volume: Volume?
  }

  /// Preloads (the engine plays the next queue entry without a gap) and volume ramps
  /// (`setVolume(L, v, ramp: d)` moves playbin's volume to `v` over `d`, so the player's
  /// fades are heard as fades).
  public var capabilities: EngineCapabilities { [.preload, .volumeRamp] }

  /// An engine; initialises GStreamer if needed.
  /// - Parameter options: sinks and polling; fake sinks in real time by default.
  public init(options: Options = Options()) {
    self.options = options
    playhead_gst_init()
  }

  deinit {
    // Loads nobody stopped: their threads would poll forever. Stop them.
    for session in pipelines.withLock({ Array($0.sessions.values) }) { session.stopAll() }
  }

  /// Counts so far.
  public var statistics: Statistics { counts.withLock { $0 } }

  /// Executes a command: see the table in the type's documentation.
  public func execute(_ command: EngineCommand, reports: ReportSink) {
    switch command {
    case .load(let request):
      let session = makeSession(request, reports: reports)
      let isNew = pipelines.withLock { pipelines in
        guard pipelines.sessions[request.load] == nil else { return false }
        pipelines.sessions[request.load] = session
        pipelines.newest = session
        return true
      }
      guard isNew else { return }  // A load is issued once; a repeat is ignored.
      counts.withLock { $0.livePipelines += 1 }
      session.start()
    case .preload(let request):
      let attached = pipelines.withLock { pipelines -> Bool in
        // A preload from a start position is not gapless: playbin cannot roll into the
        // middle of a stream.
        guard !options.prerollsPreloads, request.start <= .zero,
          pipelines.sessions[request.load] == nil,
          let newest = pipelines.newest, newest.attach(request)
        else { return false }
        pipelines.sessions[request.load] = newest
        pipelines.attached[request.load] = Attached(request: request)
        return true
      }
      if attached { return }
      // No pipeline to follow: the preload prerolls in a pipeline of its own.
      let session = makeSession(request, reports: reports)
      let isNew = pipelines.withLock { pipelines in
        guard pipelines.sessions[request.load] == nil else { return false }
        pipelines.sessions[request.load] = session
        return true
      }
      guard isNew else { return }
      counts.withLock { $0.livePipelines += 1 }
      session.start()
    case .start(let load, _):
      if crossfade(command, into: load, reports: reports) { return }
      pipelines.withLock { $0.sessions[load] }?.enqueue(command)
    case .setVolume(let load, let volume, _):
      let session = pipelines.withLock { pipelines in
        pipelines.attached[load]?.volume = volume
        return pipelines.sessions[load]
      }
      session?.enqueue(command)
    case .pause, .seek:
      pipelines.withLock { $0.sessions[command.load] }?.enqueue(command)
    case .setRate:
      break  // This example plays at 1x (playbin changes rate with a seek; not done here).
    case .stop(let load):
      pipelines.withLock { pipelines in
        pipelines.attached[load] = nil
        return pipelines.sessions.removeValue(forKey: load)
      }?.stop(load)
    }
  }

  /// `start(P)` of a preload queued behind a load still live in the same pipeline: a
  /// crossfade (the machine stops the load before it starts its preload in every other case,
  /// the gapless advance included). One playbin plays one stream at a time, so `P` leaves
  /// that pipeline for a playbin of its own, made at the volume `P` was last told (0, at a
  /// crossfade's start), already answered `ready`; it prerolls and plays, while the load
  /// before it plays on, ramps down and reports its own end in the old pipeline. From then
  /// on `P`'s pipeline is the newest: the next preload queues behind `P`.
  /// - Returns: whether `P` was moved to a pipeline of its own, which `start` then goes to.
  private func crossfade(_ start: EngineCommand, into load: Load, reports: ReportSink) -> Bool {
    guard
      let (old, attached) = pipelines.withLock({ pipelines in
        pipelines.attached[load].flatMap { attached in
          pipelines.sessions[load].map { ($0, attached) }
        }
      }),
      old.detach(load)
    else { return false }
    let session = makeSession(
      attached.request, reports: reports, origin: .detachedPreload(volume: attached.volume))
    pipelines.withLock { pipelines in
      pipelines.attached[load] = nil
      pipelines.sessions[load] = session
      pipelines.newest = session
    }
    counts.withLock { $0.livePipelines += 1 }
    session.enqueue(start)
    session.start()
    return true
  }

  /// A session for a load (or a preload of its own), or for a preload that leaves the
  /// pipeline it was queued in (``crossfade(_:into:reports:)``).
  private func makeSession(
    _ request: LoadRequest, reports: ReportSink, origin: PipelineSession.Origin = .load
  ) -> PipelineSession {
    PipelineSession(request: request, sink: reports, options: options, origin: origin) {
      [weak self, options] dropped in
      self?.counts.withLock { counts in
        counts.livePipelines -= 1
        counts.releasedPipelines += 1
        counts.droppedReports += dropped
      }
      options.onPipelineReleased?(request.load, dropped)
    }
  }
}
