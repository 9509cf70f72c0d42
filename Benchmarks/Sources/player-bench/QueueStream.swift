import PlayerState
import PlayerTesting

/// A pre-generated, seeded stream for the queue workload (issue 9): a long
/// queue on an engine that preloads, position reports every 250 ms of media,
/// auto-advances (gapless, through the preload), navigation, edits, and late
/// reports of loads already left.
///
/// Like ``EventStream`` it is built before any clock starts, with a shadow
/// `PlaybackState` (the real reducer, untimed) to name the current load and
/// the preload. The first event replaces the queue with ``length`` entries.
struct QueueStream {
  /// How many events of each class the stream holds. Classes match the
  /// allocation figures: reports, positions and timers must not allocate;
  /// intents (edits, navigation) may.
  struct Mix {
    var positions = 0
    var reports = 0
    var timers = 0
    var system = 0
    var intents = 0
    /// `reachedEnd` reports of the current load that the reducer accepted.
    var endsAccepted = 0
    /// Accepted ends that started a ready preload (`start` with no `load`).
    var gaplessAdvances = 0
    /// Events the reducer ignored when the stream is replayed from the start.
    var ignored = 0
  }

  /// The entries of the first queue.
  static let length = 1_000

  let seed: UInt64
  let events: [PlaybackEvent]
  let mix: Mix

  /// The state every replay of the stream starts from: an engine that preloads.
  static var initialState: PlaybackState {
    PlaybackState(configuration: PlayerConfiguration(canPreload: true))
  }

  /// Generates `count` events from `seed`; the same arguments give the same stream.
  static func generate(count: Int, seed: UInt64) -> QueueStream {
    var generator = Generator(seed: seed, capacity: count)
    let names = (0..<length).map { MediaID("T\($0)") }  // short: stored inline, no heap
    generator.emit(.queue(names))
    while generator.events.count < count { generator.step() }
    return QueueStream(
      seed: seed, events: Array(generator.events.prefix(count)), mix: generator.mix)
  }

  private struct Generator {
    var rng: SplitMix64
    var state = QueueStream.initialState
    var events: [PlaybackEvent] = []
    var mix = Mix()
    /// Where the current load has got to, for its position reports.
    var position = MediaTime.zero
    /// The newest loads issued (current and preloads), newest last, at most 8.
    var recentLoads: [Load] = []
    var added = 0

    init(seed: UInt64, capacity: Int) {
      rng = SplitMix64(seed: seed)
      events.reserveCapacity(capacity + 1)
    }

    mutating func emit(_ event: PlaybackEvent) {
      events.append(event)
      let before = state.load
      let transition = state.transition(on: event)
      if transition.ignored != nil { mix.ignored += 1 }
      switch EventKind(event) {
      case .position: mix.positions += 1
      case .report: mix.reports += 1
      case .timer: mix.timers += 1
      case .intent: mix.intents += 1
      case .system: mix.system += 1
      case .detailedFailure: mix.reports += 1
      }
      if case .engine(.reachedEnd) = event, transition.ignored == nil {
        mix.endsAccepted += 1
        let loads = transition.commands.contains { $0.kind == .load }
        if !loads, transition.commands.contains(where: { $0.kind == .start }) {
          mix.gaplessAdvances += 1
        }
      }
      for command in transition.commands {
        switch command {
        case .load(let request), .preload(let request):
          if recentLoads.count == 8 { recentLoads.removeFirst() }
          recentLoads.append(request.load)
        default: break
        }
      }
      state = transition.next
      if state.load != before { position = state.session?.position ?? .zero }
    }

    mutating func step() {
      guard let session = state.session else {
        // Idle (the end of the queue, a stop, a removal): play again.
        return emit(rng.chance(percent: 50) ? .resume : .next)
      }
      let load = session.load
      switch rng.below(100) {
      case 0..<55:
        // The engine's position timer, every 250 ms of media.
        position = .milliseconds(position.milliseconds &+ 250)
        emit(.position(load, position))
      case 55..<75:
        emit(.engine(expectedReport(session)))
      case 75..<80:
        if case .ready = session.stage, !session.seekPending {
          emit(.reachedEnd(load))
        } else {
          emit(.engine(expectedReport(session)))
        }
      case 80..<85:
        // Late: a load already left (stopped, a dropped preload, a removed entry).
        let left = recentLoads.filter { $0 != load && $0 != state.preload?.load }
        if let late = left.isEmpty ? nil : left[rng.below(left.count)] {
          emit(rng.chance(percent: 70) ? .position(late, position) : .ready(late))
        } else {
          emit(.position(load, position))
        }
      case 85..<88:
        emit(.watchdogExpired(load, session.lastWatchdog))
      case 88..<94:
        emit(.user(navigation()))
      default:
        emit(.user(edit()))
      }
    }

