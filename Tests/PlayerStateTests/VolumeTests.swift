import Foundation
import PlayerState
import Testing

private let duck = PlaybackEvent.system(.duckBegan)
private let unduck = PlaybackEvent.system(.duckEnded)
private let interruption = PlaybackEvent.system(.interruptionBegan)
private let interruptionOver = PlaybackEvent.system(.interruptionEnded(shouldResume: true))
private let interruptionOverNoHint = PlaybackEvent.system(.interruptionEnded(shouldResume: false))

/// A new player whose duck pauses instead of lowering.
private let pausingDuck = PlaybackState(configuration: PlayerConfiguration(ducking: .pause))
/// A new player on an engine that preloads.
private let gapless = PlaybackState(configuration: PlayerConfiguration(canPreload: true))

private let b2 = Load(2, 2)
private let c3 = Load(3, 3)

/// Issue 37, item 1: the user's volume and mute, the system's duck, and the
/// effective volume every live load is kept at (docs/machine.md, "Volume,
/// mute and ducking"), with the literal command log.
@Suite("Volume, mute and ducking")
struct VolumeTests {
  // MARK: The effective volume

  struct Case: CustomTestStringConvertible, Sendable {
    let volume: Int32
    let muted: Bool
    let ducked: Bool
    let policy: DuckPolicy
    let expected: Int32
    var testDescription: String {
      "\(volume)‰ muted \(muted) ducked \(ducked) \(policy) → \(expected)‰"
    }
  }

  @Test(arguments: [
    Case(volume: 1000, muted: false, ducked: false, policy: .lower(to: 0.2), expected: 1000),
    Case(volume: 1000, muted: false, ducked: true, policy: .lower(to: 0.2), expected: 200),
    Case(volume: 500, muted: false, ducked: true, policy: .lower(to: 0.2), expected: 100),
    // 66.6 thousandths rounds to 67; 0.5 rounds half up to 1.
    Case(volume: 333, muted: false, ducked: true, policy: .lower(to: 0.2), expected: 67),
    Case(volume: 1, muted: false, ducked: true, policy: .lower(to: 0.5), expected: 1),
    Case(volume: 1, muted: false, ducked: true, policy: .lower(to: 0.2), expected: 0),
    Case(volume: 800, muted: false, ducked: true, policy: .lower(to: 0), expected: 0),
    Case(volume: 800, muted: false, ducked: true, policy: .lower(to: 1), expected: 800),
    Case(volume: 800, muted: false, ducked: true, policy: .pause, expected: 800),
    Case(volume: 800, muted: true, ducked: false, policy: .lower(to: 0.2), expected: 0),
    Case(volume: 800, muted: true, ducked: true, policy: .pause, expected: 0),
    Case(volume: 0, muted: false, ducked: false, policy: .pause, expected: 0),
  ])
  func theEffectiveVolume(_ example: Case) {
    var state = PlaybackState(configuration: PlayerConfiguration(ducking: example.policy))
    state.volume = Volume(thousandths: example.volume)
    state.muted = example.muted
    state.ducked = example.ducked
    #expect(state.effectiveVolume == Volume(thousandths: example.expected))
    #expect(state.invariantViolation == nil)
  }

  // MARK: The user's volume and mute

  @Test func aVolumeIsSentToTheCurrentLoadAndKept() {
    let result = run([.play("A"), .ready(a1), .setVolume(0.5)])
    #expect(result.commands == ["load(A#1)", "start(A#1)", "setVolume(A#1, 0.5)"])
    #expect(result.state.volume == Volume(thousandths: 500))
    #expect(result.state.effectiveVolume == Volume(thousandths: 500))
    #expect(result.state.description == "playing(A#1)")
  }

  @Test func aVolumeSetWhileIdleIsKeptAndSentWithTheNextLoad() {
    let idle = PlaybackState().transition(on: .setVolume(0.5))
    #expect(idle.ignored == nil)
    #expect(idle.commands.isEmpty)
    let result = run([.play("A")], from: idle.next)
    #expect(result.commands == ["load(A#1)", "setVolume(A#1, 0.5)"])
  }

