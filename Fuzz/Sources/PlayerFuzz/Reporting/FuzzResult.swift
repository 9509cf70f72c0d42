/// What a random run found.
public struct FuzzResult: Sendable, CustomStringConvertible {
  /// The subject's name.
  public var subject: String
  /// The configuration it ran with.
  public var configuration: FuzzConfiguration
  /// Cases run, including the failing one.
  public var cases: Int
  /// Events checked (each one against every property).
  public var events: Int
  /// Seconds spent generating, running and checking (shrinking excluded).
  public var seconds: Double
  /// Seconds spent shrinking.
  public var shrinkSeconds: Double
  /// The first failure, shrunk, or nil.
  public var failure: FuzzFailure?
  /// What the run exercised.
  public var coverage: FuzzCoverage
  /// What the player left unsaid in some step (``FuzzObservable``): checked
  /// through the engine's commands only, never compared directly.
  public var notCompared: [FuzzObservable] = []

  /// Checked events per second.
  public var eventsPerSecond: Double { seconds > 0 ? Double(events) / seconds : 0 }

  /// Whether the run passed: no failure and, if required, full coverage.
  public var passed: Bool {
    failure == nil && (!configuration.requireFullCoverage || coverage.isFull)
  }

  /// A summary; the failure's full report when there is one.
  public var description: String {
    var lines = [
      "fuzz \(subject): seed \(configuration.seed), \(cases) cases, \(events) events in "
        + "\(Self.format(seconds)) s (\(Int(eventsPerSecond)) events/s), swarm \(configuration.swarm ? "on" : "off")"
        // Only a run of part of the contract says which part: a whole run's line stays as it was.
        + (configuration.features == .all ? "" : ", features \(configuration.features)")
    ]
    if !notCompared.isEmpty {
      lines.append(
        "not compared (the player does not say them): "
          + notCompared.map(\.rawValue).joined(separator: ", "))
    }
    if let failure {
      lines.append(failure.report)
    } else if configuration.requireFullCoverage, !coverage.isFull {
      let rows = coverage.unexercised
      let gaps = coverage.unsent
      if !rows.isEmpty { lines.append("FAILED: declared transitions never exercised:") }
      lines += rows.map { "  \($0)" }
      if !gaps.isEmpty {
        lines.append("FAILED: never sent although available (state × event × variant):")
      }
      lines += gaps.map { "  \($0)" }
    } else {
      lines.append(
        "passed: every property held; \(coverage.exercisedCount) of \(coverage.exercisedCount + coverage.unexercised.count) declared transitions exercised"
      )
    }
    return lines.joined(separator: "\n")
  }

  static func format(_ seconds: Double) -> String {
    let scaled = (seconds * 1000).rounded() / 1000
    return String(scaled)
  }
}
