public import PlayerState

/// What exhaustive exploration found in one configuration.
public struct Exploration: Sendable, CustomStringConvertible {
  /// The subject's name.
  public var subject: String
  /// The deepest level fully explored: every sequence of at most this many
  /// letters was checked (or the depth of the counterexample).
  public var depth: Int
  /// Whether the search is a proof for its scope at any depth: states were
  /// merged on the subject's snapshot (``merged``), every state reached was
  /// extended by every letter (a fixpoint: the last level found no new
  /// state), nothing broke, and the differential check of merged states
  /// found no two that behave differently (``unsound`` is nil). Otherwise the
  /// search is bounded at ``depth``.
  public var complete: Bool
  /// Distinct canonical states reached.
  public var states: Int
  /// Of ``states``, when the search reached a fixpoint: how many behave
  /// differently, the classes of states that no sequence of letters tells
  /// apart by its commands and observations (the search graph's bisimulation
  /// quotient). A canonical snapshot can merge no further than this, so
  /// `states / distinctStates` bounds what a coarser one could save. Nil
  /// before a fixpoint.
  public var distinctStates: Int?
  /// Distinct (state, input) transitions explored.
  public var transitions: Int
  /// Sequences replayed and checked.
  public var sequences: Int
  /// Seconds spent.
  public var seconds: Double
  /// The shortest failing sequence, if any.
  public var counterexample: FuzzFailure?
  /// The declared transitions (``PlayerState/TransitionTable/accepted``) the search never took.
  public var unreached: [TransitionTable.Row]
  /// New states the deepest explored level found (0 at a fixpoint).
  public var newAtLastLevel = 0
  /// Whether the time limit stopped the search inside level ``depth`` + 1
  /// (the states it found there are counted in ``states``).
  public var interrupted = false
  /// The scope's state limit (``ExplorationScope/maxStates``) when it stopped
  /// the search inside level ``depth`` + 1 (the states found there are
  /// counted), else nil.
  public var stateLimit: Int?
  /// Whether the explored engine declared `.preload`.
  public var canPreload = true
  /// Whether states were merged on the subject's ``FuzzTarget/snapshot``;
  /// false when the subject has none, and then every sequence up to
  /// ``depth`` was replayed and the search cannot be ``complete``.
  public var merged = false
  /// Whether the snapshot was put in canonical form (``ExplorableSnapshot``):
  /// without it states are merged only when their snapshots are equal, and
  /// with identities issued anew the search rarely reaches a fixpoint.
  public var canonical = false
  /// How many letters the alphabet has.
  public var alphabet = 0
  /// What the explored sequences exercised: declared rows and
  /// (state × event × variant) hits.
  public var coverage = FuzzCoverage()
  /// The configuration class explored.
  public var configuration = ExplorationConfiguration()
  /// The most queue entries in the scope.
  public var entries = 3
  /// The most held-back reports in the scope.
  public var held = Explorer.maxHeld
  /// Whether every state reached was extended by every letter: the search
  /// ended because no new state was left, not at a depth or time limit.
  public var fixpoint = false
  /// Merged states probed by the differential check: a state reached by
  /// another path than its representative's, sent a letter, must reach the
  /// state the representative reached with that letter.
  public var probes = 0
  /// How many times a state's path was replayed from the start (the runner
  /// cannot be copied: a letter that changed the player uses it up).
  public var replays = 0
  /// What the player left unsaid in some explored step (``FuzzObservable``),
  /// as in ``FuzzResult/notCompared``: checked through the engine's commands
  /// only, never compared directly. Empty for Playhead's `Player`.
  public var notCompared: [FuzzObservable] = []
  /// The first disagreement the differential check found, in words: the
  /// snapshot merged two states that behave differently, so the search is
  /// not a proof (nil when none was found).
  public var unsound: String?

  /// The chance that two distinct states of this search share a fingerprint,
  /// and were merged as one, calculated as TLC does: distinct states ×
  /// (states generated − distinct) / 2^128. The search keeps a 128-bit
  /// fingerprint of each visited state's canonical key, not the key. Nil when
  /// no state was kept as a fingerprint (an unmerged search, or a snapshot
  /// with no canonical form, whose states are kept whole).
  public var collisionProbability: Double?

