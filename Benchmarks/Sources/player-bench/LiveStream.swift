import PlayerState
import PlayerTesting

/// A pre-generated, seeded stream for the live workload (issue 38): a queue of
/// live entries, three in four with a DVR window of ``dvrWindow``, one in four
/// without DVR. A broadcast clock moves 250 ms a tick; the engine reports the
/// window sliding with it (the window report is the most frequent event) and
/// the position where the media is, moving at the rate while playing, held
/// while paused or stalled. Pauses and stalls last long enough for the
/// window's start to pass the position, and the machine reloads at the live
/// edge; the user goes back to live, seeks into the window, plays at 1.5x
/// (at the edge the machine sends 1x), skips and previous. Late reports of
/// loads already reloaded are mixed in, with the engine's bad windows (an edge
/// behind the start) and its own `behindLiveWindow` failures.
///
/// Like ``CrossfadeStream`` it is built before any clock starts, with a
/// shadow `PlaybackState` (the real reducer, untimed) to name the current
/// load. The first event replaces the queue with ``length`` entries.
struct LiveStream {
  /// How many events of each class the stream holds, and what the live rules did.
  struct Mix {
    var positions = 0
    var windows = 0
    var reports = 0
    var timers = 0
    var system = 0
    var intents = 0
    /// Steps that stopped a live load and loaded its entry again at the live edge
    /// (`load(…, at live edge)`): fell behind (a window or a position), the
    /// engine's `behindLiveWindow`, a retry, a resume after the broadcast ended.
    var reloadsAtEdge = 0
    /// Of those, the window and position reports that found the load behind.
    var fellBehind = 0
    /// `goToLive` intents the machine took (a seek to the edge).
    var wentLive = 0
    /// Steps that sent `setRate(L, 1x)` with the user's rate above 1x: the edge.
    var rateClampedAtEdge = 0
    /// Events the reducer ignored when the stream is replayed from the start.
    var ignored = 0
  }

  /// The entries of the first queue.
  static let length = 100
  /// The DVR window of three entries in four.
  static let dvrWindow = MediaTime.seconds(60)
  /// How far the broadcast moves a tick.
  static let tick: Int64 = 250

  let seed: UInt64
  let events: [PlaybackEvent]
  /// The indexes, ascending, of the window reports: their allocations are
  /// counted apart from the other reports'.
  let windowReports: [Int]
  /// The indexes, ascending, of the events whose step arms a timer (a load
  /// watchdog after a reload at the edge, a backoff, a seek's): the driver
  /// schedules each on its clock, which allocates the closure it hands over,
  /// so the driver's allocations of these are counted apart.
  let timerSteps: [Int]
  let mix: Mix

  /// The state every replay of the stream starts from.
  static var initialState: PlaybackState { PlaybackState() }

  /// Generates `count` events from `seed`; the same arguments give the same stream.
  static func generate(count: Int, seed: UInt64) -> LiveStream {
    var generator = Generator(seed: seed, capacity: count)
    let names = (0..<length).map { MediaID("L\($0)") }  // short: stored inline, no heap
    generator.emit(.queue(names))
    while generator.events.count < count { generator.step() }
    let events = Array(generator.events.prefix(count))
    return LiveStream(
      seed: seed, events: events,
      windowReports: generator.windowReports.filter { $0 < events.count },
      timerSteps: generator.timerSteps.filter { $0 < events.count }, mix: generator.mix)
  }

  private struct Generator {
    var rng: SplitMix64
    var state = LiveStream.initialState
    var events: [PlaybackEvent] = []
    var windowReports: [Int] = []
    var timerSteps: [Int] = []
    var mix = Mix()
    /// The broadcast's live edge, in milliseconds of every entry's timeline
    /// (one clock for the whole stream, as a channel's).
    var edge: Int64 = 600_000
    /// Where the current load's media is, as its engine would report it.
    var media: Int64 = 0
    /// The newest loads issued, newest last, at most 8: once stopped, their
    /// reports are late.
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
      switch event {
      case .engine(.window):
        mix.windows += 1
        windowReports.append(index)
      default:
        switch EventKind(event) {
        case .position: mix.positions += 1
        case .report, .detailedFailure: mix.reports += 1
        case .timer: mix.timers += 1
        case .intent: mix.intents += 1
        case .system: mix.system += 1
        }
      }
      if transition.watchdog != nil || transition.sleepTimer != nil { timerSteps.append(index) }
      var reloaded = false
      for command in transition.commands {
        switch command {
        case .load(let request), .preload(let request):
          if recentLoads.count == 8 { recentLoads.removeFirst() }
          recentLoads.append(request.load)
          if request.atLiveEdge, before.load?.item == request.load.item { reloaded = true }
        case .setRate(_, let rate) where rate == .normal && before.rate > .normal:
          mix.rateClampedAtEdge += 1
        default: break
        }
      }
      if reloaded {
        mix.reloadsAtEdge += 1
        switch event {
        case .engine(.window), .engine(.position): mix.fellBehind += 1
        default: break
        }
      }
      if case .user(.goToLive) = event, transition.ignored == nil { mix.wentLive += 1 }
      state = transition.next
      if state.load != before.load {
        // A new load of a live stream starts at its edge (its first window moves it there).
        media = edge
      } else if isSeek(event), transition.ignored == nil, let session = state.session {
        media = session.position.milliseconds  // the engine seeks where the machine sent it
      }
    }

    /// Whether an intent may have moved the machine's target (a seek, a skip,
    /// go to live): the engine's media follows it.
    func isSeek(_ event: PlaybackEvent) -> Bool {
      switch event {
      case .user(.seek), .user(.skip), .user(.goToLive), .user(.setPosition): true
      default: false
      }
    }

