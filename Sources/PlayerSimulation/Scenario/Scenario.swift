public import PlayerState

/// A parsed scenario script: the actions of its lines, in order.
///
/// Make one with ``ScenarioParser/parse(_:file:)`` and run it with ``ScenarioRunner``.
public struct Scenario: Hashable, Sendable {
  /// The name the script was parsed under, used in messages (`file:line:column`).
  public var file: String
  /// The actions, one per non-empty line, in script order.
  public var steps: [ScenarioStep]

  /// A scenario.
  /// - Parameters:
  ///   - file: the name used in messages.
  ///   - steps: the actions in order.
  public init(file: String, steps: [ScenarioStep]) {
    self.file = file
    self.steps = steps
  }
}

/// One action of a scenario and where it was written.
public struct ScenarioStep: Hashable, Sendable {
  /// The 1-based line of the action.
  public var line: Int
  /// The 1-based column of the action's first word.
  public var column: Int
  /// What to do.
  public var action: ScenarioAction

  /// A step.
  public init(line: Int, column: Int, action: ScenarioAction) {
    self.line = line
    self.column = column
    self.action = action
  }
}

/// What one line of a scenario does.
public enum ScenarioAction: Hashable, Sendable {
  /// `media A ready-after=300ms …`: describes a fake media for loads issued from now on.
  // The larger payloads (this one, `hostile`, `waitUntil`, `inject`, the
  // queue intents) are boxed (`indirect`), so that a step of a script of
  // short lines such as `stop` stays small: memory is at most 32 bytes per
  // byte of script.
  indirect case media(MediaID, MediaProfile)
  /// `engine preload=yes`: whether the fake engine declares the preload
  /// capability (gapless). A setup line: before the first intent, wait or report.
  case engine(preload: Bool)
  /// `previous-threshold 3s`: how far into an entry `previous` restarts it
  /// instead of going back. A setup line: before the first intent, wait or report.
  case previousThreshold(MediaTime)
  /// `retry-policy attempts=3 backoff=1s max=30s` / `retry-policy off`: how a
  /// load that failed for want of the network is retried (``PlayerState/RetryPolicy``;
  /// ``PlayerState/RetryPolicy/standard`` without the line). A setup line: before the
  /// first intent, wait, report or system event.
  indirect case retryPolicy(RetryPolicy)
  /// `ducking 0.2` / `ducking pause`: what a `duck` line does
  /// (``PlayerState/PlayerConfiguration/ducking``; `.lower(to: 0.2)` without the
  /// line). A setting: before the run starts it configures the first player;
  /// later, it changes the running player's settings (`Player.reconfigure`).
  case ducking(DuckPolicy)
  /// `fade 200ms` / `fade off`: how long the user's pause and stop fade out and resume
  /// fades in (``PlayerState/PlayerConfiguration/fade``; zero, no fade, without the line
  /// and for `off`). A setting, as `ducking`: anywhere, each line from there on.
  /// The fake engine declares the ramp capability, so the player keeps it.
  case fade(Duration)
  /// `crossfade 3s` / `crossfade off`: how long the end of an entry and the start of the
  /// next overlap, one fading out while the other fades in
  /// (``PlayerState/PlayerConfiguration/crossfade``; zero, off, without the line and for
  /// `off`). A setting, as `fade`: anywhere, each line from there on. It needs an engine that
  /// preloads (`engine preload=yes`): a script that asks for a crossfade on an engine without
  /// preload is refused at this line when it is parsed.
  case crossfade(Duration)
  /// `hostile on seed=7` / `hostile off`: makes the engine misbehave, or stop misbehaving.
  indirect case hostile(HostileMode?)
  /// `watchdog 5s` / `watchdog off`: the timeout of watchdogs armed from now on.
  case watchdog(Duration?)
  /// `play A`, `queue A B start=2`, `next`, `repeat all`, `pause`, `stop`, …: a user intent.
  indirect case intent(UserIntent)
  /// `remote toggle`, `remote skip +15s`, `remote next`, …: an intent from a
  /// remote control (the lock screen, a headset button, MPRIS), sent as
  /// ``PlayerState/PlaybackEvent/remote(_:)``: the same rules, source `remote`.
  indirect case remote(UserIntent)
  /// `set-position A 10s` (or `remote set-position A 10s`): MPRIS's
  /// `SetPosition`, naming the entry by its media. The runner resolves the
  /// name when the line runs: the current entry if its media is `A`, else the
  /// first entry of `A` in play order, else an item no entry has; only the
  /// current entry is moved (``PlayerState/IgnoreReason/notCurrentEntry`` otherwise).
  indirect case setPosition(MediaID, MediaTime, remote: Bool)
  /// `interrupt begin`, `interrupt end [resume]`, `route lost`, `network lost`,
  /// `network available`, `duck`, `unduck`: an event of the operating system,
  /// sent through the player.
  case system(SystemEvent)
  /// `relaunch`: the app's process ends and starts again. The runner takes
  /// the player's snapshot (``PlayerState/PlaybackState/snapshot``), discards every
  /// player and fake engine of the run (their pending callbacks are dropped:
  /// nothing of them reaches the new player), and makes player N + 1 on a new
  /// engine, restored from the snapshot (`Player(engine:restoring:configuration:watchdog:onStep:)`):
  /// idle and paused, nothing sent until the user resumes.
  case relaunch
  /// `handoff`: playback moves to a new fake engine (`Player.handOff(to:watchdog:onStep:)`):
  /// the first engine is stopped, the new player loads the current entry from
  /// its position at once and plays if the user wanted to. The first player
  /// and engine are kept: the engine's late callbacks go to the first player
  /// only, which ignores them (its rows are marked ``TimelineEntry/isRetired``).
  case handoff
  /// `wait 100ms`: advance the virtual clock, delivering the reports that fall due.
  case wait(Duration)
  /// `wait until playing(B#3) within=5s`: advance the clock report by report
  /// until the state matches; fails the run if it does not within the time.
  indirect case waitUntil(StateExpectation, within: Duration)
  /// `report ready A#1`: an engine report (or, with `timeout`, a watchdog
  /// expiry) injected by the script, as if from the engine. The load is
  /// resolved when the line runs (see ``ScenarioReport``).
  indirect case inject(ScenarioReport)
  /// `expect state idle`: fails the run unless the state matches.
  case expectState(StateExpectation)
  /// `expect queue A B* C` / `expect queue none`: fails the run unless the
  /// queue prints exactly so (play order, the current entry starred).
  indirect case expectQueue(String)
  /// `expect commands load(A#1) stop(A#1)`: fails the run unless exactly these
  /// commands were sent since the previous `expect commands`.
  case expectCommands([ScenarioCommand])
  /// `expect ignored staleLoad invalidPosition`: fails the run unless exactly
  /// these reports and expiries were ignored, and these intents refused (any
  /// reason but `noEffect`), for these reasons, since the previous `expect ignored`.
  case expectIgnored([IgnoreReason])
  /// `expect now-playing A 2/3 at 15s rate 1x [of 30s|of unknown|live 60s…120s]` / `expect
  /// now-playing none`: fails the run unless ``PlayerState/PlaybackState/nowPlaying``
  /// matches (nil: none).
  indirect case expectNowPlaying(NowPlayingExpectation?)
  /// `expect notified entryChanged A -> B auto, playIntent false remote` /
  /// `expect notified none`: fails the run unless exactly these notifications,
  /// in this order, were derived from the steps since the previous `expect notified`.
  case expectNotified([ScenarioNotification])
  /// `expect available next pause seek skip stop toggle` / `expect available
  /// none`: fails the run unless exactly these commands are available now
  /// (``PlayerState/PlaybackState/availableCommands``), in any order.
  case expectAvailable(AvailableCommands)
  /// `expect volume 0.5`: fails the run unless the effective volume
  /// (``PlayerState/PlaybackState/effectiveVolume``) is exactly this.
  case expectVolume(Volume)
  /// `expect engine-volume A#1 0.5` / `expect engine-volume A#1 none`: fails the run
  /// unless the fake engine plays the load at exactly this level now, on the virtual
  /// clock (``FakeMediaEngine/volume(of:)``: partway through a ramp during a fade), or,
  /// for `none`, unless the engine does not hold the load (never loaded, or stopped).
  /// The load is resolved when the line runs, as a `report` line's is.
  indirect case expectEngineVolume(LoadName, Volume?)
  /// `note …`: a line of narration printed in the timeline.
  case note(String)
}

