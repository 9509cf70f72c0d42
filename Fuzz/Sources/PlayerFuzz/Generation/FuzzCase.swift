public import PlayerState

/// A fuzz case: the engine it runs against (whether it declares `.preload`)
/// and its actions.
///
/// Its text (``text``, a saved failure's format) starts with the engine line
/// and spells every load `MEDIA#TOKEN`:
///
/// ```text
/// engine preload=yes
/// queue(A B)
/// ready(A#1)
/// ready(B#2)
/// ```
///
/// **How a name is resolved.** Item ids are the machine's, so the text names
/// a load by its media. `M#T`, read at the moment the event is processed
/// (a re-entrant report when its command fires, a held-back report when it is
/// queued), is the load with token `T` if that token was issued for an entry
/// of media `M`; otherwise (a token never issued, or issued for another
/// media) it is token `T` with the newest entry of media `M`. A load this
/// cannot name (a media queued twice, a token naming a removed entry's twin)
/// prints as `item3#T`, which always means item 3. The contract model tracks
/// what was issued, so printing and parsing agree: `parse(text)` gives back
/// the same actions.
public struct FuzzCase: Hashable, Sendable, CustomStringConvertible {
  /// Whether the engine declares the `.preload` capability.
  public var canPreload: Bool
  /// The player's retry policy for network failures (``FuzzEngine/retry(for:)``).
  public var retry: RetryPolicy
  /// The player's `previousThreshold` (``FuzzEngine/configuration(for:)``).
  public var previousThreshold: MediaTime
  /// The timeout of the harness's watchdog clock (``FuzzEngine/watchdog``):
  /// every load and stall watchdog must be scheduled with it.
  public var watchdogTimeout: MediaTime
  /// The player's duck policy (`PlayerConfiguration.ducking`,
  /// ``FuzzEngine/configuration(for:)``); spelled `duck=pause` or `duck=0.5`
  /// on the engine line when not a new configuration's (lower to 0.2).
  public var ducking: DuckPolicy
  /// The player's fade (`PlayerConfiguration.fade`; zero, the default, is
  /// off); when not zero the engine declares `EngineCapabilities.volumeRamp`.
  /// Spelled `fade=200ms` on the engine line when not zero (``FuzzFeatures/fade``).
  public var fade: MediaTime
  /// The player's crossfade (`PlayerConfiguration.crossfade`; zero, the
  /// default, is off); when not zero the engine declares
  /// `EngineCapabilities.volumeRamp`. Spelled `crossfade=1000ms` on the engine
  /// line when not zero (``FuzzFeatures/crossfade``).
  public var crossfade: MediaTime
  /// The state the player starts from, or nil for a new player: a valid
  /// `PlaybackState` (``FuzzEngine/state(for:)``), its ids possibly within a
  /// few of exhaustion; spelled `start(…)` on the engine line.
  public var start: PlaybackState?
  /// The actions, in order.
  public var actions: [FuzzAction]

  /// A case.
  /// - Parameters:
  ///   - actions: the actions.
  ///   - canPreload: whether the engine declares `.preload`.
  ///   - retry: the player's retry policy; ``PlayerState/RetryPolicy/standard`` by default.
  ///   - previousThreshold: the player's `previousThreshold`; 3 s (a new
  ///     `PlayerConfiguration`'s) by default.
  ///   - watchdogTimeout: the watchdog clock's timeout; 10 s by default.
  ///   - start: the state the player starts from; nil for a new player.
  ///   - ducking: the player's duck policy; a new `PlayerConfiguration`'s by default.
  ///   - fade: the player's fade; zero (off) by default.
  ///   - crossfade: the player's crossfade; zero (off) by default.
  public init(
    _ actions: [FuzzAction], canPreload: Bool = false, retry: RetryPolicy = .standard,
    previousThreshold: MediaTime = PlayerConfiguration().previousThreshold,
    watchdogTimeout: MediaTime = .seconds(10), start: PlaybackState? = nil,
    ducking: DuckPolicy = PlayerConfiguration().ducking, fade: MediaTime = .zero,
    crossfade: MediaTime = .zero
  ) {
    self.start = start
    self.ducking = ducking
    self.fade = max(fade, .zero)
    self.crossfade = max(crossfade, .zero)
    self.actions = actions
    self.canPreload = canPreload
    self.retry = retry
    self.previousThreshold = previousThreshold
    self.watchdogTimeout = watchdogTimeout
  }

  /// A case set up as `setup` says.
  package init(_ actions: [FuzzAction], setup: FuzzSetup) {
    self.init(
      actions, canPreload: setup.canPreload, retry: setup.retry,
      previousThreshold: setup.previousThreshold, watchdogTimeout: setup.watchdogTimeout,
      start: setup.start, ducking: setup.ducking, fade: setup.fadeLength,
      crossfade: setup.crossfadeLength)
  }

