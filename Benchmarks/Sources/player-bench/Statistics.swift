/// Repeated measurements of one figure: the median and the spread.
struct Sample {
  private(set) var values: [Double] = []

  mutating func add(_ value: Double) { values.append(value) }

  var median: Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
  }

  var min: Double { values.min() ?? .nan }
  var max: Double { values.max() ?? .nan }

  /// The spread as a percentage of the median: (max − min) / median.
  var spreadPercent: Double { median > 0 ? (max - min) / median * 100 : .nan }
}

extension Duration {
  /// The duration in seconds, as a `Double`.
  var seconds: Double {
    let (seconds, attoseconds) = components
    return Double(seconds) + Double(attoseconds) * 1e-18
  }
}

/// Times `body` with the continuous clock and returns events per second.
func eventsPerSecond(_ count: Int, _ body: () -> Void) -> Double {
  let clock = ContinuousClock()
  let elapsed = clock.measure(body)
  return Double(count) / elapsed.seconds
}
