extension Duration {
  /// The duration in whole milliseconds, truncated toward zero; saturates instead of overflowing.
  var wholeMilliseconds: Int64 {
    let (seconds, attoseconds) = components
    let (milliseconds, overflow) = seconds.multipliedReportingOverflow(by: 1000)
    if overflow { return seconds < 0 ? .min : .max }
    let (total, overflowAgain) = milliseconds.addingReportingOverflow(
      attoseconds / 1_000_000_000_000_000)
    return overflowAgain ? (milliseconds < 0 ? .min : .max) : total
  }
}

extension Int64 {
  /// `self + other`, clamped to `Int64`'s range instead of overflowing.
  func addingSaturated(_ other: Int64) -> Int64 {
    let (sum, overflow) = addingReportingOverflow(other)
    if !overflow { return sum }
    return other < 0 ? .min : .max
  }
}

/// Formats virtual times the way scripts write them and timelines show them.
enum SimulatedTime {
  /// `250ms`, `5s`, `1.5s`: the script spelling of a whole number of milliseconds.
  static func scriptText(milliseconds: Int64) -> String {
    if milliseconds != 0, milliseconds % 1000 == 0 { return "\(milliseconds / 1000)s" }
    if milliseconds > 1000, milliseconds % 100 == 0 {
      return "\(milliseconds / 1000).\(milliseconds % 1000 / 100)s"
    }
    return "\(milliseconds)ms"
  }

  /// `0.250s`, `12.000s`: fixed three decimals, for timeline columns.
  static func clockText(milliseconds: Int64) -> String {
    let sign = milliseconds < 0 ? "-" : ""
    let magnitude = milliseconds.magnitude
    let fraction = String(magnitude % 1000)
    let padded = String(repeating: "0", count: 3 - fraction.count) + fraction
    return "\(sign)\(magnitude / 1000).\(padded)s"
  }
}
