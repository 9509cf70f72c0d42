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
  /// The current player (the expiry closures read it when they fire).
  private let current: Locked<Player>
  private let engine: FuzzEngine

  init(_ engine: FuzzEngine) {
    self.engine = engine
    current = Locked(Self.player(engine, PlaybackState(configuration: engine.configuration)))
  }

  /// The current player.
  var player: Player { current.withLock { $0 } }

  private static func player(_ engine: FuzzEngine, _ state: PlaybackState) -> Player {
    Player(engine: engine, startingAt: state, watchdog: engine.watchdog)
  }

  func send(_ event: PlaybackEvent) { player.send(event) }

  var observation: FuzzObservation { FuzzObservation(player.state) }

  var stateDescription: String { player.state.description }

  var snapshot: AnyHashable? { player.state }

  /// Replaces the player by a new one in `state`.
  func restore(_ state: PlaybackState) {
    let player = Self.player(engine, state)
    current.withLock { $0 = player }
  }

  /// Points the expiry of watchdog `id` of `load` at the current player,
  /// whoever scheduled it: call before sending it.
  func aimExpiry(_ load: Load, _ id: WatchdogID) {
    engine.register(
      { [weak current] in current?.withLock { $0 }.send(.watchdogExpired(load, id)) }, load: load,
      id: id.rawValue)
  }

  /// Points the expiry of sleep countdown `id` at the current player, as
  /// ``aimExpiry(_:_:)`` does a watchdog's.
  func aimSleepExpiry(_ id: SleepTimerID) {
    engine.register(
      { [weak current] in current?.withLock { $0 }.send(.system(.sleepTimerExpired(id))) },
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
