import PlayerEngine
public import PlayerState

/// Exhaustive mode: breadth-first search over every sequence of letters up to
/// a depth, over a finite alphabet whose identities are relative to what was
/// issued so far.
///
/// The alphabet covers every event kind and everything the random runs vary
/// in kind (values such as media, times and rates are fixed representatives):
/// every intent, with positions relative to the current entry (and one past
/// the end); every report about the current load, the preload, the newest
/// earlier load, an older one, a dropped preload, the load the next intent
/// will create, a never-issued token and an issued token with the wrong item;
/// every failure reason; seek completions and expiries for the newest, a
/// superseded and a never-issued id; re-entrant bursts (one or two reports
/// the engine sends from inside the first `execute` of an intent, naming the
/// loads that intent creates or the current one); and held-back reports (at
/// most ``maxHeld`` waiting at once) with `deliver`.
///
/// **Merging, and what "complete" means.** Two sequences that lead to the
/// same state need to be explored on only once, but only the player can say
/// what its state is. When its ``FuzzTarget/snapshot`` is not nil, states are
/// merged on the contract model (ids relabelled in order), the held-back
/// reports and that snapshot; when a level then finds no new state, the search
/// is ``Exploration/complete``: the properties hold for every sequence of any
/// length over the alphabet. Without a snapshot nothing is merged (what the
/// player *says* about itself, ``FuzzObservation``, may leave out state that
/// matters, such as a pending seek): every sequence up to the depth is
/// replayed, and the result is "bounded at depth N", never complete.
///
/// ```swift
/// let proof = Explorer.explore(.player, maxDepth: 3)
/// print(proof)   // depth, states, complete or bounded, coverage
/// ```
public enum Explorer {
  /// The most held-back reports waiting for a `deliver` at once.
  public static let maxHeld = 2

  /// How many letters the alphabet has.
  public static var alphabetSize: Int { Letter.alphabet.count }