  /// A result.
  init(
    subject: String, depth: Int, complete: Bool, states: Int, transitions: Int, sequences: Int,
    seconds: Double, counterexample: FuzzFailure?, unreached: [TransitionTable.Row]
  ) {
    self.subject = subject
    self.depth = depth
    self.complete = complete
    self.states = states
    self.transitions = transitions
    self.sequences = sequences
    self.seconds = seconds
    self.counterexample = counterexample
    self.unreached = unreached
  }

  /// Whether no property broke, the differential check found nothing, and, if
  /// the search is ``complete``, every declared transition was reached. An
  /// incomplete search may reach a row deeper, so its unreached rows are
  /// listed in ``description``, not counted: `passed` and not `complete`
  /// means "no counterexample up to ``depth``", not a proof.
  public var passed: Bool {
    counterexample == nil && unsound == nil && (unreached.isEmpty || !complete)
  }

  /// Whether this class's search ended the scope's: a counterexample, the
  /// time limit or the state limit stopped it, so no later class is started.
  var endsTheScope: Bool { counterexample != nil || interrupted || stateLimit != nil }

  /// Why the search is not complete, in words, or nil when it is.
  public var whyNotComplete: String? {
    if complete { return nil }
    if counterexample != nil { return "a property broke" }
    if !merged {
      return "not merged: \(subject) exposes no snapshot of its whole state (FuzzTarget.snapshot)"
    }
    if let unsound { return "the snapshot is not sound: \(unsound)" }
    if interrupted { return "time ran out inside level \(depth + 1)" }
    if let stateLimit {
      return "the state limit (\(stateLimit)) was reached inside level \(depth + 1), "
        + "\(states) states found"
    }
    if !fixpoint {
      return "level \(depth) still found \(newAtLastLevel) new states (no fixpoint)"
    }
    return nil
  }

  /// A summary, with the verdict (complete or bounded), the counterexample's
  /// report, and what the search covered: ``report(listingUnreached:)`` without the list of
  /// declared transitions never reached (their count only).
  public var description: String { report(listingUnreached: false) }

  /// A summary, with the verdict (complete or bounded), the counterexample's
  /// report, and what the search covered.
  ///
  /// A search that stops at a depth leaves many declared transitions unreached (about 150 at
  /// depth 2): they may need longer sequences, and they do not fail it. One line counts them;
  /// `listingUnreached` lists them too, a row a line (`player-sim explore --unreached`).
  /// - Parameter listingUnreached: whether to list each declared transition never reached.
  /// - Returns: the report, one finding a line.
  public func report(listingUnreached: Bool) -> String {
    let engine = canPreload ? "an engine that preloads" : "an engine that does not preload"
    var lines = [
      "explore \(subject) on \(engine): depth \(depth), "
        + "\(states) \(merged ? "states" : "sequences (not merged)"), \(transitions) transitions, "
        + "\(sequences) sequences in \(FuzzResult.format(seconds)) s, \(alphabet) letters"
    ]
    if complete {
      lines.append(
        "complete: states merged on \(subject)'s \(canonical ? "canonical " : "")snapshot and the "
          + "last level found no new state, so every longer sequence over the alphabet revisits them"
          + (probes > 0 ? " (\(probes) merged states probed, none behaving differently)" : ""))
    } else if counterexample == nil {
      let why =
        merged
        ? unsound.map { "the snapshot is not sound: \($0)" }
          ?? "level \(depth) still found \(newAtLastLevel) new states (no fixpoint)"
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
    if let notCompared = Self.notComparedLine(notCompared) { lines.append(notCompared) }
    if let collisionProbability {
      lines.append(Self.fingerprintLine(collisionProbability))
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
      if listingUnreached {
        lines.append("declared transitions never reached:")
        lines += unreached.map { "  \($0)" }
      } else {
        lines.append(Self.unreachedCount(unreached.count, "never reached"))
      }
    }
    return lines.joined(separator: "\n")
  }

  /// `declared transitions never reached: 150 (listed with --unreached)`.
  static func unreachedCount(_ count: Int, _ what: String) -> String {
    "declared transitions \(what): \(count) (listed with player-sim explore --unreached, "
      + "or report(listingUnreached: true))"
  }

  /// `fingerprints: 128 bits a state; collision probability 2.3E-27 (calculated as TLC does)`.
  static func fingerprintLine(_ probability: Double) -> String {
    "fingerprints: 128 bits a visited state; collision probability "
      + "\(StateFingerprint.scientific(probability)) (calculated as TLC does: "
      + "distinct × (generated − distinct) / 2^128)"
  }

  /// The line that says what the player did not say, or nil when it said everything.
  static func notComparedLine(_ observables: [FuzzObservable]) -> String? {
    observables.isEmpty
      ? nil
      : "not compared (the player does not say them): "
        + observables.map(\.rawValue).joined(separator: ", ")
  }

  /// One line: the configuration, states, transitions, depth, time, verdict.
  public var summaryLine: String {
    let verdict: String
    if complete {
      verdict = "complete" + (distinctStates.map { " (\($0) states distinct in behaviour)" } ?? "")
    } else if counterexample != nil {
      verdict = "FAILED"
    } else {
      verdict = "not complete (\(whyNotComplete ?? "bounded"))"
    }
    return "\(configuration): \(states) states, \(transitions) transitions, depth \(depth), "
      + "\(probes) probes, \(replays) replays, \(FuzzResult.format(seconds)) s, \(verdict)"
  }
}

/// What the explorer found over a whole scope: one ``Exploration`` per
/// configuration class.
public struct ScopedExploration: Sendable, CustomStringConvertible {
  /// The subject's name.
  public var subject: String
  /// The scope searched.
  public var scope: ExplorationScope
  /// One result per configuration class, in the scope's order (fewer when a
  /// counterexample or the time limit stopped the search).
  public var results: [Exploration]
  /// Seconds spent.
  public var seconds: Double

