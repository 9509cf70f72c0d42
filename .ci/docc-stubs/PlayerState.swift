// Stubs for Sources/PlayerState/PlayerState.docc/PlayerState.md, type-checked with its code blocks
// by .ci/docc-typecheck: the app state and engine of the "before" code.
// docc-typecheck-flags: -default-isolation MainActor

var isPlaying = false
var isBuffering = false
let engine = Engine()

/// The engine the "before" code calls directly.
final class Engine {
  func start() {}
  func stop() {}
}