  /// One letter of the alphabet: an event with identities relative to the state.
  indirect enum Letter: Hashable, Sendable {
    case intent(UserIntent)
    /// An intent naming a position relative to the current entry.
    case edit(Edit)
    case report(Report, Reference)
    case failed(FailureReason, Reference)
    /// A failure of the current load carrying the engine's own error
    /// (``detail``), which the player must keep as the contract does.
    case failedWithDetail(FailureReason)
    case seeked(Reference, Relative)
    case timeout(Reference, Relative)
    /// An event of the operating system (an interruption, the route, the network).
    case system(SystemEvent)
    /// An intent (or edit) whose first command the engine answers from inside
    /// `execute` (re-entrantly) with one or more reports, in order.
    case answered(Letter, [Answer])
    /// A report the engine holds back until a `deliver`.
    case later(Letter)
    /// The engine sends its held-back reports, oldest first.
    case deliver

    enum Answer: Hashable, Sendable {
      /// `ready` of the first load (or preload) the intent issues, or of the
      /// load the next intent will create when it issues none.
      case readyFirst
      /// `ready` of the second load or preload the intent issues.
      case readySecond
      case failedFirst
      case stalledFirst
      case seekedNext
      case stalledCurrent
      case readyCurrent
      case endedCurrent
    }

    enum Edit: Hashable, Sendable {
      case removeCurrent, removeNext, moveCurrentToEnd, moveNextFirst, jumpNext, jumpCurrent
      case insertBefore, removePastEnd
    }
    enum Report: Hashable, Sendable {
      case ready, stalled, resumed, ended, position, pausedBySystem
    }
    enum Reference: Hashable, Sendable {
      case current, preload, previous, older, dropped, upcoming, neverIssued, wrongItem
    }
    enum Relative: Hashable, Sendable { case newest, older, neverIssued }

    static let references: [Reference] = [
      .current, .preload, .previous, .older, .dropped, .upcoming, .neverIssued, .wrongItem,
    ]
    static let reasons: [FailureReason] = [
      .network, .decoding, .unsupported, .notFound, .timeout, .engine(code: -11800),
    ]
    /// The engine error the `failedWithDetail` letters carry.
    static let detail = FailureDetail(
      domain: "AVFoundationErrorDomain", code: -11800,
      message: "The operation could not be completed")

    /// The alphabet, built for each search rather than kept in a global: its
    /// `answered` and `later` letters live in boxes that an indirect enum points
    /// to through tagged pointers, which LeakSanitizer reports as leaks when a
    /// global holds them until exit.
    static var alphabet: [Letter] {
      var letters: [Letter] = [
        .intent(.play("A")), .intent(.replaceQueue(["A", "B", "C"])),
        .intent(.replaceQueue(["B", "A"], start: 1, from: .seconds(4), playWhenReady: false)),
        .intent(.append(["D"])), .intent(.next), .intent(.previous), .intent(.setRepeat(.off)),
        .intent(.setRepeat(.one)), .intent(.setRepeat(.all)), .intent(.setShuffle(seed: 1)),
        .intent(.setShuffle(seed: nil)), .intent(.setRate(PlaybackRate(thousandths: 1500))),
        .intent(.setRate(PlaybackRate(thousandths: 0))),
        .intent(.clear), .intent(.pause), .intent(.resume), .intent(.stop),
        .intent(.seek(to: .seconds(4))), .intent(.retry),
        .edit(.removeCurrent), .edit(.removeNext), .edit(.moveCurrentToEnd), .edit(.moveNextFirst),
        .edit(.jumpNext), .edit(.jumpCurrent), .edit(.insertBefore), .edit(.removePastEnd),
      ]
      for report: Report in [.ready, .stalled, .resumed, .ended, .position, .pausedBySystem] {
        for reference in references { letters.append(.report(report, reference)) }
      }
      letters += [
        .system(.interruptionBegan), .system(.interruptionEnded(shouldResume: true)),
        .system(.interruptionEnded(shouldResume: false)), .system(.routeLost),
        .system(.networkLost), .system(.networkAvailable),
      ]
      for reference in references { letters.append(.failed(.network, reference)) }
      for reason in reasons.dropFirst() { letters.append(.failed(reason, .current)) }
      // With the engine's error: a network failure waits (or fails) keeping it, another fails.
      letters += [.failedWithDetail(.network), .failedWithDetail(.decoding)]
      for relative: Relative in [.newest, .older, .neverIssued] {
        letters.append(.seeked(.current, relative))
        letters.append(.timeout(.current, relative))
      }
      for reference in references.dropFirst() {
        letters.append(.seeked(reference, .newest))
        letters.append(.timeout(reference, .newest))
      }
      letters += [
        .answered(.intent(.play("A")), [.readyFirst]),
        .answered(.intent(.replaceQueue(["A", "B", "C"])), [.readyFirst]),
        .answered(.intent(.replaceQueue(["A", "B", "C"])), [.readyFirst, .readySecond]),
        .answered(.intent(.play("A")), [.failedFirst]),
        .answered(.intent(.play("A")), [.readyFirst, .stalledFirst]),
        .answered(.intent(.play("A")), [.endedCurrent, .readyFirst]),
        .answered(.intent(.retry), [.readyFirst]),
        .answered(.intent(.next), [.readyFirst]),
        .answered(.intent(.next), [.endedCurrent, .readyFirst]),
        .answered(.intent(.previous), [.readyFirst]),
        .answered(.edit(.jumpNext), [.readyFirst]),
        .answered(.edit(.removeCurrent), [.readyFirst]),
        .answered(.intent(.seek(to: .zero)), [.seekedNext]),
        .answered(.intent(.seek(to: .zero)), [.seekedNext, .stalledCurrent]),
        .answered(.intent(.resume), [.stalledCurrent]),
        .answered(.intent(.stop), [.readyCurrent]),
        .answered(.intent(.pause), [.readyCurrent]),
        .answered(.intent(.pause), [.endedCurrent]),
        .answered(.intent(.setRepeat(.one)), [.readyCurrent]),
      ]
      for late: Letter in [
        .report(.ready, .current), .report(.ended, .current), .report(.stalled, .current),
        .report(.resumed, .current), .failed(.network, .current), .report(.ready, .preload),
        .report(.pausedBySystem, .current),
        .report(.ready, .upcoming), .seeked(.current, .newest),
      ] {
        letters.append(.later(late))
      }
      letters.append(.deliver)
      return letters
    }

    /// The actions of this letter after `model` with `held` reports waiting,
    /// or nil when the letter does not apply: it names a load that does not
    /// exist, it would arm a report that no command fires (its intent sends
    /// nothing), it would hold more than ``maxHeld`` or deliver nothing.
    func actions(after model: ContractModel, held: Int) -> [FuzzAction]? {
      switch self {
      case .deliver: return held > 0 ? [.deliver] : nil
      case .later(let letter):
        guard held < Explorer.maxHeld, case .engine(let report)? = letter.event(after: model)
        else { return nil }
        return [.later(report)]
      case .answered(let letter, let answers):
        guard case .user(let intent)? = letter.event(after: model) else { return nil }
        var probe = model
        var commands: [EngineCommand] = []
        probe.apply(.user(intent), commands: &commands)
        guard !commands.isEmpty else { return nil }
        let loads = commands.compactMap { command -> Load? in
          switch command {
          case .load(let request), .preload(let request): request.load
          default: nil
          }
        }
        let current = model.current?.load
        let first = loads.first ?? ActionDecoder.upcoming(after: model, 0)
        var reports: [EngineReport] = []
        for answer in answers {
          switch answer {
          case .readyFirst: reports.append(.ready(first))
          case .readySecond:
            guard loads.count >= 2 else { return nil }
            reports.append(.ready(loads[1]))
          case .failedFirst: reports.append(.failed(first, .network))
          case .stalledFirst: reports.append(.stalled(first))
          case .seekedNext:
            guard let current else { return nil }
            reports.append(.seekCompleted(current, SeekID((model.current?.lastSeek ?? 0) &+ 1)))
          case .stalledCurrent:
            guard let current else { return nil }
            reports.append(.stalled(current))
          case .readyCurrent:
            guard let current else { return nil }
            reports.append(.ready(current))
          case .endedCurrent:
            guard let current else { return nil }
            reports.append(.reachedEnd(current))
          }
        }
        return reports.map { .reentrant($0) } + [.send(.user(intent))]
      default:
        return event(after: model).map { [.send($0)] }
      }
    }

    /// The load `reference` names after `model`, or nil when there is none.
    static func load(_ reference: Reference, after model: ContractModel) -> Load? {
      switch reference {
      case .current: return model.current?.load
      case .preload: return model.preload?.load
      case .previous:
        return issuedLoad(FuzzCoverage.Variant.newestStale(model), model)
      case .older:
        // The oldest earlier load that is not the newest one.
        let newest = FuzzCoverage.Variant.newestStale(model)
        for token in UInt32(1)..<max(newest, 1)
        where token != model.current?.load.token.rawValue
          && token != model.preload?.load.token.rawValue
        {
          return issuedLoad(token, model)
        }
        return nil
      case .dropped: return model.dropped
      case .upcoming: return ActionDecoder.upcoming(after: model, 0)
      case .neverIssued:
        let item = model.current?.load.item ?? ItemID(max(model.issuedItems, 1))
        return Load(item: item, token: LoadToken(model.issued &+ 2))
      case .wrongItem:
        guard let newest = model.current?.load ?? model.newest else { return nil }
        let other =
          model.entries.first { $0.item != newest.item }?.item
          ?? ItemID(newest.item.rawValue &+ 1)
        return Load(item: other, token: newest.token)
      }
    }

    /// The load issued with `token`, or nil when none was.
    static func issuedLoad(_ token: UInt32, _ model: ContractModel) -> Load? {
      guard token >= 1, Int(token) <= model.tokenItems.count else { return nil }
      return Load(item: model.tokenItems[Int(token) - 1], token: LoadToken(token))
    }

    /// The event this letter sends after `model`, or nil when it names nothing.
    func event(after model: ContractModel) -> PlaybackEvent? {
      func id(_ newest: UInt32, _ relative: Relative) -> UInt32? {
        switch relative {
        case .newest: return newest >= 1 ? newest : nil
        case .older: return newest >= 2 ? newest &- 1 : nil
        case .neverIssued: return newest &+ 1
        }
      }
      let at = model.position ?? 0
      let count = model.entries.count
      switch self {
      case .intent(let intent): return .user(intent)
      case .edit(.removeCurrent): return .user(.remove(at: at))
      case .edit(.removeNext): return .user(.remove(at: at + 1))
      case .edit(.moveCurrentToEnd): return .user(.move(from: at, to: max(count - 1, 0)))
      case .edit(.moveNextFirst): return .user(.move(from: at + 1, to: 0))
      case .edit(.jumpNext): return .user(.jump(to: at + 1))
      case .edit(.jumpCurrent): return .user(.jump(to: at, from: .seconds(1)))
      case .edit(.insertBefore): return .user(.insert(["E"], at: at))
      case .edit(.removePastEnd): return .user(.remove(at: count))
      case .report(let report, let reference):
        guard let load = Self.load(reference, after: model) else { return nil }
        switch report {
        case .ready: return .ready(load)
        case .stalled: return .stalled(load)
        case .resumed: return .resumed(load)
        case .ended: return .reachedEnd(load)
        case .position: return .position(load, .seconds(4))
        case .pausedBySystem: return .engine(.pausedBySystem(load))
        }
      case .system(let event): return .system(event)
      case .failed(let reason, let reference):
        return Self.load(reference, after: model).map { .failed($0, reason) }
      case .failedWithDetail(let reason):
        return Self.load(.current, after: model).map {
          .engine(.failed($0, reason, detail: Self.detail))
        }
      case .seeked(let reference, let relative):
        guard let load = Self.load(reference, after: model) else { return nil }
        let newest = reference == .current ? model.current?.lastSeek ?? 0 : 1
        return id(newest, relative).map { .seekCompleted(load, SeekID($0)) }
      case .timeout(let reference, let relative):
        guard let load = Self.load(reference, after: model) else { return nil }
        let newest = reference == .current ? model.current?.lastWatchdog ?? 0 : 1
        return id(newest, relative).map { .watchdogExpired(load, WatchdogID($0)) }
      case .answered, .later, .deliver:
        return nil
      }
    }
  }