  /// Whether every configuration class of the scope was searched to a
  /// fixpoint with nothing broken and the differential check clean: a proof
  /// for every sequence, of any length, over the alphabet within the scope.
  public var complete: Bool {
    results.count == scope.configurations.count && results.allSatisfy(\.complete)
  }

  /// The first counterexample, if any.
  public var counterexample: FuzzFailure? { results.lazy.compactMap(\.counterexample).first }

  /// Whether no property broke and no check failed.
  ///
  /// A declared transition a complete search did not reach is outside the scope (a row that
  /// needs two entries, with queues ≤ 1; a feature left out): within the scope no sequence
  /// reaches it, and any sequence that would have reached it differently from the contract
  /// broke a property on the way. The description lists them; they do not fail the search.
  public var passed: Bool {
    results.allSatisfy { $0.counterexample == nil && $0.unsound == nil }
  }

  /// The declared transitions no configuration reached.
  public var unreached: [TransitionTable.Row] {
    var coverage = FuzzCoverage()
    for result in results { coverage.merge(result.coverage) }
    return coverage.unexercised
  }

  /// What the player left unsaid in some step of some configuration (``FuzzObservable``).
  public var notCompared: [FuzzObservable] {
    FuzzObservable.allCases.filter { observable in
      results.contains { $0.notCompared.contains(observable) }
    }
  }

  /// Distinct canonical states over every configuration.
  public var states: Int { results.reduce(0) { $0 + $1.states } }
  /// Transitions over every configuration.
  public var transitions: Int { results.reduce(0) { $0 + $1.transitions } }
  /// The chance that two distinct states of some class share a fingerprint
  /// (``Exploration/collisionProbability``, summed over the classes), or nil
  /// when no class kept fingerprints.
  public var collisionProbability: Double? {
    let classes = results.compactMap(\.collisionProbability)
    return classes.isEmpty ? nil : min(1, classes.reduce(0, +))
  }

