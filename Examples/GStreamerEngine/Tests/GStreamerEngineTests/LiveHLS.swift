import CGStreamer
import Foundation

/// A real live HLS stream, made inside the test and offline: GStreamer's `hlssink2` writes
/// one-second MPEG-TS segments of a live sine tone (`audiotestsrc is-live=true`, MP3) and a
/// sliding playlist of the newest `playlistLength` of them, with no `#EXT-X-ENDLIST`, into a
/// temporary folder; Python's `http.server` serves that folder on 127.0.0.1, as a live stream is
/// served. The playlist slides by a segment every second, so the stream's
/// seekable window is `playlistLength − 3` seconds long (hlsdemux keeps three target
/// durations back from the playlist's end as the live edge) and moves with the wall clock.
///
/// Not `Sendable`: made, used and stopped by one test.
final class LiveHLS {
  /// The playlist's URL, `http://127.0.0.1:<port>/live.m3u8`.
  private(set) var url = ""
  private var stopped = false
  private let producer: UnsafeMutablePointer<GstElement>
  /// The temporary folder: the segments, the playlist and the server's port file.
  private let folder: URL
  private let server: Process

  /// Why a live source cannot be made here, or nil when it can: the GStreamer elements it
  /// needs (gstreamer1.0-plugins-bad's `hlssink2`, `mpegtsmux` and `hlsdemux`, the demuxer
  /// playbin picks; plugins-good's `lamemp3enc` and `souphttpsrc`) and Python 3.
  static var missing: String? {
    playhead_gst_init()
    let elements = ["hlssink2", "mpegtsmux", "lamemp3enc", "hlsdemux", "souphttpsrc"]
    let absent = elements.filter { playhead_has_element($0) == 0 }
    if !absent.isEmpty { return "GStreamer elements missing: \(absent.joined(separator: ", "))" }
    if python == nil { return "python3 not found" }
    return nil
  }

  /// Whether the live tests must run (`PLAYHEAD_REQUIRE_LIVE=1`, set by Examples/ci.sh): they
  /// then fail, instead of being skipped, where the source cannot be made.
  static let required = ProcessInfo.processInfo.environment["PLAYHEAD_REQUIRE_LIVE"] == "1"

  private static var python: String? {
    ["/usr/bin/python3", Client.which("python3")].compactMap { $0 }.first {
      FileManager.default.isExecutableFile(atPath: $0)
    }
  }

  /// Serves a folder on 127.0.0.1 at a free port, which it writes to the file `argv[2]`;
  /// logs nothing; exits when its parent (the test process) is gone, or after 10 minutes.
  private static let serverScript = """
    import functools, http.server, os, sys, threading, time
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args): pass
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(Quiet, directory=sys.argv[1]))
    with open(sys.argv[2] + ".tmp", "w") as f: f.write(str(server.server_address[1]))
    os.rename(sys.argv[2] + ".tmp", sys.argv[2])
    parent, began = os.getppid(), time.monotonic()
    def watch():
        while os.getppid() == parent and time.monotonic() - began < 600: time.sleep(0.5)
        os._exit(0)
    threading.Thread(target=watch, daemon=True).start()
    server.serve_forever()
    """

  /// Starts the producer and the server, and waits until the playlist lists
  /// `playlistLength` segments (about `playlistLength` seconds).
  /// - Parameter playlistLength: how many segments the sliding playlist keeps (3 or more).
  init(playlistLength: Int) async throws {
    if let missing = Self.missing { throw LiveHLSError(what: missing) }
    folder = try TestMedia.folder()
    let media = folder.appendingPathComponent("media")
    try FileManager.default.createDirectory(at: media, withIntermediateDirectories: true)
    let playlist = media.appendingPathComponent("live.m3u8").path
    let description = """
      audiotestsrc is-live=true freq=440 ! audioconvert ! lamemp3enc ! mpegaudioparse ! \
      hlssink2 target-duration=1 playlist-length=\(playlistLength) \
      max-files=\(playlistLength + 20) location=\(media.path)/segment%05d.ts \
      playlist-location=\(playlist)
      """
    guard let producer = playhead_start_pipeline(description) else {
      throw LiveHLSError(what: "the producer did not start: \(description)")
    }
    self.producer = producer
    let portFile = folder.appendingPathComponent("port").path
    server = Process()
    server.executableURL = URL(fileURLWithPath: Self.python ?? "/usr/bin/python3")
    server.arguments = ["-c", Self.serverScript, media.path, portFile]
    server.standardOutput = FileHandle.nullDevice
    server.standardError = FileHandle.nullDevice
    do {
      try server.run()
    } catch {
      playhead_stop_pipeline(producer)
      throw error
    }
    var port: String?
    let deadline = ContinuousClock.now + .seconds(20 + playlistLength * 2)
    while ContinuousClock.now < deadline {
      if port == nil { port = try? String(contentsOfFile: portFile, encoding: .utf8) }
      var text = [CChar](repeating: 0, count: 512)
      if playhead_pipeline_error(producer, &text, text.count) != 0 {
        stop()
        let message = String(
          decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        throw LiveHLSError(what: "the producer failed: \(message)")
      }
      let listed =
        (try? String(contentsOfFile: playlist, encoding: .utf8))?
        .components(separatedBy: "#EXTINF").count ?? 1
      if port != nil, listed - 1 >= playlistLength { break }
      try await Task.sleep(for: .milliseconds(100))
    }
    guard let port else {
      stop()
      throw LiveHLSError(what: "the HTTP server wrote no port")
    }
    url = "http://127.0.0.1:\(port)/live.m3u8"
  }

  /// Stops the producer and the server (SIGKILL: a child of the test process starts with
  /// almost every signal blocked) and removes the folder.
  func stop() {
    if server.isRunning { kill(server.processIdentifier, SIGKILL) }
    if !stopped {
      stopped = true
      playhead_stop_pipeline(producer)  // synchronous: nothing writes into the folder after it
      try? FileManager.default.removeItem(at: folder)
    }
  }

  deinit { stop() }
}

/// Why a live source could not be made.
struct LiveHLSError: Error, CustomStringConvertible {
  let what: String
  var description: String { "live HLS source: \(what)" }
}
