import PlayerEngine
import PlayerState
import PlayerTesting

/// A deliberately broken adapter: a contract-keeping spy with one fault added,
/// so each test can name exactly which promise the fault must break.
///
/// Faults whose names start with `preload` or `position` declare the
/// `.preload` capability, so the kit checks the preload promises; the engine
/// then reports `position(L, 0ms)` once, later, after every `start(L)` of a
/// live load, as a real back end's position timer does (and, keeping the
/// contract, drops it if `L` is stopped first).
final class FaultyEngine: PlaybackEngine {
  enum Fault: String, CaseIterable, Sendable, CustomStringConvertible {
    /// No fault, and no `.preload` capability.
    case none
    /// No fault, with the `.preload` capability.
    case preloadsCorrectly
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
    /// A preload is answered `ready` under the current load's identity.
    case preloadAnsweredAsCurrent
    /// A single-slot adapter: `preload` replaces the current load.
    case preloadReplacesCurrent
    /// A preload reports `position(P, 0ms)` as soon as it is ready, before its `start`.
    case positionForUnstartedPreload
    /// A single-slot adapter's position timer: positions name the last load
    /// sent with `load`, so after the switch to a preload they name the stopped load.
    case positionNamesLastLoad
    /// A stopped preload reports `ready` again, later.
    case preloadReportsAfterStop

    var description: String { rawValue }
  }

  private struct State {
    var live: Set<Load> = []
    var current: Load?
    /// Loads sent `load` or `preload` and not stopped: the ones positions may name.
    var playable: Set<Load> = []
    var lastLoaded: Load?
    var late: [(EngineReport, ReportSink)] = []
  }

  let fault: Fault
  let capabilities: EngineCapabilities
  private let inner = SpyEngine.conforming(.later)
  private let state = Locked(State())

  init(_ fault: Fault) {
    self.fault = fault
    let preloads = fault.rawValue.hasPrefix("preload") || fault.rawValue.hasPrefix("position")
    capabilities = preloads ? .preload : []
  }

  func execute(_ command: EngineCommand, reports: ReportSink) {
    let sink = ReportSink { [fault] report in reports.send(Self.relabel(report, fault)) }
    if capabilities.contains(.preload) { trackPositions(command) }
    switch (fault, command) {
    case (.neverAnswers, .load):
      return
    case (.answersTwice, .load(let request)):
      inner.execute(command, reports: sink)
      sink.send(.ready(request.load))
    case (.reportsAfterStop, .load(let request)):
      state.withLock { _ = $0.live.insert(request.load) }
      inner.execute(command, reports: sink)
    case (.reportsAfterStop, .stop(let load)):
      inner.execute(command, reports: sink)
      state.withLock { state in
        if state.live.remove(load) != nil { state.late.append((.reachedEnd(load), sink)) }
      }
    case (.stopStopsCurrent, .load(let request)), (.preloadReplacesCurrent, .load(let request)):
      state.withLock { $0.current = request.load }
      inner.execute(command, reports: sink)
    case (.stopStopsCurrent, .stop):
      let current = state.withLock { state in
        defer { state.current = nil }
        return state.current
      }
      if let current { inner.execute(.stop(current), reports: sink) }
    case (.preloadReplacesCurrent, .preload(let request)):
      let current = state.withLock { state in
        defer { state.current = request.load }
        return state.current
      }
      if let current { inner.execute(.stop(current), reports: sink) }
      inner.execute(command, reports: sink)
    case (.preloadAnsweredAsCurrent, .preload):
      if let current = state.withLock({ $0.current }) {
        state.withLock { $0.late.append((EngineReport.ready(current), sink)) }
      }
    case (.positionForUnstartedPreload, .preload(let request)):
      inner.execute(command, reports: sink)
      state.withLock { $0.late.append((EngineReport.position(request.load, .zero), sink)) }
    case (.preloadReportsAfterStop, .preload(let request)):
      state.withLock { _ = $0.live.insert(request.load) }
      inner.execute(command, reports: sink)
    case (.preloadReportsAfterStop, .stop(let load)):
      inner.execute(command, reports: sink)
      state.withLock { state in
        if state.live.remove(load) != nil { state.late.append((.ready(load), sink)) }
      }
    case (_, .start(let load, _)) where capabilities.contains(.preload):
      inner.execute(command, reports: sink)
      state.withLock { state in
        guard state.playable.contains(load) else { return }
        state.current = load
        let named = fault == .positionNamesLastLoad ? state.lastLoaded ?? load : load
        state.late.append((EngineReport.position(named, .zero), sink))
      }
    default:
      if case .load(let request) = command { state.withLock { $0.current = request.load } }
      inner.execute(command, reports: sink)
    }
  }

  /// Keeps the loads positions may name; a stop drops the load's pending position.
  private func trackPositions(_ command: EngineCommand) {
    state.withLock { state in
      switch command {
      case .load(let request):
        state.playable.insert(request.load)
        state.lastLoaded = request.load
      case .preload(let request):
        state.playable.insert(request.load)
      case .stop(let load):
        state.playable.remove(load)
        state.late.removeAll { late in
          if case .position(load, _) = late.0 { return true }
          return false
        }
      case .start, .setRate, .pause, .seek, .setVolume:
        break
      }
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
    case (.mislabelsToken, .ready(let load, let duration)):
      .ready(Load(item: load.item, token: LoadToken(load.token.rawValue + 100)), duration: duration)
    case (.mislabelsSeek, .seekCompleted(let load, let seek)):
      .seekCompleted(load, SeekID(seek.rawValue + 1))
    default:
      report
    }
  }
}
