public import PlayerState

/// An `expect` line that did not hold: where, what it expected, what was found.
public struct ExpectationFailure: Error, Hashable, Sendable, CustomStringConvertible {
  /// The script's file name.
  public var file: String
  /// The `expect` line.
  public var line: Int
  /// The column of `expect`.
  public var column: Int
  /// What the line expected, as in `state idle`.
  public var expected: String
  /// What was found, as in `state playing(A#1)`.
  public var found: String
  /// True when the run was stopped at the line because it processed more
  /// than ``ScenarioRunner/eventLimit`` events, not because an `expect` failed.
  public var isRunLimit: Bool

  /// A failure.
  public init(
    file: String, line: Int, column: Int, expected: String, found: String, isRunLimit: Bool = false
  ) {
    self.file = file
    self.line = line
    self.column = column
    self.expected = expected
    self.found = found
    self.isRunLimit = isRunLimit
  }

  /// `file:line:column: expect failed: expected state idle; found state playing(A#1)`,
  /// on one line: control characters escaped, and `expected` and `found` each
  /// cut to 400 characters with a marker (the fields hold the full text, and
  /// `player-sim run --json` prints it).
  /// A run stopped at the event limit says `run limit hit` instead of `expect failed`.
  public var description: String {
    "\(terminalSafe(file)):\(line):\(column): \(isRunLimit ? "run limit hit" : "expect failed"): expected "
      + "\(terminalSafe(expected, limit: terminalMessageLimit)); found \(terminalSafe(found, limit: terminalMessageLimit))"
  }

  /// The failure as one JSON object on one line, with the full, unescaped text:
  /// `{"expect_failed":{"file":…,"line":…,"column":…,"expected":…,"found":…}}`.
  /// A run stopped at the event limit uses the key `run_limit` instead.
  public var json: String {
    "{\"\(isRunLimit ? "run_limit" : "expect_failed")\":{\"file\":\(JSONText.string(file)),\"line\":\(line),\"column\":\(column),"
      + "\"expected\":\(JSONText.string(expected)),\"found\":\(JSONText.string(found))}}"
  }
}

/// What a run did: its timeline, and the first `expect` that failed, if any.
public struct ScenarioResult: Hashable, Sendable {
  /// Every processed event, in order.
  public var entries: [TimelineEntry]
  /// The first failed expectation; the run stopped there. Nil if all held.
  public var failure: ExpectationFailure?
  /// The player's state at the end of the run.
  public var finalState: PlaybackState
  /// The commands the engines received, in the order they were sent (every
  /// player's, after a `relaunch` or `handoff`); empty when the runner's
  /// `keepsEntries` is off.
  public var commands: [EngineCommand]
  /// The virtual time at the end of the run, in milliseconds.
  public var milliseconds: Int64
  /// The players that handed off still kept at the end of the run for their late callbacks
  /// (issue 39, R14: a test counts them).
  package var retiredPlayersKept = 0
  /// The most players that handed off kept at once during the run.
  package var mostRetiredPlayersKept = 0

  /// Whether every `expect` held.
  public var passed: Bool { failure == nil }
}
