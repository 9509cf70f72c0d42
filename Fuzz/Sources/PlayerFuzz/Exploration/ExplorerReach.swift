public import PlayerState

// Where the explorer reaches beyond its standard alphabet (issue 39, item 3): four places the
// random runs reached and a search from a fresh player over the standard letters could not.
// Each is an option of the scope, so the standard scopes (and every state count CI and the
// docs pin) stay as they are.

/// Places a scoped search reaches beyond its standard alphabet and its fresh start, each an
/// option of ``ExplorationScope/reach`` (`player-sim explore --entries N --reach LIST`).
///
/// - ``removeBefore``: a letter `queue(A B C, start 2)`, three fresh entries from the middle
///   one, so that removing the entry before the current one leaves an entry after it. With
///   two entries the current entry is then the last, and an index not decremented points
///   past the queue; with three it points at the wrong entry.
/// - ``shuffleDraw``: a letter `queue(A B C)`, so that `shuffle(seed 1)` draws: a shuffle keeps
///   the current entry first and draws the order of the others, and with two entries there is
///   one other, nothing to draw.
/// - ``atDuration``: a letter `setPosition` of the current entry exactly at the duration `ready`
///   reports (the standard letters set it at 0, past the threshold and past the duration).
/// - ``nearExhaustion``: every configuration class is searched again from each of
///   ``Explorer/nearExhaustionStarts``, start states whose ids are one or two short of their
///   last, so that the rules that refuse an intent when ids run out (`idsExhausted`) come up.
///
/// The letters of the first three apply within the scope's features (the queue's, the remote
/// controls'); a three-entry letter applies in a scope of fewer entries too (its queue is the
/// one place the scope holds three), and the letters that would make a queue longer than the
/// scope still do not apply.
public struct ExplorationReach: OptionSet, Hashable, Sendable, LosslessStringConvertible {
  /// The options, one bit each.
  public let rawValue: UInt8

  /// Options from their bits (bits beyond the four options are dropped).
  /// - Parameter rawValue: one bit an option, as in ``removeBefore``'s.
  public init(rawValue: UInt8) { self.rawValue = rawValue & 0x0F }

  /// A letter for three fresh entries from the middle one: a removal before the current entry
  /// with an entry after it.
  public static let removeBefore = ExplorationReach(rawValue: 1)
  /// A letter for three fresh entries from the first: a shuffle that draws.
  public static let shuffleDraw = ExplorationReach(rawValue: 2)
  /// A letter setting the current entry's position exactly at the reported duration.
  public static let atDuration = ExplorationReach(rawValue: 4)
  /// Every class searched again from start states with ids near exhaustion.
  public static let nearExhaustion = ExplorationReach(rawValue: 8)
  /// Every option.
  public static let all: ExplorationReach = [
    .removeBefore, .shuffleDraw, .atDuration, .nearExhaustion,
  ]

  /// Each option with its name, in the order ``description`` lists them.
  public static let named: [(name: String, option: ExplorationReach)] = [
    ("removeBefore", .removeBefore), ("shuffleDraw", .shuffleDraw), ("atDuration", .atDuration),
    ("nearExhaustion", .nearExhaustion),
  ]

  /// Parses a comma-separated list of option names, as in `removeBefore,atDuration`; `none`
  /// for no option, `all` for every one.
  /// - Parameter description: the list.
  /// - Returns: nil when a word is not an option.
  public init?(_ description: String) {
    let trimmed = description.split(separator: " ").joined()
    if trimmed == "none" {
      self = []
      return
    }
    if trimmed == "all" {
      self = .all
      return
    }
    var reach: ExplorationReach = []
    for word in trimmed.split(separator: ",", omittingEmptySubsequences: false) {
      guard let option = Self.named.first(where: { $0.name == word })?.option else { return nil }
      reach.insert(option)
    }
    self = reach
  }

  /// The names, comma-separated in the order `removeBefore,shuffleDraw,atDuration,nearExhaustion`;
  /// `none` for no option.
  public var description: String {
    let names = Self.named.filter { contains($0.option) }.map(\.name)
    return names.isEmpty ? "none" : names.joined(separator: ",")
  }
}

extension Explorer {
  /// The start states ``ExplorationReach/nearExhaustion`` searches every class from besides a
  /// new player, as a saved case spells them (`FuzzStart`):
  ///
  /// - `start(loads=4294967294 items=4294967293 queue=none sleeps=4294967294)`: idle, one load
  ///   token, two item ids and one sleep countdown id left (so a queue of two is refused for
  ///   its items, a second load for its token, a second countdown for its id);
  /// - `start(loads=4294967294 items=4294967294 queue=A:4294967294* session=4294967294:ready
  ///   seek=4294967294 watchdog=4294967294)`: one entry playing, one token, no item id, and one
  ///   seek and one watchdog id of its load left.
  ///
  /// The canonical key keeps how far each id is from its last while it is near
  /// (`appendExhaustion(of:into:)`), so the search from them is exact.
  public static var nearExhaustionStarts: [PlaybackState] {
    Self.nearExhaustionSpellings.compactMap { try? FuzzStart.parse($0[...], column: 1) }
  }

