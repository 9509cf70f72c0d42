import PlayerState

/// The value syntaxes of scenario scripts: names, loads, times, numbers,
/// reasons and commands. Each returns a value or a positioned error.
extension LineReader {
  private static let mediaNameRule =
    "a media name of printable characters, without spaces or any of # = ( ) , *"

  /// A media id as written, checked for characters that would make it ambiguous.
  func mediaID(_ token: ScenarioToken) throws(ScenarioError) -> MediaID {
    // `*` marks the current entry in `expect queue A B* C`.
    let forbidden: Set<Unicode.Scalar> = ["#", "=", "(", ")", ",", "*"]
    // Control and invisible characters would be escaped in every output, but a
    // name that cannot be printed as written is refused where it is written.
    guard !token.text.unicodeScalars.contains(where: forbidden.contains),
      terminalSafe(token.text) == token.text
    else {
      throw error(
        token, found: "bad media name \(ScenarioError.quoted(token.text))",
        expected: Self.mediaNameRule)
    }
    return MediaID(token.text)
  }

  /// The next word as a media declared by an earlier `media` line.
  mutating func mediaName(declared: Set<MediaID>) throws(ScenarioError) -> MediaID {
    let token = try next("a media name, as in 'play A'")
    return try declaredMedia(token, text: token.text, column: token.column, declared: declared)
  }

  func declaredMedia(
    _ token: ScenarioToken, text: String, column: Int, declared: Set<MediaID>
  ) throws(ScenarioError) -> MediaID {
    let media = try mediaID(ScenarioToken(text: text, column: column))
    guard declared.contains(media) else {
      throw error(
        at: column, found: "unknown media \(ScenarioError.quoted(text))",
        expected: "a media declared above with 'media \(text)'")
    }
    return media
  }

  /// `A#2`: a declared media and a load token.
  func loadName(_ token: ScenarioToken, declared: Set<MediaID>) throws(ScenarioError) -> LoadName {
    let scalars = token.text.unicodeScalars
    guard let hash = scalars.lastIndex(of: "#"), hash != scalars.startIndex else {
      throw error(
        token, found: "bad load \(ScenarioError.quoted(token.text))",
        expected: "MEDIA#TOKEN, such as A#1")
    }
    let mediaText = String(scalars[..<hash])
    let tokenText = String(scalars[scalars.index(after: hash)...])
    let tokenColumn = token.column + scalars.distance(from: scalars.startIndex, to: hash) + 1
    let media = try declaredMedia(token, text: mediaText, column: token.column, declared: declared)
    let number = try number(
      ScenarioToken(text: tokenText, column: tokenColumn), upTo: UInt32.max, what: "a load token")
    return LoadName(media, number)
  }

  /// Splits `key=value`; the value's column points after the `=`.
  func keyValue(_ token: ScenarioToken, example: String) throws(ScenarioError) -> (
    ScenarioToken, ScenarioToken
  ) {
    let scalars = token.text.unicodeScalars
    guard let equals = scalars.firstIndex(of: "="), equals != scalars.startIndex else {
      throw error(
        token, found: "found \(ScenarioError.quoted(token.text))",
        expected: "an option key=value, such as \(example)")
    }
    let offset = scalars.distance(from: scalars.startIndex, to: equals)
    let key = ScenarioToken(text: String(scalars[..<equals]), column: token.column)
    let value = ScenarioToken(
      text: String(scalars[scalars.index(after: equals)...]), column: token.column + offset + 1)
    return (key, value)
  }

  /// `250ms`, `5s`, `1.5s`, `3m`, `1h` (at most three decimals for s, m and
  /// h), up to ``ScenarioParser/maximumMilliseconds``.
  func duration(_ token: ScenarioToken, positive: Bool = false) throws(ScenarioError) -> Duration {
    switch Self.milliseconds(token.text) {
    case .bad:
      throw error(
        token, found: "bad time \(ScenarioError.quoted(token.text))",
        expected: "a time in ms, s, m or h, such as 250ms, 1.5s, 3m or 1h")
    case .tooLarge:
      throw error(
        token, found: "time \(ScenarioError.quoted(token.text)) too large",
        expected: "at most \(ScenarioParser.maximumMilliseconds / 1000)s")
    case .value(let milliseconds):
      if positive, milliseconds == 0 {
        throw error(
          token, found: "time \(ScenarioError.quoted(token.text))", expected: "a time above 0ms")
      }
      return .milliseconds(milliseconds)
    }
  }

