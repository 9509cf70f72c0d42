// Stubs for Sources/PlayerEngine/PlayerEngine.docc/GettingStarted.md, type-checked with its code
// blocks by .ci/docc-typecheck: `backend` stands for the app's media framework.
import PlayerState

/// The media framework the article's engine adapts.
final class Backend: Sendable {
  func open(_ url: String, at start: MediaTime, then ready: @escaping @Sendable () -> Void) {}
  func play(rate: Double) {}
  func setRate(_ multiplier: Double) {}
  func setVolume(_ level: Double) {}
  func pause() {}
  func seek(to time: MediaTime, then done: @escaping @Sendable () -> Void) {}
  func close() {}
}

let backend = Backend()
