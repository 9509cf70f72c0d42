#if canImport(MediaPlayer)
  import AVPlayerEngineCore
  import Foundation
  import MediaPlayer
  public import PlayerEngine
  import PlayerState

  /// The lock screen, Control Center, headsets and CarPlay for a `Player`: every
  /// `MPRemoteCommandCenter` command sends the machine's intent as a remote one (never a
  /// decision made here from the state), each button is enabled exactly when its intent
  /// would be taken (`availableCommands`), and `MPNowPlayingInfoCenter` shows
  /// `nowPlaying` — rate 0 whenever media is not playing, the elapsed anchor of the newest
  /// discontinuity. The mapping is `RemoteCommand` and `NowPlayingInfo`, tested on Linux.
  ///
  /// ```swift
  /// let bridge = RemoteCommandBridge(player: player)
  /// bridge.start()   // when playback begins; bridge.stop() when it ends
  /// ```
  @MainActor
  public final class RemoteCommandBridge {
    private let player: Player
    private let skipInterval: Double
    private var targets: [(MPRemoteCommand, Any)] = []
    private var updates: Task<Void, Never>?
    /// The entry the lock screen shows: a scrub names it, so one from before a skip is ignored.
    private var shown: ItemID?

    /// A bridge for `player`, skipping `skipInterval` seconds (15 by default).
    public init(player: Player, skipInterval: Double = 15) {
      self.player = player
      self.skipInterval = skipInterval
    }

    /// Registers the commands and starts publishing the player's states.
    public func start() {
      guard updates == nil else { return }
      let center = MPRemoteCommandCenter.shared()
      center.skipForwardCommand.preferredIntervals = [NSNumber(value: skipInterval)]
      center.skipBackwardCommand.preferredIntervals = [NSNumber(value: skipInterval)]
      for command in RemoteCommand.allCases {
        let object = Self.object(command, in: center)
        let target = object.addTarget { [weak self] event in
          MainActor.assumeIsolated { self?.handle(command, event) ?? .commandFailed }
        }
        targets.append((object, target))
      }
      let states = player.latestStates()
      updates = Task { [weak self] in
        for await state in states { self?.publish(state) }
      }
    }

    /// Removes the commands' targets, stops publishing and clears Now Playing.
    public func stop() {
      for (command, target) in targets { command.removeTarget(target) }
      targets = []
      updates?.cancel()
      updates = nil
      shown = nil
      MPNowPlayingInfoCenter.default().nowPlayingInfo = nil
    }

    private func handle(
      _ command: RemoteCommand, _ event: MPRemoteCommandEvent
    ) -> MPRemoteCommandHandlerStatus {
      let argument: RemoteCommandArgument
      if let skip = event as? MPSkipIntervalCommandEvent {
        argument = .interval(seconds: skip.interval)
      } else if let scrub = event as? MPChangePlaybackPositionCommandEvent {
        argument = .position(seconds: scrub.positionTime)
      } else {
        argument = .none
      }
      guard let intent = command.event(argument, shown: shown) else { return .commandFailed }
      player.send(intent)
      return .success
    }

    private func publish(_ state: PlaybackState) {
      let center = MPRemoteCommandCenter.shared()
      let available = state.availableCommands
      for command in RemoteCommand.allCases {
        Self.object(command, in: center).isEnabled = command.isEnabled(in: available)
      }
      guard let info = NowPlayingInfo(state) else {
        shown = nil
        MPNowPlayingInfoCenter.default().nowPlayingInfo = nil
        return
      }
      shown = info.item
      var values: [String: Any] = [:]
      for (key, value) in info.values { values[Self.constant(key)] = Self.object(value) }
      MPNowPlayingInfoCenter.default().nowPlayingInfo = values
    }

    /// The MediaPlayer constant a key names.
    private static func constant(_ key: NowPlayingKey) -> String {
      switch key {
      case .title: MPMediaItemPropertyTitle
      case .playbackDuration: MPMediaItemPropertyPlaybackDuration
      case .elapsedPlaybackTime: MPNowPlayingInfoPropertyElapsedPlaybackTime
      case .playbackRate: MPNowPlayingInfoPropertyPlaybackRate
      case .playbackQueueIndex: MPNowPlayingInfoPropertyPlaybackQueueIndex
      case .playbackQueueCount: MPNowPlayingInfoPropertyPlaybackQueueCount
      case .isLiveStream: MPNowPlayingInfoPropertyIsLiveStream
      }
    }

    /// A value as `nowPlayingInfo` takes it (bridged to `NSString` or `NSNumber`).
    private static func object(_ value: NowPlayingValue) -> Any {
      switch value {
      case .text(let text): text
      case .seconds(let seconds): seconds
      case .count(let count): count
      case .flag(let flag): flag
      }
    }

    private static func object(
      _ command: RemoteCommand, in center: MPRemoteCommandCenter
    ) -> MPRemoteCommand {
      switch command {
      case .play: center.playCommand
      case .pause: center.pauseCommand
      case .togglePlayPause: center.togglePlayPauseCommand
      case .stop: center.stopCommand
      case .nextTrack: center.nextTrackCommand
      case .previousTrack: center.previousTrackCommand
      case .skipForward: center.skipForwardCommand
      case .skipBackward: center.skipBackwardCommand
      case .changePlaybackPosition: center.changePlaybackPositionCommand
      }
    }
  }
#endif
