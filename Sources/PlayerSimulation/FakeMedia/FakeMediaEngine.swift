public import PlayerEngine
public import PlayerState
import PlayerTesting

/// A fake media back end over a ``VirtualClock``: it buffers, plays, stalls,
/// fails, seeks, reports positions and reaches the end as each media's
/// ``MediaProfile`` says, reporting through the real driver's sink, and never sleeps.
///
/// Made with `preload: true`, it declares the `.preload` capability: a
/// `preload` command buffers the next entry like a `load`, and it starts,
/// gaplessly, on the machine's `start`. Loads begin at their start position
/// and play at the rate of the newest `start` or `setRate`, at full volume until
/// a `setVolume`, which the engine keeps per load (``volume(of:)``) and never reports.
/// It declares `.volumeRamp`: `setVolume(L, v, ramp r)` moves the load's level in a
/// straight line on the virtual clock, from wherever it is to `v` over `r`, so a
/// player's fades (``PlayerState/PlayerConfiguration/fade``) can be watched as they go.
/// Every load is its own track: a started preload plays and reports its positions while
/// the load before it plays on, ramping down, until its `stop` or its own end, so both of a
/// crossfade's loads (``PlayerState/PlayerConfiguration/crossfade``) are heard at once.
///
/// A live media (``MediaProfile/live``) is a broadcast whose live edge is the virtual
/// clock's time: its load starts at the edge (or from a position its window still holds),
/// reports `window(L, start…end)` after `ready` and then at the report interval, paused or
/// not, never plays past the edge, and ends only where ``LiveProfile/endsAt`` says. Told to
/// play (`start`) from a position its window has left (after a pause longer than the DVR
/// window, or any pause without DVR), it fails with `behindLiveWindow`, as Media3 and
/// AVPlayer do.
///
/// A profile with ``MediaProfile/networkDropAt`` takes the fake network down
/// on the clock: loads in flight fail with `network` and ``offline``, the
/// engine sends `network lost` to its ``systemEvents`` handler (the runner
/// sends it through the player), and after ``MediaProfile/networkBackAfter``
/// it sends `network available`.
///
/// Well-behaved by default: a stopped load sends nothing more. In a
/// ``HostileMode`` it behaves like the engines this project defends against:
/// stopped and replaced loads still call back, late; some reports come twice;
/// some commands are answered re-entrantly, from inside ``execute(_:reports:)``.
///
/// ```swift
/// let clock = VirtualClock()
/// let engine = FakeMediaEngine(clock: clock, hostile: HostileMode(seed: 7))
/// let player = Player(engine: engine)
/// player.send(.play("A"))
/// player.send(.stop)
/// clock.advance(by: .seconds(1))   // A#1's late `ready` arrives and is ignored
/// ```
public final class FakeMediaEngine: PlaybackEngine {
  private struct State {
    var profiles: [MediaID: MediaProfile]
    var hostile: HostileMode?
    var random = SplitMix64(seed: 0)
    var tracks: [Load: MediaTrack] = [:]
    var commands: [EngineCommand] = []
    var recordsCommands = true
    /// Network drops in progress: the network is down while this is above 0.
    var drops = 0
    /// The media whose profile's network drop has been planned.
    var dropsPlanned: Set<MediaID> = []
    var systemEvents: (@Sendable (SystemEvent) -> Void)?
    /// Set by ``discard()``: nothing of this engine is sent any more.
    var isDiscarded = false
    /// The fake network's drops and returns planned on the clock and not yet run.
    var pendingNetworkEvents = 0
    /// A hostile engine's duplicate reports planned on the clock and not yet sent.
    var pendingDuplicates = 0
  }

  /// The engine's error for a load the fake network failed: `NSURLErrorDomain`
  /// -1009, as Apple's URL loading reports a lost connection.
  public static let offline = FailureDetail(
    domain: "NSURLErrorDomain", code: -1009,
    message: "The Internet connection appears to be offline.")

  /// The clock the engine schedules its reports on.
  public let clock: VirtualClock
  /// `.volumeRamp`, and `.preload` when made with `preload: true`.
  public let capabilities: EngineCapabilities
  private let defaultProfile: MediaProfile
  private let state: Locked<State>

