import CGStreamer
import Foundation
import PlayerEngine
import PlayerState
import Synchronization

/// One load: a playbin pipeline and the thread that owns it.
///
/// Every GStreamer call for the pipeline is made on the session's own thread,
/// so no GStreamer pointer ever crosses threads (and none needs to be
/// `Sendable`). `execute` only puts commands in the session's mailbox; the
/// thread applies them between polls of the bus (a GLib main loop is not
/// running in a Swift program, so the thread pops the bus itself with
/// `gst_bus_timed_pop_filtered`, waiting at most the poll interval).
///
/// No report after stop: the thread reports under `sendLock` and only while
/// not stopped; `stop` takes the same lock to set the flag. So once `stop`
/// returns, nothing more is sent. The lock is recursive because a player
/// may execute `stop` on this very thread, from inside the report callback.
/// Bus messages that arrive after the stop are still popped and mapped, and
/// then dropped: the late callbacks a stopped load must never deliver.
final class PipelineSession: Sendable {
  let load: Load
  private let sink: ReportSink
  private let options: GStreamerEngine.Options
  private let onFinish: @Sendable (_ droppedReports: Int) -> Void
  private let mailbox = Mutex(Mailbox())
  private let sendLock = NSRecursiveLock()

  private struct Mailbox {
    var commands: [EngineCommand] = []
    var stopped = false
    var droppedReports = 0
  }

  init(
    load: Load, sink: ReportSink, options: GStreamerEngine.Options,
    onFinish: @escaping @Sendable (_ droppedReports: Int) -> Void
  ) {
    self.load = load
    self.sink = sink
    self.options = options
    self.onFinish = onFinish
  }

  /// Starts the pipeline's thread, which prerolls the media to PAUSED.
  func start() {
    let thread = Thread { [self] in run() }
    thread.name = "playhead.gstreamer.\(load.token)"
    thread.start()
  }

  /// Queues `start`, `pause` or `seek` for the thread.
  func enqueue(_ command: EngineCommand) {
    mailbox.withLock { mailbox in
      if !mailbox.stopped { mailbox.commands.append(command) }
    }
  }

  /// Stops the load: no report is sent once this returns. The thread then
  /// shuts the pipeline down (state NULL) and releases it.
  func stop() {
    sendLock.lock()
    defer { sendLock.unlock() }
    mailbox.withLock { $0.stopped = true }
  }

  /// Sends a report unless the load is stopped; returns whether it was sent.
  @discardableResult
  func deliver(_ report: EngineReport) -> Bool {
    sendLock.lock()
    defer { sendLock.unlock() }
    let stopped = mailbox.withLock { mailbox in
      if mailbox.stopped { mailbox.droppedReports += 1 }
      return mailbox.stopped
    }
    if !stopped { sink.send(report) }
    return !stopped
  }

  // MARK: The pipeline's thread

  private func run() {
    defer { onFinish(mailbox.withLock { $0.droppedReports }) }
    playhead_gst_init()
    guard let uri = playhead_media_uri(load.media.rawValue) else {
      deliver(.failed(load, .notFound))
      return
    }
    let made = playhead_make_playbin(
      uri, options.audioSink, options.videoSink, options.sync ? 1 : 0)
    g_free(uri)
    guard let pipeline = made, let bus = gst_element_get_bus(pipeline) else {
      deliver(.failed(load, .unsupported))
      return
    }
    gst_element_set_state(pipeline, GST_STATE_PAUSED)
    var driver = PipelineDriver(load: load, pipeline: pipeline)
    var firstMessage = true
    let poll = GstClockTime(options.pollInterval.nanoseconds)
    while true {
      let (commands, stopped) = mailbox.withLock { mailbox in
        defer { mailbox.commands.removeAll() }
        return (mailbox.commands, mailbox.stopped)
      }
      if stopped { break }
      for command in commands {
        for report in driver.apply(command) { deliver(report) }
      }
      guard let message = playhead_pop(bus, poll) else { continue }
      let parsed = Self.parse(message)
      gst_message_unref(message)
      if firstMessage {
        firstMessage = false
        options.beforeFirstMessage?(load)
      }
      if let parsed {
        for report in driver.handle(parsed) { deliver(report) }
      }
    }
    // Messages the pipeline posted before it was shut down: map and drop them.
    while let message = playhead_pop(bus, 0) {
      if let parsed = Self.parse(message) {
        for report in driver.handle(parsed) { deliver(report) }
      }
      gst_message_unref(message)
    }
    playhead_release(pipeline, bus)
  }

  private static func parse(_ message: UnsafeMutablePointer<GstMessage>) -> BusMessage? {
    switch playhead_message_kind(message) {
    case PLAYHEAD_MESSAGE_ASYNC_DONE:
      return .asyncDone
    case PLAYHEAD_MESSAGE_EOS:
      return .endOfStream
    case PLAYHEAD_MESSAGE_BUFFERING:
      return .buffering(percent: playhead_buffering_percent(message))
    case PLAYHEAD_MESSAGE_ERROR:
      var code: Int32 = 0
      var text = [CChar](repeating: 0, count: 256)
      let domain = playhead_parse_error(message, &code, &text, text.count)
      let error = GStreamerError(
        domain: GStreamerError.Domain(rawValue: domain) ?? .other, code: code,
        text: String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      )
      return .error(error)
    default:
      return nil
    }
  }
}

/// Performs a ``PipelineMachine``'s actions on the pipeline, on its thread; decides
/// nothing itself.
private struct PipelineDriver {
  let pipeline: UnsafeMutablePointer<GstElement>
  var machine: PipelineMachine

  init(load: Load, pipeline: UnsafeMutablePointer<GstElement>) {
    self.pipeline = pipeline
    machine = PipelineMachine(load: load)
  }

  mutating func apply(_ command: EngineCommand) -> [EngineReport] {
    perform(machine.apply(command))
  }

  mutating func handle(_ message: BusMessage) -> [EngineReport] {
    perform(machine.handle(message))
  }

  /// Performs the actions; returns the reports among them (and any they led to).
  private mutating func perform(_ actions: [PipelineAction]) -> [EngineReport] {
    var reports: [EngineReport] = []
    for action in actions {
      switch action {
      case .report(let report):
        reports.append(report)
      case .setPlaying(let on):
        playhead_set_playing(pipeline, on ? 1 : 0)
      case .seek(let time, let seek):
        let (nanoseconds, overflow) = max(time.milliseconds, 0).multipliedReportingOverflow(
          by: 1_000_000)
        if playhead_seek(pipeline, overflow ? .max : Int(nanoseconds)) == 0 {
          reports += perform(machine.seekRefused(seek))
        }
      }
    }
    return reports
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
