import Foundation
import GStreamerEngine
import PlayerEngine
import PlayerState
import Synchronization
import Testing

@testable import PlayheadMPRIS

/// The real player over GStreamer, exported over MPRIS on the session bus, driven by
/// `playerctl` (Debian's package, a client nobody here wrote). Needs a session bus and
/// playerctl: `dbus-run-session -- swift test --filter MPRIS` (Examples/ci.sh does, with
/// PLAYHEAD_REQUIRE_MPRIS=1 so that it fails instead of skipping).
@Suite("MPRIS driven by playerctl", .serialized, .timeLimit(.minutes(2)))
struct MPRISPlayerctlTests {
  @Test(
    .enabled(
      if: Client.canRun || Client.required,
      "needs a session bus (DBUS_SESSION_BUS_ADDRESS) and playerctl on PATH: run it under `dbus-run-session -- swift test --filter MPRIS` after `apt-get install playerctl dbus-daemon`"
    ))
  func playerctlDrivesTheRealPlayer() async throws {
    try #require(
      Client.canRun,
      "PLAYHEAD_REQUIRE_MPRIS is set but DBUS_SESSION_BUS_ADDRESS=\(Client.busAddress ?? "unset"), playerctl at \(Client.playerctl ?? "nowhere")"
    )
    let folder = try TestMedia.folder()
    var letters: [String: String] = [:]
    var media: [MediaID] = []
    for letter in ["A", "B", "C"] {
      let path = folder.appendingPathComponent("\(letter).wav").path
      try TestMedia.wav(milliseconds: 8_000).write(to: URL(fileURLWithPath: path))
      letters[path] = letter
      media.append(MediaID(path))
    }
    let log = StepLog(letters: letters)
    let engine = GStreamerEngine(
      options: .init(positionInterval: .milliseconds(100), reportsDuration: true))
    let player = Player(engine: engine) { step in log.record(step) }
    let states = player.stateChanges()
    player.send(.queue(media, playWhenReady: false))
    _ = try await kinds(in: states, until: .paused)

    let instance = "test\(ProcessInfo.processInfo.processIdentifier)"
    let server = try MPRISServer(
      player: player, instance: instance,
      identity: MPRISIdentity(supportedMimeTypes: ["audio/x-wav"]))
    try server.start()
    defer {
      server.stop()
      player.send(.stop)
    }
    let client = Client(player: "playhead.\(instance)", log: log)
    // The signals, as another client on the bus sees them.
    let monitor = try Client.start(
      "gdbus", ["monitor", "--session", "--dest", server.busName, "--object-path", MPRISNames.objectPath])
    // gdbus subscribes to the signals, then watches the name: once it says who owns the
    // name, it hears every signal from then on.
    try await monitor.until(contains: "is owned by")

