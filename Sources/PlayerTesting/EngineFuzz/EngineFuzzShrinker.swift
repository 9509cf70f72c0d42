import PlayerState

extension EngineFuzzer {
  /// Shrinks a failing case to a minimal script that still breaks the first
  /// promise it broke, by delta debugging over its commands, then its delays,
  /// then its numbering; prints the result as a script and a test.
  ///
  /// Real time is not deterministic. So, in real time, the failing case is
  /// first run again up to ``Configuration/attempts`` times: if the promise
  /// holds every time, the case is reported unshrunk (``EngineFuzzFailure/reproduced``
  /// 0). Then a candidate counts as failing if any of ``Configuration/attempts``
  /// runs breaks the promise (a bug that shows one run in three still shrinks),
  /// and the minimal script is run ``Configuration/attempts`` times more to say
  /// how often it reproduces.
  func shrink(
    _ script: EngineFuzzScript, outcome: EngineFuzzOutcome, caseIndex: Int, caseSeed: UInt64,
    against makeEngine: @escaping @Sendable () -> FuzzedEngine
  ) async -> EngineFuzzFailure {
    let promise = outcome.violations[0].promise  // the caller saw at least one
    let isVirtual = makeEngine().advance != nil
    let attempts = isVirtual ? 1 : configuration.attempts
    var runs = 0
    var best = (steps: script.steps, outcome: outcome)

    /// The outcome of the first of `attempts` runs that breaks the promise, if
    /// any; nil without running for a candidate the machine would never send.
    func failing(_ steps: [EngineFuzzScript.Step]) async -> EngineFuzzOutcome? {
      guard FuzzShrinker.isMachineShaped(steps) else { return nil }
      for _ in 0..<attempts where runs < configuration.shrinkRuns {
        runs += 1
        let outcome = await check(
          EngineFuzzScript(steps: steps, media: script.media), against: makeEngine)
        if outcome.broken.contains(promise) { return outcome }
      }
      return nil
    }

    // 0. Real time only: a case whose failure does not come back in any of
    // `attempts` runs is reported as it is, unshrunk (reproduced 0 times).
    let reproduces = isVirtual ? true : await failing(script.steps) != nil
    // 1. Commands: remove chunks, halving the chunk size when none can go.
    var chunks = 2
    while reproduces, best.steps.count > 1, runs < configuration.shrinkRuns {
      let size = (best.steps.count + chunks - 1) / chunks
      var removed = false
      for start in stride(from: 0, to: best.steps.count, by: size) {
        let candidate = FuzzShrinker.removing(
          start..<min(start + size, best.steps.count), from: best.steps)
        guard candidate.count < best.steps.count, let found = await failing(candidate) else {
          continue
        }
        best = (candidate, found)
        chunks = max(chunks - 1, 2)
        removed = true
        break
      }
      if !removed {
        if size == 1 { break }
        chunks = min(chunks * 2, best.steps.count)
      }
    }
    // 2. Delays: each to zero, else to half.
    for index in best.steps.indices where reproduces && best.steps[index].delay > .zero {
      for delay in [Duration.zero, best.steps[index].delay / 2] {
        var candidate = best.steps
        candidate[index].delay = delay
        if let found = await failing(candidate) {
          best = (candidate, found)
          break
        }
      }
    }
    // 3. Media: each load's to the first media (`A`), and numbering: tokens and seek ids from 1.
    for index in best.steps.indices where reproduces {
      guard let simpler = FuzzShrinker.withFirstMedia(best.steps, at: index, media: script.media),
        let found = await failing(simpler)
      else { continue }
      best = (simpler, found)
    }
    let renumbered = FuzzShrinker.renumbered(best.steps)
    if reproduces, renumbered != best.steps, let found = await failing(renumbered) {
      best = (renumbered, found)
    }
    var reproduced = 0
    let minimal = EngineFuzzScript(steps: best.steps, media: script.media)
    for _ in 0..<configuration.attempts {
      let outcome = await check(minimal, against: makeEngine)
      if outcome.broken.contains(promise) {
        reproduced += 1
        best.outcome = outcome
      }
    }
    return EngineFuzzFailure(
      caseIndex: caseIndex, caseSeed: caseSeed, promise: promise, original: outcome,
      originalCommands: script.steps.count, minimal: minimal, minimalOutcome: best.outcome,
      reproduced: reproduced, attempts: configuration.attempts, shrinkRuns: runs,
      swiftTest: swiftTest(minimal, name: "engineFuzzCase\(hex(caseSeed).dropFirst(2))"))
  }

  /// A Swift Testing test replaying `script` against the configured engine.
  func swiftTest(_ script: EngineFuzzScript, name: String) -> String {
    func literals<T>(_ values: [T], _ text: (T) -> String) -> String {
      "[" + values.map(text).joined(separator: ", ") + "]"
    }
    let quoted = { (media: MediaID) in String(reflecting: media.rawValue) }
    let body = script.lines.map { "      \($0)" }.joined(separator: "\n")
    return """
      @Test func \(name)() async throws {
        let fuzzer = EngineFuzzer(
          .init(
            media: \(literals(configuration.media, quoted)),
            unplayableMedia: \(literals(configuration.unplayableMedia, quoted)),
            seekPositions: \(literals(configuration.seekPositions) { ".milliseconds(\($0.milliseconds))" }),
            timeout: .milliseconds(\(EngineFuzzScript.milliseconds(configuration.timeout)))))
        let outcome = try await fuzzer.replay(
          \"\"\"
      \(body)
          \"\"\",
          against: { \(configuration.engineSource) })
        #expect(outcome.violations.isEmpty, "\\(outcome)")
      }
      """
  }
}

