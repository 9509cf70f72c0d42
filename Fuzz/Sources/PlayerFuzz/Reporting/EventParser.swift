import PlayerState

/// Parses the compact forms `PlaybackEvent.description` prints: every intent
/// (positions 1-based, as printed) and every report and expiry; the system's
/// events as player-sim spells them (`interrupt begin`, `interrupt end`,
/// `interrupt end resume`, `route lost`, `network lost`, `network available`)
/// or in their compact form (`interruption(began)`, `interruption(ended, resume)`,
/// `route(lost)`, `network(lost)`, `network(available)`); a failure with the
/// engine's error as `failed(A#1, network, NSURLErrorDomain -1009 "offline")`
/// (`\"` and `\\` escape in the message); volume's intents as the reducer prints them
/// (`volume(0.5)`, `mute`, `unmute`; `setVolume(0.5)` is read too) and the ducks as
/// player-sim spells them (`duck`, `unduck`) or in their compact form (`duck(began)`,
/// `duck(ended)`); live streams' `window(A#1, 0ms…60000ms)` and `goToLive` (`go-live`).
enum EventParser {
  /// The system events by their player-sim spelling, which is how a case prints them.
  static let systemSpellings: [(String, SystemEvent)] = [
    ("interrupt begin", .interruptionBegan),
    ("interrupt end resume", .interruptionEnded(shouldResume: true)),
    ("interrupt end", .interruptionEnded(shouldResume: false)),
    ("route lost", .routeLost), ("network lost", .networkLost),
    ("network available", .networkAvailable),
    ("interruption(began)", .interruptionBegan),
    ("interruption(ended, resume)", .interruptionEnded(shouldResume: true)),
    ("interruption(ended)", .interruptionEnded(shouldResume: false)),
    ("route(lost)", .routeLost), ("network(lost)", .networkLost),
    ("network(available)", .networkAvailable),
    ("duck", .duckBegan), ("unduck", .duckEnded),
    ("duck(began)", .duckBegan), ("duck(ended)", .duckEnded),
  ]

  /// The line a case prints for a system event: player-sim's spelling.
  static func spelling(_ event: SystemEvent) -> String {
    switch event {
    case .interruptionBegan: "interrupt begin"
    case .interruptionEnded(let resume): resume ? "interrupt end resume" : "interrupt end"
    case .routeLost: "route lost"
    case .networkLost: "network lost"
    case .networkAvailable: "network available"
    case .sleepTimerExpired(let id): "sleepTimer(expired, \(id))"
    case .duckBegan: "duck"
    case .duckEnded: "unduck"
    }
  }

  /// A volume as `Volume.description` prints it (`0.5`, `1`, `0`, `0.333`, `-0.001`):
  /// read exactly, to the thousandth (no floating point); nil for anything else,
  /// more than three decimals included. Out of 0…1 is read (an intent the
  /// machine refuses), past what an `Int32` of thousandths holds is not.
  static func volume(_ text: String) -> Volume? {
    var rest = Substring(text)
    let negative = rest.hasPrefix("-")
    if negative { rest = rest.dropFirst() }
    let parts = rest.split(separator: ".", omittingEmptySubsequences: false)
    guard (1...2).contains(parts.count), !parts[0].isEmpty,
      parts[0].allSatisfy({ $0.isASCII && $0.isNumber }), parts[0].count <= 7
    else { return nil }
    var fraction = parts.count == 2 ? parts[1] : ""
    guard fraction.count <= 3, parts.count == 1 || !fraction.isEmpty,
      fraction.allSatisfy({ $0.isASCII && $0.isNumber })
    else { return nil }
    while fraction.count < 3 { fraction += "0" }
    guard let whole = Int64(parts[0]), let part = Int64(fraction) else { return nil }
    let thousandths = (whole * 1000 + part) * (negative ? -1 : 1)
    guard let value = Int32(exactly: thousandths) else { return nil }
    return Volume(thousandths: value)
  }