  /// A fake engine.
  /// - Parameters:
  ///   - clock: the virtual clock reports are scheduled on.
  ///   - profiles: how each media behaves.
  ///   - defaultProfile: how media without a profile behaves; ``MediaProfile/standard`` by default.
  ///   - hostile: how to misbehave, or nil (the default) to behave.
  ///   - preload: whether to declare the `.preload` capability; false by default.
  ///     `.volumeRamp` is always declared.
  public init(
    clock: VirtualClock, profiles: [MediaID: MediaProfile] = [:],
    defaultProfile: MediaProfile = .standard, hostile: HostileMode? = nil, preload: Bool = false
  ) {
    self.clock = clock
    capabilities = preload ? [.volumeRamp, .preload] : [.volumeRamp]
    self.defaultProfile = defaultProfile
    state = Locked(
      State(profiles: profiles, hostile: hostile, random: SplitMix64(seed: hostile?.seed ?? 0)))
  }

  /// Sets how `media` behaves for loads issued from now on; a network drop
  /// in the new profile is planned at the media's next load.
  public func setProfile(_ profile: MediaProfile, for media: MediaID) {
    state.withLock { state in
      state.profiles[media] = profile
      state.dropsPlanned.remove(media)
    }
  }

  /// Where the fake network's `network lost` and `network available` go: the
  /// runner sends them through the player. Nil (the default) drops them.
  public var systemEvents: (@Sendable (SystemEvent) -> Void)? {
    get { state.withLock { $0.systemEvents } }
    set { state.withLock { $0.systemEvents = newValue } }
  }

  /// Whether the fake network is up (no drop in progress).
  public var isNetworkUp: Bool { state.withLock { $0.drops == 0 } }

  /// Starts misbehaving (reseeding the generator), or behaving with nil.
  public func setHostile(_ mode: HostileMode?) {
    state.withLock { state in
      state.hostile = mode
      if let mode { state.random = SplitMix64(seed: mode.seed) }
    }
  }

  /// Every command received so far, in order.
  public var commands: [EngineCommand] { state.withLock { $0.commands } }

  /// Forgets the recorded commands.
  public func clearCommands() { state.withLock { $0.commands.removeAll() } }

  /// Whether ``commands`` records every command (the default). A long run
  /// that reads commands elsewhere turns it off, so its memory does not grow
  /// with the number of commands.
  public var recordsCommands: Bool {
    get { state.withLock { $0.recordsCommands } }
    set { state.withLock { $0.recordsCommands = newValue } }
  }

  /// Ends the engine, as when its process ends (a relaunch): every load it
  /// holds is forgotten, so the reports pending on the clock for them are
  /// dropped when they fall due, as are its duplicates and its fake
  /// network's `network lost` and `network available`. A command executed
  /// afterwards is recorded and does nothing.
  /// - Returns: the loads whose pending reports are dropped, in token order:
  ///   those not stopped (for a hostile engine, stopped ones too) with a
  ///   report still planned.
  @discardableResult
  public func discard() -> [Load] {
    state.withLock { state in
      let loads = state.tracks.filter { $0.value.pendingTimers > 0 }.keys
        .sorted { ($0.token.rawValue, $0.item.rawValue) < ($1.token.rawValue, $1.item.rawValue) }
      state.isDiscarded = true
      state.tracks.removeAll()
      state.systemEvents = nil
      return loads
    }
  }

  /// The volume the engine plays `load` at now, on the virtual clock: 1
  /// (``PlayerState/Volume/full``) for a new load, then the newest `setVolume`'s
  /// target, or, during its ramp, the level on the straight line from where the
  /// load was when the ramp began to the target (to the nearest thousandth: a ramp
  /// from 1 to 0 over 200 ms reads 0.5 after 100 ms). Nil for a load the engine
  /// does not hold: never loaded, stopped (a well-behaved engine forgets it at once),
  /// or discarded.
  /// - Parameter load: the load, as the machine issued it.
  public func volume(of load: Load) -> Volume? {
    let now = clock.milliseconds
    return state.withLock { state in
      state.tracks[load].flatMap { $0.isStopped ? nil : $0.volume.level(at: now) }
    }
  }

  /// Whether ``discard()`` ended the engine.
  public var isDiscarded: Bool { state.withLock { $0.isDiscarded } }

