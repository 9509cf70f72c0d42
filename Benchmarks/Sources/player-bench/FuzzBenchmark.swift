/// Runs the fuzz figures. Nil (printed as "pending") until `PlayerFuzz` on
/// main offers its runner; see the report for what it will measure.
enum FuzzBenchmark {
  static func run(_ options: Options, progress: (String) -> Void) -> FuzzFigures? { nil }
}
