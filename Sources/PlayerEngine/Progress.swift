public import PlayerState

/// What a progress bar shows: the current entry, where it is now, its length,
/// and the rate it moves at (``Player/progress``).
///
/// ```swift
/// if let progress = player.progress {
///   slider.value = progress.fraction ?? 0
///   label.text = "\(progress.position) / \(progress.duration.map(\.description) ?? "--")"
/// }
/// ```
public struct PlaybackProgress: Hashable, Sendable, CustomStringConvertible {
  /// The current entry: its item id and media.
  public var entry: QueueEntry
  /// The position now: extrapolated while playing, exact while not.
  public var position: MediaTime
  /// The duration, once the engine reported it; nil for a live stream.
  public var duration: MediaTime?
  /// The rate the position moves at: the rate the engine plays at while
  /// media is playing (the user's, but 1x at a live edge:
  /// ``PlayerState/PlaybackState/isPlaying``), else 0.
  public var rate: PlaybackRate
  /// A live stream's window as the engine last reported it (its end the live
  /// edge); nil for on-demand media. A DVR scrubber spans it.
  public var window: LiveWindow?

  /// Describes a progress.
  public init(
    entry: QueueEntry, position: MediaTime, duration: MediaTime?, rate: PlaybackRate,
    window: LiveWindow? = nil
  ) {
    self.entry = entry
    self.position = position
    self.duration = duration
    self.rate = rate
    self.window = window
  }

  /// Whether the current entry is a live stream: show "LIVE", not a duration.
  public var isLive: Bool { window != nil }

  /// How far behind the live edge the position is (Media3's
  /// `getCurrentLiveOffset`), never negative; nil for on-demand media.
  public var liveOffset: MediaTime? {
    window.map { max($0.end - position, .zero) }
  }

  /// Whether the position is moving: media is playing.
  public var isPlaying: Bool { rate.thousandths > 0 }

  /// The position as a fraction of the duration, in 0...1; nil while the
  /// duration is unknown or zero. For a DVR stream, the position's fraction
  /// of the window (1 at the live edge); nil for a live stream without DVR.
  public var fraction: Double? {
    if let window {
      guard window.isSeekable else { return nil }
      let into = Double((position - window.start).milliseconds)
      return min(max(into / Double(window.length.milliseconds), 0), 1)
    }
    guard let duration, duration.milliseconds > 0 else { return nil }
    return min(max(Double(position.milliseconds) / Double(duration.milliseconds), 0), 1)
  }

  /// `A at 1500ms of 30000ms 1x`: media, position, duration, rate; `live
  /// 60000ms…120000ms` instead of the duration for a live stream.
  public var description: String {
    let of = window.map { " live \($0)" } ?? duration.map { " of \($0)" } ?? ""
    return "\(entry.media) at \(position)\(of) \(rate)"
  }
}

extension Player {
  /// The progress now, or nil with no current entry: the position a progress
  /// bar shows, as AVPlayer's `currentTime()` or Media3's `currentPosition`.
  ///
  /// The position is extrapolated from the newer of two marks, each timed on
  /// the policy's clock (``WatchdogPolicy/now``) when the player processed it:
  /// the elapsed anchor (``PlayerState/NowPlaying/elapsed``, set at a load's
  /// start, a seek, a start, a pause, a stall, a rate change) and the
  /// engine's latest `position` report. It moves at
  /// ``PlaybackProgress/rate`` (0 unless playing) and stays within
  /// [0, duration]. A change of rate alone (a start, a pause, a stall, a
  /// new rate) carries on from where the position had got, where the lock
  /// screen's anchor goes back to the engine's last report. A lock screen
  /// extrapolates from the anchor alone
  /// (``PlayerState/NowPlaying/position(after:)``); a progress bar also
  /// follows the engine's own reports, so it corrects any drift.
  ///
  /// The player starts timing these marks the first time progress is read
  /// (or a ``progressUpdates(every:)`` stream is made), so that a player
  /// nobody asks pays nothing for it: that first read takes the engine's
  /// last known position (``PlayerState/Session/position``) as current.
  ///
  /// ```swift
  /// if let progress = player.progress {
  ///   print(progress.position, "of", progress.duration as Any)
  /// }
  /// ```
  public var progress: PlaybackProgress? { readProgress(at: now()) }

  /// The position now, or nil with no current entry: ``progress``'s position.
  public var currentPosition: MediaTime? { progress?.position }

