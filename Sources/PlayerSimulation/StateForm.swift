import PlayerState

/// Checks the compact form of an exact state (`expect state playing(A#1)`,
/// `wait until buffering(B#3, autoplay)`) when the script is parsed, so that a
/// form no state can ever print is a positioned error (exit 2), not an
/// `expect` that fails at run time.
///
/// The forms are those of `PlaybackState.description`:
/// `buffering(L, autoplay|paused)`, `playing(L)`, `paused(L)`, `stalled(L[, paused])`,
/// `ended(L[, autoplay])`, `failed(L, REASON[, autoplay])`, each optionally
/// followed by `seek#N` (a pending seek) and then by `preloading P`,
/// `preloaded P` or `preload failed P` (the preload). Spaces do not matter.
extension LineReader {
  /// What may come after the load, in order.
  private enum Slot {
    case word([String], required: Bool)
    case reason

    var required: Bool {
      switch self {
      case .word(_, let required): required
      case .reason: true
      }
    }

    var expected: String {
      switch self {
      case .word(let words, _): words.map { "'\($0)'" }.joined(separator: " or ")
      case .reason:
        "a failure reason (network, decoding, unsupported, notFound, timeout, engine(CODE))"
      }
    }
  }

  private static func slots(_ kind: StateKind) -> [Slot] {
    switch kind {
    case .idle, .playing, .paused: []
    case .buffering: [.word(["autoplay", "paused"], required: true)]
    case .stalled: [.word(["paused"], required: false)]
    case .ended: [.word(["autoplay"], required: false)]
    case .failed: [.reason, .word(["autoplay"], required: false)]
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
    if kind == .idle {
      throw error(
        at: scalars[open].column, found: "details for 'idle'", expected: "'idle' alone")
    }
    let parts = try Self.split(scalars[(open + 1)..<(scalars.count - 1)], at: close.column) {
      (column, found, expected) throws(ScenarioError) in
      throw error(at: column, found: found, expected: expected)
    }
    _ = try loadName(parts[0], declared: declared)
    let slots = Self.slots(kind)
    var next = 0
    var seekSeen = false
    var preloadSeen = false
    for part in parts.dropFirst() {
      var matched = false
      while next < slots.count, !matched {
        switch slots[next] {
        case .word(let options, _): matched = options.contains(part.text)
        case .reason:
          _ = try failureReason(part)
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
      if preloadSeen {
        throw error(
          part, found: "\(ScenarioError.quoted(part.text)) after the preload",
          expected: "')': the preload comes last")
      }
      if let prefix = Self.preloadWords.first(where: { part.text.hasPrefix($0) }) {
        let offset = prefix.unicodeScalars.count
        // The load's column in the line, spaces included (`preloading B#2`).
        let start = scalars.firstIndex { $0.column == part.column } ?? 0
        let column = scalars[min(start + offset, scalars.count - 1)].column
        _ = try loadName(
          ScenarioToken(text: String(part.text.unicodeScalars.dropFirst(offset)), column: column),
          declared: declared)
        preloadSeen = true
        continue
      }
      if !seekSeen, part.text.hasPrefix("seek#") {
        _ = try number(
          ScenarioToken(text: String(part.text.dropFirst(5)), column: part.column + 5),
          upTo: UInt32.max, what: "a seek id")
        seekSeen = true
        continue
      }
      throw error(
        part, found: "\(ScenarioError.quoted(part.text)) in a \(kind.rawValue) state",
        expected: seekSeen
          ? "preloading P, preloaded P, preload failed P or ')'"
          : "seek#N (a pending seek), preloading P, preloaded P, preload failed P or ')'")
    }
    if let missing = slots[next...].first(where: \.required) {
      throw error(
        at: close.column, found: "found ')'",
        expected: "\(missing.expected), as in \(Self.example(kind))")
    }
  }

  /// The preload's words as they appear once spaces are removed, longest first.
  private static let preloadWords = ["preloadfailed", "preloading", "preloaded"]

  private static func example(_ kind: StateKind) -> String {
    switch kind {
    case .buffering: "buffering(A#1, autoplay)"
    case .failed: "failed(A#1, network)"
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
