import Foundation
import PlayerFuzz

/// Runs the harness figures through `FuzzMeasurement`, the API `PlayerFuzz`
/// publishes its own figures with, so that both are measured the same way:
/// checked events per second against the real `Player` (repeated, median and
/// spread), each buggy player of the catalog over seeds 1…N, and exhaustive
/// exploration within a time budget.
enum FuzzBenchmark {
  static func run(_ options: Options, progress: (String) -> Void) -> FuzzFigures? {
    var figures = FuzzFigures()
    figures.secondsPerRun = options.smoke ? 0.05 : 2
    figures.caseBudget = options.smoke ? 2_000 : 100_000
    figures.jobs = min(64, max(1, ProcessInfo.processInfo.activeProcessorCount))
    progress(
      "fuzz throughput: \(options.runs) runs of \(figures.secondsPerRun) s on one thread"
        + (figures.jobs > 1 ? " and on \(figures.jobs)" : ""))
    for round in 0..<options.runs {
      let seed = options.seed &+ UInt64(round)
      // One thread, then every core (`--jobs`), in turn within a round so
      // that both see the same machine.
      for jobs in figures.jobs > 1 ? [1, figures.jobs] : [1] {
        let result = FuzzMeasurement.throughput(
          seconds: figures.secondsPerRun, seed: seed, jobs: jobs)
        if let failure = result.failure {
          // The real player failing its own harness is a finding, not a figure.
          progress(
            "warning: the fuzzer failed the real Player (seed \(seed), \(jobs) threads): "
              + "\(failure.property)")
        }
        if jobs == 1 {
          figures.checkedEventsPerSecond.add(result.eventsPerSecond)
        } else {
          figures.checkedEventsPerSecondAllCores.add(result.eventsPerSecond)
        }
      }
    }
    progress("buggy players: \(options.fuzzSeeds) seeds each")
    figures.players = FuzzMeasurement.buggyPlayers(
      seeds: options.fuzzSeeds, caseBudget: figures.caseBudget
    ).map { row in
      FuzzFigures.BuggyPlayer(
        name: row.player.name, minimalLength: row.player.minimalLength, seeds: row.seeds,
        missed: row.missed, milliseconds: row.medianMillisecondsToFailure,
        millisecondsToShrunk: row.medianMillisecondsToShrunk, cases: row.medianCases,
        shrunkLength: row.medianShrunkLength, seedsAtMinimalLength: row.seedsAtMinimalLength,
        seedsWithinOneOfMinimal: row.seedsWithinOneOfMinimal)
    }
    let budget = options.smoke ? 1.0 : 10.0
    progress("exhaustive exploration: at most \(budget) s")
    let exploration = FuzzMeasurement.exhaustive(seconds: budget)
    figures.exploration = FuzzFigures.Exploration(
      depth: exploration.depth, complete: exploration.complete, states: exploration.states,
      sequences: exploration.sequences, seconds: exploration.seconds, budget: budget,
      counterexample: exploration.counterexample.map { "\($0.property)" })
    return figures
  }
}
