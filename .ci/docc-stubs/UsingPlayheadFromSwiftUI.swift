// Stubs for Sources/PlayerObservation/PlayerObservation.docc/UsingPlayheadFromSwiftUI.md,
// type-checked with its code blocks by .ci/docc-typecheck: `MyEngine` stands for the app's
// engine adapter, and SwiftUI is the stub interface in .ci/docc-stubs/modules (no SwiftUI on Linux).
// docc-typecheck-flags: -I .ci/docc-stubs/modules
import PlayerEngine
import PlayerState

/// The app's engine adapter.
final class MyEngine: PlaybackEngine {
  func execute(_ command: EngineCommand, reports: ReportSink) {}
}
