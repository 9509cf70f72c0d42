public import PlayerState

/// The lock screen's and Control Center's commands (`MPRemoteCommandCenter`), by the name of
/// the command object that sends them, and what each means to the machine. Pure, so the
/// mapping is tested on Linux; the shell (`RemoteCommandBridge`) only wires it to MediaPlayer.
public enum RemoteCommand: String, Hashable, Sendable, CaseIterable {
  /// `playCommand`: `resume` (loads an idle entry, replays an ended one).
  case play
  /// `pauseCommand`.
  case pause
  /// `togglePlayPauseCommand` (headsets, CarPlay): the machine's `toggle`.
  case togglePlayPause
  /// `stopCommand`.
  case stop
  /// `nextTrackCommand`.
  case nextTrack
  /// `previousTrackCommand`.
  case previousTrack
  /// `skipForwardCommand`: `skip(by: +interval)`.
  case skipForward
  /// `skipBackwardCommand`: `skip(by: −interval)`.
  case skipBackward
  /// `changePlaybackPositionCommand` (the scrubber): `setPosition` of the entry the
  /// lock screen was showing, so a scrub from before a skip is ignored.
  case changePlaybackPosition

  /// The command of ``AvailableCommands`` that decides whether this one is enabled.
  public var availability: AvailableCommands {
    switch self {
    case .play: .play
    case .pause: .pause
    case .togglePlayPause: .toggle
    case .stop: .stop
    case .nextTrack: .next
    case .previousTrack: .previous
    case .skipForward, .skipBackward: .skip
    case .changePlaybackPosition: .seek
    }
  }

  /// Whether the command's button is enabled (`isEnabled`) while `available` holds.
  public func isEnabled(in available: AvailableCommands) -> Bool {
    available.contains(availability)
  }
}

/// What a remote command event carries besides its command.
public enum RemoteCommandArgument: Hashable, Sendable {
  /// None (play, pause, toggle, stop, next, previous).
  case none
  /// The skip interval the command was configured with, in seconds (`preferredIntervals`).
  case interval(seconds: Double)
  /// The position the user scrubbed to, in seconds (`positionTime`).
  case position(seconds: Double)
}

extension RemoteCommand {
  /// The event the command sends, from a remote source, or nil when the event carries
  /// nothing usable (a missing, negative or non-finite time, a scrub with no entry shown).
  /// - Parameters:
  ///   - argument: what the command event carried.
  ///   - shown: the entry the lock screen was showing (the last ``NowPlayingInfo``'s).
  public func event(_ argument: RemoteCommandArgument, shown: ItemID?) -> PlaybackEvent? {
    switch (self, argument) {
    case (.play, _): .remote(.resume)
    case (.pause, _): .remote(.pause)
    case (.togglePlayPause, _): .remote(.toggle)
    case (.stop, _): .remote(.stop)
    case (.nextTrack, _): .remote(.next)
    case (.previousTrack, _): .remote(.previous)
    case (.skipForward, .interval(let seconds)):
      Self.milliseconds(seconds).map { .remote(.skip(by: $0)) }
    case (.skipBackward, .interval(let seconds)):
      Self.milliseconds(seconds).map { .remote(.skip(by: .milliseconds(-$0.milliseconds))) }
    case (.changePlaybackPosition, .position(let seconds)):
      shown.flatMap { item in Self.milliseconds(seconds).map { .remote(.setPosition(item, $0)) } }
    case (.skipForward, _), (.skipBackward, _), (.changePlaybackPosition, _): nil
    }
  }

  /// A non-negative finite number of seconds as whole milliseconds (at most about 292
  /// million years: the longest a `MediaTime` holds), or nil.
  static func milliseconds(_ seconds: Double) -> MediaTime? {
    guard seconds.isFinite, seconds >= 0, seconds < 9.2e15 else { return nil }
    return .milliseconds(Int64((seconds * 1000).rounded()))
  }
}

