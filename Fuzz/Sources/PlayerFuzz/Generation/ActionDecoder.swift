package import PlayerState
import PlayerTesting

/// Turns bytes into fuzz actions: the one decoder behind both the seeded
/// runner (bytes from ``RandomBytes``) and the libFuzzer target (bytes from
/// the fuzzer).
///
/// Decoding is online: each action's identities are chosen relative to what
/// the contract model has seen issued so far, so that a report stays
/// meaningful however the case has gone: the current load, the preloading
/// one, the one just before, any earlier one, a dropped preload, a removed
/// entry's load, the load the next intent will create (the next token with
/// the item a switching intent would load, see ``upcoming(after:_:)``; half
/// of these reports are sent re-entrantly, so that they arrive inside that
/// intent's first `execute`), a token never issued, the current token with
/// another item; the newest, a superseded or a never-issued seek or watchdog
/// id; every failure reason (`engine` with two codes), half of them with the
/// engine's own error; the system's events (interruptions begun and ended, with
/// and without the hint, duplicated and unpaired; the route lost; the network
/// lost and back) and `pausedBySystem` for any of those loads; backoff timers
/// (a watchdog id like any other, so stale ones come up); and a setup per
/// case (``setup(from:inputs:)``: the retry policy, the `previous` threshold,
/// the watchdog clock's timeout). Intents pick positions in the queue (the
/// current one, its neighbours, the ends, one past the end), media from
/// A–D (so the same media is queued twice), start times and positions around
/// the case's `previous` threshold (just below, at, just above), shuffle seeds
/// 1–4 and rates. In swarm mode, each case first reads a mask that disables some
/// event kinds, identities and delivery modes, so that rare orderings (many
/// edits during loads, no user stop, only late reports) come up.
package struct ActionDecoder: Sendable {
  /// What the decoder may choose from in the current case.
  package struct Mask: Hashable, Sendable {
    /// Enabled event kinds and `deliver` (bit i for the decoder's i-th choice:
    /// the kinds before the sleep timer's, `deliver` at ``ActionDecoder/deliverBit``,
    /// then the sleep timer's two).
    package var kinds: UInt64
    /// Enabled variations: bit 0 re-entrant, 1 later, 2 earlier, dropped or
    /// removed token, 3 never-issued token, 4 mismatched item, 5 superseded or
    /// never-issued ids, 6 invalid positions and rates.
    package var variations: UInt8

    /// Everything enabled.
    package static let all = Mask(kinds: ActionDecoder.everyBit, variations: 0x7F)

    /// The enabled choices, worked out once per case; nil stands for `deliver`.
    let enabled: [EventKind?]

    /// A mask.
    /// - Parameters:
    ///   - kinds: the enabled kinds, as in ``kinds``.
    ///   - variations: the enabled variations, as in ``variations``.
    ///   - allowed: the kinds the run's features allow (``ActionDecoder/allowed(_:)``);
    ///     every one by default.
    package init(kinds: UInt64, variations: UInt8, allowed: UInt64 = ActionDecoder.everyBit) {
      // play and queue always stay on (when allowed): without them nothing happens.
      self.kinds = (kinds | 0b11) & allowed
      self.variations = variations
      var enabled: [EventKind?] = []
      for (bit, choice) in ActionDecoder.choices.enumerated() where self.kinds & (1 << bit) != 0 {
        enabled.append(choice)
      }
      self.enabled = enabled
    }
  }

  /// The longest case, in actions.
  package private(set) var maxLength: Int
  /// Whether each case disables a random part of the alphabet.
  package var swarm: Bool
  /// Whether the engine preloads: fixed, or nil to draw it per case.
  package var preload: Bool?
  /// The player's retry policy: fixed, or nil to draw it per case (see ``policies``).
  package var retry: RetryPolicy?
  /// The parts of the contract the player implements: nothing outside them is
  /// generated (``FuzzFeatures``).
  package var features: FuzzFeatures = .all {
    didSet { allowed = Self.allowed(features) }
  }
  /// ``kinds`` of a ``Mask`` the features allow, `deliver` included.
  private var allowed = Self.allowed(.all)

  /// A decoder.
  /// - Parameters:
  ///   - maxLength: the longest case, in actions.
  ///   - swarm: whether each case disables a random part of the alphabet.
  ///   - preload: whether the engine preloads; nil draws it per case.
  ///   - retry: the retry policy; nil draws it per case.
  package init(
    maxLength: Int = 32, swarm: Bool = true, preload: Bool? = nil, retry: RetryPolicy? = nil
  ) {
    self.maxLength = max(1, maxLength)
    self.swarm = swarm
    self.preload = preload
    self.retry = retry
  }

  /// The decoder of a random run's cases.
  /// - Parameter configuration: the run's case length, swarm setting, engine and features.
  package init(_ configuration: FuzzConfiguration) {
    self.init(
      maxLength: configuration.maxLength, swarm: configuration.swarm,
      preload: configuration.preload)
    // Set here, the property's observer does not run: `allowed` is set too.
    features = configuration.features
    allowed = Self.allowed(features)
  }

  /// The decoder of a random run's cases against `subject`: without
  /// ``FuzzFeatures/restore`` when the subject cannot restore.
  /// - Parameters:
  ///   - configuration: the run's case length, swarm setting, engine and features.
  ///   - subject: the player under test.
  package init(_ configuration: FuzzConfiguration, for subject: FuzzSubject) {
    self.init(configuration)
    if subject.restore == nil, features.contains(.restore) { features.remove(.restore) }
    if !subject.inputs.contains(.sleepTimer), features.contains(.sleepTimer) {
      features.remove(.sleepTimer)
    }
    if !subject.inputs.contains(.volume), features.contains(.volume) { features.remove(.volume) }
    if !subject.inputs.contains(.fade), features.contains(.fade) { features.remove(.fade) }
    if !subject.inputs.contains(.crossfade), features.contains(.crossfade) {
      features.remove(.crossfade)
    }
    if !subject.inputs.contains(.live), features.contains(.live) { features.remove(.live) }
    // Set in an initializer, the property's observer does not run.
    allowed = Self.allowed(features)
  }

  /// Whether the features allow `action`'s event.
  private func allows(_ action: FuzzAction) -> Bool {
    let kind: EventKind
    switch action {
    case .send(let event): kind = event.kind
    case .reentrant(let report), .later(let report): kind = PlaybackEvent.engine(report).kind
    case .deliver: return true
    case .lifecycle: return features.contains(.restore)
    }
    guard let bit = Self.choices.firstIndex(of: kind) else { return false }
    return allowed & (1 << UInt64(bit)) != 0
  }

  /// The bits of a ``Mask``'s kinds that `features` allow, `deliver` included.
  package static func allowed(_ features: FuzzFeatures) -> UInt64 {
    let kinds = features.kinds
    var mask: UInt64 = 1 << deliverBit
    for (bit, choice) in choices.enumerated() {
      if let choice, kinds.contains(choice) { mask |= 1 << UInt64(bit) }
    }
    return mask
  }

  /// The retry policies a case draws from, a quarter each: the standard one
  /// (3 reloads after 1 s, 2 s, 4 s, its 30 s cap never reached), none
  /// (network failures fail at once), a single reload (so the second failure
  /// fails), and 3 reloads after 500 ms, 800 ms, 800 ms (a cap reached at the
  /// second), so that running out of attempts and the cap come up quickly.
  package static let policies: [RetryPolicy] = [
    .standard, .off,
    RetryPolicy(attempts: 1, backoff: .milliseconds(2000), maximumBackoff: .seconds(30)),
    RetryPolicy(attempts: 3, backoff: .milliseconds(500), maximumBackoff: .milliseconds(800)),
  ]

  /// The `previous` thresholds a case draws from (a subject that reads its
  /// configuration): a new `PlayerConfiguration`'s, 0, 1 s and 10 s.
  package static let thresholds: [MediaTime] = [
    PlayerConfiguration().previousThreshold, .zero, .seconds(1), .seconds(10),
  ]

  /// The watchdog clock's timeouts a case draws from (every subject
  /// schedules with the clock's): never 0, so a watchdog scheduled at once is caught.
  package static let timeouts: [MediaTime] = [
    FuzzSetup.defaultTimeout, .seconds(1), .milliseconds(2500), .seconds(30),
  ]

  /// Reads the case's retry policy (one byte, unless fixed).
  package func retry(from source: inout some ByteSource) -> RetryPolicy {
    if let retry { return retry }
    return Self.policies[Int(source.nextByte() % 4)]
  }

  /// Reads what the case runs with: the engine and the retry policy as
  /// before, then one byte for the `previous` threshold (drawn only when the
  /// subject reads its configuration), the watchdog clock's timeout and, for
  /// a subject that starts from a given state, whether this case does (one in
  /// four: ``FuzzStart/generate(from:setup:)`` then reads eight more).
  /// - Parameters:
  ///   - source: where the choices come from.
  ///   - inputs: what the subject takes from the harness.
  package func setup(from source: inout some ByteSource, inputs: FuzzSubject.Inputs) -> FuzzSetup {
    // Outside the features: no preloading engine, no retry that waits for the network.
    // A crossfade needs a preloading engine: the feature brings them too.
    let canPreload =
      engine(from: &source) && (features.contains(.preload) || features.contains(.crossfade))
    let drawn = retry(from: &source)
    let retry = features.contains(.network) ? drawn : .off
    let byte = source.nextByte()
    let threshold =
      inputs.contains(.configuration)
      ? Self.thresholds[Int(byte & 3)] : PlayerConfiguration().previousThreshold
    var setup = FuzzSetup(
      canPreload: canPreload, previousThreshold: threshold, retry: retry,
      watchdogTimeout: Self.timeouts[Int(byte >> 2 & 3)])
    setup.features = features
    // The duck policy, for a subject that does volume and reads its configuration
    // (one more byte only then, so that other runs draw the cases they drew before).
    if features.contains(.volume), inputs.contains(.volume), inputs.contains(.configuration) {
      setup.ducking = Self.duckPolicies[Int(source.nextByte() & 3)]
    }
    // The fade, for a subject that does fades and reads its configuration: a
    // fixed length, so no byte is drawn and every case draws what it drew before.
    if features.contains(.fade), inputs.contains(.fade), inputs.contains(.configuration) {
      setup.fadeLength = FuzzSetup.fadeOn
    }
    // The crossfade, for a subject that does crossfade and reads its configuration,
    // when the engine preloads (the driver turns a crossfade off otherwise): a fixed
    // length, no byte drawn.
    if features.contains(.crossfade), inputs.contains(.crossfade),
      inputs.contains(.configuration), canPreload
    {
      setup.crossfadeLength = FuzzSetup.crossfadeOn
    }
    // A start state in one case in four, for a subject that can start from one
    // (within the features: otherwise the case starts new).
    if inputs.contains(.startState), byte >> 4 & 3 == 0 {
      setup.start = FuzzStart.generate(from: &source, setup: setup)
      if !features.admits(setup) { setup.start = nil }
    }
    return setup
  }

  /// Reads whether the case's engine preloads (one byte, unless fixed).
  package func engine(from source: inout some ByteSource) -> Bool {
    if let preload { return preload }
    return source.nextByte() & 1 == 1
  }

  /// Reads a case header: its length and its swarm mask.
  package func header(from source: inout some ByteSource) -> (length: Int, mask: Mask) {
    let high = Int(source.nextByte())
    let length = (high << 8 | Int(source.nextByte())) % maxLength + 1
    guard swarm else {
      return (length, features == .all ? .all : Mask(kinds: ~0, variations: 0x7F, allowed: allowed))
    }
    var kinds: UInt64 = 0
    var more: UInt64 = 0
    // The kinds past the fortieth bit (volume's, live streams') read a sixth pair
    // only with their feature, so that a run without it draws the cases it drew before.
    let bits = features.contains(.volume) || features.contains(.live) ? 48 : 40
    for shift in stride(from: 0, to: bits, by: 8) {
      kinds |= UInt64(source.nextByte()) << UInt64(shift)
      more |= UInt64(source.nextByte()) << UInt64(shift)
    }
    // Each kind is disabled with probability 1/4, so most of the alphabet stays.
    return (
      length,
      Mask(
        kinds: kinds | more, variations: source.nextByte() | source.nextByte(), allowed: allowed)
    )
  }

  /// The sleep timer's event kinds (issue 24): drawn with ``FuzzFeatures/sleepTimer``.
  private static let sleepKinds: [EventKind] = [.setSleepTimer, .sleepTimerExpired]
  /// Volume's event kinds (issue 37): drawn with ``FuzzFeatures/volume``.
  private static let volumeKinds: [EventKind] = [.volume, .mute, .duckBegan, .duckEnded]
  /// Live streams' event kinds (issue 38): drawn with ``FuzzFeatures/live``.
  private static let liveKinds: [EventKind] = [.goToLive, .window]
  /// The event kinds cases are drawn from, as their bits in a ``Mask``: every
  /// kind before the sleep timer's in `EventKind` order, `deliver`, then the
  /// sleep timer's, then volume's, then live streams'. (After `deliver`, so that
  /// a run without the sleep timer, volume or live streams draws exactly the
  /// cases it drew before they existed.)
  fileprivate static let choices: [EventKind?] =
    EventKind.allCases.filter {
      !sleepKinds.contains($0) && !volumeKinds.contains($0) && !liveKinds.contains($0)
    } + [nil] + sleepKinds + volumeKinds + liveKinds
  /// The bit of `deliver` in a mask: the one after every kind's before the sleep timer's.
  package static let deliverBit = UInt64(choices.firstIndex(of: nil) ?? 0)
  /// Every kind's bit and `deliver`'s.
  package static let everyBit: UInt64 = (1 << UInt64(choices.count)) - 1

  /// Every failure class; the engine's own code with two details.
  private static let reasons: [FailureReason] = [
    .network, .decoding, .unsupported, .notFound, .timeout, .engine(code: -11800), .engine(code: 1),
  ]
  /// Engine errors a failure may carry (one with a quote and a comma in its message).
  package static let details: [FailureDetail] = [
    FailureDetail(
      domain: "NSURLErrorDomain", code: -1009,
      message: "The Internet connection appears to be offline."),
    FailureDetail(
      domain: "AVFoundationErrorDomain", code: -11800,
      message: "The operation could not be completed"),
    FailureDetail(
      domain: "gst-resource-error-quark", code: 3,
      message: "Could not open resource \"a.mp3\" for reading, gave up"),
  ]
  /// Intents whose first load names the load a report may anticipate (`play`
  /// with a media no case plays, so that it always switches).
  private static let switches: [UserIntent] = [
    .next, .play("E"), .retry, .previous, .replaceQueue(["A", "B"]), .jump(to: 0),
  ]
  private static let media: [MediaID] = ["A", "B", "C", "D"]
  /// Times around the case's `previous` threshold `T` (just below, at, just
  /// above) and past it; with the 3 s threshold 0, 1000, 2999, 3000, 3001,
  /// 5000, 0, 4000 ms.
  static func time(_ index: UInt8, _ model: ContractModel) -> Int64 {
    time(index, threshold: model.previousThreshold)
  }

  /// ``time(_:_:)`` for a threshold `threshold` in milliseconds.
  static func time(_ index: UInt8, threshold: Int64) -> Int64 {
    switch index % 8 {
    case 0, 6: return 0
    case 1: return 1000
    case 2: return max(threshold - 1, 0)
    case 3: return threshold
    case 4: return threshold + 1
    case 5: return threshold + 2000
    default: return threshold + 1000
    }
  }
  /// The duration a `ready` report carries: none for an even `byte`; with a
  /// crossfade, one known duration in four is 1.5 s (shorter than twice the
  /// crossfade: no crossfade), the others 10 s; without one, always 10 s.
  static func duration(_ byte: UInt8, _ model: ContractModel) -> MediaTime? {
    guard byte & 1 != 0 else { return nil }
    guard model.crossfade > 0, byte & 6 == 6 else { return .milliseconds(10_000) }
    return .milliseconds(1_500)
  }

  /// A position report's time: ``time(_:_:)``; with a crossfade and the current
  /// entry's duration `D` known, for half the bytes a time around the end's
  /// window of `d`: inside it (`D − d/2`), at its edge (`D − d`), just outside
  /// (`D − d − 1`; inside at a rate above 1), or at `D − 2d`.
  static func reportedTime(_ byte: UInt8, _ model: ContractModel) -> Int64 {
    guard model.crossfade > 0, byte & 0x80 != 0, let duration = model.current?.duration else {
      return time(byte, model)
    }
    let window = model.crossfade
    switch byte >> 5 & 3 {
    case 0: return max(duration - window / 2, 0)
    case 1: return max(duration - window, 0)
    case 2: return max(duration - window - 1, 0)
    default: return max(duration - 2 * window, 0)
    }
  }

  private static let rates: [Int32] = [1000, 1500, 500, 2000, 1000, 750, 0, -1000]
  /// The user's volumes, in thousandths: half, silent, full, one whose duck
  /// rounds (0.333 × 0.2 = 0.0666 → 0.067), and two refused (above 1, below 0).
  private static let volumes: [Int32] = [500, 0, 1000, 333, 500, 250, 1500, -1]
  /// The duck policies a case draws from (a subject that does volume and reads
  /// its configuration): a new `PlayerConfiguration`'s (lower to 0.2), pause,
  /// lower to 0.5 and to 0.
  package static let duckPolicies: [DuckPolicy] = [
    PlayerConfiguration().ducking, .pause, .lower(to: Volume(thousandths: 500)),
    .lower(to: Volume(thousandths: 0)),
  ]
  /// Skips: forward and back, small and past any end (clamped), and zero.
  private static let skips: [Int64] = [15_000, -10_000, 5_000, -60_000, 0, 3_600_000]

  /// The next action, chosen with `source` relative to `model`.
  /// - Parameters:
  ///   - model: the contract's view of what has been issued so far.
  ///   - held: how many reports wait for a `deliver`.
  ///   - mask: the case's mask.
  ///   - source: where the choices come from.
  package func next(
    after model: ContractModel, held: Int, mask: Mask, from source: inout some ByteSource
  ) -> FuzzAction {
    let action = choose(after: model, held: held, mask: mask, from: &source)
    // With the controls, a quarter of the intents come from a remote control:
    // the same rules, another source (steps and notifications carry it).
    if case .send(.user(let intent)) = action, features.contains(.controls),
      source.nextByte() & 3 == 0
    {
      return .send(.remote(intent))
    }
    return action
  }

  private func choose(
    after model: ContractModel, held: Int, mask: Mask, from source: inout some ByteSource
  ) -> FuzzAction {
    let enabled = mask.enabled
    let first = source.nextByte()
    let detail = source.nextByte()
    let extra = source.nextByte()
    let on = { (bit: UInt8) in mask.variations & (1 << bit) != 0 }
    // A quarter of the actions are what a cooperative engine or user would
    // do next, so that cases get deep (advances, repeats, preloads) quickly.
    if first < 64,
      let action = cooperativeLive(model, detail, extra) ?? cooperative(model, detail, extra)
    {
      if features == .all || allows(action) { return action }
    }
    // One action in 32 (with the restore feature) happens to the player itself:
    // a snapshot at whatever stage the case has reached (half of them), a
    // relaunch or a hand-off (a quarter each), racing any report held back.
    if first >= 248, features.contains(.restore) {
      switch detail & 3 {
      case 0: return .lifecycle(.relaunch)
      case 1: return .lifecycle(.handoff)
      default: return .lifecycle(.snapshot)
      }
    }
    var position = Int(first) % enabled.count
    // `deliver` with nothing held back would do nothing: take the next choice.
    if enabled[position] == nil, held == 0 { position = (position + 1) % enabled.count }
    guard let kind = enabled[position] else { return .deliver }
    let fallbackItem = ItemID(max(model.issuedItems, 1))
    let current =
      model.current?.load ?? model.newest ?? Load(item: fallbackItem, token: LoadToken(1))
    let count = model.entries.count

    // The identities a report may name, each once it exists; the current
    // load weighs most. Chosen without building an array (no allocation).
    let other =
      on(4)
      ? (model.entries.first { $0.item != current.item }?.item
        ?? ItemID(current.item.rawValue &+ 1)) : nil
    let stale = FuzzCoverage.Variant.newestStale(model)
    // The load the next intent creates, worked out once, when first needed.
    var upcoming: Load?
    func candidate(_ index: Int) -> Load? {
      switch index {
      case 0, 1, 2: return current
      case 3, 4: return model.preload?.load
      case 5: return on(2) ? model.previous : nil
      case 6: return on(2) && model.dropped != model.previous ? model.dropped : nil
      case 7: return on(2) && model.removed != model.dropped ? model.removed : nil
      case 8: return on(2) && model.left != model.previous ? model.left : nil
      case 9:
        // An earlier load, not only the one just before: any stale token
        // (one issued before a start state names the current item).
        guard on(2), stale >= 2 else { return nil }
        let lowest = stale - 1 > 64 ? stale - 64 : 1
        let token = lowest + UInt32(first) % (stale - lowest)
        return Load(item: model.item(ofToken: token) ?? current.item, token: LoadToken(token))
      case 10, 11:
        // The load the next intent will create (see `upcoming`).
        guard on(3) else { return nil }
        if upcoming == nil { upcoming = Self.upcoming(after: model, detail) }
        return upcoming
      case 12: return on(3) ? Load(item: current.item, token: LoadToken(model.issued &+ 2)) : nil
      default: return other.map { Load(item: $0, token: current.token) }
      }
    }
    func load(_ byte: UInt8) -> Load {
      // Each candidate worked out once, onto the stack (`Load` is plain data:
      // nothing to deinitialize); the first three are `current`, so some are.
      withUnsafeTemporaryAllocation(of: Load.self, capacity: 14) { found in
        var available = 0
        for index in 0..<14 {
          guard let load = candidate(index) else { continue }
          found.initializeElement(at: available, to: load)
          available += 1
        }
        return found[Int(byte) % available]
      }
    }
    func id(_ newest: UInt32, _ byte: UInt8) -> UInt32 {
      let newest = max(newest, 1)
      switch byte % 6 {
      case 4 where on(5): return newest &- 1
      case 5 where on(5): return newest &+ 1
      default: return newest
      }
    }
    func report(_ report: EngineReport) -> FuzzAction {
      // A report about the load the next intent creates matters most when the
      // engine sends it from inside that intent's `execute`: half of them are re-entrant.
      let upcoming = report.load.token.rawValue == model.issued &+ 1
      let mode = detail % 8
      if on(0), mode == 5 || mode == 6 || (upcoming && mode < 4) { return .reentrant(report) }
      return mode == 7 && on(1) ? .later(report) : .send(.engine(report))
    }
    /// A position: mostly the current one, a neighbour or an end; one past the end when allowed.
    func place(_ byte: UInt8, inclusiveEnd: Bool = false) -> Int {
      let span = count + (inclusiveEnd ? 1 : 0)
      if byte % 8 == 7, on(6) { return byte & 8 == 0 ? span : -1 }
      guard span > 0 else { return 0 }
      let here = model.position ?? 0
      switch byte % 8 {
      case 0, 1: return min(here, span - 1)
      case 2: return min(here + 1, span - 1)
      case 3: return max(here - 1, 0)
      case 4: return span - 1
      default: return Int(byte >> 3) % span
      }
    }
    func names(_ byte: UInt8) -> [MediaID] {
      let length = Int(byte % 3) + 1
      return (0..<length).map { Self.media[Int(byte >> (2 + 2 * UInt8($0))) % Self.media.count] }
    }
    var time = MediaTime.milliseconds(Self.time(extra, model))
    // With live streams, half the times of a load with a window are around it.
    if features.contains(.live), let window = model.current?.window, extra & 0x40 != 0 {
      time = .milliseconds(Self.seekTime(in: window, extra >> 3))
    }
    // Read only by reports: intents skip choosing an identity.
    var target: Load { load(extra >> 2 ^ detail >> 3) }
    switch kind {
    case .play:
      let media = detail % 5 == 4 ? (model.media[current.item] ?? "A") : Self.media[Int(detail % 4)]
      return .send(.play(media, from: extra & 0x30 == 0 ? time : .zero))
    case .queue:
      let list = names(detail)
      let start = extra & 0x40 != 0 ? Int(extra >> 3) % list.count : 0
      return .send(
        .queue(
          list, start: start, from: extra & 0x30 == 0 ? time : .zero,
          playWhenReady: extra & 0x80 == 0))
    case .append: return .send(.user(.append(names(detail))))
    case .insert:
      return .send(.user(.insert(names(detail), at: place(extra, inclusiveEnd: true))))
    case .remove: return .send(.user(.remove(at: place(detail))))
    case .move: return .send(.user(.move(from: place(detail), to: place(extra))))
    case .jump:
      return .send(.user(.jump(to: place(detail), from: extra & 0x30 == 0 ? time : .zero)))
    case .next: return .send(.next)
    case .previous: return .send(.previous)
    case .repeat: return .send(.user(.setRepeat(RepeatMode.allCases[Int(detail % 3)])))
    case .shuffle:
      return .send(.user(.setShuffle(seed: detail % 5 == 0 ? nil : UInt64(detail % 5))))
    case .rate:
      var rate = Self.rates[Int(detail % 8)]
      if rate <= 0, !on(6) { rate = 1500 }
      return .send(.user(.setRate(PlaybackRate(thousandths: rate))))
    case .clear: return .send(.user(.clear))
    case .pause: return .send(.pause)
    case .resume: return .send(.resume)
    case .stop: return .send(.stop)
    case .retry: return .send(.retry)
    case .seek: return .send(.seek(to: time))
    case .toggle: return .send(.toggle)
    case .skip:
      let delta = Self.skips[Int(detail % UInt8(Self.skips.count))]
      return .send(.skip(by: .milliseconds(delta)))
    case .setPosition:
      // The current entry's item, or one that was (a SetPosition from before a skip).
      let item =
        extra & 1 == 0
        ? (model.position.map { model.entries[$0].item } ?? ItemID(1))
        : ItemID(UInt32(detail % 4) + 1)
      return .send(.user(.setPosition(item, time)))
    case .ready:
      return report(.ready(target, duration: Self.duration(extra, model)))
    case .stalled: return report(.stalled(target))
    case .resumed: return report(.resumed(target))
    case .ended: return report(.reachedEnd(target))
    case .position:
      if features.contains(.live), let window = model.current?.window, first & 1 == 0 {
        return report(.position(target, .milliseconds(Self.reportedTime(in: window, extra))))
      }
      return report(.position(target, .milliseconds(Self.reportedTime(extra, model))))
    case .failed:
      var reason = Self.reasons[Int(first ^ extra) % Self.reasons.count]
      // With live streams, a failure in four says the load fell behind its window.
      if features.contains(.live), detail & 0x60 == 0x60 { reason = .behindLiveWindow }
      // Half of the failures carry the engine's own error.
      let error = extra & 0x40 == 0 ? nil : Self.details[Int(first) % Self.details.count]
      return report(.failed(target, reason, detail: error))
    case .pausedBySystem: return report(.pausedBySystem(target))
    case .interruptionBegan: return .send(.system(.interruptionBegan))
    case .interruptionEnded:
      return .send(.system(.interruptionEnded(shouldResume: detail & 1 == 0)))
    case .routeLost: return .send(.system(.routeLost))
    case .networkLost: return .send(.system(.networkLost))
    case .networkAvailable: return .send(.system(.networkAvailable))
    case .seeked:
      let seek = id(model.current?.lastSeek ?? 0, extra)
      return report(.seekCompleted(target, SeekID(seek)))
    case .timeout:
      if let leaving = model.leaving, detail & 1 == 0 {
        // The timer of a load fading out into a stop: its own id, or a neighbour.
        return .send(.watchdogExpired(leaving.load, WatchdogID(id(leaving.timer, extra))))
      }
      if model.crossfade > 0, model.leaving == nil, let gone = model.stoppedLeaving,
        detail & 3 == 1
      {
        // The timer of a load that left in a fade, after its stop (its `ended` came first).
        return .send(.watchdogExpired(gone.load, WatchdogID(gone.timer)))
      }
      let watchdog = id(model.current?.lastWatchdog ?? 1, extra)
      return .send(.watchdogExpired(target, WatchdogID(watchdog)))
    case .setSleepTimer:
      // Every mode, off, and (with invalid arguments on) a countdown of 0 or a count of 0.
      let timer: SleepTimer?
      switch detail % 6 {
      case 0: timer = .after((time > .zero ? time : .seconds(1)).duration)
      case 1: timer = .endOfEntry
      case 2: timer = .endOfQueue
      case 3: timer = .afterEntries(1 + UInt32(extra % 2))
      case 4: timer = nil
      default:
        timer = on(6) ? (extra & 2 == 0 ? .after(.zero) : .afterEntries(0)) : .endOfEntry
      }
      return .send(.user(.setSleepTimer(timer)))
    case .sleepTimerExpired:
      return .send(.system(.sleepTimerExpired(SleepTimerID(id(model.issuedSleep, extra)))))
    case .volume:
      var level = Self.volumes[Int(detail % 8)]
      if level < 0 || level > 1000, !on(6) { level = 250 }
      return .send(.user(.setVolume(Volume(thousandths: level))))
    case .mute: return .send(.user(.setMuted(detail & 1 == 0)))
    case .duckBegan: return .send(.system(.duckBegan))
    case .duckEnded: return .send(.system(.duckEnded))
    case .goToLive: return .send(.user(.goToLive))
    case .window:
      let load = target
      return report(.window(load, Self.window(for: load, model, extra, invalid: on(6))))
    }
  }

  /// The load the next intent will create: token `issued + 1` with the item
  /// that one of a few switching intents (next, play, retry, previous, a new
  /// queue, a jump to the first entry) would load or preload first, chosen by
  /// `byte`; when that intent loads nothing, the next entry's item (or the current one).
  package static func upcoming(after model: ContractModel, _ byte: UInt8) -> Load {
    let token = LoadToken(model.issued &+ 1)
    let intent = switches[Int(byte) % switches.count]
    let issued = model.firstIssuedItem(by: intent)
    #if DEBUG
      // The shortcut restates a few of the model's rules: a debug build (every
      // test) checks it against applying the intent to a copy, as release
      // builds did before, so the two cannot drift apart unnoticed.
      var probe = model
      var commands: [EngineCommand] = []
      _ = probe.apply(.user(intent), commands: &commands)
      let replayed = commands.lazy.compactMap { command -> ItemID? in
        switch command {
        case .load(let request), .preload(let request):
          request.load.token == token ? request.load.item : nil
        default: nil
        }
      }.first
      assert(
        issued == replayed,
        "ActionDecoder.upcoming: \(intent) issues \(replayed.map { "\($0)" } ?? "nothing") first, not \(issued.map { "\($0)" } ?? "nothing")"
      )
    #endif
    if let issued { return Load(item: issued, token: token) }
    let next = model.position.flatMap { model.after($0) }.map { model.entries[$0].item }
    let item = next ?? model.current?.load.item ?? ItemID(model.issuedItems &+ 1)
    return Load(item: item, token: token)
  }

  /// What a cooperative engine (or user) does next: the report the current
  /// stage awaits, the preload's `ready`, the end of a playing entry, a retry
  /// after a failure, a resume when idle, a queue when empty.
  private func cooperative(_ model: ContractModel, _ detail: UInt8, _ extra: UInt8) -> FuzzAction? {
    if let preload = model.preload, preload.stage == .buffering, detail & 3 == 0 {
      return .send(.ready(preload.load, duration: Self.duration(extra, model)))
    }
    if case .after = model.sleep, detail & 15 == 2 {
      // The armed countdown runs out.
      return .send(.system(.sleepTimerExpired(SleepTimerID(model.issuedSleep))))
    }
    if model.interrupted, detail & 7 == 1 {
      // The call ends, with or without the hint.
      return .send(.system(.interruptionEnded(shouldResume: extra & 1 == 0)))
    }
    if model.ducked, detail & 7 == 2 {
      // The navigation prompt is over.
      return .send(.system(.duckEnded))
    }
    if let leaving = model.leaving, detail & 7 == 3 {
      // The fade into a stop runs out.
      return .send(.watchdogExpired(leaving.load, WatchdogID(leaving.timer)))
    }
    if model.crossfade > 0, let leaving = model.leaving, detail & 7 == 4 {
      // The outgoing load's media runs out inside its fade.
      return .send(.reachedEnd(leaving.load))
    }
    if model.crossfade > 0, model.leaving == nil, let gone = model.stoppedLeaving {
      // The outgoing load's `ended` (one in 16), or its timer (one in 32), late: after its stop.
      if detail & 15 == 14 { return .send(.reachedEnd(gone.load)) }
      if detail & 31 == 29 { return .send(.watchdogExpired(gone.load, WatchdogID(gone.timer))) }
    }
    if let current = model.current, current.fadingOut, detail & 7 == 3 {
      // The fade into a pause runs out.
      return .send(.watchdogExpired(current.load, WatchdogID(current.lastWatchdog)))
    }
    // Now and then, in any stage, a late report of a dropped preload or of the
    // load before this one: the engine calls back after their stop.
    if detail & 31 == 31, let late = model.dropped ?? model.previous {
      let report: EngineReport =
        switch extra % 7 {
        case 0: .stalled(late)
        case 1: .resumed(late)
        case 2: .reachedEnd(late)
        case 3: .position(late, .milliseconds(Self.time(extra >> 3 % 8, model)))
        case 4: .pausedBySystem(late)
        case 5: .seekCompleted(late, SeekID(1))
        default: .ready(late)
        }
      return .send(.engine(report))
    }
    guard let current = model.current else {
      if model.entries.isEmpty {
        return .send(.queue(Array(Self.media.prefix(Int(detail % 3) + 2))))
      }
      return .send(.resume)
    }
    let load = current.load
    switch current.stage {
    case .buffering:
      return .send(.ready(load, duration: Self.duration(extra, model)))
    case .ready where current.seekPending:
      // Mostly the completion; sometimes a second seek that supersedes it, or
      // the network failing while it is pending (so a wait keeps a seek history).
      switch detail % 8 {
      case 6: return .send(.seek(to: .milliseconds(Self.time(extra, model))))
      case 7: return .send(.failed(load, .network))
      default: return .send(.seekCompleted(load, SeekID(current.lastSeek)))
      }
    case .ready:
      switch detail % 4 {
      case 0: return .send(.stalled(load))
      case 1: return .send(.position(load, .milliseconds(Self.reportedTime(extra, model))))
      default: return .send(.reachedEnd(load))
      }
    case .stalled:
      return .send(detail & 1 == 0 ? .resumed(load) : .reachedEnd(load))
    case .ended:
      return .send(detail & 1 == 0 ? .resume : .previous)
    case .failed where detail % 8 == 3 && current.lastSeek >= 1,
      .waiting where detail % 8 == 3 && current.lastSeek >= 1:
      // A seek's completion from before the stop, late: the newest or a superseded one.
      let seek = current.lastSeek >= 2 && extra & 1 == 0 ? current.lastSeek - 1 : current.lastSeek
      return .send(.seekCompleted(load, SeekID(seek)))
    case .failed:
      return .send(detail & 1 == 0 ? .retry : .next)
    case .waiting:
      // The backoff expires, or the network comes back.
      return .send(
        detail & 1 == 0
          ? .watchdogExpired(load, WatchdogID(current.lastWatchdog))
          : .system(.networkAvailable))
    }
  }
}