    // What playerctl reads back before anything is sent.
    #expect(try await client.read(["status"]) == "Paused")
    #expect(
      try await client.read(["metadata"]).split(separator: "\n").map(columns) == [
        ["playhead", "mpris:trackid", "'/dev/playhead/Entry/1'"],  // playerctl prints an `o` quoted
        ["playhead", "xesam:title", media[0].rawValue],
        ["playhead", "mpris:length", "8000000"],
      ])
    #expect(try await client.read(["position"]) == "0.000000")

    // play-pause: the machine's toggle starts the paused entry.
    #expect(try await client.control(["play-pause"]) == ["remote(toggle): start(A#1)"])
    try await client.until(["status"], is: "Playing")
    try await Task.sleep(for: .milliseconds(300))
    let playing = try #require(Double(try await client.read(["position"])))
    #expect(playing > 0.1 && playing < 8, "\(playing)")

    // position 1+: Seek(+1 s), relative to the machine's own position.
    let skip = try await client.control(["position", "1+"])
    #expect(skip.count == 1 && skip[0].hasPrefix("remote(skip(+1000ms)): seek(A#1, "), "\(skip)")
    let target = try #require(skip.first.flatMap(Client.seekTarget))
    // From the machine's last known position, which trails the extrapolated one playerctl read
    // by up to a position report (100 ms) and then moves on while playerctl starts.
    let skippedFrom = Double(target) / 1000 - 1
    #expect(skippedFrom > playing - 0.3 && skippedFrom < playing + 2, "\(target) ms after \(playing) s")
    let afterSkip = try #require(Double(try await client.read(["position"])))
    #expect(afterSkip >= Double(target) / 1000 - 0.05, "\(afterSkip)")

    // next: entry 2 (B), which the machine preloaded: gapless or reloaded, B starts.
    let next = try await client.control(["next"])
    #expect(next.count == 1 && next[0].hasPrefix("remote(next): stop(A#1)") && next[0].contains("(B#"), "\(next)")
    try await client.until(["metadata", "mpris:trackid"], is: "'/dev/playhead/Entry/2'")
    #expect(try await client.read(["metadata", "title"]) == media[1].rawValue)

    // previous, right after next: back to entry 1 (A) with a new load.
    let previous = try await client.control(["previous"])
    #expect(previous.count == 1 && previous[0].hasPrefix("remote(previous): stop(B#") && previous[0].contains("load(A#"), "\(previous)")
    try await client.until(["metadata", "mpris:trackid"], is: "'/dev/playhead/Entry/1'")
    try await client.until(["status"], is: "Playing")

    // play-pause while playing: the toggle pauses.
    let pause = try await client.control(["play-pause"])
    #expect(pause.count == 1 && pause[0].hasPrefix("remote(toggle): pause(A#"), "\(pause)")
    try await client.until(["status"], is: "Paused")

    // position 0.5: SetPosition(the current track id, 500000 µs).
    let set = try await client.control(["position", "0.5"])
    #expect(set.count == 1 && set[0].hasPrefix("remote(setPosition(A item1, 500ms)): seek(A#") && set[0].contains(", 500ms, seek#"), "\(set)")
    try await client.until(["position"], is: "0.500000")

    // A stale track id (entry 2 is no longer current) changes nothing; a malformed one is an error.
    let quiet = log.count
    let stale = try await Client.run(
      "gdbus",
      [
        "call", "--session", "--dest", server.busName, "--object-path", MPRISNames.objectPath,
        "--method", "org.mpris.MediaPlayer2.Player.SetPosition", "/dev/playhead/Entry/2", "100000",
      ])
    #expect(stale.status == 0, "\(stale)")
    let malformed = try await Client.run(
      "gdbus",
      [
        "call", "--session", "--dest", server.busName, "--object-path", MPRISNames.objectPath,
        "--method", "org.mpris.MediaPlayer2.Player.SetPosition", "/dev/playhead/Entry/0", "100000",
      ])
    #expect(malformed.status != 0)
    #expect(malformed.stderr.contains("org.freedesktop.DBus.Error.InvalidArgs"), "\(malformed)")
    try await Task.sleep(for: .milliseconds(200))
    #expect(log.intents(since: quiet).allSatisfy { $0 == "remote(setPosition(B item2, 100ms)): none" }, "\(log.intents(since: quiet))")
    #expect(try await client.read(["position"]) == "0.500000")

    // Seek past the end while playing: the skip is clamped to the duration, the entry ends
    // through the normal end rule, and the next entry plays: the spec's "acts like Next".
    #expect(try await client.control(["play"]).first?.hasPrefix("remote(resume): start(A#") == true)
    let past = try await client.control(["position", "100+"])
    #expect(past.count == 1 && past[0].hasPrefix("remote(skip(+100000ms)): seek(A#") && past[0].contains(", 8000ms, seek#"), "\(past)")
    try await client.until(["metadata", "mpris:trackid"], is: "'/dev/playhead/Entry/2'")
    try await client.until(["status"], is: "Playing")

    // Volume: `volume 0.3` writes the property, the machine sets the user's volume and sends it
    // to the playing load (and to the preload, when there is one); `volume 0.1-` reads it back
    // and writes 0.19999999999999998, which is 0.2 to the thousandth. Muted, MPRIS reads 0.
    #expect(try await client.read(["volume"]) == "1.000000")
    let lower = try await client.control(["volume", "0.3"])
    #expect(lower.count == 1 && lower[0].hasPrefix("remote(volume(0.3)): setVolume(B#") && lower[0].contains(", 0.3)"), "\(lower)")
    try await client.until(["volume"], is: "0.300000")
    let step = try await client.control(["volume", "0.1-"])
    #expect(step.count == 1 && step[0].hasPrefix("remote(volume(0.2)): setVolume(B#") && step[0].contains(", 0.2)"), "\(step)")
    try await client.until(["volume"], is: "0.200000")
    player.send(.mute)
    try await client.until(["volume"], is: "0.000000")
    player.send(.unmute)
    try await client.until(["volume"], is: "0.200000")

    // PropertiesChanged and Seeked, in step order (a property that did not change is not sent).
    let signals = await monitor.finish().stdout.split(separator: "\n").map(String.init)
    let expectedSignals = [
      "PropertiesChanged ('org.mpris.MediaPlayer2.Player', {'PlaybackStatus': <'Playing'>}, @as [])",
      "Seeked (int64 \(target * 1000),)",
      "{'Metadata': <{'mpris:trackid': <objectpath '/dev/playhead/Entry/2'>, 'xesam:title': <'\(media[1].rawValue)'>}>",
      "{'Metadata': <{'mpris:trackid': <objectpath '/dev/playhead/Entry/1'>, 'xesam:title': <'\(media[0].rawValue)'>}>",
      "mpris:length': <int64 8000000>}>",
      "PropertiesChanged ('org.mpris.MediaPlayer2.Player', {'PlaybackStatus': <'Paused'>}, @as [])",
      "Seeked (int64 500000,)",
      "Seeked (int64 8000000,)",
      "{'Metadata': <{'mpris:trackid': <objectpath '/dev/playhead/Entry/2'>",
      "PropertiesChanged ('org.mpris.MediaPlayer2.Player', {'Volume': <0.29999999999999999>}, @as [])",
      "{'Volume': <0.20000000000000001>}", "{'Volume': <0.0>}", "{'Volume': <0.20000000000000001>}",
    ]
    var remaining = expectedSignals[...]
    for line in signals where remaining.first.map(line.contains) == true { remaining.removeFirst() }
    #expect(remaining.isEmpty, "not seen in order: \(Array(remaining))\nsignals:\n\(signals.joined(separator: "\n"))")
    #expect(signals.filter { $0.contains("Seeked") }.count == 3, "\(signals.filter { $0.contains("Seeked") })")
    #expect(!signals.contains { $0.contains("'Position'") }, "Position never emits PropertiesChanged")

    print("MPRIS test, the player's steps (positions left out):\n  " + log.transcript.withLock { $0 }.joined(separator: "\n  "))
    let trips = client.roundTrips.withLock { $0 }.sorted()
    let spawn = try await Client.spawnTime()
    print(
      "MPRIS round trip (playerctl command → engine command), \(trips.count) commands: median "
        + "\(Client.milliseconds(trips[trips.count / 2])) ms, max \(Client.milliseconds(trips.last ?? .zero)) ms; "
        + "starting `playerctl --version` alone takes \(Client.milliseconds(spawn)) ms")
  }
}