  /// What the case runs with besides its actions.
  package var setup: FuzzSetup {
    var setup = FuzzSetup(
      canPreload: canPreload, previousThreshold: previousThreshold, retry: retry,
      watchdogTimeout: watchdogTimeout, start: start)
    setup.ducking = ducking
    setup.fadeLength = fade
    setup.crossfadeLength = crossfade
    return setup
  }

  /// The engine line: `engine preload=yes` or `engine preload=no`, then what
  /// differs from a new `PlayerConfiguration` and the 10 s clock, each as one
  /// field: ` retry=off` or ` retry=1/500ms/1000ms`, ` previous=1000ms`,
  /// ` watchdog=5000ms`, ` duck=pause` or ` duck=0.5`, ` fade=200ms`, ` crossfade=1000ms`; last, the start state,
  /// ` start(…)` (`FuzzStart` spells it).
  public var header: String {
    var line = "engine preload=\(canPreload ? "yes" : "no")"
    if retry != .standard { line += " retry=\(Self.spelling(retry))" }
    if previousThreshold != PlayerConfiguration().previousThreshold {
      line += " previous=\(previousThreshold.milliseconds)ms"
    }
    if watchdogTimeout != FuzzSetup.defaultTimeout {
      line += " watchdog=\(watchdogTimeout.milliseconds)ms"
    }
    if ducking != PlayerConfiguration().ducking { line += " duck=\(Self.spelling(ducking))" }
    if fade != .zero { line += " fade=\(fade.milliseconds)ms" }
    if crossfade != .zero { line += " crossfade=\(crossfade.milliseconds)ms" }
    if let start { line += " " + FuzzStart.spelling(start) }
    return line
  }

  /// `pause`, or the level a duck lowers to, as in `0.5`.
  static func spelling(_ ducking: DuckPolicy) -> String {
    switch ducking {
    case .pause: "pause"
    case .lower(let level): "\(level)"
    }
  }

  /// Reads `duck=pause` or `duck=LEVEL` (0 to 1); nil when malformed.
  static func duckPolicy(_ field: Substring) -> DuckPolicy? {
    guard field.hasPrefix("duck=") else { return nil }
    let value = String(field.dropFirst(5))
    if value == "pause" { return .pause }
    guard let level = EventParser.volume(value), level.isValid else { return nil }
    return .lower(to: level)
  }

  /// `off` or `ATTEMPTS/BACKOFFms/MAXms`.
  static func spelling(_ retry: RetryPolicy) -> String {
    if retry == .off { return "off" }
    return
      "\(retry.attempts)/\(retry.backoff.roundedMilliseconds)ms/\(retry.maximumBackoff.roundedMilliseconds)ms"
  }

  /// Reads `retry=off` or `retry=ATTEMPTS/BACKOFFms/MAXms`; nil when malformed.
  static func retryPolicy(_ field: Substring) -> RetryPolicy? {
    guard field.hasPrefix("retry=") else { return nil }
    let value = field.dropFirst(6)
    if value == "off" { return .off }
    let parts = value.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 3, let attempts = UInt8(parts[0]) else { return nil }
    guard let backoff = time(parts[1]), let maximum = time(parts[2]), maximum >= backoff else {
      return nil
    }
    return RetryPolicy(
      attempts: attempts, backoff: .milliseconds(backoff), maximumBackoff: .milliseconds(maximum))
  }

  /// Reads `NAME=TIMEms` (`previous=1000ms`, `watchdog=5000ms`); nil when
  /// the field is another or the time is malformed or negative.
  static func time(_ field: Substring, named name: String) -> MediaTime? {
    guard field.hasPrefix(name + "=") else { return nil }
    return time(field.dropFirst(name.count + 1)).map(MediaTime.milliseconds)
  }

  /// `1000ms` as 1000; nil unless a non-negative whole number of milliseconds.
  private static func time(_ text: Substring) -> Int64? {
    guard text.hasSuffix("ms"), let ms = Int64(text.dropLast(2)), ms >= 0 else { return nil }
    return ms
  }

  /// Each action's line, loads spelled `MEDIA#TOKEN` where the name resolves to them.
  public var lines: [String] {
    var replay = NameReplay(setup)
    var names: [MediaID?] = Array(repeating: nil, count: actions.count)
    for (index, action) in actions.enumerated() {
      if case .reentrant = action {
        replay.arm(index)
        continue
      }
      if let load = action.load { names[index] = replay.names.name(load) }
      replay.perform(action) { armed, resolver in
        guard case .reentrant(let report) = actions[armed] else { return nil }
        names[armed] = resolver.name(report.load)
        return report
      }
    }
    for armed in replay.unfired {
      if let load = actions[armed].load { names[armed] = replay.names.name(load) }
    }
    return actions.indices.map { index in actions[index].description(naming: { _ in names[index] })
    }
  }

