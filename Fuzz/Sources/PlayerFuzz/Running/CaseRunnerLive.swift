import PlayerState

// MARK: Live streams (issue 38)

extension CaseRunner {
  /// Live streams' property a command divergence from `mark` at `event`
  /// breaks, if it is one (docs/machine.md, "Live and DVR streams"):
  /// ``FuzzProperty/seekInsideLiveWindow`` for a seek of the live load outside
  /// its window; ``FuzzProperty/fellBehindReloadsAtEdgeOnce`` for a reload at
  /// the edge missing, not at the edge, or made again at a report the contract
  /// ignores; ``FuzzProperty/liveEdgeAtRealTime`` for a `start` or `setRate`
  /// above 1x of a live load at its edge, or the 1x it needed missing;
  /// ``FuzzProperty/noPreloadBesideLiveLoad`` for a preload beside a live load,
  /// or the stop of the preload a window called for missing.
  func liveProperty(_ event: PlaybackEvent, _ arrival: Arrival, from mark: Int) -> FuzzProperty? {
    var index = mark
    while index < expected.count, index < log.count, expected[index] == log[index] { index += 1 }
    let sent = log[min(index, log.count)...]
    let wanted = expected[min(index, expected.count)...]
    let session = model.current
    if let session, let window = session.window {
      for command in sent {
        if case .seek(let load, let time, _) = command, load == session.load,
          !window.isSeekable || !window.contains(time)
        {
          return .seekInsideLiveWindow
        }
      }
    }
    let reloads = { (commands: ArraySlice<EngineCommand>) in
      commands.filter { command in
        if case .load(let request) = command { return request.atLiveEdge }
        return false
      }
    }
    // A reload at the edge the contract expects, missing or made another way.
    if let reload = reloads(wanted).first, !sent.contains(reload) {
      return .fellBehindReloadsAtEdgeOnce
    }
    // A load at a report the contract ignores: an old load's late report reloading twice.
    if !arrival.accepted, event.intent == nil, sent.contains(where: { $0.kind == .load }) {
      switch event {
      case .engine(.window), .engine(.position), .engine(.failed(_, .behindLiveWindow, _)):
        return .fellBehindReloadsAtEdgeOnce
      default: break
      }
    }
    if let session, session.window != nil {
      let atEdge = model.playingRate(of: session) == .normal && model.rate > .normal
      for command in sent {
        switch command {
        case .start(let load, let rate), .setRate(let load, let rate):
          if load == session.load, atEdge, rate > .normal { return .liveEdgeAtRealTime }
        default: continue
        }
      }
      if atEdge, wanted.contains(.setRate(session.load, .normal)),
        !sent.contains(.setRate(session.load, .normal))
      {
        return .liveEdgeAtRealTime
      }
      if sent.contains(where: { $0.kind == .preload }) { return .noPreloadBesideLiveLoad }
    }
    if case .engine(.window) = event, arrival.accepted,
      wanted.contains(where: { $0.kind == .stop }), !sent.contains(where: { $0.kind == .stop })
    {
      return .noPreloadBesideLiveLoad
    }
    return nil
  }
}
