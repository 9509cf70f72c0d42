import Foundation
import GStreamerEngine
import PlayerEngine
import PlayerState
import Testing

@testable import PlayheadMPRIS

extension MPRISPlayerctlTests {
  /// A live stream without DVR (issue 38) over MPRIS, read by playerctl and gdbus: no
  /// `mpris:length` in `Metadata`, and `CanSeek` false (the machine's `availableCommands` drop
  /// `seek` and `skip`). The stream is ``LiveHLS`` with a playlist of three segments, all of
  /// them held back as the live edge: hlsdemux answers the seeking query not seekable, and
  /// the engine reports a window of zero length at the position.
  @Test(
    .enabled(
      if: (Client.canRun || Client.required) && (LiveHLS.missing == nil || LiveHLS.required),
      "needs a session bus and playerctl (see playerctlDrivesTheRealPlayer), GStreamer's hlssink2 and python3"
    ))
  func aLiveStreamHasNoLengthAndCannotSeek() async throws {
    try #require(Client.canRun, "PLAYHEAD_REQUIRE_MPRIS is set but there is no bus or playerctl")
    let source = try await LiveHLS(playlistLength: 3)
    defer { source.stop() }
    let log = StepLog(letters: [source.url: "L"])
    let engine = GStreamerEngine(options: .init(positionInterval: .milliseconds(100)))
    let player = Player(engine: engine) { step in log.record(step) }
    let states = player.stateChanges()
    player.send(.play(MediaID(source.url)))
    _ = try await kinds(in: states, until: .playing) { $0.streamKind == .live }
    #expect(player.state.description == "playing(\(source.url)#1, live)")

    let instance = "live\(ProcessInfo.processInfo.processIdentifier)"
    let server = try MPRISServer(player: player, instance: instance)
    try server.start()
    defer {
      server.stop()
      player.send(.stop)
    }
    let client = Client(player: "playhead.\(instance)", log: log)
    #expect(try await client.read(["status"]) == "Playing")
    // No mpris:length: a live stream has no duration.
    #expect(
      try await client.read(["metadata"]).split(separator: "\n").map {
        $0.split(separator: " ", omittingEmptySubsequences: true).prefix(2).joined(separator: " ")
      } == ["playhead mpris:trackid", "playhead xesam:title"])
    #expect(try await client.read(["metadata", "title"]) == source.url)
    let canSeek = try await Client.run(
      "gdbus",
      [
        "call", "--session", "--dest", server.busName, "--object-path", MPRISNames.objectPath,
        "--method", "org.freedesktop.DBus.Properties.Get", "org.mpris.MediaPlayer2.Player",
        "CanSeek",
      ])
    #expect(canSeek.status == 0, "\(canSeek)")
    #expect(canSeek.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "(<false>,)")
    // A Seek sent anyway (gdbus; playerctl may refuse it itself) is refused by the machine.
    let mark = log.count
    let seek = try await Client.run(
      "gdbus",
      [
        "call", "--session", "--dest", server.busName, "--object-path", MPRISNames.objectPath,
        "--method", "org.mpris.MediaPlayer2.Player.Seek", "1000000",
      ])
    #expect(seek.status == 0, "\(seek)")
    let deadline = ContinuousClock.now + .seconds(5)
    while log.intents(since: mark).isEmpty, ContinuousClock.now < deadline {
      try await Task.sleep(for: .milliseconds(10))
    }
    #expect(log.intents(since: mark) == ["remote(skip(+1000ms)): none"])
    #expect(player.state.streamKind == .live)
  }
}
