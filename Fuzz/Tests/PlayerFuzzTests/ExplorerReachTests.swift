import Foundation
import PlayerEngine
import PlayerFuzz
import PlayerState
import Testing

/// `ExplorationScope(reach:)` (issue 39, item 3): the four places a search over the standard
/// letters from a new player does not reach, each reached by its option, and a mistake planted
/// there found by the explorer with it and not without it.
@Suite struct ExplorerReachTests {
  @Test func theOptionsParseAndTheStandardScopesAreUnchanged() throws {
    #expect(ExplorationReach("removeBefore, atDuration") == [.removeBefore, .atDuration])
    #expect(ExplorationReach("all") == .all)
    #expect(ExplorationReach("none") == [])
    #expect(ExplorationReach("removeBefore,") == nil)
    #expect(ExplorationReach("shuffle") == nil)
    #expect(
      ExplorationReach.all.description == "removeBefore,shuffleDraw,atDuration,nearExhaustion")
    #expect(ExplorationReach([]).description == "none")
    // No reach by default: the scopes CI proves keep their classes and descriptions.
    #expect(ExplorationScope(entries: 2).configurations.count == 16)
    #expect(ExplorationScope(entries: 2).reach == [])
    #expect(!ExplorationScope(entries: 2, held: 0, features: .queue).description.contains("reach"))
    // The start states near exhaustion read back from their spelling.
    let starts = Explorer.nearExhaustionStarts
    #expect(starts.count == 2)
    #expect(
      starts.map(FuzzStart.spelling) == [
        "start(loads=4294967294 items=4294967293 queue=none sleeps=4294967294)",
        "start(loads=4294967294 items=4294967294 queue=A:4294967294* session=4294967294:ready "
          + "seek=4294967294 watchdog=4294967294)",
      ])
    let scope = ExplorationScope(
      entries: 1, held: 0, features: .core, reach: [.nearExhaustion, .atDuration])
    // Each class from a new player, then from each start.
    #expect(scope.configurations.count == 6)
    #expect(
      scope.configurations.map { $0.start == nil } == [true, true, false, false, false, false])
    #expect(
      scope.description
        == "queues ≤ 1, ≤ 0 held-back reports, configurations {no preload} × {retry off} × "
        + "{threshold 3000ms, watchdog 10000ms; threshold 0ms, watchdog 1000ms} × {a new player; "
        + "start(loads=4294967294 items=4294967293 queue=none sleeps=4294967294); "
        + "start(loads=4294967294 items=4294967294 queue=A:4294967294* session=4294967294:ready "
        + "seek=4294967294 watchdog=4294967294)}, features none, reach atDuration,nearExhaustion")
    // A shard keeps the starts' classes with the rest (6 classes, 3 shards of 2).
    #expect(scope.shard(2, of: 3).configurations.map { $0.start == nil } == [false, false])
  }

  /// Item 1. Removing the first entry while the second of two plays is in the standard
  /// alphabet (`queue(A B, start 2)`, `remove(1)`: a case spells positions from 1), but there the current entry is the last: an index
  /// not decremented points past the queue, and a driver that keeps it in range lands on the
  /// right entry. Only with an entry after the current one does it land on the wrong one.
  @Test func aRemovalBeforeTheCurrentEntryThatKeepsItsIndexIsFoundWithThreeEntries() throws {
    let subject = ReachMistakePlayer.subject(.removeBeforeKeepsIndex)
    let without = Explorer.explore(subject, scope: Self.scope(.queue, depth: 2))
    #expect(without.counterexample == nil, "\(without.verdict)")
    #expect(without.results.allSatisfy { $0.merged })
    let with = Explorer.explore(subject, scope: Self.scope(.queue, depth: 2, reach: .removeBefore))
    let failure = try #require(with.counterexample)
    #expect(failure.actions.map(\.description) == ["queue(A B C, start 2)", "remove(1)"])
    #expect(failure.property == .commandsMatchContract)
    // Playhead's Player passes the same search.
    #expect(
      Explorer.explore(.player, scope: Self.scope(.queue, depth: 2, reach: .removeBefore)).passed)
  }

  /// Item 2. With two entries a shuffle keeps the current one first and has one other to place:
  /// nothing is drawn, and the catalog's `shuffleNotReplayable` (the entries after the current
  /// one reversed) looks right. Three entries from one letter, and `shuffle(seed 1)` draws.
  @Test func aShuffleThatDoesNotFollowTheSeedIsFoundWhenItDraws() throws {
    let subject = BuggyPlayer(.shuffleNotReplayable).subject
    let without = Explorer.explore(subject, scope: Self.scope(.queue, depth: 2))
    #expect(without.counterexample == nil, "\(without.verdict)")
    let with = Explorer.explore(subject, scope: Self.scope(.queue, depth: 2, reach: .shuffleDraw))
    let failure = try #require(with.counterexample)
    #expect(failure.actions.map(\.description) == ["queue(A B C)", "shuffle(seed 1)"])
  }

  /// Item 3, the catalog's mistake: a seek refused because the seek ids ran out still moves
  /// the position. No search from a new player gets near the last id; from the start whose
  /// load has one seek id left, the second seek finds it.
  @Test func aRefusedSeekThatMovesThePositionIsFoundNearExhaustion() throws {
    let subject = BuggyPlayer(.exhaustedSeekMovesPosition).subject
    let without = Explorer.explore(subject, scope: Self.scope(.core, depth: 2))
    #expect(without.counterexample == nil, "\(without.verdict)")
    let with = Explorer.explore(
      subject, scope: Self.scope(.core, depth: 2, reach: .nearExhaustion))
    let failure = try #require(with.counterexample)
    #expect(failure.actions.map(\.description) == ["seek(0ms)", "seek(1000ms)"])
    // Found in the class searched from the start with a live load.
    #expect(with.results.map { $0.configuration.start?.session != nil } == [false, false, true])
  }

  /// Item 3, an id that wraps: a driver whose load counter wraps to 0 at its last token
  /// loads again with token 1 where the contract refuses (`idsExhausted`). Merged on the
  /// player's state, and the search from the idle start finds it in two letters.
  @Test func aLoadTokenThatWrapsIsFoundNearExhaustion() throws {
    let subject = ReachMistakePlayer.subject(.loadTokenWraps)
    let without = Explorer.explore(subject, scope: Self.scope(.core, depth: 3))
    #expect(without.counterexample == nil, "\(without.verdict)")
    let with = Explorer.explore(subject, scope: Self.scope(.core, depth: 3, reach: .nearExhaustion))
    let failure = try #require(with.counterexample)
    #expect(failure.actions.map(\.description) == ["play(A)", "play(B)"])
    #expect(failure.property == .commandsMatchContract)
    #expect(with.results.allSatisfy { $0.merged })
  }

  /// Item 3, the proof: Playhead's `Player` from the idle start near exhaustion, one class,
  /// to a fixpoint, every merged state checked to behave alike (the key keeps how far each id
  /// is from its last). Skipped under the sanitizers.
  @Test(.enabled(if: ProcessInfo.processInfo.environment["PLAYHEAD_SANITIZER"] == nil))
  func thePlayerIsCompleteFromTheIdleStartNearExhaustion() throws {
    let scope = ExplorationScope(entries: 1, held: 0, features: .core, reach: .nearExhaustion)
    let idle = try #require(
      scope.configurations.first {
        $0.start?.session == nil && $0.start != nil && $0.previousThreshold == .zero
      })
    let proof = Explorer.explore(
      .player,
      scope: ExplorationScope(entries: 1, held: 0, configurations: [idle], features: .core))
    #expect(proof.complete, "\(proof.verdict)")
    #expect(proof.states == 594)
  }

  /// Item 4. The standard letters set a position at 0, past the threshold and past the
  /// duration: a driver that refuses a position at the duration itself (`>=` for `>`) passes
  /// them all. The letter at the duration finds it.
  @Test func aPositionAtTheDurationRefusedIsFoundAtTheDuration() throws {
    let subject = ReachMistakePlayer.subject(.positionAtDurationRefused)
    let without = Explorer.explore(subject, scope: Self.scope(.controls, depth: 3))
    #expect(without.counterexample == nil, "\(without.verdict)")
    let with = Explorer.explore(subject, scope: Self.scope(.controls, depth: 3, reach: .atDuration))
    let failure = try #require(with.counterexample)
    #expect(
      failure.actions.map(\.description) == [
        "play(A)", "ready(item1#1, duration 5000ms)", "setPosition(item1, 5000ms)",
      ])
    #expect(failure.property == .commandsMatchContract)
  }

  /// One class (threshold 3 s, no preload, retry off) of `features`, no report held back,
  /// every sequence up to `depth` letters.
  static func scope(
    _ features: FuzzFeatures, depth: Int, reach: ExplorationReach = []
  ) -> ExplorationScope {
    let base = ExplorationConfiguration(canPreload: false, retry: .off, threshold: .standard)
    return ExplorationScope(
      entries: 2, held: 0, configurations: [base], features: features, maxDepth: depth,
      reach: reach)
  }
}

