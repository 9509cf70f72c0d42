public import PlayerState

/// One broken promise, with what the kit saw.
public struct ConformanceViolation: Hashable, Sendable, CustomStringConvertible {
  /// The promise the engine broke.
  public let promise: EnginePromise
  /// What happened, in the compact forms of commands and reports, as in
  /// `load(media#1) got no ready or failed within 5.0 seconds`.
  public let detail: String

  /// A violation.
  /// - Parameters:
  ///   - promise: the promise broken.
  ///   - detail: what happened.
  public init(_ promise: EnginePromise, _ detail: String) {
    self.promise = promise
    self.detail = detail
  }

  /// `loadAnswered: load(media#1) got no ready or failed within 5.0 seconds`.
  public var description: String { "\(promise): \(detail)" }
}

/// A breach the machine absorbs, counted: how often the kit saw it and the
/// first time, as evidence.
public struct ConformanceNote: Hashable, Sendable, CustomStringConvertible {
  /// What the engine did.
  public let breach: AbsorbedBreach
  /// How many times the kit saw it.
  public var count: Int
  /// The first occurrence, as in `ready(media#3) after stop(media#3) returned`.
  public let first: String

  /// A note.
  /// - Parameters:
  ///   - breach: what the engine did.
  ///   - count: how many times.
  ///   - first: the first occurrence.
  public init(_ breach: AbsorbedBreach, count: Int, first: String) {
    self.breach = breach
    self.count = count
    self.first = first
  }

  /// `reportAfterStop ×2, first: ready(media#3) after stop(media#3) returned`.
  public var description: String { "\(breach) ×\(count), first: \(first)" }
}

/// The outcome of running ``EngineConformance`` against an engine: which
/// promises were checked, which were broken and how, and the breaches the
/// machine absorbs, counted.
///
/// ```swift
/// let report = await EngineConformance(configuration).run(against: MyEngine())
/// #expect(report.broken == [], "\(report)")
/// ```
public struct ConformanceReport: Hashable, Sendable, CustomStringConvertible {
  /// Every broken promise observation, in the order the kit saw them.
  public var violations: [ConformanceViolation] = []
  /// The absorbed breaches, one note per kind, in ``AbsorbedBreach``
  /// declaration order. They do not fail the engine.
  public var notes: [ConformanceNote] = []
  /// The promises the kit exercised, in check order: ``EnginePromise`` declaration order.
  public var checked: [EnginePromise] = []
  /// Promises the kit could not exercise, with why (for example, the engine
  /// answered the playable media with `failed`, so there was nothing to seek).
  public var skipped: [EnginePromise: String] = [:]
  /// Every `failed` report of a load the kit issued and had not stopped, in arrival
  /// order, as the engine sent it: with its ``PlayerState/FailureDetail`` (domain, code,
  /// message), if the engine gave one, which is what an app can show. The kit passes it
  /// through untouched; whether an engine gives details is not a promise.
  public var failures: [EngineReport] = []
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

  /// The broken promises' names, as in `["loadAnswered"]`.
  public var brokenNames: [String] { broken.map(\.rawValue) }

  /// How many times each absorbed breach was seen, as in `[.reportAfterStop: 2]`.
  public var absorbed: [AbsorbedBreach: Int] {
    Dictionary(uniqueKeysWithValues: notes.map { ($0.breach, $0.count) })
  }

  /// True when no promise was broken and none was skipped. Notes do not count:
  /// an engine that reports late after `stop` conforms.
  public var conforms: Bool { violations.isEmpty && skipped.isEmpty }

  /// A few lines: the verdict, each violation, each skipped promise, then
  /// each note.
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
    if !notes.isEmpty {
      lines.append("notes (absorbed by the machine, not failures):")
      lines += notes.map { "  \($0)" }
    }
    return lines.joined(separator: "\n")
  }

  /// Lists a promise as checked, once, in declaration order (the order the kit checks
  /// them): a passive check (``EnginePromise/windowIsWellFormed``) may be exercised
  /// first during an earlier check.
  mutating func markChecked(_ promise: EnginePromise) {
    guard !checked.contains(promise) else { return }
    checked.insert(promise, at: checked.firstIndex { $0.order > promise.order } ?? checked.endIndex)
  }

  mutating func record(_ violation: ConformanceViolation) {
    violations.append(violation)
  }

  mutating func note(_ breach: AbsorbedBreach, _ detail: String) {
    if let index = notes.firstIndex(where: { $0.breach == breach }) {
      notes[index].count += 1
      return
    }
    notes.append(ConformanceNote(breach, count: 1, first: detail))
    notes.sort { $0.breach.order < $1.breach.order }
  }
}

extension AbsorbedBreach {
  /// The position in declaration order.
  fileprivate var order: Int { Self.allCases.firstIndex(of: self) ?? 0 }
}

extension EnginePromise {
  /// The position in declaration order.
  fileprivate var order: Int { Self.allCases.firstIndex(of: self) ?? 0 }
}
