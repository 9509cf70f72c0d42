/// Why an event changed nothing.
public enum IgnoreReason: String, Hashable, Sendable, Codable, CustomStringConvertible {
  /// The report's load token was never issued by this machine.
  case neverIssuedLoad
  /// The report is about an earlier load (replaced or stopped).
  case staleLoad
  /// The token is current (or preloading) but the item differs: a forged or corrupted report.
  case itemMismatch
  /// The seek completion is for a seek id never issued for this load.
  case neverIssuedSeek
  /// The seek completion is for a seek that a newer seek superseded.
  case supersededSeek
  /// The watchdog is not the newest one armed, or its wait is already over;
  /// or the sleep timer's countdown was cancelled or replaced.
  case staleWatchdog
  /// An end or a position reported while a seek was still pending: it is from before the seek.
  case seekPending
  /// A report about the current load that its stage does not expect, such as a second `ready`;
  /// or a report a preloading load cannot make (only `ready` and `failed` count for it).
  case unexpected
  /// A user intent that changes nothing in this state, such as `pause` while idle.
  case noEffect
  /// The event needs a new id (load token, item id, seek id, watchdog id or sleep timer id) after
  /// the last of that kind's 2^32 - 1 ids was issued: ids are never reused.
  case idsExhausted
  /// The intent names a position outside the queue.
  case invalidPosition
  /// The intent carries a value the machine cannot use, such as a rate that is not positive.
  case invalidArgument
  /// An interruption ended when none had begun.
  case notInterrupted
  /// The intent names an entry that is not the current one, such as an MPRIS
  /// `SetPosition` sent before a skip reached the remote control.
  case notCurrentEntry
  /// A duck ended when none had begun.
  case notDucked
  /// A seek (or skip, `setPosition`, `goToLive`) of a live stream without a
  /// window to seek in.
  case notSeekable
  /// `goToLive` for media that is not live.
  case notLive
  /// A sleep timer that stops at an entry's end, armed on a live entry: it has no end.
  case liveStream

  /// A short English phrase, such as `stale load token`.
  public var description: String {
    switch self {
    case .neverIssuedLoad: "load token never issued"
    case .staleLoad: "stale load token"
    case .itemMismatch: "item does not match the token"
    case .neverIssuedSeek: "seek id never issued"
    case .supersededSeek: "superseded seek"
    case .staleWatchdog: "stale watchdog"
    case .seekPending: "from before a pending seek"
    case .unexpected: "not expected in this state"
    case .noEffect: "no effect in this state"
    case .idsExhausted: "every id of this kind has been issued"
    case .invalidPosition: "no such position in the queue"
    case .invalidArgument: "invalid argument"
    case .notInterrupted: "no interruption in progress"
    case .notCurrentEntry: "not the current entry"
    case .notDucked: "no duck in progress"
    case .notSeekable: "a live stream without a window to seek in"
    case .notLive: "not a live stream"
    case .liveStream: "a live stream has no end"
    }
  }
}

/// What a timer is for. The reducer dispatches an expiry on the purpose the
/// current load's newest timer was armed with, never on the load's stage.
public enum TimerPurpose: String, Hashable, Sendable, Codable, CaseIterable {
  /// A load's first buffering: the load fails with `timeout` if it is not
  /// ready before the driver's watchdog timeout.
  case loadWatchdog
  /// A stall: the load fails with `timeout` if it does not resume before the
  /// driver's watchdog timeout.
  case stallWatchdog
  /// The wait before reloading a load that failed for want of the network
  /// (``RetryPolicy``); its delay is in the request.
  case networkBackoff
  /// A fade-out (``PlayerConfiguration/fade``): the engine ramps the load's
  /// volume to 0 over the delay in the request, and at the expiry the load is
  /// paused (a fade into `pause`) or stopped (a fade into `stop`).
  case fadeOut
}

/// A timer to arm: a watchdog that fails the current load if its engine stays
/// buffering or stalled for too long, a network backoff, or a fade-out's end. The driver owns
/// the clock: it sends ``PlaybackEvent/watchdogExpired(_:_:)`` with this load
/// and id when the delay passes.
public struct WatchdogRequest: Hashable, Sendable, Codable, CustomStringConvertible {
  /// The load being watched.
  public let load: Load
  /// The timer's id; an expiry with an older id is stale.
  public let id: WatchdogID
  /// What the timer is for.
  public let purpose: TimerPurpose
  /// The wait, kept to the millisecond (encoded as `{"milliseconds":N}`).
  private let wait: ClockMilliseconds?

  /// How long to wait, wall-clock: nil for the driver's watchdog timeout (the
  /// load and stall watchdogs); the backoff before a reload while waiting for
  /// the network (``RetryPolicy/delay(before:)``), a whole number of milliseconds.
  public var delay: Duration? { wait?.duration }

