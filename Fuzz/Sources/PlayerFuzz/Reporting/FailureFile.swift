import PlayerState

/// Saved failures: an optional engine line (`engine preload=yes|no`, then
/// optionally, in any order, the retry policy, `retry=off` or
/// `retry=ATTEMPTS/BACKOFF/MAX` as in `retry=1/500ms/1000ms`, the `previous`
/// threshold, `previous=1000ms`, the watchdog clock's timeout,
/// `watchdog=5000ms`, the duck policy, `duck=pause` or `duck=0.5` (the
/// level a duck lowers to), the fade, `fade=200ms`, and the crossfade,
/// `crossfade=1000ms` (with either the engine declares `volumeRamp`), and last the state the player starts from,
/// `start(…)` (as `FuzzStart` spells it); before any action; `preload=no`, a new
/// `PlayerConfiguration`'s policies and threshold, a 10 s clock and a new
/// player when absent),
/// then one action a line; `#` starts a comment, blank lines are skipped. Loads
/// are spelled as ``FuzzCase`` says.
/// Files under Fuzz/Failures replay as regression tests on every run.
///
/// ```text
/// # nothingAfterStop, found by seed 42, case 17
/// engine preload=no
/// play(A)
/// stop
/// ready(A#1)
/// ```
public enum FailureFile {
  /// The most actions a saved failure may hold: 10,000, the longest case
  /// `player-sim fuzz --max-length` generates. Saved failures are minimal
  /// cases of a few actions, and a replay's memory (its model, logs and
  /// timeline, about 100 bytes per byte of file) grows with its length.
  public static let maximumActions = 10_000

  /// The most media names a saved failure may hold in all its actions (each
  /// `queue`, `append`, `insert` and `play` counts its names): 10,000, as many
  /// as actions. One action can hold a whole queue, so the action limit alone
  /// bounds neither a replay's memory nor its output.
  public static let maximumMedia = 10_000

  /// The longest queue a saved failure may build: 2,000 entries. A replay's
  /// work is its actions times its queue's length (a shuffle, an edit, a
  /// check of the queue after each step), so 10,000 actions over 2,000 entries
  /// (a shuffle and an unshuffle each time, the costliest) replay in about 5 s
  /// in a release build, where 10,000 entries took 23 s.
  public static let maximumQueue = 2_000

  /// The most queue entries a saved failure's hand-offs and relaunches may carry over in all:
  /// 1,000,000 (500 of a 2,000-entry queue; any number, up to ``maximumActions``, of a queue of
  /// 100). Each one snapshots the whole queue and restores it with new ids, in the player and
  /// in the contract, so a hand-off costs about ten shuffles of the same queue: `handoff` and
  /// `shuffle(seed 1)` alternated 4,999 times over 2,000 entries replayed in 26.6 s, 5.7 times
  /// the documented worst case (issue 39, R15). Within this limit the worst file stays within
  /// it (docs/memory.md).
  public static let maximumRestoredEntries = 1_000_000

  /// The longest media name a saved failure may use: 64 UTF-8 bytes. A replay
  /// prints the names of the current load and the preload on every row of its
  /// timeline, so with longer names its output would grow with the name times
  /// the rows, not with the file (the fuzzer's own names are one letter).
  public static let maximumMediaNameBytes = 64

  /// Parses a saved case for an engine that does not preload (see ``parseCase(_:file:)``).
  /// - Parameters:
  ///   - text: the file's contents.
  ///   - file: the file's name, for error messages.
  /// - Returns: the actions, in order.
  /// - Throws: ``FuzzParseError`` with the file, line and column of the first
  ///   bad line, or of the first action past ``maximumActions``; and when the
  ///   engine line says `preload=yes` (the actions alone would lose it).
  public static func parse(_ text: String, file: String? = nil) throws(FuzzParseError)
    -> [FuzzAction]
  {
    let parsed = try parseCase(text, file: file)
    guard !parsed.canPreload, parsed.setup.isDefaultConfiguration else {
      throw FuzzParseError(
        file: file, line: 1, column: 1,
        message:
          "this case runs on an engine that preloads or with another configuration (\(parsed.header)): read it with FailureFile.parseCase"
      )
    }
    return parsed.actions
  }