  /// What a time's text says: its milliseconds, or why it is not one.
  enum TimeText: Equatable {
    case value(Int64)
    case bad
    case tooLarge
  }

  /// The milliseconds of `250ms`, `5s`, `1.5s`, `3m`, `1h` (at most three
  /// decimals for s, m and h), up to ``ScenarioParser/maximumMilliseconds``.
  static func milliseconds(_ text: String) -> TimeText {
    var scalars = Array(text.unicodeScalars)
    let perUnit: Int64
    if scalars.count >= 2, scalars[scalars.count - 2] == "m", scalars[scalars.count - 1] == "s" {
      scalars.removeLast(2)
      perUnit = 1
    } else if scalars.last == "s" {
      scalars.removeLast(1)
      perUnit = 1000
    } else if scalars.last == "m" {
      scalars.removeLast(1)
      perUnit = 60_000
    } else if scalars.last == "h" {
      scalars.removeLast(1)
      perUnit = 3_600_000
    } else {
      return .bad
    }
    let parts = scalars.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
    guard let whole = parts.first, !whole.isEmpty, whole.allSatisfy(isDigit) else { return .bad }
    var fraction: Int64 = 0
    if parts.count == 2 {
      let digits = parts[1]
      guard perUnit > 1, (1...3).contains(digits.count), digits.allSatisfy(isDigit)
      else { return .bad }
      for digit in digits { fraction = fraction * 10 + Int64(digit.value - 48) }
      for _ in digits.count..<3 { fraction *= 10 }
      fraction = fraction * perUnit / 1000
    }
    var milliseconds: Int64 = 0
    for digit in whole {
      milliseconds = milliseconds * 10 + Int64(digit.value - 48) * perUnit
      if milliseconds > ScenarioParser.maximumMilliseconds { return .tooLarge }
    }
    milliseconds += fraction
    if milliseconds > ScenarioParser.maximumMilliseconds { return .tooLarge }
    return .value(milliseconds)
  }

  /// A time as a media position, as in `12s`.
  func mediaTime(_ token: ScenarioToken) throws(ScenarioError) -> MediaTime {
    .milliseconds(try duration(token).wholeMilliseconds)
  }

  /// A 1-based queue position as written (`2`), as the 0-based index the machine takes.
  func position(_ token: ScenarioToken) throws(ScenarioError) -> Int {
    let value = try number(token, upTo: UInt32.max, what: "a position (1 is the first entry)")
    guard value > 0 else {
      throw error(
        token, found: "position 0", expected: "a position from 1 (1 is the first entry)")
    }
    return Int(value) - 1
  }

