import PlayerState

// MARK: Volume, mute and ducking (issue 37)

extension CaseRunner {
  /// Whether `event` is a duck's beginning or end.
  static func isDuck(_ event: PlaybackEvent) -> Bool {
    switch event {
    case .system(.duckBegan), .system(.duckEnded): true
    default: false
    }
  }

  /// The volume the engine gives `load` when the log has not set one: a
  /// start state's live load plays at the start state's effective volume (the
  /// harness's engine plays the part of the one that issued it); any other
  /// load starts at full volume.
  func initialVolume(of load: Load) -> Volume {
    guard life == 0, let start = caseSetup.start, load.token.rawValue <= start.issuedLoads,
      load == start.session?.load || load == start.preload?.load
    else { return Volume(thousandths: 1000) }
    return ContractModel(caseSetup).effectiveVolume
  }

  /// Volume's property a command divergence from `mark` (at `event`, whose
  /// base classification is `base`) breaks, if it is one:
  /// ``FuzzProperty/noStartWhileDuckPaused`` for a `start` the contract does
  /// not send while a `.pause` duck holds the engine;
  /// ``FuzzProperty/duckKeepsPlayIntent`` for a duck's end that does not start
  /// the engine again where the contract does (the intent was taken);
  /// ``FuzzProperty/userVolumeRestoredAfterDuck`` for a duck's end after which a
  /// live load plays at another volume than the effective one, and
  /// ``FuzzProperty/liveLoadsAtEffectiveVolume`` for any other step after which
  /// one does (read off the engine's log: ``EngineVolumes``), or whose first
  /// divergent command is a `setVolume`.
  func volumeProperty(_ event: PlaybackEvent, base: FuzzProperty, from mark: Int)
    -> FuzzProperty?
  {
    guard base == .commandsMatchContract || base == .startOnlyWhenReadyAndWanted else {
      return nil
    }
    var index = mark
    while index < expected.count, index < log.count, expected[index] == log[index] { index += 1 }
    if index < log.count, case .start = log[index], model.duckHolds {
      return .noStartWhileDuckPaused
    }
    if case .system(.duckEnded) = event, index < expected.count, case .start = expected[index],
      index >= log.count || log[index].kind != CommandKind.start
    {
      return .duckKeepsPlayIntent
    }
    let divergesOnVolume =
      (index < log.count && Self.isSetVolume(log[index]))
      || (index < expected.count && Self.isSetVolume(expected[index]))
    let mismatch = EngineVolumes.mismatch(model, log, from: life, initial: initialVolume(of:))
    guard divergesOnVolume || mismatch != nil else { return nil }
    if case .system(.duckEnded) = event { return .userVolumeRestoredAfterDuck }
    return .liveLoadsAtEffectiveVolume
  }

  /// Volume's property a difference between the player's observation `seen`
  /// and the model after a duck breaks, if it is one: the intent changed
  /// (``FuzzProperty/duckKeepsPlayIntent``: a `.pause` duck taken for a user's
  /// pause shows as paused where the contract is suppressed), or the user's
  /// volume did (``FuzzProperty/userVolumeRestoredAfterDuck``).
  func volumeProperty(_ event: PlaybackEvent?, seen: borrowing FuzzObservation)
    -> FuzzProperty?
  {
    guard let event, Self.isDuck(event) else { return nil }
    if let box = seen.box {
      if box.state.playWhenReady != model.playWhenReady { return .duckKeepsPlayIntent }
      if box.state.volume != model.volume { return .userVolumeRestoredAfterDuck }
      return nil
    }
    let intent: (StateKind) -> Bool? = { kind in
      switch kind {
      case .paused: false
      case .playing, .suppressed: true
      default: nil
      }
    }
    if let said = intent(seen.kind), let expected = intent(model.kind), said != expected {
      return .duckKeepsPlayIntent
    }
    return nil
  }

  private static func isSetVolume(_ command: EngineCommand) -> Bool {
    if case .setVolume = command { return true }
    return false
  }
}
