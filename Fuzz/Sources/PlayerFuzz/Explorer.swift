public import PlayerState

/// Exhaustive mode: breadth-first search over every sequence of events up to
/// a depth, over a finite queue alphabet whose identities are relative to
/// what was issued so far (every intent, with positions relative to the
/// current entry; reports about the current load, the preload, an earlier,
/// a dropped and a never-issued load and the current token with another
/// item; the newest, a superseded and a never-issued seek or watchdog id),
/// plus intents whose first command the engine answers re-entrantly.
///
/// States are deduplicated on a canonical form (the contract model with its
/// ids relabelled in order, plus what the player says about itself), so the
/// search stops when a level finds no new state: the properties then hold for
/// every sequence of any length over the alphabet. With the queue (lists
/// growing by `append`, positions, durations) there is no fixpoint at useful
/// depths: the result then says it is not complete, and covers sequences up
/// to its depth only. Late (held-back) delivery is left to the random runs.
///
/// ```swift
/// let proof = Explorer.explore(.player, maxDepth: 8)
/// print(proof)   // depth, states, transitions, unreached table rows
/// ```
public enum Explorer {
  /// One letter of the alphabet: an event with identities relative to the state.
  enum Letter: Hashable, Sendable {
    case intent(UserIntent)
    /// An intent naming a position relative to the current entry.
    case edit(Edit)
    case report(Report, Reference)
    case seeked(Reference, Relative)
    case timeout(Reference, Relative)
    /// An intent whose first command the engine answers from inside
    /// `execute` (re-entrantly) with a report about the load or seek the
    /// intent is about to issue, or about the current one.
    case answered(UserIntent, Answer)

    enum Answer: Hashable, Sendable {
      case readyNext, failedNext, seekedNext, stalledCurrent, readyCurrent
    }

    enum Edit: Hashable, Sendable {
      case removeCurrent, removeNext, moveCurrentToEnd, moveNextFirst, jumpNext, jumpCurrent
      case insertBefore
    }
    enum Report: Hashable, Sendable { case ready, stalled, resumed, ended, failed, position }
    enum Reference: Hashable, Sendable {
      case current, previous, neverIssued, otherMedia, preload, dropped
    }
    enum Relative: Hashable, Sendable { case newest, older, neverIssued }

    /// The queue alphabet: every intent (positions relative to the current
    /// entry, a start past the `previous` threshold), every report about the
    /// current load, the preload, an earlier, a dropped or removed and a
    /// never-issued load and the current token with another item, and
    /// re-entrant answers.
    static let alphabet: [Letter] = {
      var letters: [Letter] = [
        .intent(.play("A")), .intent(.replaceQueue(["A", "B", "C"])),
        .intent(.replaceQueue(["B", "A"], start: 1, from: .seconds(4), playWhenReady: false)),
        .intent(.append(["D"])), .intent(.next), .intent(.previous), .intent(.setRepeat(.off)),
        .intent(.setRepeat(.one)), .intent(.setRepeat(.all)), .intent(.setShuffle(seed: 1)),
        .intent(.setShuffle(seed: nil)), .intent(.setRate(PlaybackRate(thousandths: 1500))),
        .intent(.clear), .intent(.pause), .intent(.resume), .intent(.stop),
        .intent(.seek(to: .seconds(4))), .intent(.retry),
        .edit(.removeCurrent), .edit(.removeNext), .edit(.moveCurrentToEnd), .edit(.moveNextFirst),
        .edit(.jumpNext), .edit(.jumpCurrent), .edit(.insertBefore),
      ]
      let references: [Reference] = [
        .current, .preload, .previous, .dropped, .neverIssued, .otherMedia,
      ]
      for report: Report in [.ready, .stalled, .resumed, .ended, .failed, .position] {
        for reference in references { letters.append(.report(report, reference)) }
      }
      for relative: Relative in [.newest, .older, .neverIssued] {
        letters.append(.seeked(.current, relative))
        letters.append(.timeout(.current, relative))
      }
      letters.append(.seeked(.previous, .newest))
      letters.append(.timeout(.previous, .newest))
      letters += [
        .answered(.play("A"), .readyNext), .answered(.replaceQueue(["A", "B", "C"]), .readyNext),
        .answered(.play("A"), .failedNext), .answered(.retry, .readyNext),
        .answered(.next, .readyNext), .answered(.seek(to: .zero), .seekedNext),
        .answered(.resume, .stalledCurrent), .answered(.stop, .readyCurrent),
        .answered(.pause, .readyCurrent), .answered(.setRepeat(.one), .readyCurrent),
      ]
      return letters
    }()

