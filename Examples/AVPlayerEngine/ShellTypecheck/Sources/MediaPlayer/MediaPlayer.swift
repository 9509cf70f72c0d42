// swift-format-ignore-file
// (A stub of Apple API, for type-checking only; Apple documents these declarations.)
// A stub of the MediaPlayer API the shell's RemoteCommandBridge uses, with the SDK's Swift
// signatures, so the bridge can be type-checked (not run) on Linux.
@_exported import Foundation

public enum MPRemoteCommandHandlerStatus: Int, Sendable {
  case success = 0, noSuchContent = 100, noActionableNowPlayingItem = 110, deviceNotFound = 120
  case commandFailed = 200
}
open class MPRemoteCommandEvent: NSObject {}
open class MPSkipIntervalCommandEvent: MPRemoteCommandEvent { open var interval: TimeInterval { 0 } }
open class MPChangePlaybackPositionCommandEvent: MPRemoteCommandEvent {
  open var positionTime: TimeInterval { 0 }
}
open class MPRemoteCommand: NSObject {
  open var isEnabled: Bool = true
  open func addTarget(handler: @escaping (MPRemoteCommandEvent) -> MPRemoteCommandHandlerStatus) -> Any { 0 }
  open func removeTarget(_ target: Any?) {}
}
open class MPSkipIntervalCommand: MPRemoteCommand { open var preferredIntervals: [NSNumber] = [] }
open class MPChangePlaybackPositionCommand: MPRemoteCommand {}
open class MPRemoteCommandCenter: NSObject {
  open class func shared() -> MPRemoteCommandCenter { MPRemoteCommandCenter() }
  open var playCommand: MPRemoteCommand { MPRemoteCommand() }
  open var pauseCommand: MPRemoteCommand { MPRemoteCommand() }
  open var togglePlayPauseCommand: MPRemoteCommand { MPRemoteCommand() }
  open var stopCommand: MPRemoteCommand { MPRemoteCommand() }
  open var nextTrackCommand: MPRemoteCommand { MPRemoteCommand() }
  open var previousTrackCommand: MPRemoteCommand { MPRemoteCommand() }
  open var skipForwardCommand: MPSkipIntervalCommand { MPSkipIntervalCommand() }
  open var skipBackwardCommand: MPSkipIntervalCommand { MPSkipIntervalCommand() }
  open var changePlaybackPositionCommand: MPChangePlaybackPositionCommand {
    MPChangePlaybackPositionCommand()
  }
}
open class MPNowPlayingInfoCenter: NSObject {
  open class func `default`() -> MPNowPlayingInfoCenter { MPNowPlayingInfoCenter() }
  open var nowPlayingInfo: [String: Any]?
}
public let MPMediaItemPropertyTitle = "title"
public let MPMediaItemPropertyPlaybackDuration = "playbackDuration"
public let MPNowPlayingInfoPropertyElapsedPlaybackTime = "MPNowPlayingInfoPropertyElapsedPlaybackTime"
public let MPNowPlayingInfoPropertyPlaybackRate = "MPNowPlayingInfoPropertyPlaybackRate"
public let MPNowPlayingInfoPropertyPlaybackQueueIndex = "MPNowPlayingInfoPropertyPlaybackQueueIndex"
public let MPNowPlayingInfoPropertyPlaybackQueueCount = "MPNowPlayingInfoPropertyPlaybackQueueCount"
public let MPNowPlayingInfoPropertyIsLiveStream = "MPNowPlayingInfoPropertyIsLiveStream"