/// The server's life on a real bus: a taken name is a clear error, stop releases the name.
@Suite("MPRIS server lifecycle", .serialized, .timeLimit(.minutes(1)))
struct MPRISServerLifecycleTests {
  @Test(
    .enabled(
      if: Client.busAddress != nil || Client.required,
      "needs a session bus (DBUS_SESSION_BUS_ADDRESS): run it under `dbus-run-session`"))
  func aTakenNameIsAClearErrorAndStopReleasesIt() throws {
    try #require(Client.busAddress != nil, "PLAYHEAD_REQUIRE_MPRIS is set but there is no session bus")
    let player = Player(engine: GStreamerEngine())
    let instance = "lifecycle\(ProcessInfo.processInfo.processIdentifier)"
    let first = try MPRISServer(player: player, instance: instance)
    try first.start()
    let second = try MPRISServer(player: player, instance: instance)
    let taken = #expect(throws: MPRISServerError.self) { try second.start() }
    #expect(
      taken?.message
        == "org.mpris.MediaPlayer2.playhead.\(instance) is owned by another connection (RequestName: 3)")
    second.stop()  // harmless after a failed start
    first.stop()
    first.stop()  // and twice
    let third = try MPRISServer(player: player, instance: instance)
    try third.start()  // the name was released
    #expect(throws: MPRISServerError.self) { try third.start() }
    third.stop()
  }
}

/// The D-Bus glue's answers with a fake player (the `MPRISPlayer` seam): the spec's errors,
/// property writes and reads, as gdbus and playerctl see them.
@Suite("MPRIS server answers", .serialized, .timeLimit(.minutes(1)))
struct MPRISServerAnswerTests {
  /// A player with no entry, or one entry, that records what it is sent.
  final class FakePlayer: MPRISPlayer {
    let view: Mutex<MPRISView>
    let sent = Mutex<[MPRISCommand]>([])
    let continuation: AsyncStream<MPRISUpdate>.Continuation
    let stream: AsyncStream<MPRISUpdate>

