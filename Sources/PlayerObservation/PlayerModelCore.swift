import PlayerEngine
import PlayerState

/// What a model does when its values change: ``PlayerModel`` tells the
/// observers of each changed field, `PlayerModelObject` sends
/// `objectWillChange`.
@MainActor
protocol ViewStateSubject: AnyObject {
  /// Called before `old` becomes `new` (they differ).
  func viewStateWillChange(from old: PlayerViewState, to new: PlayerViewState)
  /// Called after `old` became `new`.
  func viewStateDidChange(from old: PlayerViewState, to new: PlayerViewState)
}

/// The one core both models wrap: follows a player's streams on the main
/// actor, keeps the published values, numbers the notifications, and sends
/// the intents.
///
/// Every update reads the player's current state and progress
/// (``/PlayerEngine/Player/state``, ``/PlayerEngine/Player/progress``), not
/// what a stream delivered: the values never go back to an older state,
/// whichever of an intent's own refresh and a stream's element comes first.
/// The state and progress streams are only the signal that something changed.
///
/// Lifetime: the model owns the core, the core owns the player and the
/// tasks; the tasks hold the core weakly and the streams do not hold the
/// player, so dropping the model frees the core, which cancels its tasks,
/// and then the player (unless the app keeps it).
@MainActor
final class PlayerModelCore {
  let player: Player
  private(set) var viewState: PlayerViewState
  /// The subject told about changes; weak: the subject owns the core.
  weak var subject: (any ViewStateSubject)?
  /// How often the position is read while playing; nil for never.
  private let progressInterval: Duration?
  private var notificationCount = 0
  private var tasks: [Task<Void, Never>] = []

  init(player: Player, progressInterval: Duration?) {
    self.player = player
    self.progressInterval = progressInterval
    viewState = PlayerViewState(state: player.state, progress: player.progress)
  }

  deinit {
    for task in tasks { task.cancel() }
  }

  /// Starts following the player's state changes, notifications and, while
  /// playing, its progress ticks; from here on the values follow the player
  /// until the core goes. The ticks are the player's
  /// (``/PlayerEngine/Player/progressUpdates(every:)``, on its policy's clock):
  /// none while paused, buffering or idle, and the pending one is cancelled
  /// when the core's task ends.
  func start() {
    let states = player.latestStates()
    let notifications = player.notifications()
    tasks = [
      Task { [weak self] in
        for await _ in states { self?.refresh() }
      },
      Task { [weak self] in
        for await notification in notifications { self?.receive(notification) }
      },
    ]
    if let progressInterval {
      let ticks = player.progressUpdates(every: progressInterval)
      tasks.append(
        Task { [weak self] in
          for await _ in ticks { self?.refresh() }
        })
    }
  }

  /// Sends `event` to the player, then publishes the state it left, so a
  /// button's effect shows at once (the player processes the event before
  /// `send` returns unless another thread is processing).
  func send(_ event: PlaybackEvent) {
    player.send(event)
    refresh()
  }

  /// Publishes the player's current state and progress.
  func refresh() {
    publish(viewState.updated(from: player.state, progress: player.progress))
  }

  private func receive(_ notification: PlayerNotification) {
    notificationCount += 1
    var next = viewState.updated(from: player.state, progress: player.progress)
    next.record(NumberedNotification(id: notificationCount, notification: notification))
    publish(next)
  }

  private func publish(_ next: PlayerViewState) {
    guard next != viewState else { return }
    let old = viewState
    subject?.viewStateWillChange(from: old, to: next)
    viewState = next
    subject?.viewStateDidChange(from: old, to: next)
  }
}
