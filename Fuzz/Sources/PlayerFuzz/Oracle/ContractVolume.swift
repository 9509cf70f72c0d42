package import PlayerState

// Volume, mute and ducking (issue 37), from docs/machine.md ("Volume, mute and
// ducking") and the volume spec, written without the reducer's rules, its
// `effectiveVolume` or its `Volume` arithmetic beyond the value type itself:
//
// - the effective volume is 0 while muted; while ducked with `.lower(to: l)`,
//   `(volume × l + 500) / 1000` in thousandths (rounded half up); else the user's;
// - the live loads are the current load unless it is stopped (failed, or waiting
//   for the network) and the preload unless it failed;
// - a change of the effective volume sends `setVolume(L, effective)` to each live
//   load, the current one first, as the event is applied (before the preload
//   rule); a transition that opens a load (`load`, `preload`) while the
//   effective volume is not 1 ends with that load's `setVolume`, since an engine
//   starts a new load at full volume;
// - a duck never touches the play intent nor the user's volume; with the
//   `.pause` policy it holds the engine as an interruption does (a `pause` if the
//   engine was told to play; no `start` until it ends; its end starts the engine
//   again if the user still wants to play and nothing else holds it);
// - `ducked` spans loads, queues, stop and clear; a snapshot keeps the user's
//   volume and mute, not the duck.

extension ContractModel {
  /// The volume every live load must play at (see the header of this file).
  package var effectiveVolume: Volume {
    if muted { return Volume(thousandths: 0) }
    if ducked, case .lower(let level) = ducking {
      let product = Int64(volume.thousandths) * Int64(level.thousandths)
      return Volume(thousandths: Int32(clamping: (product + 500) / 1000))
    }
    return volume
  }

  /// Whether a duck with the `.pause` policy holds the engine, as an interruption does.
  package var duckHolds: Bool { ducked && ducking == .pause }

  /// The current load while the engine may play it (not failed, not waiting
  /// for the network), or nil.
  package var liveCurrent: Load? {
    guard let current, !current.stage.isStopped else { return nil }
    return current.load
  }

  /// The preload unless it failed, or nil.
  package var livePreload: Load? {
    guard let preload, preload.stage != .failed else { return nil }
    return preload.load
  }

  /// Whether `load` is live (``liveCurrent`` or ``livePreload``).
  package func isLive(_ load: Load) -> Bool { load == liveCurrent || load == livePreload }

  /// `setVolume(v)`: refused out of 0…1, nothing to do at the same volume.
  func volumeIgnoreReason(_ level: Volume) -> IgnoreReason? {
    guard level.thousandths >= 0, level.thousandths <= 1000 else { return .invalidArgument }
    return level == volume ? .noEffect : nil
  }

  /// The intents of volume: the user's volume and mute (their commands come
  /// from ``sendVolumeChange(was:_:)``).
  mutating func setVolume(_ level: Volume) { volume = level }

  /// `setMuted(m)`.
  mutating func setMuted(_ value: Bool) { muted = value }

  /// A duck begins: the effective volume drops (`.lower`), or the engine is held
  /// as by an interruption (`.pause`): paused if it was told to play, the intent kept.
  mutating func duckBegan(_ out: inout [EngineCommand]) {
    // A hold stops the outgoing load of a crossfade at once (ContractCrossfade.swift).
    if ducking == .pause { stopCrossfade(&out) }
    if ducking == .pause, var session = current, session.fadingOut {
      // The hold ends a fade into a pause at once (ContractFade.swift).
      endFadeEarly(&session, &out)
      current = session
    } else if ducking == .pause, !interrupted, var session = current, playWhenReady,
      session.stage == .ready || session.stage == .stalled
    {
      if session.systemPaused {
        // The engine is silent already: the duck takes the system's pause over.
        session.systemPaused = false
      } else {
        out.append(.pause(session.load))
        session.started = false
      }
      current = session
    }
    ducked = true
  }

