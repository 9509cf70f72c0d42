import PlayerEngine
import PlayerState

/// Something the fake engine has scheduled for one load.
enum MediaTimer: Hashable, Sendable {
  /// First buffering done.
  case ready
  /// The profile's failure time has come.
  case failure
  /// A load issued while the fake network is down fails with it.
  case offline
  /// Playback reaches the profile's stall position (valid for one playback epoch).
  case stallBegin(epoch: UInt64)
  /// The stall's rebuffering is over.
  case stallEnd
  /// Playback reaches the end (valid for one playback epoch).
  case end(epoch: UInt64)
  /// A seek finishes, moving the position to `target` milliseconds.
  case seekDone(SeekID, target: Int64)
  /// Time for a position report (valid for one playback epoch).
  case tick(epoch: UInt64)
  /// Time for a live media's window report: right after `ready`, then at the
  /// report interval whatever playback does (a paused load's window slides on).
  case window
  /// A live load told to play from a position its window has left: it fails with
  /// `behindLiveWindow`, as Media3 and AVPlayer do.
  case behindWindow
}

/// The fake engine's model of one load (or preload): where playback is and what is pending.
///
/// Times are in virtual milliseconds. The position moves only while the load
/// is ready, told to play, not stalled, not ended, not failed and not stopped,
/// at the rate it was told (1x until a `start` or `setRate` says otherwise).
/// Progress timers carry the playback epoch they were planned in; any change
/// (start, pause, rate, seek, stall) starts a new epoch, so older ones fire as no-ops.
///
/// A live media (``MediaProfile/live``) has no duration: its position is that of the
/// broadcast, which starts at the live edge when the load is ready (unless it was opened
/// from a position its window still holds), never passes the edge (at a rate above 1x it
/// catches up and then plays at the edge), and ends only when the broadcast does.
struct MediaTrack: Sendable {
  let load: Load
  let profile: MediaProfile
  let sink: ReportSink
  var isReady = false
  var isStopped = false
  var wantsPlay = false
  var isStalled = false
  var stallDone = false
  var isEnded = false
  var isFailed = false
  var position: Int64
  var anchor: Int64
  /// Whether the load was opened at the live edge (`load(L, at live edge)`).
  let atLiveEdge: Bool
  /// Playback speed in thousandths (1000 = 1x).
  var rate: Int64 = 1000
  var epoch: UInt64 = 0
  var pendingTimers = 0
  /// The load's volume on the clock (1 for a new load; a `setVolume` ramps or steps it):
  /// kept, never reported.
  var volume = VolumeRamp()

  init(
    load: Load, profile: MediaProfile, sink: ReportSink, now: Int64, start: Int64 = 0,
    atLiveEdge: Bool = false
  ) {
    self.load = load
    self.profile = profile
    self.sink = sink
    self.atLiveEdge = atLiveEdge
    anchor = now
    position = max(start, 0)
    position = min(position, duration)
  }

  /// Where the media ends: its duration, or for a live media the broadcast's end
  /// (`Int64.max` for one that never ends).
  var duration: Int64 {
    guard let live = profile.live else { return max(profile.duration.wholeMilliseconds, 0) }
    return live.endsAt.map { max($0.wholeMilliseconds, 0) } ?? .max
  }

  /// The furthest the position can be at `now`: the live edge, or the duration.
  func limit(at now: Int64) -> Int64 {
    profile.live.map { $0.edge(at: now) } ?? duration
  }

  var isAdvancing: Bool {
    isReady && wantsPlay && !isStalled && !isEnded && !isFailed && !isStopped
  }

  /// The `ready` report: with the duration if the profile says so (never for live
  /// media, which has none).
  var readyReport: EngineReport {
    .ready(
      load,
      duration: profile.reportsDuration && profile.live == nil ? .milliseconds(duration) : nil)
  }

  /// The load is ready at `now`: a live load moves to where it plays from (the live
  /// edge, or as far behind it as a load at the live edge asks, unless it was opened
  /// from a position its window still holds). Returns the
  /// timers to plan: progress if it plays, and a live load's first window report,
  /// due at once (it follows `ready`).
  mutating func becomeReady(now: Int64) -> [(MediaTimer, Int64)] {
    settle(now: now)
    isReady = true
    guard let live = profile.live else { return replan(now: now) }
    let window = live.window(at: now)
    let start = MediaTime.milliseconds(position)
    if atLiveEdge {
      // `position` is the offset behind the edge (0 for the machine's reloads).
      position = window.clamp(window.end - start).milliseconds
    } else {
      position = position == 0 || !window.contains(start) ? window.end.milliseconds : position
    }
    return replan(now: now) + [(.window, 0)]
  }

  /// Whether the load is live and its position is behind its window at `now`: the media
  /// there is gone (the window slid past a pause, or, without DVR, any pause at all).
  func isBehindWindow(at now: Int64) -> Bool {
    guard let live = profile.live, isReady else { return false }
    return .milliseconds(position) < live.window(at: now).start
  }

  /// A live load's window report at `now`, or nil for on-demand media.
  func windowReport(at now: Int64) -> EngineReport? {
    profile.live.map { .window(load, $0.window(at: now)) }
  }

  /// Brings the position up to `now`.
  mutating func settle(now: Int64) {
    if isAdvancing {
      let (scaled, overflow) = (now - anchor).multipliedReportingOverflow(by: rate)
      let advanced = overflow ? Int64.max : scaled / 1000
      position = min(limit(at: now), position.addingSaturated(advanced))
    }
    anchor = now
  }

