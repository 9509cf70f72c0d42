import PlayerEngine
import PlayerState
import PlayerTesting

/// A deliberately broken adapter: a contract-keeping spy with one fault added,
/// so each test can name exactly which promise the fault must break.
final class FaultyEngine: PlaybackEngine {
  enum Fault: String, CaseIterable, Sendable, CustomStringConvertible {
    /// Every load is answered `ready` twice.
    case answersTwice
    /// Loads are never answered.
    case neverAnswers
    /// `ready` names the token plus 100.
    case mislabelsToken
    /// `seekCompleted` names the seek id plus 1.
    case mislabelsSeek
    /// The first `stop` of a live load is followed, later, by `reachedEnd` for it.
    case reportsAfterStop
    /// A single-slot adapter: any `stop` stops whatever load is current.
    case stopStopsCurrent

    var description: String { rawValue }
  }

  private struct State {
    var live: Set<Load> = []
    var current: Load?
    var late: [(EngineReport, ReportSink)] = []
  }

  let fault: Fault
  private let inner = SpyEngine.conforming(.later)
  private let state = Locked(State())

  init(_ fault: Fault) { self.fault = fault }

  func execute(_ command: EngineCommand, reports: ReportSink) {
    let sink = ReportSink { [fault] report in reports.send(Self.relabel(report, fault)) }
    switch (fault, command) {
    case (.neverAnswers, .load):
      return
    case (.answersTwice, .load(let load)):
      inner.execute(command, reports: sink)
      sink.send(.ready(load))
    case (.reportsAfterStop, .load(let load)):
      state.withLock { _ = $0.live.insert(load) }
      inner.execute(command, reports: sink)
    case (.reportsAfterStop, .stop(let load)):
      inner.execute(command, reports: sink)
      state.withLock { state in
        if state.live.remove(load) != nil { state.late.append((.reachedEnd(load), sink)) }
      }
    case (.stopStopsCurrent, .load(let load)):
      state.withLock { $0.current = load }
      inner.execute(command, reports: sink)
    case (.stopStopsCurrent, .stop):
      let current = state.withLock { state in
        defer { state.current = nil }
        return state.current
      }
      if let current { inner.execute(.stop(current), reports: sink) }
    default:
      inner.execute(command, reports: sink)
    }
  }

  /// Delivers queued replies and late reports; false when nothing was due.
  func step() -> Bool {
    let late = state.withLock { state in
      defer { state.late.removeAll() }
      return state.late
    }
    let pending = inner.pendingCount
    inner.deliverPending()
    for (report, sink) in late { sink.send(report) }
    return pending > 0 || !late.isEmpty
  }

  private static func relabel(_ report: EngineReport, _ fault: Fault) -> EngineReport {
    switch (fault, report) {
    case (.mislabelsToken, .ready(let load)):
      .ready(Load(media: load.media, token: LoadToken(load.token.rawValue + 100)))
    case (.mislabelsSeek, .seekCompleted(let load, let seek)):
      .seekCompleted(load, SeekID(seek.rawValue + 1))
    default:
      report
    }
  }
}
