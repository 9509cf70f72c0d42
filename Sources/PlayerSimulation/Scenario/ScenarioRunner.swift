import PlayerEngine
import PlayerState

/// Runs a ``Scenario`` through the real ``PlayerEngine/Player`` driving a ``FakeMediaEngine``,
/// with the player's watchdog on the same ``VirtualClock``.
///
/// The setup lines (`engine preload=yes`, `previous-threshold 3s`,
/// `retry-policy …`) and the settings before the run starts (`ducking …`,
/// `fade …`, `crossfade …`) make the engine and the player's configuration (a setting after
/// it changes the running player's: `Player.reconfigure`); then each script line runs in
/// order: `wait` advances the clock and delivers the reports that fall due, a
/// `report` line's `A#N` is resolved against the loads live at that moment,
/// and `interrupt`, `route` and `network` lines (and the fake network of a
/// profile) send system events through the player. Watchdogs wait the
/// script's `watchdog` time; a backoff while waiting for the network waits the
/// delay the machine asked for (its ``PlayerState/RetryPolicy``), whatever the `watchdog` line says.
/// A `relaunch` line discards every player and engine and restores a new
/// player on a new engine from the snapshot; a `handoff` line moves playback
/// to a new engine with `Player.handOff(to:watchdog:onStep:)`, keeping the
/// first player for its engine's late callbacks (``PlayerChange``) while any can
/// still come (its engine or its own timers have something planned on the clock),
/// and at most ``retiredPlayerLimit`` such players (``retiredEntryLimit`` queue entries) at once.
/// The run stops at the first `expect` that fails, or once it has processed
/// ``eventLimit`` events. The same scenario and options always give the same timeline.
///
/// ```swift
/// let scenario = try ScenarioParser.parse(text, file: "late.play")
/// let result = ScenarioRunner().run(scenario) { item in print(item) }
/// if let failure = result.failure { print(failure) }
/// ```
public struct ScenarioRunner: Sendable {
  /// The watchdog timeout before a script's first `watchdog` line: 5 s.
  public static let defaultWatchdog: Duration = .seconds(5)

  /// The most events one run processes by default: 1,000,000. A script that
  /// never settles (repeat all over media that end at once, a long `wait`)
  /// stops there with a ``ExpectationFailure/isRunLimit`` failure at the
  /// line that was running.
  public static let defaultEventLimit = 1_000_000

  /// The most players that handed off a run keeps at once for their late callbacks: 16.
  /// A player that handed off is kept only while its engine or its own timers have
  /// something planned on the clock; past this many (or ``retiredEntryLimit``), the oldest
  /// is let go with a note row, its engine discarded as a relaunch would (issue 39, R14:
  /// every one was kept until a `relaunch`, 549 MB for 2,000 hand-offs of 10,000 entries).
  public static let retiredPlayerLimit = 16

  /// The most queue entries the kept players that handed off hold in all: 65,536 (about
  /// 1.8 MB at 27 bytes an entry). The newest is kept whatever its queue.
  public static let retiredEntryLimit = 65_536

  /// If set, replaces the seed of every `hostile on` line (the CLI's `--seed`).
  public var seed: UInt64?
  /// How fast virtual time passes.
  public var pace: SimulationPace
  /// Whether ``ScenarioResult/entries`` and ``ScenarioResult/commands`` keep
  /// every timeline entry and command (the default). A caller that reads
  /// entries as they stream through `output` (as `player-sim run` does) turns
  /// this off, so a run's memory does not grow with its number of events.
  public var keepsEntries = true
  /// The most events a run processes before it stops with a failure;
  /// ``defaultEventLimit`` unless set.
  public var eventLimit = ScenarioRunner.defaultEventLimit

  /// A runner.
  /// - Parameters:
  ///   - seed: replaces the seeds of `hostile on` lines; nil keeps them.
  ///   - pace: instant (the default) or real time.
  public init(seed: UInt64? = nil, pace: SimulationPace = .instant) {
    self.seed = seed
    self.pace = pace
  }

