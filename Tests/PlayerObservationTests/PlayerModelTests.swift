import Observation
import PlayerEngine
import PlayerObservation
import PlayerState
import PlayerTesting
import Testing

/// The Observation model over the spy engine: the values after intents (at
/// once), after engine reports (through the player's streams, on the main
/// actor), the notifications, per-property observation, and release.
@MainActor
@Suite("PlayerModel", .timeLimit(.minutes(1)))
struct PlayerModelTests {
  /// A model of a player on `engine`, whose clock stands still (a virtual
  /// one nobody advances): positions are exact, and no tick runs.
  static func model(_ engine: SpyEngine) -> PlayerModel {
    PlayerModel(player: Player(engine: engine, watchdog: CountedTimers().policy))
  }

  @Test func intentsPublishTheStateTheyLeftAtOnce() {
    let spy = SpyEngine.cooperative(.immediately)
    let model = Self.model(spy)
    #expect(model.kind == .idle)
    #expect(model.availableCommands.description == "")

    model.play("A")
    #expect(model.kind == .playing)
    #expect(model.isPlaying == true)
    #expect(model.isBuffering == false)
    #expect(model.playWhenReady == true)
    #expect(model.nowPlaying?.description == "A 1/1 at 0ms 1x")
    #expect(model.availableCommands.description == "pause previous seek skip stop toggle")

    model.pause()
    #expect(model.kind == .paused)
    #expect(model.isPlaying == false)
    #expect(model.playWhenReady == false)
    #expect(model.availableCommands.description == "play previous seek skip stop toggle")

    model.seek(to: .seconds(40))
    #expect(model.position == .seconds(40))
    model.skip(by: .seconds(-15))
    #expect(model.position == .seconds(25))
    model.setRate(PlaybackRate(thousandths: 1500))
    #expect(model.rate.description == "1.5x")
    model.setSleepTimer(.endOfEntry)
    #expect(model.sleepTimer == .endOfEntry)
    #expect(
      spy.commandLog == [
        "load(A#1)", "start(A#1)", "pause(A#1)", "seek(A#1, 40000ms, seek#1)",
        "seek(A#1, 25000ms, seek#2)",
      ])
  }

  @Test func theQueueIntentsMirrorTheMachine() {
    let spy = SpyEngine.cooperative(.immediately)
    let model = Self.model(spy)
    model.setQueue(["A", "B", "C"], startingAt: 1, playWhenReady: false)
    #expect(model.kind == .paused)
    #expect(model.queue.description == "A B* C")
    #expect(model.nowPlaying?.description == "B 2/3 at 0ms 0x")
    model.next()
    #expect(model.nowPlaying?.entry.media == "C")
    model.previous()
    model.append(["D"])
    model.insert(["E"], at: 0)
    model.move(from: 0, to: 4)
    model.remove(at: 0)
    #expect(model.queue.description == "B* C D E")
    model.jump(to: 2, from: .seconds(3))
    model.setRepeatMode(.all)
    #expect(model.queue.description == "B C D* E")
    #expect(model.queue.repeatMode == .all)
    #expect(model.nowPlaying?.description == "D 3/4 at 3000ms 0x")
    model.clear()
    #expect(model.kind == .idle)
    #expect(model.nowPlaying == nil)
  }

  /// The volume intents publish the user's volume, the mute and the volume the engine plays
  /// at, at once; a duck lowers only the last, and the engine hears each change.
  @Test func volumeIntentsPublishTheUsersVolumeAndWhatIsHeard() {
    let spy = SpyEngine.cooperative(.immediately)
    let model = Self.model(spy)
    #expect(model.volume == .full)
    #expect(model.isMuted == false)
    #expect(model.effectiveVolume == .full)
    model.play("A")
    model.setVolume(0.5)
    #expect(model.volume == 0.5)
    #expect(model.effectiveVolume == 0.5)
    model.mute()
    #expect(model.isMuted == true)
    #expect(model.volume == 0.5)
    #expect(model.effectiveVolume == .silent)
    model.setVolume(0.25)  // kept while muted: nothing to send
    #expect(model.volume == 0.25)
    model.unmute()
    #expect(model.effectiveVolume == 0.25)
    model.send(.system(.duckBegan))  // lowered to 0.2 of it: the default policy
    #expect(model.volume == 0.25)
    #expect(model.effectiveVolume == Volume(thousandths: 50))
    model.send(.system(.duckEnded))
    #expect(model.effectiveVolume == 0.25)
    model.setVolume(2)  // outside 0…1: ignored
    #expect(model.volume == 0.25)
    #expect(
      spy.commandLog == [
        "load(A#1)", "start(A#1)", "setVolume(A#1, 0.5)", "setVolume(A#1, 0)",
        "setVolume(A#1, 0.25)", "setVolume(A#1, 0.05)", "setVolume(A#1, 0.25)",
      ])
  }

  @Test func anObserverOfTheVolumeIsToldOfItsChangesOnly() {
    let spy = SpyEngine.cooperative(.immediately)
    let model = Self.model(spy)
    model.play("A")
    let fired = changes { _ = model.volume }
    model.mute()  // the mute and what is heard change, not the user's volume
    model.send(.system(.duckBegan))
    #expect(model.effectiveVolume == .silent)
    #expect(fired.withLock { $0 } == 0)
    model.setVolume(0.5)
    #expect(fired.withLock { $0 } == 1)
  }

  @Test func engineReportsReachTheModelThroughTheStreams() async {
    let spy = SpyEngine()
    let model = Self.model(spy)
    model.play("A")
    #expect(model.kind == .buffering)
    #expect(model.isBuffering == true)
    #expect(model.availableCommands.description == "pause previous seek skip stop toggle")

    spy.report(.ready(Load(1, 1), duration: .seconds(30)))
    await until(model) { $0.kind == .playing }
    #expect(model.duration == .seconds(30))
    #expect(model.nowPlaying?.description == "A 1/1 at 0ms 1x of 30000ms")

    spy.report(.position(Load(1, 1), .seconds(12)))
    await until(model) { $0.position == .seconds(12) }
    spy.report(.stalled(Load(1, 1)))
    await until(model) { $0.kind == .stalled }
    #expect(model.isBuffering == true)
    #expect(model.isPlaying == false)
  }

  @Test func aFailurePublishesTheErrorAndARetryClearsIt() async {
    let spy = SpyEngine()
    let model = Self.model(spy)
    model.play("A")
    let detail = FailureDetail(domain: "AVFoundationErrorDomain", code: -11800, message: "bad")
    spy.report(.failed(Load(1, 1), .decoding, detail: detail))
    await until(model) { $0.kind == .failed }
    #expect(
      model.error?.description
        == #"A failed: decoding (AVFoundationErrorDomain -11800 "bad")"#)
    #expect(model.error?.reason == .decoding)
    model.retry()
    #expect(model.kind == .buffering)
    #expect(model.error == nil)
  }

  @Test func notificationsArePublishedNumberedInArrivalOrder() async {
    let spy = SpyEngine.cooperative(.immediately)
    let model = Self.model(spy)
    model.setQueue(["A", "B"])
    model.remote(.toggle)
    model.next()
    await until(model) { $0.lastNotification?.id == 3 }
    #expect(model.lastEntryChange?.description == "#3 entryChanged(A -> B, skip)")
    #expect(model.lastNotification?.description == "#3 entryChanged(A -> B, skip)")
    #expect(model.lastQueueEnd == nil)

    model.toggle()
    spy.report(.reachedEnd(Load(2, 2)))
    await until(model) { $0.lastQueueEnd != nil }
    #expect(model.lastQueueEnd?.description == "#5 queueEnded")
    #expect(model.lastEntryChange?.id == 3)
    #expect(model.kind == .ended)
  }

  @Test func anObserverOfOnePropertyIsToldOnlyOfItsChanges() {
    let spy = SpyEngine.cooperative(.immediately)
    let model = Self.model(spy)
    model.play("A")
    let fired = changes { _ = model.isPlaying }
    model.send(.position(Load(1, 1), .seconds(5)))  // position and state change, not isPlaying
    #expect(model.position == .seconds(5))
    #expect(fired.withLock { $0 } == 0)
    model.pause()
    #expect(fired.withLock { $0 } == 1)
  }

  @Test func anObserverOfTheWholeValueIsToldOfAnyChange() {
    let spy = SpyEngine.cooperative(.immediately)
    let model = Self.model(spy)
    model.play("A")
    let fired = changes { _ = model.viewState }
    model.pause()
    model.pause()  // no change: not told again (the tracking also ends at the first change)
    #expect(fired.withLock { $0 } == 1)
  }

  @Test func reportsFromAnotherThreadLandOnTheMainActor() async {
    let spy = SpyEngine()
    let model = Self.model(spy)
    model.play("A")
    await Task.detached { spy.report(.ready(Load(1, 1), duration: .seconds(8))) }.value
    await until(model) { $0.kind == .playing }
    #expect(model.nowPlaying?.description == "A 1/1 at 0ms 1x of 8000ms")
  }

  @Test func theModelAndThePlayerAreReleased() async {
    weak var weakModel: PlayerModel?
    weak var weakPlayer: Player?
    do {
      let player = Player(
        engine: SpyEngine.cooperative(.immediately), watchdog: CountedTimers().policy)
      let model = PlayerModel(player: player)
      weakModel = model
      weakPlayer = player
      model.play("A")
      // Let the observation tasks start waiting on their streams.
      await until(model) { $0.lastNotification != nil }
    }
    #expect(weakModel == nil)
    #expect(weakPlayer == nil)
  }

  @Test func theObservationTasksEndWhenTheModelGoesAndTheAppKeepsThePlayer() async {
    let player = Player(
      engine: SpyEngine.cooperative(.immediately), watchdog: CountedTimers().policy)
    weak var weakModel: PlayerModel?
    do {
      let model = PlayerModel(player: player)
      weakModel = model
      model.play("A")
      await until(model) { $0.lastNotification != nil }
      #expect(player.subscriberCountForTesting == 3)
    }
    #expect(weakModel == nil)
    // Cancelled tasks end their streams; a few turns of the main actor at most.
    for _ in 0..<100 where player.subscriberCountForTesting > 0 { await Task.yield() }
    #expect(player.subscriberCountForTesting == 0)
  }
}

extension PlayerIntents {
  /// A remote control's intent, as a lock screen sends it.
  fileprivate func remote(_ intent: UserIntent) { send(.remote(intent)) }
}

/// Counts the changes Observation reports of what `read` reads: at most
/// one, as a tracking ends at the first change.
@MainActor
func changes(_ read: () -> Void) -> Locked<Int> {
  let fired = Locked(0)
  withObservationTracking(read) { fired.withLock { $0 += 1 } }
  return fired
}

/// Waits until `condition` holds, re-checking at each change of what it
/// reads (Observation), with no clock: the suite's time limit ends a wait
/// that never comes.
@MainActor
func until(_ model: PlayerModel, _ condition: @escaping @MainActor (PlayerModel) -> Bool) async {
  while !condition(model) {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      withObservationTracking {
        _ = condition(model)
      } onChange: {
        continuation.resume()
      }
    }
  }
}