  /// The canonical form of the harness's side of a state: item ids and tokens
  /// relabelled in order among those the state refers to (behaviour depends
  /// only on their equality and order), seek and watchdog ids clamped, media
  /// and positions kept, and the held-back reports.
  struct Canonical: Hashable {
    var numbers: [Int64]
    var media: [MediaID]

    init(_ model: ContractModel, held: [EngineReport]) {
      var items: [UInt32] = model.entries.map(\.item.rawValue)
      var tokens: [UInt32] = []
      for load in [
        model.current?.load, model.preload?.load, model.newest, model.previous, model.dropped,
        model.removed, model.left,
      ] + held.map(\.load) {
        guard let load else { continue }
        items.append(load.item.rawValue)
        tokens.append(load.token.rawValue)
      }
      items.append(model.issuedItems)
      tokens.append(model.issued)
      let itemRank = Dictionary(
        Set(items).sorted().enumerated().map { ($1, Int64($0)) }, uniquingKeysWith: { a, _ in a })
      let tokenRank = Dictionary(
        Set(tokens).sorted().enumerated().map { ($1, Int64($0)) }, uniquingKeysWith: { a, _ in a })
      func load(_ load: Load?) -> [Int64] {
        guard let load else { return [-1, -1] }
        return [itemRank[load.item.rawValue] ?? -1, tokenRank[load.token.rawValue] ?? -1]
      }
      var numbers: [Int64] = model.entries.map { itemRank[$0.item.rawValue] ?? -1 }
      numbers.append(-2)
      numbers.append(Int64(model.position ?? -1))
      numbers.append(model.repeatMode == .off ? 0 : model.repeatMode == .one ? 1 : 2)
      numbers.append(model.shuffle.map { Int64(truncatingIfNeeded: $0.seed) } ?? -1)
      numbers += model.shuffle?.list.map { itemRank[$0.item.rawValue] ?? -1 } ?? []
      numbers.append(model.playWhenReady ? 1 : 0)
      numbers.append(Int64(model.rate.thousandths))
      if let current = model.current {
        numbers += load(current.load)
        numbers += [
          Int64(current.stage.rawValue), Int64(min(current.lastSeek, 2)),
          current.seekPending ? 1 : 0, Int64(min(current.lastWatchdog, 2)), current.started ? 1 : 0,
          current.position, current.duration ?? -1, current.systemPaused ? 1 : 0,
          Int64(current.attempts), current.failure == nil ? 0 : 1,
        ]
      } else {
        numbers.append(-3)
      }
      numbers.append(model.interrupted ? 1 : 0)
      if let preload = model.preload {
        numbers += load(preload.load)
        numbers += [Int64(preload.stage.rawValue), preload.duration ?? -1]
      } else {
        numbers.append(-4)
      }
      for other in [model.newest, model.previous, model.dropped, model.removed, model.left] {
        numbers += load(other)
      }
      numbers += load(Load(item: ItemID(model.issuedItems), token: LoadToken(model.issued)))
      for report in held {
        numbers.append(-5)
        numbers += load(report.load)
        switch report {
        case .ready(_, let duration): numbers += [0, duration?.milliseconds ?? -1]
        case .stalled: numbers.append(1)
        case .resumed: numbers.append(2)
        case .reachedEnd: numbers.append(3)
        case .failed(_, let reason, let detail):
          numbers += [
            4, Int64(FuzzCoverage.Variant(reason).rawValue), Int64(detail?.code ?? 0),
            detail == nil ? 0 : 1,
          ]
        case .seekCompleted(_, let id): numbers += [5, Int64(id.rawValue)]
        case .position(_, let time): numbers += [6, time.milliseconds]
        case .pausedBySystem: numbers.append(7)
        }
      }
      self.numbers = numbers
      media = model.entries.map(\.media)
    }
  }