  /// Parses a saved case with its engine line.
  ///
  /// Lines end at any line break (`\n`, `\r\n`, `\r`, and the Unicode ones), a
  /// UTF-8 byte-order mark at the start is skipped, and the text is read one
  /// line at a time: memory is the actions plus one line, never an array of
  /// every line. Each load is resolved when the case would process it (see
  /// ``FuzzCase``), so the text reads back as the actions that printed it.
  /// - Parameters:
  ///   - text: the file's contents.
  ///   - file: the file's name, for error messages.
  /// - Returns: the case.
  /// - Throws: ``FuzzParseError`` with the file, line and column of the first
  ///   bad line, or of the first action past ``maximumActions``.
  public static func parseCase(_ text: String, file: String? = nil) throws(FuzzParseError)
    -> FuzzCase
  {
    var actions: [FuzzAction] = []
    var canPreload: Bool?
    var setup = FuzzSetup()
    var replay = NameReplay()
    // The entries the hand-offs and relaunches so far carried over (``maximumRestoredEntries``).
    var restoredEntries = 0
    var armedLines: [Int: String] = [:]
    var mediaCount = 0
    let scalars = text.unicodeScalars
    var start = scalars.startIndex
    if start < scalars.endIndex, scalars[start] == "\u{FEFF}" {
      start = scalars.index(after: start)
    }
    var number = 0
    while true {
      number += 1
      var end = start
      while end < scalars.endIndex, !isLineBreak(scalars[end]) { scalars.formIndex(after: &end) }
      let raw = scalars[start..<end]
      let last = end == scalars.endIndex
      if !last {
        // "\r\n" is one line break.
        let lineBreak = scalars[end]
        scalars.formIndex(after: &end)
        if lineBreak == "\r", end < scalars.endIndex, scalars[end] == "\n" {
          scalars.formIndex(after: &end)
        }
      }
      start = end
      // `#` also appears inside loads (A#1): only a `#` that starts the line
      // (after any spaces) starts a comment.
      let content = raw.drop(while: { $0 == " " || $0 == "\t" })
      if content.first != "#", !content.isEmpty {
        guard actions.count < maximumActions else {
          throw FuzzParseError(
            file: file, line: number, column: 1,
            message: "more than \(maximumActions) actions; expected a saved (minimal) case")
        }
        let line = String(raw)
        let words = String(content)
        if words.hasPrefix("engine ") || words == "engine" {
          let value = words.dropFirst(6).drop(while: { $0 == " " })
          var trimmed = String(
            value.reversed().drop(while: { $0 == " " || $0 == "\t" || $0 == "\r" }).reversed())
          // The start state, last: `start(FIELDS)`.
          if let open = trimmed.firstRange(of: "start(") {
            let column =
              line.count - words.count
              + words.distance(from: words.startIndex, to: value.startIndex)
              + trimmed.distance(from: trimmed.startIndex, to: open.upperBound) + 1
            guard trimmed.hasSuffix(")") else {
              throw FuzzParseError(
                file: file, line: number, column: column - 6,
                message:
                  "expected `start(…)` to end the engine line; got `\(trimmed[open.lowerBound...])`"
              )
            }
            do {
              setup.start = try FuzzStart.parse(
                trimmed[open.upperBound..<trimmed.index(before: trimmed.endIndex)], column: column)
            } catch {
              var located = error
              located.file = file
              located.line = number
              throw located
            }
            trimmed = String(
              trimmed[..<open.lowerBound].reversed().drop(while: { $0 == " " }).reversed())
          }
          let fields = trimmed.split(separator: " ")
          guard canPreload == nil, actions.isEmpty, (1...7).contains(fields.count),
            fields[0] == "preload=yes" || fields[0] == "preload=no"
          else {
            throw FuzzParseError(
              file: file, line: number, column: line.count - words.count + 1,
              message:
                "expected one engine line, `engine preload=yes` or `engine preload=no` (then optionally `retry=off` or `retry=N/TIME/TIME`, `previous=TIME`, `watchdog=TIME`, `duck=pause` or `duck=LEVEL`, `fade=TIME`, `crossfade=TIME`, and last `start(…)`), before any action; got `\(line)`"
            )
          }
          var seen: Set<Substring> = []
          for field in fields.dropFirst() {
            let key = field.prefix { $0 != "=" }
            let column =
              line.count - words.count
              + words.distance(from: words.startIndex, to: value.startIndex)
              + trimmed.distance(from: trimmed.startIndex, to: field.startIndex) + 1
            var problem: String?
            switch key {
            case _ where !seen.insert(key).inserted:
              problem = "`\(key)` given twice on the engine line"
            case "retry":
              if let policy = FuzzCase.retryPolicy(field) {
                setup.retry = policy
              } else {
                problem =
                  "expected `retry=off` or `retry=ATTEMPTS/BACKOFF/MAX` such as retry=3/1000ms/30000ms (MAX at least BACKOFF); got `\(field)`"
              }
            case "previous":
              if let time = FuzzCase.time(field, named: "previous") {
                setup.previousThreshold = time
              } else {
                problem = "expected `previous=TIME` such as previous=1000ms; got `\(field)`"
              }
            case "watchdog":
              if let time = FuzzCase.time(field, named: "watchdog"), time > .zero {
                setup.watchdogTimeout = time
              } else {
                problem =
                  "expected `watchdog=TIME` (more than 0ms) such as watchdog=5000ms; got `\(field)`"
              }
            case "duck":
              if let policy = FuzzCase.duckPolicy(field) {
                setup.ducking = policy
              } else {
                problem =
                  "expected `duck=pause` or `duck=LEVEL` (0 to 1) such as duck=0.5; got `\(field)`"
              }
            case "fade":
              if let time = FuzzCase.time(field, named: "fade"), time > .zero {
                setup.fadeLength = time
              } else {
                problem = "expected `fade=TIME` (more than 0ms) such as fade=200ms; got `\(field)`"
              }
            case "crossfade":
              if let time = FuzzCase.time(field, named: "crossfade"), time > .zero {
                setup.crossfadeLength = time
              } else {
                problem =
                  "expected `crossfade=TIME` (more than 0ms) such as crossfade=1000ms; got `\(field)`"
              }
            default:
              problem =
                "expected `retry=…`, `previous=…`, `watchdog=…`, `duck=…`, `fade=…` or `crossfade=…` after the engine's preload; got `\(field)`"
            }
            if let problem {
              throw FuzzParseError(file: file, line: number, column: column, message: problem)
            }
          }
          canPreload = fields[0] == "preload=yes"
          setup.canPreload = canPreload ?? false
          replay = NameReplay(setup)
        } else {
          canPreload = canPreload ?? false
          try countMedia(
            words, indent: line.count - words.count, number: number, file: file,
            total: &mediaCount)
          let probe: FuzzAction
          do {
            probe = try FuzzAction(parsing: line)
          } catch {
            var located = error
            located.file = file
            located.line = number
            throw located
          }
          // Loads are read when the case processes them (see FuzzCase).
          let names = replay.names
          let action: FuzzAction
          if case .reentrant = probe {
            action = probe
            armedLines[actions.count] = line
            replay.arm(actions.count)
          } else {
            action = (try? FuzzAction(parsing: line, resolve: names.resolve)) ?? probe
          }
          if case .lifecycle(let change) = action, change != .snapshot {
            restoredEntries += replay.model.entries.count
            if restoredEntries > maximumRestoredEntries {
              throw FuzzParseError(
                file: file, line: number, column: line.count - words.count + 1,
                message:
                  "a \(change) past \(maximumRestoredEntries) queue entries carried over by hand-offs and relaunches (\(restoredEntries) with this one); expected a saved (minimal) case"
              )
            }
          }
          actions.append(action)
          replay.perform(action) { index, names in
            guard let line = armedLines.removeValue(forKey: index),
              case .reentrant(let report)? = try? FuzzAction(parsing: line, resolve: names.resolve)
            else { return nil }
            actions[index] = .reentrant(report)
            return report
          }
          if replay.model.entries.count > maximumQueue {
            throw FuzzParseError(
              file: file, line: number, column: line.count - words.count + 1,
              message:
                "a queue of \(replay.model.entries.count) entries, more than \(maximumQueue); expected a saved (minimal) case"
            )
          }
        }
      }
      if last { break }
    }
    for index in replay.unfired {
      if let line = armedLines[index],
        let action = try? FuzzAction(parsing: line, resolve: replay.names.resolve)
      {
        actions[index] = action
      }
    }
    setup.canPreload = canPreload ?? false
    return FuzzCase(actions, setup: setup)
  }