  /// Runs a scenario.
  /// - Parameters:
  ///   - scenario: the parsed script.
  ///   - output: called with each timeline item as it happens (streamed, in order).
  /// - Returns: the timeline and the first failed expectation, if any.
  public func run(_ scenario: Scenario, output: (TimelineItem) -> Void = { _ in }) -> ScenarioResult
  {
    let clock = VirtualClock()
    var canPreload = false
    var configuration = PlayerConfiguration()
    // The setup lines, and the settings given before the run starts.
    for step in scenario.steps {
      if step.action.startsRun { break }
      switch step.action {
      case .engine(let preload): canPreload = preload
      case .previousThreshold(let threshold): configuration.previousThreshold = threshold
      case .retryPolicy(let policy): configuration.retry = policy
      case .ducking(let policy): configuration.ducking = policy
      case .fade(let length): configuration.fade = length
      case .crossfade(let length): configuration.crossfade = length
      default: break
      }
    }
    let recorder = TimelineRecorder(clock: clock)
    // The player asks for its policy's timeout for a watchdog and for the
    // machine's delay for a backoff. The timeout is a marker no backoff can
    // equal (a script's backoffs are at most `maximumMilliseconds`), so the
    // script's `watchdog` line applies to watchdogs only.
    // Each player has a policy of its own, which counts its timers planned on the clock:
    // a player that handed off is kept while one is (its expiry is a row of its own).
    let marker = Self.watchdogMarker
    // On the virtual clock, progress included; the clock cannot cancel, so
    // a replaced timer stays queued until it falls due (and is stale then).
    func watchdog(counting timers: PendingTimers) -> WatchdogPolicy {
      WatchdogPolicy(timeout: marker, now: { clock.now }) { after, fire in
        let delay: Duration
        if after == marker {
          guard let timeout = recorder.watchdogTimeout else { return .uncancellable }
          delay = timeout
        } else {
          delay = after
        }
        timers.add()
        clock.schedule(after: delay) {
          timers.remove()
          fire()
        }
        return .uncancellable
      }
    }
    // The profiles the engines were given, for the engine of a new player.
    var profiles: [MediaID: MediaProfile] = [:]
    // A new fake engine, numbered as its player: well-behaved (a `hostile`
    // line applies to the engine of the player at that moment), with every
    // media profile given so far. Commands are read from the steps, not kept.
    func makeEngine() -> FakeMediaEngine {
      let engine = FakeMediaEngine(clock: clock, preload: canPreload)
      engine.recordsCommands = false
      for (media, profile) in profiles { engine.setProfile(profile, for: media) }
      return engine
    }
    // The player's steps, recorded as its number's.
    func steps(of number: Int) -> @Sendable (PlayerStep) -> Void {
      { recorder.record($0, player: number) }
    }
    var number = 1
    // The first player of the current process: a relaunch discards it and every later one.
    var firstOfProcess = 1
    var engine = makeEngine()
    var timers = PendingTimers()
    var player = Player(
      engine: engine, configuration: configuration, watchdog: watchdog(counting: timers),
      onStep: steps(of: number))
    engine.systemEvents = { [weak player] event in player?.send(.system(event)) }
    // Players that handed off, oldest first, with their engines: kept so that their
    // engines' late callbacks (and their own timers' expiries) reach them, and only them,
    // while any can still come, within the limits; a relaunch discards them all.
    var retired: [RetiredPlayer] = []
    var retiredEntries = 0
    var mostRetired = 0
    // Lets go of the players that handed off whose engine and timers have nothing planned
    // any more: nothing can reach them now.
    func releaseIdle() {
      guard !retired.isEmpty else { return }
      retired.removeAll { old in
        guard !old.mayBeCalled else { return false }
        retiredEntries -= old.entries
        recorder.release(old.number)
        return true
      }
    }
    // Past the limits, lets go of the oldest players that still wait for callbacks: their
    // engines are discarded, as by a relaunch, and a note row says so.
    func releaseOverLimit() {
      while retired.count > Self.retiredPlayerLimit
        || (retired.count > 1 && retiredEntries > Self.retiredEntryLimit)
      {
        let old = retired.removeFirst()
        retiredEntries -= old.entries
        let loads = old.engine.discard().map { recorder.name($0, player: old.number) }
        recorder.release(old.number)
        let pending =
          loads.isEmpty
          ? "no engine callback pending"
          : "pending callbacks of \(loads.joined(separator: " ")) dropped"
        output(
          .note(
            milliseconds: clock.milliseconds,
            text:
              "player \(old.number) and engine \(old.number) let go (at most "
              + "\(Self.retiredPlayerLimit) handed-off players, \(Self.retiredEntryLimit) entries, "
              + "are kept for late callbacks): \(pending)"))
      }
    }
    // A relaunch or a hand-off: `next` and `successor` become the current
    // engine and player, numbered one up, and the change prints as a row.
    func adopt(
      _ next: FakeMediaEngine, _ successor: Player, _ kind: PlayerChange.Kind,
      before: PlaybackState, discarded: [Int] = [], dropped: [PlayerChange.Dropped] = []
    ) {
      number += 1
      (engine, player) = (next, successor)
      engine.systemEvents = { [weak successor] event in successor?.send(.system(event)) }
      output(
        .playerChange(
          PlayerChange(
            milliseconds: clock.milliseconds, kind: kind, before: before, after: successor.state,
            from: number - 1, to: number, discarded: discarded, dropped: dropped)))
    }

    // A `media` line's profile reaches the engine once the media can be loaded:
    // at once for a media an intent has named, otherwise when an intent first
    // names it (only an intent puts a media in the queue, and only queue entries
    // load). A script of many `media` lines that are never queued then costs
    // its parse and an index per media, not an engine profile each.
    var named = Set<MediaID>()
    // The newest `media` line (its step) of each media not named yet whose
    // profile the engine does not have.
    var pending: [MediaID: Int] = [:]
    func profile(_ media: MediaID, _ profile: MediaProfile) {
      engine.setProfile(profile, for: media)
      profiles[media] = profile
    }
    func name(_ media: some Sequence<MediaID>) {
      for media in media where named.insert(media).inserted {
        if let index = pending.removeValue(forKey: media),
          case .media(_, let newest) = scenario.steps[index].action
        {
          profile(media, newest)
        }
      }
    }
    /// Names the media an intent brings into the queue (the user's or a remote one).
    func name(mediaOf intent: UserIntent) {
      switch intent {
      case .play(let media, _): name(CollectionOfOne(media))
      case .replaceQueue(let list, _, _, _), .append(let list), .insert(let list, _): name(list)
      default: break
      }
    }

    var entries: [TimelineEntry] = []
    var commands: [EngineCommand] = []
    // The commands since the previous `expect commands`, checked against the
    // next one as they come: a script's commands are not kept for a check that
    // never comes, nor whole for one that does (each names its media, so a
    // long run of a long name once held every command's text).
    var sinceCheck = CommandCheck(expected: Self.nextCommandCheck(in: scenario, from: 0))
    // The notifications since the previous `expect notified`, checked the same way.
    var notifiedSinceCheck = CommandCheck(
      expected: Self.nextNotifiedCheck(in: scenario, from: 0), separator: ", ",
      noun: "notifications")
    var ignoredSinceCheck: [IgnoreReason] = []
    var failure: ExpectationFailure?
    var processed = 0
    let limit = eventLimit
    func flush() {
      for entry in recorder.take() {
        processed += 1
        if keepsEntries {
          entries.append(entry)
          commands.append(contentsOf: entry.commands)
        }
        for text in entry.commandTexts { sinceCheck.append(text) }
        if notifiedSinceCheck.expected != nil {
          for notification in entry.notifications {
            notifiedSinceCheck.append(notification.description)
          }
        }
        // Reports and expiries count whatever the reason; intents and system
        // events only when refused (`noEffect` is not checked).
        if let reason = entry.ignored,
          entry.event.source == .engine || entry.event.source == .timer || reason != .noEffect
        {
          ignoredSinceCheck.append(reason)
        }
        output(.event(entry))
      }
    }
    let overLimit = { processed >= limit }

    // Whether a line that starts the run has come: a setting after it changes the running player's.
    var started = false
    for (index, step) in scenario.steps.enumerated() {
      if step.action.startsRun { started = true }
      let fail = { (expected: String, found: String) in
        ExpectationFailure(
          file: scenario.file, line: step.line, column: step.column, expected: expected,
          found: found)
      }
      // An `expect` line: a check row when it holds, else the failure (what was found is
      // described only then).
      func verify(_ holds: Bool, _ expected: String, _ found: () -> String) {
        if holds {
          output(
            .check(milliseconds: clock.milliseconds, line: step.line, text: "expect \(expected)"))
        } else {
          failure = fail(expected, found())
        }
      }
      switch step.action {
      case .media(let media, let newest):
        if named.contains(media) {
          profile(media, newest)
        } else if newest == .standard, profiles[media] == nil {
          pending[media] = nil  // the engine's default already
        } else {
          pending[media] = index
        }
      case .engine, .previousThreshold, .retryPolicy:
        break
      case .ducking, .fade, .crossfade:
        // Before the run: the first player's configuration already. After: the running
        // player's, and a relaunched one's.
        guard started else { break }
        let set = { (settings: inout PlayerConfiguration) in
          if case .ducking(let policy) = step.action { settings.ducking = policy }
          if case .fade(let length) = step.action { settings.fade = length }
          if case .crossfade(let length) = step.action { settings.crossfade = length }
        }
        set(&configuration)
        var settings = player.configuration
        set(&settings)
        do { try player.reconfigure(settings) } catch {
          failure = fail("a setting the player takes", error.reason)
        }
      case .system(let event):
        player.send(.system(event))
        flush()
      case .hostile(var mode):
        if let seed { mode?.seed = seed }
        engine.setHostile(mode)
      case .watchdog(let timeout):
        recorder.watchdogTimeout = timeout
      case .intent(let intent):
        name(mediaOf: intent)
        player.send(.user(intent))
        flush()
      case .remote(let intent):
        name(mediaOf: intent)
        player.send(.remote(intent))
        flush()
      case .setPosition(let media, let time, let remote):
        let intent = UserIntent.setPosition(recorder.entry(media, in: player.state), time)
        player.send(remote ? .remote(intent) : .user(intent))
        flush()
      case .relaunch:
        let before = player.state
        let next = makeEngine()
        let nextTimers = PendingTimers()
        let restored: Player
        do {
          restored = try Player(
            engine: next, restoring: before.snapshot, configuration: configuration,
            watchdog: watchdog(counting: nextTimers), onStep: steps(of: number + 1))
        } catch {
          failure = fail("a snapshot the relaunched player can restore", error.reason)
          break
        }
        // Every engine of the old process is discarded: its pending callbacks
        // are dropped, and its players' steps, if any came, would be too. Those
        // already let go had none pending.
        var dropped: [PlayerChange.Dropped] = []
        for (old, oldEngine) in retired.map({ ($0.number, $0.engine) }) + [(number, engine)] {
          for load in oldEngine.discard() {
            dropped.append(.init(engine: old, load: recorder.name(load, player: old)))
          }
          recorder.discard(old)
        }
        retired = []
        retiredEntries = 0
        let discarded = Array(firstOfProcess...number)
        firstOfProcess = number + 1
        timers = nextTimers
        adopt(next, restored, .relaunch, before: before, discarded: discarded, dropped: dropped)
      case .handoff:
        let before = player.state
        let next = makeEngine()
        // The hand-off's own steps (the first player's `stop`, the new one's
        // `resume`) come from the system, not the user; the first player's
        // are marked as a retired player's from its `stop` on.
        recorder.retire(number)
        recorder.overrideSource(.system)
        let nextTimers = PendingTimers()
        let handedOff: Player
        do {
          handedOff = try player.handOff(
            to: next, watchdog: watchdog(counting: nextTimers), onStep: steps(of: number + 1))
        } catch {
          recorder.overrideSource(nil)
          failure = fail("a state the hand-off can snapshot", error.reason)
          break
        }
        recorder.overrideSource(nil)
        let old = RetiredPlayer(
          number: number, player: player, engine: engine, timers: timers,
          entries: before.queue.entries.count)
        retired.append(old)
        retiredEntries += old.entries
        timers = nextTimers
        adopt(next, handedOff, .handoff, before: before)
        flush()
        releaseIdle()
        releaseOverLimit()
        mostRetired = max(mostRetired, retired.count)
      case .wait(let interval):
        _ = clock.advance(atMost: interval, pace: pace, afterEach: flush, until: overLimit)
        flush()
        releaseIdle()
      case .waitUntil(let expectation, let within):
        let reached = clock.advance(atMost: within, pace: pace, afterEach: flush) {
          overLimit() || expectation.matches(player.state)
        }
        flush()
        releaseIdle()
        if overLimit() { break }
        let limit = SimulatedTime.scriptText(milliseconds: within.wholeMilliseconds)
        guard reached else {
          failure = fail("state \(expectation) within \(limit)", "state \(player.state)")
          break
        }
        output(
          .check(
            milliseconds: clock.milliseconds, line: step.line,
            text:
              "wait until \(expectation): reached at \(SimulatedTime.clockText(milliseconds: clock.milliseconds))"
          ))
      case .inject(let report):
        let event = report.event(
          for: recorder.resolve(report.load, in: player.state, player: number))
        recorder.markInjected()
        player.send(event)
        flush()
      case .expectState(let expectation):
        let state = player.state
        verify(expectation.matches(state), "state \(expectation)", { "state \(state)" })
      case .expectQueue(let expected):
        let found = player.state.queue.description
        verify(found == expected, "queue \(expected)", { "queue \(found)" })
      case .expectCommands(let expected):
        let found = sinceCheck
        sinceCheck = CommandCheck(expected: Self.nextCommandCheck(in: scenario, from: index + 1))
        let expectedTexts = expected.map(\.text)
        verify(
          found.matches, "commands \(Self.list(expectedTexts))", { "commands \(found.text)" })
      case .expectIgnored(let expected):
        let found = ignoredSinceCheck
        ignoredSinceCheck = []
        let describe = { (reasons: [IgnoreReason]) in
          reasons.isEmpty ? "none" : reasons.map(\.rawValue).joined(separator: " ")
        }
        verify(
          found == expected, "ignored \(describe(expected))", { "ignored \(describe(found))" })
      case .expectNowPlaying(let expected):
        let found = player.state.nowPlaying
        let matches =
          switch (expected, found) {
          case (nil, nil): true
          case (let expected?, let found?): expected.matches(found)
          default: false
          }
        let text = "now-playing \(expected.map(\.description) ?? "none")"
        verify(matches, text, { "now-playing \(NowPlayingExpectation.describe(found))" })
      case .expectNotified(let expected):
        let found = notifiedSinceCheck
        notifiedSinceCheck = CommandCheck(
          expected: Self.nextNotifiedCheck(in: scenario, from: index + 1), separator: ", ",
          noun: "notifications")
        let text =
          "notified \(expected.isEmpty ? "none" : expected.map(\.text).joined(separator: ", "))"
        verify(found.matches, text, { "notified \(found.text)" })
      case .expectAvailable(let expected):
        let found = player.state.availableCommands
        let describe = { (commands: AvailableCommands) in
          commands.isEmpty ? "none" : commands.description
        }
        verify(
          found == expected, "available \(describe(expected))",
          { "available \(describe(found))" })
      case .expectVolume(let expected):
        let found = player.state.effectiveVolume
        verify(found == expected, "volume \(expected)", { "volume \(found)" })
      case .expectEngineVolume(let name, let expected):
        let found = engine.volume(of: recorder.resolve(name, in: player.state, player: number))
        let describe = { (volume: Volume?) in volume.map(\.description) ?? "none" }
        verify(
          found == expected, "engine-volume \(name) \(describe(expected))",
          { "engine-volume \(name) \(describe(found))" })
      case .note(let text):
        output(.note(milliseconds: clock.milliseconds, text: text))
      }
      if failure == nil, overLimit() {
        failure = ExpectationFailure(
          file: scenario.file, line: step.line, column: step.column,
          expected: "at most \(limit) events in a run",
          found:
            "\(processed) events by \(SimulatedTime.clockText(milliseconds: clock.milliseconds)) "
            + "(the run was stopped; does it end or repeat forever?)",
          isRunLimit: true)
      }
      if failure != nil { break }
    }
    flush()
    return ScenarioResult(
      entries: entries, failure: failure, finalState: player.state, commands: commands,
      milliseconds: clock.milliseconds, retiredPlayersKept: retired.count,
      mostRetiredPlayersKept: mostRetired)
  }