    /// The actions of this letter after `model`, or nil when the letter
    /// would arm a report that no command fires (its intent sends nothing).
    func actions(after model: ContractModel) -> [FuzzAction]? {
      guard case .answered(let intent, let answer) = self else {
        return [.send(event(after: model))]
      }
      var probe = model
      var commands: [EngineCommand] = []
      probe.apply(.user(intent), commands: &commands)
      guard !commands.isEmpty else { return nil }
      let current = model.current?.load ?? model.newest ?? Load(1, 1)
      // The load the intent is about to issue: its first load or preload.
      let next =
        commands.lazy.compactMap { command -> Load? in
          switch command {
          case .load(let request), .preload(let request): request.load
          default: nil
          }
        }.first ?? Load(item: current.item, token: LoadToken(model.issued &+ 1))
      let report: EngineReport
      switch answer {
      case .readyNext: report = .ready(next)
      case .failedNext: report = .failed(next, .network)
      case .seekedNext:
        report = .seekCompleted(current, SeekID((model.current?.lastSeek ?? 0) &+ 1))
      case .stalledCurrent: report = .stalled(current)
      case .readyCurrent: report = .ready(current)
      }
      return [.reentrant(report), .send(.user(intent))]
    }

    func event(after model: ContractModel) -> PlaybackEvent {
      let current = model.current?.load ?? model.newest ?? Load(1, 1)
      func load(_ reference: Reference) -> Load {
        switch reference {
        case .current: current
        case .previous: model.previous ?? Load(item: current.item, token: LoadToken(0))
        case .neverIssued: Load(item: current.item, token: LoadToken(model.issued &+ 1))
        case .otherMedia: Load(item: ItemID(current.item.rawValue &+ 1), token: current.token)
        case .preload: model.preload?.load ?? current
        case .dropped: model.dropped ?? model.removed ?? current
        }
      }
      func id(_ newest: UInt32, _ relative: Relative) -> UInt32 {
        let newest = max(newest, 1)
        switch relative {
        case .newest: return newest
        case .older: return newest &- 1
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
      case .report(.ready, let reference): return .ready(load(reference))
      case .report(.stalled, let reference): return .stalled(load(reference))
      case .report(.resumed, let reference): return .resumed(load(reference))
      case .report(.ended, let reference): return .reachedEnd(load(reference))
      case .report(.failed, let reference): return .failed(load(reference), .network)
      case .report(.position, let reference): return .position(load(reference), .seconds(4))
      case .seeked(let reference, let relative):
        return .seekCompleted(load(reference), SeekID(id(model.current?.lastSeek ?? 0, relative)))
      case .timeout(let reference, let relative):
        return .watchdogExpired(
          load(reference), WatchdogID(id(model.current?.lastWatchdog ?? 1, relative)))
      case .answered(let intent, _):
        return .user(intent)
      }
    }
  }

  /// The canonical form of a state: item ids and tokens relabelled in
  /// order among those the state refers to (behaviour depends only on their
  /// equality and order), seek and watchdog ids clamped, media and positions kept.
  struct Canonical: Hashable {
    var numbers: [Int64]
    var media: [MediaID]
    var observation: [Bool]

    init(_ model: ContractModel, _ observation: FuzzObservation) {
      var items: [UInt32] = model.entries.map(\.item.rawValue)
      var tokens: [UInt32] = []
      for load in [
        model.current?.load, model.preload?.load, model.newest, model.previous, model.dropped,
        model.removed,
      ] {
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
          current.position, current.duration ?? -1,
        ]
      } else {
        numbers.append(-3)
      }
      if let preload = model.preload {
        numbers += load(preload.load)
        numbers += [Int64(preload.stage.rawValue), preload.duration ?? -1]
      } else {
        numbers.append(-4)
      }
      for other in [model.newest, model.previous, model.dropped, model.removed] {
        numbers += load(other)
      }
      numbers += load(Load(item: ItemID(model.issuedItems), token: LoadToken(model.issued)))
      self.numbers = numbers
      media = model.entries.map(\.media)
      self.observation = [observation.isPlaying, observation.seekPending ?? false]
    }
  }