  /// `failed(A#1, network)` or `failed(A#1, network, DOMAIN CODE "MESSAGE")`, the message escaped.
  static func spelling(failed load: String, _ reason: FailureReason, _ detail: FailureDetail?)
    -> String
  {
    guard let detail else { return "failed(\(load), \(reason))" }
    var message = ""
    for character in detail.message {
      if character == "\\" || character == "\"" { message.append("\\") }
      message.append(character)
    }
    return "failed(\(load), \(reason), \(detail.domain) \(detail.code) \"\(message)\")"
  }

  static func parse(
    _ text: String, column: Int, resolve: (LoadName) -> Load
  ) throws(FuzzParseError) -> PlaybackEvent {
    for (spelling, event) in systemSpellings where text == spelling { return .system(event) }
    // (It was built with one parenthesis too many, `sleepTimer(expired, sleep#)`, so that no
    // expiry parsed back.)
    let expiry = "sleepTimer(expired, \(SleepTimerIDKind.prefix)"
    if text.hasPrefix(expiry), text.hasSuffix(")") {
      guard let id = UInt32(text.dropFirst(expiry.count).dropLast()) else {
        throw FuzzParseError(
          column: column, message: "a sleep countdown id is a number from 0 to 4294967295")
      }
      return .system(.sleepTimerExpired(SleepTimerID(id)))
    }
    if text.hasPrefix("failed("), text.hasSuffix(")") {
      return try failed(text, column: column, resolve: resolve)
    }
    if text.hasPrefix("remote("), text.hasSuffix(")") {
      // A remote control's intent: `remote(toggle)`, `remote(skip(+15000ms))`.
      let inner = String(text.dropFirst(7).dropLast())
      let event = try parse(inner, column: column + 7, resolve: resolve)
      guard event.source == .user, let intent = event.intent else {
        throw FuzzParseError(
          column: column + 7, message: "expected an intent inside remote(…); got `\(inner)`")
      }
      return .remote(intent)
    }
    switch text {
    case "toggle": return .user(.toggle)
    case "pause": return .pause
    case "resume": return .resume
    case "stop": return .stop
    case "retry": return .retry
    case "next": return .next
    case "previous": return .previous
    case "clear": return .user(.clear)
    case "mute": return .user(.setMuted(true))
    case "unmute": return .user(.setMuted(false))
    case "goToLive", "go-live": return .goToLive
    default: break
    }
    guard let open = text.firstIndex(of: "("), text.hasSuffix(")") else {
      throw FuzzParseError(
        column: column,
        message:
          "expected an action such as queue(A B), play(A), pause, ready(A#1), reentrant ready(A#1), deliver; got `\(text)`"
      )
    }
    let name = String(text[..<open])
    let inner = String(text[text.index(after: open)..<text.index(before: text.endIndex)])
    let argColumn = column + name.count + 1
    // Arguments are separated by ", "; none contains one.
    var parts: [String] = []
    var rest = Substring(inner)
    while let comma = rest.firstIndex(of: ",") {
      parts.append(String(rest[..<comma]))
      rest = rest[rest.index(after: comma)...].drop(while: { $0 == " " })
    }
    parts.append(String(rest))
    func count(_ range: ClosedRange<Int>) throws(FuzzParseError) {
      guard range.contains(parts.count) else {
        let what =
          range.lowerBound == range.upperBound
          ? "\(range.lowerBound)" : "\(range.lowerBound) to \(range.upperBound)"
        throw FuzzParseError(
          column: argColumn,
          message: "`\(name)` takes \(what) argument\(range.upperBound == 1 ? "" : "s")")
      }
    }
    func load() throws(FuzzParseError) -> Load {
      try Self.load(parts[0], column: argColumn, resolve: resolve)
    }
    func time(_ text: String, prefix: String = "") throws(FuzzParseError) -> MediaTime {
      guard text.hasPrefix(prefix), text.hasSuffix("ms"),
        let ms = Int64(text.dropFirst(prefix.count).dropLast(2))
      else {
        throw FuzzParseError(
          column: argColumn, message: "expected \(prefix)a time such as 1000ms; got `\(text)`")
      }
      return .milliseconds(ms)
    }
    func position(_ text: String, prefix: String = "") throws(FuzzParseError) -> Int {
      guard text.hasPrefix(prefix), let value = Int(text.dropFirst(prefix.count)),
        value > Int.min
      else {
        throw FuzzParseError(
          column: argColumn, message: "expected \(prefix)a position such as 2; got `\(text)`")
      }
      return value - 1
    }
    func media(_ text: String) throws(FuzzParseError) -> [MediaID] {
      text.split(separator: " ").map { MediaID(String($0)) }
    }
    switch name {
    case "play":
      try count(1...2)
      guard !parts[0].isEmpty, !parts[0].contains(" ") else {
        throw FuzzParseError(column: argColumn, message: "play needs one media id")
      }
      let from = parts.count == 2 ? try time(parts[1], prefix: "from ") : .zero
      return .play(MediaID(parts[0]), from: from)
    case "queue":
      var start = 0
      var from = MediaTime.zero
      var play = true
      for part in parts.dropFirst() {
        if part == "paused" {
          play = false
        } else if part.hasPrefix("start ") {
          start = try position(part, prefix: "start ")
        } else {
          from = try time(part, prefix: "from ")
        }
      }
      return .queue(try media(parts[0]), start: start, from: from, playWhenReady: play)
    case "append":
      try count(1...1)
      return .user(.append(try media(parts[0])))
    case "insert":
      try count(2...2)
      return .user(.insert(try media(parts[0]), at: try position(parts[1], prefix: "at ")))
    case "remove":
      try count(1...1)
      return .user(.remove(at: try position(parts[0])))
    case "move":
      try count(2...2)
      return .user(.move(from: try position(parts[0]), to: try position(parts[1], prefix: "to ")))
    case "jump":
      try count(1...2)
      let from = parts.count == 2 ? try time(parts[1], prefix: "from ") : .zero
      return .user(.jump(to: try position(parts[0]), from: from))
    case "repeat":
      try count(1...1)
      guard let mode = RepeatMode(rawValue: parts[0]) else {
        throw FuzzParseError(
          column: argColumn, message: "expected off, one or all; got `\(parts[0])`")
      }
      return .user(.setRepeat(mode))
    case "shuffle":
      try count(1...1)
      if parts[0] == "off" { return .user(.setShuffle(seed: nil)) }
      guard parts[0].hasPrefix("seed "), let seed = UInt64(parts[0].dropFirst(5)) else {
        throw FuzzParseError(
          column: argColumn, message: "expected `seed N` or `off`; got `\(parts[0])`")
      }
      return .user(.setShuffle(seed: seed))
    case "rate":
      try count(1...1)
      guard let rate = Self.rate(parts[0]) else {
        throw FuzzParseError(
          column: argColumn, message: "expected a rate such as 1.5x; got `\(parts[0])`")
      }
      return .user(.setRate(rate))
    case "seek":
      try count(1...1)
      return .seek(to: try time(parts[0]))
    case "skip":
      try count(1...1)
      return .user(.skip(by: try time(parts[0])))
    case "setPosition":
      // `setPosition(A item3, 1000ms)` or `setPosition(item3, 1000ms)`.
      try count(2...2)
      let word = parts[0].split(separator: " ").last ?? ""
      guard word.hasPrefix("item"), let raw = UInt32(word.dropFirst(4)) else {
        throw FuzzParseError(
          column: argColumn, message: "expected an entry such as A item3; got `\(parts[0])`")
      }
      return .user(.setPosition(ItemID(raw), try time(parts[1])))
    case "ready":
      try count(1...2)
      let duration = parts.count == 2 ? try time(parts[1], prefix: "duration ") : nil
      return .ready(try load(), duration: duration)
    case "stalled":
      try count(1...1)
      return .stalled(try load())
    case "resumed":
      try count(1...1)
      return .resumed(try load())
    case "ended":
      try count(1...1)
      return .reachedEnd(try load())
    case "position":
      try count(2...2)
      return .position(try load(), try time(parts[1]))
    case "seeked":
      try count(2...2)
      return .seekCompleted(
        try load(), SeekID(try number(parts[1], prefix: "seek#", column: argColumn)))
    case "timeout":
      try count(2...2)
      return .watchdogExpired(
        try load(), WatchdogID(try number(parts[1], prefix: "watchdog#", column: argColumn)))
    case "window":
      // `window(A#1, 60000ms…120000ms)`, as the report prints (`...` is read too).
      try count(2...2)
      let ends =
        parts[1].contains("…")
        ? parts[1].split(separator: "…", omittingEmptySubsequences: false)
        : parts[1].split(separator: "...", omittingEmptySubsequences: false)
      guard ends.count == 2 else {
        throw FuzzParseError(
          column: argColumn, message: "expected a window such as 0ms…60000ms; got `\(parts[1])`")
      }
      return .window(
        try load(), LiveWindow(start: try time(String(ends[0])), end: try time(String(ends[1]))))
    case "pausedBySystem", "paused-by-system":
      try count(1...1)
      return .engine(.pausedBySystem(try load()))
    case "volume", "setVolume":
      // `volume(0.5)`, as the intent prints; an out-of-range level is read (and refused by the machine).
      try count(1...1)
      guard let level = Self.volume(parts[0]) else {
        throw FuzzParseError(
          column: argColumn,
          message:
            "expected a volume such as 0.5 (0 to 1, at most three decimals); got `\(parts[0])`")
      }
      return .user(.setVolume(level))
    case "sleepTimer", "setSleepTimer":
      // `sleepTimer(after(1800000ms))`, `sleepTimer(endOfEntry)`, `sleepTimer(endOfQueue)`,
      // `sleepTimer(afterEntries(2))`, `sleepTimer(off)`; `setSleepTimer(…)` too.
      try count(1...1)
      return .user(.setSleepTimer(try sleepTimer(parts[0], column: argColumn)))
    default:
      throw FuzzParseError(column: column, message: "unknown event `\(name)`")
    }
  }

