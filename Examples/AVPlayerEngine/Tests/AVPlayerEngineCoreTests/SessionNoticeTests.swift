import AVPlayerEngineCore
import PlayerState
import Testing

/// `AVAudioSession` notifications, by their raw `userInfo` numbers, to the player's events.
@Suite struct SessionNoticeTests {
  /// (type, options) → the event, or nil when the notification is not acted on.
  static let interruptions: [(UInt?, UInt?, SystemEvent?)] = [
    (1, nil, .interruptionBegan),
    (0, 1, .interruptionEnded(shouldResume: true)),
    (0, 0, .interruptionEnded(shouldResume: false)),
    (0, nil, .interruptionEnded(shouldResume: false)),
    (0, 0b11, .interruptionEnded(shouldResume: true)),  // an unknown option bit beside it
    (0, 0b10, .interruptionEnded(shouldResume: false)),
    (2, nil, nil),  // an unknown type
    (nil, 1, nil),  // no type
  ]

  @Test(arguments: interruptions)
  func interruption(_ type: UInt?, _ options: UInt?, _ event: SystemEvent?) {
    #expect(SessionNotice(interruptionType: type, options: options)?.event == event)
  }

  /// Route change reasons (`AVAudioSession.RouteChangeReason` raw values): only the old
  /// device going away (2) loses the route.
  static let routes: [(UInt?, SystemEvent?)] = [
    (2, .routeLost), (0, nil), (1, nil), (3, nil), (4, nil), (6, nil), (7, nil), (8, nil),
    (nil, nil),
  ]

  @Test(arguments: routes)
  func routeChange(_ reason: UInt?, _ event: SystemEvent?) {
    #expect(SessionNotice(routeChangeReason: reason)?.event == event)
  }

  /// Silence-secondary-audio hint types (`AVAudioSession.SilenceSecondaryAudioHintType` raw
  /// values): begin (1) is a duck, end (0) its end.
  static let hints: [(UInt?, SystemEvent?)] = [
    (1, .duckBegan), (0, .duckEnded), (2, nil), (nil, nil),
  ]

  @Test(arguments: hints)
  func silenceSecondaryAudioHint(_ type: UInt?, _ event: SystemEvent?) {
    #expect(SessionNotice(silenceSecondaryAudioHintType: type)?.event == event)
  }

  @Test func onlyInterruptionsChangeTheMachinesFlag() {
    #expect(SessionNotice.interruptionBegan.interruption == true)
    #expect(SessionNotice.interruptionEnded(shouldResume: true).interruption == false)
    #expect(SessionNotice.routeLost.interruption == nil)
    // A duck is not an interruption: AVPlayer does not pause for it (the machine does, with
    // the `.pause` policy, by sending `pause(L)`).
    #expect(SessionNotice.otherAudioBegan.interruption == nil)
    #expect(SessionNotice.otherAudioEnded.interruption == nil)
  }
}
