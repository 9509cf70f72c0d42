import PlayerState

/// Chooses a case's commands, in bursts of hostile rhythms, issuing identities
/// the way the machine does: tokens increase and are never reused (a load's
/// item is its token), seek ids increase per load, only the current load is
/// started, paused and sought, and a preload is started only in the switch the
/// machine makes (`stop` of the current load, `start` of the preload).
///
/// The one generator of the engine fuzzer: its choices come from a seeded
/// ``SplitMix64`` (``EngineFuzzer/generate(caseSeed:preloads:)``) or from the
/// bytes of a libFuzzer input (``EngineFuzzer/generate(bytes:preloads:)``,
/// through ``FuzzBytes``).
struct FuzzGenerator<Choices: FuzzChoices> {
  private var random: Choices
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

  init(_ choices: Choices, media: [MediaID], positions: [MediaTime], preloads: Bool) {
    random = choices
    self.media = media.isEmpty ? ["media"] : media
    self.positions = positions.isEmpty ? [.zero] : positions
    self.preloads = preloads
  }

  /// `count` steps (the last burst may be cut short: any prefix is a valid script),
  /// or fewer if the choices run out first.
  mutating func steps(_ count: Int) -> [EngineFuzzScript.Step] {
    while steps.count < count, !random.isExhausted { burst() }
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

/// Where ``FuzzGenerator`` takes its choices from.
protocol FuzzChoices {
  /// A number in `0..<bound`.
  /// - Precondition: `bound` is positive.
  mutating func below(_ bound: Int) -> Int
  /// True with the given chance, from 0 (never) to 100 (always) percent.
  mutating func chance(percent: Int) -> Bool
  /// Whether the choices have run out (the generator then stops at the end of
  /// a burst). Never, for a seeded generator.
  var isExhausted: Bool { get }
}

extension SplitMix64: FuzzChoices {
  var isExhausted: Bool { false }
}

/// Choices read from the bytes of a buffer, such as a libFuzzer input, then
/// zeros: each choice reads as few bytes as its bound needs (one up to 256),
/// so a small change of the input changes few choices.
struct FuzzBytes: FuzzChoices {
  private let bytes: [UInt8]
  private var position = 0

  /// Reads `bytes` from the start.
  init(_ bytes: [UInt8]) { self.bytes = bytes }

  /// The next byte, or 0 once all were read.
  private mutating func next() -> UInt8 {
    guard position < bytes.count else { return 0 }
    defer { position += 1 }
    return bytes[position]
  }

  mutating func below(_ bound: Int) -> Int {
    precondition(bound > 0, "bound must be positive")
    var value: UInt64 = 0
    var range = UInt64(bound - 1)
    repeat {
      value = value << 8 | UInt64(next())
      range >>= 8
    } while range > 0
    return Int(value % UInt64(bound))
  }

  mutating func chance(percent: Int) -> Bool {
    percent > 0 && Int(next()) % 100 < percent
  }

  var isExhausted: Bool { position >= bytes.count }
}
