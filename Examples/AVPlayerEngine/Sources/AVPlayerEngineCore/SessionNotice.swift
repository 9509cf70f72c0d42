package import PlayerState

/// What an `AVAudioSession` notification said, as a value, and the ``SystemEvent`` the
/// app's ``Player`` hears for it (iOS, tvOS).
///
/// The shell reads the raw numbers from the notification's `userInfo` and this type
/// decides, so the decoding (including a missing or unknown value) is tested on Linux.
/// The numbers are the raw values of AVFoundation's `AVAudioSession.h`:
///
/// | notification | `userInfo` | notice | event |
/// | --- | --- | --- | --- |
/// | `interruptionNotification` | type 1 (`began`) | `interruptionBegan` | `interruptionBegan` |
/// | `interruptionNotification` | type 0 (`ended`), options with bit 1 (`shouldResume`) | `interruptionEnded(shouldResume: true)` | `interruptionEnded(shouldResume: true)` |
/// | `interruptionNotification` | type 0 (`ended`), no options or without that bit | `interruptionEnded(shouldResume: false)` | `interruptionEnded(shouldResume: false)` |
/// | `routeChangeNotification` | reason 2 (`oldDeviceUnavailable`: headphones unplugged) | `routeLost` | `routeLost` |
/// | `routeChangeNotification` | any other reason (a new device, a category change…) | — | — |
/// | `silenceSecondaryAudioHintNotification` | type 1 (`begin`: another app's primary audio started) | `otherAudioBegan` | `duckBegan` |
/// | `silenceSecondaryAudioHintNotification` | type 0 (`end`: it stopped) | `otherAudioEnded` | `duckEnded` |
/// | any | a type or reason missing or unknown | — | — |
///
/// The silence-secondary-audio hint is the session's "lower your sound" signal: Apple
/// documents that the system posts it only to an app in the foreground with an active
/// session, when another app's primary audio starts and stops; its type is under
/// `AVAudioSessionSilenceSecondaryAudioHintTypeKey`. It is meant for audio that is secondary
/// (a game's soundtrack in `.ambient`); a `.playback` session that does not mix with others
/// is interrupted instead (`interruptionNotification`). The player's
/// ``/PlayerState/PlayerConfiguration/ducking`` policy decides what a duck does: lower the
/// volume (the default) or pause.
package enum SessionNotice: Equatable, Sendable {
  /// An interruption began (a call, an alarm, another app took the audio).
  case interruptionBegan
  /// The interruption ended, with the system's hint that playback may resume or not.
  case interruptionEnded(shouldResume: Bool)
  /// The output device playback went to is gone (`oldDeviceUnavailable`).
  case routeLost
  /// Another app's primary audio started: secondary audio should be silenced (`begin`).
  case otherAudioBegan
  /// That audio stopped (`end`).
  case otherAudioEnded

  /// `AVAudioSession.InterruptionType.began.rawValue`.
  static let began: UInt = 1
  /// `AVAudioSession.InterruptionType.ended.rawValue`.
  static let ended: UInt = 0
  /// `AVAudioSession.InterruptionOptions.shouldResume.rawValue`.
  static let shouldResume: UInt = 1
  /// `AVAudioSession.RouteChangeReason.oldDeviceUnavailable.rawValue`.
  static let oldDeviceUnavailable: UInt = 2
  /// `AVAudioSession.SilenceSecondaryAudioHintType.begin.rawValue`.
  static let hintBegin: UInt = 1
  /// `AVAudioSession.SilenceSecondaryAudioHintType.end.rawValue`.
  static let hintEnd: UInt = 0

  /// An interruption notification: nil when its type is missing or unknown.
  /// - Parameters:
  ///   - type: `userInfo[AVAudioSessionInterruptionTypeKey]`.
  ///   - options: `userInfo[AVAudioSessionInterruptionOptionKey]` (only on `ended`).
  package init?(interruptionType type: UInt?, options: UInt?) {
    switch type {
    case Self.began: self = .interruptionBegan
    case Self.ended:
      self = .interruptionEnded(shouldResume: (options ?? 0) & Self.shouldResume != 0)
    default: return nil
    }
  }

  /// A route change notification: nil unless the old output device went away.
  /// - Parameter reason: `userInfo[AVAudioSessionRouteChangeReasonKey]`.
  package init?(routeChangeReason reason: UInt?) {
    guard reason == Self.oldDeviceUnavailable else { return nil }
    self = .routeLost
  }

  /// A silence-secondary-audio hint: nil when its type is missing or unknown.
  /// - Parameter type: `userInfo[AVAudioSessionSilenceSecondaryAudioHintTypeKey]`.
  package init?(silenceSecondaryAudioHintType type: UInt?) {
    switch type {
    case Self.hintBegin: self = .otherAudioBegan
    case Self.hintEnd: self = .otherAudioEnded
    default: return nil
    }
  }

  /// The event the app's player hears.
  package var event: SystemEvent {
    switch self {
    case .interruptionBegan: .interruptionBegan
    case .interruptionEnded(let resume): .interruptionEnded(shouldResume: resume)
    case .routeLost: .routeLost
    case .otherAudioBegan: .duckBegan
    case .otherAudioEnded: .duckEnded
    }
  }

  /// What every live load's `ItemMachine` learns: whether an interruption is active
  /// now (nil for a notice that does not change it).
  package var interruption: Bool? {
    switch self {
    case .interruptionBegan: true
    case .interruptionEnded: false
    case .routeLost, .otherAudioBegan, .otherAudioEnded: nil
    }
  }
}