  /// A duck ends: the effective volume is restored (`.lower`), or the engine
  /// starts again if the user still wants to play and nothing else holds it
  /// (`.pause`, as the end of an interruption with the hint to resume).
  mutating func duckEnded(_ out: inout [EngineCommand]) {
    ducked = false
    guard ducking == .pause, !interrupted, var session = current, playWhenReady,
      !session.systemPaused, session.stage == .ready || session.stage == .stalled
    else { return }
    out.append(.start(session.load, rate: playingRate(of: session)))
    session.started = true
    current = session
  }

  /// A change of the effective volume by the event just applied (it was `was`):
  /// sent to each live load, the current one first, before the preload rule runs
  /// (a preload that rule opens is given the volume as it opens).
  mutating func sendVolumeChange(was: Volume, _ out: inout [EngineCommand]) {
    let now = effectiveVolume
    guard now != was else { return }
    // A load fading out into a pause targets 0: the fade's end sends it the
    // effective volume of then (ContractFade.swift).
    if let load = liveCurrent, current?.fadingOut != true { out.append(.setVolume(load, now)) }
    if let load = livePreload { out.append(.setVolume(load, now)) }
  }

  /// The end of an accepted event whose commands begin at `mark`: each load it
  /// opened (`load`, `preload`), still live and not given the volume since, gets
  /// the effective volume when that is not 1, as the transition's last commands.
  mutating func giveOpenedLoadsTheVolume(since mark: Int, _ out: inout [EngineCommand]) {
    let now = effectiveVolume
    guard now.thousandths != 1000, out.count > mark else { return }
    let end = out.count
    var index = mark
    while index < end {
      switch out[index] {
      case .load(let request), .preload(let request):
        if isLive(request.load), !Self.sets(request.load, in: out[(index + 1)..<end]) {
          out.append(.setVolume(request.load, now))
        }
      default: break
      }
      index += 1
    }
  }

  /// Whether `commands` set `load`'s volume.
  private static func sets(_ load: Load, in commands: ArraySlice<EngineCommand>) -> Bool {
    commands.contains { command in
      if case .setVolume(let named, _, _) = command { return named == load }
      return false
    }
  }
}

/// The engine's volume of each load, read off a command log (in the
/// contract's numbering): the newest `setVolume` sent to it, else the volume
/// a load starts at (1 for a load the log opened). The check behind
/// ``FuzzProperty/liveLoadsAtEffectiveVolume``, independent of the model's
/// commands: it reads what the player actually sent.
package enum EngineVolumes {
  /// The volume `load` plays at after `log[from...]`, or `initial` when
  /// nothing in that part of the log set it.
  package static func volume(
    of load: Load, in log: [EngineCommand], from start: Int = 0,
    initial: Volume = Volume(thousandths: 1000)
  ) -> Volume {
    var index = log.count
    while index > start {
      index -= 1
      if case .setVolume(let named, let level, _) = log[index], named == load { return level }
    }
    return initial
  }

  /// The first live load of `model` whose volume in `log` is not the model's
  /// effective volume, with that volume; nil when every live load plays at it.
  /// - Parameters:
  ///   - initial: the volume of a load the log did not open (a start state's
  ///     live load plays at the start state's effective volume).
  package static func mismatch(
    _ model: ContractModel, _ log: [EngineCommand], from start: Int = 0,
    initial: (Load) -> Volume = { _ in Volume(thousandths: 1000) }
  ) -> (load: Load, volume: Volume)? {
    let effective = model.effectiveVolume
    for load in [model.liveCurrent, model.livePreload].compactMap({ $0 }) {
      let heard = volume(of: load, in: log, from: start, initial: initial(load))
      // A load fading out (into a pause) targets 0 until the fade's end.
      let expected =
        load == model.liveCurrent && model.current?.fadingOut == true
        ? Volume(thousandths: 0) : effective
      if heard != expected { return (load, heard) }
    }
    if let leaving = model.leaving {
      // A load fading out into a stop targets 0 until its `stop`.
      let heard = volume(of: leaving.load, in: log, from: start, initial: initial(leaving.load))
      if heard.thousandths != 0 { return (leaving.load, heard) }
    }
    return nil
  }
}