    init(_ view: MPRISView) {
      self.view = Mutex(view)
      (stream, continuation) = AsyncStream.makeStream(of: MPRISUpdate.self)
    }
    var mprisView: MPRISView { view.withLock { $0 } }
    func mprisSend(_ command: MPRISCommand) { sent.withLock { $0.append(command) } }
    func mprisUpdates() -> AsyncStream<MPRISUpdate> { stream }
  }

  @Test(
    .enabled(
      if: Client.canRun || Client.required,
      "needs a session bus (DBUS_SESSION_BUS_ADDRESS) and playerctl: run it under `dbus-run-session`"))
  func errorsWritesAndReadsOverDBus() async throws {
    try #require(Client.canRun, "PLAYHEAD_REQUIRE_MPRIS is set but the bus or playerctl is missing")
    let player = FakePlayer(.empty)
    let instance = "answers\(ProcessInfo.processInfo.processIdentifier)"
    let server = try MPRISServer(
      player: player, instance: instance,
      identity: MPRISIdentity(desktopEntry: "playhead", minimumRate: 0.5, maximumRate: 2))
    try server.start()
    defer { server.stop() }
    func call(_ method: String, _ arguments: String...) async throws -> Client.Output {
      try await Client.run(
        "gdbus",
        ["call", "--session", "--dest", server.busName, "--object-path", MPRISNames.objectPath,
         "--method", method] + arguments)
    }

    // No current entry: CanPlay is false, so playerctl refuses (its own check), and
    // PlayPause itself is the spec's error.
    let refused = try await Client.run(
      Client.playerctl ?? "playerctl", ["--player=playhead.\(instance)", "play-pause"])
    #expect(refused.status == 1 && refused.stderr.contains("No player could handle this command"), "\(refused)")
    let playPause = try await call("org.mpris.MediaPlayer2.Player.PlayPause")
    #expect(playPause.status != 0 && playPause.stderr.contains("org.freedesktop.DBus.Error.NotSupported"), "\(playPause)")
    let open = try await call("org.mpris.MediaPlayer2.Player.OpenUri", "file:///tmp/a.wav")
    #expect(open.stderr.contains("OpenUri is not supported"), "\(open)")
    #expect(try await call("org.mpris.MediaPlayer2.Raise").status == 0)
    #expect(try await call("org.mpris.MediaPlayer2.Player.Play").status == 0)
    #expect(player.sent.withLock { $0 } == [.resume])  // no effect is the machine's to decide

    // Rate: 0 pauses, 1.5 is in [0.5, 2], 3 is refused; Volume is clamped to [0, 1]; Position
    // is read only.
    let set = "org.freedesktop.DBus.Properties.Set"
    #expect(try await call(set, MPRISNames.player, "Rate", "<0.0>").status == 0)
    #expect(try await call(set, MPRISNames.player, "Rate", "<1.5>").status == 0)
    let tooFast = try await call(set, MPRISNames.player, "Rate", "<3.0>")
    #expect(tooFast.stderr.contains("org.freedesktop.DBus.Error.InvalidArgs"), "\(tooFast)")
    #expect(try await call(set, MPRISNames.player, "Volume", "<0.5>").status == 0)
    #expect(try await call(set, MPRISNames.player, "Volume", "<1.5>").status == 0)
    #expect(try await call(set, MPRISNames.player, "Volume", "<-0.5>").status == 0)
    let notANumber = try await call(set, MPRISNames.player, "Volume", "<double nan>")
    #expect(notANumber.stderr.contains("org.freedesktop.DBus.Error.InvalidArgs"), "\(notANumber)")
    let position = try await call(set, MPRISNames.player, "Position", "<int64 5>")
    #expect(position.status != 0 && position.stderr.contains("Position"), "\(position)")
    #expect(
      player.sent.withLock { $0 } == [
        .resume, .pause, .setRate(PlaybackRate(thousandths: 1_500)), .setVolume(0.5),
        .setVolume(.full), .setVolume(.silent),
      ])

