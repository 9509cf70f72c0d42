import Foundation
package import PlayerState

/// Start states: a case may begin from a generated valid `PlaybackState`
/// instead of a new player, so that its ids can sit within a few of
/// exhaustion (load tokens, item ids, seek ids, watchdog ids) and the
/// `idsExhausted` rules come up like any other. Every state is built with
/// `PlaybackState(checking:…)`, so it is one the reducer could have produced.
///
/// A saved case spells it last on its engine line, as `start(FIELDS)`:
///
/// ```text
/// engine preload=yes start(loads=4294967295 items=4294967295 queue=A:4294967294*,B:4294967295 session=4294967294:ready position=3000ms watchdog=1 preload=4294967295#4294967295:ready)
/// next
/// ```
///
/// Fields: `loads=` and `items=` (the ids issued); `queue=` (entries as
/// `MEDIA:ITEM`, the current one starred, or `none`); optionally `repeat=one`
/// or `all`, `paused` (the intent), `interrupted`, `rate=1.5x`; the current
/// load as `session=TOKEN:STAGE` (its item is the current entry's; STAGE is
/// `buffering`, `ready`, `stalled`, `ended`, `waiting` or `failed(REASON)`),
/// then its `position=`, `duration=`, `seek=ID` and `pending`, `watchdog=ID`,
/// `timer=load|stall|backoff` (when not the one its stage arms),
/// `system-paused`, `attempts=N`; the preload as `preload=ITEM#TOKEN:STAGE`
/// (`buffering`, `ready`, `failed(REASON)`) and `preload-duration=`.
///
/// And every other field a folded start state can hold (issue 39: a shrunk case whose start
/// state could not be written down replayed as another case): `shuffle=SEED:ITEM,…` (the seed
/// and the list order to restore, by item), the session's `anchor=` (when not its position),
/// `failure=DOMAIN/CODE/MESSAGE` (the failure detail, each part percent-encoded),
/// `resume=ITEM:TIME` (the resume point), `sleep=TIMER` (the armed sleep timer as the state
/// prints it, `after(1800000ms)`, `endOfEntry`, `endOfQueue` or `afterEntries(N)`) and
/// `sleeps=N` (the sleep countdown ids issued); and volume's (issue 37): `volume=0.5` (the
/// user's volume, when not 1), `muted` and `ducked`.
package enum FuzzStart {
  // MARK: Spelling

  /// `start(FIELDS)` for `state` (its configuration is the engine line's).
  package static func spelling(_ state: PlaybackState) -> String {
    var fields = ["loads=\(state.issuedLoads)", "items=\(state.issuedItems)"]
    let queue = state.queue
    fields.append(
      "queue="
        + (queue.entries.isEmpty
          ? "none"
          : queue.entries.indices.map {
            "\(queue.entries[$0].media):\(queue.entries[$0].item.rawValue)"
              + ($0 == queue.current ? "*" : "")
          }.joined(separator: ",")))
    if queue.repeatMode != .off { fields.append("repeat=\(queue.repeatMode.rawValue)") }
    if let shuffle = queue.shuffle {
      let list =
        shuffle.unshuffled.isEmpty
        ? "none" : shuffle.unshuffled.map { "\($0.item.rawValue)" }.joined(separator: ",")
      fields.append("shuffle=\(shuffle.seed):\(list)")
    }
    if !state.playWhenReady { fields.append("paused") }
    if state.interrupted { fields.append("interrupted") }
    if state.rate != .normal { fields.append("rate=\(state.rate)") }
    if let session = state.session {
      fields.append("session=\(session.load.token.rawValue):\(words(session.stage))")
      if session.position != .zero { fields.append("position=\(session.position)") }
      if session.anchor != session.position { fields.append("anchor=\(session.anchor)") }
      if let duration = session.duration { fields.append("duration=\(duration)") }
      if session.lastSeek.rawValue != 0 { fields.append("seek=\(session.lastSeek.rawValue)") }
      if session.seekPending { fields.append("pending") }
      if session.lastWatchdog.rawValue != 0 {
        fields.append("watchdog=\(session.lastWatchdog.rawValue)")
      }
      if session.timerPurpose != armed(in: session.stage) {
        fields.append("timer=\(timerWords[session.timerPurpose] ?? "load")")
      }
      if session.systemPaused { fields.append("system-paused") }
      if session.networkAttempts != 0 { fields.append("attempts=\(session.networkAttempts)") }
    }
    if let preload = state.preload {
      let stage: String =
        switch preload.stage {
        case .buffering: "buffering"
        case .ready: "ready"
        case .failed(let reason): "failed(\(reason))"
        case .live: "live"
        }
      fields.append(
        "preload=\(preload.load.item.rawValue)#\(preload.load.token.rawValue):\(stage)")
      if let duration = preload.duration { fields.append("preload-duration=\(duration)") }
    }
    if let failure = state.failure {
      fields.append(
        "failure="
          + [failure.domain, String(failure.code), failure.message].map(percentEncoded).joined(
            separator: "/"))
    }
    if let point = state.resumePoint {
      fields.append("resume=\(point.item.rawValue):\(point.position)")
    }
    if let timer = state.sleepTimer { fields.append("sleep=\(timer)") }
    if state.issuedSleepTimers != 0 { fields.append("sleeps=\(state.issuedSleepTimers)") }
    if state.volume.thousandths != 1000 { fields.append("volume=\(state.volume)") }
    if state.muted { fields.append("muted") }
    if state.ducked { fields.append("ducked") }
    return "start(" + fields.joined(separator: " ") + ")"
  }

  /// Whether `state` reads back from its ``spelling(_:)`` as itself (its configuration, the
  /// engine line's, aside): what a shrunk case's start state must do to be printed, so that the
  /// case saved, pasted or replayed is the one that failed.
  package static func roundTrips(_ state: PlaybackState) -> Bool {
    let text = spelling(state)
    guard var parsed = try? parse(text.dropFirst(6).dropLast(), column: 7) else { return false }
    parsed.configuration = state.configuration
    return parsed == state
  }

  /// `text`'s UTF-8 with every byte but letters, digits and `-._~` as `%XX`: a field with no
  /// space, `/` or parenthesis, whatever the text.
  static func percentEncoded(_ text: String) -> String {
    var encoded = ""
    for byte in text.utf8 {
      let scalar = Unicode.Scalar(byte)
      if byte < 0x80,
        scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
          || "-._~".unicodeScalars.contains(scalar)
      {
        encoded.unicodeScalars.append(scalar)
      } else {
        let hex = String(byte, radix: 16, uppercase: true)
        encoded += "%" + (hex.count == 1 ? "0" + hex : hex)
      }
    }
    return encoded
  }

  /// The text ``percentEncoded(_:)`` encoded, or nil for a bad `%` sequence.
  static func percentDecoded(_ text: Substring) -> String? {
    var bytes: [UInt8] = []
    var index = text.utf8.startIndex
    let utf8 = text.utf8
    while index < utf8.endIndex {
      let byte = utf8[index]
      if byte == UInt8(ascii: "%") {
        let start = utf8.index(after: index)
        guard utf8.distance(from: start, to: utf8.endIndex) >= 2 else { return nil }
        let end = utf8.index(start, offsetBy: 2)
        guard let value = UInt8(String(decoding: utf8[start..<end], as: UTF8.self), radix: 16)
        else { return nil }
        bytes.append(value)
        index = end
      } else {
        bytes.append(byte)
        index = utf8.index(after: index)
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// A shuffle's seed and list order (by the queue's items), as a `Shuffle`: built through its
  /// `Codable` form, the one way in from outside the machine's module.
  private struct ShuffleSpelling: Encodable {
    let seed: UInt64
    let unshuffled: [QueueEntry]
  }

  private static let timerWords: [TimerPurpose: String] = [
    .loadWatchdog: "load", .stallWatchdog: "stall", .networkBackoff: "backoff",
  ]

  /// The purpose a timer armed in `stage` has (docs/machine.md, invariant 7).
  private static func armed(in stage: EngineStage) -> TimerPurpose {
    switch stage {
    case .waitingForNetwork: .networkBackoff
    case .stalled: .stallWatchdog
    case .buffering, .ready, .ended, .failed: .loadWatchdog
    }
  }

  private static func words(_ stage: EngineStage) -> String { stage.fuzzWords }

  // MARK: Parsing

  /// Reads the fields inside `start(…)` (see ``FuzzStart``).
  /// - Parameters:
  ///   - text: the fields, space-separated.
  ///   - column: the column of `text`'s first character, for errors.
  /// - Throws: ``FuzzParseError`` at the bad field, or for a state the reducer
  ///   could not have produced (`PlaybackState(checking:…)`'s reason).
  package static func parse(_ text: Substring, column: Int) throws(FuzzParseError) -> PlaybackState
  {
    var loads: UInt32?
    var items: UInt32?
    var entries: [QueueEntry] = []
    var current: Int?
    var repeatMode = RepeatMode.off
    var playWhenReady = true
    var interrupted = false
    var rate = PlaybackRate.normal
    var session: (token: UInt32, stage: EngineStage)?
    var position = MediaTime.zero
    var duration: MediaTime?
    var seek: UInt32 = 0
    var pending = false
    var watchdog: UInt32 = 0
    var timer: TimerPurpose?
    var systemPaused = false
    var attempts: UInt8 = 0
    var preload: (load: Load, stage: PreloadStage)?
    var preloadDuration: MediaTime?
    var shuffle: (seed: UInt64, items: [UInt32])?
    var anchor: MediaTime?
    var failure: FailureDetail?
    var resumePoint: ResumePoint?
    var sleepTimer: SleepTimer?
    var sleeps: UInt32 = 0
    var volume = Volume(thousandths: 1000)
    var muted = false
    var ducked = false
    var offset = 0
    for field in text.split(separator: " ", omittingEmptySubsequences: false) {
      defer { offset += field.count + 1 }
      guard !field.isEmpty else { continue }
      let here = column + offset
      func fail(_ expected: String) -> FuzzParseError {
        FuzzParseError(column: here, message: "expected \(expected) in start(…); got `\(field)`")
      }
      let key = field.prefix { $0 != "=" }
      let value = field.dropFirst(key.count + 1)
      switch key {
      case "loads":
        guard let number = UInt32(value) else { throw fail("loads=NUMBER") }
        loads = number
      case "items":
        guard let number = UInt32(value) else { throw fail("items=NUMBER") }
        items = number
      case "queue":
        guard value != "none" else { continue }
        for (index, text) in value.split(separator: ",").enumerated() {
          let starred = text.hasSuffix("*")
          let parts = text.dropLast(starred ? 1 : 0).split(separator: ":")
          guard parts.count == 2, let item = UInt32(parts[1]) else {
            throw fail("queue=MEDIA:ITEM,… (the current one starred)")
          }
          entries.append(QueueEntry(item: ItemID(item), media: MediaID(String(parts[0]))))
          if starred { current = index }
        }
      case "repeat":
        guard let mode = RepeatMode(rawValue: String(value)) else { throw fail("repeat=one|all") }
        repeatMode = mode
      case "paused": playWhenReady = false
      case "interrupted": interrupted = true
      case "rate":
        guard let parsed = EventParser.rate(String(value)) else { throw fail("rate=1.5x") }
        rate = parsed
      case "session":
        let parts = value.split(separator: ":", maxSplits: 1)
        guard parts.count == 2, let token = UInt32(parts[0]),
          let stage = try? engineStage(parts[1], column: here)
        else { throw fail("session=TOKEN:STAGE") }
        session = (token, stage)
      case "position":
        guard let time = FuzzCase.time(field, named: "position") else {
          throw fail("position=TIME")
        }
        position = time
      case "duration":
        guard let time = FuzzCase.time(field, named: "duration") else {
          throw fail("duration=TIME")
        }
        duration = time
      case "seek":
        guard let number = UInt32(value) else { throw fail("seek=ID") }
        seek = number
      case "pending": pending = true
      case "watchdog":
        guard let number = UInt32(value) else { throw fail("watchdog=ID") }
        watchdog = number
      case "timer":
        guard let purpose = timerWords.first(where: { $0.value == value })?.key else {
          throw fail("timer=load|stall|backoff")
        }
        timer = purpose
      case "system-paused": systemPaused = true
      case "attempts":
        guard let number = UInt8(value) else { throw fail("attempts=N") }
        attempts = number
      case "preload":
        let parts = value.split(separator: ":", maxSplits: 1)
        let ids = parts.first?.split(separator: "#") ?? []
        guard parts.count == 2, ids.count == 2, let item = UInt32(ids[0]),
          let token = UInt32(ids[1]), let stage = try? preloadStage(parts[1], column: here)
        else { throw fail("preload=ITEM#TOKEN:STAGE") }
        preload = (Load(item, token), stage)
      case "preload-duration":
        guard let time = FuzzCase.time(field, named: "preload-duration") else {
          throw fail("preload-duration=TIME")
        }
        preloadDuration = time
      case "shuffle":
        let parts = value.split(separator: ":", maxSplits: 1)
        guard parts.count == 2, let seed = UInt64(parts[0]) else {
          throw fail("shuffle=SEED:ITEM,… (the list order by item, or none)")
        }
        var items: [UInt32] = []
        if parts[1] != "none" {
          for text in parts[1].split(separator: ",", omittingEmptySubsequences: false) {
            guard let item = UInt32(text) else {
              throw fail("shuffle=SEED:ITEM,… (the list order by item, or none)")
            }
            items.append(item)
          }
        }
        shuffle = (seed, items)
      case "anchor":
        guard let time = FuzzCase.time(field, named: "anchor") else { throw fail("anchor=TIME") }
        anchor = time
      case "failure":
        let parts = value.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, let domain = percentDecoded(parts[0]),
          let code = percentDecoded(parts[1]).flatMap({ Int($0) }),
          let message = percentDecoded(parts[2])
        else { throw fail("failure=DOMAIN/CODE/MESSAGE (each percent-encoded)") }
        failure = FailureDetail(domain: domain, code: code, message: message)
      case "resume":
        let parts = value.split(separator: ":", maxSplits: 1)
        guard parts.count == 2, let item = UInt32(parts[0]),
          let time = FuzzCase.time("resume=" + parts[1], named: "resume")
        else { throw fail("resume=ITEM:TIME") }
        resumePoint = ResumePoint(item: ItemID(item), position: time)
      case "sleep":
        guard let timer = try? EventParser.sleepTimer(String(value), column: here)
        else { throw fail("sleep=after(TIME)|endOfEntry|endOfQueue|afterEntries(N)") }
        sleepTimer = timer
      case "sleeps":
        guard let number = UInt32(value) else { throw fail("sleeps=NUMBER") }
        sleeps = number
      case "volume":
        guard let level = EventParser.volume(String(value)), level.isValid else {
          throw fail("volume=LEVEL from 0 to 1, such as volume=0.5")
        }
        volume = level
      case "muted": muted = true
      case "ducked": ducked = true
      default:
        throw fail("a start field (loads=, items=, queue=, session=, preload=, …)")
      }
    }
    guard let loads, let items else {
      throw FuzzParseError(column: column, message: "a start line needs loads= and items=")
    }
    var built: Session?
    if let session {
      guard let current else {
        throw FuzzParseError(column: column, message: "a session needs a current (starred) entry")
      }
      built = Session(
        load: Load(item: entries[current].item, token: LoadToken(session.token)),
        stage: session.stage, lastSeek: SeekID(seek), seekPending: pending,
        lastWatchdog: WatchdogID(watchdog), position: position, duration: duration,
        systemPaused: systemPaused, networkAttempts: attempts, timerPurpose: timer,
        anchor: anchor)
    }
    var builtShuffle: Shuffle?
    if let shuffle {
      var byItem: [UInt32: QueueEntry] = [:]
      for entry in entries { byItem[entry.item.rawValue] = entry }
      var list: [QueueEntry] = []
      for item in shuffle.items {
        guard let entry = byItem[item] else {
          throw FuzzParseError(
            column: column, message: "the shuffle's list order names item \(item), not in the queue"
          )
        }
        list.append(entry)
      }
      do {
        let data = try JSONEncoder().encode(ShuffleSpelling(seed: shuffle.seed, unshuffled: list))
        builtShuffle = try JSONDecoder().decode(Shuffle.self, from: data)
      } catch {
        throw FuzzParseError(column: column, message: "a shuffle that cannot be built: \(error)")
      }
    }
    var state: PlaybackState
    do {
      state = try PlaybackState(
        checking: PlayQueue(
          entries: entries, current: current, repeatMode: repeatMode, shuffle: builtShuffle),
        session: built,
        preload: preload.map { Preload(load: $0.load, stage: $0.stage, duration: preloadDuration) },
        playWhenReady: playWhenReady, rate: rate, interrupted: interrupted, issuedLoads: loads,
        issuedItems: items, failure: failure, resumePoint: resumePoint, sleepTimer: sleepTimer,
        issuedSleepTimers: sleeps)
    } catch {
      throw FuzzParseError(column: column, message: "\(error)")
    }
    state.volume = volume
    state.muted = muted
    state.ducked = ducked
    if let violation = state.invariantViolation {
      throw FuzzParseError(column: column, message: "unreachable state: \(violation)")
    }
    return state
  }

  private static func engineStage(_ text: Substring, column: Int) throws(FuzzParseError)
    -> EngineStage
  {
    switch text {
    case "buffering": return .buffering
    case "ready": return .ready
    case "stalled": return .stalled
    case "ended": return .ended
    case "waiting": return .waitingForNetwork
    default:
      guard text.hasPrefix("failed("), text.hasSuffix(")") else {
        throw FuzzParseError(column: column, message: "expected a stage; got `\(text)`")
      }
      return .failed(try EventParser.failure(String(text.dropFirst(7).dropLast()), column: column))
    }
  }

  private static func preloadStage(_ text: Substring, column: Int) throws(FuzzParseError)
    -> PreloadStage
  {
    switch try engineStage(text, column: column) {
    case .buffering: return .buffering
    case .ready: return .ready
    case .failed(let reason): return .failed(reason)
    default:
      throw FuzzParseError(column: column, message: "expected a preload's stage; got `\(text)`")
    }
  }

  // MARK: Generating

  /// Draws a valid start state: a queue of one to three entries, a current
  /// load in any stage (or none), a preload on an engine that preloads, the
  /// intent, an interruption, a system pause, a pending seek, a position
  /// around the `previous` threshold; each kind of id (tokens, items, seeks,
  /// watchdogs) independently either small or within three of its last
  /// (2³² − 1); with ``FuzzFeatures/volume``, the user's volume (1, 0.5, 0.333
  /// or 0), muted and ducked. Reads eight bytes, and a ninth with volume.
  /// - Parameters:
  ///   - source: where the choices come from.
  ///   - setup: the case's engine and configuration (the preload, the retry
  ///     policy's attempts and the threshold shape the state).
  /// - Returns: the state, checked by `PlaybackState(checking:…)`.
  package static func generate(from source: inout some ByteSource, setup: FuzzSetup)
    -> PlaybackState?
  {
    guard var state = generateWithoutVolume(from: &source, setup: setup) else { return nil }
    // With a fade, a paused ready load with its preload still due resumes in five commands
    // (a fade-in, then the preload and its volume): the list's capacity since fades.
    guard setup.features.contains(.volume) else { return state }
    let byte = source.nextByte()
    state.volume = Volume(thousandths: [1000, 500, 333, 0][Int(byte & 3)])
    state.muted = byte >> 2 & 3 == 3
    // A `.pause` duck takes a system pause over (the two never hold at once).
    let systemPaused = state.session?.systemPaused ?? false
    state.ducked = byte >> 4 & 3 == 3 && !(setup.ducking == .pause && systemPaused)
    return state.invariantViolation == nil ? state : nil
  }

  /// ``generate(from:setup:)`` without volume: the eight bytes every start state reads.
  private static func generateWithoutVolume(
    from source: inout some ByteSource, setup: FuzzSetup
  ) -> PlaybackState? {
    var bytes: [UInt8] = []
    for _ in 0..<8 { bytes.append(source.nextByte()) }
    let exhausted = bytes[0] & 0xF
    let distance = UInt32(bytes[0] >> 4 & 3)
    func near(_ kind: UInt8, small: UInt32) -> UInt32 {
      exhausted & (1 << kind) != 0 ? UInt32.max - distance : small
    }
    // The queue: one to three entries of A–D, the newest item ids.
    let count = Int(bytes[1] % 3) + 1
    let media: [MediaID] = ["A", "B", "C", "D"]
    let items = near(1, small: UInt32(count) + UInt32(bytes[1] >> 6))
    let entries = (0..<count).map { index in
      QueueEntry(
        item: ItemID(items - UInt32(count - 1 - index)),
        media: media[Int(bytes[1] >> (2 + UInt8(index) * 2)) % media.count])
    }
    let current = Int(bytes[2] >> 4) % count
    let repeatMode = RepeatMode.allCases[Int(bytes[2] >> 2 & 3) % 3]
    let queue = PlayQueue(entries: entries, current: current, repeatMode: repeatMode)
    let playWhenReady = bytes[3] & 1 == 0
    let interrupted = bytes[3] & 6 == 6
    // The current load: none, or any stage the retry policy allows.
    let stages: [EngineStage?] = [
      nil, .buffering, .ready, .stalled, .ended, .failed(.decoding), .waitingForNetwork, .ready,
    ]
    var stage = stages[Int(bytes[2] & 7)]
    if stage == .failed(.decoding) {
      stage = .failed([.decoding, .network, .timeout, .notFound][Int(bytes[7] >> 2 & 3)])
    }
    if stage == .waitingForNetwork, setup.retry.attempts == 0 { stage = .failed(.network) }
    guard let stage else {
      // Idle: only the ids issued and the queue.
      return try? PlaybackState(
        checking: queue, session: nil, playWhenReady: playWhenReady, interrupted: interrupted,
        issuedLoads: near(0, small: UInt32(bytes[4] & 3)), issuedItems: items)
    }
    let live = stage == .ready || stage == .stalled
    // The preload: the next entry, once the current one was ready.
    let nextIndex: Int? =
      repeatMode == .one
      ? nil : current + 1 < count ? current + 1 : repeatMode == .all && count > 1 ? 0 : nil
    var preloadStage: PreloadStage?
    if setup.canPreload, live, nextIndex != nil {
      preloadStage = [nil, .buffering, .ready, .failed(.notFound)][Int(bytes[5] & 3)]
    }
    let loads = near(0, small: 2 + UInt32(bytes[4] & 3))
    let token = preloadStage == nil ? loads : loads - 1
    let seekPending = bytes[3] & 8 != 0 && (stage == .buffering || live)
    let lastSeek = near(2, small: seekPending ? 1 + UInt32(bytes[4] >> 2 & 1) : 0)
    let needsTimer = stage == .buffering || stage == .stalled || stage == .waitingForNetwork
    let lastWatchdog = near(
      3, small: needsTimer || bytes[4] & 16 != 0 ? 1 + UInt32(bytes[4] >> 5 & 1) : 0)
    let duration: MediaTime? = bytes[3] & 16 != 0 || stage == .ended ? .seconds(10) : nil
    var position = MediaTime.milliseconds(
      ActionDecoder.time(bytes[6], threshold: setup.previousThreshold.milliseconds))
    if stage == .ended, let duration { position = duration }
    // Attempts counted since the entry was last ready: at most the policy's
    // (fewer while waiting, which needs one left).
    let allowed = Int(setup.retry.attempts)
    let attempts: Int =
      switch stage {
      case .buffering, .failed: Int(bytes[5] >> 2) % (allowed + 1)
      case .waitingForNetwork: Int(bytes[5] >> 2) % allowed
      default: 0
      }
    let session = Session(
      load: Load(item: entries[current].item, token: LoadToken(token)), stage: stage,
      lastSeek: SeekID(lastSeek), seekPending: seekPending, lastWatchdog: WatchdogID(lastWatchdog),
      position: position, duration: duration,
      systemPaused: live && playWhenReady && !interrupted && bytes[3] & 32 != 0,
      networkAttempts: UInt8(attempts))
    let preload = preloadStage.flatMap { stage in
      nextIndex.map {
        Preload(
          load: Load(item: entries[$0].item, token: LoadToken(loads)), stage: stage,
          duration: stage == .ready && bytes[5] & 64 != 0 ? .seconds(10) : nil)
      }
    }
    let rates: [PlaybackRate] = [.normal, .normal, .normal, PlaybackRate(thousandths: 1500)]
    return try? PlaybackState(
      checking: queue, session: session, preload: preload, playWhenReady: playWhenReady,
      rate: rates[Int(bytes[7] & 3)], interrupted: interrupted, issuedLoads: loads,
      issuedItems: items)
  }
}

extension EngineStage {
  /// The stage as a start line and a public-state difference spell it: `buffering`,
  /// `ready`, `stalled`, `ended`, `waiting`, `failed(network)`.
  var fuzzWords: String {
    switch self {
    case .buffering: "buffering"
    case .ready: "ready"
    case .stalled: "stalled"
    case .ended: "ended"
    case .waitingForNetwork: "waiting"
    case .failed(let reason): "failed(\(reason))"
    }
  }
}
