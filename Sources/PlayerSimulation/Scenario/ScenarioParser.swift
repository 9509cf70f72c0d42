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

  /// The longest `message="…"` of a `report failed` line, in Unicode scalars
  /// once its escapes are decoded: 200.
  public static let maximumMessageLength = 200

  /// The longest `domain=` of a `report failed` line, in Unicode scalars: 100.
  public static let maximumDomainLength = 100

  /// How long `wait until STATE` waits without `within=`: 60 s of virtual time.
  public static let defaultWaitLimit: Duration = .seconds(60)

  /// The words that may begin a line.
  public static let actions = [
    "media", "engine", "previous-threshold", "retry-policy", "ducking", "fade", "crossfade",
    "hostile", "watchdog", "play", "queue", "append", "insert", "remove", "move", "jump", "next",
    "previous", "repeat", "shuffle", "rate", "volume", "mute", "unmute", "clear", "pause",
    "resume", "stop", "seek", "retry", "toggle", "skip", "set-position", "go-live", "sleep-timer",
    "remote",
    "interrupt", "route", "network", "duck", "unduck", "relaunch", "handoff", "wait", "report",
    "expect", "note",
  ]

  /// The words that begin an intent: what may follow `remote`.
  public static let intents = [
    "play", "queue", "append", "insert", "remove", "move", "jump", "next", "previous", "repeat",
    "shuffle", "rate", "volume", "mute", "unmute", "clear", "pause", "resume", "stop", "seek",
    "retry", "toggle", "skip", "set-position", "go-live",
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
    // Room for every step at once: no line is shorter than `stop`, so a script
    // has at most one step per 5 bytes and per line break. Pages never written
    // are never resident, and growing by doubling would hold the old buffer and
    // one twice its size at once: 3 steps' worth of memory per step at the peak.
    steps.reserveCapacity(Self.stepBound(text))
    var started = false
    var setupSeen = Set<String>()
    // The previous `media` line's action: an identical line shares its box
    // (216 bytes) instead of allocating its own.
    var lastMedia: ScenarioAction?
    // Whether the engine preloads, and the first line asking for a crossfade: a crossfade
    // needs the preload, and the engine is set up once, so this is checked at the end.
    var preloads = false
    var firstCrossfade: (line: Int, column: Int, length: String)?
    for line in ScenarioLexer(text) where !line.tokens.isEmpty {
      var reader = LineReader(file: file, line: line)
      var action = try reader.action(declared: declared)
      let word = line.tokens[0]
      switch action {
      case .media(let media, _):
        declared.insert(media)
        if action == lastMedia, let lastMedia { action = lastMedia }
        lastMedia = action
      case .crossfade(let length):
        if length > .zero, firstCrossfade == nil {
          firstCrossfade = (line.number, word.column, line.tokens[1].text)
        }
      case .engine, .previousThreshold, .retryPolicy:
        if case .engine(let preload) = action { preloads = preload }
        guard !started else {
          throw ScenarioError(
            file: file, line: line.number, column: word.column,
            found: "'\(word.text)' after the run started",
            expected:
              "setup lines (engine, previous-threshold, retry-policy) before the first "
              + "intent, wait, report or system event")
        }
        guard setupSeen.insert(word.text).inserted else {
          throw ScenarioError(
            file: file, line: line.number, column: word.column,
            found: "a second '\(word.text)' line", expected: "each setup line once")
        }
      default:
        if action.startsRun { started = true }
      }
      steps.append(ScenarioStep(line: line.number, column: word.column, action: action))
    }
    if let firstCrossfade, !preloads {
      // The driver would turn the crossfade off without a word (it needs `.preload`): a
      // script that asks for one on such an engine is refused where it asks.
      throw ScenarioError(
        file: file, line: firstCrossfade.line, column: firstCrossfade.column,
        found:
          "crossfade \(ScenarioError.quoted(firstCrossfade.length)) on an engine that cannot "
          + "preload",
        expected:
          "'engine preload=yes' before the first intent, wait, report or system event (a "
          + "crossfade plays the preloaded next entry beside the current one)")
    }
    return Scenario(file: file, steps: steps)
  }

  /// At most how many steps `text` can hold: its lines, and one per 5 bytes
  /// (the shortest action and its line break, as in `stop`).
  static func stepBound(_ text: String) -> Int {
    var lines = 1
    for byte in text.utf8 where byte == UInt8(ascii: "\n") { lines += 1 }
    return min(lines, text.utf8.count / 5 + 1)
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
    case "engine": action = try engine()
    case "previous-threshold":
      action = .previousThreshold(try mediaTime(try next("a time such as 3s")))
    case "retry-policy": action = try retryPolicy()
    case "ducking": action = .ducking(try duckPolicy())
    case "fade": action = .fade(try length(of: "fade", example: "200ms or 1.5s"))
    case "crossfade": action = .crossfade(try length(of: "crossfade", example: "3s or 500ms"))
    case "interrupt":
      let phase = try next("'begin' or 'end'")
      switch phase.text {
      case "begin": action = .system(.interruptionBegan)
      case "end":
        let resume = nextIfAny()
        if let resume, resume.text != "resume" {
          throw error(
            resume, found: "found \(ScenarioError.quoted(resume.text))",
            expected: "'resume' (the system's hint that playback may resume) or end of line")
        }
        action = .system(.interruptionEnded(shouldResume: resume != nil))
      default:
        throw error(
          phase, found: "found \(ScenarioError.quoted(phase.text))", expected: "'begin' or 'end'")
      }
    case "route":
      let what = try next("'lost'")
      guard what.text == "lost" else {
        throw error(
          what, found: "found \(ScenarioError.quoted(what.text))",
          expected: "'lost' (the output went away, as when headphones are unplugged)")
      }
      action = .system(.routeLost)
    case "network":
      let what = try next("'lost' or 'available'")
      switch what.text {
      case "lost": action = .system(.networkLost)
      case "available": action = .system(.networkAvailable)
      default:
        throw error(
          what, found: "found \(ScenarioError.quoted(what.text))",
          expected: "'lost' or 'available'")
      }
    case "duck": action = .system(.duckBegan)
    case "unduck": action = .system(.duckEnded)
    case "play": action = try play(declared: declared)
    case "queue": action = try queue(declared: declared)
    case "append":
      action = .intent(.append(try mediaList(declared: declared, example: "append A B")))
    case "insert": action = try insert(declared: declared)
    case "remove": action = .intent(.remove(at: try position(try next("a position such as 2"))))
    case "move":
      let source = try position(try next("a position such as 2"))
      let (key, value) = try keyValue(try next("to=N, as in 'move 3 to=1'"), example: "to=1")
      guard key.text == "to" else {
        throw error(
          key, found: "unknown option \(ScenarioError.quoted(key.text)) for 'move'",
          expected: "to=N, as in 'move 3 to=1'")
      }
      action = .intent(.move(from: source, to: try position(value)))
    case "jump":
      let target = try position(try next("a position such as 2"))
      let options = try keyOptions(["from"], for: "jump")
      action = .intent(.jump(to: target, from: try options["from"].map(mediaTime) ?? .zero))
    case "next": action = .intent(.next)
    case "previous": action = .intent(.previous)
    case "repeat":
      let mode = try next("off, one or all")
      guard let repeatMode = RepeatMode(rawValue: mode.text) else {
        throw error(
          mode, found: "unknown repeat mode \(ScenarioError.quoted(mode.text))",
          expected: "off, one or all")
      }
      action = .intent(.setRepeat(repeatMode))
    case "shuffle": action = try shuffle()
    case "rate": action = .intent(.setRate(try rate(try next("a rate such as 1.5"))))
    case "volume":
      action = .intent(.setVolume(try volume(try next("a volume from 0 to 1, such as 0.5"))))
    case "mute": action = .intent(.setMuted(true))
    case "unmute": action = .intent(.setMuted(false))
    case "clear": action = .intent(.clear)
    case "pause": action = .intent(.pause)
    case "resume": action = .intent(.resume)
    case "stop": action = .intent(.stop)
    case "retry": action = .intent(.retry)
    case "seek":
      let value = try next("a position such as 2s")
      action = .intent(.seek(to: .milliseconds(try duration(value).wholeMilliseconds)))
    case "toggle": action = .intent(.toggle)
    case "go-live": action = .intent(.goToLive)
    case "skip":
      action = .intent(.skip(by: try signedTime(try next("a signed time such as +15s or -10s"))))
    case "set-position":
      let name = try next("a media name, as in 'set-position A 10s'")
      let media = try declaredMedia(name, text: name.text, column: name.column, declared: declared)
      let time = try mediaTime(try next("a position such as 10s, as in 'set-position A 10s'"))
      action = .setPosition(media, time, remote: false)
    case "sleep-timer": action = .intent(.setSleepTimer(try sleepTimer()))
    case "remote": action = try remote(declared: declared)
    case "relaunch": action = .relaunch
    case "handoff": action = .handoff
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

  /// `remote INTENT…`: any intent line, sent as a remote control's.
  private mutating func remote(declared: Set<MediaID>) throws(ScenarioError) -> ScenarioAction {
    let expected =
      "an intent after 'remote', as in 'remote toggle': one of "
      + ScenarioParser.intents.joined(separator: ", ")
    guard index < line.tokens.count else {
      throw error(at: line.endColumn, found: "found end of line", expected: expected)
    }
    let word = line.tokens[index]
    guard ScenarioParser.intents.contains(word.text) else {
      throw error(
        word, found: "found \(ScenarioError.quoted(word.text)) after 'remote'", expected: expected)
    }
    switch try action(declared: declared) {
    case .intent(let intent): return .remote(intent)
    case .setPosition(let media, let time, _): return .setPosition(media, time, remote: true)
    default: throw error(word, found: "found '\(word.text)' after 'remote'", expected: expected)
    }
  }

  /// `sleep-timer 30m | end-of-entry | end-of-queue | entries=N | off`: the
  /// sleep timer, or nil to turn it off. A countdown is a time above 0
  /// (`h` allowed, as everywhere); `entries=` counts from 1.
  private mutating func sleepTimer() throws(ScenarioError) -> SleepTimer? {
    let expected = "a time such as 30m, end-of-entry, end-of-queue, entries=N or off"
    let word = try next(expected)
    switch word.text {
    case "off": return nil
    case "end-of-entry": return .endOfEntry
    case "end-of-queue": return .endOfQueue
    default: break
    }
    if word.text.unicodeScalars.dropFirst().contains("=") {
      let (key, value) = try keyValue(word, example: "entries=2")
      guard key.text == "entries" else {
        throw error(
          key, found: "unknown option \(ScenarioError.quoted(key.text)) for 'sleep-timer'",
          expected: "entries=N, as in 'sleep-timer entries=2'")
      }
      let count = try number(value, upTo: UInt32.max, what: "a number of entries")
      guard count > 0 else {
        throw error(
          value, found: "entries=0",
          expected: "a number of entries from 1 (entries=1 stops at the end of the current one)")
      }
      return .afterEntries(count)
    }
    guard let first = word.text.unicodeScalars.first, Self.isDigit(first) else {
      let found =
        word.text.hasPrefix("-")
        ? "a negative time \(ScenarioError.quoted(word.text))"
        : "unknown sleep timer \(ScenarioError.quoted(word.text))"
      throw error(word, found: found, expected: expected)
    }
    return .after(try duration(word, positive: true))
  }

  /// `+15s` or `-10s`: a time with its sign, as `skip` takes.
  private func signedTime(_ token: ScenarioToken) throws(ScenarioError) -> MediaTime {
    let scalars = token.text.unicodeScalars
    let expected = "a signed time such as +15s or -10s (+ skips forward, - back)"
    guard let sign = scalars.first, sign == "+" || sign == "-" else {
      throw error(
        token, found: "found \(ScenarioError.quoted(token.text)) without a sign", expected: expected
      )
    }
    let magnitude = String(scalars.dropFirst())
    guard !magnitude.isEmpty else {
      throw error(token, found: "a sign without a time", expected: expected)
    }
    let milliseconds = try duration(ScenarioToken(text: magnitude, column: token.column + 1))
      .wholeMilliseconds
    return .milliseconds(sign == "-" ? -milliseconds : milliseconds)
  }

  /// `key=value` options until the end of the line, each at most once and
  /// each one of `allowed`.
  private mutating func keyOptions(_ allowed: [String], for action: String) throws(ScenarioError)
    -> [String: ScenarioToken]
  {
    var found: [String: ScenarioToken] = [:]
    while let option = nextIfAny() {
      let (key, value) = try keyValue(option, example: "\(allowed[0])=…")
      guard allowed.contains(key.text) else {
        throw error(
          key, found: "unknown option \(ScenarioError.quoted(key.text)) for '\(action)'",
          expected: allowed.map { "\($0)=…" }.joined(separator: ", "))
      }
      guard found[key.text] == nil else {
        throw error(key, found: "option '\(key.text)' given twice", expected: "each option once")
      }
      found[key.text] = value
    }
    return found
  }

  /// Declared media names up to the first `key=value` word or the end of the line.
  private mutating func mediaList(declared: Set<MediaID>, example: String) throws(ScenarioError)
    -> [MediaID]
  {
    var media: [MediaID] = []
    while index < line.tokens.count, !line.tokens[index].text.contains("="),
      line.tokens[index].text != "paused"
    {
      media.append(try mediaName(declared: declared))
    }
    guard !media.isEmpty else {
      throw error(
        at: index < line.tokens.count ? line.tokens[index].column : line.endColumn,
        found: index < line.tokens.count
          ? "found \(ScenarioError.quoted(line.tokens[index].text))" : "found end of line",
        expected: "one or more media names, as in '\(example)'")
    }
    return media
  }

  /// `play A [from=TIME]`.
  private mutating func play(declared: Set<MediaID>) throws(ScenarioError) -> ScenarioAction {
    let media = try mediaName(declared: declared)
    let options = try keyOptions(["from"], for: "play")
    return .intent(.play(media, from: try options["from"].map(mediaTime) ?? .zero))
  }

  /// `queue A B C [start=N] [from=TIME] [paused]`.
  private mutating func queue(declared: Set<MediaID>) throws(ScenarioError) -> ScenarioAction {
    let media = try mediaList(declared: declared, example: "queue A B C")
    var paused = false
    var options: [String: ScenarioToken] = [:]
    while let word = nextIfAny() {
      if word.text == "paused" {
        guard !paused else {
          throw error(word, found: "'paused' given twice", expected: "each option once")
        }
        paused = true
        continue
      }
      let (key, value) = try keyValue(word, example: "start=2")
      guard key.text == "start" || key.text == "from" else {
        throw error(
          key, found: "unknown option \(ScenarioError.quoted(key.text)) for 'queue'",
          expected: "start=N, from=TIME or paused")
      }
      guard options[key.text] == nil else {
        throw error(key, found: "option '\(key.text)' given twice", expected: "each option once")
      }
      options[key.text] = value
    }
    return .intent(
      .replaceQueue(
        media, start: try options["start"].map(position) ?? 0,
        from: try options["from"].map(mediaTime) ?? .zero, playWhenReady: !paused))
  }

  /// `insert A B at=N`.
  private mutating func insert(declared: Set<MediaID>) throws(ScenarioError) -> ScenarioAction {
    let media = try mediaList(declared: declared, example: "insert A B at=2")
    let options = try keyOptions(["at"], for: "insert")
    guard let at = options["at"] else {
      throw error(
        at: line.endColumn, found: "found end of line", expected: "at=N, as in 'insert A B at=2'")
    }
    return .intent(.insert(media, at: try position(at)))
  }

  /// `shuffle on seed=N` / `shuffle off`.
  private mutating func shuffle() throws(ScenarioError) -> ScenarioAction {
    let switchWord = try next("'on seed=N' or 'off'")
    switch switchWord.text {
    case "off": return .intent(.setShuffle(seed: nil))
    case "on":
      let options = try keyOptions(["seed"], for: "shuffle on")
      guard let seed = options["seed"] else {
        throw error(
          at: line.endColumn, found: "found end of line",
          expected: "seed=N, as in 'shuffle on seed=7' (the order is drawn from the seed)")
      }
      return .intent(.setShuffle(seed: try number(seed, upTo: UInt64.max, what: "a seed")))
    default:
      throw error(
        switchWord, found: "found \(ScenarioError.quoted(switchWord.text))",
        expected: "'on seed=N' or 'off'")
    }
  }

  /// `engine preload=yes|no`.
  private mutating func engine() throws(ScenarioError) -> ScenarioAction {
    let options = try keyOptions(["preload"], for: "engine")
    guard let value = options["preload"] else {
      throw error(
        at: line.endColumn, found: "found end of line", expected: "preload=yes or preload=no")
    }
    switch value.text {
    case "yes": return .engine(preload: true)
    case "no": return .engine(preload: false)
    default:
      throw error(
        value, found: "found \(ScenarioError.quoted(value.text))", expected: "yes or no")
    }
  }

  private mutating func media() throws(ScenarioError) -> ScenarioAction {
    let name = try next("a media name, as in 'media A ready-after=300ms'")
    let media = try mediaID(name)
    var profile = MediaProfile()
    var seen = Set<String>()
    var stallFor: ScenarioToken?
    var reason: ScenarioToken?
    var networkBack: ScenarioToken?
    // `live` (a word of its own), and the options only a live media takes.
    var live: ScenarioToken?
    var liveOptions: [ScenarioToken] = []
    var onDemandOptions: [ScenarioToken] = []
    var positionEvery = false
    while let option = nextIfAny() {
      if option.text == "live" {
        guard live == nil else {
          throw error(option, found: "'live' given twice", expected: "each option once")
        }
        live = option
        profile.live = profile.live ?? LiveProfile()
        continue
      }
      let (key, value) = try keyValue(option, example: "duration=5s")
      guard seen.insert(key.text).inserted else {
        throw error(key, found: "option '\(key.text)' given twice", expected: "each option once")
      }
      switch key.text {
      case "ready-after": profile.readyAfter = try duration(value)
      case "duration":
        profile.duration = try duration(value)
        onDemandOptions.append(key)
      case "window":
        var settings = profile.live ?? LiveProfile()
        settings.dvrWindow = try duration(value, positive: true)
        profile.live = settings
        liveOptions.append(key)
      case "ends":
        var settings = profile.live ?? LiveProfile()
        settings.endsAt = try duration(value)
        profile.live = settings
        liveOptions.append(key)
      case "stall-at": profile.stallAt = try duration(value)
      case "stall-for":
        profile.stallFor = try duration(value)
        stallFor = key
      case "fail-after": profile.failAfter = try duration(value)
      case "reason":
        profile.failureReason = try failureReason(value)
        reason = key
      case "seek-latency": profile.seekLatency = try duration(value)
      case "position-every":
        profile.positionEvery = value.text == "off" ? nil : try duration(value, positive: true)
        positionEvery = true
      case "report-duration":
        guard value.text == "yes" || value.text == "no" else {
          throw error(
            value, found: "found \(ScenarioError.quoted(value.text))", expected: "yes or no")
        }
        profile.reportsDuration = value.text == "yes"
        onDemandOptions.append(key)
      case "network-drop-at": profile.networkDropAt = try duration(value)
      case "network-back-after":
        profile.networkBackAfter = try duration(value, positive: true)
        networkBack = key
      case "preload":
        throw error(
          key, found: "'preload' is not a media option",
          expected:
            "'engine preload=yes' on a line of its own before the first action (preloading is the engine's)"
        )
      default:
        throw error(
          key, found: "unknown media option \(ScenarioError.quoted(key.text))",
          expected:
            "one of live, window, ends, ready-after, duration, stall-at, stall-for, fail-after, "
            + "reason, seek-latency, position-every, report-duration, network-drop-at, "
            + "network-back-after")
      }
    }
    if live == nil, let key = liveOptions.first {
      throw error(
        key, found: "\(key.text)= without 'live'",
        expected: "'live' before it, as in 'media L live window=60s' (a live stream's option)")
    }
    if live != nil, let key = onDemandOptions.first {
      throw error(
        key, found: "\(key.text)= on a live media",
        expected:
          "no duration for a live stream (its edge grows with the clock); 'ends=TIME' for a "
          + "broadcast that ends")
    }
    // A live media reports its window at the report interval: every second unless said.
    if live != nil, !positionEvery { profile.positionEvery = .seconds(1) }
    if let stallFor, profile.stallAt == nil {
      throw error(stallFor, found: "stall-for without stall-at", expected: "stall-at=TIME as well")
    }
    if let reason, profile.failAfter == nil {
      throw error(reason, found: "reason without fail-after", expected: "fail-after=TIME as well")
    }
    if let networkBack, profile.networkDropAt == nil {
      throw error(
        networkBack, found: "network-back-after without network-drop-at",
        expected: "network-drop-at=TIME as well")
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

  private mutating func report(declared: Set<MediaID>) throws(ScenarioError) -> ScenarioReport {
    let kinds =
      "one of ready, stalled, resumed, ended, failed, seeked, position, window, timeout, "
      + "paused-by-system"
    let kind = try next(kinds)
    // Each kind's own example: an option word of another kind's would mislead.
    let example: String?
    switch kind.text {
    case "ready": example = "duration=3s"
    case "failed": example = "reason=network"
    case "seeked": example = "seek=1"
    case "timeout": example = "watchdog=2"
    case "window": example = "start=60s"
    case "stalled", "resumed", "ended", "position", "paused-by-system": example = nil
    default:
      throw error(kind, found: "unknown report \(ScenarioError.quoted(kind.text))", expected: kinds)
    }
    let load = try loadName(try next("a load such as A#1"), declared: declared)
    var time: MediaTime?
    if kind.text == "position" {
      time = try mediaTime(try next("a position such as 12s, as in 'report position A#1 12s'"))
    }
    var options: [String: ScenarioToken] = [:]
    var keys: [String: ScenarioToken] = [:]
    while let option = nextIfAny() {
      guard let example else {
        // A word that is not key=value, after a report that takes no option.
        guard option.text.unicodeScalars.dropFirst().contains("=") else {
          throw error(
            option, found: "found \(ScenarioError.quoted(option.text))",
            expected: "the end of the line ('\(kind.text)' takes no option)")
        }
        let (key, _) = try keyValue(option, example: "")
        throw error(
          key, found: "unknown option \(ScenarioError.quoted(key.text)) for '\(kind.text)'",
          expected: "no option for '\(kind.text)'")
      }
      let (key, value) = try keyValue(option, example: example)
      guard options[key.text] == nil else {
        throw error(key, found: "option '\(key.text)' given twice", expected: "each option once")
      }
      options[key.text] = value
      keys[key.text] = key
    }
    let allowed: [String]
    let report: ScenarioReport.Kind
    switch kind.text {
    case "ready":
      let duration = try options["duration"].map { (token) throws(ScenarioError) in
        try mediaTime(token)
      }
      (allowed, report) = (["duration"], .ready(duration: duration))
    case "stalled": (allowed, report) = ([], .stalled)
    case "resumed": (allowed, report) = ([], .resumed)
    case "ended": (allowed, report) = ([], .ended)
    case "position": (allowed, report) = ([], .position(time ?? .zero))
    case "failed":
      let reason = try options["reason"].map { (token) throws(ScenarioError) in
        try failureReason(token)
      }
      let detail = try failureDetail(options, keys: keys)
      (allowed, report) = (
        ["reason", "domain", "code", "message"], .failed(reason ?? .network, detail: detail)
      )
    case "paused-by-system": (allowed, report) = ([], .pausedBySystem)
    case "window":
      // The engine's report as written, a bad window included: the machine refuses
      // `start > end` (`invalidArgument`), which is what a script tests it for.
      var ends: [MediaTime] = []
      for name in ["start", "end"] {
        guard let value = options[name] else {
          throw error(
            at: line.endColumn, found: "found end of line",
            expected: "start=TIME end=TIME (as in 'report window A#1 start=60s end=120s')")
        }
        ends.append(try mediaTime(value))
      }
      (allowed, report) = (["start", "end"], .window(LiveWindow(start: ends[0], end: ends[1])))
    case "seeked":
      guard let value = options["seek"] else {
        throw error(
          at: line.endColumn, found: "found end of line",
          expected: "seek=N, the seek id (as in 'report seeked A#1 seek=1')")
      }
      let seek = SeekID(try number(value, upTo: UInt32.max, what: "a seek id"))
      (allowed, report) = (["seek"], .seeked(seek))
    case "timeout":
      let id = try options["watchdog"].map { (token) throws(ScenarioError) in
        try number(token, upTo: UInt32.max, what: "a watchdog id")
      }
      (allowed, report) = (["watchdog"], .timeout(WatchdogID(id ?? 1)))
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
    return ScenarioReport(report, load)
  }

  /// `ducking LEVEL` / `ducking pause`: what a duck does. A level is a volume
  /// in 0…1 (a configuration has no machine to refuse it, so one out of range
  /// is an error here).
  private mutating func duckPolicy() throws(ScenarioError) -> DuckPolicy {
    let expected = "a level from 0 to 1 such as 0.2 (a duck lowers the volume to it), or 'pause'"
    let word = try next(expected)
    if word.text == "pause" { return .pause }
    guard let first = word.text.unicodeScalars.first, Self.isDigit(first) || first == "-" else {
      throw error(
        word, found: "unknown ducking \(ScenarioError.quoted(word.text))", expected: expected)
    }
    let level = try volume(word)
    guard level.isValid else {
      throw error(
        word, found: "ducking level \(ScenarioError.quoted(word.text)) out of range",
        expected: expected)
    }
    return .lower(to: level)
  }

  /// `fade TIME` / `fade off` (``PlayerState/PlayerConfiguration/fade``) and `crossfade TIME` /
  /// `crossfade off` (``PlayerState/PlayerConfiguration/crossfade``): a length, `off` and `0ms`
  /// being none. A negative time or a word that is not a time is an error here (a configuration
  /// has no machine to refuse it).
  /// - Parameters:
  ///   - setting: the line's first word, as the messages name it.
  ///   - example: two lengths the message suggests, as in `200ms or 1.5s`.
  private mutating func length(of setting: String, example: String) throws(ScenarioError)
    -> Duration
  {
    let expected = "a \(setting) length such as \(example), or 'off' (0ms is off too)"
    let word = try next(expected)
    if word.text == "off" { return .zero }
    switch Self.milliseconds(word.text) {
    case .value(let milliseconds): return .milliseconds(milliseconds)
    case .tooLarge:
      throw error(
        word, found: "\(setting) \(ScenarioError.quoted(word.text)) too large",
        expected: "at most \(ScenarioParser.maximumMilliseconds / 1000)s")
    case .bad:
      let negative =
        word.text.hasPrefix("-") && Self.milliseconds(String(word.text.dropFirst())) != .bad
      throw error(
        word,
        found: negative
          ? "negative \(setting) \(ScenarioError.quoted(word.text))"
          : "bad \(setting) \(ScenarioError.quoted(word.text))",
        expected: expected)
    }
  }

  /// `retry-policy attempts=N backoff=TIME max=TIME` (each option optional,
  /// defaulting to ``RetryPolicy/standard``'s) or `retry-policy off`.
  private mutating func retryPolicy() throws(ScenarioError) -> ScenarioAction {
    guard index < line.tokens.count else {
      throw error(
        at: line.endColumn, found: "found end of line",
        expected: "attempts=N backoff=TIME max=TIME, or 'off'")
    }
    if line.tokens[index].text == "off" {
      index += 1
      return .retryPolicy(.off)
    }
    let options = try keyOptions(["attempts", "backoff", "max"], for: "retry-policy")
    var policy = RetryPolicy.standard
    if let attempts = options["attempts"] {
      policy.attempts = try number(attempts, upTo: UInt8.max, what: "a number of reloads")
    }
    let backoff = try options["backoff"].map { (token) throws(ScenarioError) in
      try duration(token, positive: true)
    }
    let maximum = try options["max"].map { (token) throws(ScenarioError) in
      try duration(token, positive: true)
    }
    // One given alone moves the other to fit; both given must agree.
    switch (backoff, maximum) {
    case (let backoff?, let maximum?):
      if let key = options["max"], maximum < backoff {
        throw error(
          key,
          found: "max=\(key.text) below backoff=\(options["backoff"]?.text ?? "")",
          expected: "a longest backoff (max=) at least the first one (backoff=)")
      }
      (policy.backoff, policy.maximumBackoff) = (backoff, maximum)
    case (let backoff?, nil):
      (policy.backoff, policy.maximumBackoff) = (backoff, max(backoff, policy.maximumBackoff))
    case (nil, let maximum?):
      (policy.backoff, policy.maximumBackoff) = (min(policy.backoff, maximum), maximum)
    case (nil, nil): break
    }
    return .retryPolicy(policy)
  }

  /// The engine's error of a `report failed` line: `domain=` and `code=`
  /// together, and `message="…"` with them; nil when none is given.
  private func failureDetail(
    _ options: [String: ScenarioToken], keys: [String: ScenarioToken]
  ) throws(ScenarioError) -> FailureDetail? {
    let domain = options["domain"]
    let code = options["code"]
    let message = options["message"]
    guard domain != nil || code != nil || message != nil else { return nil }
    guard let domain, let code else {
      let given = keys["domain"] ?? keys["code"] ?? keys["message"]
      let missing = domain == nil ? "domain=" : "code="
      throw error(
        at: given?.column ?? line.endColumn,
        found: "an error detail without \(missing)",
        expected:
          "domain= and code= together, as in 'domain=NSURLErrorDomain code=-1009 message=\"offline\"'"
      )
    }
    return FailureDetail(
      domain: try errorDomain(domain), code: try errorCode(code),
      message: try message.map { (token) throws(ScenarioError) in
        try quotedText(token, limit: ScenarioParser.maximumMessageLength)
      } ?? "")
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
    let kinds =
      "'state', 'queue', 'commands', 'ignored', 'now-playing', 'notified', 'available', 'volume' "
      + "or 'engine-volume'"
    let what = try next(kinds)
    switch what.text {
    case "state":
      return .expectState(try stateExpectation(rest(), declared: declared))
    case "queue":
      return .expectQueue(try queueExpectation(declared: declared))
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
          let names = IgnoreReason.allCheckedReasons.map(\.rawValue).joined(separator: ", ")
          throw error(
            word, found: "unknown ignore reason \(ScenarioError.quoted(word.text))",
            expected: "one of \(names), or 'none'")
        }
        reasons.append(reason)
      }
      return .expectIgnored(reasons)
    case "now-playing": return .expectNowPlaying(try nowPlayingExpectation(declared: declared))
    case "notified": return .expectNotified(try notifiedExpectation(declared: declared))
    case "available": return .expectAvailable(try availableExpectation())
    case "volume":
      let word = try next("the effective volume, a number from 0 to 1 such as 0.5")
      let volume = try volume(word)
      guard volume.isValid else {
        throw error(
          word, found: "volume \(ScenarioError.quoted(word.text)) out of range",
          expected: "an effective volume from 0 to 1 (no state has another)")
      }
      return .expectVolume(volume)
    case "engine-volume":
      let load = try loadName(
        try next("a load such as A#1, as in 'expect engine-volume A#1 0.5'"), declared: declared)
      let word = try next(
        "the level the engine plays \(load) at now, a number from 0 to 1 such as 0.5, or 'none'")
      if word.text == "none" { return .expectEngineVolume(load, nil) }
      let volume = try volume(word)
      guard volume.isValid else {
        throw error(
          word, found: "volume \(ScenarioError.quoted(word.text)) out of range",
          expected: "a level from 0 to 1, or 'none' (the engine does not hold the load)")
      }
      return .expectEngineVolume(load, volume)
    default:
      throw error(
        what, found: "unknown expectation \(ScenarioError.quoted(what.text))", expected: kinds)
    }
  }
}

extension LineReader {
  /// `A B* C` (declared media, at most one starred) or `none`, as the queue prints.
  fileprivate mutating func queueExpectation(declared: Set<MediaID>) throws(ScenarioError)
    -> String
  {
    let words = rest()
    if words.count == 1, words[0].text == "none" { return "none" }
    guard !words.isEmpty else {
      throw error(
        at: line.endColumn, found: "found end of line",
        expected: "the entries in play order with the current one starred, as in A B* C, or 'none'")
    }
    var starred: ScenarioToken?
    var names: [String] = []
    for word in words {
      var text = word.text
      if text.hasSuffix("*") {
        guard starred == nil else {
          throw error(
            word, found: "a second starred entry \(ScenarioError.quoted(word.text))",
            expected: "at most one current entry (starred)")
        }
        starred = word
        text.removeLast()
      }
      _ = try declaredMedia(word, text: text, column: word.column, declared: declared)
      names.append(word.text)
    }
    return names.joined(separator: " ")
  }
}

extension LineReader {
  /// `A 2/3 at 15s rate 1x [of 30s|of unknown]`, or `none`.
  fileprivate mutating func nowPlayingExpectation(declared: Set<MediaID>) throws(ScenarioError)
    -> NowPlayingExpectation?
  {
    let example = "as in 'expect now-playing A 2/3 at 15s rate 1x', or 'none'"
    let name = try next("what a lock screen shows, \(example)")
    if name.text == "none" { return nil }
    let media = try declaredMedia(name, text: name.text, column: name.column, declared: declared)
    let place = try next("the entry's position and the queue's count, as in 2/3")
    let parts = place.text.unicodeScalars.split(
      separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
    guard parts.count == 2 else {
      throw error(
        place, found: "found \(ScenarioError.quoted(place.text))",
        expected: "the entry's 1-based position and the queue's count, as in 2/3")
    }
    let index = try number(
      ScenarioToken(text: String(parts[0]), column: place.column), upTo: UInt32.max,
      what: "a position (1 is the first entry)")
    let count = try number(
      ScenarioToken(text: String(parts[1]), column: place.column + parts[0].count + 1),
      upTo: UInt32.max, what: "a count of entries")
    guard index >= 1, index <= count else {
      throw error(
        place, found: "position \(ScenarioError.quoted(place.text))",
        expected: "a position from 1 to the count, as in 2/3")
    }
    try keyword("at", "'at TIME', as in 'A 2/3 at 15s rate 1x'")
    let elapsed = try mediaTime(try next("the elapsed anchor, a time such as 15s"))
    try keyword("rate", "'rate R', as in 'A 2/3 at 15s rate 1x' (0 while not playing)")
    let rate = try rate(try next("a rate such as 1x, 1.5x or 0 (0 while not playing)"))
    var duration: MediaTime??
    var window: LiveWindow?
    if let of = nextIfAny() {
      switch of.text {
      case "of":
        let value = try next("the duration, a time such as 30s, or 'unknown'")
        duration = .some(value.text == "unknown" ? nil : try mediaTime(value))
      case "live":
        window = try liveWindow(try next("the live window, as in 60s…120s (start…edge)"))
      default:
        throw error(
          of, found: "found \(ScenarioError.quoted(of.text))",
          expected:
            "'of TIME' or 'of unknown' (the duration), 'live START…END' (a live window), or end of line"
        )
      }
    }
    return NowPlayingExpectation(
      media: media, index: Int(index), count: Int(count), elapsed: elapsed, rate: rate,
      duration: duration, window: window)
  }

  /// A live window as Now Playing prints it, `60s…120s` (or `60s...120s`): two times,
  /// the start at most the end.
  private func liveWindow(_ token: ScenarioToken) throws(ScenarioError) -> LiveWindow {
    let scalars = Array(token.text.unicodeScalars)
    let expected = "a live window START…END such as 60s…120s (or 60s...120s)"
    var split: (Int, Int)?
    for index in scalars.indices {
      if scalars[index] == "…" {
        split = (index, 1)
        break
      }
      if index + 2 < scalars.count, scalars[index] == ".", scalars[index + 1] == ".",
        scalars[index + 2] == "."
      {
        split = (index, 3)
        break
      }
    }
    guard let (at, width) = split else {
      throw error(token, found: "found \(ScenarioError.quoted(token.text))", expected: expected)
    }
    let start = try mediaTime(
      ScenarioToken(text: String(String.UnicodeScalarView(scalars[..<at])), column: token.column))
    let end = try mediaTime(
      ScenarioToken(
        text: String(String.UnicodeScalarView(scalars[(at + width)...])),
        column: token.column + at + width))
    guard start <= end else {
      throw error(
        token, found: "a window \(ScenarioError.quoted(token.text)) that ends before it starts",
        expected: expected)
    }
    return LiveWindow(start: start, end: end)
  }

  /// The next word, which must be `word`.
  private mutating func keyword(_ word: String, _ expected: String) throws(ScenarioError) {
    let token = try next(expected)
    guard token.text == word else {
      throw error(token, found: "found \(ScenarioError.quoted(token.text))", expected: expected)
    }
  }

  /// Notifications separated by commas (`entryChanged A -> B auto, queueEnded,
  /// playIntent false remote`), or `none`; each in its printed form.
  fileprivate mutating func notifiedExpectation(declared: Set<MediaID>) throws(ScenarioError)
    -> [ScenarioNotification]
  {
    let words = rest()
    if words.count == 1, words[0].text == "none" { return [] }
    let example =
      "notifications such as 'entryChanged A -> B auto', 'queueEnded' or "
      + "'playIntent false remote', separated by commas, or 'none'"
    guard !words.isEmpty else {
      throw error(at: line.endColumn, found: "found end of line", expected: example)
    }
    // Split at commas, wherever they are in a word: media names hold none.
    var groups: [[ScenarioToken]] = [[]]
    var commas: [Int] = []
    for word in words {
      var column = word.column
      let pieces = word.text.unicodeScalars.split(
        separator: ",", omittingEmptySubsequences: false)
      for (offset, piece) in pieces.enumerated() {
        if offset > 0 {
          commas.append(column - 1)
          groups.append([])
        }
        if !piece.isEmpty {
          groups[groups.count - 1].append(ScenarioToken(text: String(piece), column: column))
        }
        column += piece.count + 1
      }
    }
    var result: [ScenarioNotification] = []
    for (offset, group) in groups.enumerated() {
      guard !group.isEmpty else {
        let comma = offset < commas.count ? commas[offset] : commas[offset - 1]
        throw error(at: comma, found: "an empty notification at a comma", expected: example)
      }
      result.append(try notification(group, declared: declared))
    }
    return result
  }

  /// One notification: `entryChanged FROM -> TO REASON`, `queueEnded`, or
  /// `playIntent true|false REASON`, FROM and TO media or `none`.
  private func notification(_ words: [ScenarioToken], declared: Set<MediaID>)
    throws(ScenarioError) -> ScenarioNotification
  {
    let kind = words[0]
    let shape: String
    switch kind.text {
    case "entryChanged": shape = "entryChanged FROM -> TO REASON, as in 'entryChanged A -> B auto'"
    case "queueEnded": shape = "queueEnded"
    case "playIntent": shape = "playIntent true|false REASON, as in 'playIntent false remote'"
    default:
      throw error(
        kind, found: "unknown notification \(ScenarioError.quoted(kind.text))",
        expected: "one of entryChanged, queueEnded, playIntent")
    }
    // The word at `index`, or an error where it was expected.
    func word(_ index: Int, _ expected: String) throws(ScenarioError) -> ScenarioToken {
      guard index < words.count else {
        let last = words[words.count - 1]
        throw error(
          at: last.column + last.text.unicodeScalars.count,
          found: "found the end of the notification", expected: "\(expected) (\(shape))")
      }
      return words[index]
    }
    // A reason word at `index`: one of `Reason`'s raw values.
    func reason<Reason: RawRepresentable & CaseIterable>(_ index: Int, _: Reason.Type)
      throws(ScenarioError) -> Reason where Reason.RawValue == String
    {
      let reasons = Reason.allCases.map(\.rawValue).joined(separator: ", ")
      let reasonWord = try word(index, "a reason: one of \(reasons)")
      guard let reason = Reason(rawValue: reasonWord.text) else {
        throw error(
          reasonWord, found: "unknown reason \(ScenarioError.quoted(reasonWord.text))",
          expected: "one of \(reasons)")
      }
      return reason
    }
    func entry(_ token: ScenarioToken) throws(ScenarioError) -> String {
      if token.text == "none" { return "none" }
      return try declaredMedia(token, text: token.text, column: token.column, declared: declared)
        .description
    }
    let result: ScenarioNotification
    let arity: Int
    switch kind.text {
    case "entryChanged":
      let from = try entry(try word(1, "the media of the entry before, or none"))
      let arrow = try word(2, "'->'")
      guard arrow.text == "->" else {
        throw error(
          arrow, found: "found \(ScenarioError.quoted(arrow.text))", expected: "'->' (\(shape))")
      }
      let to = try entry(try word(3, "the media of the entry after, or none"))
      let reason = try reason(4, EntryChangeReason.self)
      result = ScenarioNotification("entryChanged(\(from) -> \(to), \(reason.rawValue))")
      arity = 5
    case "playIntent":
      let value = try word(1, "true or false (the new play intent)")
      guard value.text == "true" || value.text == "false" else {
        throw error(
          value, found: "found \(ScenarioError.quoted(value.text))",
          expected: "true or false (the new play intent)")
      }
      let reason = try reason(2, PlayIntentReason.self)
      result = ScenarioNotification("playIntent(\(value.text), \(reason.rawValue))")
      arity = 3
    default:
      result = ScenarioNotification("queueEnded")
      arity = 1
    }
    guard words.count <= arity else {
      throw error(
        words[arity],
        found: "unexpected \(ScenarioError.quoted(words[arity].text)) after \(kind.text)",
        expected: "a comma before the next notification, or end of line")
    }
    return result
  }

  /// Command names (`next pause toggle`), each once, in any order; or `none`.
  fileprivate mutating func availableExpectation() throws(ScenarioError) -> AvailableCommands {
    let words = rest()
    if words.count == 1, words[0].text == "none" { return [] }
    let names = AvailableCommands.all.map(\.name).joined(separator: ", ")
    guard !words.isEmpty else {
      throw error(
        at: line.endColumn, found: "found end of line",
        expected: "command names among \(names), or 'none'")
    }
    var available: AvailableCommands = []
    for word in words {
      guard let command = AvailableCommands.all.first(where: { $0.name == word.text })?.command
      else {
        throw error(
          word, found: "unknown command \(ScenarioError.quoted(word.text))",
          expected: "one of \(names), or 'none'")
      }
      guard !available.contains(command) else {
        throw error(
          word, found: "command '\(word.text)' given twice", expected: "each command once")
      }
      available.insert(command)
    }
    return available
  }
}

extension IgnoreReason {
  /// The reasons `expect ignored` accepts, in declaration order: every reason
  /// a report, an expiry or a refused intent can be ignored for (`noEffect`
  /// is not checked).
  static let allCheckedReasons: [IgnoreReason] = [
    .neverIssuedLoad, .staleLoad, .itemMismatch, .neverIssuedSeek, .supersededSeek,
    .staleWatchdog, .seekPending, .unexpected, .idsExhausted, .invalidPosition, .invalidArgument,
    .notInterrupted, .notCurrentEntry, .notDucked, .notSeekable, .notLive, .liveStream,
  ]
}
