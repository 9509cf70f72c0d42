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
  /// SingleItemPlayer's figures for the README, within the core:
  /// `PLAYHEAD_FUZZ_FIGURES=1 swift test -c release --filter printSingleItemFigures`.
  @Test(.enabled(if: ProcessInfo.processInfo.environment["PLAYHEAD_FUZZ_FIGURES"] == "1"))
  func printSingleItemFigures() {
    let core = FuzzConfiguration(seed: 1, budget: .seconds(10), features: .core)
    print(Fuzzer.run(SingleItemSubjects.player, core))
    // FuzzMeasurement.catching runs the whole contract: the seeds are run here instead.
    var found: [(cases: Int, length: Int, seconds: Double)] = []
    for seed in UInt64(1)...20 {
      let result = Fuzzer.run(
        SingleItemSubjects.buggy,
        FuzzConfiguration(seed: seed, budget: .cases(100_000), features: .core))
      guard let failure = result.failure else { continue }
      found.append((result.cases, failure.actions.count, result.seconds + result.shrinkSeconds))
    }
    let median = { (values: [Double]) in values.isEmpty ? .nan : values.sorted()[values.count / 2] }
    print(
      "SingleItemPlayer(matchesReportsByItem), features none, seeds 1...20: \(found.count)/20 found; "
        + "median \(median(found.map { Double($0.cases) })) cases and "
        + "\(median(found.map { $0.seconds * 1000 })) ms to the shrunk case; lengths "
        + "\(found.map(\.length).sorted())")
    let scope = ExplorationScope(entries: 1, held: 0, features: .core, maxDepth: 3)
    print(Explorer.explore(SingleItemSubjects.player, scope: scope))
  }
}
