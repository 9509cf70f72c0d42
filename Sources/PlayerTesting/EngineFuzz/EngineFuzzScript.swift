public import PlayerState

/// A sequence of engine commands with the real time between them: what the
/// ``EngineFuzzer`` sends to an engine, prints when it finds a failure, and
/// replays.
///
/// In text, one command per line, each with the delay before it; media are
/// named by letter, `A` for the fuzzer's first media, `B` for the second
/// (``EngineFuzzer/Configuration/allMedia``), and a load's item is its token:
///
/// ```text
/// # comments and blank lines are ignored
/// +0ms load(A#1)
/// +0ms seek(A#1, 100ms, seek#1)
/// +15ms stop(A#1)
/// +120ms load(B#2, from 500ms)
/// +0ms start(B#2)
/// +0ms preload(A#3)
/// +0ms pause(B#2)
/// ```
///
/// The commands are `load`, `preload`, `start`, `pause`, `seek` and `stop`,
/// in the compact forms of ``PlayerState/EngineCommand``. A script issues
/// identities the way the machine does, and parsing checks it: each `load`
/// or `preload` takes a new token above every earlier one, other commands name
/// a token loaded earlier with its own media letter, and a load's seek ids
/// increase.
public struct EngineFuzzScript: Hashable, Sendable, CustomStringConvertible {
  /// One command and the real time to wait before sending it.
  public struct Step: Hashable, Sendable {
    /// How long to wait after the previous command was sent (after the start, for the first).
    public var delay: Duration
    /// The command. Its load's item is the load's token.
    public var command: EngineCommand

    /// A step.
    /// - Parameters:
    ///   - delay: the wait before the command.
    ///   - command: the command.
    public init(delay: Duration, _ command: EngineCommand) {
      self.delay = delay
      self.command = command
    }
  }

  /// The steps, in order.
  public var steps: [Step]
  /// The media the letters name: `A` is the first.
  public var media: [MediaID]

  /// A script.
  /// - Parameters:
  ///   - steps: the steps.
  ///   - media: the media its letters name, `A` first.
  public init(steps: [Step], media: [MediaID]) {
    self.steps = steps
    self.media = media
  }

  /// The longest delay a script line may ask for: ten minutes.
  public static let longestDelay = Duration.seconds(600)

  /// The letter of the media at `index`: `A`, `B`, …, `Z`, then `M26`, `M27`, ….
  public static func letter(_ index: Int) -> String {
    index < 26 ? String(UnicodeScalar(UInt8(65 + index))) : "M\(index)"
  }

  /// The script's lines, one per step, without comments.
  public var lines: [String] {
    steps.map { "+\(Self.milliseconds($0.delay))ms \(text(of: $0.command))" }
  }

  /// The script as text: a comment naming each media letter, then one line per step.
  public var description: String {
    let names = media.indices.map { "# \(Self.letter($0)) = \(media[$0])" }
    return (names + lines).joined(separator: "\n")
  }

  /// The compact form of a command, with media letters: `seek(A#1, 100ms, seek#2)`.
  func text(of command: EngineCommand) -> String {
    let load = command.load
    let name = "\(letter(of: load.item))#\(load.token)"
    switch command {
    case .load(let request), .preload(let request):
      let verb = if case .load = command { "load" } else { "preload" }
      let start = request.start == .zero ? "" : ", from \(request.start)"
      return "\(verb)(\(name)\(start))"
    case .start: return "start(\(name))"
    case .setRate(_, let rate): return "rate(\(name), \(rate))"
    case .pause: return "pause(\(name))"
    case .seek(_, let time, let seek): return "seek(\(name), \(time), \(seek))"
    case .stop: return "stop(\(name))"
    case .setVolume(_, let volume, let ramp):
      let wait = MediaTime(ramp)
      return wait == .zero
        ? "setVolume(\(name), \(volume))" : "setVolume(\(name), \(volume), ramp \(wait))"
    }
  }