  /// The progress at `instant` on the policy's clock (``WatchdogPolicy/now``):
  /// for a virtual clock, or to line up with a frame's timestamp. As
  /// ``progress``, which is `progress(at: policy.now())`.
  /// - Parameter instant: a reading of the policy's clock; one before the
  ///   newest mark counts as that mark's instant.
  /// - Returns: the progress, or nil with no current entry.
  public func progress(at instant: Duration) -> PlaybackProgress? {
    readProgress(at: instant)
  }

  /// The progress every `interval` while media is playing, as AVPlayer's
  /// `addPeriodicTimeObserver(forInterval:queue:using:)`.
  ///
  /// The stream yields the current progress at once (when there is a current
  /// entry), then whenever playback starts or stops, seeks, changes entry or
  /// rate, or learns the duration, and every `interval` while playing; never
  /// a tick while paused, buffering, stalled or idle. The ticks are
  /// scheduled on the player's policy (``WatchdogPolicy/schedule(_:_:)``; a
  /// Dispatch queue without one), so a virtual clock drives them in tests.
  /// It buffers the newest value only: a consumer that falls behind skips to
  /// the newest. It ends when the player is released, and when the consumer
  /// stops (its task cancelled, or the stream dropped) the pending tick is
  /// cancelled: at most one tick per stream is ever pending.
  ///
  /// ```swift
  /// for await progress in player.progressUpdates(every: .milliseconds(500)) {
  ///   slider.value = progress.fraction ?? 0
  /// }
  /// ```
  /// - Parameter interval: the time between ticks; less than 1 ms counts as 1 ms.
  /// - Returns: a stream of progress values.
  public func progressUpdates(every interval: Duration) -> AsyncStream<PlaybackProgress> {
    let (stream, continuation) = AsyncStream.makeStream(
      of: PlaybackProgress.self, bufferingPolicy: .bufferingNewest(1))
    let ticker = ProgressTicker(
      player: self, clock: clock, interval: max(interval, .milliseconds(1)),
      continuation: continuation)
    register(ticker, continuation)
    ticker.refresh()
    return stream
  }
}

/// When the progress marks were set, on the policy's clock: kept by the
/// player under its lock, noted after every event once someone reads progress
/// (until then, nothing is timed).
struct ProgressClock: Sendable {
  /// Whether the last event moved a mark, which `stamp` must time.
  private(set) var wantsInstant = false
  /// Whether that move was a change of rate alone, where the position
  /// carries on from where it had got (`stamp` works it out).
  private var carriesOn = false
  private var load: Load?
  private var anchor = MediaTime.zero
  private var rate: Int32 = 0
  private var position = MediaTime.zero
  private var duration: MediaTime?
  /// The newest mark's position and instant, and the rate it moved at.
  private var base = MediaTime.zero
  private var baseRate: Int32 = 0
  private var instant = Duration.zero

  /// Starts timing: the engine's last known position is taken as current.
  mutating func start(_ state: PlaybackState, at now: Duration) {
    note(state)
    base = position
    carriesOn = false
    stamp(now)
  }

  /// Notes `state` after an event: the anchor's key (load, anchor, published
  /// rate) moved, or only the engine's position did.
  mutating func note(_ state: PlaybackState) {
    let session = state.session
    let rate = state.publishedRate
    if session?.load != load || session?.anchor != anchor || rate != self.rate {
      // A change of the published rate alone (a start, a pause, a stall, a
      // rate change) moves the anchor to the engine's last report, which may
      // be behind: the position carries on from where it had got instead.
      carriesOn = session != nil && session?.load == load && session?.position == position
      load = session?.load
      anchor = session?.anchor ?? .zero
      position = session?.position ?? .zero
      duration = session?.duration
      self.rate = rate
      if !carriesOn { base = anchor }
      wantsInstant = true
    } else if let reported = session?.position, reported != position {
      position = reported
      base = reported
      carriesOn = false
      wantsInstant = true
    } else if session?.duration != duration {
      duration = session?.duration
    }
  }

  /// Times the newest mark.
  mutating func stamp(_ now: Duration) {
    if carriesOn {
      base = NowPlaying.position(
        from: base, rate: PlaybackRate(thousandths: baseRate), after: now - instant,
        duration: duration)
      carriesOn = false
    }
    baseRate = rate
    instant = now
    wantsInstant = false
  }

