import MiniPlayer
import PlayerEngine
import PlayerFuzz
import PlayerState

/// The adapter the harness drives: SingleItemPlayer as a `FuzzTarget`.
final class SingleItemTarget: FuzzTarget, Sendable {
  let player: SingleItemPlayer

  init(engine: any PlaybackEngine, bug: SingleItemPlayer.Bug?) {
    // The harness's clock for the watchdogs; after each event, why it was ignored
    // (compared with the contract's reason) and, in the concurrent mode, the event.
    let reduced = FuzzEngine.onReduced(for: engine)
    let processed = FuzzEngine.onProcessed(for: engine)
    player = SingleItemPlayer(
      engine: engine, watchdog: FuzzEngine.watchdog(for: engine), bug: bug,
      onStep: { event, ignored in
        reduced?(ignored)
        processed?(event)
      })
  }

  func send(_ event: PlaybackEvent) { player.send(event) }

  var observation: FuzzObservation {
    let state = player.state
    let session = state.session
    // A queue of at most one entry, repeat off, not shuffled.
    let queue = FuzzObservation.fingerprint(
      items: state.entry.map { [$0.item] } ?? [], current: state.entry == nil ? nil : 0,
      repeatMode: .off, shuffleSeed: nil)
    return FuzzObservation(
      kind: state.kind, isPlaying: state.isPlaying, seekPending: session?.seekPending ?? false,
      queue: queue, loads: (session?.load, nil), position: session?.position,
      preloadReady: false, failure: .some(session?.failure))
  }

  var stateDescription: String {
    let state = player.state
    let load = state.session.map { ", \($0.load), seek#\($0.lastSeek)" } ?? ""
    return "\(state.kind)\(load)\(state.playWhenReady ? "" : ", paused")"
  }

  /// The whole state, so that the explorer merges equal states (renamed by role).
  var snapshot: AnyHashable? { SingleItemSnapshot(state: player.state) }
}

/// SingleItemPlayer's state in the explorer's canonical form: every field its
/// future behaviour depends on, ids renamed by the role they play.
struct SingleItemSnapshot: ExplorableSnapshot {
  var state: SingleItemPlayer.State

  func canonicalize(into key: inout [Int32], _ renaming: ExplorationRenaming) {
    key.append(state.entry.map { renaming.item($0.item) } ?? -1)
    key += [state.playWhenReady ? 1 : 0, renaming.rate(state.rate)]
    key.append(renaming.token(LoadToken(state.issuedLoads)))
    guard let session = state.session else { return key.append(-1) }
    renaming.append(session.load, to: &key)
    switch session.stage {
    case .buffering: key.append(0)
    case .ready: key.append(1)
    case .stalled: key.append(2)
    case .ended: key.append(3)
    case .failed(let reason): key += [4, renaming.reason(reason)]
    }
    key += [
      renaming.counter(session.lastSeek), session.seekPending ? 1 : 0,
      renaming.counter(session.lastWatchdog), renaming.time(session.position),
      renaming.time(session.duration), renaming.detail(session.failure),
    ]
  }
}

/// The subjects, named so that a printed Swift test can name them back.
enum SingleItemSubjects {
  static let player = FuzzSubject.threadSafe(
    name: "SingleItemPlayer", swiftExpression: "SingleItemSubjects.player",
    make: { engine in SingleItemTarget(engine: engine, bug: nil) })

  static let buggy = FuzzSubject.threadSafe(
    name: "SingleItemPlayer(matchesReportsByItem)", swiftExpression: "SingleItemSubjects.buggy",
    make: { engine in SingleItemTarget(engine: engine, bug: .matchesReportsByItem) })
}
