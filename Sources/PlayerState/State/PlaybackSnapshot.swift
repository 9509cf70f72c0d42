/// What a player needs to come back after a relaunch or on another engine: the
/// queue's media in list order, the shuffle (its seed and play order), the
/// current entry and its position taken in the same step, repeat, rate, the
/// user's volume and mute, and the user's play intent. Nothing live: no tokens,
/// no ids, no load, no preload, and no duck (the system's, not the user's).
///
/// Take one with ``PlaybackState/snapshot``; restore with
/// ``PlaybackState/init(restoring:configuration:)``, which is idle and paused
/// and sends nothing until the user resumes; the first `resume` (or `toggle`)
/// of the saved entry loads it from the saved position, once.
///
/// Codable with a `version` field; decoding checks every rule
/// (``violation``) and throws a clear error, never traps. Bounded: at most
/// ``maximumEntries`` entries, so a snapshot is at most that many media names
/// (each as long as the app made it) and as many play-order indices.
public struct PlaybackSnapshot: Hashable, Sendable, Codable {
  /// The version ``encode(to:)`` writes; the decoder refuses others.
  public static let version = 1
  /// The most entries a snapshot holds (and the decoder accepts).
  public static let maximumEntries = 100_000

  /// The entries' media in list order (the order before any shuffle).
  public var media: [MediaID]
  /// The shuffle's seed, nil when the queue plays in list order.
  public var shuffleSeed: UInt64?
  /// The play order as indices into ``media`` (a permutation of them); nil when
  /// not shuffled, when play order is list order.
  public var playOrder: [Int]?
  /// The current entry's position in play order; nil exactly when ``media`` is empty.
  public var current: Int?
  /// Where the current entry was, taken in the same step as ``current``: its
  /// last known position (0 for one that had ended, which replays from the
  /// start, and for a live stream, whose position does not outlive its load).
  public var position: MediaTime
  /// How far behind the live edge a DVR stream was, when its window still held
  /// the position; nil otherwise (a relaunch of a live entry without it starts
  /// at the edge). A live stream's positions restart with each load (an
  /// engine's live timeline is its own), so the offset from the edge is what
  /// survives a relaunch (docs/machine.md, "Live and DVR streams").
  public var liveOffset: MediaTime?
  /// What happens at the end of an entry.
  public var repeatMode: RepeatMode
  /// The user's rate.
  public var rate: PlaybackRate
  /// Whether the user wanted to play when the snapshot was taken: information for
  /// the app (a restored player stays paused until the user resumes); a hand-off keeps it.
  public var playWhenReady: Bool
  /// The user's volume (encoded only when not 1; a snapshot without it is at 1).
  public var volume: Volume
  /// Whether the user had muted the player (encoded only when true).
  public var muted: Bool

  /// A snapshot with the given parts; ``violation`` says whether a restore can use it.
  public init(
    media: [MediaID], shuffleSeed: UInt64? = nil, playOrder: [Int]? = nil, current: Int?,
    position: MediaTime = .zero, repeatMode: RepeatMode = .off, rate: PlaybackRate = .normal,
    playWhenReady: Bool = false, volume: Volume = .full, muted: Bool = false,
    liveOffset: MediaTime? = nil
  ) {
    self.liveOffset = liveOffset
    self.media = media
    self.shuffleSeed = shuffleSeed
    self.playOrder = playOrder
    self.current = current
    self.position = position
    self.repeatMode = repeatMode
    self.rate = rate
    self.playWhenReady = playWhenReady
    self.volume = volume
    self.muted = muted
  }

  /// The first rule a restore needs that this snapshot breaks, in words; nil when it has none.
  /// - Complexity: O(n) in the entries.
  public var violation: String? {
    if media.count > Self.maximumEntries {
      return "\(media.count) entries; at most \(Self.maximumEntries)"
    }
    if (shuffleSeed == nil) != (playOrder == nil) {
      return "a shuffle needs both its seed and its play order"
    }
    if let playOrder {
      guard playOrder.count == media.count else {
        return "a play order of \(playOrder.count) for \(media.count) entries"
      }
      var seen = [Bool](repeating: false, count: media.count)
      for index in playOrder {
        guard seen.indices.contains(index), !seen[index] else {
          return "the play order is not a permutation of the entries (\(index))"
        }
        seen[index] = true
      }
    }
    switch current {
    case nil where !media.isEmpty: return "\(media.count) entries and no current one"
    case let current? where !media.indices.contains(current):
      return "current position \(current) outside the \(media.count) entries"
    default: break
    }
    if position < .zero { return "position \(position) is negative" }
    if let liveOffset {
      if liveOffset < .zero { return "live offset \(liveOffset) is negative" }
      if position != .zero { return "both a position and a live offset" }
    }
    if rate.thousandths <= 0 { return "rate \(rate) is not positive" }
    if !volume.isValid { return "volume \(volume) is outside 0...1" }
    return nil
  }

  private enum CodingKeys: String, CodingKey {
    case version, media, shuffleSeed, playOrder, current, position, repeatMode, rate,
      playWhenReady, volume, muted, liveOffset
  }