  /// The verdict: `complete for queues ≤ 2, configurations {…}`, or why not.
  public var verdict: String {
    let configurations = ExplorationScope.describe(scope.configurations)
    if complete {
      return "complete for queues ≤ \(scope.entries), ≤ \(scope.held) held-back "
        + "report\(scope.held == 1 ? "" : "s"), configurations \(configurations)"
        + scope.featuresSuffix
    }
    if let failed = results.first(where: { $0.counterexample != nil }) {
      return "not complete: a property broke in \(failed.configuration)"
    }
    if let first = results.first(where: { !$0.complete }) {
      return "not complete: \(first.configuration): \(first.whyNotComplete ?? "bounded")"
    }
    let missing = scope.configurations.count - results.count
    return "not complete: \(missing) configuration\(missing == 1 ? "" : "s") not searched "
      + "(time ran out)"
  }

  /// The scope, one line per configuration, the totals and the verdict: ``report(listingUnreached:)``
  /// with the declared transitions outside the scope counted, not listed.
  public var description: String { report(listingUnreached: false) }

  /// The scope, one line per configuration, the totals and the verdict.
  ///
  /// A complete search of a scope that leaves features out (or with queues of one entry) does
  /// not reach the declared transitions outside it, about 150 for the single-item core: one
  /// line counts them; `listingUnreached` lists them too (`player-sim explore --unreached`).
  /// - Parameter listingUnreached: whether to list each declared transition outside the scope.
  /// - Returns: the report, one finding a line.
  public func report(listingUnreached: Bool) -> String {
    var lines = ["explore \(subject), \(scope)"]
    lines += results.map { "  " + $0.summaryLine }
    lines.append(
      "total: \(states) states, \(transitions) transitions in \(FuzzResult.format(seconds)) s")
    if let collisionProbability {
      lines.append(Exploration.fingerprintLine(collisionProbability))
    }
    if let counterexample { lines.append(counterexample.report) }
    if let unsound = results.lazy.compactMap(\.unsound).first {
      lines.append("the differential check: \(unsound)")
    }
    if let notCompared = Exploration.notComparedLine(notCompared) { lines.append(notCompared) }
    if complete, !unreached.isEmpty {
      if listingUnreached {
        lines.append(
          "declared transitions outside this scope (no sequence within it reaches them): "
            + "\(unreached.count)")
        lines += unreached.map { "  \($0)" }
      } else {
        lines.append(
          Exploration.unreachedCount(
            unreached.count, "outside this scope (no sequence within it reaches them)"))
      }
    }
    lines.append(verdict)
    return lines.joined(separator: "\n")
  }
}

/// How far one configuration class of a scoped exploration has got, as
/// ``Explorer/explore(_:scope:jobs:progress:)`` reports it while it runs
/// (TLC's progress lines): about twice a second while a class is searched,
/// and once more when it ends, with its result.
public struct ExplorationProgress: Sendable, CustomStringConvertible {
  /// The class searched.
  public var configuration: ExplorationConfiguration
  /// Its place in the scope's order, from 0.
  public var classIndex: Int
  /// How many classes the scope has.
  public var classCount: Int
  /// The level (sequence length) of the states being extended.
  public var level: Int
  /// Distinct states found so far.
  public var states: Int
  /// States extended so far (every letter sent from them); the rest,
  /// `states - expanded`, wait on the frontier.
  public var expanded: Int
  /// Transitions (letters sent) so far.
  public var transitions: Int
  /// Seconds since the class started.
  public var seconds: Double
  /// The class's result once it has ended; nil while it runs.
  public var result: Exploration?

  /// A report of a class's progress.
  package init(
    configuration: ExplorationConfiguration, classIndex: Int, classCount: Int, level: Int,
    states: Int, expanded: Int, transitions: Int, seconds: Double, result: Exploration?
  ) {
    self.configuration = configuration
    self.classIndex = classIndex
    self.classCount = classCount
    self.level = level
    self.states = states
    self.expanded = expanded
    self.transitions = transitions
    self.seconds = seconds
    self.result = result
  }

  /// One line: the class, its level and counts, or its result.
  public var description: String {
    let place = "class \(classIndex + 1) of \(classCount)"
    // A result's line names its configuration.
    if let result { return place + ": " + result.summaryLine }
    return place + " (\(configuration))"
      + ": level \(level), \(states) states (\(states - expanded) on the frontier), "
      + "\(transitions) transitions, \(FuzzResult.format(seconds)) s"
  }
}