/// What an `expect now-playing` line checks: the current entry's media, its
/// 1-based index and the count, the elapsed anchor, the published rate and,
/// if written, the duration.
public struct NowPlayingExpectation: Hashable, Sendable, CustomStringConvertible {
  /// The current entry's media.
  public var media: MediaID
  /// The current entry's position in play order, 1-based.
  public var index: Int
  /// How many entries the queue holds.
  public var count: Int
  /// The elapsed anchor (``PlayerState/NowPlaying/elapsed``).
  public var elapsed: MediaTime
  /// The published rate: 0 unless media is playing.
  public var rate: PlaybackRate
  /// The duration: nil when the line does not check it, `.some(nil)` for `of unknown`.
  public var duration: MediaTime??
  /// The live window (``PlayerState/NowPlaying/window``): nil when the line does not
  /// check it, as in `live 60s…120s`. A line that checks it checks that there is no
  /// duration too (live media has none).
  public var window: LiveWindow?

  /// An expectation.
  public init(
    media: MediaID, index: Int, count: Int, elapsed: MediaTime, rate: PlaybackRate,
    duration: MediaTime?? = nil, window: LiveWindow? = nil
  ) {
    self.window = window
    self.media = media
    self.index = index
    self.count = count
    self.elapsed = elapsed
    self.rate = rate
    self.duration = duration
  }

