import PlayerEngine
import PlayerState
import PlayerTesting
import Testing

/// The queue bugs reported against peer libraries, each driven through the
/// real `Player` and a spy engine, asserted on the final state and on the
/// engine's whole command log.
@Suite("Queue through the driver: the bug classes peers ship")
struct QueueDriverTests {
  /// An app that advanced its own queue on `ended` ended up playing the old
  /// list's next item when the user had just chosen a new list. Here the old
  /// entry's end arrives after the new list was chosen: it names a load that is
  /// gone, so it is ignored, and the new list plays from its first entry.
  @Test func aLateEndAfterANewListNeverAdvancesTheOldList() {
    let spy = SpyEngine()
    let player = Player(engine: spy)
    player.send(.queue(["C", "D"], start: 1))
    spy.report(.ready(Load(2, 1)))
    player.send(.queue(["E", "F"]))
    spy.report(.reachedEnd(Load(2, 1)))  // D's end, late
    spy.report(.ready(Load(3, 2)))
    #expect(player.state.description == "playing(E#2)")
    #expect(player.state.queue.description == "E* F")
    #expect(spy.commandLog == ["load(D#1)", "start(D#1)", "stop(D#1)", "load(E#2)", "start(E#2)"])
    #expect(player.statistics.ignoredReports == 1)
  }

  /// Repeat one replays with a seek and a start in the same transition as the
  /// end (no timer, no "two frames later"); the engine's duplicated end, from
  /// before the seek, does not replay it twice.
  @Test func repeatOneReplaysOnceInOneTransition() {
    let spy = SpyEngine()
    let player = Player(engine: spy)
    player.send(.queue(["A", "B"]))
    player.send(.user(.setRepeat(.one)))
    spy.report(.ready(Load(1, 1)))
    spy.report(.reachedEnd(Load(1, 1)))
    spy.report(.reachedEnd(Load(1, 1)))  // duplicated by the engine
    #expect(player.state.description == "playing(A#1, seek#1)")
    #expect(spy.commandLog == ["load(A#1)", "start(A#1)", "seek(A#1, 0ms, seek#1)", "start(A#1)"])
    spy.report(.seekCompleted(Load(1, 1), SeekID(1)))
    #expect(player.state.description == "playing(A#1)")
  }

  /// With two entries, next and previous pick the other entry every time, and
  /// a late `ready` of the entry left behind never starts it.
  @Test func nextAndPreviousWithTwoEntriesPickTheOtherEntry() {
    let spy = SpyEngine.cooperative(.later)
    let player = Player(engine: spy)
    player.send(.queue(["A", "B"]))
    player.send(.next)
    player.send(.previous)
    spy.deliverPending()  // ready(A#1), ready(B#2), ready(A#3): only A#3 is current
    #expect(player.state.description == "playing(A#3)")
    #expect(player.state.queue.description == "A* B")
    #expect(
      spy.commandLog == [
        "load(A#1)", "stop(A#1)", "load(B#2)", "stop(B#2)", "load(A#3)", "start(A#3)",
      ])
    #expect(player.statistics.ignoredReports == 2)
  }

  /// An engine that reports the end from inside `start` (a zero-length item):
  /// the driver queues the report and advances once the transition's commands
  /// have run, never recursively and never twice.
  @Test func anEndReportedFromInsideExecuteAdvancesOnce() {
    let spy = SpyEngine { command in
      switch command {
      case .load(let request): [SpyEngine.Reply(.ready(request.load), .immediately)]
      case .start(let load, _): [SpyEngine.Reply(.reachedEnd(load), .immediately)]
      case .preload, .setRate, .pause, .seek, .stop, .setVolume: []
      }
    }
    let player = Player(engine: spy)
    player.send(.queue(["A", "B"]))
    #expect(player.state.description == "ended(B#2, autoplay)")
    #expect(
      spy.commandLog == ["load(A#1)", "start(A#1)", "stop(A#1)", "load(B#2)", "start(B#2)"])
  }

  /// The same media twice in a queue is two entries: the second plays under
  /// its own item and token, and the first one's late reports cannot touch it.
  @Test func theSameMediaTwiceIsTwoEntries() {
    let spy = SpyEngine()
    let player = Player(engine: spy)
    player.send(.queue(["A", "A"]))
    spy.report(.ready(Load(1, 1)))
    spy.report(.reachedEnd(Load(1, 1)))
    spy.report(.ready(Load(1, 1)))  // the first entry's late duplicate
    spy.report(.ready(Load(1, 2)))  // a forgery: the new token with the first entry's item
    #expect(player.state.description == "buffering(A#2, autoplay)")
    #expect(player.state.queue.description == "A A*")
    #expect(player.statistics.ignoredReports == 2)
    spy.report(.ready(Load(2, 2)))
    #expect(player.state.description == "playing(A#2)")
    #expect(
      spy.commandLog == ["load(A#1)", "start(A#1)", "stop(A#1)", "load(A#2)", "start(A#2)"])
  }

  /// Removing the current entry while it loads stops it and loads the entry
  /// that takes its place; the removed load's late `ready` is ignored. On an
  /// engine that preloads, a preload dropped by an edit is stopped, and its
  /// late `ready` is ignored too.
  @Test func editsWhileLoadingStopWhatTheyDrop() {
    let spy = SpyEngine(capabilities: [.preload])
    let player = Player(engine: spy)
    player.send(.queue(["A", "B", "C"]))
    player.send(.user(.remove(at: 0)))
    spy.report(.ready(Load(1, 1)))  // A's late ready
    spy.report(.ready(Load(2, 2)))
    player.send(.user(.move(from: 1, to: 0)))  // C before B: B has no next entry
    spy.report(.ready(Load(3, 3)))  // the dropped preload's late ready
    #expect(player.state.description == "playing(B#2)")
    #expect(player.state.queue.description == "C B*")
    #expect(
      spy.commandLog == [
        "load(A#1)", "stop(A#1)", "load(B#2)", "start(B#2)", "preload(C#3)", "stop(C#3)",
      ])
    #expect(player.statistics.ignoredReports == 2)
  }
}
