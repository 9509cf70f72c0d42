import Foundation
import PlayerEngine
import PlayerState
import PlayerTesting
import Testing

/// Issue 24 (first part): restore after a relaunch and hand-off between
/// engines, through the real driver.
@Suite("Driver: restore and hand-off")
struct HandOffTests {
  @Test func aRelaunchedPlayerSendsNothingUntilTheUserResumes() throws {
    let first = SpyEngine.cooperative(.immediately)
    let player = Player(engine: first)
    player.send(.queue(["A", "B"]))
    player.send(.position(Load(1, 1), .seconds(95)))
    let saved = player.state.snapshot
    let second = SpyEngine.cooperative(.immediately)
    let relaunched = try Player(engine: second, restoring: saved)
    #expect(second.commands.isEmpty)
    #expect(relaunched.state.description == "idle")
    relaunched.send(.remote(.toggle))
    #expect(
      second.commands.map(\.description) == ["load(A#1, from 95000ms)", "start(item1#1)"])
    #expect(first.commands.map(\.description) == ["load(A#1)", "start(item1#1)"])
  }

  @Test func aHandOffStopsTheFirstAndLoadsTheSecondFromThePosition() throws {
    let phone = SpyEngine.cooperative(.immediately)
    let player = Player(engine: phone)
    player.send(.queue(["A", "B"]))
    player.send(.position(Load(1, 1), .seconds(30)))
    let speaker = SpyEngine()
    let moved = try player.handOff(to: speaker)
    #expect(phone.commands.map(\.description) == ["load(A#1)", "start(item1#1)", "stop(item1#1)"])
    #expect(speaker.commands.map(\.description) == ["load(A#1, from 30000ms)"])
    speaker.report(.ready(Load(1, 1)))
    #expect(speaker.commands.map(\.description).last == "start(item1#1)")
    #expect(moved.state.description == "playing(A#1)")
    #expect(player.state.description == "idle")
  }

  @Test func aPausedHandOffLoadsAndStaysPaused() throws {
    let phone = SpyEngine.cooperative(.immediately)
    let player = Player(engine: phone)
    player.send(.play("A"))
    player.send(.pause)
    let speaker = SpyEngine()
    let moved = try player.handOff(to: speaker)
    speaker.report(.ready(Load(1, 1)))
    #expect(speaker.commands.map(\.description) == ["load(A#1)"])
    #expect(moved.state.description == "paused(A#1)")
  }

  /// The take-over's steps reach the new `onStep`, a paused user's flipping
  /// the intent on and back; a notifications stream subscribed to the
  /// returned player starts after them, so the app hears only what follows.
  @Test func aPausedHandOffsStepsReachOnStepButNotTheStreams() async throws {
    let phone = SpyEngine.cooperative(.immediately)
    let player = Player(engine: phone)
    player.send(.play("A"))
    player.send(.pause)
    let steps = Locked<[String]>([])
    let moved = try player.handOff(
      to: SpyEngine(),
      onStep: { step in
        steps.withLock { $0.append("#\(step.sequence) \(step.event): \(step.notifications)") }
      })
    let notifications = moved.notifications()
    moved.send(.remote(.toggle))
    moved.send(.pause)
    var heard: [String] = []
    for await notification in notifications.prefix(2) { heard.append("\(notification)") }
    #expect(
      steps.withLock { $0 }
        == [
          "#1 resume: playIntent(true, user)", "#2 pause: playIntent(false, user)",
          "#3 remote(toggle): playIntent(true, remote)", "#4 pause: playIntent(false, user)",
        ])
    #expect(heard == ["playIntent(true, remote)", "playIntent(false, user)"])
  }

  @Test func aDecodedLiveStateIsTakenWithoutItsLoad() throws {
    // The move the issue saw fail: encode the whole state, decode it at launch,
    // hand it to `Player(engine:state:)`. The new engine never saw A#1 or B#2.
    let first = SpyEngine.cooperative(.immediately)
    let player = Player(engine: first)
    player.send(.queue(["A", "B", "C"]))
    player.send(.position(Load(1, 1), .seconds(42)))
    player.send(.user(.seek(to: .seconds(50))))
    let data = try JSONEncoder().encode(player.state)
    let decoded = try JSONDecoder().decode(PlaybackState.self, from: data)
    #expect(decoded.description == "playing(A#1)")
    let second = SpyEngine()
    let relaunched = Player(engine: second, state: decoded)
    #expect(relaunched.state.description == "idle")
    #expect(relaunched.state.playWhenReady == false)
    #expect(relaunched.state.resumePoint == ResumePoint(item: ItemID(1), position: .seconds(50)))
    relaunched.send(.pause)
    relaunched.send(.user(.seek(to: .seconds(10))))
    #expect(second.commands.isEmpty)
    relaunched.send(.resume)
    // Ids go on from the decoded state's: token 2 is new to this player's engine.
    #expect(second.commands.map(\.description) == ["load(A#2, from 50000ms)"])
  }

  @Test func aHandOffKeepsAStopAtTheEndOfTheEntryButNotACountdown() throws {
    let phone = SpyEngine.cooperative(.immediately)
    let player = Player(engine: phone)
    player.send(.queue(["A", "B"]))
    player.send(.user(.setSleepTimer(.endOfEntry)))
    let speaker = SpyEngine()
    let moved = try player.handOff(to: speaker)
    #expect(moved.state.sleepTimer == .endOfEntry)
    #expect(player.state.sleepTimer == nil)
    moved.send(.user(.setSleepTimer(.after(.seconds(60)))))
    let again = try moved.handOff(to: SpyEngine())
    #expect(again.state.sleepTimer == nil)
  }
}
