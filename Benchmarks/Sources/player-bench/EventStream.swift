import PlayerState
import PlayerTesting

/// A pre-generated, seeded stream of events: the one input every workload is fed.
///
/// Built before any clock starts. The generator keeps a shadow `PlaybackState`
/// (the real reducer, untimed) so that it can name the current load, seek and
/// watchdog, and then mixes in what a hostile engine does: late reports of
/// replaced or stopped loads, tokens never issued, a current token with the
/// wrong item, duplicates, superseded seeks, stale watchdogs, the seeds'
/// own bug order (play, stop, then the late `ready`), and the system (issue
/// 10): interruptions (paired, unpaired, duplicated), route loss, network loss
/// and availability, the engine's own pauses, and failures carrying a detail.
struct EventStream {
  /// How many events of each kind of identity the stream holds.
  struct Mix {
    var intents = 0
    var currentReports = 0
    var staleReports = 0
    var neverIssuedReports = 0
    var mismatchedReports = 0
    var duplicates = 0
    var watchdogs = 0
    var hostileOrders = 0
    /// Interruptions, route loss, network loss and availability.
    var system = 0
    /// `pausedBySystem` reports (current or stale).
    var systemPauses = 0
    /// Failures carrying a `FailureDetail` (the only events that may allocate).
    var detailedFailures = 0
    /// Events the reducer ignored when the stream is replayed from idle on one thread.
    var ignored = 0
    /// `ready` reports after which the reducer sends no `start` (stale, duplicate,
    /// or the user paused or stopped): the naive player starts the engine on every one.
    var readyWithoutStart = 0
  }

  let seed: UInt64
  let events: [PlaybackEvent]
  let mix: Mix

  /// The detail of the stream's detailed failures: one shared instance, as an
  /// engine would make one per failure (its allocation is counted apart).
  static let decoderError = FailureDetail(
    domain: "AVFoundationErrorDomain", code: -11800, message: "The operation could not be completed"
  )

  /// Media ids short enough to be stored inline in `String` (no heap, no refcount).
  static let media: [MediaID] = ["A", "B", "C", "D"]

  /// Generates `count` events from `seed`; the same arguments give the same stream.
  static func generate(count: Int, seed: UInt64) -> EventStream {
    var generator = Generator(seed: seed, capacity: count)
    while generator.events.count < count { generator.step() }
    return EventStream(
      seed: seed, events: Array(generator.events.prefix(count)), mix: generator.mix)
  }

  private struct Generator {
    var rng: SplitMix64
    var state = PlaybackState()
    var events: [PlaybackEvent] = []
    var mix = Mix()
    /// The newest loads the machine issued, newest last (at most 8): late
    /// reports name one of them.
    var recentLoads: [Load] = []

    init(seed: UInt64, capacity: Int) {
      rng = SplitMix64(seed: seed)
      events.reserveCapacity(capacity + 3)
    }

    mutating func emit(_ event: PlaybackEvent) {
      events.append(event)
      let transition = state.transition(on: event)
      if transition.ignored != nil { mix.ignored += 1 }
      for command in transition.commands {
        guard case .load(let request) = command else { continue }
        if recentLoads.count == 8 { recentLoads.removeFirst() }
        recentLoads.append(request.load)
      }
      if case .engine(.ready) = event, !transition.commands.contains(where: { $0.kind == .start }) {
        mix.readyWithoutStart += 1
      }
      state = transition.next
    }

    mutating func anyMedia() -> MediaID { EventStream.media[rng.below(EventStream.media.count)] }