  /// Decodes a snapshot written by ``encode(to:)``.
  /// - Throws: `DecodingError.dataCorrupted` for another version, more than
  ///   ``maximumEntries`` entries, or any ``violation``.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let version = try container.decode(Int.self, forKey: .version)
    guard version == Self.version else {
      throw DecodingError.dataCorruptedError(
        forKey: .version, in: container,
        debugDescription:
          "unsupported PlaybackSnapshot version \(version); expected \(Self.version)")
    }
    // Counted before the entries are decoded: a hostile file cannot make it hold more.
    var list = try container.nestedUnkeyedContainer(forKey: .media)
    var media: [MediaID] = []
    while !list.isAtEnd {
      guard media.count < Self.maximumEntries else {
        throw DecodingError.dataCorruptedError(
          forKey: .media, in: container,
          debugDescription: "more than \(Self.maximumEntries) entries")
      }
      media.append(try list.decode(MediaID.self))
    }
    self.init(
      media: media, shuffleSeed: try container.decodeIfPresent(UInt64.self, forKey: .shuffleSeed),
      playOrder: try container.decodeIfPresent([Int].self, forKey: .playOrder),
      current: try container.decodeIfPresent(Int.self, forKey: .current),
      position: try container.decode(MediaTime.self, forKey: .position),
      repeatMode: try container.decode(RepeatMode.self, forKey: .repeatMode),
      rate: try container.decode(PlaybackRate.self, forKey: .rate),
      playWhenReady: try container.decode(Bool.self, forKey: .playWhenReady),
      // Absent in snapshots written before volumes (issue 37): full, unmuted.
      volume: try container.decodeIfPresent(Volume.self, forKey: .volume) ?? .full,
      muted: try container.decodeIfPresent(Bool.self, forKey: .muted) ?? false,
      // Absent in snapshots written before live streams (issue 38), and for on-demand media.
      liveOffset: try container.decodeIfPresent(MediaTime.self, forKey: .liveOffset))
    if let violation {
      throw DecodingError.dataCorruptedError(
        forKey: .version, in: container, debugDescription: "unusable snapshot: \(violation)")
    }
  }

  /// Encodes the snapshot with its `version`.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(Self.version, forKey: .version)
    try container.encode(media, forKey: .media)
    try container.encodeIfPresent(shuffleSeed, forKey: .shuffleSeed)
    try container.encodeIfPresent(playOrder, forKey: .playOrder)
    try container.encodeIfPresent(current, forKey: .current)
    try container.encode(position, forKey: .position)
    try container.encode(repeatMode, forKey: .repeatMode)
    try container.encode(rate, forKey: .rate)
    try container.encode(playWhenReady, forKey: .playWhenReady)
    if volume != .full { try container.encode(volume, forKey: .volume) }
    if muted { try container.encode(muted, forKey: .muted) }
    try container.encodeIfPresent(liveOffset, forKey: .liveOffset)
  }
}

/// A restored entry's saved position: used by the first `resume` of that entry,
/// once, and forgotten as soon as a load exists or another entry is current.
public struct ResumePoint: Hashable, Sendable, Codable {
  /// The entry the position belongs to.
  public let item: ItemID
  /// The position, or the live offset: one of the two, so that a state's
  /// resume point did not grow when live streams came.
  private let mark: Mark

  /// Where an entry was: a position, or how far behind the live edge.
  private enum Mark: Hashable, Sendable {
    case position(MediaTime)
    case liveOffset(MediaTime)
  }

  /// Where it was (0 for a DVR stream saved by its ``liveOffset``).
  public var position: MediaTime {
    if case .position(let position) = mark { return position }
    return .zero
  }
  /// How far behind the live edge a DVR stream was (the position is 0 then):
  /// its first `resume` loads it that far behind the edge.
  public var liveOffset: MediaTime? {
    if case .liveOffset(let offset) = mark { return offset }
    return nil
  }

  /// A resume point: a position, or for a DVR stream an offset behind the
  /// live edge (given both, the offset wins: a live position does not
  /// outlive its load).
  public init(item: ItemID, position: MediaTime, liveOffset: MediaTime? = nil) {
    self.item = item
    mark = liveOffset.map(Mark.liveOffset) ?? .position(position)
  }

  private enum CodingKeys: String, CodingKey { case item, position, liveOffset }

  /// Decodes a resume point; one written before live streams has no offset.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      item: try container.decode(ItemID.self, forKey: .item),
      position: try container.decode(MediaTime.self, forKey: .position),
      liveOffset: try container.decodeIfPresent(MediaTime.self, forKey: .liveOffset))
  }

  /// Encodes the item, the position and, when there is one, the live offset.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(item, forKey: .item)
    try container.encode(position, forKey: .position)
    try container.encodeIfPresent(liveOffset, forKey: .liveOffset)
  }
}