  /// The letter of the media of the load or preload that opened `item`, or `item3` without one.
  private func letter(of item: ItemID) -> String {
    for step in steps {
      switch step.command {
      case .load(let request), .preload(let request):
        guard request.load.item == item else { continue }
        if let index = media.firstIndex(of: request.media) { return Self.letter(index) }
        return "\(request.media)"
      default: continue
      }
    }
    return "\(item)"
  }

  static func milliseconds(_ duration: Duration) -> Int64 {
    let (seconds, attoseconds) = duration.components
    return seconds * 1_000 + attoseconds / 1_000_000_000_000_000
  }

  /// Reads a script.
  /// - Parameters:
  ///   - text: the script, in the format above.
  ///   - media: the media its letters name, `A` first.
  ///   - file: the file name used in errors.
  /// - Returns: the script.
  /// - Throws: ``EngineFuzzScriptError`` naming the file, line and what is wrong.
  public static func parse(
    _ text: String, media: [MediaID], file: String = "script"
  ) throws(EngineFuzzScriptError) -> EngineFuzzScript {
    var parser = ScriptParser(media: media, file: file)
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false)
      .enumerated()
    {
      try parser.read(line, number: index + 1)
    }
    return EngineFuzzScript(steps: parser.steps, media: media)
  }
}

/// A script line that cannot be read: where and what.
public struct EngineFuzzScriptError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The file name given to the parser.
  public let file: String
  /// The line, from 1.
  public let line: Int
  /// What is wrong, as in ``unknown command `play```.
  public let message: String

  /// An error.
  /// - Parameters:
  ///   - file: the file name.
  ///   - line: the line number, from 1.
  ///   - message: what is wrong.
  public init(file: String, line: Int, message: String) {
    self.file = file
    self.line = line
    self.message = message
  }

  /// `file:line: message`.
  public var description: String { "\(file):\(line): \(message)" }
}

/// Reads script lines one at a time, keeping what the checks need.
private struct ScriptParser {
  let media: [MediaID]
  let file: String
  var steps: [EngineFuzzScript.Step] = []
  /// The media index and line of each loaded token.
  var loaded: [UInt32: (media: Int, line: Int)] = [:]
  var highestToken: (token: UInt32, line: Int)?
  var newestSeek: [UInt32: (seek: UInt32, line: Int)] = [:]
  var number = 0

  init(media: [MediaID], file: String) {
    self.media = media
    self.file = file
  }

  func fail(_ message: String) -> EngineFuzzScriptError {
    EngineFuzzScriptError(file: file, line: number, message: message)
  }

  mutating func read(_ raw: Substring, number: Int) throws(EngineFuzzScriptError) {
    self.number = number
    let line = raw.trimmingSpaces
    if line.isEmpty || line.hasPrefix("#") { return }
    guard line.hasPrefix("+"), let space = line.firstIndex(of: " ") else {
      throw fail("expected `+<delay>ms <command>`, as in `+0ms load(A#1)`, got `\(line)`")
    }
    let delayText = line[line.index(after: line.startIndex)..<space]
    guard delayText.hasSuffix("ms"), let delay = Int64(delayText.dropLast(2)), delay >= 0 else {
      throw fail("the delay must be whole milliseconds, as in `+25ms`, got `+\(delayText)`")
    }
    guard delay <= EngineFuzzScript.milliseconds(EngineFuzzScript.longestDelay) else {
      throw fail("the delay \(delay)ms is longer than the longest, 600000ms")
    }
    let command = try self.command(line[line.index(after: space)...].trimmingSpaces)
    steps.append(EngineFuzzScript.Step(delay: .milliseconds(delay), command))
  }

