import PlayerEngine
import PlayerState

/// Playhead's `Player`, as ``FuzzSubject/player`` makes it, behind a target
/// whose player can be replaced by a new one restored from a state: how the
/// explorer tries every letter from one state without replaying the path to
/// it each time (a letter that changes the player uses the runner up, and a
/// runner cannot be copied: it shares its player and engine).
///
/// Between two events the `Player` holds nothing but its `PlaybackState`
/// (``PlayerTarget/snapshot``), so `Player(engine:startingAt:watchdog:)` is the same
/// player. The harness's engine keeps the expiry closures the old player
/// scheduled; before an expiry is sent, ``aimExpiry(_:_:)`` replaces its
/// closure by one that sends it to the current player, as the player's own
/// closures do (`send(.watchdogExpired(load, id))`); ``aimSleepExpiry(_:)``
/// does the same for a sleep countdown.
final class ForkablePlayerTarget: FuzzTarget, Sendable {
  /// The current player (the expiry closures read it when they fire) and
  /// the last observation made of it or restored with it.
  private let current: Locked<Current>
  private let engine: FuzzEngine

  /// The player and the last observation of one of its states: an observation
  /// costs eight reductions (`availableCommands`) and a pass over the queue,
  /// and in a sweep most letters leave the state as it was (a stale report)
  /// or put it back (a restore), so it is made again only for a new state.
  private struct Current {
    var player: Player
    /// Made by `FuzzObservation(_:)`, so its box holds the state it says.
    var last: FuzzObservation?
  }

  init(_ engine: FuzzEngine) {
    self.engine = engine
    let player = Self.player(engine, PlaybackState(configuration: engine.configuration))
    current = Locked(Current(player: player, last: nil))
  }

  /// The current player.
  var player: Player { current.withLock { $0.player } }

  private static func player(_ engine: FuzzEngine, _ state: PlaybackState) -> Player {
    Player(engine: engine, startingAt: state, watchdog: engine.watchdog)
  }

  func send(_ event: PlaybackEvent) { player.send(event) }

  var observation: FuzzObservation { observed.observation }

  /// The player's state and its observation, the last one again while the
  /// state is the one it was made of.
  var observed: (state: PlaybackState, observation: FuzzObservation) {
    let (player, last) = current.withLock { ($0.player, $0.last) }
    let state = player.state
    if let last, let box = last.box, Self.same(box.state, state) { return (state, last) }
    let observation = FuzzObservation(state)
    current.withLock { if $0.player === player { $0.last = observation } }
    return (state, observation)
  }

  /// Whether two states are equal, telling most unequal pairs apart by the
  /// fields a step changes most before comparing the whole states.
  private static func same(_ lhs: PlaybackState, _ rhs: PlaybackState) -> Bool {
    lhs.session == rhs.session && lhs.preload == rhs.preload
      && lhs.playWhenReady == rhs.playWhenReady && lhs == rhs
  }

  var stateDescription: String { player.state.description }

  var snapshot: AnyHashable? { player.state }

  /// Replaces the player by a new one in `state`, whose observation is
  /// `observation` when known.
  func restore(_ state: PlaybackState, observation: FuzzObservation? = nil) {
    let player = Self.player(engine, state)
    current.withLock { $0 = Current(player: player, last: observation) }
  }

  /// Points the expiry of watchdog `id` of `load` at the current player,
  /// whoever scheduled it: call before sending it.
  func aimExpiry(_ load: Load, _ id: WatchdogID) {
    engine.register(
      { [weak current] in current?.withLock { $0.player }.send(.watchdogExpired(load, id)) },
      load: load,
      id: id.rawValue)
  }

  /// Points the expiry of sleep countdown `id` at the current player, as
  /// ``aimExpiry(_:_:)`` does a watchdog's.
  func aimSleepExpiry(_ id: SleepTimerID) {
    engine.register(
      { [weak current] in current?.withLock { $0.player }.send(.system(.sleepTimerExpired(id))) },
      load: WatchdogClaim.sleepLoad, id: id.rawValue, sleep: true)
  }

  /// The subject: ``FuzzSubject/player`` with this target.
  static let subject = FuzzSubject(name: FuzzSubject.player.name) { engine in
    guard let engine = engine as? FuzzEngine else {
      preconditionFailure("the explorer's player runs on the harness's engine")
    }
    return ForkablePlayerTarget(engine)
  }

  /// Whether `subject` is ``FuzzSubject/player``, which this target may stand for.
  static func standsFor(_ subject: FuzzSubject) -> Bool {
    subject.name == FuzzSubject.player.name
      && subject.swiftExpression == FuzzSubject.player.swiftExpression && subject.isThreadSafe
  }
}
