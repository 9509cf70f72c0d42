import PlayerState
import Testing

/// The load every fixture session holds: media A (item 1), token 2.
let a2 = Load(1, 2)

/// Idle after two loads, with an empty queue (one item issued).
let idle2 = PlaybackState(
  queue: PlayQueue(), session: nil, playWhenReady: true, issuedLoads: 2, issuedItems: 1)

/// The queue of one entry, A as item 1.
let queueOfA = PlayQueue(entries: [QueueEntry(item: ItemID(1), media: "A")], current: 0)

/// A state playing the queue `A` as load `A#2` (tokens issued: 2) with seek#1 and watchdog#1 issued.
func fixture(_ stage: EngineStage, play: Bool = true, seekPending: Bool = false) -> PlaybackState {
  let session = Session(
    load: a2, stage: stage, lastSeek: SeekID(1), seekPending: seekPending,
    lastWatchdog: WatchdogID(1))
  return PlaybackState(
    queue: queueOfA, session: session, playWhenReady: play, issuedLoads: 2, issuedItems: 1)
}

/// Names items from the states given, the first that knows each item wins.
func naming(_ states: PlaybackState...) -> (ItemID) -> MediaID? {
  { item in states.lazy.compactMap { $0.media(of: item) }.first }
}

/// A transition's commands and watchdog, printed with the media names of the
/// states before and after it.
func printed(_ transition: Transition, from state: PlaybackState) -> (
  commands: String, watchdog: String?
) {
  let name = naming(transition.next, state)
  return (
    transition.commands.description(naming: name),
    transition.watchdog?.description(naming: name)
  )
}

/// Runs events from a new player's idle state and returns the final state and
/// every command; checks that every state reached keeps the invariants.
func run(_ events: [PlaybackEvent], from start: PlaybackState = PlaybackState())
  -> (state: PlaybackState, commands: [String])
{
  var state = start
  var commands: [String] = []
  for event in events {
    let transition = state.transition(on: event)
    let name = naming(transition.next, state)
    commands += transition.commands.map { $0.description(naming: name) }
    #expect(transition.next.invariantViolation == nil, "after \(event)")
    state = transition.next
  }
  return (state, commands)
}

/// The queue `A B C` (items 1, 2, 3), `A` current.
let queueABC = PlayQueue(
  entries: [
    QueueEntry(item: ItemID(1), media: "A"), QueueEntry(item: ItemID(2), media: "B"),
    QueueEntry(item: ItemID(3), media: "C"),
  ], current: 0)

/// Idle with an empty queue, after two loads and three items.
let idleEmpty = PlaybackState(
  queue: PlayQueue(), session: nil, playWhenReady: true, issuedLoads: 2, issuedItems: 3)

/// Idle (stopped) with the queue `A B C`, `A` current.
let idleQueued = PlaybackState(
  queue: queueABC, session: nil, playWhenReady: true, issuedLoads: 2, issuedItems: 3)

/// The queue `A B C` playing `A` as `A#2`, 10 s in, seek#1 and watchdog#1 issued.
func queued(
  _ stage: EngineStage, play: Bool = true, seekPending: Bool = false, interrupted: Bool = false,
  systemPaused: Bool = false
) -> PlaybackState {
  let session = Session(
    load: a2, stage: stage, lastSeek: SeekID(1), seekPending: seekPending,
    lastWatchdog: WatchdogID(1), position: .seconds(10), systemPaused: systemPaused)
  return PlaybackState(
    queue: queueABC, session: session, playWhenReady: play, interrupted: interrupted,
    issuedLoads: 2, issuedItems: 3)
}

/// `B#3`: the preload of item 2 in ``preloading(_:play:)``.
let b3 = Load(2, 3)

/// The queue `A B C` on an engine that preloads: `A#2` ready, `B` preloading as `B#3`.
func preloading(_ stage: PreloadStage, play: Bool = true) -> PlaybackState {
  PlaybackState(
    queue: queueABC,
    session: Session(load: a2, stage: .ready, lastSeek: SeekID(1), lastWatchdog: WatchdogID(1)),
    preload: Preload(load: b3, stage: stage), playWhenReady: play,
    configuration: PlayerConfiguration(canPreload: true), issuedLoads: 3, issuedItems: 3)
}

/// Idle with the queue `A B C` (A current) after two loads: `resume` or `toggle` loads `A#3`.
let idleABC = PlaybackState(
  queue: queueABC, session: nil, playWhenReady: true, issuedLoads: 2, issuedItems: 3)

/// Runs `events` and returns each step printed: its commands (`, ` between
/// them), its timer, and why it was ignored; every state reached keeps the invariants.
func printedSteps(_ events: [PlaybackEvent], from start: PlaybackState)
  -> (state: PlaybackState, steps: [String])
{
  var state = start
  var printedSteps: [String] = []
  for event in events {
    let transition = state.transition(on: event)
    let name = naming(transition.next, state)
    var parts = [transition.commands.map { $0.description(naming: name) }.joined(separator: ", ")]
    if let watchdog = transition.watchdog { parts.append(watchdog.description(naming: name)) }
    if let ignored = transition.ignored { parts.append("ignored: \(ignored)") }
    printedSteps.append(parts.filter { !$0.isEmpty }.joined(separator: " "))
    #expect(transition.next.invariantViolation == nil, "after \(event)")
    state = transition.next
  }
  return (state, printedSteps)
}

/// The notifications of each step of `events`, printed with their source.
func notified(_ events: [PlaybackEvent], from start: PlaybackState)
  -> [String]
{
  var state = start
  var out: [String] = []
  for event in events {
    let transition = state.transition(on: event)
    let notes = Notifications(
      before: state, event: event, after: transition.next, ignored: transition.ignored)
    out += notes.map { "\($0) [\($0.source.rawValue)]" }
    state = transition.next
  }
  return out
}
