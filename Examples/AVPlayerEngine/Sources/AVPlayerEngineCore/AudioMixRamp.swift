package import PlayerState

/// A volume ramp as an `AVAudioMix` would play it, as data: the item's audio goes from
/// `from` to `to` over `length` of the item's own timeline, starting at `start`.
///
/// `AVPlayer.volume` has no ramp; the platform's ramp is an `AVMutableAudioMixInputParameters`
/// on the item's audio track, `setVolumeRamp(fromStartVolume:toEndVolume:timeRange:)`, set as
/// the item's `audioMix`. Its time range is on the *media* timeline, not the wall clock: the
/// machine's `setVolume(L, v, ramp: d)` means `d` of wall-clock time, so a ramp begun at item
/// time `t` while playing at rate `r` covers `t …< t + d × r` of media (at 2x, a 200 ms fade
/// spans 400 ms of the track). This value is that mapping, pure and tested on Linux; making the
/// mix (the item's audio tracks, loaded first for a streamed item) is the shell's.
package struct AudioMixRamp: Hashable, Sendable {
  /// The level at `start`.
  package var from: Volume
  /// The level from `start + length` on.
  package var to: Volume
  /// Where on the item's timeline the ramp begins.
  package var start: MediaTime
  /// How much of the item's timeline it covers.
  package var length: MediaTime

  /// A ramp.
  package init(from: Volume, to: Volume, start: MediaTime, length: MediaTime) {
    self.from = from
    self.to = to
    self.start = start
    self.length = length
  }

  /// The ramp for `setVolume(L, to, ramp: duration)` received at item time `itemTime`
  /// while the item plays at `rate`, from the level `from` it is heard at then.
  /// - Parameters:
  ///   - from: the level heard now (where an earlier ramp has got to, see ``level(at:)``).
  ///   - to: the target.
  ///   - duration: the ramp's wall-clock length (the machine's).
  ///   - itemTime: the item's current time.
  ///   - rate: the rate it plays at; the media covered is `duration × rate`, to the
  ///     millisecond (rounded to the nearest).
  package static func planned(
    from: Volume, to: Volume, over duration: Duration, at itemTime: MediaTime,
    rate: PlaybackRate
  ) -> AudioMixRamp {
    let wall = MediaTime(duration).milliseconds
    let (scaled, overflow) = wall.multipliedReportingOverflow(by: Int64(rate.thousandths))
    let media = overflow ? Int64.max : (scaled + 500) / 1000
    return AudioMixRamp(from: from, to: to, start: itemTime, length: .milliseconds(media))
  }

  /// The level at item time `time`: `from` before the ramp, `to` after it, and on the
  /// straight line between (to the nearest thousandth) within it, as the mix plays it.
  package func level(at time: MediaTime) -> Volume {
    let elapsed = time.milliseconds - start.milliseconds
    guard elapsed > 0 else { return from }
    guard elapsed < length.milliseconds else { return to }
    let span = Int64(to.thousandths) - Int64(from.thousandths)
    let total = length.milliseconds
    let (product, overflow) = span.multipliedReportingOverflow(by: elapsed)
    let moved: Int64
    if overflow {  // a ramp over centuries of media: in floating point rather than a trap
      moved = Int64((Double(span) * Double(elapsed) / Double(total)).rounded())
    } else {
      moved = product >= 0 ? (product + total / 2) / total : -((-product + total / 2) / total)
    }
    return Volume(thousandths: Int32(clamping: Int64(from.thousandths) + moved))
  }
}
