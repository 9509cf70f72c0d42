import PlayerState

/// Checks the compact form of an exact state (`expect state playing(A#1)`,
/// `wait until buffering(B#3, autoplay)`) when the script is parsed, so that a
/// form no state can ever print is a positioned error (exit 2), not an
/// `expect` that fails at run time.
///
/// The forms are those of `PlaybackState.description`:
/// `buffering(L, autoplay|paused)`, `playing(L)`, `paused(L)`, `stalled(L[, paused])`,
/// `ended(L[, autoplay])`, `failed(L, REASON[, autoplay])`,
/// `waiting(L, network, attempt N[, autoplay])`, `suppressed(L, interrupted|ducked|system pause)`;
/// a live load's kind (`live` or `dvr`) right after the load (after a failure's reason or
/// a network wait's attempt), as in `playing(L#1, dvr)`;
/// each but `playing` and `suppressed` optionally followed by the system's
/// hold (`interrupted`, `ducked` for a duck under the pause policy, or
/// `system pause` for `paused` and `stalled`), then
/// by `seek#N` (a pending seek), then by the armed sleep timer (`sleep
/// after(T)`, `sleep endOfEntry`, `sleep endOfQueue`, `sleep afterEntries(N)`)
/// and then by `preloading P`, `preloaded P`, `preload failed P` or `preload live P` (the
/// preload). A fade-out into the user's pause shows `fading out` right after the load of a
/// `paused` state (`paused(A#1, fading out)`), and a stopped load fading out is
/// `idle(fading out A#1)`, the only details `idle` takes. A crossfade's outgoing load comes
/// where the preload would (no preload is issued while one fades out):
/// `playing(B#3, crossfade from A#1)`. Spaces do not matter.
extension LineReader {
  /// What may come after the load, in order.
  private enum Slot {
    /// One of these words (as written without spaces: `systempause`).
    case word([String], required: Bool)
    case reason
    /// `attempt N`, the reload a network wait leads to.
    case attempt

    var required: Bool {
      switch self {
      case .word(_, let required): required
      case .reason, .attempt: true
      }
    }

    var expected: String {
      switch self {
      case .word(let words, _):
        let quoted = words.map { "'\(LineReader.spaced($0))'" }
        return quoted.count > 2
          ? quoted.dropLast().joined(separator: ", ") + " or " + quoted[quoted.count - 1]
          : quoted.joined(separator: " or ")
      case .reason:
        return
          "a failure reason (network, decoding, unsupported, notFound, timeout, behindLiveWindow, "
          + "engine(CODE))"
      case .attempt: return "'attempt N'"
      }
    }
  }

  /// The words of a slot as written with their space: `system pause`, `fading out`.
  private static func spaced(_ word: String) -> String {
    switch word {
    case "systempause": "system pause"
    case "fadingout": "fading out"
    default: word
    }
  }

  private static func slots(_ kind: StateKind) -> [Slot] {
    // A duck under the pause policy holds a load as an interruption does, and shows
    // `ducked` where an interruption shows `interrupted`.
    let interrupted = Slot.word(["interrupted", "ducked"], required: false)
    let held = Slot.word(["interrupted", "ducked", "systempause"], required: false)
    // A live load's kind comes right after the load (after a failure's reason or a
    // network wait's attempt, which the state inserts before it).
    let live = Slot.word(["live", "dvr"], required: false)
    switch kind {
    case .idle: return []
    case .playing: return [live]
    // A fade-out into a pause: the load is ready and nothing holds it (invariant 13), so
    // `fading out` and a hold never come together; both are optional, in the order printed.
    case .paused: return [live, .word(["fadingout"], required: false), held]
    case .buffering: return [live, .word(["autoplay", "paused"], required: true), interrupted]
    case .stalled: return [live, .word(["paused"], required: false), held]
    case .ended: return [live, .word(["autoplay"], required: false), interrupted]
    case .failed: return [.reason, live, .word(["autoplay"], required: false), interrupted]
    case .waiting:
      return [
        .word(["network"], required: true), .attempt, live, .word(["autoplay"], required: false),
        interrupted,
      ]
    case .suppressed:
      return [live, .word(["interrupted", "ducked", "systempause"], required: true)]
    }
  }