  /// Counts the media names a `queue`, `append`, `insert` or `play` line
  /// names (its first argument, split at spaces, as the parser reads it) into
  /// `total`, and throws at the first name past ``maximumMedia`` or longer
  /// than ``maximumMediaNameBytes``. It reads the line before the parser
  /// does and stops at the first name too many, so a line of millions of
  /// names costs no more than the names up to the limit.
  /// - Parameters:
  ///   - words: the line without its indent.
  ///   - indent: the indent's length, in characters.
  private static func countMedia(
    _ words: String, indent: Int, number: Int, file: String?, total: inout Int
  ) throws(FuzzParseError) {
    guard ["queue(", "append(", "insert(", "play("].contains(where: { words.hasPrefix($0) }),
      let open = words.firstIndex(of: "("), let close = words.lastIndex(of: ")"), open < close
    else { return }
    var column = indent + words.distance(from: words.startIndex, to: open) + 2
    var nameStart: Int?
    var nameBytes = 0
    func finishName() throws(FuzzParseError) {
      guard let start = nameStart else { return }
      nameStart = nil
      if nameBytes > maximumMediaNameBytes {
        throw FuzzParseError(
          file: file, line: number, column: start,
          message:
            "a media name longer than \(maximumMediaNameBytes) bytes; expected a short name such as A (a replay prints the names on every row of its timeline)"
        )
      }
      total += 1
      if total > maximumMedia {
        throw FuzzParseError(
          file: file, line: number, column: start,
          message:
            "more than \(maximumMedia) media in the file; expected a saved (minimal) case")
      }
    }
    for character in words[words.index(after: open)..<close] {
      if character == "," { break }
      if character == " " {
        try finishName()
      } else {
        if nameStart == nil {
          nameStart = column
          nameBytes = 0
        }
        nameBytes += character.utf8.count
        // A name past the limit fails at once, however long it goes on.
        if nameBytes > maximumMediaNameBytes { try finishName() }
      }
      column += 1
    }
    try finishName()
  }

