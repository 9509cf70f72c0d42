import PlayerState

/// The volume of one pipeline, as a value: the level playbin's `volume` property is at, a
/// ramp toward the current load's target, and the volume the preload queued behind it was
/// told. No GStreamer call; the pipeline's thread sets what it returns.
///
/// playbin has one `volume` (linear: 0 silent, 1 full), and a pipeline plays one load at a
/// time: its current load, then (gapless) the preload queued behind it. Each load has a volume
/// of its own, full (1) unless a `setVolume` named it; so the pipeline takes the current
/// load's, and at the switch to the preload, the preload's (full if nobody told it one).
///
/// A ramp (`setVolume(L, v, ramp: d)` with `d` > 0) is stepped by the pipeline's thread, which
/// wakes at least every poll interval (5 ms by default): at each wake the level is the straight
/// line from where the pipeline was when the ramp began to the target, at the time elapsed,
/// and the target exactly once `d` has passed. A new `setVolume` starts from wherever the ramp
/// had got to. Stepping on the thread, rather than a `GstController` on the volume property:
/// playbin's own `volume` is a proxy, not a controllable property (a control source would
/// have to reach into playbin's internal `volume` element, which playbin rebuilds per stream),
/// and the thread already wakes every few milliseconds to poll the bus.
struct PipelineVolume: Sendable {
  /// A ramp in progress: from `from` at `start` to `to` after `length`.
  private struct Ramp: Sendable {
    let from: Double
    let to: Double
    let start: ContinuousClock.Instant
    let length: Duration
  }

  /// The level the pipeline was last set to (linear, 0…1): 1 for a new playbin (its default).
  private(set) var level = 1.0
  private var ramp: Ramp?
  /// The volume the queued preload was told; nil when it was told none (it plays at full).
  private var preload: Volume?

  /// A new pipeline's: full, no ramp, no preload.
  init() {}

  /// Whether a ramp is in progress (the thread steps it with ``step(at:)``).
  var isRamping: Bool { ramp != nil }

  /// `setVolume` for the pipeline's current load.
  /// - Parameters:
  ///   - volume: the target.
  ///   - length: the ramp; zero or less sets the target at once.
  ///   - now: the time the command is applied.
  /// - Returns: the level to set now; nil when it does not change (a ramp's first step comes
  ///   from ``step(at:)``).
  mutating func set(_ volume: Volume, ramp length: Duration, at now: ContinuousClock.Instant)
    -> Double?
  {
    let target = volume.level
    guard length > .zero else {
      ramp = nil
      return change(to: target)
    }
    ramp = Ramp(from: level, to: target, start: now, length: length)
    return step(at: now)
  }

  /// The level a ramp has reached at `now`: nil with no ramp, or when it did not change. The
  /// ramp ends (and the target is returned exactly) once its length has passed.
  /// - Parameter now: the time of the thread's wake.
  mutating func step(at now: ContinuousClock.Instant) -> Double? {
    guard let ramp else { return nil }
    let elapsed = now - ramp.start
    guard elapsed < ramp.length else {
      self.ramp = nil
      return change(to: ramp.to)
    }
    let fraction = max(0, Self.seconds(elapsed) / Self.seconds(ramp.length))
    return change(to: ramp.from + (ramp.to - ramp.from) * fraction)
  }

  /// `setVolume` for the preload queued behind the current load: kept for the switch.
  /// - Parameter volume: its volume.
  mutating func setPreload(_ volume: Volume) { preload = volume }

  /// The queued preload was stopped: what it was told is forgotten.
  mutating func preloadDropped() { preload = nil }

  /// The queued preload became the pipeline's load (a gapless switch, or the pipeline pointed
  /// at it): its volume, full unless it was told one; a ramp of the load before it ends.
  /// - Returns: the level to set now; nil when it does not change.
  mutating func preloadBecameCurrent() -> Double? {
    let target = preload?.level ?? 1
    preload = nil
    ramp = nil
    return change(to: target)
  }

  /// Moves to `target`; returns it unless the pipeline is already there.
  private mutating func change(to target: Double) -> Double? {
    guard target != level else { return nil }
    level = target
    return target
  }

  /// A duration in seconds.
  private static func seconds(_ duration: Duration) -> Double {
    let (seconds, attoseconds) = duration.components
    return Double(seconds) + Double(attoseconds) / 1e18
  }
}