  /// Explores every sequence up to `maxDepth` events, or until `seconds` pass.
  /// - Parameters:
  ///   - subject: the player under test.
  ///   - maxDepth: the longest sequence to explore.
  ///   - seconds: a time limit; the result then says how deep it got.
  ///   - canPreload: whether the engine declares `.preload`.
  /// - Returns: depth reached, state and transition counts, the shortest
  ///   counterexample if any, and the declared transitions never reached.
  public static func explore(
    _ subject: FuzzSubject, maxDepth: Int, seconds: Double? = nil, canPreload: Bool = true
  ) -> Exploration {
    let clock = ContinuousClock()
    let started = clock.now
    let deadline = seconds.map { started.advanced(by: .nanoseconds(Int64($0 * 1e9))) }
    let root = CaseRunner(subject, canPreload: canPreload)
    var visited: Set<Canonical> = [Canonical(root.model, root.target.observation)]
    var edges = Set<Edge>()
    var coverage = FuzzCoverage()
    var frontier: [[FuzzAction]] = [[]]
    var result = Exploration(
      subject: subject.name, depth: 0, complete: false, states: 1, transitions: 0, sequences: 0,
      seconds: 0, counterexample: nil, unreached: [])
    result.canPreload = canPreload
    level: for depth in 1...max(1, maxDepth) {
      var next: [[FuzzAction]] = []
      for prefix in frontier {
        if let deadline, clock.now >= deadline {
          result.interrupted = true
          break level
        }
        var base = CaseRunner(subject, canPreload: canPreload)
        for action in prefix { _ = base.perform(action) }
        let from = Canonical(base.model, base.target.observation)
        for letter in Letter.alphabet {
          guard let step = letter.actions(after: base.model) else { continue }
          let actions = prefix + step
          var runner = CaseRunner(subject, canPreload: canPreload)
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
              timeline: Fuzzer.timeline(subject, FuzzCase(actions, canPreload: canPreload)),
              canPreload: canPreload)
            break level
          }
          let to = Canonical(runner.model, runner.target.observation)
          edges.insert(Edge(from: from, letter: letter, to: to))
          if visited.insert(to).inserted { next.append(actions) }
        }
      }
      result.depth = depth
      result.newAtLastLevel = next.count
      frontier = next
      if next.isEmpty {
        result.complete = true
        break
      }
    }
    result.states = visited.count
    result.transitions = edges.count
    result.unreached = coverage.unexercised
    result.seconds = Fuzzer.secondsSince(started, clock)
    return result
  }

  struct Edge: Hashable {
    var from: Canonical
    var letter: Letter
    var to: Canonical
  }
}

/// What exhaustive exploration found.
public struct Exploration: Sendable, CustomStringConvertible {
  /// The subject's name.
  public var subject: String
  /// The deepest level fully explored (or the depth of the counterexample).
  public var depth: Int
  /// Whether the last level found no new state: every longer sequence then
  /// only revisits explored states, so the properties hold at any depth.
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

  /// Whether no property broke, and, if the search is ``complete``, every
  /// declared transition was reached. An incomplete search (every search of
  /// the queue's alphabet at a useful depth) may reach a row deeper, so its
  /// unreached rows are listed in ``description``, not counted: `passed` and
  /// not `complete` means "no counterexample up to ``depth``", not a proof.
  public var passed: Bool { counterexample == nil && (unreached.isEmpty || !complete) }

  /// A summary, with the counterexample's report or the unreached rows.
  public var description: String {
    let engine = canPreload ? "an engine that preloads" : "an engine that does not preload"
    var lines = [
      "explore \(subject) on \(engine): depth \(depth), "
        + "\(states) states, \(transitions) transitions, \(sequences) sequences in \(FuzzResult.format(seconds)) s"
    ]
    if complete {
      lines.append(
        "complete: the last level found no new state, so every longer sequence revisits them")
    } else if counterexample == nil {
      lines.append(
        "NOT complete: level \(depth) still found \(newAtLastLevel) new states (no fixpoint); "
          + "the properties are checked for every sequence of at most \(depth) letters only"
          + (interrupted ? " (time ran out inside level \(depth + 1); its states are counted)" : "")
      )
    }
    if let counterexample { lines.append(counterexample.report) }
    if unreached.isEmpty {
      lines.append("every declared transition of the table was reached")
    } else {
      lines.append("declared transitions never reached:")
      lines += unreached.map { "  \($0)" }
    }
    return lines.joined(separator: "\n")
  }
}
