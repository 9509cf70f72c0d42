public import PlayerState

/// Why the current entry failed, as a model publishes it
/// (``PlayerViewState/error``): the entry, the class the machine acted on,
/// and the engine's own error when it gave one.
public struct PlaybackFailure: Error, Hashable, Sendable, CustomStringConvertible {
  /// The entry that failed.
  public let entry: QueueEntry?
  /// The class of the failure: `network`, `decoding`, `timeout`…
  public let reason: FailureReason
  /// The engine's own error (domain, code, message), if it gave one.
  public let detail: FailureDetail?

  /// A failure.
  public init(entry: QueueEntry?, reason: FailureReason, detail: FailureDetail?) {
    self.entry = entry
    self.reason = reason
    self.detail = detail
  }

  /// The failure of `state`'s current load, if it is failed.
  init?(_ state: PlaybackState) {
    guard case .failed(let reason) = state.session?.stage else { return nil }
    self.init(entry: state.currentEntry, reason: reason, detail: state.failure)
  }

  /// `A failed: network`, then the engine's error if any.
  public var description: String {
    let entry = entry.map(\.media.description) ?? "none"
    let detail = detail.map { " (\($0))" } ?? ""
    return "\(entry) failed: \(reason)\(detail)"
  }
}