    mutating func step() {
      let roll = rng.below(100)
      switch roll {
      case 0..<28:
        mix.intents += 1
        emit(.user(intent()))
      case 28..<31:
        mix.system += 1
        emit(.system(systemEvent()))
      case 31..<62:
        guard let session = state.session else { return emit(.user(.play(anyMedia()))) }
        mix.currentReports += 1
        emit(.engine(currentReport(session)))
      case 62..<72:
        // A late report of an earlier load: replaced, stopped or failed.
        let earlier = recentLoads.filter { $0 != state.load }
        guard !earlier.isEmpty else { return emit(.user(.play(anyMedia()))) }
        mix.staleReports += 1
        emit(.engine(report(for: earlier[rng.below(earlier.count)])))
      case 72..<77:
        mix.neverIssuedReports += 1
        let token = rng.chance(percent: 25) ? 0 : state.issuedLoads &+ 1 &+ UInt32(rng.below(4))
        let item = UInt32(rng.below(Int(state.issuedItems) + 1))
        emit(.engine(report(for: Load(item, token))))
      case 77..<80:
        guard let load = state.load else { return emit(.user(.play(anyMedia()))) }
        mix.mismatchedReports += 1
        emit(.engine(report(for: Load(item: ItemID(load.item.rawValue &+ 1), token: load.token))))
      case 80..<88:
        guard let last = events.last else { return emit(.user(.play(anyMedia()))) }
        mix.duplicates += 1
        emit(last)
      case 88..<95:
        guard let session = state.session else { return emit(.user(.play(anyMedia()))) }
        mix.watchdogs += 1
        let current = session.lastWatchdog.rawValue
        let id =
          rng.chance(percent: 50)
          ? current : current &- UInt32(rng.below(2)) &+ UInt32(rng.below(2))
        emit(.watchdogExpired(session.load, WatchdogID(id)))
      default:
        // The seeds' bug order: play, stop, and the late ready of that load.
        mix.hostileOrders += 1
        emit(.user(.play(anyMedia())))
        let load = state.load
        emit(.user(.stop))
        if let load { emit(.engine(.ready(load))) }
      }
    }

    mutating func intent() -> UserIntent {
      switch rng.below(100) {
      case 0..<25: .play(anyMedia())
      case 25..<40: .pause
      case 40..<60: .resume
      case 60..<70: .stop
      case 70..<90: .seek(to: .milliseconds(Int64(rng.below(600_000))))
      default: .retry
      }
    }

    /// An interruption (begun, ended with or without the hint, sometimes
    /// unpaired or duplicated, as the generator does not track them), the
    /// output route lost, or the network lost or back.
    mutating func systemEvent() -> SystemEvent {
      switch rng.below(10) {
      case 0..<3: .interruptionBegan
      case 3..<5: .interruptionEnded(shouldResume: true)
      case 5: .interruptionEnded(shouldResume: false)
      case 6: .routeLost
      case 7: .networkLost
      default: .networkAvailable
      }
    }

    /// Mostly the report the stage expects, sometimes any report (then ignored as unexpected).
    mutating func currentReport(_ session: Session) -> EngineReport {
      let load = session.load
      if session.seekPending, rng.chance(percent: 40) {
        // Usually the newest seek; sometimes a superseded or never-issued one.
        let newest = session.lastSeek.rawValue
        let seek =
          rng.chance(percent: 80) ? newest : (rng.chance(percent: 50) ? newest &- 1 : newest &+ 1)
        return .seekCompleted(load, SeekID(seek))
      }
      if rng.chance(percent: 15) { return report(for: load) }
      switch session.stage {
      case .buffering: return rng.chance(percent: 90) ? .ready(load) : .failed(load, .network)
      case .ready:
        if rng.chance(percent: 10) {
          mix.systemPauses += 1
          return .pausedBySystem(load)
        }
        return rng.chance(percent: 60) ? .stalled(load) : .reachedEnd(load)
      case .stalled:
        if rng.chance(percent: 85) { return .resumed(load) }
        guard rng.chance(percent: 10) else { return .failed(load, .decoding) }
        mix.detailedFailures += 1
        return .failed(load, .decoding, detail: EventStream.decoderError)
      case .ended, .failed, .waitingForNetwork: return report(for: load)
      }
    }

    /// A report of any kind about `load`.
    mutating func report(for load: Load) -> EngineReport {
      switch rng.below(7) {
      case 0: .ready(load)
      case 1: .stalled(load)
      case 2: .resumed(load)
      case 3: .seekCompleted(load, SeekID(UInt32(rng.below(3))))
      case 4: .reachedEnd(load)
      case 5: .pausedBySystem(load)
      default: .failed(load, .network)
      }
    }
  }
}
