import PlayerState
import Testing

/// The README's live example ("Live and DVR streams"), replayed: if this test
/// fails, the output written in that example's comments is wrong too.
@Suite("The README's live example")
struct ReadmeLiveTests {
  @Test func theCommentsShowWhatTheEngineGets() {
    var radio = PlaybackState()
    _ = radio.handle(.play("news"))
    #expect("\(radio.handle(.ready(Load(1, 1))).commands)" == "start(item1#1)")
    _ = radio.handle(.window(Load(1, 1), LiveWindow(start: .zero, end: .seconds(600))))
    #expect(radio.streamKind == .dvr)
    #expect(
      "\(radio.handle(.seek(to: .seconds(900))).commands)" == "seek(item1#1, 600000ms, seek#1)")
    _ = radio.handle(.seekCompleted(Load(1, 1), SeekID(1)))
    #expect("\(radio.handle(.pause).commands)" == "pause(item1#1)")
    let slid = LiveWindow(start: .seconds(1200), end: .seconds(1800))
    #expect(
      "\(radio.handle(.window(Load(1, 1), slid)).commands)"
        == "stop(item1#1) load(news#2, at live edge)")
    #expect(radio.handle(.window(Load(1, 1), slid)).ignored == .staleLoad)
  }
}