    // Reads: the root interface, and an update reaching the properties.
    let get = "org.freedesktop.DBus.Properties.Get"
    #expect(try await call(get, MPRISNames.root, "Identity").stdout == "(<'Playhead'>,)\n")
    #expect(try await call(get, MPRISNames.root, "DesktopEntry").stdout == "(<'playhead'>,)\n")
    #expect(try await call(get, MPRISNames.player, "CanControl").stdout == "(<true>,)\n")
    player.continuation.yield(
      MPRISUpdate(
        view: MPRISView(
          status: .paused, track: MPRISTrack(item: ItemID(3), title: "x.wav", length: .seconds(2)),
          elapsed: .milliseconds(250), canSeek: true),
        seeked: true))
    try await Task.sleep(for: .milliseconds(100))
    #expect(try await call(get, MPRISNames.player, "Position").stdout == "(<int64 250000>,)\n")
    #expect(
      try await call(get, MPRISNames.player, "Metadata").stdout
        == "(<{'mpris:trackid': <objectpath '/dev/playhead/Entry/3'>, 'xesam:title': <'x.wav'>, 'mpris:length': <int64 2000000>}>,)\n")
    #expect(
      try await Client.run(Client.playerctl ?? "playerctl", ["--player=playhead.\(instance)", "status"]).stdout
        == "Paused\n")
  }
}

/// Splits a `playerctl metadata` line into its three columns (player, key, value).
private func columns(_ line: Substring) -> [String] {
  let parts = line.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
  guard parts.count == 2 else { return [String(line)] }
  let rest = parts[1].drop { $0 == " " }
  let keyAndValue = rest.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
  return [String(parts[0])] + keyAndValue.map { String($0.drop { $0 == " " }) }
}

/// Every step the player processed, with when and the engine commands it issued.
final class StepLog: Sendable {
  struct Entry {
    let at: ContinuousClock.Instant
    /// For an intent (`load == nil`): `remote(toggle): start(A#1)`; nil for engine reports.
    let intent: String?
  }
  private let entries = Mutex<[Entry]>([])
  private let letters: [String: String]
  /// Every step, `event: commands`, paths as letters and positions left out: printed when the test fails.
  let transcript = Mutex<[String]>([])

  init(letters: [String: String]) { self.letters = letters }

  func record(_ step: PlayerStep) {
    let now = ContinuousClock.now
    var intent: String?
    if step.event.load == nil, step.event.source != .system {
      let commands = step.transition.commands.description(naming: step.media(of:))
      intent = short("\(step.event.description(naming: step.media(of:))): \(commands)")
    }
    entries.withLock { $0.append(Entry(at: now, intent: intent)) }
    if case .engine(.position) = step.event { return }
    let commands = step.transition.commands.description(naming: step.media(of:))
    let line = short("\(step.event.description(naming: step.media(of:))): \(commands) -> \(step.after)")
    transcript.withLock { $0.append(line) }
  }

  var count: Int { entries.withLock { $0.count } }

  /// The intents recorded since `index`, with their commands.
  func intents(since index: Int) -> [String] {
    entries.withLock { Array($0[index...]) }.compactMap(\.intent)
  }

  /// The first intent recorded since `index`, and when.
  func firstIntent(since index: Int) -> (String, ContinuousClock.Instant)? {
    entries.withLock { Array($0[min(index, $0.count)...]) }.first { $0.intent != nil }.map {
      ($0.intent!, $0.at)
    }
  }

  /// Paths written as their letters.
  private func short(_ text: String) -> String {
    letters.reduce(text) { $0.replacingOccurrences(of: $1.key, with: $1.value) }
  }
}

/// playerctl (and gdbus) run as processes, as a user would.
final class Client: Sendable {
  static let environment = ProcessInfo.processInfo.environment
  static let busAddress = environment["DBUS_SESSION_BUS_ADDRESS"]
  static let required = environment["PLAYHEAD_REQUIRE_MPRIS"] == "1"
  static let playerctl = which("playerctl")
  static var canRun: Bool { busAddress != nil && playerctl != nil }

  let player: String
  let log: StepLog
  let roundTrips = Mutex<[Duration]>([])

  init(player: String, log: StepLog) {
    self.player = player
    self.log = log
  }

  struct Output: CustomStringConvertible {
    let status: Int32
    let stdout: String
    let stderr: String
    var description: String { "exit \(status), stdout \(stdout.debugDescription), stderr \(stderr.debugDescription)" }
  }

