/// One promise of the engine contract that ``EngineConformance`` checks.
///
/// The raw value is the promise's name, as printed in a ``ConformanceReport``:
/// `loadAnsweredOnce`, `noReportAfterStop`… Cases are listed in the order the
/// kit checks them.
public enum EnginePromise: String, CaseIterable, Hashable, Sendable, Codable,
  CustomStringConvertible
{
  /// `execute` returns within the timeout: it never blocks waiting for a report.
  case executeReturnsPromptly
  /// Every load is answered with exactly one `ready` or `failed` for its load: not
  /// none, not two, no `ready` after a `failed` (a `failed` after `ready` is a
  /// later failure, and allowed once).
  case loadAnsweredOnce
  /// Every report names a load that was issued: its token was loaded, with that media.
  case reportNamesIssuedLoad
  /// Nothing is reported for a load once its `stop` has returned.
  case noReportAfterStop
  /// A command sent from inside the engine's own report callback, on the reporting
  /// thread, is executed and returns. A ``PlayerEngine/Player`` does exactly this
  /// whenever a report arrives while no other thread is driving it: the engine
  /// must not hold a lock of its own while it reports.
  case commandFromReportCallback
  /// Every `seekCompleted` carries a seek id the load was sent, and the newest
  /// seek of a load completes with its own id.
  case seekCompletionCarriesSeekID
  /// A load stopped while still buffering never reports `ready` (or anything)
  /// afterwards, and the engine answers the next load.
  case stopDuringBufferingStops
  /// Commands naming a load that was never issued return, report nothing, and
  /// leave the engine working.
  case unknownLoadHarmless
  /// Commands naming a load that was already stopped return, report nothing for
  /// it, and leave the current load working (its seek still completes).
  case stoppedLoadHarmless
  /// A load of media the engine cannot play is answered with `failed`, not
  /// `ready`. Checked only when the configuration names unplayable media.
  case unplayableMediaFails

  /// The promise's name, as in `noReportAfterStop`.
  public var description: String { rawValue }
}

/// One broken promise, with what the kit saw.
public struct ConformanceViolation: Hashable, Sendable, CustomStringConvertible {
  /// The promise the engine broke.
  public let promise: EnginePromise
  /// What happened, in the compact forms of commands and reports, as in
  /// `ready(media#3) after stop(media#3) returned`.
  public let detail: String

  /// A violation.
  /// - Parameters:
  ///   - promise: the promise broken.
  ///   - detail: what happened.
  public init(_ promise: EnginePromise, _ detail: String) {
    self.promise = promise
    self.detail = detail
  }

  /// `noReportAfterStop: ready(media#3) after stop(media#3) returned`.
  public var description: String { "\(promise): \(detail)" }
}

/// The outcome of running ``EngineConformance`` against an engine: which
/// promises were checked, which were broken and how.
///
/// ```swift
/// let report = await EngineConformance(configuration).run(against: MyEngine())
/// #expect(report.broken == [], "\(report)")
/// ```
public struct ConformanceReport: Hashable, Sendable, CustomStringConvertible {
  /// Every broken promise observation, in the order the kit saw them.
  public var violations: [ConformanceViolation] = []
  /// The promises the kit exercised, in check order.
  public var checked: [EnginePromise] = []
  /// Promises the kit could not exercise, with why (for example, the engine
  /// answered the playable media with `failed`, so there was nothing to seek).
  public var skipped: [EnginePromise: String] = [:]
  /// The commands the kit sent and the reports it received, in order, in their
  /// compact forms (`load(media#1)`, `ready(media#1)`, …): the evidence.
  public var transcript: [String] = []

  /// An empty report.
  public init() {}

  /// The broken promises, each once, in ``EnginePromise`` declaration order.
  public var broken: [EnginePromise] {
    let names = Set(violations.map(\.promise))
    return EnginePromise.allCases.filter(names.contains)
  }

  /// The broken promises' names, as in `["noReportAfterStop"]`.
  public var brokenNames: [String] { broken.map(\.rawValue) }

  /// True when no promise was broken and none was skipped.
  public var conforms: Bool { violations.isEmpty && skipped.isEmpty }

  /// A few lines: the verdict, then each violation and each skipped promise.
  public var description: String {
    var lines: [String] = []
    if violations.isEmpty {
      lines.append("conforms: \(checked.count) promises kept")
    } else {
      lines.append("broken: \(brokenNames.joined(separator: ", "))")
      lines += violations.map { "  \($0)" }
    }
    for promise in EnginePromise.allCases {
      if let reason = skipped[promise] { lines.append("  skipped \(promise): \(reason)") }
    }
    return lines.joined(separator: "\n")
  }

  mutating func record(_ violation: ConformanceViolation) {
    violations.append(violation)
  }
}
