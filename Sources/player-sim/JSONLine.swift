import PlayerFuzz
import PlayerSimulation

/// A JSON value written with our own key order and no spaces: the `--json`
/// lines of `fuzz` and `explore` (docs/player-sim.md lists their keys).
///
/// Each line is an object with exactly one key that says what it is:
/// `progress`, `failure` or `result` (or `expect_failed` for `run`).
///
/// A seed or a case index is a ``seed(_:)`` or ``caseIndex(_:)``: a string of
/// decimal digits, never a JSON number, which jq and JavaScript read as a
/// double and round past 2^53.
indirect enum JSONValue {
  case string(String)
  case int(Int)
  case double(Double)
  case bool(Bool)
  case null
  case array([JSONValue])
  case object([(String, JSONValue)])

  /// The value as JSON text, on one line.
  var text: String {
    switch self {
    case .string(let text): return JSONText.string(text)
    case .int(let value): return String(value)
    case .double(let value):
      guard value.isFinite else { return "null" }
      return String((value * 1000).rounded() / 1000)
    case .bool(let value): return value ? "true" : "false"
    case .null: return "null"
    case .array(let values): return "[" + values.map(\.text).joined(separator: ",") + "]"
    case .object(let pairs):
      return "{" + pairs.map { JSONText.string($0.0) + ":" + $0.1.text }.joined(separator: ",")
        + "}"
    }
  }

  /// A 64-bit seed, exact: `"7996932702728811589"`.
  static func seed(_ value: UInt64) -> JSONValue { .string(String(value)) }

  /// A case index, exact: `"1658"`.
  static func caseIndex(_ value: Int) -> JSONValue { .string(String(value)) }

  /// A line: `{"kind":{…}}`.
  static func line(_ kind: String, _ pairs: [(String, JSONValue)]) -> String {
    JSONValue.object([(kind, .object(pairs))]).text
  }

  /// A failure found by `fuzz`, `fuzz --replay` or `explore`: the property,
  /// where it came from, the minimal actions (saved-failure lines), the
  /// timeline's lines and the full report.
  static func failure(_ failure: FuzzFailure) -> String {
    var seed: JSONValue = .null
    var caseIndex: JSONValue = .null
    if case .random(let value, let index, _) = failure.origin {
      seed = .seed(value)
      caseIndex = .caseIndex(index)
    }
    return line(
      "failure",
      [
        ("subject", .string(failure.subject)),
        ("property", .string(failure.property.rawValue)),
        ("summary", .string(failure.property.summary)),
        ("origin", .string(failure.origin.description)),
        ("seed", seed),
        ("case", caseIndex),
        ("violation", .string(failure.violation.description)),
        // The engine line, then the actions with loads named `MEDIA#TOKEN`: a saved failure.
        (
          "actions",
          .array(([failure.fuzzCase.header] + failure.fuzzCase.lines).map { .string($0) })
        ),
        ("original_length", .int(failure.original.count)),
        ("timeline", .array(failure.timeline.split(separator: "\n").map { .string(String($0)) })),
        ("test", .string(failure.swiftTest)),
      ])
  }
}
