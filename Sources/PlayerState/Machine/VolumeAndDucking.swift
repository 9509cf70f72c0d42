// Volume, mute and ducking: the user's volume and mute, the system's duck, and
// the one volume every live load's engine is kept at (`effectiveVolume`). This
// is the only code that sends `setVolume`, and the only code that writes
// `volume`, `muted` or `ducked`. A duck under the `.pause` policy is a hold:
// the play gate pauses and starts the engine for it (`beginHold`, `endHold`)
// and reads it (`duckHolds`) exactly as it reads an interruption.
//
// The engine's volume is per load, and a new load starts at full volume in the
// engine, so two things keep every live load at the effective volume after
// every step: a change of it is sent to each live load (here), and a transition
// that opens a load ends with that load's `setVolume` (the post-pass, once,
// not in every opener).

extension PlaybackState {
  /// Whether a duck holds playback as an interruption does: one is in
  /// progress and the policy is ``DuckPolicy/pause``.
  var duckHolds: Bool {
    guard ducked, case .pause = configuration.ducking else { return false }
    return true
  }

  /// `setVolume`: a level outside 0…1 is refused; the user's volume is kept
  /// across loads, ducks and mutes, and sent when the effective volume changes.
  mutating func setVolume(_ newVolume: Volume, _ effects: inout Effects) -> IgnoreReason? {
    guard newVolume.isValid else { return .invalidArgument }
    guard newVolume != volume else { return .noEffect }
    let before = effectiveVolume
    volume = newVolume
    sendVolumeIfChanged(from: before, &effects)
    return nil
  }

  /// `setMuted`: the effective volume is 0 while muted; the user's volume is kept.
  mutating func setMuted(_ mute: Bool, _ effects: inout Effects) -> IgnoreReason? {
    guard mute != muted else { return .noEffect }
    let before = effectiveVolume
    muted = mute
    sendVolumeIfChanged(from: before, &effects)
    return nil
  }

  /// A duck began: lowered to the policy's level, or held as an interruption
  /// (the engine paused if it played). Never touches the play intent nor the
  /// user's volume.
  mutating func duckBegan(_ effects: inout Effects) -> IgnoreReason? {
    guard !ducked else { return .noEffect }
    let before = effectiveVolume
    // As an interruption: the engine's own pause and the duck arrive in either
    // order, so the duck takes a system pause over and its end decides.
    if case .pause = configuration.ducking { beginHold(&effects) }
    ducked = true
    sendVolumeIfChanged(from: before, &effects)
    return nil
  }

  /// A duck ended: the volume is restored (the user's, as it is now), or the
  /// engine starts again if the user still wants to play and nothing else holds
  /// it (as the end of an interruption with the hint to resume).
  mutating func duckEnded(_ effects: inout Effects) -> IgnoreReason? {
    guard ducked else { return .notDucked }
    let before = effectiveVolume
    ducked = false
    if case .pause = configuration.ducking { endHold(&effects) }
    sendVolumeIfChanged(from: before, &effects)
    return nil
  }

  /// Sends the effective volume to each live load, the current one first,
  /// when it is not `before`. A load fading out is left to its fade: its
  /// target is 0, and the fade's end sends it the effective volume of then.
  private func sendVolumeIfChanged(from before: Volume, _ effects: inout Effects) {
    let now = effectiveVolume
    guard now != before else { return }
    if let session, !session.stage.isStopped, !session.fadingOut {
      effects.commands.append(.setVolume(session.load, now))
    }
    if let preload, preload.isLive { effects.commands.append(.setVolume(preload.load, now)) }
  }

  /// The post-pass's part: a transition that opened a load (`load` or
  /// `preload`) while the effective volume is not 1 ends with that load's
  /// `setVolume`, since the engine opens every load at full volume.
  func setVolumeOfOpenedLoad(_ effects: inout Effects) {
    guard let load = effects.commands.openedLoad else { return }
    let volume = effectiveVolume
    if volume != .full { effects.commands.append(.setVolume(load, volume)) }
  }
}

extension Preload {
  /// Whether the engine holds this preload: buffering or ready (a failed or
  /// live one was stopped).
  var isLive: Bool { !stage.isStopped }
}