// The load a switching intent issues first, worked out from the model's
// rules without applying the intent: for speed (the decoder asks before
// thousands of actions, and applying the intent to a copy of the model
// copied its tables). It follows `user(_:_:)`, `go`, `enter` and
// `refreshPreload` (ContractQueue.swift) for the intents of
// `ActionDecoder.switches` only, reading just what decides which entry gets
// the next token.
extension ContractModel {
  /// The loads after an intent, as far as the preload rule reads them.
  private struct Aftermath {
    /// The current position.
    var position: Int?
    /// The current load's stage, nil when idle.
    var stage: Stage?
    /// The preload's item and stage, or nil.
    var preload: (item: ItemID, stage: Stage)?
    /// Whether a crossfade's outgoing load still leaves (no preload then).
    var crossfading = false
    /// Whether the current load is live (no preload then, ContractLive.swift).
    var live = false
  }

  /// The item of the first token `intent` issues (for its load, or for the
  /// preload the preload rule adds after it), or nil if it issues none.
  fileprivate func firstIssuedItem(by intent: UserIntent) -> ItemID? {
    guard issued < UInt32.max, ignoreReason(for: intent) == nil else { return nil }
    var state = Aftermath(
      position: position, stage: current?.stage, preload: preload.map { ($0.load.item, $0.stage) },
      crossfading: crossfading, live: current?.window != nil)
    switch intent {
    case .next:
      guard let at = position, let target = after(at), target != at else { break }
      if let item = go(target, from: 0, &state) { return item }
    case .previous:
      guard let at = position else { break }
      let before = at > 0 ? at - 1 : (repeatMode == .all ? entries.count - 1 : nil)
      if let current, !current.stage.isStopped, current.window != nil {
        // A live load goes back an entry whatever its position.
        if let before, before != at, let item = go(before, from: 0, &state) { return item }
      } else if let current, !current.stage.isStopped,
        current.position > previousThreshold || before == nil
      {
        seek(&state)
      } else if let before {
        if let item = go(before, from: 0, &state) { return item }
      } else if current != nil {
        if let item = go(at, from: 0, &state) { return item }
      }
    case .retry:
      guard let current, current.stage.isStopped else { break }
      state.stage = nil
      state.crossfading = false
      state.live = false
      // A live load reloads at its edge, never by its preload.
      if current.window != nil { return current.load.item }
      if let item = enter(from: current.position, &state) { return item }
    case .play(let media, let time):
      guard time >= .zero else { break }
      if time == .zero, entries.count == 1, entries[0].media == media, let current,
        !current.stage.isStopped
      {
        // `resume`: an ended load seeks to its start and is ready again; a
        // live one reloads at its edge.
        if current.stage == .ended, current.window != nil { return current.load.item }
        if current.stage == .ended, current.lastSeek < UInt32.max { state.stage = .ready }
      } else if canIssue(1) {
        // A new queue's entry loads under the next item id.
        return ItemID(issuedItems &+ 1)
      }
    case .replaceQueue(let list, let start, let time, _):
      // The start entry loads first (a shuffle puts it first).
      guard time >= .zero, list.indices.contains(start), canIssue(list.count) else { break }
      return ItemID(issuedItems &+ 1 &+ UInt32(start))
    case .jump(let to, let time):
      guard time >= .zero, entries.indices.contains(to) else { break }
      if to == position, let current, !current.stage.isStopped {
        seek(&state)
        break
      }
      if let item = go(to, from: time.milliseconds, &state) { return item }
    default:
      preconditionFailure("not a switching intent: \(intent)")
    }
    return preloadItem(state)
  }

