public import PlayerState

/// A `relaunch` or `handoff` line of a script, as its timeline row: a new
/// player, on a fake engine of its own, took over from the player before.
///
/// Players and their engines are numbered from 1 in the order the run makes
/// them: player N drives engine N. A relaunch discards every engine of the
/// run, so their pending callbacks are dropped (``dropped`` names the loads
/// they were for); a hand-off keeps the first player and engine, whose late
/// callbacks go to the first player only (rows marked ``TimelineEntry/isRetired``).
public struct PlayerChange: Hashable, Sendable, CustomStringConvertible {
  /// A load whose pending callbacks a discarded engine dropped.
  public struct Dropped: Hashable, Sendable, CustomStringConvertible {
    /// The engine (and player) number.
    public var engine: Int
    /// The load as printed, `A#1`.
    public var load: String

    /// A dropped load.
    public init(engine: Int, load: String) {
      self.engine = engine
      self.load = load
    }

    /// `A#1 of engine 1`.
    public var description: String { "\(load) of engine \(engine)" }
  }

  /// Which line made the change.
  public enum Kind: String, Hashable, Sendable, CaseIterable {
    /// `relaunch`: the app's process ended and started again; the new player
    /// is restored from the old one's snapshot, idle and paused.
    case relaunch
    /// `handoff`: playback moved to another engine (`Player.handOff(to:watchdog:onStep:)`):
    /// the first engine is stopped, the new player loads the current entry at
    /// once and plays if the user wanted to.
    case handoff
  }

  /// Virtual time since the start of the run, in milliseconds.
  public var milliseconds: Int64
  /// Which line made the change.
  public var kind: Kind
  /// The state of the player before, when the line ran.
  public var before: PlaybackState
  /// The state of the new player once the line has run (after a hand-off's own steps).
  public var after: PlaybackState
  /// The player before, numbered from 1.
  public var from: Int
  /// The new player (and its engine), numbered from 1.
  public var to: Int
  /// The engines a relaunch discarded, by number; none for a hand-off.
  public var discarded: [Int]
  /// The loads whose pending callbacks the discarded engines dropped, in
  /// engine then token order; none for a hand-off.
  public var dropped: [Dropped]

  /// A change.
  /// - Parameters:
  ///   - milliseconds: virtual time since the start of the run.
  ///   - kind: relaunch or hand-off.
  ///   - before: the state of the player before.
  ///   - after: the state of the new player once the line has run.
  ///   - from: the player before.
  ///   - to: the new player.
  ///   - discarded: the engines a relaunch discarded.
  ///   - dropped: the loads whose pending callbacks were dropped.
  public init(
    milliseconds: Int64, kind: Kind, before: PlaybackState, after: PlaybackState, from: Int,
    to: Int, discarded: [Int] = [], dropped: [Dropped] = []
  ) {
    self.milliseconds = milliseconds
    self.kind = kind
    self.before = before
    self.after = after
    self.from = from
    self.to = to
    self.discarded = discarded
    self.dropped = dropped
  }

  /// Where the change came from: always ``TimelineSource/system`` (the app's
  /// process, or the system's choice of an output).
  public var source: TimelineSource { .system }

  /// The event as printed: `relaunch` or `handoff`.
  public var eventText: String { kind.rawValue }

  /// What became of the engines, as the table's last column shows it:
  /// `player 2 on engine 2; engine 1 discarded, pending callbacks of A#1 dropped`,
  /// `… engine 1 discarded, no callback pending`, `player 3 on engine 3; engines
  /// 1, 2 discarded, pending callbacks of A#1 of engine 1, A#1 of engine 2 dropped`, or
  /// `player 2 on engine 2; engine 1 stopped, its late callbacks go to player 1 only`.
  public var summary: String {
    let taken = "player \(to) on engine \(to)"
    switch kind {
    case .relaunch:
      let engines =
        discarded.count == 1
        ? "engine \(discarded[0])"
        : "engines \(discarded.map(String.init).joined(separator: ", "))"
      let loads =
        discarded.count == 1
        ? dropped.map(\.load).joined(separator: " ")
        : dropped.map(\.description).joined(separator: ", ")
      let pending =
        dropped.isEmpty ? "no callback pending" : "pending callbacks of \(loads) dropped"
      return "\(taken); \(engines) discarded, \(pending)"
    case .handoff:
      return "\(taken); engine \(from) stopped, its late callbacks go to player \(from) only"
    }
  }

  /// `12.000s system relaunch: playing(A#1) -> idle; player 2 on engine 2; engine 1 discarded, …`.
  public var description: String {
    "\(SimulatedTime.clockText(milliseconds: milliseconds)) \(source.rawValue) \(eventText): "
      + "\(before) -> \(after); \(summary)"
  }

  /// The row as one JSON object on one line: the keys of ``TimelineEntry/json``
  /// (`commands` empty, `ignored`, `backoff` null, `notifications` empty,
  /// `failure`, `now_playing` and `available` of the new player, `player` the
  /// new player, `sleep` null: a restored player has no sleep timer, `volume` the
  /// new player's effective volume: the user's volume and mute are kept, a duck is not), then
  /// `dropped` (the loads whose pending callbacks were
  /// dropped: `[{"engine":1,"load":"A#1"}]`; empty for a hand-off).
  public var json: String {
    "{\"t_ms\":\(milliseconds),\"source\":\(JSONText.string(source.rawValue)),"
      + "\"event\":\(JSONText.string(eventText)),\"before\":\(JSONText.string(before.description)),"
      + "\"after\":\(JSONText.string(after.description)),\"commands\":[],\"ignored\":null,"
      + "\"backoff\":null,\"failure\":\(TimelineEntry.json(after.failure)),\"notifications\":[],"
      + "\"now_playing\":\(after.nowPlaying.map(TimelineEntry.json) ?? "null"),"
      + "\"available\":\(TimelineEntry.json(after.availableCommands)),\"player\":\(to),\"sleep\":null,"
      + "\"volume\":\(JSONText.volume(after.effectiveVolume)),"
      + "\"dropped\":[\(dropped.map { "{\"engine\":\($0.engine),\"load\":\(JSONText.string($0.load))}" }.joined(separator: ","))]}"
  }
}
