public import PlayerEngine
public import PlayerState

/// The engine the harness gives each player under test: it records every
/// command, and sends the reports the fuzz case scripts from inside
/// `execute` (re-entrantly) when asked to.
///
/// Thread-safe; the single-threaded runner only ever has one caller at a time.
public final class FuzzEngine: PlaybackEngine {
  struct Log {
    var commands: [EngineCommand] = []
    /// Reports armed by ``FuzzAction/reentrant(_:)``, sent inside the next `execute`.
    var armed: [EngineReport] = []
    /// Reports sent from inside `execute`, in sending order.
    var sent: [EngineReport] = []
  }

  private let log = Locked(Log())

  /// `.preload` when the engine was made with `canPreload`, otherwise none.
  public let capabilities: EngineCapabilities

  /// An engine with an empty log.
  /// - Parameter canPreload: whether it declares the `.preload` capability.
  public init(canPreload: Bool = false) {
    capabilities = canPreload ? .preload : []
    log.withLock {
      $0.commands.reserveCapacity(64)
      $0.sent.reserveCapacity(8)
    }
  }

  /// Records the command, then sends every armed report through `reports`.
  public func execute(_ command: EngineCommand, reports: ReportSink) {
    let due = log.withLock { log -> [EngineReport] in
      log.commands.append(command)
      guard !log.armed.isEmpty else { return [] }
      let due = log.armed
      log.armed.removeAll(keepingCapacity: true)
      log.sent.append(contentsOf: due)
      return due
    }
    for report in due { reports.send(report) }
  }

  /// The commands received since the harness last collected them (the
  /// harness's ``CaseRunner/log`` holds the whole case), in order.
  public var commands: [EngineCommand] { log.withLock { $0.commands } }

  /// Arms a report to be sent from inside the next `execute`.
  func arm(_ report: EngineReport) { log.withLock { $0.armed.append(report) } }

  /// Takes the armed reports that no command fired.
  func takeArmed() -> [EngineReport] {
    log.withLock { log in
      defer { log.armed.removeAll(keepingCapacity: true) }
      return log.armed
    }
  }

  /// Moves the commands and the re-entrant reports recorded since the last
  /// call into the caller's buffers (which must be empty), without copying.
  func drain(commands: inout [EngineCommand], sent: inout [EngineReport]) {
    log.withLock { log in
      swap(&log.commands, &commands)
      swap(&log.sent, &sent)
    }
  }
}
