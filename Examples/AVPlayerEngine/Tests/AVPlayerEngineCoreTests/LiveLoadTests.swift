import AVPlayerEngineCore
import PlayerState
import Testing

/// No report after stop, with one remembered load instead of a set of stopped ones.
@Suite struct LiveLoadTests {
  @Test func onlyTheLiveLoadReports() {
    var live = LiveLoad<Load>()
    #expect(!live.admits(Load(1, 1)))
    live.loaded(Load(1, 1))
    #expect(live.admits(Load(1, 1)))
    #expect(!live.admits(Load(1, 2)))
    #expect(!live.admits(Load(2, 1)))
    live.stopped(Load(1, 1))
    #expect(!live.admits(Load(1, 1)))
    #expect(live.current == nil)
  }

  @Test func aNewLoadEndsTheOldOneAndAStaleStopChangesNothing() {
    var live = LiveLoad<Load>()
    live.loaded(Load(1, 1))
    live.loaded(Load(2, 2))
    #expect(!live.admits(Load(1, 1)))
    live.stopped(Load(1, 1))
    #expect(live.current == Load(2, 2))
  }

  /// A preload is live beside the current load; a newer preload replaces it; a load ends both.
  @Test func aPreloadIsLiveBesideTheCurrentLoad() {
    var live = LiveLoad<Load>()
    live.loaded(Load(1, 1))
    live.preloaded(Load(2, 2))
    #expect(live.admits(Load(1, 1)) && live.admits(Load(2, 2)))
    live.preloaded(Load(3, 3))
    #expect(live.live == [Load(1, 1), Load(3, 3)])
    live.stopped(Load(1, 1))
    #expect(live.live == [Load(3, 3)])
    live.loaded(Load(4, 4))
    #expect(live.live == [Load(4, 4)])
  }
}
