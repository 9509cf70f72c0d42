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
    let name = naming(fixture(.ready))
    #expect(
      EngineCommand.seek(a2, to: .seconds(2), SeekID(1)).description(naming: name)
        == "seek(A#2, 2000ms, seek#1)")
    #expect(
      EngineCommand.seek(a2, to: .seconds(2), SeekID(1)).description
        == "seek(item1#2, 2000ms, seek#1)")
    #expect(
      PlaybackEvent.seekCompleted(a2, SeekID(3)).description(naming: name) == "seeked(A#2, seek#3)")
    #expect(PlaybackEvent.reachedEnd(a2).description(naming: name) == "ended(A#2)")
    #expect(
      PlaybackEvent.watchdogExpired(a2, WatchdogID(1)).description(naming: name)
        == "timeout(A#2, watchdog#1)")
    #expect(
      PlaybackEvent.ready(a2, duration: .seconds(180)).description(naming: name)
        == "ready(A#2, duration 180000ms)")
    #expect(PlaybackEvent.position(a2, .seconds(12)).description == "position(item1#2, 12000ms)")
    #expect(
      PlaybackEvent.queue(["A", "B"], start: 1, playWhenReady: false).description
        == "queue(A B, start 2, paused)")
    #expect(preloading(.ready).description == "playing(A#2, preloaded B#3)")
    #expect(queueABC.description == "A* B C")
    #expect(PlaybackRate(thousandths: 1500).description == "1.5x")
    #expect(PlaybackRate(thousandths: 750).description == "0.75x")
    #expect(PlaybackRate.normal.description == "1x")
    #expect(PlaybackEvent.seek(to: .milliseconds(250)).description == "seek(250ms)")
    #expect(CommandList().description == "none")
  }

  @Test func stateRoundTripsThroughJSONWithAVersion() throws {
    let state = fixture(.failed(.timeout), play: false)
    let data = try JSONEncoder().encode(state)
    let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
    #expect(object?["version"] as? Int == 3)
    #expect(object?["issuedLoads"] as? Int == 2)
    #expect(try JSONDecoder().decode(PlaybackState.self, from: data) == state)
    #expect(
      try JSONDecoder().decode(PlaybackState.self, from: JSONEncoder().encode(PlaybackState()))
        == PlaybackState())
  }

  @Test func decodingRejectsUnknownVersionsAndUnissuedTokens() {
    let future = Data(#"{"version": 3, "issuedLoads": 0}"#.utf8)
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(PlaybackState.self, from: future)
    }
    let forged = try? JSONEncoder().encode(
      PlaybackState(
        queue: queueOfA, session: Session(load: Load(1, 5), stage: .ready), playWhenReady: true,
        issuedLoads: 1, issuedItems: 1))
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(PlaybackState.self, from: forged ?? Data())
    }
  }

  @Test func commandListHoldsFourInOrder() {
    var list = CommandList()
    #expect(list.isEmpty)
    let loadA2 = EngineCommand.load(LoadRequest(load: a2, media: "A", start: .seconds(12)))
    list.append(.stop(a1))
    list.append(loadA2)
    list.append(.seek(a2, to: .seconds(3), SeekID(1)))
    list.append(.start(a2, rate: PlaybackRate(thousandths: 1500)))
    #expect(Array(list.prefix(2)) == [.stop(a1), loadA2])
    #expect(list.count == 4)
    #expect(
      list.description(naming: { $0 == ItemID(1) ? "A" : nil })
        == "stop(A#1) load(A#2, from 12000ms) seek(A#2, 3000ms, seek#1) start(A#2, 1.5x)")
    #expect(
      list.description
        == "stop(item1#1) load(A#2, from 12000ms) seek(item1#2, 3000ms, seek#1) start(item1#2, 1.5x)"
    )
    list.removeAll()
    #expect(list == CommandList())
    list.append(.preload(LoadRequest(load: Load(2, 3), media: "B")))
    #expect(list.description == "preload(B#3)")
  }

  @Test func commandListCodesAsAnArrayOfAtMostFive() throws {
    var list = CommandList()
    list.append(.load(LoadRequest(load: a2, media: "A")))
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let data = try encoder.encode(list)
    #expect(
      String(decoding: data, as: UTF8.self)
        == #"[{"load":{"_0":{"load":{"item":1,"token":2},"media":"A","start":{"milliseconds":0}}}}]"#
    )
    #expect(try JSONDecoder().decode(CommandList.self, from: data) == list)
    let stop = #"{"stop":{"_0":{"item":1,"token":2}}}"#
    let five = Data("[\(Array(repeating: stop, count: 5).joined(separator: ","))]".utf8)
    #expect(try JSONDecoder().decode(CommandList.self, from: five).count == 5)
    let six = Data("[\(Array(repeating: stop, count: 6).joined(separator: ","))]".utf8)
    #expect(throws: DecodingError.self) { try JSONDecoder().decode(CommandList.self, from: six) }
    let load =
      #"{"load":{"_0":{"load":{"item":1,"token":2},"media":"A","start":{"milliseconds":0}}}}"#
    let twoLoads = Data("[\(load),\(load)]".utf8)
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(CommandList.self, from: twoLoads)
    }
  }

  @Test func loadTokensAreNeverReusedEvenAtTheLimit() {
    let full = PlaybackState(
      queue: PlayQueue(), session: nil, playWhenReady: true, issuedLoads: .max, issuedItems: 0)
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
    #expect(
      dot.contains(
        "  idle -> buffering [label=\"play / load\\nqueue / load\\nresume / load\\ntoggle / load\"];\n"
      ))
    #expect(!dot.contains("idle -> idle"))
    #expect(
      dot.contains(
        "  playing -> paused [label=\"pause / pause\\nrouteLost / pause\\ntoggle / pause\\nsleepTimerExpired / pause\"];\n"
      ))
    #expect(dot.hasSuffix("}\n"))
  }

  @Test func valuesStaySmall() {
    // Pinned so that a change that bloats the hot-path values is a visible decision.
    #expect(MemoryLayout<Load>.size == 8)
    #expect(MemoryLayout<EngineReport>.size <= 25)
    #expect(MemoryLayout<PlaybackEvent>.size <= 41)
    // 152 with the queue; +40 for the system: the interruption flag, the retry
    // policy (24), per load the system pause and the network attempts, and the
    // failure detail reference (nil on every hot-path state); +8 for the
    // elapsed anchor (issue 22), the one stored part of now playing; +17 for
    // a restored entry's resume point (issue 24: item, position, and nil);
    // +23 for the sleep timer (issue 24: its mode with a countdown's delay,
    // and the newest countdown id); +16 for volume (issue 37: the user's
    // volume, mute, the duck, and the configuration's ducking policy); +21 for
    // fades (issue 37: the configuration's fade, and the load fading out into
    // a stop with its timer id; a session's `fadingOut` fits in its padding);
    // +24 for live streams (issue 38: a load's window, two positions and nil).
    #expect(MemoryLayout<PlaybackState>.size <= 301)
    #expect(_isPOD(Load.self))
    // A session is plain bytes: the failure detail lives in the state, so the
    // reducer copies sessions without touching a reference count.
    #expect(_isPOD(Session.self))
    // A failure's detail is a reference, so a report is no longer plain bytes;
    // every report but a detailed failure still carries no reference.
    #expect(!_isPOD(EngineReport.self))
  }

  @Test func aFailureDetailsTextsAreBounded() throws {
    let short = FailureDetail(domain: "NSURLErrorDomain", code: -1009, message: "offline")
    #expect(short.description == #"NSURLErrorDomain -1009 "offline""#)
    // 700 two-byte characters: 1,400 bytes, cut at a character boundary.
    let long = FailureDetail(
      domain: String(repeating: "d", count: 5_000), code: 1,
      message: String(repeating: "é", count: 700))
    #expect(long.domain.utf8.count == 1_024)
    #expect(long.domain.hasSuffix("ddd…"))
    #expect(long.message.utf8.count == 1_023)
    #expect(long.message == String(repeating: "é", count: 510) + "…")
    // Exactly at the limit: kept whole.
    let exact = FailureDetail(domain: "d", code: 0, message: String(repeating: "m", count: 1_024))
    #expect(exact.message.utf8.count == 1_024)
    #expect(!exact.message.hasSuffix("…"))
    // Decoding cuts as the initializer does.
    let json =
      #"{"domain":"x","code":7,"message":""# + String(repeating: "z", count: 3_000) + #""}"#
    let decoded = try JSONDecoder().decode(FailureDetail.self, from: Data(json.utf8))
    #expect(decoded.code == 7)
    #expect(decoded.message == String(repeating: "z", count: 1_021) + "…")
    let again = try JSONDecoder().decode(
      FailureDetail.self, from: try JSONEncoder().encode(decoded))
    #expect(again == decoded)
  }
}

/// R6 (issue 23): naming the entries a step names does not search the queue.
@Suite struct MediaLookupTests {
  @Test func theEntriesAStepNamesAreFoundAroundTheCurrentOne() {
    var state = PlaybackState(configuration: PlayerConfiguration(canPreload: true))
    let media = (0..<5).map { MediaID("M\($0)") }
    _ = state.handle(.user(.replaceQueue(media, start: 2)))
    _ = state.handle(.ready(Load(3, 1)))
    #expect(state.description == "playing(M2#1, preloading M3#2)")
    #expect(state.media(of: ItemID(2)) == "M1")
    #expect(state.media(of: ItemID(4)) == "M3")
    #expect(state.media(of: ItemID(5)) == "M4")
    #expect(state.media(of: ItemID(1)) == "M0")
    #expect(state.media(of: ItemID(9)) == nil)
    _ = state.handle(.user(.setRepeat(.all)))
    _ = state.handle(.user(.jump(to: 4)))
    #expect(state.media(of: ItemID(1)) == "M0")
  }
}
