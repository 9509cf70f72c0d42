import PlayerState

/// Parses scenario scripts: line-based text, one action a line, `#` starts a comment.
///
/// The parser is a pure, total function: any text gives a ``Scenario`` or a
/// ``ScenarioError`` naming `file:line:column`, never a trap.
///
/// ```swift
/// let scenario = try ScenarioParser.parse("""
///   media A ready-after=300ms
///   play A
///   wait 100ms
///   stop
///   expect state idle
///   """, file: "late.play")
/// ```
///
/// The vocabulary is described in `docs/player-sim.md`.
public enum ScenarioParser {
  /// The largest time a script may write: 1 000 000 s, so sums of times never overflow.
  public static let maximumMilliseconds: Int64 = 1_000_000_000

  /// How long `wait until STATE` waits without `within=`: 60 s of virtual time.
  public static let defaultWaitLimit: Duration = .seconds(60)

  /// The words that may begin a line.
  public static let actions = [
    "media", "hostile", "watchdog", "play", "pause", "resume", "stop", "seek", "retry", "wait",
    "report", "expect", "note",
  ]

  /// Parses a whole script.
  /// - Parameters:
  ///   - text: the script.
  ///   - file: the name used in error messages and kept in the scenario.
  /// - Returns: the scenario, one step per non-empty line.
  /// - Throws: ``ScenarioError`` at the first line that is not a valid action.
  /// - Complexity: O(n) in the length of `text`.
  public static func parse(_ text: String, file: String) throws(ScenarioError) -> Scenario {
    var declared = Set<MediaID>()
    var steps: [ScenarioStep] = []
    for line in ScenarioLexer(text) where !line.tokens.isEmpty {
      var reader = LineReader(file: file, line: line)
      let action = try reader.action(declared: declared)
      if case .media(let media, _) = action { declared.insert(media) }
      steps.append(ScenarioStep(line: line.number, column: line.tokens[0].column, action: action))
    }
    return Scenario(file: file, steps: steps)
  }
}

extension LineReader {
  mutating func action(declared: Set<MediaID>) throws(ScenarioError) -> ScenarioAction {
    let word = try next("an action")
    let action: ScenarioAction
    switch word.text {
    case "media": action = try media()
    case "hostile": action = try hostile()
    case "watchdog":
      let value = try next("a time such as 5s, or 'off'")
      action = value.text == "off" ? .watchdog(nil) : .watchdog(try duration(value, positive: true))
    case "play": action = .intent(.play(try mediaName(declared: declared)))
    case "pause": action = .intent(.pause)
    case "resume": action = .intent(.resume)
    case "stop": action = .intent(.stop)
    case "retry": action = .intent(.retry)
    case "seek":
      let value = try next("a position such as 2s")
      action = .intent(.seek(to: .milliseconds(try duration(value).wholeMilliseconds)))
    case "wait":
      let value = try next("a time such as 100ms, or 'until STATE'")
      if value.text == "until" {
        action = try waitUntil(declared: declared)
      } else {
        action = .wait(try duration(value))
      }
    case "report": action = .inject(try report(declared: declared))
    case "expect": action = try expectation(declared: declared)
    case "note":
      action = .note(rest().map(\.text).joined(separator: " "))
    default:
      throw error(
        word, found: "unknown action \(ScenarioError.quoted(word.text))",
        expected: "one of \(ScenarioParser.actions.joined(separator: ", "))")
    }
    try end(after: word.text)
    return action
  }