  /// A playback rate, `1.5` or `1.5x`: at most three decimals, at most 1000.
  /// Zero is accepted here and refused by the machine (`invalidArgument`).
  func rate(_ token: ScenarioToken) throws(ScenarioError) -> PlaybackRate {
    var text = Substring(token.text)
    if text.hasSuffix("x") { text.removeLast() }
    let bad = error(
      token, found: "bad rate \(ScenarioError.quoted(token.text))",
      expected: "a rate such as 1, 1.5 or 0.75x (at most three decimals, at most 1000)")
    let parts = text.unicodeScalars.split(
      separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
    guard let whole = parts.first, (1...4).contains(whole.count), whole.allSatisfy(Self.isDigit)
    else { throw bad }
    var thousandths: Int32 = 0
    for digit in whole { thousandths = thousandths * 10 + Int32(digit.value - 48) }
    thousandths *= 1000
    if parts.count == 2 {
      let digits = parts[1]
      guard (1...3).contains(digits.count), digits.allSatisfy(Self.isDigit) else { throw bad }
      var fraction: Int32 = 0
      for digit in digits { fraction = fraction * 10 + Int32(digit.value - 48) }
      for _ in digits.count..<3 { fraction *= 10 }
      thousandths += fraction
    }
    guard thousandths <= 1_000_000 else { throw bad }
    return PlaybackRate(thousandths: thousandths)
  }

  /// A volume as written, `0.5`, `1`, `0.25` or `-0.5`: a decimal number
  /// with at most three decimals (a ``PlayerState/Volume`` keeps thousandths,
  /// so nothing written is rounded away). A number outside 0…1 is read as
  /// written, saturated to what a `Volume` holds, and left to the caller: the
  /// machine refuses it (`invalidArgument`) for `volume`, and `ducking` and
  /// `expect volume` refuse it themselves.
  func volume(_ token: ScenarioToken) throws(ScenarioError) -> Volume {
    var scalars = token.text.unicodeScalars[...]
    let negative = scalars.first == "-"
    if negative { scalars.removeFirst() }
    let bad = error(
      token, found: "bad volume \(ScenarioError.quoted(token.text))",
      expected:
        "a volume such as 0.5, 1 or 0.25 (a number with at most three decimals; 0 to 1 is in range)"
    )
    let parts = scalars.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
    guard let whole = parts.first, !whole.isEmpty, whole.allSatisfy(Self.isDigit) else { throw bad }
    var thousandths: Int64 = 0
    for digit in whole {
      // Saturates: past Int32's range the value is refused whatever it is.
      thousandths = min(thousandths * 10 + Int64(digit.value - 48), Int64(Int32.max))
    }
    thousandths = min(thousandths * 1000, Int64(Int32.max))
    if parts.count == 2 {
      let digits = parts[1]
      guard (1...3).contains(digits.count), digits.allSatisfy(Self.isDigit) else { throw bad }
      var fraction: Int64 = 0
      for digit in digits { fraction = fraction * 10 + Int64(digit.value - 48) }
      for _ in digits.count..<3 { fraction *= 10 }
      thousandths = min(thousandths + fraction, Int64(Int32.max))
    }
    return Volume(thousandths: Int32(negative ? -thousandths : thousandths))
  }

  /// A decimal number in `0...limit`.
  func number<Number: FixedWidthInteger & UnsignedInteger>(
    _ token: ScenarioToken, upTo limit: Number, what: String
  ) throws(ScenarioError) -> Number {
    guard !token.text.isEmpty, token.text.unicodeScalars.allSatisfy(Self.isDigit) else {
      throw error(
        token, found: "bad number \(ScenarioError.quoted(token.text))",
        expected: "\(what): a whole number such as 1")
    }
    var value: Number = 0
    for digit in token.text.unicodeScalars {
      let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
      let (sum, overflowAgain) = shifted.addingReportingOverflow(Number(digit.value - 48))
      guard !overflow, !overflowAgain, sum <= limit else {
        throw error(
          token, found: "number \(ScenarioError.quoted(token.text)) too large",
          expected: "\(what) of at most \(limit)")
      }
      value = sum
    }
    return value
  }

  /// `25%` or `25`, from 0 to 100.
  func percent(_ token: ScenarioToken) throws(ScenarioError) -> Int {
    var text = Substring(token.text)
    if text.hasSuffix("%") { text.removeLast() }
    let value = try? number(
      ScenarioToken(text: String(text), column: token.column), upTo: UInt8.max, what: "")
    guard let value, value <= 100 else {
      throw error(
        token, found: "bad percentage \(ScenarioError.quoted(token.text))",
        expected: "a percentage from 0% to 100%")
    }
    return Int(value)
  }

  /// `network`, `decoding`, `unsupported`, `notFound`, `timeout` or `engine(CODE)`.
  func failureReason(_ token: ScenarioToken) throws(ScenarioError) -> FailureReason {
    switch token.text {
    case "network": return .network
    case "decoding": return .decoding
    case "unsupported": return .unsupported
    case "notFound", "not-found": return .notFound
    case "timeout": return .timeout
    case "behindLiveWindow": return .behindLiveWindow
    default:
      if token.text.hasPrefix("engine("), token.text.hasSuffix(")") {
        let inner = token.text.dropFirst(7).dropLast()
        if let code = Int32(inner) { return .engine(code: code) }
      }
      throw error(
        token, found: "unknown reason \(ScenarioError.quoted(token.text))",
        expected:
          "one of network, decoding, unsupported, notFound, timeout, behindLiveWindow, engine(CODE)"
      )
    }
  }

  /// An error domain as in `domain=NSURLErrorDomain`: printable characters
  /// without spaces or quotes, at most ``ScenarioParser/maximumDomainLength``.
  func errorDomain(_ token: ScenarioToken) throws(ScenarioError) -> String {
    let scalars = token.text.unicodeScalars
    guard !scalars.isEmpty, !scalars.contains("\""), terminalSafe(token.text) == token.text else {
      throw error(
        token, found: "bad error domain \(ScenarioError.quoted(token.text))",
        expected:
          "a domain of printable characters without spaces or quotes, such as NSURLErrorDomain")
    }
    guard scalars.count <= ScenarioParser.maximumDomainLength else {
      throw error(
        token, found: "error domain of \(scalars.count) characters",
        expected: "at most \(ScenarioParser.maximumDomainLength) characters")
    }
    return token.text
  }

  /// An error code as in `code=-1009`: a whole number, negative or not, that fits in an `Int`.
  func errorCode(_ token: ScenarioToken) throws(ScenarioError) -> Int {
    var digits = Substring(token.text)
    let negative = digits.first == "-"
    if negative { digits.removeFirst() }
    let magnitude = try? number(
      ScenarioToken(text: String(digits), column: token.column), upTo: UInt64.max, what: "")
    guard let magnitude else {
      throw error(
        token, found: "bad error code \(ScenarioError.quoted(token.text))",
        expected: "a whole number such as -1009 or 404")
    }
    guard negative ? magnitude <= UInt64(Int.max) + 1 : magnitude <= UInt64(Int.max) else {
      throw error(
        token, found: "error code \(ScenarioError.quoted(token.text)) out of range",
        expected: "a code from \(Int.min) to \(Int.max)")
    }
    if negative { return magnitude == UInt64(Int.max) + 1 ? Int.min : -Int(magnitude) }
    return Int(magnitude)
  }

  /// A quoted value as in `message="no route to host"`: between double
  /// quotes, with `\"` for a quote, `\\` for a backslash, `\n` and `\t`; no
  /// other escape and no raw control character; at most `limit` Unicode
  /// scalars once decoded. Errors point at the offending character.
  func quotedText(_ token: ScenarioToken, limit: Int) throws(ScenarioError) -> String {
    let scalars = Array(token.text.unicodeScalars)
    let example = "a quoted text such as \"offline\" (\\\" for a quote inside)"
    guard scalars.first == "\"" else {
      throw error(
        token, found: "found \(ScenarioError.quoted(token.text))", expected: example)
    }
    let leftOpen = error(
      token, found: "a quote left open", expected: "a closing '\"' before the end of the line")
    var text = String.UnicodeScalarView()
    var count = 0
    var index = 1
    while index < scalars.count {
      let scalar = scalars[index]
      let column = token.column + index
      switch scalar {
      case "\"":
        guard index == scalars.count - 1 else {
          throw error(
            at: column + 1,
            found: "text after the closing quote",
            expected: "a space or end of line after the closing '\"'")
        }
        return String(text)
      case "\\":
        guard index + 1 < scalars.count else { throw leftOpen }
        let escaped: Unicode.Scalar
        switch scalars[index + 1] {
        case "\"": escaped = "\""
        case "\\": escaped = "\\"
        case "n": escaped = "\n"
        case "t": escaped = "\t"
        default:
          throw error(
            at: column,
            found: "unknown escape \(ScenarioError.quoted("\\" + String(scalars[index + 1])))",
            expected: "one of \\\" \\\\ \\n \\t")
        }
        text.append(escaped)
        index += 2
        count += 1
      default:
        if scalar.properties.generalCategory == .control {
          throw error(
            at: column, found: "a control character in a quoted text",
            expected: "printable text (\\n and \\t for a newline and a tab)")
        }
        text.append(scalar)
        index += 1
        count += 1
      }
      if count > limit {
        throw error(
          token, found: "a quoted text longer than \(limit) characters",
          expected: "at most \(limit) characters")
      }
    }
    throw leftOpen
  }

  /// Commands in their compact forms, as in `load(A#1) seek(A#1, 2000ms, seek#1)`,
  /// each kept in its canonical printed form.
  func commands(_ words: [ScenarioToken], declared: Set<MediaID>) throws(ScenarioError)
    -> [ScenarioCommand]
  {
    var result: [ScenarioCommand] = []
    var group: [ScenarioToken] = []
    var depth = 0
    for word in words {
      group.append(word)
      for scalar in word.text.unicodeScalars {
        if scalar == "(" { depth += 1 }
        if scalar == ")" { depth -= 1 }
      }
      if depth <= 0 {
        result.append(try command(group, declared: declared))
        group.removeAll()
        depth = 0
      }
    }
    if let first = group.first {
      throw error(
        first,
        found: "unbalanced \(ScenarioError.quoted(group.map(\.text).joined(separator: " ")))",
        expected: "a closing ')'")
    }
    return result
  }

  private func command(_ words: [ScenarioToken], declared: Set<MediaID>) throws(ScenarioError)
    -> ScenarioCommand
  {
    let first = words[0]
    let text = words.map(\.text).joined(separator: " ")
    let expected =
      "a command such as load(A#1), load(A#1, from 12s), load(A#1, at live edge), "
      + "load(A#1, 30s behind live edge), preload(B#2), "
      + "start(A#1), "
      + "start(A#1, 1.5x), rate(A#1, 1.5x), pause(A#1), stop(A#1), seek(A#1, 2000ms, seek#1), "
      + "setVolume(A#1, 0.5) or setVolume(A#1, 0.5, ramp 200ms)"
    let bad = error(first, found: "bad command \(ScenarioError.quoted(text))", expected: expected)
    let scalars = text.unicodeScalars
    guard let open = scalars.firstIndex(of: "("), scalars.last == ")" else { throw bad }
    let name = String(scalars[..<open])
    let inside = scalars[scalars.index(after: open)..<scalars.index(before: scalars.endIndex)]
    let arguments = inside.split(separator: ",", omittingEmptySubsequences: false).map {
      ScenarioToken(text: Self.trimmed(String($0)), column: first.column)
    }
    guard let loadText = arguments.first else { throw bad }
    let load = try loadName(loadText, declared: declared)
    switch (name, arguments.count) {
    case ("load", 1), ("preload", 1), ("start", 1), ("pause", 1), ("stop", 1):
      return ScenarioCommand("\(name)(\(load))")
    case ("load", 2) where arguments[1].text.split(separator: " ") == ["at", "live", "edge"],
      ("preload", 2) where arguments[1].text.split(separator: " ") == ["at", "live", "edge"]:
      return ScenarioCommand("\(name)(\(load), at live edge)")
    case ("load", 2) where arguments[1].text.hasSuffix(" behind live edge"):
      let words = arguments[1].text.split(separator: " ")
      guard words.count == 4 else { throw bad }
      let time = try mediaTime(ScenarioToken(text: String(words[0]), column: first.column))
      return ScenarioCommand(
        time == .zero ? "load(\(load), at live edge)" : "load(\(load), \(time) behind live edge)")
    case ("load", 2), ("preload", 2):
      let words = arguments[1].text.split(separator: " ")
      guard words.count == 2, words[0] == "from" else { throw bad }
      let time = try mediaTime(ScenarioToken(text: String(words[1]), column: first.column))
      return ScenarioCommand(
        time == .zero ? "\(name)(\(load))" : "\(name)(\(load), from \(time))")
    case ("start", 2), ("rate", 2):
      let rate = try rate(arguments[1])
      if name == "start", rate == .normal { return ScenarioCommand("start(\(load))") }
      return ScenarioCommand("\(name)(\(load), \(rate))")
    case ("seek", 3):
      let time = try mediaTime(arguments[1])
      let seekText = arguments[2].text
      guard seekText.hasPrefix("seek#") else { throw bad }
      let seek = try number(
        ScenarioToken(text: String(seekText.dropFirst(5)), column: first.column), upTo: UInt32.max,
        what: "a seek id")
      return ScenarioCommand("seek(\(load), \(time), \(SeekID(seek)))")
    case ("setVolume", 2), ("setVolume", 3):
      let volume = try volume(arguments[1])
      var ramp = MediaTime.zero
      if arguments.count == 3 {
        let words = arguments[2].text.split(separator: " ")
        guard words.count == 2, words[0] == "ramp" else { throw bad }
        ramp = try mediaTime(ScenarioToken(text: String(words[1]), column: first.column))
      }
      return ScenarioCommand(
        ramp == .zero
          ? "setVolume(\(load), \(volume))" : "setVolume(\(load), \(volume), ramp \(ramp))")
    default: throw bad
    }
  }

  private static func trimmed(_ text: String) -> String {
    var scalars = text.unicodeScalars[...]
    while scalars.first == " " { scalars.removeFirst() }
    while scalars.last == " " { scalars.removeLast() }
    return String(scalars)
  }

  /// Whether `scalar` is an ASCII digit.
  static func isDigit(_ scalar: Unicode.Scalar) -> Bool {
    scalar >= "0" && scalar <= "9"
  }
}
