import PlayerState
import Testing

@Test func smoke() {
  #expect(PlaybackState().transition(on: .play("A")).description == "")
}