  /// The virtual time playback takes to cover `distance` milliseconds of media at the rate.
  func delay(covering distance: Int64) -> Int64 {
    let distance = max(distance, 0)
    let (scaled, overflow) = distance.multipliedReportingOverflow(by: 1000)
    if overflow { return .max }
    return (scaled + rate - 1) / rate
  }

  /// Starts a new playback epoch and returns the progress timers to plan and
  /// their delays, if playback is moving: the stall if it is ahead, else the
  /// end, and the next position report if the profile asks for them.
  mutating func replan(now: Int64) -> [(MediaTimer, Int64)] {
    settle(now: now)
    epoch &+= 1
    guard isAdvancing else { return [] }
    var timers: [(MediaTimer, Int64)] = []
    if let stallAt = profile.stallAt?.wholeMilliseconds, !stallDone, position <= stallAt,
      stallAt < duration
    {
      // Live: the position reaches the stall no sooner than the broadcast does.
      let soonest = profile.live == nil ? 0 : stallAt - now
      timers.append((.stallBegin(epoch: epoch), max(delay(covering: stallAt - position), soonest)))
    } else if profile.live == nil {
      timers.append((.end(epoch: epoch), delay(covering: duration - position)))
    } else if let ends = profile.live?.endsAt?.wholeMilliseconds {
      // Live: the position reaches the end no sooner than the broadcast does.
      let end = max(ends, 0)
      timers.append(
        (.end(epoch: epoch), max(delay(covering: end - position), end - now)))
    }
    if let every = profile.positionEvery?.wholeMilliseconds, every > 0 {
      timers.append((.tick(epoch: epoch), every))
    }
    return timers
  }

  /// The report a timer gives, if the timer is still meaningful; nil for
  /// progress timers of a past epoch and for internal bookkeeping.
  func report(for timer: MediaTimer, now: Int64) -> EngineReport? {
    switch timer {
    case .ready: readyReport
    case .failure: .failed(load, profile.failureReason)
    case .offline: .failed(load, .network, detail: FakeMediaEngine.offline)
    case .stallBegin(let planned): planned == epoch ? .stalled(load) : nil
    case .stallEnd: .resumed(load)
    case .end(let planned): planned == epoch ? .reachedEnd(load) : nil
    case .seekDone(let seek, _): .seekCompleted(load, seek)
    case .tick(let planned): planned == epoch ? .position(load, .milliseconds(position)) : nil
    case .window: windowReport(at: now)
    case .behindWindow: .failed(load, .behindLiveWindow)
    }
  }

  /// Fails the load now, unless it has already failed or ended: the report to send.
  mutating func fail(
    now: Int64, reason: FailureReason = .network, detail: FailureDetail? = nil
  ) -> EngineReport? {
    guard !isFailed, !isEnded else { return nil }
    settle(now: now)
    isFailed = true
    epoch &+= 1
    return .failed(load, reason, detail: detail)
  }

  /// Applies a timer to a live (not stopped) load: the report to send and
  /// any follow-up timers, or nil if the timer no longer applies.
  mutating func fire(_ timer: MediaTimer, now: Int64) -> (EngineReport, [(MediaTimer, Int64)])? {
    switch timer {
    case .ready:
      guard !isReady, !isFailed else { return nil }
      return (readyReport, becomeReady(now: now))
    case .failure:
      guard let report = fail(now: now, reason: profile.failureReason) else { return nil }
      return (report, [])
    case .offline:
      guard let report = fail(now: now, detail: FakeMediaEngine.offline) else { return nil }
      return (report, [])
    case .stallBegin(let planned):
      guard planned == epoch, isAdvancing, let stallAt = profile.stallAt else { return nil }
      settle(now: now)
      position = stallAt.wholeMilliseconds
      isStalled = true
      stallDone = true
      epoch &+= 1
      return (.stalled(load), [(.stallEnd, max(profile.stallFor.wholeMilliseconds, 0))])
    case .stallEnd:
      guard isStalled, !isFailed else { return nil }
      settle(now: now)
      isStalled = false
      return (.resumed(load), replan(now: now))
    case .end(let planned):
      guard planned == epoch, isAdvancing else { return nil }
      settle(now: now)
      position = min(duration, limit(at: now))
      isEnded = true
      epoch &+= 1
      return (.reachedEnd(load), [])
    case .seekDone(let seek, let target):
      guard !isFailed else { return nil }
      settle(now: now)
      if let live = profile.live {
        // The engine seeks within what it can seek to now, as real ones do.
        position = live.window(at: now).clamp(.milliseconds(target)).milliseconds
      } else {
        position = min(max(target, 0), duration)
      }
      isEnded = false
      return (.seekCompleted(load, seek), replan(now: now))
    case .tick(let planned):
      guard planned == epoch, isAdvancing, let every = profile.positionEvery?.wholeMilliseconds
      else { return nil }
      settle(now: now)
      return (.position(load, .milliseconds(position)), [(.tick(epoch: epoch), every)])
    case .window:
      guard isReady, !isFailed, !isEnded, let report = windowReport(at: now) else { return nil }
      settle(now: now)
      let every = profile.positionEvery?.wholeMilliseconds ?? 0
      return (report, every > 0 ? [(.window, every)] : [])
    case .behindWindow:
      guard let report = fail(now: now, reason: .behindLiveWindow) else { return nil }
      return (report, [])
    }
  }
}