  /// The engine line, then one action a line.
  public var text: String { ([header] + lines).joined(separator: "\n") + "\n" }

  /// Same as ``text``.
  public var description: String { text }
}

/// Replays a case's processing order on the contract model alone, to name
/// and resolve loads at the moment each event is processed (see ``FuzzCase``).
package struct NameReplay {
  private(set) var model: ContractModel
  /// How many issued items ``index()`` has visited in all: each item once, however many
  /// lines are replayed (ReplayNamesTests counts it; a search of every item per line,
  /// which made 10,000 lines over 10,000 items take 93 s, would count items × lines).
  package private(set) var indexedItems = 0
  /// The indices of re-entrant actions armed and not fired yet.
  private(set) var unfired: [Int] = []
  private var held: [EngineReport] = []
  private var scratch: [EngineCommand] = []
  /// The newest item of each media, for ``LoadNames/resolve(_:)``: kept in
  /// step with the model's issued items, so resolving a name is O(1), not a
  /// search of every item ever issued.
  private var newest: [MediaID: ItemID] = [:]
  private var indexed: UInt32 = 0

  package init(_ setup: FuzzSetup = FuzzSetup()) {
    model = ContractModel(setup)
    // A start state's items were issued before the case: index them at once
    // (its ids may be near exhaustion, so counting up to them is no option).
    for (item, media) in model.media where item > newest[media] ?? ItemID(0) {
      newest[media] = item
    }
    indexed = model.issuedItems
  }

  /// The names as the model stands now.
  package var names: LoadNames { LoadNames(model: model, newest: newest) }

  /// Arms re-entrant action `index`: it fires with the next command.
  mutating func arm(_ index: Int) { unfired.append(index) }

  /// Performs a direct, held-back or deliver action (its load was read by
  /// the caller first). `fire` gives each armed report when a command fires
  /// it, reading its load from the names at that moment.
  package mutating func perform(
    _ action: FuzzAction, fire: (Int, LoadNames) -> EngineReport?
  ) {
    switch action {
    case .send(let event):
      process(event, fire: fire)
    case .reentrant:
      break
    case .later(let report):
      held.append(report)
    case .deliver:
      let due = held
      held.removeAll()
      for report in due { process(.engine(report), fire: fire) }
    case .lifecycle(.snapshot):
      break
    case .lifecycle(let step):
      // The old player's held-back reports were named when they were queued;
      // they reach the old player only, so they name nothing here any more.
      held.removeAll()
      if step == .handoff, !unfired.isEmpty, model.current != nil {
        // The old engine's `stop` fires the armed reports, to the old player.
        let names = self.names
        for index in unfired { _ = fire(index, names) }
      }
      unfired.removeAll()
      scratch.removeAll(keepingCapacity: true)
      model.apply(step, commands: &scratch)
      // The restored player issues item ids from 1 again.
      newest.removeAll()
      indexed = 0
      index()
    }
  }

  private mutating func process(_ event: PlaybackEvent, fire: (Int, LoadNames) -> EngineReport?) {
    scratch.removeAll(keepingCapacity: true)
    model.apply(event, commands: &scratch)
    index()
    guard !scratch.isEmpty, !unfired.isEmpty else { return }
    // The first command fires every armed report; they are read now and
    // processed after the event, in order.
    let names = self.names
    let fired = unfired.compactMap { fire($0, names) }
    unfired.removeAll()
    for report in fired {
      scratch.removeAll(keepingCapacity: true)
      model.apply(.engine(report), commands: &scratch)
      index()
    }
  }

  /// Records the items issued since the last call (ids grow: the last one of
  /// a media is its newest).
  private mutating func index() {
    while indexed < model.issuedItems {
      indexed += 1
      indexedItems += 1
      let item = ItemID(indexed)
      if let media = model.media[item] { newest[media] = item }
    }
  }
}

/// How a case spells loads at one moment of its replay (see ``FuzzCase``).
package struct LoadNames {
  let model: ContractModel
  /// The newest item of each media.
  let newest: [MediaID: ItemID]

  /// The load a spelled name stands for now: token `T` of media `M` if `T`
  /// was issued for an entry of `M`, otherwise token `T` with the newest entry of `M`.
  package func resolve(_ name: LoadName) -> Load {
    if let item = name.item { return Load(item: item, token: name.token) }
    let media = name.media ?? ""
    if let item = model.item(ofToken: name.token.rawValue), model.media[item] == media {
      return Load(item: item, token: name.token)
    }
    return Load(item: newest[media] ?? ItemID(0), token: name.token)
  }

  /// The media to spell `load` with now, or nil when `MEDIA#TOKEN` would resolve to another load.
  package func name(_ load: Load) -> MediaID? {
    guard let media = model.media[load.item],
      resolve(LoadName(media: media, item: nil, token: load.token)) == load
    else { return nil }
    return media
  }
}
