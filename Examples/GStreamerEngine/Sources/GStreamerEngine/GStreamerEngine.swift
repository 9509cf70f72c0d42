import CGStreamer
public import PlayerEngine
public import PlayerState
import Synchronization

/// A ``PlaybackEngine`` over GStreamer's `playbin`: one pipeline per load.
///
/// | command | GStreamer |
/// | --- | --- |
/// | `load(L)` | a new playbin for `L.media` (a URI, or a file path made into a `file://` URI), set to PAUSED: it prerolls |
/// | `start(L)` | PLAYING |
/// | `pause(L)` | PAUSED |
/// | `seek(L, t, s)` | a flushing, accurate seek to `t` (after the preroll, if sent before it) |
/// | `stop(L)` | no more reports for `L`; its pipeline goes to NULL and is released |
///
/// | bus message (on `L`'s pipeline) | report |
/// | --- | --- |
/// | first ASYNC_DONE (preroll done) | `ready(L)` |
/// | later ASYNC_DONE after a seek | `seekCompleted(L, newest seek id)` |
/// | BUFFERING < 100% after the preroll | `stalled(L)` (the pipeline pauses while it rebuffers) |
/// | BUFFERING 100% while stalled | `resumed(L)` |
/// | EOS | `reachedEnd(L)` |
/// | ERROR | `failed(L, reason)`, see ``GStreamerError/reason`` |
///
/// The load token is the pipeline's identity: each load gets its own
/// pipeline and thread, and every report that pipeline causes carries that
/// load. Commands naming a load that is not live are ignored.
///
/// ```swift
/// let player = Player(engine: GStreamerEngine())
/// player.send(.play("/path/to/song.wav"))
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
    /// Called on a pipeline's thread once it is shut down and released, with
    /// the load and how many reports were dropped because they came after
    /// its `stop` (late bus messages).
    public var onPipelineReleased: (@Sendable (Load, _ droppedReports: Int) -> Void)?
    /// Test seam: called on a load's pipeline thread after it pops its first
    /// bus message and before it handles it.
    var beforeFirstMessage: (@Sendable (Load) -> Void)?

    /// Options.
    /// - Parameters:
    ///   - audioSink: the audio sink's factory name.
    ///   - videoSink: the video sink's factory name.
    ///   - sync: whether sinks play in real time.
    ///   - pollInterval: the bus poll interval.
    ///   - onPipelineReleased: called when a pipeline is released.
    public init(
      audioSink: String = "fakesink", videoSink: String = "fakesink", sync: Bool = true,
      pollInterval: Duration = .milliseconds(5),
      onPipelineReleased: (@Sendable (Load, _ droppedReports: Int) -> Void)? = nil
    ) {
      self.audioSink = audioSink
      self.videoSink = videoSink
      self.sync = sync
      self.pollInterval = pollInterval
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
  private let sessions = Mutex<[Load: PipelineSession]>([:])
  private let counts = Mutex(Statistics())

  /// An engine; initialises GStreamer if needed.
  /// - Parameter options: sinks and polling; fake sinks in real time by default.
  public init(options: Options = Options()) {
    self.options = options
    playhead_gst_init()
  }

  deinit {
    // Loads nobody stopped: their threads would poll forever. Stop them.
    for session in sessions.withLock({ Array($0.values) }) { session.stop() }
  }

  /// Counts so far.
  public var statistics: Statistics { counts.withLock { $0 } }

  /// Executes a command: see the table in the type's documentation.
  public func execute(_ command: EngineCommand, reports: ReportSink) {
    switch command {
    case .load(let load):
      let session = PipelineSession(load: load, sink: reports, options: options) {
        [weak self, options] dropped in
        self?.counts.withLock { counts in
          counts.livePipelines -= 1
          counts.releasedPipelines += 1
          counts.droppedReports += dropped
        }
        options.onPipelineReleased?(load, dropped)
      }
      let isNew = sessions.withLock { sessions in
        guard sessions[load] == nil else { return false }
        sessions[load] = session
        return true
      }
      guard isNew else { return }  // A load is issued once; a repeat is ignored.
      counts.withLock { $0.livePipelines += 1 }
      session.start()
    case .start, .pause, .seek:
      sessions.withLock { $0[command.load] }?.enqueue(command)
    case .stop(let load):
      sessions.withLock { $0.removeValue(forKey: load) }?.stop()
    }
  }
}