/// The edits shrinking makes to a command list; each keeps it a valid script.
package enum FuzzShrinker {
  /// Whether the machine could send these commands in this order, as the
  /// generator does (``FuzzGenerator``): a `load` only when nothing is live
  /// (the current load and the preload were stopped), a `preload` only beside
  /// a current load and no other preload, tokens increasing, `start`,
  /// `setRate`, `pause` and `seek` only for the current load (or `start` for
  /// the preload once the current load is stopped: the switch), `stop` only
  /// for a live load, seek ids increasing per load. A shrunk script that
  /// breaks these would blame the engine for commands no player sends.
  package static func isMachineShaped(_ steps: [EngineFuzzScript.Step]) -> Bool {
    var current: Load?
    var preload: Load?
    var newest: UInt32 = 0
    var seeks: [LoadToken: UInt32] = [:]
    for step in steps {
      let command = step.command
      let load = command.load
      switch command {
      case .load, .preload:
        guard load.token.rawValue > newest else { return false }
        newest = load.token.rawValue
        if case .load = command {
          guard current == nil, preload == nil else { return false }
          current = load
        } else {
          guard current != nil, preload == nil else { return false }
          preload = load
        }
      case .start where load == preload && current == nil:
        current = load
        preload = nil
      case .start, .setRate, .pause:
        guard load == current else { return false }
      case .setVolume:
        guard load == current || load == preload else { return false }
      case .seek(_, _, let seek):
        guard load == current, seek.rawValue > seeks[load.token, default: 0] else { return false }
        seeks[load.token] = seek.rawValue
      case .stop:
        if load == current {
          current = nil
        } else if load == preload {
          preload = nil
        } else {
          return false
        }
      }
    }
    return true
  }

  /// The steps without those at `indices` and without every command naming a
  /// load whose `load` or `preload` is removed. A removed step's delay is
  /// added to the next kept one, so the kept commands keep their times.
  static func removing(_ indices: Range<Int>, from steps: [EngineFuzzScript.Step])
    -> [EngineFuzzScript.Step]
  {
    var dropped = Set<LoadToken>()
    for index in indices {
      switch steps[index].command {
      case .load(let request), .preload(let request): dropped.insert(request.load.token)
      default: break
      }
    }
    return keeping(steps) { index, step in
      !indices.contains(index) && !dropped.contains(step.command.load.token)
    }
  }

  /// The steps without every command naming one of `tokens`, delays kept as above.
  static func removing(_ tokens: Set<LoadToken>, from steps: [EngineFuzzScript.Step])
    -> [EngineFuzzScript.Step]
  {
    tokens.isEmpty ? steps : keeping(steps) { !tokens.contains($1.command.load.token) }
  }

  private static func keeping(
    _ steps: [EngineFuzzScript.Step], _ keep: (Int, EngineFuzzScript.Step) -> Bool
  ) -> [EngineFuzzScript.Step] {
    var kept: [EngineFuzzScript.Step] = []
    var carried = Duration.zero
    for (index, step) in steps.enumerated() {
      guard keep(index, step) else {
        carried += step.delay
        continue
      }
      kept.append(EngineFuzzScript.Step(delay: step.delay + carried, step.command))
      carried = .zero
    }
    return kept
  }

  /// The steps with the load or preload at `index` opening the first media
  /// instead; nil if it is not a load or opens the first media already.
  static func withFirstMedia(
    _ steps: [EngineFuzzScript.Step], at index: Int, media: [MediaID]
  ) -> [EngineFuzzScript.Step]? {
    guard let first = media.first else { return nil }
    var steps = steps
    switch steps[index].command {
    case .load(let request) where request.media != first:
      steps[index].command = .load(
        LoadRequest(load: request.load, media: first, start: request.start))
    case .preload(let request) where request.media != first:
      steps[index].command = .preload(
        LoadRequest(load: request.load, media: first, start: request.start))
    default:
      return nil
    }
    return steps
  }

  /// The steps with tokens renumbered 1, 2, … in load order (items follow
  /// their tokens) and each load's seek ids 1, 2, … in order.
  static func renumbered(_ steps: [EngineFuzzScript.Step]) -> [EngineFuzzScript.Step] {
    var tokens: [LoadToken: UInt32] = [:]
    var seeks: [LoadToken: UInt32] = [:]
    return steps.map { step in
      let old = step.command.load.token
      if tokens[old] == nil, step.command.opensLoad { tokens[old] = UInt32(tokens.count + 1) }
      let number = tokens[old] ?? old.rawValue
      let load = Load(item: ItemID(number), token: LoadToken(number))
      let command: EngineCommand
      switch step.command {
      case .load(let request):
        command = .load(LoadRequest(load: load, media: request.media, start: request.start))
      case .preload(let request):
        command = .preload(LoadRequest(load: load, media: request.media, start: request.start))
      case .start(_, let rate): command = .start(load, rate: rate)
      case .setRate(_, let rate): command = .setRate(load, rate)
      case .pause: command = .pause(load)
      case .seek(_, let time, _):
        seeks[old, default: 0] += 1
        command = .seek(load, to: time, SeekID(seeks[old, default: 1]))
      case .stop: command = .stop(load)
      case .setVolume(_, let volume, let ramp): command = .setVolume(load, volume, ramp: ramp)
      }
      return EngineFuzzScript.Step(delay: step.delay, command)
    }
  }
}

extension EngineCommand {
  /// True for `load` and `preload`.
  fileprivate var opensLoad: Bool {
    switch self {
    case .load, .preload: true
    default: false
    }
  }
}
