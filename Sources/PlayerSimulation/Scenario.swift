public import PlayerState

/// A parsed scenario script: the actions of its lines, in order.
///
/// Make one with ``ScenarioParser/parse(_:file:)`` and run it with ``ScenarioRunner``.
public struct Scenario: Hashable, Sendable {
  /// The name the script was parsed under, used in messages (`file:line:column`).
  public var file: String
  /// The actions, one per non-empty line, in script order.
  public var steps: [ScenarioStep]

  /// A scenario.
  /// - Parameters:
  ///   - file: the name used in messages.
  ///   - steps: the actions in order.
  public init(file: String, steps: [ScenarioStep]) {
    self.file = file
    self.steps = steps
  }
}

/// One action of a scenario and where it was written.
public struct ScenarioStep: Hashable, Sendable {
  /// The 1-based line of the action.
  public var line: Int
  /// The 1-based column of the action's first word.
  public var column: Int
  /// What to do.
  public var action: ScenarioAction

  /// A step.
  public init(line: Int, column: Int, action: ScenarioAction) {
    self.line = line
    self.column = column
    self.action = action
  }
}

/// What one line of a scenario does.
public enum ScenarioAction: Hashable, Sendable {
  /// `media A ready-after=300ms …`: describes a fake media for loads issued from now on.
  // The larger payloads (this one, `hostile`, `waitUntil`, `inject`) are
  // boxed (`indirect`), so that a step of a script of short lines such as
  // `stop` stays small: memory is at most 32 bytes per byte of script.
  indirect case media(MediaID, MediaProfile)
  /// `hostile on seed=7` / `hostile off`: makes the engine misbehave, or stop misbehaving.
  indirect case hostile(HostileMode?)
  /// `watchdog 5s` / `watchdog off`: the timeout of watchdogs armed from now on.
  case watchdog(Duration?)
  /// `play A`, `pause`, `resume`, `stop`, `seek 2s`, `retry`: a user intent.
  case intent(UserIntent)
  /// `wait 100ms`: advance the virtual clock, delivering the reports that fall due.
  case wait(Duration)
  /// `wait until playing(B#3) within=5s`: advance the clock report by report
  /// until the state matches; fails the run if it does not within the time.
  indirect case waitUntil(StateExpectation, within: Duration)
  /// `report ready A#1`: an engine report (or, with `timeout`, a watchdog
  /// expiry) injected by the script, as if from the engine.
  indirect case inject(PlaybackEvent)
  /// `expect state idle`: fails the run unless the state matches.
  case expectState(StateExpectation)
  /// `expect commands load(A#1) stop(A#1)`: fails the run unless exactly these
  /// commands were sent since the previous `expect commands`.
  case expectCommands([EngineCommand])
  /// `expect ignored staleLoad staleLoad`: fails the run unless exactly these
  /// reports and expiries (not intents) were ignored, for these reasons, since
  /// the previous `expect ignored`.
  case expectIgnored([IgnoreReason])
  /// `note …`: a line of narration printed in the timeline.
  case note(String)
}

/// What an `expect state` line accepts.
public enum StateExpectation: Hashable, Sendable, CustomStringConvertible {
  /// Any state of this kind: `expect state playing`.
  case kind(StateKind)
  /// Exactly this compact form, spaces aside: `expect state buffering(A#2, autoplay)`.
  case exactly(String)

  /// Whether `state` satisfies the expectation.
  /// - Parameter state: the player's state.
  /// - Returns: true when the kind matches, or the compact form matches ignoring spaces.
  public func matches(_ state: PlaybackState) -> Bool {
    switch self {
    case .kind(let kind): state.kind == kind
    case .exactly(let text): Self.normalized(state.description) == Self.normalized(text)
    }
  }

  /// The expectation as written, normalized: `playing`, `buffering(A#2, autoplay)`.
  public var description: String {
    switch self {
    case .kind(let kind): kind.rawValue
    case .exactly(let text): text
    }
  }

  /// The text without whitespace, so `x(A#1,autoplay)` matches `x(A#1, autoplay)`.
  static func normalized(_ text: String) -> String {
    String(text.unicodeScalars.filter { !$0.properties.isWhitespace }.map(Character.init))
  }
}
