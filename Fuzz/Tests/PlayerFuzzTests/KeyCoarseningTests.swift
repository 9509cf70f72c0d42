import PlayerFuzz
import PlayerState
import Testing

/// What Playhead's canonical key leaves out because no rule reads it: a failed
/// session's reason (the explorer's searches found states that differed in it
/// alone and behaved alike). What still tells states apart is kept.
@Suite struct KeyCoarseningTests {
  static let load = Load(1, 1)

  /// The canonical key of a one-entry state with `session`, `preload` and `sleep`.
  static func key(
    _ session: Session?, preload: Preload? = nil, sleep: SleepTimer? = nil
  ) -> [Int32] {
    let state = PlaybackState(
      queue: PlayQueue(entries: [QueueEntry(item: ItemID(1), media: "a")], current: 0),
      session: session, preload: preload, playWhenReady: true, issuedLoads: 2, issuedItems: 1,
      sleepTimer: sleep)
    var key: [Int32] = []
    state.canonicalize(into: &key, ExplorationRenaming(ContractModel(), threshold: .seconds(3)))
    return key
  }

  @Test func aFailedSessionsReasonIsLeftOut() {
    let reasons: [FailureReason] = [.network, .decoding, .unsupported, .notFound]
    let keys = reasons.map { Self.key(Session(load: Self.load, stage: .failed($0))) }
    #expect(Set(keys).count == 1)
  }

  @Test func theStageItselfIsKept() {
    let failed = Self.key(Session(load: Self.load, stage: .failed(.network)))
    let waiting = Self.key(Session(load: Self.load, stage: .waitingForNetwork))
    let ready = Self.key(Session(load: Self.load, stage: .ready))
    #expect(Set([failed, waiting, ready]).count == 3)
  }

  /// A failed preload's reason stays: it was not among the fields found to split classes.
  @Test func aFailedPreloadsReasonIsKept() {
    let session = Session(load: Self.load, stage: .ready)
    let network = Self.key(session, preload: Preload(load: Load(2, 2), stage: .failed(.network)))
    let decoding = Self.key(
      session, preload: Preload(load: Load(2, 2), stage: .failed(.decoding)))
    #expect(network != decoding)
  }

  /// The stop-at-end timers stay apart even where they stop alike (one
  /// entry): `setSleepTimer` of the armed one is `noEffect`, of another not,
  /// and the public state shows which is armed.
  @Test func theSleepTimersKindsAreKept() {
    let session = Session(load: Self.load, stage: .ready)
    let timers: [SleepTimer] = [.endOfEntry, .endOfQueue, .afterEntries(1)]
    let keys = timers.map { Self.key(session, sleep: $0) }
    #expect(Set(keys).count == 3)
  }
}