  /// Names a timer.
  /// - Parameters:
  ///   - load: the load it is about.
  ///   - id: its id, issued by the load's session.
  ///   - purpose: what it is for; by default a watchdog without a delay and a
  ///     network backoff with one.
  ///   - delay: nil for the driver's watchdog timeout, else the wait, rounded
  ///     to the nearest millisecond (halves away from zero, saturating).
  public init(load: Load, id: WatchdogID, purpose: TimerPurpose? = nil, delay: Duration? = nil) {
    self.init(load: load, id: id, purpose: purpose, wait: delay.map { ClockMilliseconds($0) })
  }

  /// Names a timer whose wait is kept to the millisecond already.
  init(load: Load, id: WatchdogID, purpose: TimerPurpose?, wait: ClockMilliseconds?) {
    self.load = load
    self.id = id
    self.purpose = purpose ?? (wait == nil ? .loadWatchdog : .networkBackoff)
    self.wait = wait
  }

  private enum CodingKeys: String, CodingKey {
    case load, id, purpose
    case wait = "delay"
  }

  /// The compact form without names.
  public var description: String { description(naming: { _ in nil }) }

  /// The compact form, as in `watchdog(A#1, watchdog#1)`,
  /// `backoff(A#1, watchdog#2, 1000ms)` or `fadeOut(A#1, watchdog#2, 200ms)`.
  /// - Parameter name: the media of an item, if known.
  public func description(naming name: (ItemID) -> MediaID?) -> String {
    let watched = "\(load.description(naming: name)), \(id)"
    let wait = self.wait ?? ClockMilliseconds(milliseconds: 0)
    switch purpose {
    case .loadWatchdog, .stallWatchdog: return "watchdog(\(watched))"
    case .networkBackoff: return "backoff(\(watched), \(wait))"
    case .fadeOut: return "fadeOut(\(watched), \(wait))"
    }
  }
}

/// What reducing one event implies besides the next state: the engine
/// commands, a watchdog or sleep countdown to arm, and why the event was
/// ignored if it was.
public struct Effects: Hashable, Sendable {
  /// The engine commands to execute, in order, before the next event is reduced.
  public var commands: CommandList
  /// A watchdog to arm, if the transition entered buffering or a stall.
  public var watchdog: WatchdogRequest?
  /// A sleep timer's countdown to schedule, if the user armed one.
  public var sleepTimer: SleepTimerRequest?
  /// Why the event changed nothing, or nil if it was accepted.
  public var ignored: IgnoreReason?

  /// Describes effects.
  public init(
    commands: CommandList = CommandList(), watchdog: WatchdogRequest? = nil,
    sleepTimer: SleepTimerRequest? = nil, ignored: IgnoreReason? = nil
  ) {
    self.commands = commands
    self.watchdog = watchdog
    self.sleepTimer = sleepTimer
    self.ignored = ignored
  }
}

/// The result of reducing one event: the next state and the effects it implies.
///
/// The commands come with the next state rather than being derived afterwards
/// from (old state, event, new state): the reducer already knows them when it
/// decides the next state, and deriving them again would duplicate every rule.
public struct Transition: Hashable, Sendable, CustomStringConvertible {
  /// The state after the event.
  public var next: PlaybackState
  /// The engine commands to execute, in order, before the next event is reduced.
  public var commands: CommandList
  /// A watchdog to arm, if the transition entered buffering or a stall.
  public var watchdog: WatchdogRequest?
  /// A sleep timer's countdown to schedule, if the user armed one.
  public var sleepTimer: SleepTimerRequest?
  /// Why the event changed nothing, or nil if it was accepted.
  public var ignored: IgnoreReason?

  /// Describes a transition.
  public init(
    next: PlaybackState, commands: CommandList = CommandList(), watchdog: WatchdogRequest? = nil,
    sleepTimer: SleepTimerRequest? = nil, ignored: IgnoreReason? = nil
  ) {
    self.next = next
    self.commands = commands
    self.watchdog = watchdog
    self.sleepTimer = sleepTimer
    self.ignored = ignored
  }

  /// A transition from the next state and the effects that led to it.
  public init(next: PlaybackState, effects: Effects) {
    self.init(
      next: next, commands: effects.commands, watchdog: effects.watchdog,
      sleepTimer: effects.sleepTimer, ignored: effects.ignored)
  }

  /// `next [commands] (ignored: reason)`, as in `playing(A#1) [start(A#1)]`.
  public var description: String {
    let name = { (item: ItemID) in self.next.media(of: item) }
    var text = next.description
    if !commands.isEmpty { text += " [\(commands.description(naming: name))]" }
    if let watchdog { text += " +\(watchdog.description(naming: name))" }
    if let sleepTimer { text += " +\(sleepTimer)" }
    if let ignored { text += " (ignored: \(ignored))" }
    return text
  }
}
