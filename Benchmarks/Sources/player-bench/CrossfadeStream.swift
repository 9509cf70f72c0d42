import PlayerState
import PlayerTesting

/// A pre-generated, seeded stream for the crossfade workload (issue 37, item
/// 3): a long queue on an engine that preloads and ramps, with a crossfade of
/// ``crossfade``. Entries get known durations when ready (most long enough to
/// crossfade, some shorter than twice the crossfade, some unknown), the
/// preload is reported ready, and position reports every 250 ms of media walk
/// each entry up to its end, so crossfades start inside the window; the
/// outgoing load then ends by its timer, its own `ended` or its failure, or
/// is stopped first by a skip, a pause, a stop, an interruption or a new
/// queue during the fade. Late reports of loads already stopped (the faded-out
/// load's late `ended` among them) are mixed in.
///
/// Like ``QueueStream`` it is built before any clock starts, with a shadow
/// `PlaybackState` (the real reducer, untimed) to name the current load, the
/// preload and the load leaving. The first event replaces the queue with
/// ``length`` entries.
struct CrossfadeStream {
  /// How many events of each class the stream holds, and what the crossfades did.
  struct Mix {
    var positions = 0
    var reports = 0
    var timers = 0
    var system = 0
    var intents = 0
    /// Position reports that started a crossfade (a load began leaving beside the session).
    var crossfades = 0
    /// How the crossfades' outgoing loads were stopped.
    var stoppedByTimer = 0
    var stoppedByEnd = 0
    var stoppedByFailure = 0
    /// Stopped before the fade's end by whatever left, paused, held or stopped the entry.
    var stoppedEarly = 0
    /// Accepted `reachedEnd` of the current load (no crossfade: a short or
    /// unknown entry, the preload not ready, paused at the window...).
    var endsAccepted = 0
    /// Events the reducer ignored when the stream is replayed from the start.
    var ignored = 0
  }

  /// The entries of the first queue.
  static let length = 1_000
  /// The crossfade the stream's player is configured with.
  static let crossfade = Duration.seconds(2)

  let seed: UInt64
  let events: [PlaybackEvent]
  /// The indexes, ascending, of the position reports that start a crossfade
  /// when the stream is replayed from ``initialState``: their allocations are
  /// counted apart from the other position reports'.
  let crossfadeStarts: [Int]
  /// The indexes, ascending, of the other events whose step arms a timer
  /// (a watchdog, a backoff, a fade's end): the driver schedules each on its
  /// clock, which allocates the closure it hands over, so the driver's
  /// allocations of these are counted apart too.
  let timerSteps: [Int]
  let mix: Mix

  /// The state every replay of the stream starts from: an engine that
  /// preloads (and ramps: the driver's engine declares both, so the driver
  /// keeps the crossfade).
  static var initialState: PlaybackState {
    PlaybackState(configuration: PlayerConfiguration(canPreload: true, crossfade: crossfade))
  }

  /// Generates `count` events from `seed`; the same arguments give the same stream.
  static func generate(count: Int, seed: UInt64) -> CrossfadeStream {
    var generator = Generator(seed: seed, capacity: count)
    let names = (0..<length).map { MediaID("X\($0)") }  // short: stored inline, no heap
    generator.emit(.queue(names))
    while generator.events.count < count { generator.step() }
    let events = Array(generator.events.prefix(count))
    return CrossfadeStream(
      seed: seed, events: events,
      crossfadeStarts: generator.crossfadeStarts.filter { $0 < events.count },
      timerSteps: generator.timerSteps.filter { $0 < events.count }, mix: generator.mix)
  }

  private struct Generator {
    var rng: SplitMix64
    var state = CrossfadeStream.initialState
    var events: [PlaybackEvent] = []
    var crossfadeStarts: [Int] = []
    var timerSteps: [Int] = []
    var mix = Mix()
    /// The newest position reported: where late reports of stopped loads claim to be.
    var position = MediaTime.zero
    /// The newest loads issued (current, preloads), newest last, at most 8:
    /// once stopped, their reports are late.
    var recentLoads: [Load] = []