  /// What `playerctl --player=<player> <arguments>` prints, trimmed; it must exit 0.
  func read(_ arguments: [String]) async throws -> String {
    let output = try await Client.run(Client.playerctl ?? "playerctl", ["--player=\(player)"] + arguments)
    #expect(output.status == 0, "playerctl \(arguments.joined(separator: " ")): \(output)")
    return output.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// Runs a playerctl command that controls the player, then waits for the intent it
  /// caused; returns the intents it caused with their engine commands, and records the
  /// round trip (from starting playerctl to the step whose commands the engine ran).
  func control(_ arguments: [String]) async throws -> [String] {
    let mark = log.count
    let started = ContinuousClock.now
    _ = try await read(arguments)
    let deadline = started + .seconds(5)
    while log.firstIntent(since: mark) == nil, ContinuousClock.now < deadline {
      try await Task.sleep(for: .milliseconds(5))
    }
    let (_, at) = try #require(log.firstIntent(since: mark), "no intent after playerctl \(arguments)")
    roundTrips.withLock { $0.append(at - started) }
    return log.intents(since: mark)
  }

  /// Polls `playerctl … <arguments>` until it prints `expected` (5 s at most).
  func until(_ arguments: [String], is expected: String) async throws {
    var last = ""
    for _ in 0..<100 {
      last = try await read(arguments)
      if last == expected { return }
      try await Task.sleep(for: .milliseconds(50))
    }
    Issue.record("playerctl \(arguments.joined(separator: " ")) printed \(last.debugDescription), not \(expected.debugDescription)")
  }

  /// The target in milliseconds of `… seek(A#1, 2345ms, seek#1)`.
  static func seekTarget(_ line: String) -> Int? {
    guard let range = line.range(of: #"seek\([^,]+, (\d+)ms"#, options: .regularExpression) else { return nil }
    let digits = line[range].split(separator: " ").last?.dropLast(2) ?? ""
    return Int(digits)
  }

  /// How long starting `playerctl --version` takes: the part of a round trip that is process start-up.
  static func spawnTime() async throws -> Duration {
    var best = Duration.seconds(60)
    for _ in 0..<3 {
      let started = ContinuousClock.now
      _ = try await run(playerctl ?? "playerctl", ["--version"])
      best = min(best, ContinuousClock.now - started)
    }
    return best
  }

  static func milliseconds(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    return String(format: "%.1f", Double(seconds) * 1000 + Double(attoseconds) / 1e15)
  }

  /// Runs a program (found on PATH) to its end, without blocking a thread of the task pool.
  static func run(_ program: String, _ arguments: [String]) async throws -> Output {
    try await start(program, arguments).wait()
  }

  /// Starts a program (found on PATH); its output is read once it ends (keep it under 64 KiB).
  static func start(_ program: String, _ arguments: [String]) throws -> Running {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program.hasPrefix("/") ? program : which(program) ?? program)
    process.arguments = arguments
    let running = Running(process: process)
    process.standardOutput = running.out
    process.standardError = running.err
    process.terminationHandler = { [done = running.done] _ in done.fire() }
    try process.run()
    return running
  }

  /// A started program.
  final class Running: Sendable {
    let process: Process
    let out = Pipe()
    let err = Pipe()
    let done = Signal()

    init(process: Process) { self.process = process }

    /// Waits for the end and returns what it printed.
    func wait() async -> Output {
      await done.wait()
      let rest = out.fileHandleForReading.readDataToEndOfFile()
      let stdout = printed.withLock { $0 + String(decoding: rest, as: UTF8.self) }
      let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      return Output(status: process.terminationStatus, stdout: stdout, stderr: stderr)
    }

    /// What it printed so far, read as it comes once ``until(contains:)`` was called.
    private let printed = Printed()

    /// Text under a lock, shared with the pipe's handler.
    final class Printed: Sendable {
      private let text = Mutex("")
      func withLock<T>(_ body: (inout String) -> T) -> T { text.withLock { body(&$0) } }
    }

    /// Waits (5 s at most) until its output so far contains `text`.
    func until(contains text: String) async throws {
      out.fileHandleForReading.readabilityHandler = { [printed] handle in
        let data = handle.availableData
        printed.withLock { $0 += String(decoding: data, as: UTF8.self) }
      }
      defer { out.fileHandleForReading.readabilityHandler = nil }
      let deadline = ContinuousClock.now + .seconds(5)
      while !printed.withLock({ $0.contains(text) }), ContinuousClock.now < deadline {
        try await Task.sleep(for: .milliseconds(5))
      }
      #expect(printed.withLock { $0.contains(text) }, "\(process.arguments ?? []) never printed \(text)")
    }

    /// Ends it (SIGKILL: a child of the test process starts with almost every signal blocked,
    /// the mask of the thread that spawned it, so SIGTERM would wait for ever) and returns what
    /// it printed.
    func finish() async -> Output {
      kill(process.processIdentifier, SIGKILL)
      return await wait()
    }
  }

  static func which(_ program: String) -> String? {
    for folder in (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
      let path = "\(folder)/\(program)"
      if FileManager.default.isExecutableFile(atPath: path) { return path }
    }
    return nil
  }
}