    /// Whether the current entry is live without DVR (one in four).
    var isLiveWithoutDVR: Bool { (state.nowPlaying?.index ?? 0) % 4 == 3 }

    /// The window the engine sees now for the current entry.
    var window: LiveWindow {
      let end = MediaTime.milliseconds(edge)
      return isLiveWithoutDVR
        ? LiveWindow(start: end, end: end) : LiveWindow(start: end - LiveStream.dvrWindow, end: end)
    }

    mutating func step() {
      guard let session = state.session else {
        // Idle (the end of the queue, a stop): play again.
        return emit(rng.chance(percent: 50) ? .resume : .next)
      }
      // Paused: the user comes back late (400 steps on average, 60 s of broadcast),
      // often after the window's start has passed the position.
      if !state.playWhenReady, rng.below(400) == 0 { return emit(.resume) }
      if state.interrupted, rng.below(100) == 0 {
        return emit(.system(.interruptionEnded(shouldResume: true)))
      }
      if session.stage == .stalled, rng.below(100) == 0 { return emit(.resumed(session.load)) }
      switch session.stage {
      case .ended where rng.chance(percent: 30):
        return emit(rng.chance(percent: 50) ? .resume : .next)
      case .failed where rng.chance(percent: 30): return emit(.retry)
      case .waitingForNetwork where rng.chance(percent: 30):
        return emit(.system(.networkAvailable))
      case .buffering where rng.chance(percent: 60):
        return emit(
          rng.chance(percent: 98) ? .ready(session.load) : .failed(session.load, .network))
      default: break
      }
      switch rng.below(100) {
      case 0..<70:
        // The broadcast moves on, and the media with it while it plays; the engine
        // reports the window sliding (most often) or where its media is.
        tick(session)
        emit(rng.below(7) < 4 ? .window(session.load, window) : progress(session))
      case 70..<78:
        emit(.engine(expectedReport(session)))
      case 78..<81:
        // Late: a load already stopped (reloaded at the edge, or left).
        let left = recentLoads.filter { $0 != session.load }
        if let late = left.isEmpty ? nil : left[rng.below(left.count)] {
          emit(
            rng.chance(percent: 50)
              ? .window(late, window) : .position(late, .milliseconds(media)))
        } else {
          emit(progress(session))
        }
      case 81:
        // The engine's bugs: an edge behind the window's start; or its own verdict.
        emit(
          rng.chance(percent: 50)
            ? .window(session.load, LiveWindow(start: .milliseconds(edge), end: .seconds(1)))
            : .failed(session.load, .behindLiveWindow))
      case 82:
        emit(.watchdogExpired(session.load, session.lastWatchdog))
      case 83..<97:
        emit(control())
      default:
        emit(system())
      }
    }

    /// 250 ms of broadcast: the edge moves, and the media at the user's rate
    /// while it plays (never past the edge, where the engine plays at 1x); held
    /// while paused, stalled or seeking.
    mutating func tick(_ session: Session) {
      edge &+= LiveStream.tick
      guard session.stage == .ready, !session.seekPending, state.isPlaying else { return }
      media = min(edge, media &+ LiveStream.tick * Int64(state.rate.thousandths) / 1000)
    }

    /// Where the engine's media is, or the report the load waits for first.
    mutating func progress(_ session: Session) -> PlaybackEvent {
      guard session.stage == .ready, !session.seekPending else {
        return .engine(expectedReport(session))
      }
      return .position(session.load, .milliseconds(media))
    }

    /// The report the current stage waits for.
    mutating func expectedReport(_ session: Session) -> EngineReport {
      let load = session.load
      if session.seekPending { return .seekCompleted(load, session.lastSeek) }
      switch session.stage {
      case .buffering:
        return rng.chance(percent: 97) ? .ready(load) : .failed(load, .network)
      case .ready:
        switch rng.below(100) {
        case 0..<85: return .position(load, .milliseconds(media))
        case 85..<99: return .stalled(load)
        default: return .reachedEnd(load)  // the broadcast ended
        }
      case .stalled:
        // Stalls last (above): meanwhile the window slides on.
        return .window(load, window)
      case .ended, .failed, .waitingForNetwork: return .position(load, .milliseconds(media))
      }
    }

    /// A user's control: back to live, seeks into the window, the rate, pause
    /// and resume, navigation, stop.
    mutating func control() -> PlaybackEvent {
      switch rng.below(20) {
      case 0..<4: return .goToLive
      case 4, 5:
        let back = Int64(rng.below(240)) * LiveStream.tick
        return .seek(to: .milliseconds(max(0, edge - back)))
      case 6: return .user(.skip(by: .seconds(-15)))
      case 7: return .user(.skip(by: .seconds(15)))
      case 8..<11:
        return .setRate(rng.chance(percent: 70) ? PlaybackRate(thousandths: 1_500) : .normal)
      case 11..<15: return .pause
      case 15: return .user(.toggle)
      case 16: return .next
      case 17: return .previous
      case 18: return .user(.jump(to: rng.below(LiveStream.length)))
      default: return .stop
      }
    }

    /// The system: an interruption, the route lost, the network.
    mutating func system() -> PlaybackEvent {
      switch rng.below(6) {
      case 0: .system(.interruptionBegan)
      case 1: .system(.interruptionEnded(shouldResume: true))
      case 2: .system(.routeLost)
      case 3: .system(.networkLost)
      default: .system(.networkAvailable)
      }
    }
  }
}