  /// Throws at the first part of `words` (the words of `KIND(…)`) that no
  /// state of `kind` prints.
  func checkExactState(_ words: [ScenarioToken], kind: StateKind, declared: Set<MediaID>)
    throws(ScenarioError)
  {
    // The scalars and their columns, without the spaces between words.
    var scalars: [(scalar: Unicode.Scalar, column: Int)] = []
    for word in words {
      for (offset, scalar) in word.text.unicodeScalars.enumerated() {
        scalars.append((scalar, word.column + offset))
      }
    }
    let open = kind.rawValue.unicodeScalars.count
    // The caller checked the kind's name and the closing ')'.
    guard open < scalars.count, scalars[open].scalar == "(" else {
      throw error(
        at: scalars[min(open, scalars.count - 1)].column, found: "found text after the state kind",
        expected: "'(' as in \(kind.rawValue)(A#1)")
    }
    let close = scalars[scalars.count - 1]
    let parts = try Self.split(scalars[(open + 1)..<(scalars.count - 1)], at: close.column) {
      (column, found, expected) throws(ScenarioError) in
      throw error(at: column, found: found, expected: expected)
    }
    if kind == .idle {
      // `idle(fading out A#1)`: a stopped load fading out, the only details idle has.
      let marker = "fadingout"
      guard parts.count == 1, parts[0].text.hasPrefix(marker),
        parts[0].text.unicodeScalars.count > marker.unicodeScalars.count
      else {
        throw error(
          at: scalars[open].column, found: "details for 'idle'",
          expected: "'idle' alone, or idle(fading out A#1) while a stopped load fades out")
      }
      // The load's column in the line, spaces included (`fading out A#1`).
      let start = scalars.firstIndex { $0.column == parts[0].column } ?? 0
      let column = scalars[min(start + marker.unicodeScalars.count, scalars.count - 1)].column
      _ = try loadName(
        ScenarioToken(
          text: String(parts[0].text.unicodeScalars.dropFirst(marker.unicodeScalars.count)),
          column: column),
        declared: declared)
      return
    }
    _ = try loadName(parts[0], declared: declared)
    let slots = Self.slots(kind)
    var next = 0
    var seekSeen = false
    var sleepSeen = false
    // The last detail once seen: "the preload", or "the crossfade's outgoing load".
    var lastSeen: String?
    for part in parts.dropFirst() {
      var matched = false
      while next < slots.count, !matched {
        switch slots[next] {
        case .word(let options, _): matched = options.contains(part.text)
        case .reason:
          _ = try failureReason(part)
          matched = true
        case .attempt:
          guard part.text.hasPrefix("attempt") else { break }
          let digits = String(part.text.unicodeScalars.dropFirst(7))
          // The number's column in the line, spaces included (`attempt 2`).
          let start = scalars.firstIndex { $0.column == part.column } ?? 0
          let column = scalars[min(start + 7, scalars.count - 1)].column
          // Attempts are the reloads of a network wait, counted from 1 (a
          // `UInt8`): any other number is a form no state prints.
          let token = ScenarioToken(text: digits, column: column)
          let attempt = try number(token, upTo: UInt8.max, what: "an attempt")
          guard attempt >= 1 else {
            throw error(
              token, found: "attempt 0",
              expected: "an attempt from 1 to 255 (the first reload is attempt 1)")
          }
          matched = true
        }
        if !matched, slots[next].required { break }
        next += 1
      }
      if matched { continue }
      if next < slots.count {
        throw error(
          part, found: "\(ScenarioError.quoted(part.text)) in a \(kind.rawValue) state",
          expected: slots[next].expected)
      }
      if let last = lastSeen {
        throw error(
          part, found: "\(ScenarioError.quoted(part.text)) after \(last)",
          expected: "')': \(last) comes last")
      }
      if let prefix = Self.preloadWords.first(where: { part.text.hasPrefix($0) }) {
        let offset = prefix.unicodeScalars.count
        // The load's column in the line, spaces included (`preloading B#2`).
        let start = scalars.firstIndex { $0.column == part.column } ?? 0
        let column = scalars[min(start + offset, scalars.count - 1)].column
        _ = try loadName(
          ScenarioToken(text: String(part.text.unicodeScalars.dropFirst(offset)), column: column),
          declared: declared)
        lastSeen = prefix == "crossfadefrom" ? "the crossfade's outgoing load" : "the preload"
        continue
      }
      if !seekSeen, !sleepSeen, part.text.hasPrefix("seek#") {
        _ = try number(
          ScenarioToken(text: String(part.text.dropFirst(5)), column: part.column + 5),
          upTo: UInt32.max, what: "a seek id")
        seekSeen = true
        continue
      }
      if !sleepSeen, part.text.hasPrefix("sleep") {
        // The timer's column in the line, spaces included (`sleep after(30s)`).
        let start = scalars.firstIndex { $0.column == part.column } ?? 0
        let column = scalars[min(start + 5, scalars.count - 1)].column
        try checkSleepTimer(
          ScenarioToken(text: String(part.text.unicodeScalars.dropFirst(5)), column: column))
        sleepSeen = true
        continue
      }
      let rest = [
        seekSeen || sleepSeen ? nil : "seek#N (a pending seek)",
        sleepSeen ? nil : "sleep TIMER (the armed sleep timer)",
        "preloading P, preloaded P, preload failed P, preload live P, crossfade from L or ')'",
      ]
      throw error(
        part, found: "\(ScenarioError.quoted(part.text)) in a \(kind.rawValue) state",
        expected: rest.compactMap { $0 }.joined(separator: ", "))
    }
    if let missing = slots[next...].first(where: \.required) {
      throw error(
        at: close.column, found: "found ')'",
        expected: "\(missing.expected), as in \(Self.example(kind))")
    }
  }