  /// Whether the engine may still call its player without being sent another command: a load
  /// it keeps has a report planned on the clock (a well-behaved engine forgets a stopped load;
  /// a hostile one keeps it until its late reports are out), a duplicate report is planned, or
  /// its fake network's drop or return is. False once ``discard()`` ended it. The scenario
  /// runner keeps a player that handed off only while this holds (issue 39, R14): once it is
  /// false, nothing of the engine's can reach the player any more.
  package var mayCallBack: Bool {
    state.withLock { state in
      !state.isDiscarded
        && (state.pendingNetworkEvents > 0 || state.pendingDuplicates > 0
          || state.tracks.values.contains { $0.pendingTimers > 0 })
    }
  }

  /// Executes a command: plans the reports it leads to on the clock, or, when
  /// hostile and the generator says so, sends one at once (re-entrantly).
  public func execute(_ command: EngineCommand, reports: ReportSink) {
    let now = clock.milliseconds
    let immediate: EngineReport? = state.withLock { state in
      if state.recordsCommands { state.commands.append(command) }
      guard !state.isDiscarded else { return nil }
      return apply(command, sink: reports, now: now, state: &state)
    }
    if let immediate { reports.send(immediate) }
  }

  private func apply(
    _ command: EngineCommand, sink: ReportSink, now: Int64, state: inout State
  ) -> EngineReport? {
    let load = command.load
    switch command {
    case .load(let request), .preload(let request):
      let profile = state.profiles[request.media] ?? defaultProfile
      var track = MediaTrack(
        load: load, profile: profile, sink: sink, now: now, start: request.start.milliseconds,
        atLiveEdge: request.atLiveEdge)
      let ready = profile.readyAfter.wholeMilliseconds
      if let dropAt = profile.networkDropAt, state.dropsPlanned.insert(request.media).inserted {
        state.pendingNetworkEvents += 2
        planNetworkDrop(
          after: dropAt.wholeMilliseconds, for: profile.networkBackAfter.wholeMilliseconds)
      }
      if state.drops > 0 {
        // No network: the load fails when it would have been ready.
        plan(.offline, after: ready, for: &track)
        state.tracks[load] = track
        return nil
      }
      let failure = profile.failAfter?.wholeMilliseconds
      var answer: EngineReport?
      if let failure { plan(.failure, after: failure, for: &track) }
      if failure.map({ $0 > ready }) ?? true, reentrant(&state) {
        for (timer, delay) in track.becomeReady(now: now) { plan(timer, after: delay, for: &track) }
        answer = track.readyReport
      } else {
        plan(.ready, after: ready, for: &track)
      }
      state.tracks[load] = track
      return answer
    default:
      break
    }
    guard var track = state.tracks[load], !track.isStopped else { return nil }
    var answer: EngineReport?
    switch command {
    case .load, .preload:
      break
    case .setVolume(_, let volume, let ramp):
      // Kept per load, reported never: a ramp is a straight line on the clock, read
      // when asked (nothing of it is planned: it ends without a report).
      track.volume.set(volume, ramp: ramp.wholeMilliseconds, now: now)
    case .start(_, let rate):
      track.settle(now: now)
      track.wantsPlay = true
      track.rate = Int64(max(rate.thousandths, 1))
      if track.isBehindWindow(at: now) {
        // Told to play media its window no longer holds: it fails, as a real engine does.
        track.wantsPlay = false
        plan(.behindWindow, after: 0, for: &track)
      }
      replan(&track, now: now)
    case .setRate(_, let rate):
      track.settle(now: now)
      track.rate = Int64(max(rate.thousandths, 1))
      replan(&track, now: now)
    case .pause:
      track.settle(now: now)
      track.wantsPlay = false
      replan(&track, now: now)
    case .seek(_, let time, let seek):
      let done = MediaTimer.seekDone(seek, target: time.milliseconds)
      if reentrant(&state), let (report, next) = track.fire(done, now: now) {
        for (timer, delay) in next { plan(timer, after: delay, for: &track) }
        answer = report
      } else {
        plan(done, after: track.profile.seekLatency.wholeMilliseconds, for: &track)
      }
    case .stop:
      track.settle(now: now)
      track.isStopped = true
      // A well-behaved engine forgets the load; a hostile one keeps it until
      // its pending callbacks have been delivered, late.
      if state.hostile == nil || track.pendingTimers == 0 {
        state.tracks[load] = nil
        return nil
      }
    }
    state.tracks[load] = track
    return answer
  }

