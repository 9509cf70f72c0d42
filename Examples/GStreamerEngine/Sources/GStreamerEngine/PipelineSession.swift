import CGStreamer
import Foundation
import PlayerEngine
import PlayerState
import Synchronization

/// One pipeline: a playbin, the thread that owns it, and the loads it plays:
/// the load it was made for, then each preload that becomes current.
///
/// Every GStreamer call for the pipeline is made on the session's own thread,
/// so no GStreamer pointer ever crosses threads (and none needs to be
/// `Sendable`). `execute` only puts commands in the session's mailbox; the
/// thread applies them between polls of the bus (a GLib main loop is not
/// running in a Swift program, so the thread pops the bus itself with
/// `gst_bus_timed_pop_filtered`, waiting at most the poll interval).
///
/// Gapless: a `preload(P)` attached to the session is answered `ready(P)` at
/// once (its file exists) and its URI is handed to playbin's
/// `about-to-finish` handler. When the current stream has been read, playbin
/// goes on with P's URI with no gap; at the STREAM_START that follows, the
/// session reports `reachedEnd` of the load before and from then on reports
/// for P. If the current load is stopped before that (a `next`), the
/// pipeline is pointed at P's URI at once and prerolls again.
///
/// No report after stop: the thread reports under `sendLock` and only for a
/// load still live; `stop` takes the same lock to remove the load. So once
/// `stop(L)` returns, nothing more names `L`. The lock is recursive because a
/// player may execute `stop` on this very thread, from inside the report
/// callback. Bus messages that arrive after the stop are still popped and
/// mapped, and then dropped: the late callbacks a stopped load must never
/// deliver. The thread ends when no load of the session is live.
///
/// Crossfade: `start(P)` of a preload queued here while the load before it is still live
/// (``detach(_:)``) takes `P` out of this session, as a `stop(P)` would, and the engine gives
/// it a session of its own (``Origin/detachedPreload(volume:)``): the load before it plays on
/// here, ramps down and reports its own end, and this pipeline is released at its `stop`.
final class PipelineSession: Sendable {
  /// Why a pipeline is made.
  enum Origin: Sendable {
    /// For a `load`, or a `preload` that prerolls in a pipeline of its own: its preroll
    /// answers it.
    case load
    /// For a preload already answered `ready` in another pipeline, which a crossfade starts
    /// beside that pipeline's load: made at `volume` (nil: full), and its preroll answers
    /// nothing.
    case detachedPreload(volume: Volume?)
  }

  /// The load the pipeline was made for.
  let load: Load
  private let origin: Origin
  private let media: MediaID
  /// Where the load starts (`LoadRequest.start`).
  private let startPosition: MediaTime
  private let sink: ReportSink
  private let options: GStreamerEngine.Options
  private let onFinish: @Sendable (_ droppedReports: Int) -> Void
  private let mailbox: Mutex<Mailbox>
  private let sendLock = NSRecursiveLock()

  /// What `execute` hands the thread, in order.
  private enum Item {
    case command(EngineCommand)
    case preload(LoadRequest)
    case stopped(Load)
  }

  private struct Mailbox {
    var items: [Item] = []
    /// The session's loads not stopped, in the order the pipeline plays them (the load it was
    /// made for, then each preload attached): the thread ends once none is left.
    var live: [Load]
    var droppedReports = 0
  }

  init(
    request: LoadRequest, sink: ReportSink, options: GStreamerEngine.Options,
    origin: Origin = .load, onFinish: @escaping @Sendable (_ droppedReports: Int) -> Void
  ) {
    load = request.load
    self.origin = origin
    media = request.media
    // At the live edge: no seek. A live stream prerolls at its default position, which for
    // HLS (hlsdemux) is the live edge; the machine sends such a load from 0 anyway.
    startPosition = request.atLiveEdge ? .zero : request.start
    self.sink = sink
    self.options = options
    self.onFinish = onFinish
    mailbox = Mutex(Mailbox(live: [request.load]))
  }

  /// Starts the pipeline's thread, which prerolls the media to PAUSED.
  func start() {
    let thread = Thread { [self] in run() }
    thread.name = "playhead.gstreamer.\(load.token)"
    thread.start()
  }

