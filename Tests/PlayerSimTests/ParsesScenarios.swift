import PlayerSimulation

/// A suite that parses scripts named `t.play`: their actions, or the error
/// message a bad one gives.
protocol ParsesScenarios {}

extension ParsesScenarios {
  /// The actions of `text`, parsed as `t.play`.
  func parse(_ text: String) throws(ScenarioError) -> [ScenarioAction] {
    try ScenarioParser.parse(text, file: "t.play").steps.map(\.action)
  }

  /// The error `text` gives as `t.play`, or "no error".
  func message(_ text: String) -> String {
    do {
      _ = try ScenarioParser.parse(text, file: "t.play")
      return "no error"
    } catch {
      return error.description
    }
  }
}