  /// The progress of `state` at `now`.
  func progress(of state: PlaybackState, at now: Duration) -> PlaybackProgress? {
    guard var playing = state.nowPlaying else { return nil }
    var since = Duration.zero
    // The marks are the current load's when it plays the current entry
    // (else `nowPlaying` already shows a restored or zero position, at rate 0).
    if let session = state.session, session.load == load, session.load.item == playing.entry.item {
      playing.elapsed = base
      since = max(now - instant, .zero)
    }
    return PlaybackProgress(
      entry: playing.entry, position: playing.position(after: since), duration: playing.duration,
      rate: playing.rate, window: playing.window)
  }
}

/// The producer of one ``Player/progressUpdates(every:)`` stream: yields the
/// progress on the steps that move it and on its own ticks while playing,
/// with at most one tick pending.
final class ProgressTicker: Sendable {
  private struct State: Sendable {
    /// The pending tick, if one is scheduled.
    var tick: TimerHandle?
    /// Whether a tick is being scheduled (outside the lock).
    var scheduling = false
    /// Whether the newest value read was playing.
    var playing = false
    var finished = false
    /// The newest value not yet yielded, and whether a thread is yielding.
    var unsent: PlaybackProgress?
    var yielding = false
  }

  private weak let player: Player?
  private let clock: WatchdogPolicy
  private let interval: Duration
  private let continuation: AsyncStream<PlaybackProgress>.Continuation
  private let state = Locked(State())

  init(
    player: Player, clock: WatchdogPolicy, interval: Duration,
    continuation: AsyncStream<PlaybackProgress>.Continuation
  ) {
    self.player = player
    self.clock = clock
    self.interval = interval
    self.continuation = continuation
  }

  /// Whether `step` moves what a progress stream shows: playing or not, the
  /// load, the anchor, the rate, the duration, the current entry.
  static func moves(_ step: PlayerStep) -> Bool {
    let before = step.before
    let after = step.after
    return before.isPlaying != after.isPlaying || before.session?.load != after.session?.load
      || before.session?.anchor != after.session?.anchor || before.rate != after.rate
      || before.session?.duration != after.session?.duration
      || before.queue.current != after.queue.current
  }

  /// Reads the progress and yields it; schedules the next tick while
  /// playing and cancels the pending one when not.
  /// - Parameter tick: whether a tick of this ticker calls (its timer is spent).
  func refresh(tick: Bool = false) {
    guard let player else { return }
    // The value is read under this ticker's lock, so values are queued for
    // yielding in the order they were read (the player's lock nests inside
    // this one; the player never takes this one while holding its own).
    let (cancel, schedule) = state.withLock { state -> (TimerHandle?, Bool) in
      if tick { state.tick = nil }
      guard !state.finished else { return (nil, false) }
      let progress = player.progress
      if let progress { state.unsent = progress }
      state.playing = progress?.isPlaying == true
      guard state.playing else {
        defer { state.tick = nil }
        return (state.tick, false)
      }
      guard state.tick == nil, !state.scheduling else { return (nil, false) }
      state.scheduling = true
      return (nil, true)
    }
    cancel?.cancel()
    if schedule { scheduleTick() }
    yieldUnsent()
  }

  /// Ends the stream's ticking: the pending tick is cancelled, and the
  /// stream finished (the player is gone, or the consumer stopped).
  func finish() {
    let pending = state.withLock { state -> TimerHandle? in
      state.finished = true
      state.unsent = nil
      defer { state.tick = nil }
      return state.tick
    }
    pending?.cancel()
    continuation.finish()
  }

  /// Schedules the next tick outside the lock (a scheduler is the app's
  /// code), then keeps its handle, or cancels it if the ticker finished or
  /// playback stopped meanwhile.
  private func scheduleTick() {
    let handle = clock.schedule(interval) { [weak self] in self?.refresh(tick: true) }
    let keep = state.withLock { state -> Bool in
      state.scheduling = false
      guard !state.finished, state.playing else { return false }
      state.tick = handle
      return true
    }
    if !keep { handle.cancel() }
  }

  /// Yields the queued values, one thread at a time and outside the lock
  /// (a yield may resume the consumer, whose cancellation takes this lock).
  private func yieldUnsent() {
    let claimed = state.withLock { state -> Bool in
      guard !state.yielding else { return false }
      state.yielding = true
      return true
    }
    guard claimed else { return }
    while let value = state.withLock({ state -> PlaybackProgress? in
      guard let value = state.unsent else {
        state.yielding = false
        return nil
      }
      state.unsent = nil
      return value
    }) {
      continuation.yield(value)
    }
  }
}
