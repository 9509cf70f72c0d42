import Foundation
import PlayerFuzz
import Testing

/// The worked example's figures for docs/fuzzing.md, printed only when asked:
/// `PLAYHEAD_FUZZ_FIGURES=1 swift test -c release --filter printFigures`.
@Suite struct FiguresTests {
  @Test(.enabled(if: ProcessInfo.processInfo.environment["PLAYHEAD_FUZZ_FIGURES"] == "1"))
  func printFigures() {
    let throughput = FuzzMeasurement.throughput(MiniSubjects.player, seconds: 10)
    print(
      "MiniPlayer checked events/s: \(Int(throughput.eventsPerSecond)) (\(throughput.cases) cases)")
    print(FuzzMeasurement.catching(MiniSubjects.buggy, seeds: 20, caseBudget: 100_000))
    print(FuzzMeasurement.exhaustive(MiniSubjects.player, seconds: 10))
    let concurrent = try? ConcurrentFuzz.run(MiniSubjects.player, seed: 1, rounds: 200)
    print(concurrent.map(String.init(describing:)) ?? "not thread-safe")
  }
}