  /// The fields of ``nearExhaustionStarts``, as `start(…)` holds them (a test parses each).
  package static let nearExhaustionSpellings = [
    "loads=4294967294 items=4294967293 queue=none sleeps=4294967294",
    "loads=4294967294 items=4294967294 queue=A:4294967294* session=4294967294:ready"
      + " seek=4294967294 watchdog=4294967294",
  ]

  /// An id this far or less from its last is near exhaustion: the key keeps its exact distance.
  /// A search from a new player never counts an id anywhere near it, so no state of such a
  /// search has one, and its keys are as they were.
  static let nearExhaustion: UInt32 = 1 << 31

  /// Appends, when an id of `model` is near exhaustion, how far each is from its last (load
  /// tokens, item ids, the current load's seek and watchdog ids, sleep countdown ids; -1 for
  /// one that is not near): the rules refuse an intent that needs an id when none is left, so
  /// two states that differ in that behave differently. As the canonical form does, not the
  /// seek ids of a stopped load nor the watchdog ids of a failed one (no rule issues them
  /// again: a reload is a new load). First in the key: -9 begins no other.
  static func appendExhaustion(of model: ContractModel, into key: inout [Int32]) {
    let current = model.current
    let ids: [UInt32] = [
      model.issued, model.issuedItems,
      current.map { $0.stage.isStopped ? 0 : $0.lastSeek } ?? 0,
      current.map { $0.stage == .failed ? 0 : $0.lastWatchdog } ?? 0, model.issuedSleep,
    ]
    let limit = UInt32.max - nearExhaustion
    guard ids.contains(where: { $0 > limit }) else { return }
    key.append(-9)
    for id in ids { key.append(id > limit ? Int32(UInt32.max - id) : -1) }
  }
}

extension Explorer.Letter {
  /// The letters the ``ExplorationReach`` options add.
  enum Reach: Hashable, Sendable {
    /// `replaceQueue` of three fresh media, from the first entry (`start` 0) or the middle one
    /// (`start` 1), playing.
    case threeEntries(start: Int)
    /// `setPosition` of the current entry exactly at the duration `ready` reports.
    case setPositionAtDuration

    /// The event in `context`, or nil when it names nothing.
    func event(in context: Explorer.LetterContext) -> PlaybackEvent? {
      switch self {
      case .threeEntries(let start):
        let media = context.fresh(3)
        guard media.count == 3 else { return nil }
        return .user(.replaceQueue(media, start: start, from: .zero, playWhenReady: true))
      case .setPositionAtDuration:
        guard let position = context.model.position else { return nil }
        return .user(.setPosition(context.model.entries[position].item, context.time(.duration)))
      }
    }
  }

  /// The letters `reach` adds to an alphabet.
  static func letters(_ reach: ExplorationReach) -> [Explorer.Letter] {
    var letters: [Explorer.Letter] = []
    if reach.contains(.removeBefore) { letters.append(.reach(.threeEntries(start: 1))) }
    if reach.contains(.shuffleDraw) { letters.append(.reach(.threeEntries(start: 0))) }
    if reach.contains(.atDuration) { letters.append(.reach(.setPositionAtDuration)) }
    return letters
  }

  /// The alphabet a search of `scope` sends: the core's or the whole one for its entries,
  /// the letters its ``ExplorationScope/reach`` adds, volume's
  /// (``Explorer/Letter/volumeLetters``) when its features have `volume` (not with the core's),
  /// fades' (``Explorer/Letter/fadeLetters``) when it fades (``ExplorationScope/fades``) or
  /// crossfades, crossfade's (``Explorer/Letter/crossfadeLetters``) when it crossfades
  /// (``ExplorationScope/crossfades``), and live streams' (``Explorer/Letter/liveLetters``)
  /// when its features have `live` (``ExplorationScope/lives``).
  static func alphabet(for scope: ExplorationScope) -> [Explorer.Letter] {
    (scope.coreAlphabet
      ? Explorer.Letter.core + (scope.coreRestore ? Explorer.Letter.coreRestore : [])
      : Explorer.Letter.alphabet(entries: scope.entries)) + letters(scope.reach)
      + (!scope.coreAlphabet && scope.features.contains(.volume)
        ? Explorer.Letter.volumeLetters : [])
      + (scope.fades || scope.crossfades ? Explorer.Letter.fadeLetters : [])
      + (scope.crossfades ? Explorer.Letter.crossfadeLetters : [])
      + (scope.lives ? Explorer.Letter.liveLetters : [])
  }
}
