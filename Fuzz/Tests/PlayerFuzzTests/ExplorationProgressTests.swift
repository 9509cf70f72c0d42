import PlayerEngine
import PlayerFuzz
import PlayerState
import Testing

/// `Explorer.explore(_:scope:jobs:progress:)` says how far each configuration
/// class has got while it runs, and ends each class with its result, as TLC's
/// progress lines do: a long search is not silent until its end.
@Suite struct ExplorationProgressTests {
  @Test func eachClassEndsWithItsResultAndNoReportCountsMoreThanItFound() throws {
    let scope = ExplorationScope(entries: 1, held: 0, features: .core, maxDepth: 3)
    let reports = Locked<[ExplorationProgress]>([])
    let search = Explorer.explore(.player, scope: scope) { progress in
      reports.withLock { $0.append(progress) }
    }
    let all = reports.withLock { $0 }
    let ended = all.filter { $0.result != nil }
    #expect(ended.map(\.classIndex) == [0, 1])
    #expect(ended.map(\.classCount) == [2, 2])
    #expect(ended.map(\.level) == [3, 3])
    #expect(ended.map(\.states) == search.results.map(\.states))
    #expect(ended.map(\.transitions) == search.results.map(\.transitions))
    #expect(ended.map { $0.result?.states } == search.results.map(\.states))
    let first = try #require(search.results.first)
    #expect(ended.first?.description == "class 1 of 2: " + first.summaryLine)
    // A report while a class runs comes before that class's end, and counts no more than it
    // found by then.
    for (index, report) in all.enumerated() where report.result == nil {
      let end = all.firstIndex { $0.result != nil && $0.classIndex == report.classIndex }
      #expect(end.map { index < $0 } == true)
      #expect(report.expanded <= report.states)
      #expect(report.states <= search.results[report.classIndex].states)
      #expect(report.transitions <= search.results[report.classIndex].transitions)
    }
  }

  @Test func aRunningClassSaysItsLevelCountsAndFrontier() {
    let running = ExplorationProgress(
      configuration: ExplorationConfiguration(canPreload: false, retry: .off),
      classIndex: 2, classCount: 16, level: 9, states: 23_114, expanded: 15_112,
      transitions: 1_902_333, seconds: 41, result: nil)
    #expect(
      running.description
        == "class 3 of 16 (no preload, retry off, threshold 3000ms, watchdog 10000ms): level 9, "
        + "23114 states (8002 on the frontier), 1902333 transitions, 41.0 s")
  }
}
