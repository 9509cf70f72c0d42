// Stubs for Sources/PlayerTesting/PlayerTesting.docc/WritingAnEngineAdapter.md, type-checked
// with its code blocks by .ci/docc-typecheck: `MyEngine` stands for the reader's adapter.
import PlayerEngine
import PlayerState

/// The adapter under test.
final class MyEngine: PlaybackEngine {
  func execute(_ command: EngineCommand, reports: ReportSink) {}
}