  /// The sleep timer of a state's compact form, after `sleep`: `after(T)`
  /// (any time above 0, matched as its milliseconds), `endOfEntry`,
  /// `endOfQueue` or `afterEntries(N)` (N from 1).
  private func checkSleepTimer(_ token: ScenarioToken) throws(ScenarioError) {
    let expected =
      "after(TIME), endOfEntry, endOfQueue or afterEntries(N) after 'sleep', as in sleep after(30m)"
    let text = token.text
    if text == "endOfEntry" || text == "endOfQueue" { return }
    for (name, isTime) in [("after(", true), ("afterEntries(", false)]
    where text.hasPrefix(name) && text.hasSuffix(")") {
      let inner = ScenarioToken(
        text: String(text.unicodeScalars.dropFirst(name.count).dropLast()),
        column: token.column + name.count)
      if isTime {
        _ = try duration(inner, positive: true)
      } else {
        let count = try number(inner, upTo: UInt32.max, what: "a number of entries")
        guard count > 0 else {
          throw error(
            inner, found: "afterEntries(0)", expected: "a number of entries from 1")
        }
      }
      return
    }
    throw error(
      token,
      found: text.isEmpty ? "'sleep' alone" : "unknown sleep timer \(ScenarioError.quoted(text))",
      expected: expected)
  }

  /// The words of the last detail, the preload's or the crossfade's outgoing load's, as they
  /// appear once spaces are removed, longest first.
  private static let preloadWords = [
    "preloadfailed", "preloadlive", "preloading", "preloaded", "crossfadefrom",
  ]

  private static func example(_ kind: StateKind) -> String {
    switch kind {
    case .buffering: "buffering(A#1, autoplay)"
    case .failed: "failed(A#1, network)"
    case .waiting: "waiting(A#1, network, attempt 1)"
    case .suppressed: "suppressed(A#1, interrupted)"
    default: "\(kind.rawValue)(A#1)"
    }
  }

  /// The parts between the parentheses, split at commas outside nested
  /// parentheses (as in `engine(-1)`), each with the column it starts at.
  private static func split(
    _ scalars: ArraySlice<(scalar: Unicode.Scalar, column: Int)>, at close: Int,
    fail: (Int, String, String) throws(ScenarioError) -> Never
  ) throws(ScenarioError) -> [ScenarioToken] {
    var parts: [ScenarioToken] = []
    var text = String.UnicodeScalarView()
    var column = scalars.first?.column ?? close
    var depth = 0
    for (scalar, at) in scalars {
      if scalar == "," && depth == 0 {
        guard !text.isEmpty else { try fail(at, "found ','", "a detail before ','") }
        parts.append(ScenarioToken(text: String(text), column: column))
        text = String.UnicodeScalarView()
        continue
      }
      if text.isEmpty { column = at }
      if scalar == "(" { depth += 1 }
      if scalar == ")" {
        depth -= 1
        if depth < 0 { try fail(at, "found an unbalanced ')'", "')' only at the end") }
      }
      text.append(scalar)
    }
    guard !text.isEmpty else {
      try fail(close, "found ')'", parts.isEmpty ? "a load such as A#1" : "a detail after ','")
    }
    if depth != 0 { try fail(close, "found an unclosed '('", "')'") }
    parts.append(ScenarioToken(text: String(text), column: column))
    return parts
  }
}
