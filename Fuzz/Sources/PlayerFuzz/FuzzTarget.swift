public import PlayerEngine
public import PlayerState

/// A player under test: anything that takes ``PlayerState/PlaybackEvent``s and drives a
/// ``PlayerEngine/PlaybackEngine``. Conform your own player or engine adapter to point the
/// harness at it; ``PlayerTarget`` adapts Playhead's ``PlayerEngine/Player``.
///
/// The harness creates the engine (a recording ``FuzzEngine``), hands it to
/// your ``FuzzSubject/make`` closure, sends events through ``send(_:)``, and
/// reads ``observation`` after every step. Engine reports reach the player
/// both through ``send(_:)`` and through the `ReportSink` given to `execute`.
public protocol FuzzTarget: AnyObject {
  /// Processes one event: a user intent, an engine report or a watchdog expiry.
  func send(_ event: PlaybackEvent)
  /// What the player says about itself, read after every step.
  var observation: FuzzObservation { get }
  /// The player's state in words, for reports only (not read on the fast path).
  var stateDescription: String { get }
}

/// What the oracle reads from a player after each step.
public struct FuzzObservation: Hashable, Sendable {
  /// The named state the player believes it is in.
  public var kind: StateKind
  /// Whether the player says media is playing.
  public var isPlaying: Bool
  /// Whether the player awaits a seek completion, or nil if it does not say.
  public var seekPending: Bool?

  /// An observation.
  /// - Parameters:
  ///   - kind: the player's named state.
  ///   - isPlaying: whether it says it is playing.
  ///   - seekPending: whether a seek is awaited; nil to leave property 5 to its effects.
  public init(kind: StateKind, isPlaying: Bool, seekPending: Bool? = nil) {
    self.kind = kind
    self.isPlaying = isPlaying
    self.seekPending = seekPending
  }

  /// What a ``PlayerState/PlaybackState`` says about itself.
  /// - Parameter state: the state to read.
  public init(_ state: PlaybackState) {
    kind = state.kind
    isPlaying = state.isPlaying
    seekPending = state.session?.seekPending ?? false
  }
}

/// A named way to build a fresh player under test around the harness's engine.
///
/// ```swift
/// let mine = FuzzSubject(name: "MyPlayer") { engine in MyPlayerAdapter(engine: engine) }
/// let result = Fuzzer.run(mine, FuzzConfiguration(seed: 42, budget: .cases(10_000)))
/// ```
public struct FuzzSubject: Sendable {
  /// The name printed in reports.
  public let name: String
  /// Builds a fresh, idle player that sends its commands to the given engine.
  public let make: @Sendable (any PlaybackEngine) -> any FuzzTarget

  /// A subject.
  /// - Parameters:
  ///   - name: the name printed in reports.
  ///   - make: builds a fresh idle player around the given engine.
  public init(name: String, make: @escaping @Sendable (any PlaybackEngine) -> any FuzzTarget) {
    self.name = name
    self.make = make
  }

  /// Playhead's own ``PlayerEngine/Player``, without a watchdog timer (the harness sends
  /// expiries itself).
  public static let player = FuzzSubject(name: "Player") { engine in
    PlayerTarget(Player(engine: engine))
  }
}

/// Adapts ``PlayerEngine/Player`` to ``FuzzTarget``.
public final class PlayerTarget: FuzzTarget {
  /// The adapted player.
  public let player: Player

  /// Adapts a player.
  /// - Parameter player: a player whose engine is the harness's engine.
  public init(_ player: Player) { self.player = player }

  /// Sends the event to the player.
  public func send(_ event: PlaybackEvent) { player.send(event) }

  /// The player's state, read once under its lock.
  public var observation: FuzzObservation { FuzzObservation(player.state) }

  /// The compact form of the player's state, as in `playing(A#1)`.
  public var stateDescription: String { player.state.description }
}