  /// Whether `nowPlaying` satisfies the expectation.
  /// - Parameter nowPlaying: what a lock screen shows now.
  public func matches(_ nowPlaying: NowPlaying) -> Bool {
    nowPlaying.entry.media == media && nowPlaying.index + 1 == index && nowPlaying.count == count
      && nowPlaying.elapsed == elapsed && nowPlaying.rate == rate
      && (duration.map { $0 == nowPlaying.duration } ?? true)
      && (window.map { $0 == nowPlaying.window && nowPlaying.duration == nil } ?? true)
  }

  /// `A 2/3 at 15000ms rate 1x`, then ` of 30000ms` or ` of unknown` when the duration is
  /// checked, or ` live 60000ms…120000ms` when the live window is.
  public var description: String {
    let of =
      window.map { " live \($0)" } ?? duration.map { " of \($0.map(\.description) ?? "unknown")" }
      ?? ""
    return "\(media) \(index)/\(count) at \(elapsed) rate \(rate)\(of)"
  }

  /// What a lock screen shows, in the form of an expectation that checks the
  /// duration: `A 2/3 at 15000ms rate 1x of unknown`, or for live media its window,
  /// `L 1/1 at 120000ms rate 1x live 60000ms…120000ms`; `none` without a current entry.
  /// - Parameter nowPlaying: the derived value, or nil.
  public static func describe(_ nowPlaying: NowPlaying?) -> String {
    guard let nowPlaying else { return "none" }
    return NowPlayingExpectation(
      media: nowPlaying.entry.media, index: nowPlaying.index + 1, count: nowPlaying.count,
      elapsed: nowPlaying.elapsed, rate: nowPlaying.rate, duration: .some(nowPlaying.duration),
      window: nowPlaying.window
    ).description
  }
}

/// A notification of an `expect notified` line, kept in its printed form
/// (``PlayerState/PlayerNotification/description``: `entryChanged(A -> B, auto)`,
/// `queueEnded`, `playIntent(false, remote)`) and compared with the printed
/// form of the notifications derived.
public struct ScenarioNotification: Hashable, Sendable, CustomStringConvertible {
  /// The printed form.
  public var text: String

  /// A notification in its printed form.
  public init(_ text: String) { self.text = text }

  /// The printed form.
  public var description: String { text }
}

/// A load as a script names it, `A#2`: a media and a load token.
///
/// Loads are identified by the item the machine issued and the token; a
/// script knows only the media, so the runner resolves the name when the line
/// runs. A token the machine issued for this media gives that load; any other
/// (a token never issued, or issued for another media) gives a load of a
/// phantom item, numbered down from 2³² − 1, that no queue entry has.
public struct LoadName: Hashable, Sendable, CustomStringConvertible {
  /// The media, as declared by a `media` line.
  public var media: MediaID
  /// The load token.
  public var token: UInt32

  /// A load name.
  public init(_ media: MediaID, _ token: UInt32) {
    self.media = media
    self.token = token
  }

  /// `A#2`.
  public var description: String { "\(media)#\(token)" }
}

