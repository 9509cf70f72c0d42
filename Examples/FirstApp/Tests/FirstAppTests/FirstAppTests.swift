import PlayerEngine
import PlayerState
import PlayerTesting
import Testing

@testable import FirstApp

@Suite struct FirstAppTests {
  @Test func theToneEngineKeepsTheContract() async {
    let kit = EngineConformance(.init(media: "one.wav", unplayableMedia: "missing.wav"))
    let report = await kit.run(against: ToneEngine(length: .seconds(1)))
    #expect(report.broken == [], "\(report)")
  }

  @Test @MainActor func theModelFollowsThePlayer() async throws {
    let controller = AudioController(engine: ToneEngine(length: .seconds(5)))
    controller.playAlbum(["one.wav", "two.wav"])
    controller.faster()
    #expect(controller.model.rate == 1.5)
    controller.setVolume(0.8)
    #expect(controller.model.volume == 0.8)
    #expect(controller.model.playWhenReady)
    // The engine answers in 20 ms; allow 5 s on a loaded machine.
    let deadline = ContinuousClock.now + .seconds(5)
    while !controller.model.isPlaying, ContinuousClock.now < deadline {
      try await Task.sleep(for: .milliseconds(10))
    }
    #expect(controller.model.isPlaying)
    #expect(controller.model.nowPlaying?.entry.media == "one.wav")
    #expect(controller.model.duration == .seconds(5))
    controller.model.pause()
    // The pause is processed before `pause()` returns unless the engine's thread is
    // processing a report at that moment (a position tick every 50 ms): then it is
    // processed next, on that thread, and the model hears of it from the player.
    while controller.model.isPlaying, ContinuousClock.now < deadline + .seconds(5) {
      try await Task.sleep(for: .milliseconds(10))
    }
    #expect(!controller.model.isPlaying)
    #expect(!controller.model.playWhenReady)
  }

  @Test func labels() {
    #expect(AudioController.label(.milliseconds(61_500), of: .seconds(125)) == "1:01 / 2:05")
    #expect(AudioController.label(.zero, of: nil) == "0:00 / --:--")
  }
}
