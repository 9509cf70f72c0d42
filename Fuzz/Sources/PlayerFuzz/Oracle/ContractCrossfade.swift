import PlayerState

// Crossfade (issue 37, item 3), from docs/machine.md "Crossfade", written
// without the reducer's rules:
//
// - the crossfade is `PlayerConfiguration.crossfade` (0: off); off, nothing
//   below applies;
// - it starts at an accepted `position(L, p)` of the current load when: `L` is
//   ready and the engine plays it (the user wants to play, nothing holds it),
//   its duration `D` is known with `D ≥ 2d`, `D − p ≤ d × rate`, the next entry
//   in play order is another entry (not repeat one), its preload `P` is ready,
//   no sleep timer stops at this entry's end, no seek of `L` is pending, no load
//   is leaving already, the effective volume is above 0, and `L` has a timer id
//   left;
// - the start promotes `P` (current entry, ready, at 0, started) and keeps `L`
//   leaving with its next timer id: `setVolume(P, 0)`, `start(P, rate)`,
//   `setVolume(P, v, ramp d)`, `setVolume(L, 0, ramp d)`; a count of entries
//   counts `L`'s entry here; `entryChanged(A -> B, auto)` here (ContractControls);
// - `L` gets one `stop`: at its `ended`, its `failed` (the machine stops every
//   failed load) or its timer, whichever first (ContractFade's `leavingReported`);
//   any other report about it, and any after its `stop`, is `staleLoad`. The
//   same holds for a stop's fade;
// - no preload while `L` leaves; the step that ends it issues it;
// - every opener (a new queue, `play`, next, previous or jump that loads,
//   `remove` of the current entry, `clear`, `retry`, a reload) stops `L`
//   first; `pause` (the user's, `toggle`'s, the sleep countdown's), `stop`,
//   an interruption, a `.pause` duck and route loss stop `L` at once, then act
//   on `P`; `reachedEnd(P)` stops `L` first, then ends `P` as usual; anything
//   else (a seek, volume, a stall or failure of `P`, edits that keep `P`
//   current, `setRate`) leaves `L` to its fade.

extension ContractModel {
  /// Whether a crossfade is under way: a load leaves beside the current one
  /// (a stop's fade leaves only while idle).
  package var crossfading: Bool { leaving != nil && current != nil }

  /// The entry a position report at `time` of `session` crossfades into, or
  /// nil when it does not start a crossfade ("When it starts").
  func crossfadeTarget(_ session: Current, at time: Int64) -> Int? {
    guard crossfade > 0, leaving == nil, session.stage == .ready, session.started,
      !session.fadingOut, !session.seekPending, !session.systemPaused, playWhenReady,
      !suppressed, session.lastWatchdog < UInt32.max, effectiveVolume.thousandths > 0,
      let duration = session.duration, duration >= 2 * crossfade,
      (duration - time) * 1000 <= crossfade * Int64(rate.thousandths),
      repeatMode != .one, !sleepStopsHere, let at = position, let next = after(at), next != at,
      let preload, preload.stage == .ready, preload.load.item == entries[next].item
    else { return nil }
    return next
  }

  /// The step that starts a crossfade from `session` into the preload of the
  /// entry at `next`: the preload is promoted and started silent, ramps up,
  /// and `session` ramps down, leaving with its next timer id.
  mutating func startCrossfade(from session: Current, into next: Int, _ out: inout [EngineCommand])
  {
    guard let preload else { return }
    let ramp = Duration.milliseconds(crossfade)
    out.append(.setVolume(preload.load, Volume(thousandths: 0)))
    out.append(.start(preload.load, rate: rate))  // a preload is never live (ContractLive.swift)
    out.append(.setVolume(preload.load, effectiveVolume, ramp: ramp))
    out.append(.setVolume(session.load, Volume(thousandths: 0), ramp: ramp))
    // A count of entries counts the outgoing entry here, not at its `ended`.
    countSleepEnd(stopping: false)
    left = session.load
    leaving = FadingOut(load: session.load, timer: session.lastWatchdog + 1)
    self.preload = nil
    position = next
    current = Current(
      load: preload.load, stage: .ready, lastSeek: 0, seekPending: false, lastWatchdog: 0,
      started: true, position: 0, duration: preload.duration)
  }

  /// Stops the outgoing load of a crossfade at once (an opener, a pause, a
  /// stop, a hold of the system, the end of the incoming load); nothing while
  /// idle, where a stop's fade goes on unless a load opens.
  mutating func stopCrossfade(_ out: inout [EngineCommand]) {
    guard crossfading else { return }
    stopLeaving(&out)
  }

  /// The delay of the leaving load's timer: the crossfade's beside a current
  /// load, the fade's while idle.
  var leavingDelay: Int64 { current != nil ? crossfade : fade }
}
