import PlayerState
import Testing

/// The load every fixture session holds: media A, token 2.
let a2 = Load("A", 2)

/// Idle after two loads.
let idle2 = PlaybackState(session: nil, issuedLoads: 2)

/// A state holding `A#2` (tokens issued: 2) with seek#1 and watchdog#1 issued.
func fixture(_ stage: EngineStage, play: Bool = true, seekPending: Bool = false) -> PlaybackState {
  let session = Session(
    load: a2, stage: stage, playWhenReady: play, lastSeek: SeekID(1), seekPending: seekPending,
    lastWatchdog: WatchdogID(1))
  return PlaybackState(session: session, issuedLoads: 2)
}

/// Runs events from a new player's idle state and returns the final state and every command.
func run(_ events: [PlaybackEvent], from start: PlaybackState = PlaybackState())
  -> (state: PlaybackState, commands: [String])
{
  var state = start
  var commands: [String] = []
  for event in events {
    let transition = state.transition(on: event)
    commands += transition.commands.map(\.description)
    state = transition.next
  }
  return (state, commands)
}
