import MiniPlayer
import PlayerEngine
import PlayerFuzz
import PlayerState

/// The adapter the harness drives: MiniPlayer as a `FuzzTarget`.
final class MiniTarget: FuzzTarget, Sendable {
  let player: MiniPlayer

  init(engine: any PlaybackEngine, bug: MiniPlayer.Bug?) {
    // The harness's engine is also the watchdog clock: MiniPlayer must request its
    // watchdogs there (the harness never sends an expiry the player did not ask for).
    // It also says which retry policy the case runs with (the contract waits for
    // the network, or fails at once, exactly as that policy says).
    player = MiniPlayer(
      engine: engine, watchdog: FuzzEngine.watchdog(for: engine),
      retry: FuzzEngine.retry(for: engine), bug: bug,
      onProcessed: FuzzEngine.onProcessed(for: engine))
  }

  func send(_ event: PlaybackEvent) { player.send(event) }

  var observation: FuzzObservation {
    // Everything the reducer's state says, with the loads under MiniPlayer's own ids.
    var observation = FuzzObservation(player.state)
    observation.loads = player.loads
    return observation
  }

  var stateDescription: String { player.state.description }
}

/// The subjects, named so that a printed Swift test can name them back
/// (`swiftExpression`): a failure's test replays on the player that failed.
enum MiniSubjects {
  static let player = FuzzSubject.threadSafe(
    name: "MiniPlayer", swiftExpression: "MiniSubjects.player",
    make: { engine in MiniTarget(engine: engine, bug: nil) })

  static let buggy = FuzzSubject.threadSafe(
    name: "MiniPlayer(unknownIdMeansCurrent)", swiftExpression: "MiniSubjects.buggy",
    make: { engine in MiniTarget(engine: engine, bug: .unknownIdMeansCurrent) })
}
