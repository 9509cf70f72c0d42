import PlayerEngine
import PlayerState
import PlayerTesting
import Testing

/// The README's system example ("The system: interruptions, a lost output, the
/// network"), replayed: if this test fails, the output written in that
/// example's comments is wrong too.
@Suite("The README's system example")
struct ReadmeSystemTests {
  @Test func theCommentsShowWhatTheEngineGets() {
    let spy = SpyEngine { command in
      guard case .load(let request) = command else { return [] }
      return [SpyEngine.Reply(.ready(request.load), .immediately)]
    }
    let radio = Player(engine: spy)
    radio.send(.play("news.m3u8"))
    #expect(spy.commands.map(\.description) == ["load(news.m3u8#1)", "start(item1#1)"])
    radio.send(.system(.interruptionBegan))
    #expect(radio.state.description == "suppressed(news.m3u8#1, interrupted)")
    #expect(radio.state.isPlaying == false)
    radio.send(.system(.interruptionEnded(shouldResume: true)))
    radio.send(.system(.routeLost))
    #expect(radio.state.description == "paused(news.m3u8#1)")
    radio.send(.resume)
    #expect(
      spy.commands.map(\.description) == [
        "load(news.m3u8#1)", "start(item1#1)", "pause(item1#1)", "start(item1#1)",
        "pause(item1#1)", "start(item1#1)",
      ])
    let offline = FailureDetail(domain: "NSURLErrorDomain", code: -1009, message: "offline")
    radio.send(.engine(.failed(Load(1, 1), .network, detail: offline)))
    #expect(radio.state.description == "waiting(news.m3u8#1, network, attempt 1, autoplay)")
    #expect(radio.state.failure?.description == #"NSURLErrorDomain -1009 "offline""#)
    radio.send(.system(.networkAvailable))
    #expect(
      spy.commands.suffix(3).map(\.description) == [
        "stop(item1#1)", "load(news.m3u8#2)", "start(item1#2)",
      ])
    #expect(radio.state.description == "playing(news.m3u8#2)")
  }
}
