/// What the fuzz harness costs and how fast it finds each buggy player's bug,
/// as `PlayerFuzz.FuzzMeasurement` measures it.
struct FuzzFigures {
  /// One buggy player of the catalog, over several seeds: medians over the
  /// seeds that found the bug.
  struct BuggyPlayer {
    var name: String
    /// The length of the shortest failing case, as the catalog declares it.
    var minimalLength: Int
    var seeds: Int
    /// Seeds that found no failure within the case budget.
    var missed: Int
    /// Milliseconds to the first failing case.
    var milliseconds: Double
    /// Milliseconds to the first failing case plus shrinking it.
    var millisecondsToShrunk: Double
    /// Cases run up to and including the first failing one.
    var cases: Double
    /// Actions in the shrunk counterexample.
    var shrunkLength: Double
    /// Seeds whose shrunk case has the minimal length.
    var seedsAtMinimalLength: Int
    /// Seeds whose shrunk case is at most one action above the minimal length.
    var seedsWithinOneOfMinimal: Int
  }

  /// What `Explorer.explore` reached in its time budget.
  struct Exploration {
    /// The deepest level fully explored.
    var depth: Int
    /// Whether the last level found no new state (the search is then a proof at any depth).
    var complete: Bool
    var states: Int
    var sequences: Int
    var seconds: Double
    /// The time budget it was given.
    var budget: Double
    /// The property it broke, if any (a finding about the real player).
    var counterexample: String?
  }

  /// Events checked against the oracle per second, fuzzing the real `Player`
  /// on one thread, per run.
  var checkedEventsPerSecond = Sample()
  /// The same with ``jobs`` threads at once (every core), per run; empty on
  /// a one-core machine.
  var checkedEventsPerSecondAllCores = Sample()
  /// Threads of the all-cores runs: the machine's active processor count.
  var jobs = 1
  /// Seconds per throughput run.
  var secondsPerRun = 0.0
  /// The case budget per seed for the buggy players.
  var caseBudget = 0
  var players: [BuggyPlayer] = []
  /// Exhaustive exploration of the real `Player` within a time budget.
  var exploration: Exploration?
}