  /// Queues `start`, `pause`, `seek` or `setVolume` for the thread.
  func enqueue(_ command: EngineCommand) {
    mailbox.withLock { mailbox in
      if mailbox.live.contains(command.load) { mailbox.items.append(.command(command)) }
    }
  }

  /// Attaches a preload to play after the current load, gaplessly. False when
  /// the session is ending (no live load): the engine then gives the preload
  /// a pipeline of its own.
  func attach(_ request: LoadRequest) -> Bool {
    mailbox.withLock { mailbox in
      guard !mailbox.live.isEmpty else { return false }
      mailbox.live.append(request.load)
      mailbox.items.append(.preload(request))
      return true
    }
  }

  /// Stops one of the session's loads: nothing names it once this returns.
  /// The thread ends once none is live; it then shuts the pipeline down
  /// (state NULL) and releases it.
  func stop(_ load: Load) {
    sendLock.lock()
    defer { sendLock.unlock() }
    mailbox.withLock { mailbox in
      guard let index = mailbox.live.firstIndex(of: load) else { return }
      mailbox.live.remove(at: index)
      mailbox.items.append(.stopped(load))
    }
  }

  /// Takes a preload out of the session for a crossfade, if a load before it is still live:
  /// the session then treats it as stopped (its URI no longer queued; had the pipeline already
  /// rolled into it, the pipeline pauses), and the engine gives it a pipeline of its own.
  /// - Returns: false, changing nothing, when no live load plays before `load` here (the
  ///   machine stopped the load before it: a gapless advance), or `load` is not the session's.
  func detach(_ load: Load) -> Bool {
    sendLock.lock()
    defer { sendLock.unlock() }
    return mailbox.withLock { mailbox in
      guard let index = mailbox.live.firstIndex(of: load), index > 0 else { return false }
      mailbox.live.remove(at: index)
      mailbox.items.append(.stopped(load))
      return true
    }
  }

  /// Stops every load of the session.
  func stopAll() {
    sendLock.lock()
    defer { sendLock.unlock() }
    mailbox.withLock { mailbox in mailbox.live.removeAll() }
  }

  /// Sends a report unless its load is stopped; returns whether it was sent.
  @discardableResult
  func deliver(_ report: EngineReport) -> Bool {
    sendLock.lock()
    defer { sendLock.unlock() }
    let live = mailbox.withLock { mailbox in
      let live = mailbox.live.contains(report.load)
      if !live { mailbox.droppedReports += 1 }
      return live
    }
    if live { sink.send(report) }
    return live
  }

  /// Tells the test seam (``GStreamerEngine/Options/volumeChanged``) the volume `pipeline`'s
  /// `volume` property reads back, naming the load it plays. On the pipeline's thread.
  fileprivate func volumeChanged(_ load: Load, _ pipeline: UnsafeMutablePointer<GstElement>) {
    options.volumeChanged?(load, playhead_volume(pipeline))
  }

  /// Tells the test seam (``GStreamerEngine/Options/stateSettled``) the state `pipeline`
  /// settles in after a `start` or `pause`. On the pipeline's thread; without the seam, no
  /// wait.
  fileprivate func stateSettled(_ load: Load, _ pipeline: UnsafeMutablePointer<GstElement>) {
    guard let seam = options.stateSettled else { return }
    seam(load, String(cString: playhead_settled_state(pipeline, 2_000_000_000)))
  }

  // MARK: The pipeline's thread