  /// A sleep timer as `SleepTimer.description` spells it, or `off` (nil).
  static func sleepTimer(_ text: String, column: Int) throws(FuzzParseError) -> SleepTimer? {
    switch text {
    case "off": return nil
    case "endOfEntry": return .endOfEntry
    case "endOfQueue": return .endOfQueue
    default: break
    }
    if text.hasPrefix("after("), text.hasSuffix("ms)"),
      let ms = Int64(text.dropFirst(6).dropLast(3))
    {
      return .after(.milliseconds(ms))
    }
    if text.hasPrefix("afterEntries("), text.hasSuffix(")"),
      let count = UInt32(text.dropFirst(13).dropLast())
    {
      return .afterEntries(count)
    }
    throw FuzzParseError(
      column: column,
      message:
        "expected a sleep timer: after(1800000ms), endOfEntry, endOfQueue, afterEntries(2) or off; got `\(text)`"
    )
  }

  /// `failed(L, REASON)` or `failed(L, REASON, DOMAIN CODE "MESSAGE")`: the
  /// message may hold commas, spaces and escaped quotes.
  static func failed(
    _ text: String, column: Int, resolve: (LoadName) -> Load
  ) throws(FuzzParseError) -> PlaybackEvent {
    let inner = text.dropFirst(7).dropLast()
    let argColumn = column + 7
    let fields = inner.split(separator: ",", maxSplits: 2, omittingEmptySubsequences: false)
    guard fields.count >= 2 else {
      throw FuzzParseError(column: argColumn, message: "`failed` takes 2 or 3 arguments")
    }
    let load = try Self.load(String(fields[0]), column: argColumn, resolve: resolve)
    let reasonText = fields[1].drop(while: { $0 == " " })
    let reasonColumn = argColumn + fields[0].count + 1 + (fields[1].count - reasonText.count)
    let reason = try failure(String(reasonText), column: reasonColumn)
    guard fields.count == 3 else { return .failed(load, reason) }
    let detailText = fields[2].drop(while: { $0 == " " })
    let detailColumn = reasonColumn + reasonText.count + 1 + (fields[2].count - detailText.count)
    return .engine(
      .failed(load, reason, detail: try detail(String(detailText), column: detailColumn)))
  }

