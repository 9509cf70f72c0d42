import PlayerEngine
import PlayerState

// The first hour's app: a queue of three tones at 1.5x, a progress label, the
// model's view of the player, and a sleep timer that ends it.
let controller = AudioController(engine: ToneEngine(length: .seconds(3)))
let player = controller.player

let progress = Task {
  var shown = 0
  for await tick in player.progressUpdates(every: .milliseconds(250)) {
    if tick.isPlaying, shown < 3 {
      shown += 1
      print("progress:", tick.entry.media, AudioController.label(tick.position, of: tick.duration))
      print("  at", tick.position, "of", tick.duration.map(\.description) ?? "unknown")
    }
  }
}

controller.playAlbum(["one.wav", "two.wav", "three.wav"])
controller.faster()
controller.setVolume(0.8)
controller.sleep(after: .seconds(2))

// Wait for the sleep timer to pause playback, at most 10 s.
let deadline = ContinuousClock.now + .seconds(10)
while ContinuousClock.now < deadline, player.state.sleepTimer != nil || controller.model.isPlaying {
  try await Task.sleep(for: .milliseconds(50))
}
progress.cancel()

let model = controller.model
print("stopped by the sleep timer:", !model.isPlaying && model.sleepTimer == nil)
print("rate:", model.rate)
print("volume:", model.volume)
print("now playing:", model.nowPlaying.map(\.entry.media.rawValue) ?? "nothing")
