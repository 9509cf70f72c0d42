import GStreamerEngine
import PlayerEngine
import PlayerState
import PlayerTesting
import Synchronization
import Testing

/// A real live stream (issue 38, item 4): HLS made inside the test by `hlssink2` and served
/// on 127.0.0.1 (``LiveHLS``), played by a `Player` over this engine. The checks are on
/// orderings and ranges, never on exact times: the stream runs on the wall clock of a busy
/// machine. Each test has its own stream; they run side by side.
@Suite(
  "A live HLS stream through playbin", .timeLimit(.minutes(1)),
  .enabled(
    if: LiveHLS.missing == nil || LiveHLS.required,
    "needs GStreamer's hlssink2 and mpegtsmux (apt-get install gstreamer1.0-plugins-bad) and python3: \(LiveHLS.missing ?? "")"
  ))
struct LiveStreamTests {
  /// The player over the engine, playing `source`, and its log.
  func play(_ source: LiveHLS) -> (Player, LiveLog) {
    let log = LiveLog(media: source.url)
    let engine = GStreamerEngine(options: .init(positionInterval: .milliseconds(100)))
    let player = Player(engine: engine) { log.record($0) }
    player.send(.play(MediaID(source.url)))
    return (player, log)
  }

  /// (a) The engine reports the window after `ready`, and it slides with the broadcast.
  @Test func theWindowIsReportedAfterReadyAndSlides() async throws {
    let source = try await LiveHLS(playlistLength: 5)
    defer { source.stop() }
    let (player, log) = play(source)
    defer { player.send(.stop) }
    let lines = try await log.until("the window's start to move on by 2 s") { lines in
      let windows = lines.compactMap { $0.window(of: 1) }
      guard let first = windows.first, let last = windows.last else { return false }
      return last.start - first.start >= .milliseconds(1_900)
    }
    let events = lines.map(\.event)
    let ready = try #require(events.firstIndex(of: "ready(L#1)"))
    let firstWindow = try #require(lines.firstIndex { $0.window(of: 1) != nil })
    #expect(ready < firstWindow, "\(log.transcript)")
    let windows = lines.compactMap { $0.window(of: 1) }
    // A DVR window, `playlistLength − 3` segments of about 993 ms: about 2 s.
    #expect(
      windows.allSatisfy { $0.length >= .milliseconds(900) && $0.length <= .milliseconds(3_100) },
      "\(windows)")
    #expect(
      zip(windows, windows.dropFirst()).allSatisfy { $0.start <= $1.start && $0.end <= $1.end })
    // Each window is taken (no command, nothing ignored) and nothing reloads.
    let windowLines = lines.filter { $0.window(of: 1) != nil }
    #expect(windowLines.allSatisfy { $0.commands == "none" && !$0.ignored }, "\(log.transcript)")
    #expect(!lines.contains { $0.commands.contains("at live edge") }, "\(log.transcript)")
    // Positions stay within the window in force (the edge trails the playlist's end; a
    // position may pass it by a little between playlist refreshes).
    var current: LiveWindow?
    for line in lines {
      if let window = line.window(of: 1) { current = window }
      guard let window = current, let position = line.position(of: 1) else { continue }
      #expect(
        position >= window.start && position <= window.end + .milliseconds(1_500),
        "\(position) in \(window)")
    }
    #expect(player.state.description == "playing(\(source.url)#1, dvr)")
    #expect(player.state.streamKind == .dvr)
    #expect(player.state.nowPlaying?.isLive == true)
    #expect(player.state.nowPlaying?.duration == nil)
  }

  /// (b) A pause longer than the window: the window's start passes the paused position, the
  /// machine reloads at the live edge (paused, as the user left it), and `resume` plays from
  /// the edge, not from where it paused.
  @Test func aPauseLongerThanTheWindowRecoversAtTheEdge() async throws {
    let source = try await LiveHLS(playlistLength: 5)
    defer { source.stop() }
    let (player, log) = play(source)
    defer { player.send(.stop) }
    _ = try await log.until("L#1 playing in its window") { lines in
      guard let first = lines.firstIndex(where: { $0.window(of: 1) != nil }) else { return false }
      return lines[first...].filter { $0.position(of: 1) != nil }.count >= 3
    }
    player.send(.pause)
    let lines = try await log.until("the reload at the live edge", timeout: .seconds(30)) {
      $0.contains { $0.commands.contains("at live edge") }
    }
    let reload = try #require(lines.firstIndex { $0.commands.contains("at live edge") })
    let pause = try #require(lines.firstIndex { $0.event == "pause" })
    #expect(pause < reload)
    #expect(lines[pause].commands == "pause(L#1)")
    // The machine saw it from a window: its start passed the last position of L#1.
    let fellBehind = try #require(lines[reload].window(of: 1), "\(log.transcript)")
    let paused = try #require(lines[..<reload].compactMap { $0.position(of: 1) }.last)
    #expect(fellBehind.start > paused, "\(fellBehind) after \(paused)")
    #expect(lines[reload].commands == "stop(L#1) load(L#2, at live edge)")
    #expect(lines[reload].after == "buffering(L#2, paused)")
    // Reloaded paused: nothing starts it before the user does.
    _ = try await log.until("L#2 paused in its window") { lines in
      lines.last?.after == "paused(L#2, dvr)"
    }
    #expect(!log.lines.contains { $0.commands.contains("start(L#2)") }, "\(log.transcript)")
    let resumed = log.lines.count
    player.send(.resume)
    let after = try await log.until("L#2 playing") { lines in
      lines[resumed...].filter { $0.position(of: 2) != nil }.count >= 2
    }
    #expect(after[resumed...].first { $0.event == "resume" }?.commands == "start(L#2)")
    // At the edge: the first position of L#2 is near the end of its newest window. (Each
    // pipeline counts from the first segment it read, so L#2's times start again near 0: only
    // distances from each load's own edge compare.)
    let first = try #require(after.firstIndex { $0.position(of: 2) != nil })
    let position = try #require(after[first].position(of: 2))
    let window = try #require(after[..<first].compactMap { $0.window(of: 2) }.last)
    #expect(
      position >= window.end - .milliseconds(2_000)
        && position <= window.end + .milliseconds(1_500),
      "\(position) in \(window)")
    #expect(
      fellBehind.end - paused > window.end - position,
      "L#1 paused at \(paused), edge \(fellBehind.end); L#2 at \(position), edge \(window.end)")
    #expect(log.lines.filter { $0.commands.contains("at live edge") }.count == 1)
    #expect(player.state.description == "playing(\(source.url)#2, dvr)")
  }

  /// (c) A seek back into the window, then `goToLive`: a seek to the newest window's end, and
  /// playback lands near the edge.
  @Test func goToLiveAfterSeekingBackLandsNearTheEdge() async throws {
    let source = try await LiveHLS(playlistLength: 7)
    defer { source.stop() }
    let (player, log) = play(source)
    defer { player.send(.stop) }
    let playing = try await log.until("a window of 3.5 s and L#1 playing in it") { lines in
      guard let first = lines.firstIndex(where: { $0.window(of: 1) != nil }),
        let last = lines.last(where: { $0.window(of: 1) != nil })?.window(of: 1)
      else { return false }
      return last.length >= .milliseconds(3_500)
        && lines[first...].filter { $0.position(of: 1) != nil }.count >= 3
    }
    let window = try #require(playing.last { $0.window(of: 1) != nil }?.window(of: 1))
    let back = window.start + .milliseconds(1_500)
    player.send(.seek(to: back))
    let sought = try await log.until("the seek back done and two positions") { lines in
      guard let done = lines.firstIndex(where: { $0.event == "seeked(L#1, seek#1)" }) else {
        return false
      }
      return lines[done...].filter { $0.position(of: 1) != nil }.count >= 2
    }
    #expect(sought.contains { $0.commands == "seek(L#1, \(back.milliseconds)ms, seek#1)" })
    let done = try #require(sought.firstIndex { $0.event == "seeked(L#1, seek#1)" })
    let behind = try #require(sought[done...].compactMap { $0.position(of: 1) }.first)
    let edgeThen = try #require(sought.compactMap { $0.window(of: 1) }.last).end
    #expect(behind >= back - .milliseconds(300) && behind <= back + .milliseconds(1_500))
    #expect(edgeThen - behind >= .milliseconds(1_500), "\(behind), edge \(edgeThen)")

    let mark = log.lines.count
    player.send(.goToLive)
    let lines = try await log.until("goToLive's seek done and two positions") { lines in
      guard let done = lines.firstIndex(where: { $0.event == "seeked(L#1, seek#2)" }) else {
        return false
      }
      return lines[done...].filter { $0.position(of: 1) != nil }.count >= 2
    }
    let go = try #require(lines[mark...].firstIndex { $0.event == "goToLive" })
    // A seek to the end of the newest window reported before it: the live edge.
    let edge = try #require(lines[..<go].compactMap { $0.window(of: 1) }.last).end
    #expect(lines[go].commands == "seek(L#1, \(edge.milliseconds)ms, seek#2)", "\(log.transcript)")
    let landed = try #require(lines.firstIndex { $0.event == "seeked(L#1, seek#2)" })
    let position = try #require(lines[landed...].compactMap { $0.position(of: 1) }.first)
    #expect(
      position >= edge - .milliseconds(1_000) && position <= edge + .milliseconds(1_500),
      "\(position), edge \(edge)")
    #expect(!lines.contains { $0.commands.contains("at live edge") }, "\(log.transcript)")
    #expect(player.state.description == "playing(\(source.url)#1, dvr)")
  }

  /// (d) The conformance kit's live check against playbin on this stream
  /// (`EngineConformance.Configuration.liveMedia`): the live load is answered and reports a
  /// well-formed window, a seek to the middle of the DVR window completes with its id, and a
  /// load at the live edge is answered; every window of the run is well formed.
  @Test func theEngineKeepsTheKitsLivePromises() async throws {
    let source = try await LiveHLS(playlistLength: 6)
    defer { source.stop() }
    let path = try TestMedia.wavFile(milliseconds: 500)
    let kit = EngineConformance(
      .init(
        media: MediaID(path), liveMedia: MediaID(source.url),
        timing: .realTime(timeout: .seconds(10), quietPeriod: .milliseconds(200))))
    let report = await kit.run(against: GStreamerEngine())
    #expect(report.brokenNames == [], "\(report)")
    let live: [EnginePromise] = [
      .windowIsWellFormed, .liveMediaReportsWindow, .seekInWindowCompletes, .liveEdgeLoadAnswered,
    ]
    #expect(live.allSatisfy(report.checked.contains), "\(report.checked)")
    #expect(!report.notes.contains { $0.breach == .durationForLiveLoad }, "\(report)")
  }
}