  /// Plans the network's drop and its return on the clock (the caller counts them in
  /// `pendingNetworkEvents`; each, when it runs, uncounts itself).
  private func planNetworkDrop(after drop: Int64, for down: Int64) {
    clock.schedule(after: .milliseconds(drop)) { [weak self] in self?.dropNetwork() }
    clock.schedule(after: .milliseconds(drop.addingSaturated(down))) { [weak self] in
      self?.restoreNetwork()
    }
  }

  /// The network goes down: every load in flight (not stopped, ended or
  /// failed) fails with `network` and ``offline``, one at a time in token
  /// order (a load the player stops on an earlier failure, such as the
  /// preload, sends nothing), then `network lost` is sent.
  private func dropNetwork() {
    let (loads, handler) = state.withLock { state in
      state.pendingNetworkEvents -= 1
      state.drops += 1
      return (
        state.tracks.keys.sorted { $0.token < $1.token },
        state.drops == 1 ? state.systemEvents : nil
      )
    }
    for load in loads {
      let now = clock.milliseconds
      let delivery: (EngineReport, ReportSink)? = state.withLock { state in
        guard var track = state.tracks[load], !track.isStopped,
          let report = track.fail(now: now, detail: Self.offline)
        else { return nil }
        state.tracks[load] = track
        return (report, track.sink)
      }
      if let (report, sink) = delivery { sink.send(report) }
    }
    handler?(.networkLost)
  }

  /// A drop is over; once none is left, `network available` is sent.
  private func restoreNetwork() {
    let handler = state.withLock { state in
      state.pendingNetworkEvents -= 1
      state.drops = max(state.drops - 1, 0)
      return state.drops == 0 ? state.systemEvents : nil
    }
    handler?(.networkAvailable)
  }

  private func reentrant(_ state: inout State) -> Bool {
    guard let hostile = state.hostile else { return false }
    return state.random.chance(percent: hostile.reentrantPercent)
  }

  private func replan(_ track: inout MediaTrack, now: Int64) {
    for (timer, delay) in track.replan(now: now) { plan(timer, after: delay, for: &track) }
  }

  private func plan(_ timer: MediaTimer, after milliseconds: Int64, for track: inout MediaTrack) {
    track.pendingTimers += 1
    let load = track.load
    clock.schedule(after: .milliseconds(milliseconds)) { [weak self] in
      self?.fire(timer, for: load)
    }
  }

  /// Uncounts a planned duplicate that fell due: whether to send it (not once discarded).
  private func takeDuplicate() -> Bool {
    state.withLock { state in
      state.pendingDuplicates -= 1
      return !state.isDiscarded
    }
  }

  /// Runs a due timer: updates the load's model and sends its report, outside
  /// the lock (the player may call ``execute(_:reports:)`` from inside `send`).
  private func fire(_ timer: MediaTimer, for load: Load) {
    let now = clock.milliseconds
    let delivery: (EngineReport, ReportSink, duplicateAfter: Int64?)? = state.withLock { state in
      guard var track = state.tracks[load] else { return nil }
      track.pendingTimers -= 1
      var report: EngineReport?
      if track.isStopped {
        // Only a hostile engine keeps stopped loads: it calls back anyway, late.
        report = track.report(for: timer, now: now)
      } else if let (fired, next) = track.fire(timer, now: now) {
        report = fired
        for (timer, delay) in next { plan(timer, after: delay, for: &track) }
      }
      state.tracks[load] = track.isStopped && track.pendingTimers == 0 ? nil : track
      guard let report else { return nil }
      var duplicateAfter: Int64?
      if let hostile = state.hostile, state.random.chance(percent: hostile.duplicatePercent) {
        duplicateAfter = Int64(state.random.next() % 50)
        state.pendingDuplicates += 1
      }
      return (report, track.sink, duplicateAfter)
    }
    guard let (report, sink, duplicateAfter) = delivery else { return }
    sink.send(report)
    if let duplicateAfter {
      clock.schedule(after: .milliseconds(duplicateAfter)) { [weak self] in
        guard let self, self.takeDuplicate() else { return }
        sink.send(report)
      }
    }
  }
}