  private func run() {
    defer { onFinish(mailbox.withLock { $0.droppedReports }) }
    playhead_gst_init()
    guard let uri = playhead_media_uri(media.rawValue) else {
      deliver(.failed(load, .notFound))
      return
    }
    let uriText = String(cString: uri)
    let made = playhead_make_playbin(
      uri, options.audioSink, options.videoSink, options.sync ? 1 : 0)
    g_free(uri)
    guard let pipeline = made, let bus = gst_element_get_bus(pipeline) else {
      deliver(.failed(load, .unsupported))
      return
    }
    guard let gapless = playhead_gapless_new(pipeline) else {  // g_new0 aborts rather than fail
      playhead_release(pipeline, bus)
      deliver(.failed(load, .unsupported))
      return
    }
    let machine: PipelineMachine
    var volume = PipelineVolume()
    switch origin {
    case .load:
      machine = PipelineMachine(load: load, start: startPosition)
    case .detachedPreload(let told):
      // Answered `ready` in the pipeline it leaves: this preroll answers nothing.
      machine = PipelineMachine(preload: load, playingAfterGaplessSwitch: nil)
      // Set before the preroll, whose first buffer passes playbin's volume element then.
      if let level = volume.set(told ?? .full, ramp: .zero, at: .now) {
        playhead_set_volume(pipeline, level)
      }
    }
    gst_element_set_state(pipeline, GST_STATE_PAUSED)
    var thread = PipelineThread(
      pipeline: pipeline, bus: bus, gapless: gapless,
      driver: PipelineDriver(
        machine: machine, pipeline: pipeline, reportsDuration: options.reportsDuration),
      session: self,
      uri: uriText, volume: volume)
    volumeChanged(load, pipeline)  // the new playbin's volume: full, or the detached preload's
    var firstMessage = true
    let poll = GstClockTime(options.pollInterval.nanoseconds)
    let clock = ContinuousClock()
    var lastPosition = clock.now
    var lastWindowCheck = clock.now
    // A DURATION_CHANGED (an HLS playlist refresh) makes the window due at once; so does the
    // answer to the load: the first check, right after `ready`, tells a live stream, whose
    // BUFFERING messages are then no stall.
    var windowDue = true
    while true {
      let (items, anyLive) = mailbox.withLock { mailbox in
        defer { mailbox.items.removeAll() }
        return (mailbox.items, !mailbox.live.isEmpty)
      }
      if !anyLive { break }
      // A ramp is brought to now before the commands: a `setVolume` starts from the level
      // the ramp has reached, and a fade's `pause` (sent at the fade's end) comes after its
      // last step, not before it.
      if thread.volume.isRamping { thread.stepVolume(at: clock.now) }
      for item in items {
        switch item {
        case .command(let command): thread.apply(command)
        case .preload(let request): thread.preload(request)
        case .stopped(let load): thread.stopped(load)
        }
      }
      if thread.volume.isRamping { thread.stepVolume(at: clock.now) }
      if let interval = options.positionInterval, thread.driver.machine.reportsPositions,
        clock.now - lastPosition >= interval
      {
        lastPosition = clock.now
        let milliseconds = playhead_position_ms(pipeline)
        if milliseconds >= 0 {
          deliver(.position(thread.driver.machine.load, .milliseconds(Int64(milliseconds))))
        }
      }
      // A live load's window, playing or paused, checked as often as positions are reported
      // and at each DURATION_CHANGED; reported when it moved. Before the position: a position
      // is judged against the newest window. The first check, right after `ready`, decides
      // whether the load is live at all; an on-demand load is not asked again.
      if thread.driver.machine.checksWindow,
        windowDue
          || options.positionInterval.map({ clock.now - lastWindowCheck >= $0 }) ?? false
      {
        windowDue = false
        lastWindowCheck = clock.now
        if let report = thread.driver.machine.windowReport(for: Self.liveQuery(pipeline)) {
          deliver(report)
        }
      }
      if let timeout = options.prerollTimeout, thread.driver.machine.isPrerolling,
        clock.now - thread.prerollSince >= timeout
      {
        thread.prerollTimedOut(after: timeout)
      }
      guard let message = playhead_pop(bus, poll) else { continue }
      let parsed = Self.parse(message)
      // Each sign of progress pushes the preroll's deadline back.
      if case .buffering = parsed { thread.prerollSince = clock.now }
      gst_message_unref(message)
      if firstMessage, parsed != .streamStart {
        firstMessage = false
        options.beforeFirstMessage?(load)
      }
      if parsed == .durationChanged { windowDue = true }
      if let parsed { thread.handle(parsed) }
    }
    // Messages the pipeline posted before it was shut down: map and drop them.
    while let message = playhead_pop(bus, 0) {
      if let parsed = Self.parse(message) { thread.handle(parsed) }
      gst_message_unref(message)
    }
    gst_element_set_state(pipeline, GST_STATE_NULL)
    playhead_gapless_free(pipeline, gapless)
    playhead_release(pipeline, bus)
  }