/// Every step of a player, its media written `L`: the event, the commands, the state after,
/// and the window or position it reported.
final class LiveLog: Sendable {
  struct Line: Sendable, CustomStringConvertible {
    let event: String
    let commands: String
    let after: String
    let ignored: Bool
    let report: EngineReport?

    /// The window reported for the load of token `token`, if this step is one.
    func window(of token: UInt32) -> LiveWindow? {
      guard case .window(let load, let window) = report, load.token == LoadToken(token) else {
        return nil
      }
      return window
    }

    /// The position reported for the load of token `token`, if this step is one.
    func position(of token: UInt32) -> MediaTime? {
      guard case .position(let load, let time) = report, load.token == LoadToken(token) else {
        return nil
      }
      return time
    }

    var description: String { "\(event): \(commands) -> \(after)" }
  }

  private let media: String
  private let storage = Mutex<[Line]>([])

  init(media: String) { self.media = media }

  func record(_ step: PlayerStep) {
    var report: EngineReport?
    if case .engine(let engine) = step.event { report = engine }
    let line = Line(
      event: short(step.event.description(naming: step.media(of:))),
      commands: short(step.transition.commands.description(naming: step.media(of:))),
      after: short(step.after.description), ignored: step.transition.ignored != nil,
      report: report)
    storage.withLock { $0.append(line) }
  }

  var lines: [Line] { storage.withLock { $0 } }

  /// Every line but positions, for a failure's message.
  var transcript: String {
    lines.filter { $0.position(of: $0.report?.load.token.rawValue ?? 0) == nil }
      .map(\.description).joined(separator: "\n")
  }

  /// Waits until `condition` holds for the lines so far (polled every 20 ms), at most
  /// `timeout`; returns those lines.
  func until(
    _ what: String, timeout: Duration = .seconds(20), _ condition: ([Line]) -> Bool
  ) async throws -> [Line] {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
      let lines = self.lines
      if condition(lines) { return lines }
      try await Task.sleep(for: .milliseconds(20))
    }
    throw TimedOut(what: "\(what); the steps:\n\(transcript)")
  }

  private func short(_ text: String) -> String {
    text.replacingOccurrences(of: media, with: "L")
  }
}