extension PlaybackState {
  /// The state as a snapshot, taken in one step: the current entry and its
  /// position come from this state only (right after `next`, the new entry at
  /// its start, never the old entry's position).
  /// - Complexity: O(n) in the queue's length.
  public var snapshot: PlaybackSnapshot {
    let list = queue.shuffle.map { Array($0.unshuffled) } ?? Array(queue.entries)
    var playOrder: [Int]?
    if queue.shuffle != nil {
      var index: [ItemID: Int] = [:]
      index.reserveCapacity(list.count)
      for (offset, entry) in list.enumerated() { index[entry.item] = offset }
      playOrder = queue.entries.map { index[$0.item] ?? 0 }
    }
    let point = currentPoint
    return PlaybackSnapshot(
      media: list.map(\.media), shuffleSeed: queue.shuffle?.seed, playOrder: playOrder,
      current: queue.current, position: point.position, repeatMode: queue.repeatMode, rate: rate,
      playWhenReady: playWhenReady, volume: volume, muted: muted, liveOffset: point.liveOffset)
  }

  /// Where the current entry is: the current load's last known position (0
  /// once it has ended: it replays from the start), else its resume point, else 0;
  /// for a live load no position, and for a DVR load its offset from the edge
  /// while the window holds it.
  var currentPoint: (position: MediaTime, liveOffset: MediaTime?) {
    if let session, session.stage != .ended {  // always the current entry's (an invariant)
      // Live: nothing (a relaunch resumes at the edge); DVR: the offset from the
      // edge, only while the window holds the position.
      if let window = session.window {
        guard window.isSeekable, window.contains(session.position) else { return (.zero, nil) }
        return (.zero, window.end - session.position)
      }
      return (session.position, nil)
    }
    if session == nil, let point = resumePoint {  // likewise
      return (point.position, point.liveOffset)
    }
    return (.zero, nil)
  }

  /// This state with nothing live: no load, no preload, no load fading out,
  /// no failure detail, no sleep countdown (its clock was the old driver's); the user's intent
  /// paused and the current entry's position kept as its resume point (the
  /// first `resume` loads it from there, once). The queue, the settings, the
  /// volume, mute and duck, a sleep timer at an entry's end and the issued
  /// ids are kept, so ids are
  /// never reused. A state without a load, a preload, a fading load or a
  /// countdown is returned as it is.
  ///
  /// What `Player(engine:state:)` does to the state it is given: a new engine
  /// never saw the old one's loads, so it must not be sent `pause` or `seek`
  /// for them.
  public var withoutLoad: PlaybackState {
    var state = self
    if case .after = sleepTimer { state.sleepTimer = nil }
    // A load fading out into a stop was the old engine's.
    state.leaving = nil
    guard session != nil || preload != nil else { return state }
    let point = currentPoint
    state.session = nil
    state.preload = nil
    state.failure = nil
    state.playWhenReady = false
    state.resumePoint = nil
    if let current = queue.currentEntry, point.position > .zero || point.liveOffset != nil {
      state.resumePoint = ResumePoint(
        item: current.item, position: point.position, liveOffset: point.liveOffset)
    }
    return state
  }

  /// What a player restored from ``snapshot`` on another engine is sent to
  /// take playback over (`Player.handOff(to:)`), in order: the sleep timer
  /// when it stops at an entry's end (a countdown's clock was the old
  /// driver's), then `resume` and, if the user was paused, `pause`.
  package var handOffEvents: [PlaybackEvent] {
    var events: [PlaybackEvent] = []
    if let timer = sleepTimer, !timer.isCountdown { events.append(.user(.setSleepTimer(timer))) }
    if queue.current != nil {
      events.append(.resume)
      if !playWhenReady { events.append(.pause) }
    }
    return events
  }

  /// A player's state restored from `snapshot`: idle, paused, new item ids for
  /// the entries, nothing loaded, the user's volume and mute as saved, not
  /// ducked; the first `resume` of the saved entry loads it from the saved
  /// position (``resumePoint``), once.
  /// - Parameters:
  ///   - snapshot: what was saved.
  ///   - configuration: the settings the reducer reads.
  /// - Throws: ``InvalidStateError`` naming the snapshot's ``PlaybackSnapshot/violation``.
  public init(
    restoring snapshot: PlaybackSnapshot,
    configuration: PlayerConfiguration = PlayerConfiguration()
  ) throws(InvalidStateError) {
    if let violation = snapshot.violation {
      throw InvalidStateError(reason: "unusable snapshot: \(violation)")
    }
    self.init(configuration: configuration)
    let list = snapshot.media.enumerated().map {
      QueueEntry(item: ItemID(UInt32($0.offset + 1)), media: $0.element)
    }
    let played = snapshot.playOrder.map { $0.map { list[$0] } } ?? list
    queue = PlayQueue(
      entries: played, current: snapshot.current, repeatMode: snapshot.repeatMode,
      shuffle: snapshot.shuffleSeed.map { Shuffle(seed: $0, unshuffled: QueueEntries(list)) })
    issuedItems = UInt32(list.count)
    rate = snapshot.rate
    volume = snapshot.volume
    muted = snapshot.muted
    playWhenReady = false
    if let current = queue.currentEntry, snapshot.position > .zero || snapshot.liveOffset != nil {
      resumePoint = ResumePoint(
        item: current.item, position: snapshot.position, liveOffset: snapshot.liveOffset)
    }
  }
}