  /// The characters of a C string buffer up to its terminator, as UTF-8 (bad bytes replaced).
  private static func string(_ buffer: [CChar]) -> String {
    String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// What the pipeline's duration and seeking queries say, and its position (for a window
  /// without DVR). On the pipeline's thread.
  private static func liveQuery(_ pipeline: UnsafeMutablePointer<GstElement>) -> LiveQuery {
    var live: gboolean = 0
    var seekable: gboolean = 0
    var start: gint64 = -1
    var end: gint64 = -1
    playhead_live_query(pipeline, &live, &seekable, &start, &end)
    guard live != 0 else { return LiveQuery(isLive: false) }
    let position = playhead_position_ms(pipeline)
    return LiveQuery(
      isLive: true, isSeekable: seekable != 0, start: start < 0 ? nil : .milliseconds(Int64(start)),
      end: end < 0 ? nil : .milliseconds(Int64(end)),
      position: position < 0 ? nil : .milliseconds(Int64(position)))
  }

  private static func parse(_ message: UnsafeMutablePointer<GstMessage>) -> BusMessage? {
    switch playhead_message_kind(message) {
    case PLAYHEAD_MESSAGE_ASYNC_DONE:
      return .asyncDone
    case PLAYHEAD_MESSAGE_EOS:
      return .endOfStream
    case PLAYHEAD_MESSAGE_BUFFERING:
      return .buffering(percent: playhead_buffering_percent(message))
    case PLAYHEAD_MESSAGE_STREAM_START:
      return .streamStart
    case PLAYHEAD_MESSAGE_DURATION_CHANGED:
      return .durationChanged
    case PLAYHEAD_MESSAGE_ERROR:
      var code: Int32 = 0
      var text = [CChar](repeating: 0, count: 256)
      var quark = [CChar](repeating: 0, count: 64)
      let domain = playhead_parse_error(message, &code, &text, text.count, &quark, quark.count)
      let error = GStreamerError(
        domain: GStreamerError.Domain(rawValue: domain) ?? .other, code: code,
        text: string(text), quark: string(quark))
      return .error(error)
    default:
      return nil
    }
  }
}

/// The thread's view of its pipeline: the load playing (its driver) and the
/// preload queued after it.
private struct PipelineThread {
  let pipeline: UnsafeMutablePointer<GstElement>
  let bus: UnsafeMutablePointer<GstBus>
  let gapless: UnsafeMutablePointer<PlayheadGapless>
  var driver: PipelineDriver
  let session: PipelineSession
  /// The preload queued after the current load, with its URI.
  var queued: (load: Load, uri: String)?
  /// The URI of the current load's stream: the pipeline goes back to it when
  /// playbin rolled into a preload that was stopped meanwhile.
  var currentURI: String
  /// The next STREAM_START is the stream the pipeline was just pointed at (made
  /// for, or re-pointed by ``point(at:uri:)``), not a gapless switch, even if
  /// `about-to-finish` has already taken the next URI meanwhile (a small local
  /// file is read at once).
  var ownStreamStartPending = true
  /// The current load was stopped with no preload queued to take the pipeline (the
  /// session lives on for a preload that failed): the pipeline is paused, and the next
  /// preload attached takes it at once instead of queueing behind a stopped load.
  var currentStopped = false
  /// When the current preroll began (the pipeline made or pointed at a stream), or its
  /// last BUFFERING message: the start of ``GStreamerEngine/Options/prerollTimeout``.
  var prerollSince = ContinuousClock.now
  /// playbin's volume: the current load's, with its ramp, and the queued preload's.
  var volume = PipelineVolume()

  init(
    pipeline: UnsafeMutablePointer<GstElement>, bus: UnsafeMutablePointer<GstBus>,
    gapless: UnsafeMutablePointer<PlayheadGapless>, driver: PipelineDriver,
    session: PipelineSession, uri: String, volume: PipelineVolume
  ) {
    self.volume = volume
    self.pipeline = pipeline
    self.bus = bus
    self.gapless = gapless
    self.driver = driver
    self.session = session
    currentURI = uri
  }

