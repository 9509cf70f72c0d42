import PlayerEngine
import PlayerObservation
import PlayerState

/// The app's player: one `Player` over the tone engine, configured the way a
/// user would guess, and the observable model a SwiftUI view would hold.
@MainActor
final class AudioController {
  let player: Player
  let model: PlayerModel

  init(engine: any PlaybackEngine) {
    // No network here: a failed load fails at once instead of waiting to retry.
    player = Player(engine: engine, configuration: PlayerConfiguration(retry: .off))
    model = PlayerModel(player: player, progressInterval: .milliseconds(100))
  }

  func playAlbum(_ tracks: [MediaID]) {
    model.setQueue(tracks)
  }

  /// Through the model, so that it shows the new rate at once (a `send` on the
  /// player reaches the model with the player's next published state).
  func faster() { model.setRate(1.5) }

  /// A volume slider's action: the user's volume, kept across tracks (a duck lowers what is
  /// heard, not this).
  func setVolume(_ level: Double) { model.setVolume(Volume(level)) }

  func sleep(after duration: Duration) {
    player.send(.user(.setSleepTimer(.after(duration))))
  }

  /// "0:01 / 0:02" for a time label.
  nonisolated static func label(_ position: MediaTime, of duration: MediaTime?) -> String {
    func clock(_ time: MediaTime) -> String {
      let seconds = Int(time.seconds)
      let minutes = seconds / 60
      let rest = seconds % 60
      return "\(minutes):\(rest < 10 ? "0" : "")\(rest)"
    }
    return "\(clock(position)) / \(duration.map(clock) ?? "--:--")"
  }
}
