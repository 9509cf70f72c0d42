import PlayerEngine
import PlayerState
import Synchronization
import Testing

@testable import GStreamerEngine

/// The pipeline's volume as a value (no pipeline): steps, ramps, and the preload's own volume.
/// Ramps of 1 s stepped at quarters, from levels that are binary fractions: every level is
/// exact.
@Suite("PipelineVolume")
struct PipelineVolumeTests {
  let start = ContinuousClock.now

  func at(_ milliseconds: Int64) -> ContinuousClock.Instant { start + .milliseconds(milliseconds) }

  @Test func aNewPipelineIsAtFullAndAStepSetsTheTargetAtOnce() {
    var volume = PipelineVolume()
    #expect(volume.level == 1)
    #expect(volume.set(0.5, ramp: .zero, at: start) == 0.5)
    #expect(volume.set(0.5, ramp: .zero, at: start) == nil)  // already there: nothing to set
    #expect(volume.set(0, ramp: .zero, at: start) == 0)
    #expect(volume.isRamping == false)
  }

  @Test func aRampIsAStraightLineThenTheTargetExactly() {
    var volume = PipelineVolume()
    #expect(volume.set(0.5, ramp: .seconds(1), at: start) == nil)  // at its start: still 1
    #expect(volume.isRamping)
    #expect(volume.step(at: at(250)) == 0.875)
    #expect(volume.step(at: at(250)) == nil)  // no time passed: no change
    #expect(volume.step(at: at(500)) == 0.75)
    #expect(volume.step(at: at(750)) == 0.625)
    #expect(volume.step(at: at(1_000)) == 0.5)
    #expect(volume.isRamping == false)
    #expect(volume.step(at: at(1_250)) == nil)
    #expect(volume.level == 0.5)
  }

  @Test func aLateWakeLandsOnTheTarget() {
    var volume = PipelineVolume()
    _ = volume.set(0.25, ramp: .milliseconds(200), at: start)
    #expect(volume.step(at: at(5_000)) == 0.25)
    #expect(volume.isRamping == false)
  }

  @Test func aNewSetVolumeRampsFromWhereTheRampGot() {
    var volume = PipelineVolume()
    _ = volume.set(0.5, ramp: .seconds(1), at: start)
    #expect(volume.step(at: at(500)) == 0.75)
    #expect(volume.set(0.25, ramp: .seconds(1), at: at(500)) == nil)
    #expect(volume.step(at: at(1_000)) == 0.5)  // halfway from 0.75 to 0.25
    #expect(volume.step(at: at(1_500)) == 0.25)
    // A step during a ramp ends it.
    _ = volume.set(1, ramp: .seconds(1), at: at(2_000))
    #expect(volume.set(0.5, ramp: .zero, at: at(2_500)) == 0.5)
    #expect(volume.isRamping == false)
  }

  @Test func thePreloadPlaysAtItsOwnVolumeFullUnlessTold() {
    var volume = PipelineVolume()
    _ = volume.set(0.5, ramp: .zero, at: start)
    volume.setPreload(0.25)
    #expect(volume.preloadBecameCurrent() == 0.25)
    // The next preload was told nothing: full.
    #expect(volume.preloadBecameCurrent() == 1)
    // Told, then stopped: forgotten.
    _ = volume.set(0.5, ramp: .zero, at: start)
    volume.setPreload(0.25)
    volume.preloadDropped()
    #expect(volume.preloadBecameCurrent() == 1)
    // Told the volume the pipeline is at: nothing to set; a ramp of the load before ends.
    _ = volume.set(0.5, ramp: .seconds(1), at: start)
    #expect(volume.step(at: at(500)) == 0.75)
    volume.setPreload(0.75)
    #expect(volume.preloadBecameCurrent() == nil)
    #expect(volume.isRamping == false)
  }
}

/// playbin's `volume` property on real pipelines, read back on the pipeline's thread after
/// each change (``GStreamerEngine/Options/volumeChanged``).
@Suite("GStreamerEngine: volume on real pipelines", .serialized, .timeLimit(.minutes(1)))
struct GStreamerVolumeTests {
  /// The volume changes a pipeline read back, `token: level`, in order. The level is printed
  /// as the 32-bit float it is: playbin keeps its volume as one (0.1 reads back as
  /// 0.10000000149011612).
  final class VolumeLog: Sendable {
    private let entries = Mutex<[String]>([])
    private let ramp = Mutex<[Double]>([])

    func record(_ load: Load, _ level: Double) {
      entries.withLock { $0.append("\(load.token): \(Float(level))") }
      ramp.withLock { $0.append(level) }
    }

    var changes: [String] { entries.withLock { $0 } }
    var levels: [Double] { ramp.withLock { $0 } }

    /// Waits (10 s at most) until `entry` is the newest change read back.
    func until(_ entry: String) async throws {
      let deadline = ContinuousClock.now + .seconds(10)
      while changes.last != entry, ContinuousClock.now < deadline {
        try await Task.sleep(for: .milliseconds(5))
      }
      guard changes.last == entry else { throw TimedOut(what: "\(entry) last in \(changes)") }
    }
  }

  static func engine(_ log: VolumeLog) -> GStreamerEngine {
    var options = GStreamerEngine.Options(positionInterval: nil)
    options.volumeChanged = { load, level in log.record(load, level) }
    return GStreamerEngine(options: options)
  }