  /// `DOMAIN CODE "MESSAGE"`, as in `NSURLErrorDomain -1009 "offline"`.
  static func detail(_ text: String, column: Int) throws(FuzzParseError) -> FailureDetail {
    let expected = "expected the engine's error as DOMAIN CODE \"MESSAGE\"; got `\(text)`"
    let words = text.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
    guard words.count == 3, !words[0].isEmpty, let code = Int(words[1]) else {
      throw FuzzParseError(column: column, message: expected)
    }
    let quoted = words[2]
    guard quoted.count >= 2, quoted.hasPrefix("\""), quoted.hasSuffix("\"") else {
      throw FuzzParseError(
        column: column + words[0].count + words[1].count + 2,
        message: "expected a quoted message such as \"offline\"; got `\(quoted)`")
    }
    var message = ""
    var escaped = false
    for character in quoted.dropFirst().dropLast() {
      if escaped {
        message.append(character)
        escaped = false
      } else if character == "\\" {
        escaped = true
      } else if character == "\"" {
        throw FuzzParseError(
          column: column + words[0].count + words[1].count + 2,
          message: "a quote inside the message must be escaped as \\\"")
      } else {
        message.append(character)
      }
    }
    if escaped {
      throw FuzzParseError(
        column: column + text.count - 1, message: "the message ends inside an escape")
    }
    return FailureDetail(domain: String(words[0]), code: code, message: message)
  }

