/// The commands a remote control should offer now: each is available exactly
/// when sending it would not be ignored as ``IgnoreReason/noEffect`` or
/// ``IgnoreReason/invalidPosition`` (``PlaybackState/availableCommands``, read
/// from the guards those rules begin with, so the buttons cannot drift from
/// the rules; tested against the reducer on every state it reaches).
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
  /// would not be ignored as ``IgnoreReason/noEffect``,
  /// ``IgnoreReason/invalidPosition`` or ``IgnoreReason/notSeekable`` (a
  /// live stream without DVR offers no seek) (a command that only fails for want of
  /// ids stays available: pressing it says why).
  /// - Complexity: O(1): each command's rule begins with the guard read
  ///   here (`canResume`, `canPause`, …), so the buttons and the rules share
  ///   one decision; a test also checks this against the eight reductions on
  ///   every state the transition table reaches in two steps, and on random walks.
  public var availableCommands: AvailableCommands {
    var available: AvailableCommands = []
    if canResume { available.insert(.play) }
    if canPause { available.insert(.pause) }
    if canToggle { available.insert(.toggle) }
    if canStop { available.insert(.stop) }
    if queue.skipTarget != nil { available.insert(.next) }
    if previousMove != nil { available.insert(.previous) }
    // `seek(to: 0)` and `skip(by: 15 s)` (a seek to a target clamped to 0 or more).
    if canSeek, session?.kind != .live { available.insert([.seek, .skip]) }
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
      if effects.ignored != .noEffect, effects.ignored != .invalidPosition,
        effects.ignored != .notSeekable
      {
        available.insert(command)
      }
    }
    return available
  }
}
