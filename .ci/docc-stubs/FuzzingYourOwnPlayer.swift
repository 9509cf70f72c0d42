// Stubs for Fuzz/Sources/PlayerFuzz/PlayerFuzz.docc/FuzzingYourOwnPlayer.md, type-checked
// with its code blocks by .ci/docc-typecheck: `MyPlayer` stands for the reader's player.
import PlayerEngine
import PlayerState

/// A player that is not Playhead's, with its own vocabulary.
final class MyPlayer: CustomStringConvertible {
  init(engine: any PlaybackEngine, watchdog: WatchdogPolicy, retry: RetryPolicy) {}
  func handle(_ intent: UserIntent) {}
  func handle(_ report: EngineReport) {}
  func handle(_ event: SystemEvent) {}
  func timedOut(_ load: Load, watchdog: WatchdogID) {}
  var kind: StateKind { .idle }
  var isPlaying: Bool { false }
  var description: String { "idle" }
}