/// Playhead's `Player` behind a driver with one mistake where only an ``ExplorationReach``
/// option takes the explorer. Its snapshot is the player's state (the mistakes keep nothing
/// else), so the explorer merges its states.
final class ReachMistakePlayer: FuzzTarget {
  enum Mistake {
    /// After a removal before the current entry, the driver selects the entry at the index it
    /// kept (not decremented) when there is one: the entry after the current one loads.
    case removeBeforeKeepsIndex
    /// `setPosition` at the reported duration is refused, as past it (`>=` for `>`).
    case positionAtDurationRefused
    /// The load counter wraps at its last token: the next load is token 1.
    case loadTokenWraps
  }

  private(set) var player: Player
  let engine: any PlaybackEngine
  let mistake: Mistake

  init(_ engine: any PlaybackEngine, _ mistake: Mistake) {
    self.engine = engine
    self.mistake = mistake
    player = FuzzEngine.player(for: engine)
  }

  static func subject(_ mistake: Mistake) -> FuzzSubject {
    FuzzSubject(name: "ReachMistake.\(mistake)") { ReachMistakePlayer($0, mistake) }.reading(.all)
  }

  func send(_ event: PlaybackEvent) {
    let state = player.state
    switch (mistake, event) {
    case (.removeBeforeKeepsIndex, .user(.remove(let at))):
      player.send(event)
      if let current = state.queue.current, at < current, current < player.state.queue.entries.count
      {
        player.send(.user(.jump(to: current)))
      }
    case (.positionAtDurationRefused, .user(.setPosition(let item, let time))):
      if let duration = state.session?.duration, time == duration {
        player.send(.user(.setPosition(item, .milliseconds(time.milliseconds + 1))))
      } else {
        player.send(event)
      }
    case (.loadTokenWraps, .user):
      if state.issuedLoads == UInt32.max {
        var wrapped = state
        wrapped.issuedLoads = 0
        player = Player(
          engine: engine, startingAt: wrapped, watchdog: FuzzEngine.watchdog(for: engine))
      }
      player.send(event)
    default:
      player.send(event)
    }
  }

  var observation: FuzzObservation { FuzzObservation(player.state) }

  var stateDescription: String { player.state.description }

  var snapshot: AnyHashable? { player.state }
}
