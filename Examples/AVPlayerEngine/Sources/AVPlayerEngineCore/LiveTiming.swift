/// What an `AVPlayerItem` says about its timeline, read by the shell on the main actor
/// whenever `seekableTimeRanges` or `duration` changes (and with each status change), in
/// whole milliseconds of the item's own timeline.
package struct ItemTiming: Equatable, Sendable {
  /// `AVPlayerItem.duration`.
  package var duration: ItemDuration
  /// `AVPlayerItem.seekableTimeRanges`, the numeric ones, in the order given.
  package var seekable: [SeekableSpan]
  /// `AVPlayerItem.currentTime()`, or nil when it is not numeric.
  package var currentTime: MediaPosition?

  /// The item's timeline as read now.
  package init(duration: ItemDuration, seekable: [SeekableSpan], currentTime: MediaPosition?) {
    self.duration = duration
    self.seekable = seekable
    self.currentTime = currentTime
  }

  /// A `CMTime`'s seconds as whole milliseconds (the nearest), or nil when not finite or
  /// beyond what an `Int64` of milliseconds holds (about 292 million years either way).
  /// - Parameter seconds: `CMTime.seconds` of a numeric time.
  package static func milliseconds(seconds: Double) -> MediaPosition? {
    guard seconds.isFinite, abs(seconds) < 9.2e15 else { return nil }
    return MediaPosition((seconds * 1000).rounded())
  }
}

/// `AVPlayerItem.duration`, as far as live is concerned.
package enum ItemDuration: Equatable, Sendable {
  /// `.invalid` (not loaded yet) or otherwise not a number: nothing known.
  case unknown
  /// `.indefinite`: once the item is `.readyToPlay`, a live stream. (Before that the
  /// item reports `.indefinite` too, "until it loads the duration of the underlying
  /// asset", Apple's `AVPlayerItem.duration`: so the core trusts it only after `ready`.
  /// Pillarbox's `StreamType` decides live and DVR on it as well.)
  case indefinite
  /// A number of milliseconds: on-demand media (or a live stream that ended, with
  /// `EXT-X-ENDLIST`).
  case known(MediaPosition)
}

/// One of `seekableTimeRanges`, from its start to its end (`CMTimeRangeGetEnd`).
package struct SeekableSpan: Equatable, Sendable {
  /// The range's start, in milliseconds.
  package var start: MediaPosition
  /// The range's end, in milliseconds.
  package var end: MediaPosition

  /// The range `start…end`.
  package init(start: MediaPosition, end: MediaPosition) {
    self.start = start
    self.end = end
  }
}

/// How a live item's timeline becomes the machine's `window(L, start…end)`.
///
/// - Live is `duration` `.indefinite`; a known or unknown duration is no window at all
///   (on-demand, or not loaded yet).
/// - The window is the union of the seekable ranges: the first one's start to the last
///   one's end (Pillarbox's `TimeProperties.timeRange`, which does the same so that a
///   discontinuity between ranges does not shorten the window; clappr-ios #216 too).
/// - A union shorter than ``minimumDVRWindow`` is a live stream without DVR: a window of
///   zero length at the union's end, the live edge, where AVPlayer plays such a stream.
///   AVPlayer keeps three target durations off the end of a live playlist (RFC 8216,
///   section 6.3.3), so a live playlist with no DVR still leaves a seekable range of a few
///   seconds, and one of a few milliseconds when segment durations are not rounded
///   (Pillarbox issue #57); SRGMediaPlayer, Pillarbox's predecessor, has
///   `minimumDVRWindowLength` for exactly this and the Play SRG apps set it to 45 s
///   (SRGMediaPlayer-iOS issue #50).
/// - A live item with no seekable range at all (an Icecast or live MP3 stream, which
///   Pillarbox's "fallback for live MP3" also treats as live) is a zero-length window at
///   the current time (0 when that is not a number).
package struct LiveWindowRule: Equatable, Sendable {
  /// A seekable union shorter than this, in milliseconds, is live without DVR.
  package var minimumDVRWindow: MediaPosition

  /// The rule, with SRGMediaPlayer's 45 s by default.
  /// - Parameter minimumDVRWindow: the shortest DVR window, in milliseconds.
  package init(minimumDVRWindow: MediaPosition = 45_000) {
    self.minimumDVRWindow = minimumDVRWindow
  }

  /// The window to report for `timing`, or nil for an item that is not live.
  /// - Parameter timing: what the item says now.
  /// - Returns: the window's start and its end, the live edge, in milliseconds.
  package func window(for timing: ItemTiming) -> SeekableSpan? {
    guard timing.duration == .indefinite else { return nil }
    guard let first = timing.seekable.first, let last = timing.seekable.last else {
      let now = timing.currentTime ?? 0
      return SeekableSpan(start: now, end: now)
    }
    let union = SeekableSpan(start: first.start, end: max(first.start, last.end))
    if union.end - union.start < minimumDVRWindow {
      return SeekableSpan(start: union.end, end: union.end)
    }
    return union
  }
}
