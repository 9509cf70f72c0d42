import AVPlayerEngineCore
import PlayerState
import Testing

/// Issue 22, item 7: `MPRemoteCommandCenter` and `MPNowPlayingInfoCenter` from the
/// machine, as the pure core the shell wires to MediaPlayer.
@Suite struct RemoteControlsTests {
  /// Each command's event, with literal values.
  @Test func commandsBecomeRemoteIntents() {
    let shown = ItemID(2)
    let events = RemoteCommand.allCases.map { command -> String in
      let argument: RemoteCommandArgument =
        switch command {
        case .skipForward, .skipBackward: .interval(seconds: 15)
        case .changePlaybackPosition: .position(seconds: 42.5)
        default: .none
        }
      return command.event(argument, shown: shown)?.description ?? "nil"
    }
    #expect(
      events == [
        "remote(resume)", "remote(pause)", "remote(toggle)", "remote(stop)", "remote(next)",
        "remote(previous)", "remote(skip(+15000ms))", "remote(skip(-15000ms))",
        "remote(setPosition(item2, 42500ms))",
      ])
  }

  @Test func unusableArgumentsSendNothing() {
    #expect(RemoteCommand.skipForward.event(.none, shown: nil) == nil)
    #expect(RemoteCommand.skipBackward.event(.interval(seconds: .nan), shown: nil) == nil)
    #expect(RemoteCommand.changePlaybackPosition.event(.position(seconds: 3), shown: nil) == nil)
    #expect(
      RemoteCommand.changePlaybackPosition.event(.position(seconds: -1), shown: ItemID(1)) == nil)
    #expect(
      RemoteCommand.changePlaybackPosition.event(.position(seconds: .infinity), shown: ItemID(1))
        == nil)
  }

  /// `isEnabled` from the machine's available commands: previous on the
  /// first entry restarts it (enabled), next at the last entry is disabled.
  @Test func buttonsFollowTheAvailableCommands() {
    var state = PlaybackState()
    for event in [PlaybackEvent.queue(["A", "B"]), .next, .ready(Load(2, 2))] {
      state = state.transition(on: event).next
    }
    let enabled = RemoteCommand.allCases.filter { $0.isEnabled(in: state.availableCommands) }
    #expect(
      enabled.map(\.rawValue) == [
        "pause", "togglePlayPause", "stop", "previousTrack", "skipForward", "skipBackward",
        "changePlaybackPosition",
      ])
    #expect(RemoteCommand.allCases.filter { $0.isEnabled(in: PlaybackState().availableCommands) } == [])
  }

  /// RNTP #1426 / music-assistant #494: next while loading publishes rate 0
  /// and the new entry's 0 elapsed, then its real rate once ready.
  @Test func nextWhileLoadingPublishesRateZero() throws {
    var state = PlaybackState()
    var published: [NowPlayingInfo?] = []
    let events: [PlaybackEvent] = [
      .queue(["A", "B"]), .ready(Load(1, 1), duration: .seconds(200)),
      .position(Load(1, 1), .seconds(80)), .remote(.next), .ready(Load(2, 2), duration: .seconds(90)),
    ]
    for event in events {
      state = state.transition(on: event).next
      published.append(NowPlayingInfo(state))
    }
    let text = published.map { info in
      info.map {
        "\($0.title) \($0.queueIndex)/\($0.queueCount) \($0.elapsedSeconds)s x\($0.rate)"
          + " of \($0.durationSeconds.map { "\($0)s" } ?? "?")"
      } ?? "none"
    }
    #expect(
      text == [
        "A 0/2 0.0s x0.0 of ?", "A 0/2 0.0s x1.0 of 200.0s", "A 0/2 0.0s x1.0 of 200.0s",
        "B 1/2 0.0s x0.0 of ?", "B 1/2 0.0s x1.0 of 90.0s",
      ])
    // A scrub sent from the lock screen still showing A, after the skip: ignored.
    let shownA = try #require(published[2]).item
    let scrub = try #require(RemoteCommand.changePlaybackPosition.event(.position(seconds: 5), shown: shownA))
    #expect(state.transition(on: scrub).ignored == .notCurrentEntry)
    #expect(NowPlayingInfo(PlaybackState()) == nil)
  }

  /// Issue 38: a live load is published as a live stream with no duration; on-demand
  /// media keeps its duration and says it is not live. Keys as the constants' names.
  @Test func aLiveLoadIsALiveStreamWithNoDuration() throws {
    var state = PlaybackState()
    for event in [
      PlaybackEvent.queue(["A", "B"]), .ready(Load(1, 1), duration: .seconds(200)),
    ] {
      state = state.transition(on: event).next
    }
    #expect(
      Self.published(try #require(NowPlayingInfo(state))) == [
        "MPMediaItemPropertyPlaybackDuration=200.0", #"MPMediaItemPropertyTitle="A""#,
        "MPNowPlayingInfoPropertyElapsedPlaybackTime=0.0",
        "MPNowPlayingInfoPropertyIsLiveStream=false",
        "MPNowPlayingInfoPropertyPlaybackQueueCount=2",
        "MPNowPlayingInfoPropertyPlaybackQueueIndex=0", "MPNowPlayingInfoPropertyPlaybackRate=1.0",
      ])
    // The window comes: the load is live, its duration gone.
    state =
      state.transition(
        on: .window(Load(1, 1), LiveWindow(start: .seconds(40), end: .seconds(100)))
      ).next
    let live = try #require(NowPlayingInfo(state))
    #expect(live.isLive)
    #expect(live.durationSeconds == nil)
    #expect(
      Self.published(live) == [
        #"MPMediaItemPropertyTitle="A""#, "MPNowPlayingInfoPropertyElapsedPlaybackTime=100.0",
        "MPNowPlayingInfoPropertyIsLiveStream=true",
        "MPNowPlayingInfoPropertyPlaybackQueueCount=2",
        "MPNowPlayingInfoPropertyPlaybackQueueIndex=0", "MPNowPlayingInfoPropertyPlaybackRate=1.0",
      ])
  }

  /// The dictionary as `key=value` lines, sorted by key.
  static func published(_ info: NowPlayingInfo) -> [String] {
    info.values.map { "\($0.key.rawValue)=\($0.value)" }.sorted()
  }
}