  private mutating func media() throws(ScenarioError) -> ScenarioAction {
    let name = try next("a media name, as in 'media A ready-after=300ms'")
    let media = try mediaID(name)
    var profile = MediaProfile()
    var seen = Set<String>()
    var stallFor: ScenarioToken?
    var reason: ScenarioToken?
    while let option = nextIfAny() {
      let (key, value) = try keyValue(option, example: "duration=5s")
      guard seen.insert(key.text).inserted else {
        throw error(key, found: "option '\(key.text)' given twice", expected: "each option once")
      }
      switch key.text {
      case "ready-after": profile.readyAfter = try duration(value)
      case "duration": profile.duration = try duration(value)
      case "stall-at": profile.stallAt = try duration(value)
      case "stall-for":
        profile.stallFor = try duration(value)
        stallFor = key
      case "fail-after": profile.failAfter = try duration(value)
      case "reason":
        profile.failureReason = try failureReason(value)
        reason = key
      case "seek-latency": profile.seekLatency = try duration(value)
      default:
        throw error(
          key, found: "unknown media option \(ScenarioError.quoted(key.text))",
          expected:
            "one of ready-after, duration, stall-at, stall-for, fail-after, reason, seek-latency")
      }
    }
    if let stallFor, profile.stallAt == nil {
      throw error(stallFor, found: "stall-for without stall-at", expected: "stall-at=TIME as well")
    }
    if let reason, profile.failAfter == nil {
      throw error(reason, found: "reason without fail-after", expected: "fail-after=TIME as well")
    }
    return .media(media, profile)
  }

  private mutating func hostile() throws(ScenarioError) -> ScenarioAction {
    let switchWord = try next("'on' or 'off'")
    switch switchWord.text {
    case "off": return .hostile(nil)
    case "on": break
    default:
      throw error(
        switchWord, found: "found \(ScenarioError.quoted(switchWord.text))",
        expected: "'on' or 'off'")
    }
    var mode = HostileMode()
    var seen = Set<String>()
    while let option = nextIfAny() {
      let (key, value) = try keyValue(option, example: "seed=42")
      guard seen.insert(key.text).inserted else {
        throw error(key, found: "option '\(key.text)' given twice", expected: "each option once")
      }
      switch key.text {
      case "seed": mode.seed = try number(value, upTo: UInt64.max, what: "a seed")
      case "duplicate": mode.duplicatePercent = try percent(value)
      case "reentrant": mode.reentrantPercent = try percent(value)
      default:
        throw error(
          key, found: "unknown hostile option \(ScenarioError.quoted(key.text))",
          expected: "one of seed, duplicate, reentrant")
      }
    }
    return .hostile(mode)
  }

  private mutating func report(declared: Set<MediaID>) throws(ScenarioError) -> PlaybackEvent {
    let kinds = "one of ready, stalled, resumed, ended, failed, seeked, timeout"
    let kind = try next(kinds)
    let load = try loadName(try next("a load such as A#1"), declared: declared)
    var options: [String: ScenarioToken] = [:]
    var keys: [String: ScenarioToken] = [:]
    while let option = nextIfAny() {
      let (key, value) = try keyValue(option, example: "seek=1")
      guard options[key.text] == nil else {
        throw error(key, found: "option '\(key.text)' given twice", expected: "each option once")
      }
      options[key.text] = value
      keys[key.text] = key
    }
    let allowed: [String]
    let event: PlaybackEvent
    switch kind.text {
    case "ready": (allowed, event) = ([], .ready(load))
    case "stalled": (allowed, event) = ([], .stalled(load))
    case "resumed": (allowed, event) = ([], .resumed(load))
    case "ended": (allowed, event) = ([], .reachedEnd(load))
    case "failed":
      let reason = try options["reason"].map { (token) throws(ScenarioError) in
        try failureReason(token)
      }
      (allowed, event) = (["reason"], .failed(load, reason ?? .network))
    case "seeked":
      guard let value = options["seek"] else {
        throw error(
          at: line.endColumn, found: "found end of line",
          expected: "seek=N, the seek id (as in 'report seeked A#1 seek=1')")
      }
      let seek = SeekID(try number(value, upTo: UInt32.max, what: "a seek id"))
      (allowed, event) = (["seek"], .seekCompleted(load, seek))
    case "timeout":
      let id = try options["watchdog"].map { (token) throws(ScenarioError) in
        try number(token, upTo: UInt32.max, what: "a watchdog id")
      }
      (allowed, event) = (["watchdog"], .watchdogExpired(load, WatchdogID(id ?? 1)))
    default:
      throw error(kind, found: "unknown report \(ScenarioError.quoted(kind.text))", expected: kinds)
    }
    for (key, token) in keys where !allowed.contains(key) {
      let expected =
        allowed.isEmpty
        ? "no option for '\(kind.text)'" : allowed.map { "\($0)=…" }.joined(separator: ", ")
      throw error(
        token, found: "unknown option \(ScenarioError.quoted(key)) for '\(kind.text)'",
        expected: expected)
    }
    return event
  }