  @Test func theDefaultVolumeAddsNoCommand() {
    let result = run([.play("A"), .ready(a1), .setVolume(0.5), .setVolume(1), .next, .play("B")])
    #expect(
      result.commands == [
        "load(A#1)", "start(A#1)", "setVolume(A#1, 0.5)", "setVolume(A#1, 1)", "stop(A#1)",
        "load(B#2)",
      ])
  }

  @Test(arguments: [
    Volume(thousandths: 1001), Volume(thousandths: -1), Volume(.nan), Volume(1.5), Volume(-0.25),
    Volume(thousandths: .max), Volume(thousandths: .min),
  ])
  func anInvalidVolumeIsRefused(_ volume: Volume) {
    let playing = run([.play("A"), .ready(a1)]).state
    let refused = playing.transition(on: .setVolume(volume))
    #expect(refused.ignored == .invalidArgument)
    #expect(refused.next == playing)
    #expect(refused.commands.isEmpty)
  }

  @Test func theSameVolumeOrMuteHasNoEffect() {
    let playing = run([.play("A"), .ready(a1), .setVolume(0.5)]).state
    #expect(playing.transition(on: .setVolume(0.5)).ignored == .noEffect)
    #expect(playing.transition(on: .unmute).ignored == .noEffect)
    let muted = playing.transition(on: .mute).next
    #expect(muted.transition(on: .mute).ignored == .noEffect)
  }

  @Test func muteAndUnmuteRoundTripTheUsersVolume() {
    let result = run([.play("A"), .ready(a1), .setVolume(0.5), .mute, .setVolume(0.8), .unmute])
    #expect(
      result.commands == [
        "load(A#1)", "start(A#1)", "setVolume(A#1, 0.5)", "setVolume(A#1, 0)",
        "setVolume(A#1, 0.8)",
      ])
    #expect(result.state.volume == Volume(thousandths: 800))
    #expect(result.state.muted == false)
    #expect(result.state.effectiveVolume == Volume(thousandths: 800))
    // A mute is no pause: the intent and the engine are untouched.
    let muted = run([.play("A"), .ready(a1), .mute]).state
    #expect(muted.playWhenReady == true)
    #expect(muted.isPlaying == true)
    #expect(muted.effectiveVolume == .silent)
  }

  @Test func aChangeGoesToTheCurrentLoadThenThePreload() {
    let result = run(
      [.queue(["A", "B"]), .ready(a1), .ready(b2), .setVolume(0.5), .mute], from: gapless)
    #expect(
      result.commands == [
        "load(A#1)", "start(A#1)", "preload(B#2)", "setVolume(A#1, 0.5)", "setVolume(B#2, 0.5)",
        "setVolume(A#1, 0)", "setVolume(B#2, 0)",
      ])
    #expect(result.state.description == "playing(A#1, preloaded B#2)")
  }

  @Test func aStoppedLoadIsNotSentAVolumeButAnEndedOneIs() {
    let failed = run([.play("A"), .ready(a1), .engine(.failed(a1, .decoding)), .setVolume(0.5)])
    #expect(failed.commands == ["load(A#1)", "start(A#1)", "stop(A#1)"])
    #expect(failed.state.volume == Volume(thousandths: 500))
    let retried = run([.retry], from: failed.state)
    #expect(retried.commands == ["load(A#2)", "setVolume(A#2, 0.5)"])
    let ended = run([.play("A"), .ready(a1), .reachedEnd(a1), .setVolume(0.5)])
    #expect(ended.commands == ["load(A#1)", "start(A#1)", "setVolume(A#1, 0.5)"])
    #expect(ended.state.description == "ended(A#1, autoplay)")
  }

  // MARK: Every load opened at a volume other than 1 ends with its setVolume

  @Test func aNewQueueWhileAtHalfVolumeEndsWithItsVolume() {
    let result = run([.play("A"), .ready(a1), .setVolume(0.5), .queue(["B", "C"])])
    #expect(
      result.commands == [
        "load(A#1)", "start(A#1)", "setVolume(A#1, 0.5)", "stop(A#1)", "load(B#2)",
        "setVolume(B#2, 0.5)",
      ])
  }

  @Test func aSkipWhileDuckedEndsWithTheLoweredVolume() {
    let result = run([.queue(["A", "B"]), .ready(a1), duck, .next, .ready(b2), unduck])
    #expect(
      result.commands == [
        "load(A#1)", "start(A#1)", "setVolume(A#1, 0.2)", "stop(A#1)", "load(B#2)",
        "setVolume(B#2, 0.2)", "start(B#2)", "setVolume(B#2, 1)",
      ])
    #expect(result.state.ducked == false)
  }

  @Test func aPreloadAndAGaplessAdvanceEndWithTheirVolume() {
    let preloaded = run([.setVolume(0.5), .queue(["A", "B", "C"]), .ready(a1)], from: gapless)
    #expect(
      preloaded.commands == [
        "load(A#1)", "setVolume(A#1, 0.5)", "start(A#1)", "preload(B#2)", "setVolume(B#2, 0.5)",
      ])
    let advance = preloaded.state.transition(on: .ready(b2)).next.transition(on: .reachedEnd(a1))
    // Four commands, the most a transition carries: the preload opened last gets its volume.
    #expect(
      printed(advance, from: preloaded.state).commands
        == "stop(A#1) start(B#2) preload(C#3) setVolume(C#3, 0.5)")
    #expect(advance.commands.count == 4)
    #expect(advance.next.description == "playing(B#2, preloading C#3)")
  }

  @Test func aNetworkReloadWhileDuckedEndsWithTheLoweredVolume() {
    let result = run([
      .play("A"), .ready(a1), .setVolume(0.5), duck, .engine(.failed(a1, .network)),
      .system(.networkAvailable),
    ])
    #expect(
      result.commands == [
        "load(A#1)", "start(A#1)", "setVolume(A#1, 0.5)", "setVolume(A#1, 0.1)", "stop(A#1)",
        "load(A#2)", "setVolume(A#2, 0.1)",
      ])
    #expect(result.state.description == "buffering(A#2, autoplay)")
  }

  @Test func aMutedResumeFromIdleEndsWithSilence() {
    let result = run([.play("A"), .mute, .stop, .resume])
    #expect(
      result.commands == [
        "load(A#1)", "setVolume(A#1, 0)", "stop(A#1)", "load(A#2)", "setVolume(A#2, 0)",
      ])
  }

  /// Over every probe of the golden start states (the transition table's
  /// representatives and their variants): at an effective volume other than
  /// 1 every transition is the one at full volume, plus, when it opens a load,
  /// that load's `setVolume` as its last command; and none needs a fifth.
  @Test(arguments: [
    (Volume(thousandths: 500), false, false), (Volume.full, false, true),
    (Volume(thousandths: 250), true, true),
  ])
  func everyOpeningAtAnotherVolumeEndsWithItsVolume(
    _ volume: Volume, _ muted: Bool, _ ducked: Bool
  ) {
    var transitions = 0
    var openings = 0
    for start in Golden.startStates {
      var lowered = start
      lowered.volume = volume
      lowered.muted = muted
      lowered.ducked = ducked
      let effective = lowered.effectiveVolume
      for event in TransitionTable.probeEvents(for: start) + Golden.extraEvents(for: start) {
        let plain = start.transition(on: event)
        let step = lowered.transition(on: event)
        transitions += 1
        var expected = plain.commands
        let opened = plain.commands.lazy.compactMap { command -> Load? in
          switch command {
          case .load(let request), .preload(let request): request.load
          default: nil
          }
        }.first
        if let opened {
          openings += 1
          expected.append(.setVolume(opened, effective))
        }
        var next = plain.next
        next.volume = volume
        next.muted = muted
        next.ducked = ducked
        #expect(step.commands == expected, "\(event) in \(start)")
        #expect(step.next == next, "\(event) in \(start)")
        #expect(step.ignored == plain.ignored, "\(event) in \(start)")
        #expect(
          step.next.invariantViolation == plain.next.invariantViolation, "\(event) in \(start)")
      }
    }
    #expect(transitions == 24_180)
    #expect(openings == 2_224)
  }

  // MARK: Ducking, policy lower

  /// Media3's AudioFocusManager keeps the duck as a multiplier; apps that
  /// lower and restore the volume themselves lose a change made meanwhile.
  @Test func aVolumeSetDuringADuckSurvivesItsEndExactly() {
    let result = run([.play("A"), .ready(a1), .setVolume(0.5), duck, .setVolume(0.8), unduck])
    #expect(
      result.commands == [
        "load(A#1)", "start(A#1)", "setVolume(A#1, 0.5)", "setVolume(A#1, 0.1)",
        "setVolume(A#1, 0.16)", "setVolume(A#1, 0.8)",
      ])
    #expect(result.state.volume == Volume(thousandths: 800))
    #expect(result.state.effectiveVolume == Volume(thousandths: 800))
  }

  @Test func aDuckWhileMutedSendsNothingAndTheUnmuteIsLowered() {
    let result = run([.play("A"), .ready(a1), .mute, duck, .unmute, unduck])
    #expect(
      result.commands == [
        "load(A#1)", "start(A#1)", "setVolume(A#1, 0)", "setVolume(A#1, 0.2)",
        "setVolume(A#1, 1)",
      ])
  }

  @Test(arguments: [PlayerConfiguration(), PlayerConfiguration(ducking: .pause)])
  func aDuckNeverChangesThePlayIntent(_ configuration: PlayerConfiguration) {
    let start = PlaybackState(configuration: configuration)
    let playing = run([.play("A"), .ready(a1), duck], from: start).state
    #expect(playing.playWhenReady == true)
    #expect(run([unduck], from: playing).state.playWhenReady == true)
    let paused = run([.play("A"), .ready(a1), .pause, duck], from: start)
    #expect(paused.state.playWhenReady == false)
    let after = run([unduck], from: paused.state)
    #expect(after.state.playWhenReady == false)
    #expect(after.state.description == "paused(A#1)")
    // Nothing starts a paused player at the duck's end.
    #expect(!after.commands.contains("start(A#1)"))
  }

  @Test func aDuckSpansStopClearAndNewQueues() {
    let result = run([.play("A"), .ready(a1), duck, .stop, .user(.clear), .play("B"), unduck])
    #expect(
      result.commands == [
        "load(A#1)", "start(A#1)", "setVolume(A#1, 0.2)", "stop(A#1)", "load(B#2)",
        "setVolume(B#2, 0.2)", "setVolume(B#2, 1)",
      ])
  }

  @Test func aDuplicateOrStaleDuckEventChangesNothing() {
    let ducked = run([.play("A"), .ready(a1), duck]).state
    let again = ducked.transition(on: duck)
    #expect(again.ignored == .noEffect)
    #expect(again.next == ducked)
    #expect(again.commands.isEmpty)
    let restored = ducked.transition(on: unduck).next
    let stale = restored.transition(on: unduck)
    #expect(stale.ignored == .notDucked)
    #expect(stale.next == restored)
    #expect(stale.commands.isEmpty)
    #expect(PlaybackState().transition(on: unduck).ignored == .notDucked)
    // Idle, a duck is still state: accepted, no command.
    let idle = PlaybackState().transition(on: duck)
    #expect(idle.ignored == nil)
    #expect(idle.commands.isEmpty)
    #expect(idle.next.ducked == true)
  }

  // MARK: Ducking, policy pause

  @Test func aPausingDuckHoldsAndReleasesLikeAnInterruption() {
    let held = run([.play("A"), .ready(a1), duck], from: pausingDuck)
    #expect(held.commands == ["load(A#1)", "start(A#1)", "pause(A#1)"])
    #expect(held.state.description == "suppressed(A#1, ducked)")
    #expect(held.state.kind == .suppressed)
    #expect(held.state.suppression == .interruption)
    #expect(held.state.isPlaying == false)
    #expect(held.state.effectiveVolume == .full)
    // The play/pause button and resume do nothing while it holds with the intent to play.
    #expect(held.state.transition(on: .toggle).ignored == .noEffect)
    #expect(held.state.transition(on: .resume).ignored == .noEffect)
    let released = run([unduck], from: held.state)
    #expect(released.commands == ["start(A#1)"])
    #expect(released.state.description == "playing(A#1)")
  }

  @Test func intentsDuringAPausingDuckAreKeptButNothingStarts() {
    let result = run(
      [
        .play("A"), .ready(a1), duck, .pause, .resume, .setRate(PlaybackRate(1.5)),
        .seek(to: .seconds(4)),
      ], from: pausingDuck)
    #expect(
      result.commands == ["load(A#1)", "start(A#1)", "pause(A#1)", "seek(A#1, 4000ms, seek#1)"])
    #expect(result.state.description == "suppressed(A#1, ducked, seek#1)")
    let released = run([unduck], from: result.state)
    #expect(released.commands == ["start(A#1, 1.5x)"])
  }

  @Test func aReadyDuringAPausingDuckWaitsForItsEnd() {
    let result = run([.play("A"), duck, .ready(a1), unduck], from: pausingDuck)
    #expect(result.commands == ["load(A#1)", "start(A#1)"])
    #expect(result.state.description == "playing(A#1)")
  }

  @Test func aPausingDuckBesideAnInterruptionNeedsBothToEnd() {
    // The duck first, the interruption ends first.
    let first = run(
      [.play("A"), .ready(a1), duck, interruption, interruptionOver], from: pausingDuck)
    #expect(first.commands == ["load(A#1)", "start(A#1)", "pause(A#1)"])
    #expect(first.state.description == "suppressed(A#1, ducked)")
    #expect(run([unduck], from: first.state).commands == ["start(A#1)"])
    // The interruption first, the duck ends first.
    let second = run([.play("A"), .ready(a1), interruption, duck, unduck], from: pausingDuck)
    #expect(second.commands == ["load(A#1)", "start(A#1)", "pause(A#1)"])
    #expect(second.state.description == "suppressed(A#1, interrupted)")
    #expect(run([interruptionOver], from: second.state).commands == ["start(A#1)"])
    // An interruption's end without the hint makes the intent pause; the duck's end keeps it.
    let noHint = run([interruptionOverNoHint, duck, unduck], from: second.state)
    #expect(noHint.commands.isEmpty)
    #expect(noHint.state.description == "paused(A#1)")
  }

  @Test func aPausingDuckTakesASystemPauseOver() {
    let systemPaused = run(
      [.play("A"), .ready(a1), .engine(.pausedBySystem(a1))], from: pausingDuck)
    #expect(systemPaused.state.description == "suppressed(A#1, system pause)")
    let held = run([duck], from: systemPaused.state)
    #expect(held.commands.isEmpty)
    #expect(held.state.session?.systemPaused == false)
    #expect(held.state.description == "suppressed(A#1, ducked)")
    // The engine's own pause during the duck is the duck's.
    #expect(held.state.transition(on: .engine(.pausedBySystem(a1))).ignored == .unexpected)
    #expect(run([unduck], from: held.state).commands == ["start(A#1)"])
  }

  @Test func aPausingDuckSpansASkip() {
    let result = run(
      [.queue(["A", "B"]), .ready(a1), duck, .next, .ready(b2), unduck], from: pausingDuck)
    #expect(
      result.commands == [
        "load(A#1)", "start(A#1)", "pause(A#1)", "stop(A#1)", "load(B#2)", "start(B#2)",
      ])
  }

  // MARK: Snapshots, encoding, invariants

  @Test func aSnapshotKeepsTheVolumeAndMuteButNotTheDuck() throws {
    let state = run([.play("A"), .ready(a1), .setVolume(0.5), .mute, duck]).state
    let snapshot = state.snapshot
    #expect(snapshot.volume == Volume(thousandths: 500))
    #expect(snapshot.muted == true)
    let decoded = try JSONDecoder().decode(
      PlaybackSnapshot.self, from: JSONEncoder().encode(snapshot))
    #expect(decoded == snapshot)
    let restored = try PlaybackState(restoring: decoded)
    #expect(restored.volume == Volume(thousandths: 500))
    #expect(restored.muted == true)
    #expect(restored.ducked == false)
    let resumed = run([.resume], from: restored)
    #expect(resumed.commands == ["load(A#1)", "setVolume(A#1, 0)"])
    // Without a load, the duck is still system state.
    #expect(state.withoutLoad.ducked == true)
  }

  @Test func aSnapshotEncodesTheVolumeAndMuteOnlyWhenSet() throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let plain = PlaybackSnapshot(media: ["A"], current: 0)
    #expect(
      String(decoding: try encoder.encode(plain), as: UTF8.self)
        == #"{"current":0,"media":["A"],"playWhenReady":false,"position":{"milliseconds":0},"#
        + #""rate":1000,"repeatMode":"off","version":1}"#)
    let set = PlaybackSnapshot(
      media: ["A"], current: 0, volume: Volume(thousandths: 250), muted: true)
    #expect(
      String(decoding: try encoder.encode(set), as: UTF8.self)
        == #"{"current":0,"media":["A"],"muted":true,"playWhenReady":false,"#
        + #""position":{"milliseconds":0},"rate":1000,"repeatMode":"off","version":1,"volume":250}"#
    )
    // A snapshot written before volumes decodes at full volume, unmuted.
    let old = try JSONDecoder().decode(
      PlaybackSnapshot.self,
      from: Data(
        (#"{"current":0,"media":["A"],"playWhenReady":false,"position":{"milliseconds":0},"#
          + #""rate":1000,"repeatMode":"off","version":1}"#).utf8))
    #expect(old.volume == .full)
    #expect(old.muted == false)
  }

  @Test func aSnapshotWithAnInvalidVolumeIsRefused() {
    let snapshot = PlaybackSnapshot(media: ["A"], current: 0, volume: Volume(thousandths: 1500))
    #expect(snapshot.violation == "volume 1.5 is outside 0...1")
    #expect(throws: InvalidStateError.self) { try PlaybackState(restoring: snapshot) }
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(
        PlaybackSnapshot.self,
        from: Data(
          (#"{"current":0,"media":["A"],"playWhenReady":false,"position":{"milliseconds":0},"#
            + #""rate":1000,"repeatMode":"off","version":1,"volume":1500}"#).utf8))
    }
  }

  /// A state and a configuration written before volumes (the sleep timer's test's form).
  private static let oldState =
    #"{"configuration":{"canPreload":false,"previousThreshold":{"milliseconds":3000},"#
    + #""retry":{"attempts":3,"backoff":{"milliseconds":1000},"maximumBackoff":{"milliseconds":30000}}},"#
    + #""interrupted":false,"issuedItems":0,"issuedLoads":0,"playWhenReady":true,"#
    + #""queue":{"entries":[],"repeatMode":"off"},"rate":1000,"version":3}"#

  @Test func anOldStateDecodesAtFullVolumeUnmutedNotDucked() throws {
    let state = try JSONDecoder().decode(PlaybackState.self, from: Data(Self.oldState.utf8))
    #expect(state == PlaybackState())
    #expect(state.volume == .full)
    #expect(state.muted == false)
    #expect(state.ducked == false)
    #expect(state.configuration.ducking == .lower(to: 0.2))
    // And a state at the defaults is written as before.
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    #expect(String(decoding: try encoder.encode(PlaybackState()), as: UTF8.self) == Self.oldState)
  }

  @Test func aStateEncodesItsVolumeMuteAndDuckOnlyWhenSet() throws {
    let state = run([.setVolume(0.25), .mute, duck], from: pausingDuck).state
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let text = String(decoding: try encoder.encode(state), as: UTF8.self)
    #expect(text.contains(#""volume":250"#))
    #expect(text.contains(#""muted":true"#))
    #expect(text.contains(#""ducked":true"#))
    #expect(text.contains(#""ducking":{"pause":{}}"#))
    let decoded = try JSONDecoder().decode(PlaybackState.self, from: Data(text.utf8))
    #expect(decoded == state)
  }

  @Test func anInvalidVolumeOrDuckLevelBreaksAnInvariant() throws {
    var state = PlaybackState()
    state.volume = Volume(thousandths: 1001)
    #expect(state.invariantViolation == "volume 1.001 is outside 0...1")
    var lowered = PlaybackState()
    lowered.configuration.ducking = .lower(to: Volume(thousandths: -5))
    #expect(lowered.invariantViolation == "duck level -0.005 is outside 0...1")
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let text = String(decoding: try encoder.encode(state), as: UTF8.self)
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(PlaybackState.self, from: Data(text.utf8))
    }
  }
}