  /// A merged state: the harness's canonical side and the player's own snapshot.
  struct State: Hashable {
    var canonical: Canonical
    var observation: FuzzObservation
    var snapshot: AnyHashable
  }

  /// The reports held back after `actions`, in order.
  static func held(_ actions: [FuzzAction]) -> [EngineReport] {
    var held: [EngineReport] = []
    for action in actions {
      switch action {
      case .later(let report): held.append(report)
      case .deliver: held.removeAll()
      default: continue
      }
    }
    return held
  }

  /// Explores every sequence up to `maxDepth` letters, or until `seconds` pass.
  /// - Parameters:
  ///   - subject: the player under test.
  ///   - maxDepth: the longest sequence to explore.
  ///   - seconds: a time limit; the result then says how deep it got.
  ///   - canPreload: whether the engine declares `.preload`.
  ///   - retry: the player's retry policy for network failures.
  /// - Returns: depth reached, state and transition counts, whether the
  ///   search is complete or bounded, the shortest counterexample if any, and
  ///   what it covered.
  public static func explore(
    _ subject: FuzzSubject, maxDepth: Int, seconds: Double? = nil, canPreload: Bool = true,
    retry: RetryPolicy = .standard
  ) -> Exploration {
    let clock = ContinuousClock()
    let started = clock.now
    let deadline = seconds.map { started.advanced(by: .nanoseconds(Int64($0 * 1e9))) }
    let root = CaseRunner(subject, canPreload: canPreload, retry: retry)
    // Merge only on a snapshot the subject vouches for.
    let merges = root.target.snapshot != nil
    func state(_ runner: CaseRunner, _ actions: [FuzzAction]) -> State? {
      guard let snapshot = runner.target.snapshot else { return nil }
      return State(
        canonical: Canonical(runner.model, held: held(actions)),
        observation: runner.target.observation, snapshot: snapshot)
    }
    var visited = Set<State>()
    if let first = state(root, []) { visited.insert(first) }
    var nodes = 1
    var edges = 0
    var coverage = FuzzCoverage()
    var frontier: [[FuzzAction]] = [[]]
    var result = Exploration(
      subject: subject.name, depth: 0, complete: false, states: 1, transitions: 0, sequences: 0,
      seconds: 0, counterexample: nil, unreached: [])
    result.canPreload = canPreload
    result.merged = merges
    let alphabet = Letter.alphabet
    result.alphabet = alphabet.count
    level: for depth in 1...max(1, maxDepth) {
      var next: [[FuzzAction]] = []
      for prefix in frontier {
        if let deadline, clock.now >= deadline {
          result.interrupted = true
          break level
        }
        var base = CaseRunner(subject, canPreload: canPreload, retry: retry)
        for action in prefix { _ = base.perform(action) }
        let heldCount = base.laterCount
        // Letters that resolve to the same actions are the same input: run once.
        var tried = Set<[FuzzAction]>()
        for letter in alphabet {
          guard let step = letter.actions(after: base.model, held: heldCount),
            tried.insert(step).inserted
          else { continue }
          let actions = prefix + step
          var runner = CaseRunner(subject, canPreload: canPreload, retry: retry)
          swap(&coverage, &runner.coverage)
          var violation: FuzzViolation?
          for action in actions where violation == nil { violation = runner.perform(action) }
          swap(&coverage, &runner.coverage)
          result.sequences += 1
          if let violation {
            result.depth = depth
            result.counterexample = FuzzFailure(
              subject: subject, origin: .exhaustive(depth: depth), original: actions,
              actions: actions, violation: violation, shrinkAttempts: 0,
              timeline: Fuzzer.timeline(
                subject, FuzzCase(actions, canPreload: canPreload, retry: retry)),
              canPreload: canPreload, retry: retry)
            break level
          }
          edges += 1
          if merges {
            guard let to = state(runner, actions) else {
              // The subject stopped vouching for its state: merge nothing more.
              result.merged = false
              next.append(actions)
              continue
            }
            if visited.insert(to).inserted { next.append(actions) }
          } else {
            nodes += 1
            next.append(actions)
          }
        }
      }
      result.depth = depth
      result.newAtLastLevel = next.count
      frontier = next
      if next.isEmpty {
        result.complete = result.merged
        break
      }
    }
    result.states = merges ? visited.count : nodes
    result.transitions = edges
    result.coverage = coverage
    result.unreached = coverage.unexercised
    result.seconds = Fuzzer.secondsSince(started, clock)
    return result
  }
}