    /// The report the current stage (or the preload) waits for.
    mutating func expectedReport(_ session: Session) -> EngineReport {
      let load = session.load
      if let preload = state.preload, preload.stage == .buffering, rng.chance(percent: 50) {
        return .ready(preload.load, duration: .seconds(180))
      }
      if session.seekPending { return .seekCompleted(load, session.lastSeek) }
      switch session.stage {
      case .buffering:
        return rng.chance(percent: 95)
          ? .ready(load, duration: .seconds(180)) : .failed(load, .network)
      case .ready: return .stalled(load)
      case .stalled: return .resumed(load)
      case .ended, .failed, .waitingForNetwork: return .position(load, position)
      }
    }

    mutating func navigation() -> UserIntent {
      switch rng.below(8) {
      case 0: return .next
      case 1: return .previous
      case 2: return .jump(to: rng.below(max(state.queue.entries.count, 1)))
      case 3: return .seek(to: .seconds(Int64(rng.below(180))))
      case 4: return .pause
      case 5: return .resume
      case 6: return .retry
      default: return .setRate(rng.chance(percent: 50) ? .normal : PlaybackRate(thousandths: 1_500))
      }
    }

    /// An edit that keeps the queue near its first length.
    mutating func edit() -> UserIntent {
      let count = state.queue.entries.count
      switch rng.below(20) {
      case 0..<6:
        if count < QueueStream.length {
          added += 1
          return .append([MediaID("N\(added % 1000)")])
        }
        return .remove(at: rng.below(count))
      case 6..<11: return count > 1 ? .remove(at: rng.below(count)) : .append(["N0"])
      case 11..<14:
        added += 1
        return .insert([MediaID("I\(added % 1000)")], at: rng.below(count + 1))
      case 14..<17: return count > 1 ? .move(from: rng.below(count), to: rng.below(count)) : .next
      case 17: return .setRepeat([RepeatMode.off, .one, .all][rng.below(3)])
      case 18:
        return .setShuffle(seed: state.queue.shuffle == nil ? rng.next() : nil)
      default: return .stop
      }
    }
  }
}

/// The class of an event, for the allocation figures: reports, position
/// reports and timers must not allocate; intents (queue edits) may.
enum EventKind: Int, CaseIterable, CustomStringConvertible {
  case position, report, timer, intent, system, detailedFailure

  init(_ event: PlaybackEvent) {
    switch event {
    case .engine(.position): self = .position
    case .engine(.failed(_, _, .some)): self = .detailedFailure
    case .engine: self = .report
    case .watchdogExpired: self = .timer
    case .user, .remote: self = .intent
    case .system: self = .system
    }
  }

  /// The name in the JSON keys and the table: `report`, `position`…
  var description: String {
    switch self {
    case .position: "position"
    case .report: "report"
    case .timer: "timer"
    case .intent: "intent"
    case .system: "system"
    case .detailedFailure: "detailedFailure"
    }
  }
}

extension Sequence<PlaybackEvent> {
  /// How many events of each ``EventKind``, indexed by its raw value.
  var countsByKind: [Int] {
    var counts = [Int](repeating: 0, count: EventKind.allCases.count)
    for event in self { counts[EventKind(event).rawValue] += 1 }
    return counts
  }
}

extension [PlaybackEvent] {
  /// How many events of each ``EventKind``, indexed by its raw value,
  /// without the events at `apart` (indexes into the array).
  func countsByKind(without apart: [Int]) -> [Int] {
    var counts = countsByKind
    for index in apart { counts[EventKind(self[index]).rawValue] -= 1 }
    return counts
  }
}