  /// A player that handed off, kept for its engine's late callbacks and its own timers.
  private struct RetiredPlayer {
    let number: Int
    let player: Player
    let engine: FakeMediaEngine
    let timers: PendingTimers
    /// Its queue's entries when it handed off, counted against ``retiredEntryLimit``.
    let entries: Int

    /// Whether anything planned on the clock may still reach the player.
    var mayBeCalled: Bool { engine.mayCallBack || timers.count > 0 }
  }

  /// A player's timers (watchdogs, backoffs, sleep countdowns) planned on the clock and not
  /// yet run.
  private final class PendingTimers: Sendable {
    private let pending = Locked(0)
    var count: Int { pending.withLock { $0 } }
    func add() { pending.withLock { $0 += 1 } }
    func remove() { pending.withLock { $0 -= 1 } }
  }

  /// The commands of the first `expect commands` line at or after step
  /// `start`, or nil when none follows (the commands are then not kept).
  static func nextCommandCheck(in scenario: Scenario, from start: Int) -> [String]? {
    for step in scenario.steps[min(start, scenario.steps.count)...] {
      if case .expectCommands(let commands) = step.action { return commands.map(\.text) }
    }
    return nil
  }

  /// The notifications of the first `expect notified` line at or after step
  /// `start`, in their printed forms, or nil when none follows.
  static func nextNotifiedCheck(in scenario: Scenario, from start: Int) -> [String]? {
    for step in scenario.steps[min(start, scenario.steps.count)...] {
      if case .expectNotified(let notifications) = step.action {
        return notifications.map(\.text)
      }
    }
    return nil
  }

