import PlayerState

/// The fake engine's volume of one load on the virtual clock: a level that moves in a straight
/// line from `from` at `start` to `to` at `end` (virtual milliseconds), then stays at `to`.
///
/// `setVolume(L, v, ramp r)` at time `t` starts a ramp from the level at `t` (wherever an
/// earlier ramp has got to) to `v`, over `r`; a ramp of 0 is a step. The level is in
/// thousandths, as ``PlayerState/Volume`` keeps it, rounded to the nearest (halves away from
/// the start), so a fade of 1 to 0 over 200 ms reads 0.75 after 50 ms and 0.5 after 100 ms.
struct VolumeRamp: Hashable, Sendable {
  private(set) var from: Volume
  private(set) var to: Volume
  private(set) var start: Int64
  private(set) var end: Int64

  /// A level that does not move: a new load's (1).
  init(level: Volume = .full) {
    (from, to, start, end) = (level, level, 0, 0)
  }

  /// The level at `now`.
  func level(at now: Int64) -> Volume {
    guard now < end, from != to else { return to }
    guard now > start else { return from }
    let length = end - start
    let elapsed = now - start
    let span = Int64(to.thousandths) - Int64(from.thousandths)
    // |span| < 2³² and a script's times are at most 10⁹ ms, so the product fits; a ramp set
    // by hand beyond that is computed in floating point rather than trapping.
    let (product, overflow) = span.multipliedReportingOverflow(by: elapsed)
    let moved: Int64
    if overflow {
      moved = Int64((Double(span) * Double(elapsed) / Double(length)).rounded())
    } else {
      let half = length / 2
      moved = span >= 0 ? (product + half) / length : -((-product + half) / length)
    }
    return Volume(thousandths: Int32(clamping: Int64(from.thousandths) + moved))
  }

  /// Whether the level is still moving at `now`.
  func isMoving(at now: Int64) -> Bool { now < end && from != to }

  /// Starts moving from the level at `now` to `target` over `ramp` milliseconds (0 or less:
  /// at once).
  mutating func set(_ target: Volume, ramp: Int64, now: Int64) {
    let current = level(at: now)
    (from, to, start) = (current, target, now)
    end = ramp > 0 ? now.addingSaturated(ramp) : now
    if ramp <= 0 { from = target }
  }
}
