/// What a lock screen, Control Center, CarPlay or an MPRIS client shows: the
/// current entry, the elapsed anchor and the rate to extrapolate it with, all
/// derived from one state (``PlaybackState/nowPlaying``).
///
/// The system extrapolates the elapsed time as `elapsed + rate × (now − t)`,
/// `t` being when this value was published; `elapsed` moves only at a
/// discontinuity (``Session/anchor``) and `rate` is 0 whenever media is not
/// playing, so the published time never runs while the next entry loads, a
/// stall lasts or a system pause holds it.
public struct NowPlaying: Hashable, Sendable, CustomStringConvertible {
  /// The current entry: its item id and media.
  public var entry: QueueEntry
  /// The position at the newest discontinuity: a load's start, a seek when
  /// issued, a replay, a start, a pause, a stall; with no load, a restored
  /// entry's saved position (where its first `resume` loads it from), else 0.
  public var elapsed: MediaTime
  /// The rate to extrapolate with: the user's rate while media is playing
  /// (``PlaybackState/isPlaying``), else 0.
  public var rate: PlaybackRate
  /// The duration, once the engine reported it; nil for a live stream.
  public var duration: MediaTime?
  /// The live window of a live or DVR stream (its end is the live edge); nil
  /// for on-demand media. A lock screen shows no progress for live media
  /// (`MPNowPlayingInfoPropertyIsLiveStream`; no `mpris:length`).
  public var window: LiveWindow?
  /// Whether the current load is a live stream (``window`` is known).
  public var isLive: Bool { window != nil }
  /// The entry's position in play order, 0-based (player-sim prints it 1-based).
  public var index: Int
  /// How many entries the queue holds.
  public var count: Int

  /// Describes what is playing.
  public init(
    entry: QueueEntry, elapsed: MediaTime, rate: PlaybackRate, duration: MediaTime?, index: Int,
    count: Int, window: LiveWindow? = nil
  ) {
    self.window = window
    self.entry = entry
    self.elapsed = elapsed
    self.rate = rate
    self.duration = duration
    self.index = index
    self.count = count
  }

  /// The position `elapsed` after this value was published, as a lock screen
  /// extrapolates it: ``elapsed`` plus ``rate`` × `elapsed`, clamped to
  /// [0, ``duration``] (to 0 and up when the duration is unknown).
  ///
  /// ```swift
  /// // Published at 1500ms, playing at 2x, for 30000ms.
  /// nowPlaying.position(after: .milliseconds(2000))  // 5500ms
  /// nowPlaying.position(after: .seconds(60))         // 30000ms, the duration
  /// ```
  /// - Parameter elapsed: the time since this value was published (the
  ///   anchor was set), to the nearest millisecond; negative counts as zero.
  /// - Returns: the extrapolated position; ``elapsed`` itself while the rate is 0.
  public func position(after elapsed: Duration) -> MediaTime {
    Self.position(from: self.elapsed, rate: rate, after: elapsed, duration: duration)
  }

  /// `start` moved on at `rate` for `elapsed`, clamped to [0, `duration`]:
  /// ``position(after:)`` without a `NowPlaying`, for the driver's progress.
  package static func position(
    from start: MediaTime, rate: PlaybackRate, after elapsed: Duration, duration: MediaTime?
  ) -> MediaTime {
    // Whole milliseconds of wall time (the nearest, saturating); a negative
    // span moves nothing.
    let wall = max(MediaTime(elapsed).milliseconds, 0)
    var moved: Int64 = 0
    if rate.thousandths > 0, wall > 0 {
      let (scaled, overflow) = wall.multipliedReportingOverflow(by: Int64(rate.thousandths))
      moved = overflow ? .max : scaled / 1000
    }
    var position = start + MediaTime(milliseconds: moved)  // saturating
    if let duration { position = min(position, duration) }
    return max(position, .zero)
  }

  /// `A 2/3 at 1500ms 1x of 30000ms`: media, 1-based index, anchor, rate,
  /// duration; `live 60000ms…120000ms` instead of the duration for live media.
  public var description: String {
    let of = window.map { " live \($0)" } ?? duration.map { " of \($0)" } ?? ""
    return "\(entry.media) \(index + 1)/\(count) at \(elapsed) \(rate)\(of)"
  }
}

extension PlaybackState {
  /// What a lock screen shows now, or nil with no current entry.
  ///
  /// Derived, never stored: the only stored part is the load's elapsed anchor.
  /// - Complexity: O(log n) in the queue's length (one entry read).
  public var nowPlaying: NowPlaying? {
    guard let index = queue.current else { return nil }
    let entry = queue.entries[index]
    // Read into locals: see FuzzObservation on the 6.3 optimizer and nested optionals.
    let session = self.session
    let point = self.resumePoint  // always the current entry's, without a load (an invariant)
    let live = session.flatMap { $0.load.item == entry.item ? $0 : nil }
    return NowPlaying(
      entry: entry, elapsed: live?.anchor ?? point?.position ?? .zero,
      rate: PlaybackRate(thousandths: publishedRate), duration: live?.duration, index: index,
      count: queue.entries.count, window: live?.window)
  }
}