  /// `A#2` (a media name, resolved by `resolve`) or `item3#2` (an item id).
  static func load(
    _ text: String, column: Int, resolve: (LoadName) -> Load
  ) throws(FuzzParseError) -> Load {
    guard let hash = text.lastIndex(of: "#"), hash != text.startIndex,
      let token = UInt32(text[text.index(after: hash)...])
    else {
      throw FuzzParseError(column: column, message: "expected a load such as A#1; got `\(text)`")
    }
    let name = text[..<hash]
    if name.hasPrefix("item"), let item = UInt32(name.dropFirst(4)) {
      return resolve(LoadName(media: nil, item: ItemID(item), token: LoadToken(token)))
    }
    return resolve(LoadName(media: MediaID(String(name)), item: nil, token: LoadToken(token)))
  }

  /// `1.5x`, `2x`, `-0.5x`: thousandths, at most three decimals.
  static func rate(_ text: String) -> PlaybackRate? {
    guard text.hasSuffix("x") else { return nil }
    var body = Substring(text.dropLast())
    let negative = body.hasPrefix("-")
    if negative { body = body.dropFirst() }
    let halves = body.split(separator: ".", omittingEmptySubsequences: false)
    guard halves.count <= 2, let whole = Int32(halves[0]), whole >= 0 else { return nil }
    var fraction: Int32 = 0
    if halves.count == 2 {
      let digits = halves[1]
      guard (1...3).contains(digits.count), let value = Int32(digits), value >= 0 else {
        return nil
      }
      fraction = value * [1, 100, 10, 1][digits.count]
    }
    let (scaled, overflow) = whole.multipliedReportingOverflow(by: 1000)
    guard !overflow, scaled <= Int32.max - fraction else { return nil }
    let magnitude = scaled + fraction
    return PlaybackRate(thousandths: negative ? -magnitude : magnitude)
  }

  static func number(_ text: String, prefix: String, column: Int) throws(FuzzParseError) -> UInt32 {
    guard text.hasPrefix(prefix), let value = UInt32(text.dropFirst(prefix.count)) else {
      throw FuzzParseError(column: column, message: "expected \(prefix)N; got `\(text)`")
    }
    return value
  }

  static func failure(_ text: String, column: Int) throws(FuzzParseError) -> FailureReason {
    switch text {
    case "network": return .network
    case "decoding": return .decoding
    case "unsupported": return .unsupported
    case "notFound": return .notFound
    case "timeout": return .timeout
    case "behindLiveWindow": return .behindLiveWindow
    default:
      if text.hasPrefix("engine("), text.hasSuffix(")"),
        let code = Int32(text.dropFirst(7).dropLast())
      {
        return .engine(code: code)
      }
      throw FuzzParseError(
        column: column,
        message:
          "expected a reason (network, decoding, unsupported, notFound, timeout, behindLiveWindow, engine(N)); got `\(text)`"
      )
    }
  }
}