extension PlayerTarget {
  /// The player's whole state, ``PlayerEngine/Player/state``: between two
  /// events Playhead's `Player` holds nothing else its behaviour depends on
  /// (its event queue is empty and the harness runs no watchdog timer).
  public var snapshot: AnyHashable? { player.state }
}

/// What exhaustive exploration found.
public struct Exploration: Sendable, CustomStringConvertible {
  /// The subject's name.
  public var subject: String
  /// The deepest level fully explored (or the depth of the counterexample).
  public var depth: Int
  /// Whether the search is a proof at any depth: states were merged on the
  /// subject's snapshot (``merged``) and the last level found no new state,
  /// so every longer sequence over the alphabet only revisits explored
  /// states. Otherwise the search is bounded at ``depth``.
  public var complete: Bool
  /// Distinct canonical states reached.
  public var states: Int
  /// Distinct (state, letter, state) transitions explored.
  public var transitions: Int
  /// Sequences replayed and checked.
  public var sequences: Int
  /// Seconds spent.
  public var seconds: Double
  /// The shortest failing sequence, if any.
  public var counterexample: FuzzFailure?
  /// The declared transitions (``PlayerState/TransitionTable/accepted``) the search never took.
  public var unreached: [TransitionTable.Row]
  /// New states the deepest explored level found (0 when ``complete``).
  public var newAtLastLevel = 0
  /// Whether the time limit stopped the search inside level ``depth`` + 1
  /// (the states it found there are counted in ``states``).
  public var interrupted = false
  /// Whether the explored engine declared `.preload`.
  public var canPreload = true
  /// Whether states were merged on the subject's ``FuzzTarget/snapshot``;
  /// false when the subject has none, and then every sequence up to
  /// ``depth`` was replayed and the search cannot be ``complete``.
  public var merged = false
  /// How many letters the alphabet has.
  public var alphabet = 0
  /// What the explored sequences exercised: declared rows and
  /// (state × event × variant) hits.
  public var coverage = FuzzCoverage()