    init(seed: UInt64, capacity: Int) {
      rng = SplitMix64(seed: seed)
      events.reserveCapacity(capacity + 1)
    }

    mutating func emit(_ event: PlaybackEvent) {
      let index = events.count
      events.append(event)
      let before = state
      let transition = state.transition(on: event)
      if transition.ignored != nil { mix.ignored += 1 }
      switch EventKind(event) {
      case .position: mix.positions += 1
      case .report, .detailedFailure: mix.reports += 1
      case .timer: mix.timers += 1
      case .intent: mix.intents += 1
      case .system: mix.system += 1
      }
      let after = transition.next
      if before.leaving == nil, after.leaving != nil, after.session != nil {
        mix.crossfades += 1
        crossfadeStarts.append(index)
      } else if transition.watchdog != nil || transition.sleepTimer != nil {
        timerSteps.append(index)
      }
      // A crossfade's outgoing load (beside a session) that is gone after this event.
      if let leaving = before.leaving, before.session != nil, after.leaving?.load != leaving.load {
        switch event {
        case .watchdogExpired(leaving.load, _): mix.stoppedByTimer += 1
        case .engine(.reachedEnd(leaving.load)): mix.stoppedByEnd += 1
        case .engine(.failed(leaving.load, _, _)): mix.stoppedByFailure += 1
        default: mix.stoppedEarly += 1
        }
      }
      if case .engine(.reachedEnd(let load)) = event, load == before.load,
        transition.ignored == nil
      {
        mix.endsAccepted += 1
      }
      for command in transition.commands {
        switch command {
        case .load(let request), .preload(let request):
          if recentLoads.count == 8 { recentLoads.removeFirst() }
          recentLoads.append(request.load)
        default: break
        }
      }
      state = after
      if state.load != before.load { position = state.session?.position ?? .zero }
    }

    mutating func step() {
      guard let session = state.session else {
        // Idle (the end of the queue, a stop): play again.
        return emit(rng.chance(percent: 50) ? .resume : .next)
      }
      if let leaving = state.leaving, rng.chance(percent: 12) {
        return emit(endOfFade(leaving))
      }
      // Paused, held, muted, repeating one, ended, failed: the user or the
      // system moves it on soon, so most entries end playing and audible.
      if !state.playWhenReady, rng.chance(percent: 10) { return emit(.resume) }
      if state.interrupted, rng.chance(percent: 10) {
        return emit(.system(.interruptionEnded(shouldResume: true)))
      }
      if state.muted, rng.chance(percent: 10) { return emit(.user(.setMuted(false))) }
      if state.queue.repeatMode == .one, rng.chance(percent: 5) {
        return emit(.user(.setRepeat(.all)))
      }
      switch session.stage {
      case .ended where rng.chance(percent: 30): return emit(.next)
      case .failed where rng.chance(percent: 30): return emit(.retry)
      case .waitingForNetwork where rng.chance(percent: 30):
        return emit(.system(.networkAvailable))
      default: break
      }
      if let preload = state.preload, preload.stage == .buffering, rng.chance(percent: 40) {
        return emit(.ready(preload.load, duration: duration()))
      }
      switch rng.below(100) {
      case 0..<70:
        emit(progress(session))
      case 70..<80:
        emit(.engine(expectedReport(session)))
      case 80..<84:
        // Late: a load already stopped (a faded-out load among them) or dropped.
        let live = [session.load, state.preload?.load, state.leaving?.load]
        let left = recentLoads.filter { !live.contains($0) }
        if let late = left.isEmpty ? nil : left[rng.below(left.count)] {
          switch rng.below(10) {
          case 0..<6: emit(.position(late, position))
          case 6..<9: emit(.reachedEnd(late))
          default: emit(.ready(late, duration: .seconds(20)))
          }
        } else {
          emit(progress(session))
        }
      case 84..<86:
        emit(.watchdogExpired(session.load, session.lastWatchdog))
      case 86..<96:
        // Controls: more of them land inside fades, where they matter most.
        emit(state.leaving != nil || rng.chance(percent: 40) ? control() : progress(session))
      default:
        emit(system())
      }
    }

