/// What the fuzz harness costs and how fast it finds each buggy player's bug.
struct FuzzFigures {
  /// One buggy player of the catalog, over several seeds.
  struct BuggyPlayer {
    var name: String
    /// Milliseconds to the first failing case, per seed.
    var milliseconds = Sample()
    /// Cases run up to and including the first failing one, per seed.
    var cases = Sample()
    /// Events in the shrunk counterexample, per seed.
    var shrunkLength = Sample()
    /// Seeds that found no failure within the case budget.
    var missed = 0
  }

  /// Events checked against the oracle per second, while fuzzing the correct player.
  var checkedEventsPerSecond = Sample()
  var players: [BuggyPlayer] = []
  /// The deepest exhaustive exploration completed within the time budget, if measured.
  var exhaustiveDepth: Int?
}

/// Runs the fuzz figures. Nil while the fuzz library offers no usable API.
enum FuzzBenchmark {
  static func run(_ options: Options) -> FuzzFigures? { nil }
}
