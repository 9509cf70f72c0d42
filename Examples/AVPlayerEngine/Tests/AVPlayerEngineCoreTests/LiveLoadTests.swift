import AVPlayerEngineCore
import PlayerState
import Testing

/// No report after stop, with one remembered load instead of a set of stopped ones.
@Suite struct LiveLoadTests {
  @Test func onlyTheLiveLoadReports() {
    var live = LiveLoad<Load>()
    #expect(!live.admits(Load("A", 1)))
    live.loaded(Load("A", 1))
    #expect(live.admits(Load("A", 1)))
    #expect(!live.admits(Load("A", 2)))
    #expect(!live.admits(Load("B", 1)))
    live.stopped(Load("A", 1))
    #expect(!live.admits(Load("A", 1)))
    #expect(live.current == nil)
  }

  @Test func aNewLoadEndsTheOldOneAndAStaleStopChangesNothing() {
    var live = LiveLoad<Load>()
    live.loaded(Load("A", 1))
    live.loaded(Load("B", 2))
    #expect(!live.admits(Load("A", 1)))
    live.stopped(Load("A", 1))
    #expect(live.current == Load("B", 2))
  }
}
