import Foundation
import PlayerState
import Testing

@Suite("Values: descriptions, coding, diagrams")
struct ValueTests {
  @Test func compactDescriptions() {
    #expect(PlaybackState().description == "idle")
    #expect(fixture(.buffering).description == "buffering(A#2, autoplay)")
    #expect(fixture(.buffering, play: false).description == "buffering(A#2, paused)")
    #expect(fixture(.ready).description == "playing(A#2)")
    #expect(fixture(.ready, play: false, seekPending: true).description == "paused(A#2, seek#1)")
    #expect(fixture(.stalled, play: false).description == "stalled(A#2, paused)")
    #expect(
      fixture(.failed(.engine(code: -11800)), play: false).description
        == "failed(A#2, engine(-11800))")
    #expect(
      EngineCommand.seek(a2, to: .seconds(2), SeekID(1)).description == "seek(A#2, 2000ms, seek#1)")
    #expect(PlaybackEvent.seekCompleted(a2, SeekID(3)).description == "seeked(A#2, seek#3)")
    #expect(PlaybackEvent.reachedEnd(a2).description == "ended(A#2)")
    #expect(
      PlaybackEvent.watchdogExpired(a2, WatchdogID(1)).description == "timeout(A#2, watchdog#1)")
    #expect(PlaybackEvent.seek(to: .milliseconds(250)).description == "seek(250ms)")
    #expect(CommandList().description == "none")
  }

  @Test func stateRoundTripsThroughJSONWithAVersion() throws {
    let state = fixture(.failed(.timeout), play: false)
    let data = try JSONEncoder().encode(state)
    let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
    #expect(object?["version"] as? Int == 1)
    #expect(object?["issuedLoads"] as? Int == 2)
    #expect(try JSONDecoder().decode(PlaybackState.self, from: data) == state)
    #expect(
      try JSONDecoder().decode(PlaybackState.self, from: JSONEncoder().encode(PlaybackState()))
        == PlaybackState())
  }

  @Test func decodingRejectsUnknownVersionsAndUnissuedTokens() {
    let future = Data(#"{"version": 2, "issuedLoads": 0}"#.utf8)
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(PlaybackState.self, from: future)
    }
    let forged = Data(
      #"{"version":1,"issuedLoads":1,"session":{"load":{"media":"A","token":5},"stage":{"ready":{}},"playWhenReady":true,"lastSeek":0,"seekPending":false,"lastWatchdog":0}}"#
        .utf8)
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(PlaybackState.self, from: forged)
    }
  }

  @Test func commandListHoldsTwoInOrder() {
    var list = CommandList()
    #expect(list.isEmpty)
    list.append(.stop(a1))
    list.append(.load(a2))
    #expect(Array(list) == [.stop(a1), .load(a2)])
    #expect(list.count == 2)
    #expect(list.description == "stop(A#1) load(A#2)")
  }

  @Test func commandListCodesAsAnArrayOfAtMostTwo() throws {
    var list = CommandList()
    list.append(.load(a2))
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let data = try encoder.encode(list)
    #expect(String(decoding: data, as: UTF8.self) == #"[{"load":{"_0":{"media":"A","token":2}}}]"#)
    #expect(try JSONDecoder().decode(CommandList.self, from: data) == list)
    let three = Data(
      #"[{"stop":{"_0":{"media":"A","token":2}}},{"stop":{"_0":{"media":"A","token":2}}},{"stop":{"_0":{"media":"A","token":2}}}]"#
        .utf8)
    #expect(throws: DecodingError.self) { try JSONDecoder().decode(CommandList.self, from: three) }
  }

  @Test func loadTokensAreNeverReusedEvenAtTheLimit() {
    let full = PlaybackState(session: nil, issuedLoads: .max)
    let transition = full.transition(on: .play("A"))
    #expect(transition.ignored == .idsExhausted)
    #expect(transition.commands.isEmpty)
    #expect(transition.next == full)
  }

  @Test func mermaidDiagramListsTransitions() {
    let mermaid = TransitionTable.mermaid()
    #expect(
      mermaid.hasPrefix("stateDiagram-v2\n  [*] --> idle\n  idle --> buffering : play / load\n"))
    #expect(mermaid.contains("  buffering --> playing : ready / start\n"))
    #expect(
      mermaid.contains(
        "  stalled --> failed : failed / stop\n  stalled --> failed : timeout / stop\n"))
    #expect(!mermaid.contains(";"))
    #expect(mermaid.contains("  failed --> idle : stop\n"))
  }

  @Test func dotDiagramListsTransitions() {
    let dot = TransitionTable.dot()
    #expect(dot.hasPrefix("digraph Playhead {\n"))
    #expect(dot.contains("  idle -> buffering [label=\"play / load\"];\n"))
    #expect(dot.contains("  playing -> paused [label=\"pause / pause\"];\n"))
    #expect(dot.hasSuffix("}\n"))
  }

  @Test func valuesStaySmall() {
    // Pinned so that a change that bloats the hot-path values is a visible decision.
    #expect(MemoryLayout<PlaybackState>.size <= 48)
    #expect(MemoryLayout<PlaybackEvent>.size <= 40)
  }
}