  /// The pipeline has not prerolled in time: the current load fails.
  mutating func prerollTimedOut(after timeout: Duration) {
    for report in driver.prerollTimedOut(after: timeout) { session.deliver(report) }
  }

  /// A command for the current load; any other load's is ignored, but a `setVolume` for the
  /// queued preload, which is kept for the switch.
  mutating func apply(_ command: EngineCommand) {
    if case .setVolume(let load, let target, let ramp) = command {
      if load == driver.machine.load, !currentStopped {
        setVolume(volume.set(target, ramp: ramp, at: .now))
      } else if load == queued?.load {
        volume.setPreload(target)
      }
      return
    }
    guard command.load == driver.machine.load else { return }
    for report in driver.apply(command) { session.deliver(report) }
    switch command {
    case .start, .pause: session.stateSettled(driver.machine.load, pipeline)
    default: break
    }
  }

  /// Steps a volume ramp in progress.
  mutating func stepVolume(at now: ContinuousClock.Instant) {
    setVolume(volume.step(at: now))
  }

  /// Sets playbin's volume to `level`, if there is one to set.
  private func setVolume(_ level: Double?) {
    guard let level else { return }
    playhead_set_volume(pipeline, level)
    session.volumeChanged(driver.machine.load, pipeline)
  }

  /// Queues a preload's URI for the gapless switch and answers it.
  mutating func preload(_ request: LoadRequest) {
    guard let made = playhead_media_uri(request.media.rawValue) else {
      session.deliver(.failed(request.load, .notFound))
      return
    }
    let uri = String(cString: made)
    let missing = playhead_uri_is_missing_file(made) != 0
    g_free(made)
    if missing {
      session.deliver(.failed(request.load, .notFound))
      return
    }
    if currentStopped {
      currentStopped = false
      point(at: request.load, uri: uri)
      session.deliver(.ready(request.load))
      return
    }
    queued = (request.load, uri)
    playhead_gapless_set_next(gapless, uri, request.load.token.rawValue)
    session.deliver(.ready(request.load))
  }

  /// A load of the session was stopped: the queued preload is dropped (if
  /// `about-to-finish` already took its URI, the STREAM_START that follows
  /// undoes that), or the current load leaves and the queued preload takes the
  /// pipeline.
  mutating func stopped(_ load: Load) {
    if let queued, queued.load == load {
      playhead_gapless_set_next(gapless, nil, 0)
      self.queued = nil
      volume.preloadDropped()
      return
    }
    guard load == driver.machine.load else { return }
    guard let queued else {
      // Found by the engine fuzzer (seed 1): a failed preload kept the session alive,
      // the next preload queued behind the stopped load, and its seeks were ignored.
      currentStopped = true
      playhead_set_playing(pipeline, 0)
      return
    }
    // Not gapless: the current load left before its end (a `next`, a jump).
    playhead_gapless_set_next(gapless, nil, 0)
    var tag: UInt32 = 0
    _ = playhead_gapless_take_switched(gapless, &tag)
    point(at: queued.load, uri: queued.uri)
    self.queued = nil
  }

  /// A bus message: a gapless switch at STREAM_START, otherwise the current load's.
  mutating func handle(_ message: BusMessage) {
    guard message == .streamStart else {
      for report in driver.handle(message) { session.deliver(report) }
      return
    }
    if ownStreamStartPending {
      ownStreamStartPending = false
      return
    }
    var tag: UInt32 = 0
    guard playhead_gapless_take_switched(gapless, &tag) != 0 else { return }
    // The current stream was read to its end and playbin went on with the URI
    // `about-to-finish` took.
    let ended = driver.machine.load
    // A seek of the ended load still awaited: the stream went on past it to its end (a seek
    // to the end flushes what was left, and playbin goes straight on with the next URI,
    // with no ASYNC_DONE for the ended load; found by the MPRIS test's Seek past the end).
    // It completes before the end, or the machine, which ignores an end while a seek is
    // pending, would wait for it for ever.
    let awaitedSeek = driver.machine.progress.pendingSeek
    if let queued, queued.load.token.rawValue == tag {
      let playing = driver.machine.isPlaying
      driver.machine = PipelineMachine(preload: queued.load, playingAfterGaplessSwitch: playing)
      currentURI = queued.uri
      self.queued = nil
      setVolume(volume.preloadBecameCurrent())  // the new stream plays at its own load's volume
      if let awaitedSeek { session.deliver(.seekCompleted(ended, awaitedSeek)) }
    } else {
      // That preload was stopped after playbin took its URI: nobody wants what
      // plays now. Back to the ended load's media, paused at its start (a seek
      // still awaited is sent again).
      playhead_replace_uri(pipeline, bus, currentURI)
      prerollSince = .now
      driver.machine = PipelineMachine(repointing: driver.machine)
      ownStreamStartPending = true
    }
    session.deliver(.reachedEnd(ended))
  }

