// iOS and tvOS have an audio session; macOS and visionOS builds leave this file empty.
// ShellTypecheck defines PLAYHEAD_TYPECHECK_AUDIO_SESSION to type-check it on Linux.
#if (os(iOS) || os(tvOS) || PLAYHEAD_TYPECHECK_AUDIO_SESSION) && canImport(AVFoundation)
  import AVFoundation
  import AVPlayerEngineCore
  import Foundation
  import PlayerState

  extension PlayerCoordinator {
    /// Observes `AVAudioSession`'s interruption, route change and silence-secondary-audio
    /// hint notifications until ``shutDown()``. Each becomes a ``SessionNotice`` (the core
    /// decides, from the raw `userInfo` numbers): its event goes to `forward` at once, on the
    /// posting thread, and the live loads' machines learn of the interruption on the main
    /// actor.
    /// - Parameter forward: where the app's player hears the system's events.
    func observeAudioSession(_ forward: @escaping @Sendable (SystemEvent) -> Void) {
      let center = NotificationCenter.default
      let session = AVAudioSession.sharedInstance()
      let deliver: @Sendable (SessionNotice, PlayerCoordinator?) -> Void = { notice, coordinator in
        forward(notice.event)
        PlayerCoordinator.onMain(coordinator) { $0.sessionNoticed(notice) }
      }
      audioSessionObservers = [
        center.addObserver(
          forName: AVAudioSession.interruptionNotification, object: session, queue: nil
        ) { @Sendable [weak self] note in
          let info = note.userInfo
          let notice = SessionNotice(
            interruptionType: info?[AVAudioSessionInterruptionTypeKey] as? UInt,
            options: info?[AVAudioSessionInterruptionOptionKey] as? UInt)
          if let notice { deliver(notice, self) }
        },
        center.addObserver(
          forName: AVAudioSession.routeChangeNotification, object: session, queue: nil
        ) { @Sendable [weak self] note in
          let reason = note.userInfo?[AVAudioSessionRouteChangeReasonKey] as? UInt
          if let notice = SessionNotice(routeChangeReason: reason) { deliver(notice, self) }
        },
        // Another app's primary audio started or stopped: a duck and its end.
        center.addObserver(
          forName: AVAudioSession.silenceSecondaryAudioHintNotification, object: session,
          queue: nil
        ) { @Sendable [weak self] note in
          let type = note.userInfo?[AVAudioSessionSilenceSecondaryAudioHintTypeKey] as? UInt
          if let notice = SessionNotice(silenceSecondaryAudioHintType: type) {
            deliver(notice, self)
          }
        },
      ]
    }
  }
#endif
