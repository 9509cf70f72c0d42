import PlayerEngine
import PlayerState

/// Playhead's `Player`, as ``FuzzSubject/player`` makes it, behind a target
/// whose player can be started over from a state: how the
/// explorer tries every letter from one state without replaying the path to
/// it each time (a letter that changes the player uses the runner up, and a
/// runner cannot be copied: it shares its player and engine).
///
/// Between two events the `Player` holds nothing but its `PlaybackState`
/// (``PlayerTarget/snapshot``), so `Player(engine:startingAt:watchdog:)` is the same
/// player, and so is one started over in that state (`Player.restart(from:)`,
/// which a restore uses: no new player, lock and step callback per letter).
/// The harness's engine keeps the expiry closures the player
/// scheduled; before an expiry is sent, ``aimExpiry(_:_:)`` replaces its
/// closure by one that sends it to the current player, as the player's own
/// closures do (`send(.watchdogExpired(load, id))`); ``aimSleepExpiry(_:)``
/// does the same for a sleep countdown.
final class ForkablePlayerTarget: FuzzTarget, Sendable {
  /// The current player, adapted as ``PlayerTarget`` (whose last observation
  /// is given back while the state is unchanged: in a sweep most letters leave
  /// the state as it was, a stale report, or put it back, a restore); the
  /// expiry closures read it when they fire.
  private let current: Locked<PlayerTarget>
  private let engine: FuzzEngine

  init(_ engine: FuzzEngine) {
    self.engine = engine
    // The case's start state (a new player's unless the explorer searches from one).
    current = Locked(Self.target(engine, engine.startState, nil))
  }

  /// A target for `player`, a player made elsewhere on `engine` (a hand-off's, a relaunch's).
  private init(_ engine: FuzzEngine, player: Player) {
    self.engine = engine
    current = Locked(PlayerTarget(player))
  }

  /// The current player.
  var player: Player { current.withLock { $0 }.player }

  private static func target(
    _ engine: FuzzEngine, _ state: PlaybackState, _ observation: FuzzObservation?
  ) -> PlayerTarget {
    // With the step callback ``FuzzSubject/player`` gives its players: each step's ignore
    // reason and notifications reach the harness, which compares them with the contract's.
    PlayerTarget(
      Player(
        engine: engine, startingAt: state, watchdog: engine.watchdog,
        onStep: PlayerTarget.onStep(for: engine)),
      observed: observation)
  }

  func send(_ event: PlaybackEvent) { player.send(event) }

  var observation: FuzzObservation { observed.observation }

  /// The player's state and its observation, the last one again while the
  /// state is the one it was made of.
  var observed: (state: PlaybackState, observation: FuzzObservation) {
    current.withLock { $0 }.observed
  }

  var stateDescription: String { player.state.description }

  var snapshot: AnyHashable? { player.state }

  var playbackSnapshot: PlaybackSnapshot? { player.state.snapshot }

  /// `Player.handOff(to:)`, as ``PlayerTarget/handOff(to:)``: the new player on
  /// `engine` behind a target of this kind, so the explorer can restore it too.
  func handOff(to engine: any PlaybackEngine) -> (any FuzzTarget)? {
    guard let harness = engine as? FuzzEngine,
      let next = try? player.handOff(
        to: harness, watchdog: harness.watchdog, onStep: PlayerTarget.onStep(for: harness))
    else { return nil }
    return ForkablePlayerTarget(harness, player: next)
  }

  /// Starts the player over in `state` (`Player.restart(from:)`: the same as a
  /// new player made in it on this engine, with the same watchdog and step
  /// callback), whose observation is `observation` when known.
  func restore(_ state: PlaybackState, observation: FuzzObservation? = nil) {
    let target = current.withLock { $0 }
    // A player is restarted only between events; the explorer restores none inside one.
    guard !target.restart(from: state, observed: observation) else { return }
    let fresh = Self.target(engine, state, observation)
    current.withLock { $0 = fresh }
  }

  /// Points the expiry of watchdog `id` of `load` at the current player,
  /// whoever scheduled it: call before sending it.
  func aimExpiry(_ load: Load, _ id: WatchdogID) {
    engine.register(
      { [weak current] in current?.withLock { $0 }.player.send(.watchdogExpired(load, id)) },
      load: load,
      id: id.rawValue)
  }

  /// Points the expiry of sleep countdown `id` at the current player, as
  /// ``aimExpiry(_:_:)`` does a watchdog's.
  func aimSleepExpiry(_ id: SleepTimerID) {
    engine.register(
      { [weak current] in current?.withLock { $0 }.player.send(.system(.sleepTimerExpired(id))) },
      load: WatchdogClaim.sleepLoad, id: id.rawValue, sleep: true)
  }

  /// The subject: ``FuzzSubject/player`` with this target.
  static let subject = FuzzSubject(name: FuzzSubject.player.name) { engine in
    guard let engine = engine as? FuzzEngine else {
      preconditionFailure("the explorer's player runs on the harness's engine")
    }
    return ForkablePlayerTarget(engine)
  }.restoring { engine, snapshot in
    // A relaunch: as FuzzSubject.player's restore, behind a target of this kind.
    guard let harness = engine as? FuzzEngine,
      let player = try? Player(
        engine: harness, restoring: snapshot, configuration: harness.configuration,
        watchdog: harness.watchdog, onStep: PlayerTarget.onStep(for: harness))
    else { return nil }
    return ForkablePlayerTarget(harness, player: player)
  }

  /// Whether `subject` is ``FuzzSubject/player``, which this target may stand for.
  static func standsFor(_ subject: FuzzSubject) -> Bool {
    subject.name == FuzzSubject.player.name
      && subject.swiftExpression == FuzzSubject.player.swiftExpression && subject.isThreadSafe
  }
}