  /// The commands sent since the previous `expect commands`, compared with
  /// the next one's as they come. Those that match it are not kept (they are
  /// its own first ones); from the first that differs, the texts are kept for
  /// the failure, up to ``shownLimit`` bytes, with how many there were in all.
  struct CommandCheck {
    /// The next check's commands, or nil when no check follows.
    let expected: [String]?
    private(set) var count = 0
    /// The position of the first command that differs from the expected one.
    private var mismatch: Int?
    private var tail: [String] = []
    private var tailBytes = 0

    /// The most bytes of found commands a failure quotes from the first that
    /// differs: 1 MB (its JSON line quotes them whole below that).
    static let shownLimit = 1 << 20

    /// What separates the texts in ``text``.
    let separator: String
    /// What the texts are, for `… (N commands in all)`.
    let noun: String

    init(expected: [String]?, separator: String = " ", noun: String = "commands") {
      self.expected = expected
      self.separator = separator
      self.noun = noun
    }

    mutating func append(_ text: String) {
      guard let expected else { return }
      if mismatch == nil, count < expected.count, expected[count] == text {
        count += 1
        return
      }
      if mismatch == nil { mismatch = count }
      if tailBytes <= Self.shownLimit {
        tail.append(text)
        tailBytes += text.utf8.count + 1
      }
      count += 1
    }

    /// Whether the commands are exactly the expected ones.
    var matches: Bool { mismatch == nil && count == (expected?.count ?? 0) }

    /// The commands as a failure quotes them: `none`, all of them, or the
    /// first ones and how many there were in all.
    var text: String {
      guard count > 0 else { return "none" }
      let shown = Array((expected ?? [])[0..<(mismatch ?? count)]) + tail
      let list = shown.joined(separator: separator)
      return shown.count == count ? list : list + " … (\(count) \(noun) in all)"
    }
  }

  /// The watchdog policy's timeout, a marker: above any backoff a script can write.
  private static let watchdogMarker = Duration.milliseconds(ScenarioParser.maximumMilliseconds + 1)

  private static func list(_ commands: [String]) -> String {
    commands.isEmpty ? "none" : commands.joined(separator: " ")
  }
}
