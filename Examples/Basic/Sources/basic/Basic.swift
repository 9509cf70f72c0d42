// The smallest complete integration: an engine adapter (BackendEngine) over
// a callback library (FakeBackend), the Player driving it, and this program
// observing the state while it plays, seeks, pauses, resumes, reaches the
// end, fails to open missing media, and stops; then plays a queue of three
// (the machine advances at each end; `next` skips ahead) and clears it. It
// prints every state change (with the queue, in the queue part);
// its output is the same on every run (CI compares it with expected-output.txt).

import Foundation
import PlayerEngine
import PlayerState

@main
struct Basic {
  static func main() async {
    let player = Player(
      engine: BackendEngine(backend: FakeBackend(duration: 300)),
      watchdog: .dispatch(timeout: .seconds(5)))
    var states = player.stateChanges().makeAsyncIterator()

    await printStates(&states, of: player, until: "the first state") { _ in true }
    await send(.play("song"), to: player, &states, until: "playing") { $0.kind == .playing }
    await send(.seek(to: .milliseconds(100)), to: player, &states, until: "the seek's end") {
      $0.kind == .playing && !$0.description.contains("seek#")
    }
    await send(.pause, to: player, &states, until: "paused") { $0.kind == .paused }
    await send(.resume, to: player, &states, until: "the end") { $0.kind == .ended }
    await send(.stop, to: player, &states, until: "idle") { $0.kind == .idle }
    await send(.play("missing-song"), to: player, &states, until: "the failure") {
      $0.kind == .failed
    }
    await send(.stop, to: player, &states, until: "idle") { $0.kind == .idle }

    // The queue: the machine owns it, and advances when an entry ends.
    await send(.replaceQueue(["intro", "verse", "outro"]), to: player, &states, until: "verse") {
      $0.kind == .playing && $0.queue.currentEntry?.media == "verse"
    }
    await send(.next, to: player, &states, until: "the end of the queue") { $0.kind == .ended }
    await send(.clear, to: player, &states, until: "an empty queue") { $0.queue.entries.isEmpty }
    print("done: \(player.statistics.processed) events processed")
  }

  /// Sends an intent, then prints the states it leads to until `done`.
  static func send(
    _ intent: UserIntent, to player: Player, _ states: inout AsyncStream<PlaybackState>.Iterator,
    until what: String, _ done: @Sendable (PlaybackState) -> Bool
  ) async {
    print("> \(intent)")
    player.send(.user(intent))
    await printStates(&states, of: player, until: what, done)
  }

  /// Prints state changes until one satisfies `done`; exits with a one-line
  /// error if that takes more than five seconds.
  static func printStates(
    _ states: inout AsyncStream<PlaybackState>.Iterator, of player: Player, until what: String,
    _ done: @Sendable (PlaybackState) -> Bool
  ) async {
    let deadline = Task {
      try await Task.sleep(for: .seconds(5))
      FileHandle.standardError.write(
        Data("basic: no \(what) within 5 s; the state is \(player.state)\n".utf8))
      exit(1)
    }
    defer { deadline.cancel() }
    while let state = await states.next() {
      // The queue is shown once it holds more than one entry: `intro verse* outro`.
      print(state.queue.entries.count > 1 ? "  \(state)  queue: \(state.queue)" : "  \(state)")
      if done(state) { return }
    }
  }
}