    /// A known duration for a load that becomes ready: mostly 8 to 40 s (a
    /// crossfade), one in ten 3 s (shorter than twice the crossfade: no
    /// crossfade), one in twenty unknown (no crossfade).
    mutating func duration() -> MediaTime? {
      switch rng.below(20) {
      case 0: nil
      case 1, 2: .seconds(3)
      default: .milliseconds(Int64(8_000 + 250 * rng.below(129)))
      }
    }

    /// What the playing engine reports next: its position, 250 ms of media
    /// further (times the rate), or its end once the position reaches the
    /// duration. Inside the window the reducer starts the crossfade.
    mutating func progress(_ session: Session) -> PlaybackEvent {
      guard session.stage == .ready, !session.seekPending else {
        return .engine(expectedReport(session))
      }
      // Paused or held, the engine's media does not move.
      guard state.isPlaying else { return .position(session.load, session.position) }
      // From where the machine last saw the media (a seek moves it there).
      if let duration = session.duration, session.position >= duration {
        return .reachedEnd(session.load)
      }
      let step = 250 * Int64(state.rate.thousandths) / 1000
      position = .milliseconds(session.position.milliseconds &+ step)
      if let duration = session.duration, position > duration { position = duration }
      return .position(session.load, position)
    }

    /// How the fade of the load leaving ends: its timer (most often), its
    /// own end, its failure, or a position report of it (stale).
    mutating func endOfFade(_ leaving: FadingLoad) -> PlaybackEvent {
      switch rng.below(20) {
      case 0..<10: .watchdogExpired(leaving.load, leaving.timer)
      case 10..<17: .reachedEnd(leaving.load)
      case 17: .failed(leaving.load, .decoding)
      default: .position(leaving.load, .seconds(30))
      }
    }

    /// The report the current stage waits for.
    mutating func expectedReport(_ session: Session) -> EngineReport {
      let load = session.load
      if session.seekPending { return .seekCompleted(load, session.lastSeek) }
      switch session.stage {
      case .buffering:
        return rng.chance(percent: 97)
          ? .ready(load, duration: duration()) : .failed(load, .network)
      case .ready:
        return rng.chance(percent: 80) ? .position(load, session.position) : .stalled(load)
      case .stalled: return .resumed(load)
      case .ended, .failed, .waitingForNetwork: return .position(load, position)
      }
    }

    /// A user's control: navigation, pause and resume, seeks, volume, rate, stop.
    mutating func control() -> PlaybackEvent {
      if !state.playWhenReady, rng.chance(percent: 60) { return .resume }
      switch rng.below(20) {
      case 0..<4: return .next
      case 4: return .previous
      case 5: return .user(.jump(to: rng.below(max(state.queue.entries.count, 1))))
      case 6..<10: return .pause
      case 10: return .user(.toggle)
      case 11, 12: return .seek(to: .milliseconds(Int64(250 * rng.below(160))))
      case 13: return .setVolume(Volume(thousandths: Int32(200 + 100 * rng.below(9))))
      case 14: return .user(.setMuted(true))
      case 15:
        return .setRate(rng.chance(percent: 50) ? .normal : PlaybackRate(thousandths: 1_500))
      case 16: return .user(.setRepeat([RepeatMode.off, .one, .all, .all][rng.below(4)]))
      case 17: return .stop
      case 18: return .user(.remove(at: rng.below(max(state.queue.entries.count, 1))))
      default: return .user(.append([MediaID("Y\(rng.below(1000))")]))
      }
    }

    /// The system: a duck, an interruption, the route lost, the network.
    mutating func system() -> PlaybackEvent {
      switch rng.below(8) {
      case 0: .system(.duckBegan)
      case 1: .system(.duckEnded)
      case 2: .system(.interruptionBegan)
      case 3: .system(.interruptionEnded(shouldResume: true))
      case 4: .system(.routeLost)
      case 5: .system(.networkLost)
      default: .system(.networkAvailable)
      }
    }
  }
}