  /// Whether no property broke, and, if the search is ``complete``, every
  /// declared transition was reached. An incomplete search (every search of
  /// the queue's alphabet at a useful depth) may reach a row deeper, so its
  /// unreached rows are listed in ``description``, not counted: `passed` and
  /// not `complete` means "no counterexample up to ``depth``", not a proof.
  public var passed: Bool { counterexample == nil && (unreached.isEmpty || !complete) }

  /// A summary, with the verdict (complete or bounded), the counterexample's
  /// report, and what the search covered.
  public var description: String {
    let engine = canPreload ? "an engine that preloads" : "an engine that does not preload"
    var lines = [
      "explore \(subject) on \(engine): depth \(depth), "
        + "\(states) \(merged ? "states" : "sequences (not merged)"), \(transitions) transitions, "
        + "\(sequences) sequences in \(FuzzResult.format(seconds)) s, \(alphabet) letters"
    ]
    if complete {
      lines.append(
        "complete: states merged on \(subject)'s snapshot and the last level found no new state, "
          + "so every longer sequence over the alphabet revisits them")
    } else if counterexample == nil {
      let why =
        merged
        ? "level \(depth) still found \(newAtLastLevel) new states (no fixpoint)"
        : "no fixpoint can be proven without merging"
      lines.append(
        "bounded at depth \(depth): \(why); every sequence of at most \(depth) letters was checked"
          + (interrupted ? " (time ran out inside level \(depth + 1); its states are counted)" : "")
      )
    }
    if !merged {
      lines.append(
        "not merged: \(subject) exposes no snapshot of its whole state (FuzzTarget.snapshot), "
          + "so every sequence was replayed and the search can never be complete")
    }
    if let counterexample { lines.append(counterexample.report) }
    let gaps = coverage.unsent
    lines.append(
      "covered: \(coverage.exercisedCount) of \(TransitionTable.accepted.count) declared transitions; "
        + (gaps.isEmpty
          ? "every identity, id and failure reason sent where it existed"
          : "\(gaps.count) (state × event × variant) available but not sent"))
    lines += gaps.prefix(12).map { "  not sent: \($0)" }
    if gaps.count > 12 { lines.append("  not sent: … and \(gaps.count - 12) more") }
    if !unreached.isEmpty {
      lines.append("declared transitions never reached:")
      lines += unreached.map { "  \($0)" }
    }
    return lines.joined(separator: "\n")
  }
}