  /// Whether `count` more item ids can be issued.
  private func canIssue(_ count: Int) -> Bool {
    UInt64(issuedItems) + UInt64(count) <= UInt64(UInt32.max)
  }

  /// `seek`: an ended load is ready again.
  private func seek(_ state: inout Aftermath) {
    guard let current, !current.stage.isStopped, current.lastSeek < UInt32.max else { return }
    if current.stage == .ended { state.stage = .ready }
  }

  /// `go`: the target's item if it loads under a new token (nil if its
  /// preload is promoted, or nothing loads).
  private func go(_ target: Int, from time: Int64, _ state: inout Aftermath) -> ItemID? {
    let live = current != nil
    if !usable(state.preload, for: entries[target].item, from: time) { state.preload = nil }
    // An opener stops a crossfade's outgoing load first.
    state.crossfading = false
    state.live = false
    state.stage = nil
    state.position = target
    return live ? enter(from: time, &state) : nil
  }

  /// `enter`: the current entry's item if it loads under a new token, nil
  /// if its preload is promoted.
  private func enter(from time: Int64, _ state: inout Aftermath) -> ItemID? {
    guard let at = state.position else { return nil }
    let item = entries[at].item
    guard usable(state.preload, for: item, from: time), let preload = state.preload else {
      return item
    }
    state.preload = nil
    state.stage = preload.stage == .ready ? .ready : .buffering
    return nil
  }

  private func usable(
    _ preload: (item: ItemID, stage: Stage)?, for item: ItemID, from time: Int64
  ) -> Bool {
    guard let preload, time == 0 else { return false }
    return preload.item == item && preload.stage != .failed
  }

  /// `refreshPreload`: the item it preloads under a new token, or nil.
  private func preloadItem(_ state: Aftermath) -> ItemID? {
    guard canPreload, !state.crossfading, !state.live, let stage = state.stage,
      let at = state.position,
      repeatMode != .one,
      !sleepStops(at: at), stage == .buffering || stage == .ready || stage == .stalled,
      let next = after(at), next != at
    else { return nil }
    if let preload = state.preload, entries[next].item == preload.item { return nil }
    return stage == .ready ? entries[next].item : nil
  }
}
