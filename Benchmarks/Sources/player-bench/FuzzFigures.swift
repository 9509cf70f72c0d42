/// What the fuzz harness costs and how fast it finds each buggy player's bug.
struct FuzzFigures {
  /// One buggy player of the catalog, over several seeds.
  struct BuggyPlayer {
    var name: String
    /// The length of the shortest failing case, as the catalog declares it.
    var minimalLength: Int
    /// Milliseconds to the first failing case (shrinking excluded), per seed that found it.
    var milliseconds = Sample()
    /// Cases run up to and including the first failing one, per seed that found it.
    var cases = Sample()
    /// Actions in the shrunk counterexample, per seed that found it.
    var shrunkLength = Sample()
    /// Milliseconds spent shrinking, per seed that found it.
    var shrinkMilliseconds = Sample()
    /// Seeds that found no failure within the case budget.
    var missed = 0
  }

  /// Events checked against the oracle per second, fuzzing the real `Player`.
  var checkedEventsPerSecond = Sample()
  /// Cases per run for the checked-events figure.
  var casesPerRun = 0
  /// The case budget per seed for the buggy players.
  var caseBudget = 0
  var players: [BuggyPlayer] = []
  /// Exhaustive exploration of the real `Player` within a time budget.
  var exploration: Exploration?

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
}
