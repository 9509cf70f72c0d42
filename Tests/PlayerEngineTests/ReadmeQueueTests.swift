import PlayerEngine
import PlayerState
import PlayerTesting
import Testing

/// The README's queue example ("A queue"), replayed: if this test fails, the
/// output written in that example's comments is wrong too.
@Suite("The README's queue example")
struct ReadmeQueueTests {
  @Test func theCommentsShowWhatTheEngineGets() {
    let spy = SpyEngine { command in
      guard case .load(let request) = command else { return [] }
      return [SpyEngine.Reply(.ready(request.load), .immediately)]
    }
    let queue = Player(engine: spy)
    queue.send(.queue(["a.mp3", "b.mp3", "c.mp3"]))
    #expect(spy.commands.map(\.description) == ["load(a.mp3#1)", "start(item1#1)"])
    queue.send(.user(.setRepeat(.all)))
    queue.send(.next)
    queue.send(.user(.setShuffle(seed: 7)))
    #expect(queue.state.queue.description.hasPrefix("b.mp3*"))
    queue.send(.user(.remove(at: 0)))
    #expect(
      spy.commands.map(\.description) == [
        "load(a.mp3#1)", "start(item1#1)", "stop(item1#1)", "load(b.mp3#2)", "start(item2#2)",
        "stop(item2#2)", "load(a.mp3#3)", "start(item1#3)",
      ])
    #expect(queue.state.queue.description == "a.mp3* c.mp3")
  }
}