/// A `report` line: an engine report or watchdog expiry for a named load.
public struct ScenarioReport: Hashable, Sendable, CustomStringConvertible {
  /// What is reported.
  public enum Kind: Hashable, Sendable {
    /// `report ready A#1 [duration=3m]`.
    case ready(duration: MediaTime?)
    /// `report stalled A#1`.
    case stalled
    /// `report resumed A#1`.
    case resumed
    /// `report seeked A#1 seek=N`.
    case seeked(SeekID)
    /// `report ended A#1`.
    case ended
    /// `report failed A#1 [reason=R] [domain=D code=N [message="…"]]`: with the
    /// engine's own error when `domain=` and `code=` are given.
    case failed(FailureReason, detail: FailureDetail? = nil)
    /// `report paused-by-system A#1`: the system paused the load on its own.
    case pausedBySystem
    /// `report position A#1 12s`.
    case position(MediaTime)
    /// `report timeout A#1 [watchdog=N]`: a watchdog expiry.
    case timeout(WatchdogID)
    /// `report window A#1 start=60s end=120s`: the load is live, with this window
    /// (a bad one, `start` past `end`, as written: the machine refuses it).
    case window(LiveWindow)
  }

  /// The load, as written.
  public var load: LoadName
  /// What is reported.
  public var kind: Kind

  /// A report line.
  public init(_ kind: Kind, _ load: LoadName) {
    self.kind = kind
    self.load = load
  }

  /// The event for the resolved load.
  /// - Parameter load: the load the name resolved to.
  public func event(for load: Load) -> PlaybackEvent {
    switch kind {
    case .ready(let duration): .ready(load, duration: duration)
    case .stalled: .stalled(load)
    case .resumed: .resumed(load)
    case .seeked(let seek): .seekCompleted(load, seek)
    case .ended: .reachedEnd(load)
    case .failed(let reason, let detail): .engine(.failed(load, reason, detail: detail))
    case .pausedBySystem: .engine(.pausedBySystem(load))
    case .position(let time): .position(load, time)
    case .timeout(let id): .watchdogExpired(load, id)
    case .window(let window): .window(load, window)
    }
  }

  /// The event as the timeline prints it, as in `ready(A#1)`.
  public var description: String {
    event(for: Load(0, load.token)).description(naming: { _ in load.media })
  }
}

/// A command of an `expect commands` line, kept in its printed form
/// (`load(A#2, from 12000ms)`, `start(A#2, 1.5x)`) and compared with the
/// printed form of the commands sent.
public struct ScenarioCommand: Hashable, Sendable, CustomStringConvertible {
  /// The canonical printed form, as `EngineCommand.description(naming:)` prints it.
  public var text: String

  /// A command in its printed form.
  public init(_ text: String) { self.text = text }

  /// The printed form.
  public var description: String { text }
}

/// What an `expect state` line accepts.
public enum StateExpectation: Hashable, Sendable, CustomStringConvertible {
  /// Any state of this kind: `expect state playing`.
  case kind(StateKind)
  /// Exactly this compact form, spaces aside: `expect state buffering(A#2, autoplay)`.
  case exactly(String)

  /// Whether `state` satisfies the expectation.
  /// - Parameter state: the player's state.
  /// - Returns: true when the kind matches, or the compact form matches ignoring spaces.
  public func matches(_ state: PlaybackState) -> Bool {
    switch self {
    case .kind(let kind): state.kind == kind
    case .exactly(let text): Self.normalized(state.description) == Self.normalized(text)
    }
  }

  /// The expectation as written, normalized: `playing`, `buffering(A#2, autoplay)`.
  public var description: String {
    switch self {
    case .kind(let kind): kind.rawValue
    case .exactly(let text): text
    }
  }

  /// The text without whitespace, so `x(A#1,autoplay)` matches `x(A#1, autoplay)`,
  /// and a sleep countdown's time in milliseconds, so `sleep after(30s)`
  /// matches `sleep after(30000ms)`.
  static func normalized(_ text: String) -> String {
    let compact = String(
      text.unicodeScalars.filter { !$0.properties.isWhitespace }.map(Character.init))
    let marker = "sleepafter("
    guard let start = compact.range(of: marker),
      let close = compact[start.upperBound...].firstIndex(of: ")"),
      case .value(let milliseconds) = LineReader.milliseconds(
        String(compact[start.upperBound..<close]))
    else { return compact }
    return compact[..<start.upperBound] + "\(milliseconds)ms" + compact[close...]
  }
}

extension ScenarioAction {
  /// Whether this line starts the run: an intent, a wait, a report, a system
  /// event, a relaunch or a hand-off. Setup lines (`engine`,
  /// `previous-threshold`, `retry-policy`) must come before the first.
  var startsRun: Bool {
    switch self {
    case .intent, .remote, .setPosition, .wait, .waitUntil, .inject, .system, .relaunch, .handoff:
      true
    default: false
    }
  }
}
