package import PlayerState

// The one place the core meets the machine's vocabulary (`Load`, `EngineCommand`,
// `EngineReport`, `SeekID`, `FailureReason`): when their shapes change, this file and
// `FailureMapping.reason(for:)` change, the rest of the core does not.

extension ItemCommand where Seek == SeekID {
  /// The item's part of a machine command: nil for `load`, `stop`, `setRate` and
  /// `setVolume`, which the shell
  /// performs itself.
  package init?(_ command: EngineCommand) {
    switch command {
    case .start: self = .start
    case .pause: self = .pause
    case .seek(_, let time, let seek): self = .seek(to: time.milliseconds, seek)
    case .load, .preload, .setRate, .stop, .setVolume: return nil
    }
  }
}

extension ItemSignal where Seek == SeekID {
  /// The report to send about `load`.
  /// - Parameter load: the load whose item produced the signal.
  /// - Returns: the engine report, with the failure's error mapped to a reason by
  ///   ``FailureMapping/reason(for:)`` and carried as ``FailureMapping/detail(for:)``.
  package func report(about load: Load) -> EngineReport {
    switch self {
    case .ready: .ready(load)
    case .stalled: .stalled(load)
    case .resumed: .resumed(load)
    case .seekCompleted(let seek): .seekCompleted(load, seek)
    case .reachedEnd: .reachedEnd(load)
    case .failed(let error):
      .failed(
        load, FailureMapping.reason(for: error), detail: FailureMapping.detail(for: error))
    case .pausedBySystem: .pausedBySystem(load)
    }
  }
}