  /// A step sets playbin's property; a ramp moves it down in steps, ending on the target; a
  /// new load, in a new pipeline, plays at full.
  @Test func setVolumeSetsPlaybinsVolumeAndANewLoadPlaysAtFull() async throws {
    let path = try TestMedia.wavFile(milliseconds: 3_000)
    let volumes = VolumeLog()
    let engine = Self.engine(volumes)
    let log = ReportLog()
    let first = Load(1, 1)
    engine.execute(.load(LoadRequest(load: first, media: MediaID(path))), reports: log.sink)
    _ = try await log.first { $0 == .ready(first) }
    #expect(volumes.changes == ["1: 1.0"])  // playbin's own default

    engine.execute(.setVolume(first, 0.5), reports: log.sink)
    try await volumes.until("1: 0.5")
    engine.execute(.start(first), reports: log.sink)
    engine.execute(.setVolume(first, 0.25, ramp: .milliseconds(600)), reports: log.sink)
    try await volumes.until("1: 0.25")
    let ramp = Array(volumes.levels.dropFirst(2))
    // Stepped at the thread's wakes (every 5 ms at most): several levels between, each lower.
    #expect(ramp.count >= 3, "\(ramp)")
    #expect(ramp.last == 0.25)
    #expect(zip(ramp, ramp.dropFirst()).allSatisfy { $0 > $1 }, "\(ramp)")
    #expect(ramp.allSatisfy { $0 >= 0.25 && $0 < 0.5 }, "\(ramp)")

    // Another load: a pipeline of its own, at full until told.
    engine.execute(.stop(first), reports: log.sink)
    let second = Load(1, 2)
    engine.execute(.load(LoadRequest(load: second, media: MediaID(path))), reports: log.sink)
    _ = try await log.first { $0 == .ready(second) }
    #expect(volumes.changes.last == "2: 1.0")
    engine.execute(.setVolume(second, 0), reports: log.sink)
    try await volumes.until("2: 0.0")
    // A command for a load that is not live changes nothing.
    engine.execute(.setVolume(first, 0.75), reports: log.sink)
    engine.execute(.stop(second), reports: log.sink)
    #expect(!volumes.changes.contains("1: 0.75"))
  }

  /// Two loads in one pipeline (gapless): at the switch playbin takes the preload's own
  /// volume, the one it was told, or full if it was told none, not the ended load's.
  @Test(arguments: [(Volume?.some(0.25), "2: 0.25"), (nil, "2: 1.0")])
  func theGaplessSwitchTakesThePreloadsOwnVolume(told: Volume?, expected: String) async throws {
    // Long enough (192 kB) that the preroll has not read the whole stream: playbin's
    // `about-to-finish` comes once it has, and takes the preload's URI only if it is queued by
    // then. (Shorter, the pipeline reaches its end and is pointed at the preload after
    // `stop(current)`: the same volume, later.)
    let path = try TestMedia.wavFile(milliseconds: 2_000, sampleRate: 48_000)
    let volumes = VolumeLog()
    let engine = Self.engine(volumes)
    let log = ReportLog()
    let current = Load(1, 1)
    let preload = Load(2, 2)
    engine.execute(.load(LoadRequest(load: current, media: MediaID(path))), reports: log.sink)
    _ = try await log.first { $0 == .ready(current) }
    engine.execute(.setVolume(current, 0.5), reports: log.sink)
    engine.execute(.preload(LoadRequest(load: preload, media: MediaID(path))), reports: log.sink)
    if let told { engine.execute(.setVolume(preload, told), reports: log.sink) }
    engine.execute(.start(current), reports: log.sink)
    _ = try await log.first { $0 == .reachedEnd(current) }
    // Set at the switch's STREAM_START, before the pipeline reports the end of the load before.
    #expect(volumes.changes == ["1: 1.0", "1: 0.5", expected])
    engine.execute(.stop(current), reports: log.sink)
    engine.execute(.start(preload), reports: log.sink)
    #expect(engine.statistics.livePipelines + engine.statistics.releasedPipelines == 1)
    engine.execute(.stop(preload), reports: log.sink)
  }

  /// Through a `Player`: the machine sends each live load the effective volume. A volume set
  /// before the queue reaches the first load's pipeline as that load opens, and its preload
  /// joins the pipeline at the same volume (the switch changes nothing); a duck lowers it to
  /// 0.2 of the user's, a mute silences it, and the end of both restores the user's.
  @Test func thePlayersVolumeMuteAndDuckReachThePipeline() async throws {
    let first = try TestMedia.wavFile(milliseconds: 600)
    let second = try TestMedia.wavFile(milliseconds: 600)
    let volumes = VolumeLog()
    let player = Player(engine: Self.engine(volumes))
    let states = player.stateChanges()
    player.send(.setVolume(0.5))  // nothing live yet: kept for the loads to come
    player.send(.queue([MediaID(first), MediaID(second)]))
    _ = try await kinds(in: states, until: .ended)
    #expect(player.state.description == "ended(\(second)#2, autoplay)")
    #expect(volumes.changes == ["1: 1.0", "1: 0.5"])

    let paused = player.stateChanges()
    player.send(.queue([MediaID(first)], playWhenReady: false))
    _ = try await kinds(in: paused, until: .paused)
    try await volumes.until("3: 0.5")
    player.send(.system(.duckBegan))
    try await volumes.until("3: 0.1")
    player.send(.mute)
    try await volumes.until("3: 0.0")
    player.send(.system(.duckEnded))
    player.send(.unmute)
    try await volumes.until("3: 0.5")
    player.send(.stop)
    #expect(
      volumes.changes == ["1: 1.0", "1: 0.5", "3: 1.0", "3: 0.5", "3: 0.1", "3: 0.0", "3: 0.5"])
  }
}
