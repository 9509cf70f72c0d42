import PlayerState

/// What reducing `events` one at a time, in order, from a new player's state
/// gives: the state and every command. A run of the driver from several threads
/// must equal the serial replay of the order it processed the events in.
func serialReplay(_ events: [PlaybackEvent]) -> (state: PlaybackState, commands: [EngineCommand]) {
  var state = PlaybackState()
  var commands: [EngineCommand] = []
  for event in events {
    let transition = state.transition(on: event)
    commands += transition.commands
    state = transition.next
  }
  return (state, commands)
}