  /// The line breaks `Character.isNewline` knows, as scalars.
  private static func isLineBreak(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029: true
    default: false
    }
  }

  /// The text of a saved case on an engine that does not preload: comment
  /// lines, the engine line, then one action a line.
  /// - Parameters:
  ///   - actions: the case.
  ///   - comments: lines to put first (without the `#`).
  public static func format(_ actions: [FuzzAction], comments: [String] = []) -> String {
    format(FuzzCase(actions), comments: comments)
  }

  /// The text of a saved case: comment lines, the engine line, then one action a line.
  /// - Parameters:
  ///   - fuzzCase: the case.
  ///   - comments: lines to put first (without the `#`).
  public static func format(_ fuzzCase: FuzzCase, comments: [String] = []) -> String {
    (comments.map { "# \($0)" } + [fuzzCase.header] + fuzzCase.lines).joined(separator: "\n")
      + "\n"
  }

  /// The text to save for a failure: its property, origin and minimal case.
  public static func format(_ failure: FuzzFailure) -> String {
    format(
      failure.fuzzCase,
      comments: [
        "\(failure.property): \(failure.property.summary)",
        "found in \(failure.subject) by \(failure.origin)",
        "replay: Fuzzer.check(\(failure.replaySubject), try FailureFile.parseCase(text))",
      ])
  }
}
