import PlayerState

/// Chooses a case's commands from its seed, in bursts of hostile rhythms,
/// issuing identities the way the machine does: tokens increase and are never
/// reused (a load's item is its token), seek ids increase per load, only the
/// current load is started, paused and sought, and a preload is started only
/// in the switch the machine makes (`stop` of the current load, `start` of
/// the preload).
struct FuzzGenerator {
  private var random: SplitMix64
  private let media: [MediaID]
  private let positions: [MediaTime]
  private let preloads: Bool
  private var steps: [EngineFuzzScript.Step] = []
  private var nextToken: UInt32 = 1
  private var current: Load?
  private var preload: Load?
  private var seekIDs: [LoadToken: UInt32] = [:]
  /// Added to the next step's delay: a pause in the user's rhythm.
  private var pending: Int64 = 0

  init(seed: UInt64, media: [MediaID], positions: [MediaTime], preloads: Bool) {
    random = SplitMix64(seed: seed)
    self.media = media.isEmpty ? ["media"] : media
    self.positions = positions.isEmpty ? [.zero] : positions
    self.preloads = preloads
  }

  /// `count` steps (the last burst may be cut short: any prefix is a valid script).
  mutating func steps(_ count: Int) -> [EngineFuzzScript.Step] {
    while steps.count < count { burst() }
    return Array(steps.prefix(count))
  }

  // MARK: Bursts

  private mutating func burst() {
    guard let load = current else { return open(after: rhythm()) }
    switch random.below(preloads ? 100 : 85) {
    case 0..<14:  // switch media: stop what is live, load the next
      open(after: rhythm())
    case 14..<24:  // switch during buffering: load, then switch again at once
      open(after: rhythm())
      open(after: short())
    case 24..<34:  // rapid play/stop
      open(after: rhythm())
      send(.start(current ?? load), after: Int64(random.below(3)))
      stopAll(after: short())
    case 34..<48:  // seek storm
      for index in 0..<(2 + random.below(5)) { seek(load, after: index == 0 ? rhythm() : short()) }
    case 48..<58:  // pause/start flapping
      for index in 0..<(2 + random.below(5)) {
        let delay = index == 0 ? rhythm() : short()
        send(index % 2 == 0 ? .start(load) : .pause(load), after: delay)
      }
    case 58..<66:  // stop during a seek
      seek(load, after: rhythm())
      stopAll(after: Int64(random.below(10)))
    case 66..<75:  // play
      send(.start(load), after: rhythm())
    case 75..<80:  // pause
      send(.pause(load), after: rhythm())
    case 80..<85:  // the user waits
      pending += 150 + Int64(random.below(650))
    case 85..<95:  // preload, then skip to it
      guard let next = preloadNext(after: rhythm()) else { return }
      send(
        .stop(load), after: random.chance(percent: 50) ? short() : 100 + Int64(random.below(400)))
      send(.start(next), after: 0)
      current = next
      preload = nil
    default:  // preload, then drop it (the next entry was removed)
      guard let next = preloadNext(after: rhythm()) else { return }
      send(.stop(next), after: short())
      preload = nil
    }
  }

  /// Stops the current load and the preload, then loads new media.
  private mutating func open(after delay: Int64) {
    var delay = delay
    if current != nil || preload != nil {
      stopAll(after: delay)
      delay = 0
    }
    let load = issue()
    let start = random.chance(percent: 10) ? pick(positions) : .zero
    send(.load(LoadRequest(load: load, media: pick(media), start: start)), after: delay)
    current = load
  }

  /// Preloads new media beside the current load; nil when one is preloaded already.
  private mutating func preloadNext(after delay: Int64) -> Load? {
    guard preload == nil else { return nil }
    let load = issue()
    send(.preload(LoadRequest(load: load, media: pick(media))), after: delay)
    preload = load
    return load
  }

  private mutating func stopAll(after delay: Int64) {
    var delay = delay
    for load in [current, preload].compactMap({ $0 }) {
      send(.stop(load), after: delay)
      delay = 0
    }
    current = nil
    preload = nil
  }

  private mutating func seek(_ load: Load, after delay: Int64) {
    let id = seekIDs[load.token, default: 0] + 1
    seekIDs[load.token] = id
    send(.seek(load, to: pick(positions), SeekID(id)), after: delay)
  }

  private mutating func issue() -> Load {
    defer { nextToken += 1 }
    return Load(item: ItemID(nextToken), token: LoadToken(nextToken))
  }

  private mutating func send(_ command: EngineCommand, after delay: Int64) {
    steps.append(EngineFuzzScript.Step(delay: .milliseconds(delay + pending), command))
    pending = 0
  }

  // MARK: Rhythms

  /// The gap before a burst: back to back (earlier commands still in
  /// flight), a few milliseconds, a moment, or a human pause.
  private mutating func rhythm() -> Int64 {
    switch random.below(10) {
    case 0..<4: 0
    case 4..<7: 1 + Int64(random.below(20))
    case 7..<9: 20 + Int64(random.below(130))
    default: 150 + Int64(random.below(450))
    }
  }

  /// The gap inside a burst: 0 to 15 ms.
  private mutating func short() -> Int64 {
    random.chance(percent: 40) ? 0 : Int64(random.below(16))
  }

  private mutating func pick<T>(_ values: [T]) -> T {
    values[random.below(values.count)]  // never empty: see init
  }
}