  /// `wait until STATE [within=TIME]`; the time defaults to ``ScenarioParser/defaultWaitLimit``.
  private mutating func waitUntil(declared: Set<MediaID>) throws(ScenarioError)
    -> ScenarioAction
  {
    var words = rest()
    var within = ScenarioParser.defaultWaitLimit
    if let last = words.last, last.text.hasPrefix("within=") {
      words.removeLast()
      let (_, value) = try keyValue(last, example: "within=5s")
      within = try duration(value, positive: true)
    }
    return .waitUntil(try stateExpectation(words, declared: declared), within: within)
  }

  /// A state kind, or a compact state form possibly split over several words.
  private func stateExpectation(_ words: [ScenarioToken], declared: Set<MediaID>)
    throws(ScenarioError) -> StateExpectation
  {
    guard let first = words.first else {
      throw error(
        at: line.endColumn, found: "found end of line",
        expected: "a state such as idle, playing or buffering(A#1, autoplay)")
    }
    let text = words.map(\.text).joined(separator: " ")
    let kindText = String(text.unicodeScalars.prefix { $0 != "(" })
    guard let kind = StateKind(rawValue: kindText) else {
      throw error(
        first, found: "unknown state \(ScenarioError.quoted(text))",
        expected:
          "one of \(StateKind.allCases.map(\.rawValue).joined(separator: ", ")), optionally with details as in playing(A#1)"
      )
    }
    if kindText == text { return .kind(kind) }
    guard text.hasSuffix(")") else {
      throw error(
        first, found: "unbalanced \(ScenarioError.quoted(text))", expected: "a closing ')'")
    }
    try checkExactState(words, kind: kind, declared: declared)
    return .exactly(text)
  }

  private mutating func expectation(declared: Set<MediaID>) throws(ScenarioError)
    -> ScenarioAction
  {
    let kinds = "'state', 'commands' or 'ignored'"
    let what = try next(kinds)
    switch what.text {
    case "state":
      return .expectState(try stateExpectation(rest(), declared: declared))
    case "commands":
      let words = rest()
      if words.count == 1, words[0].text == "none" { return .expectCommands([]) }
      guard !words.isEmpty else {
        throw error(
          at: line.endColumn, found: "found end of line",
          expected: "commands such as load(A#1) stop(A#1), or 'none'")
      }
      return .expectCommands(try commands(words, declared: declared))
    case "ignored":
      let words = rest()
      if words.count == 1, words[0].text == "none" { return .expectIgnored([]) }
      guard !words.isEmpty else {
        throw error(
          at: line.endColumn, found: "found end of line",
          expected: "ignore reasons such as staleLoad, or 'none'")
      }
      var reasons: [IgnoreReason] = []
      for word in words {
        guard let reason = IgnoreReason(rawValue: word.text), reason != .noEffect else {
          let names = IgnoreReason.allReportReasons.map(\.rawValue).joined(separator: ", ")
          throw error(
            word, found: "unknown ignore reason \(ScenarioError.quoted(word.text))",
            expected: "one of \(names), or 'none'")
        }
        reasons.append(reason)
      }
      return .expectIgnored(reasons)
    default:
      throw error(
        what, found: "unknown expectation \(ScenarioError.quoted(what.text))", expected: kinds)
    }
  }
}

extension IgnoreReason {
  /// The reasons a report or watchdog expiry can be ignored for, in declaration order.
  static let allReportReasons: [IgnoreReason] = [
    .neverIssuedLoad, .staleLoad, .mediaMismatch, .neverIssuedSeek, .supersededSeek,
    .staleWatchdog, .seekPending, .unexpected,
  ]
}