/// The values `MPNowPlayingInfoCenter.nowPlayingInfo` is given, from the machine's
/// ``PlaybackState/nowPlaying``: the rate is 0 whenever media is not playing (buffering,
/// stalled, suppressed, paused, ended), so the lock screen never runs its clock while the
/// next entry loads, and the elapsed time is the anchor of the newest discontinuity. A
/// live or DVR load is published as a live stream
/// (`MPNowPlayingInfoPropertyIsLiveStream`), with no duration: the lock screen then shows
/// no progress bar to scrub in a window that moves.
public struct NowPlayingInfo: Hashable, Sendable {
  /// The entry shown: a scrub names it (``RemoteCommand/changePlaybackPosition``).
  public var item: ItemID
  /// `MPMediaItemPropertyTitle`: the media's name.
  public var title: String
  /// `MPNowPlayingInfoPropertyElapsedPlaybackTime`, in seconds.
  public var elapsedSeconds: Double
  /// `MPNowPlayingInfoPropertyPlaybackRate`: 0 unless playing.
  public var rate: Double
  /// `MPMediaItemPropertyPlaybackDuration`, in seconds, once known; nil for a live stream.
  public var durationSeconds: Double?
  /// `MPNowPlayingInfoPropertyIsLiveStream`: the current load is live (the engine
  /// reported a window for it: ``NowPlaying/isLive``).
  public var isLive: Bool
  /// `MPNowPlayingInfoPropertyPlaybackQueueIndex`: 0-based, as Apple counts.
  public var queueIndex: Int
  /// `MPNowPlayingInfoPropertyPlaybackQueueCount`.
  public var queueCount: Int

  /// The info for a state, or nil with no current entry (the shell clears the center).
  public init?(_ state: PlaybackState) {
    guard let now = state.nowPlaying else { return nil }
    item = now.entry.item
    title = now.entry.media.rawValue
    elapsedSeconds = Double(now.elapsed.milliseconds) / 1000
    rate = now.rate.multiplier
    isLive = now.isLive
    // The machine keeps no duration for a live load; this keeps the lock screen's
    // promise whatever a future state says.
    durationSeconds = now.isLive ? nil : now.duration.map { Double($0.milliseconds) / 1000 }
    queueIndex = now.index
    queueCount = now.count
  }

  /// The dictionary to publish, keyed by the MediaPlayer constants' names (the shell
  /// looks each constant up: ``NowPlayingKey``). Always the title, the elapsed time, the
  /// rate, the queue index and count and whether it is live; the duration only when
  /// known and not live.
  public var values: [NowPlayingKey: NowPlayingValue] {
    var values: [NowPlayingKey: NowPlayingValue] = [
      .title: .text(title),
      .elapsedPlaybackTime: .seconds(elapsedSeconds),
      .playbackRate: .seconds(rate),
      .playbackQueueIndex: .count(queueIndex),
      .playbackQueueCount: .count(queueCount),
      .isLiveStream: .flag(isLive),
    ]
    if let durationSeconds { values[.playbackDuration] = .seconds(durationSeconds) }
    return values
  }
}

/// A key of `MPNowPlayingInfoCenter.nowPlayingInfo`, spelled as the MediaPlayer constant
/// that holds it (the constants' values are Apple's to choose; the shell maps each case to
/// its constant).
public enum NowPlayingKey: String, Hashable, Sendable, CaseIterable {
  /// `MPMediaItemPropertyTitle`.
  case title = "MPMediaItemPropertyTitle"
  /// `MPMediaItemPropertyPlaybackDuration`.
  case playbackDuration = "MPMediaItemPropertyPlaybackDuration"
  /// `MPNowPlayingInfoPropertyElapsedPlaybackTime`.
  case elapsedPlaybackTime = "MPNowPlayingInfoPropertyElapsedPlaybackTime"
  /// `MPNowPlayingInfoPropertyPlaybackRate`.
  case playbackRate = "MPNowPlayingInfoPropertyPlaybackRate"
  /// `MPNowPlayingInfoPropertyPlaybackQueueIndex`.
  case playbackQueueIndex = "MPNowPlayingInfoPropertyPlaybackQueueIndex"
  /// `MPNowPlayingInfoPropertyPlaybackQueueCount`.
  case playbackQueueCount = "MPNowPlayingInfoPropertyPlaybackQueueCount"
  /// `MPNowPlayingInfoPropertyIsLiveStream`.
  case isLiveStream = "MPNowPlayingInfoPropertyIsLiveStream"
}

/// A value of `MPNowPlayingInfoCenter.nowPlayingInfo`, as the shell boxes it.
public enum NowPlayingValue: Hashable, Sendable, CustomStringConvertible {
  /// A string (`NSString`).
  case text(String)
  /// A number of seconds or a rate (`NSNumber` of a `Double`).
  case seconds(Double)
  /// A count or an index (`NSNumber` of an `Int`).
  case count(Int)
  /// A Boolean (`NSNumber` of a `Bool`).
  case flag(Bool)

  /// The value as written: `"A"`, `12.5`, `3`, `true`.
  public var description: String {
    switch self {
    case .text(let text): "\"\(text)\""
    case .seconds(let seconds): "\(seconds)"
    case .count(let count): "\(count)"
    case .flag(let flag): "\(flag)"
    }
  }
}
