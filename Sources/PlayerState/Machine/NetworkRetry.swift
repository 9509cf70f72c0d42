// Waiting for the network: a load that failed for want of it is stopped and
// waits for `networkAvailable` or its backoff timer, then reloads at its last
// known position under a new token, as ``RetryPolicy`` says.

extension PlaybackState {
  /// `networkLost` while buffering or stalled: the load waits as if it had failed.
  mutating func networkLost(_ effects: inout Effects) -> IgnoreReason? {
    guard let session, session.stage == .buffering || session.stage == .stalled else {
      return .noEffect
    }
    return waitForNetwork(session, nil, &effects)
  }

  /// `networkAvailable`: a waiting load reloads now.
  mutating func networkAvailable(_ effects: inout Effects) -> IgnoreReason? {
    guard session?.stage == .waitingForNetwork else { return .noEffect }
    return reloadAfterWaiting(&effects)
  }

  /// A load failed for want of the network: wait (stop it, arm the backoff)
  /// if the policy allows another reload, or fail with `network`.
  mutating func waitForNetwork(
    _ failed: Session, _ detail: FailureDetail?, _ effects: inout Effects
  ) -> IgnoreReason? {
    var session = failed
    if session.networkAttempts < configuration.retry.attempts {
      let backoff = configuration.retry.wait(before: session.networkAttempts + 1)
      guard let timer = session.arm(.networkBackoff, wait: backoff) else { return .idsExhausted }
      session.stage = .waitingForNetwork
      effects.commands.append(.stop(session.load))
      effects.watchdog = timer
    } else {
      effects.commands.append(.stop(session.load))
      session.stage = .failed(.network)
    }
    session.seekPending = false
    failure = detail
    self.session = session
    return nil
  }

  /// The network is back or the backoff expired: a new load of the same entry
  /// at its last known position, one more attempt counted.
  mutating func reloadAfterWaiting(_ effects: inout Effects) -> IgnoreReason? {
    guard let waiting = session else { return .unexpected }
    guard tokenAvailable else { return .idsExhausted }
    session = nil
    // A live load reloads at its edge: its old position has left the window.
    if waiting.window != nil {
      _ = enterCurrent(from: .zero, atLiveEdge: true, &effects)
    } else {
      _ = enterCurrent(from: waiting.position, &effects)
    }
    // Saturating: a decoded state may sit at the counter's end.
    let attempts = waiting.networkAttempts
    session?.networkAttempts = attempts == .max ? attempts : attempts + 1
    return nil
  }
}