  private mutating func command(_ text: Substring) throws(EngineFuzzScriptError) -> EngineCommand {
    guard let open = text.firstIndex(of: "("), text.hasSuffix(")") else {
      throw fail("expected a command such as `load(A#1)`, got `\(text)`")
    }
    let name = String(text[..<open])
    let arguments = text[text.index(after: open)..<text.index(before: text.endIndex)]
      .split(separator: ",").map(\.trimmingSpaces)
    let arity: [String: ClosedRange<Int>] = [
      "load": 1...2, "preload": 1...2, "start": 1...1, "pause": 1...1, "seek": 3...3,
      "stop": 1...1,
    ]
    guard let allowed = arity[name] else {
      throw fail("unknown command `\(name)`: expected load, preload, start, pause, seek or stop")
    }
    guard allowed.contains(arguments.count) else {
      let expected = allowed.count == 1 ? "\(allowed.lowerBound)" : "1 or 2"
      throw fail("`\(name)` takes \(expected) arguments, got \(arguments.count): `\(text)`")
    }
    let (mediaIndex, token) = try load(arguments[0])
    let load = Load(item: ItemID(token), token: LoadToken(token))
    switch name {
    case "load", "preload":
      var start = MediaTime.zero
      if arguments.count == 2 {
        guard arguments[1].hasPrefix("from ") else {
          throw fail("expected `from <time>ms` after the load, got `\(arguments[1])`")
        }
        start = try time(arguments[1].dropFirst(5).trimmingSpaces)
      }
      if let earlier = loaded[token] {
        throw fail(
          "token \(token) was already loaded on line \(earlier.line): a token is issued once")
      }
      if let highest = highestToken, token < highest.token {
        throw fail(
          "token \(token) is below token \(highest.token) of line \(highest.line): tokens are issued in increasing order"
        )
      }
      loaded[token] = (mediaIndex, number)
      highestToken = (token, number)
      let request = LoadRequest(load: load, media: media[mediaIndex], start: start)
      return name == "load" ? .load(request) : .preload(request)
    default:
      guard let opened = loaded[token] else {
        throw fail("\(arguments[0]) was never loaded: load or preload it on an earlier line")
      }
      guard opened.media == mediaIndex else {
        throw fail(
          "\(arguments[0]) was loaded as \(EngineFuzzScript.letter(opened.media))#\(token) on line \(opened.line)"
        )
      }
    }
    switch name {
    case "start": return .start(load)
    case "pause": return .pause(load)
    case "stop": return .stop(load)
    default:
      let target = try time(arguments[1])
      guard arguments[2].hasPrefix("seek#"), let seek = UInt32(arguments[2].dropFirst(5)), seek > 0
      else {
        throw fail("expected a seek id such as `seek#1`, got `\(arguments[2])`")
      }
      if let newest = newestSeek[token], seek <= newest.seek {
        throw fail(
          "seek#\(seek) of \(arguments[0]) is not newer than seek#\(newest.seek) of line \(newest.line)"
        )
      }
      newestSeek[token] = (seek, number)
      return .seek(load, to: target, SeekID(seek))
    }
  }

  /// `A#3` → the media index of `A` and token 3.
  private func load(_ text: Substring) throws(EngineFuzzScriptError) -> (Int, UInt32) {
    guard let hash = text.firstIndex(of: "#"),
      let token = UInt32(text[text.index(after: hash)...]), token > 0
    else {
      throw fail("expected a load such as `A#1` (media letter, #, token from 1), got `\(text)`")
    }
    let letter = String(text[..<hash])
    guard let index = media.indices.first(where: { EngineFuzzScript.letter($0) == letter }) else {
      let known = media.indices.map { EngineFuzzScript.letter($0) }.joined(separator: ", ")
      throw fail(
        "unknown media `\(letter)`: the fuzzer has \(media.count) media (\(known.isEmpty ? "none" : known))"
      )
    }
    return (index, token)
  }

  private func time(_ text: Substring) throws(EngineFuzzScriptError) -> MediaTime {
    guard text.hasSuffix("ms"), let value = Int64(text.dropLast(2)), value >= 0 else {
      throw fail("expected a time in whole milliseconds such as `100ms`, got `\(text)`")
    }
    return .milliseconds(value)
  }
}

extension Substring {
  /// Without leading and trailing spaces and tabs.
  fileprivate var trimmingSpaces: Substring {
    var text = self
    while let first = text.first, first == " " || first == "\t" || first == "\r" {
      text = text.dropFirst()
    }
    while let last = text.last, last == " " || last == "\t" || last == "\r" {
      text = text.dropLast()
    }
    return text
  }
}