  /// Points the pipeline at `load`'s media without the gapless path: it
  /// prerolls again, paused, and that preroll answers nothing.
  private mutating func point(at load: Load, uri: String) {
    playhead_replace_uri(pipeline, bus, uri)
    prerollSince = .now
    driver.machine = PipelineMachine(preload: load, playingAfterGaplessSwitch: nil)
    currentURI = uri
    ownStreamStartPending = true
    setVolume(volume.preloadBecameCurrent())
  }
}

/// Performs a ``PipelineMachine``'s actions on the pipeline, on its thread; decides
/// nothing itself.
private struct PipelineDriver {
  let pipeline: UnsafeMutablePointer<GstElement>
  var machine: PipelineMachine
  /// Whether a load's `ready` carries the duration the prerolled pipeline knows.
  let reportsDuration: Bool

  init(
    machine: PipelineMachine, pipeline: UnsafeMutablePointer<GstElement>, reportsDuration: Bool
  ) {
    self.pipeline = pipeline
    self.reportsDuration = reportsDuration
    self.machine = machine
  }

  mutating func apply(_ command: EngineCommand) -> [EngineReport] {
    perform(machine.apply(command))
  }

  mutating func handle(_ message: BusMessage) -> [EngineReport] {
    perform(machine.handle(message))
  }

  mutating func prerollTimedOut(after timeout: Duration) -> [EngineReport] {
    perform(machine.prerollTimedOut(after: timeout))
  }

  /// Performs the actions; returns the reports among them (and any they led to).
  private mutating func perform(_ actions: [PipelineAction]) -> [EngineReport] {
    var reports: [EngineReport] = []
    for action in actions {
      switch action {
      case .report(let report):
        if reportsDuration, case .ready(let load, nil) = report {
          // Prerolled: the pipeline knows the stream's duration (-1 if it does not).
          let milliseconds = playhead_duration_ms(pipeline)
          reports.append(
            .ready(load, duration: milliseconds < 0 ? nil : .milliseconds(Int64(milliseconds))))
        } else {
          reports.append(report)
        }
      case .setPlaying(let on):
        playhead_set_playing(pipeline, on ? 1 : 0)
      case .seek(let time, let seek):
        if playhead_seek(pipeline, Self.nanoseconds(time)) == 0 {
          reports += perform(machine.seekRefused(seek))
        }
      case .seekToStart(let time):
        if playhead_seek(pipeline, Self.nanoseconds(time)) == 0 {
          reports += perform(machine.startSeekRefused())
        }
      }
    }
    return reports
  }

  /// A media time as GStreamer's nanoseconds: negative becomes 0, overflow the largest.
  private static func nanoseconds(_ time: MediaTime) -> Int {
    let (nanoseconds, overflow) = max(time.milliseconds, 0).multipliedReportingOverflow(
      by: 1_000_000)
    return overflow ? .max : Int(nanoseconds)
  }
}

extension Duration {
  /// Whole nanoseconds, clamped to `UInt64`; negative becomes 0.
  var nanoseconds: UInt64 {
    let (seconds, attoseconds) = components
    if seconds < 0 { return 0 }
    if seconds >= Int64(UInt64.max / 1_000_000_000) { return .max }
    return UInt64(seconds) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000)
  }
}
