// swift-format-ignore-file
// (A stub of Apple API, for type-checking only; Apple documents these declarations.)
// A stub of the AVFoundation API the shell uses, with the SDK's Swift signatures, so the
// shell can be type-checked (not run) on Linux.
@_exported import Foundation

public struct CMTime: Sendable {
  public init(value: Int64, timescale: Int32) {}
  public static let zero = CMTime(value: 0, timescale: 1)
  public var seconds: Double { 0 }
  public var isNumeric: Bool { true }
  public var isIndefinite: Bool { false }
}
public final class NSKeyValueObservation: NSObject { public func invalidate() {} }
public struct NSKeyValueObservingOptions: OptionSet, Sendable {
  public let rawValue: UInt
  public init(rawValue: UInt) { self.rawValue = rawValue }
  public static let new = NSKeyValueObservingOptions(rawValue: 1)
  public static let initial = NSKeyValueObservingOptions(rawValue: 4)
}
public struct NSKeyValueObservedChange<Value> { public let newValue: Value? }
public protocol _KeyValueCodingAndObserving {}
extension NSObject: _KeyValueCodingAndObserving {}
extension _KeyValueCodingAndObserving {
  public func observe<Value>(
    _ keyPath: KeyPath<Self, Value>, options: NSKeyValueObservingOptions = [],
    changeHandler: @escaping (Self, NSKeyValueObservedChange<Value>) -> Void
  ) -> NSKeyValueObservation { NSKeyValueObservation() }
}
open class AVPlayerItem: NSObject {
  public enum Status: Int, Sendable { case unknown, readyToPlay, failed }
  public init(url: URL) {}
  public var status: Status { .unknown }
  public var error: (any Error)? { nil }
  public var isPlaybackLikelyToKeepUp: Bool { false }
  public var isPlaybackBufferFull: Bool { false }
  public static let playbackStalledNotification = Notification.Name("s")
  public static let didPlayToEndTimeNotification = Notification.Name("e")
  public static let failedToPlayToEndTimeNotification = Notification.Name("f")
  public func seek(to time: CMTime, completionHandler: (@Sendable (Bool) -> Void)?) {}
  public var duration: CMTime { .zero }
  public var seekableTimeRanges: [NSValue] { [] }
  public func currentTime() -> CMTime { .zero }
  public var tracks: [AVPlayerItemTrack] { [] }
  @NSCopying public var audioMix: AVAudioMix?
}
open class AVPlayerItemTrack: NSObject {
  public var assetTrack: AVAssetTrack? { nil }
}
public struct AVMediaType: Hashable, RawRepresentable, Sendable {
  public let rawValue: String
  public init(rawValue: String) { self.rawValue = rawValue }
  public static let audio = AVMediaType(rawValue: "soun")
}
open class AVAssetTrack: NSObject {
  public var mediaType: AVMediaType { .audio }
}
public struct CMTimeRange: Sendable {
  public init(start: CMTime, duration: CMTime) {}
  public var start: CMTime { .zero }
  public var duration: CMTime { .zero }
  public var end: CMTime { .zero }
}
extension NSValue {
  public var timeRangeValue: CMTimeRange { CMTimeRange(start: .zero, duration: .zero) }
}
open class AVAudioMix: NSObject, NSCopying {
  public func copy(with zone: NSZone? = nil) -> Any { self }
}
open class AVMutableAudioMix: AVAudioMix {
  public override init() {}
  public var inputParameters: [AVAudioMixInputParameters] = []
}
open class AVAudioMixInputParameters: NSObject {}
open class AVMutableAudioMixInputParameters: AVAudioMixInputParameters {
  public convenience init(track: AVAssetTrack?) { self.init() }
  public func setVolumeRamp(fromStartVolume startVolume: Float, toEndVolume endVolume: Float, timeRange: CMTimeRange) {}
}
public let AVPlayerItemFailedToPlayToEndTimeErrorKey: String = "k"
open class AVPlayer: NSObject {
  public enum Status: Int, Sendable { case unknown, readyToPlay, failed }
  public enum TimeControlStatus: Int, Sendable {
    case paused, waitingToPlayAtSpecifiedRate, playing
  }
  public enum ActionAtItemEnd: Int, Sendable { case advance, pause, none }
  public struct WaitingReason: Hashable, RawRepresentable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let toMinimizeStalls = WaitingReason(rawValue: "a")
    public static let evaluatingBufferingRate = WaitingReason(rawValue: "b")
    public static let noItemToPlay = WaitingReason(rawValue: "c")
  }
  public override init() {}
  public var status: Status { .unknown }
  public var error: (any Error)? { nil }
  public var timeControlStatus: TimeControlStatus { .paused }
  public var reasonForWaitingToPlay: WaitingReason? { nil }
  public var actionAtItemEnd: ActionAtItemEnd = .pause
  public var automaticallyWaitsToMinimizeStalling = true
  public var rate: Float = 0
  public var volume: Float = 1
  public func play() {}
  public func pause() {}
  public func replaceCurrentItem(with item: AVPlayerItem?) {}
  public var currentItem: AVPlayerItem? { nil }
  public func seek(
    to time: CMTime, toleranceBefore: CMTime, toleranceAfter: CMTime,
    completionHandler: @escaping @Sendable (Bool) -> Void
  ) {}
}
open class AVQueuePlayer: AVPlayer {
  public override init() {}
  public func items() -> [AVPlayerItem] { [] }
  public func advanceToNextItem() {}
  public func insert(_ item: AVPlayerItem, after afterItem: AVPlayerItem?) {}
  public func remove(_ item: AVPlayerItem) {}
  public func removeAllItems() {}
}
// iOS and tvOS only in the SDK; the shell's use of it is behind #if os(iOS) || os(tvOS).
open class AVAudioSession: NSObject {
  open class func sharedInstance() -> AVAudioSession { AVAudioSession() }
  public static let interruptionNotification = NSNotification.Name("i")
  public static let routeChangeNotification = NSNotification.Name("r")
  public static let silenceSecondaryAudioHintNotification = NSNotification.Name("h")
}
public let AVAudioSessionInterruptionTypeKey: String = "t"
public let AVAudioSessionInterruptionOptionKey: String = "o"
public let AVAudioSessionRouteChangeReasonKey: String = "c"
public let AVAudioSessionSilenceSecondaryAudioHintTypeKey: String = "h"
