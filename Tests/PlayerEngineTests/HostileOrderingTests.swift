import PlayerEngine
import PlayerState
import PlayerTesting
import Testing

// Loads are item + token: each `play` makes a new queue entry (a new item id),
// so A played again after a stop is item 2, like B played second.
private let a1 = Load(1, 1)
private let a2 = Load(2, 2)
private let b2 = Load(2, 2)

/// The orderings that break naive players, each asserted on the final state
/// and on the spy engine's full command log.
@Suite("Hostile orderings")
struct HostileOrderingTests {
  @Test func lateReadyAfterStopDoesNotStart() {
    let spy = SpyEngine()
    let player = Player(engine: spy)
    player.send(.play("A"))
    player.send(.stop)
    spy.report(.ready(a1))
    #expect(player.state.description == "idle")
    #expect(spy.commandLog == ["load(A#1)", "stop(A#1)"])
  }

  @Test func lateReadyAfterSwitchingMediaDoesNotStartTheNewLoad() {
    let spy = SpyEngine()
    let player = Player(engine: spy)
    player.send(.play("A"))
    player.send(.play("B"))
    spy.report(.ready(a1))
    #expect(player.state.description == "buffering(B#2, autoplay)")
    #expect(spy.commandLog == ["load(A#1)", "stop(A#1)", "load(B#2)"])
  }

  @Test func lateReadyOfTheSameMediaLoadedAgainIsToldApartByToken() {
    let spy = SpyEngine()
    let player = Player(engine: spy)
    player.send(.play("A"))
    player.send(.stop)
    player.send(.play("A"))
    spy.report(.ready(a1))
    #expect(player.state.description == "buffering(A#2, autoplay)")
    #expect(spy.commandLog == ["load(A#1)", "stop(A#1)", "load(A#2)"])
    spy.report(.ready(a2))
    #expect(player.state.description == "playing(A#2)")
    #expect(spy.commandLog == ["load(A#1)", "stop(A#1)", "load(A#2)", "start(A#2)"])
  }

  @Test func duplicateReadyStartsOnce() {
    let spy = SpyEngine()
    let player = Player(engine: spy)
    player.send(.play("A"))
    spy.report(.ready(a1))
    spy.report(.ready(a1))
    #expect(player.state.description == "playing(A#1)")
    #expect(spy.commandLog == ["load(A#1)", "start(A#1)"])
    #expect(player.statistics.ignoredReports == 1)
  }

  @Test func pauseWhileBufferingIsNotLostWhenReadyArrives() {
    let spy = SpyEngine()
    let player = Player(engine: spy)
    player.send(.play("A"))
    player.send(.pause)
    spy.report(.ready(a1))
    #expect(player.state.description == "paused(A#1)")
    #expect(spy.commandLog == ["load(A#1)"])
  }

  @Test func endFailureAndStallFromAnEarlierLoadAreIgnoredWhileTheNewOnePlays() {
    let spy = SpyEngine()
    let player = Player(engine: spy)
    player.send(.play("A"))
    player.send(.play("B"))
    spy.report(.ready(b2))
    spy.report(.reachedEnd(a1))
    spy.report(.failed(a1, .network))
    spy.report(.stalled(a1))
    #expect(player.state.description == "playing(B#2)")
    #expect(spy.commandLog == ["load(A#1)", "stop(A#1)", "load(B#2)", "start(B#2)"])
    #expect(player.statistics.ignoredReports == 3)
  }

  @Test func queuedCallbacksDeliveredAfterStopAreIgnored() {
    let spy = SpyEngine.cooperative(.later)
    let player = Player(engine: spy)
    player.send(.play("A"))
    player.send(.stop)
    #expect(spy.pendingCount == 1)
    spy.deliverPending()
    #expect(player.state.description == "idle")
    #expect(spy.commandLog == ["load(A#1)", "stop(A#1)"])
  }

  @Test func forgedAndNeverIssuedReportsAreIgnored() {
    let spy = SpyEngine()
    let player = Player(engine: spy)
    player.send(.play("A"))
    spy.report(.ready(Load(2, 1)))  // the current token, another item: never issued
    spy.report(.ready(Load(1, 7)))  // the current item, a token never issued
    #expect(player.state.description == "buffering(A#1, autoplay)")
    #expect(spy.commandLog == ["load(A#1)"])
  }
}
