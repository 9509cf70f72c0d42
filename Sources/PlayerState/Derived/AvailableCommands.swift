/// The commands a remote control should offer now: each is available exactly
/// when sending it would not be ignored as ``IgnoreReason/noEffect`` or
/// ``IgnoreReason/invalidPosition`` (``PlaybackState/availableCommands``, read
/// from the guards of those rules and tested against the reducer on every
/// state it reaches, so the buttons cannot drift from the rules).
public struct AvailableCommands: OptionSet, Hashable, Sendable, CustomStringConvertible {
  /// The commands as bits.
  public let rawValue: UInt8

  /// Commands from bits.
  public init(rawValue: UInt8) { self.rawValue = rawValue }

  /// Play (``UserIntent/resume``).
  public static let play = AvailableCommands(rawValue: 1 << 0)
  /// Pause.
  public static let pause = AvailableCommands(rawValue: 1 << 1)
  /// The play/pause button (``UserIntent/toggle``).
  public static let toggle = AvailableCommands(rawValue: 1 << 2)
  /// Stop.
  public static let stop = AvailableCommands(rawValue: 1 << 3)
  /// Next entry.
  public static let next = AvailableCommands(rawValue: 1 << 4)
  /// Previous entry, or back to the start of this one.
  public static let previous = AvailableCommands(rawValue: 1 << 5)
  /// Seek to a position (tried with 0).
  public static let seek = AvailableCommands(rawValue: 1 << 6)
  /// Skip relative to the target (tried with +15 s).
  public static let skip = AvailableCommands(rawValue: 1 << 7)

  /// Every command with its name and the intent that decides it, in name order.
  public static let all: [(command: AvailableCommands, name: String, intent: UserIntent)] = [
    (.next, "next", .next), (.pause, "pause", .pause), (.play, "play", .resume),
    (.previous, "previous", .previous), (.seek, "seek", .seek(to: .zero)),
    (.skip, "skip", .skip(by: .seconds(15))), (.stop, "stop", .stop), (.toggle, "toggle", .toggle),
  ]

  /// The names of the commands held, sorted: `["next", "pause", "toggle"]`.
  public var names: [String] { Self.all.filter { contains($0.command) }.map(\.name) }

  /// The names, space-separated: `next pause toggle`.
  public var description: String { names.joined(separator: " ") }
}

extension PlaybackState {
  /// The commands a remote control should offer now (``AvailableCommands``).
  ///
  /// A command is available exactly when ``transition(on:)`` with its intent
  /// would not be ignored as ``IgnoreReason/noEffect`` or
  /// ``IgnoreReason/invalidPosition`` (a command that only fails for want of
  /// ids stays available: pressing it says why).
  /// - Complexity: O(1): read from the guards of those eight rules, without
  ///   reducing (a test checks it against the eight reductions on every
  ///   state the transition table reaches in two steps, and on random walks).
  public var availableCommands: AvailableCommands {
    // Read into locals (the optimizer and borrowed nested optionals, see FuzzObservation).
    let session = self.session
    let hasCurrent = queue.current != nil
    var available: AvailableCommands = []
    // `resume`: idle, it loads the current entry; loaded, it replays an ended
    // load or plays one the user paused or the system holds.
    let resumes: Bool
    if let session {
      resumes = session.stage == .ended || !playWhenReady || session.systemPaused
    } else {
      resumes = hasCurrent
    }
    if resumes { available.insert(.play) }
    if session != nil, playWhenReady { available.insert(.pause) }
    // `toggle`: pause (taken, as above), a failed load's retry (reloads the
    // current entry, if any), or `resume`.
    if let session, playWhenReady, session.stage != .ended, !session.stage.isFailed,
      suppression == nil
    {
      available.insert(.toggle)
    } else if let session, session.stage.isFailed {
      if hasCurrent { available.insert(.toggle) }
    } else if resumes {
      available.insert(.toggle)
    }
    if session != nil || preload != nil || sleepTimer != nil { available.insert(.stop) }
    if queue.skipTarget != nil { available.insert(.next) }
    let live = session.map { !$0.stage.isStopped } ?? false
    // `previous` restarts only a live load (a seek, taken), else goes to an entry.
    let livePosition = live ? session?.position : nil
    if queue.previousMove(
      livePosition: livePosition, loaded: session != nil,
      threshold: configuration.previousThreshold) != nil
    {
      available.insert(.previous)
    }
    // `seek(to: 0)` and `skip(by: 15 s)` (a seek to a target clamped to 0 or more).
    if live { available.insert([.seek, .skip]) }
    return available
  }

  /// ``availableCommands`` as its definition says: eight reductions on copies
  /// of the state, for the tests that check the O(1) reading against it.
  package var availableCommandsByReduction: AvailableCommands {
    var available: AvailableCommands = []
    var effects = Effects()
    for (command, _, intent) in AvailableCommands.all {
      var copy = self
      copy.handle(.user(intent), into: &effects)
      if effects.ignored != .noEffect, effects.ignored != .invalidPosition {
        available.insert(command)
      }
    }
    return available
  }
}
