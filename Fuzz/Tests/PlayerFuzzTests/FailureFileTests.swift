import Foundation
import PlayerFuzz
import PlayerState
import Testing

@Suite struct FailureFileTests {
  /// Fuzz/Failures, found from this file's path.
  static let directory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Failures")

  static let savedFailures: [String] = {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return names.filter { $0.hasSuffix(".txt") }.sorted()
  }()

  @Test func thereAreSavedFailures() {
    #expect(Self.savedFailures.count >= 9)
  }

  @Test(arguments: savedFailures)
  func savedFailureReplaysAsARegressionTest(_ name: String) throws {
    let path = Self.directory.appendingPathComponent(name).path
    let text = try String(contentsOfFile: path, encoding: .utf8)
    let fuzzCase = try FailureFile.parseCase(text, file: name)
    #expect(!fuzzCase.actions.isEmpty)
    let failure = Fuzzer.check(.player, fuzzCase)
    #expect(failure == nil, "\(failure?.report ?? "")")
    // Each saved case exposes at least one buggy player: it is a real test.
    let caught = BuggyPlayer.catalog.filter { Fuzzer.check($0.subject, fuzzCase) != nil }
    #expect(!caught.isEmpty, "\(name) catches no buggy player")
  }

  @Test func everyActionFormRoundTrips() throws {
    let text = """
      # a comment, then every form
      engine preload=yes
      queue(A B C, start 2, from 4000ms, paused)
      append(D A)
      insert(B, at 1)
      remove(6)
      move(1, to 3)
      jump(2, from 1500ms)
      next
      previous
      repeat(all)
      shuffle(seed 7)
      shuffle(off)
      rate(1.5x)
      rate(-0.75x)
      play(A, from 3001ms)
      pause
      resume
      seek(2500ms)
      retry
      ready(A#4, duration 10000ms)
      stalled(A#4)
      resumed(A#4)
      position(A#4, 2999ms)
      seeked(A#4, seek#2)
      ended(A#4)
      failed(A#4, engine(-11800))
      failed(A#4, notFound)
      timeout(A#4, watchdog#3)
      reentrant ready(A#5)
      later ended(A#4)
      deliver
      stop
      clear
      """
    let parsed = try FailureFile.parseCase(text)
    #expect(parsed.canPreload)
    #expect(parsed.actions.count == 32)
    #expect(
      parsed.actions[0]
        == .send(.queue(["A", "B", "C"], start: 1, from: .seconds(4), playWhenReady: false)))
    #expect(parsed.actions[3] == .send(.user(.remove(at: 5))))
    #expect(parsed.actions[12] == .send(.user(.setRate(PlaybackRate(thousandths: -750)))))
    // play(A) is a new queue: item 7 (A B C, D A, B were items 1 to 6), token 4.
    #expect(parsed.actions[18] == .send(.ready(Load(7, 4), duration: .seconds(10))))
    #expect(parsed.actions[27] == .reentrant(.ready(Load(7, 5))))
    #expect(
      FailureFile.format(parsed) == text.split(separator: "\n").dropFirst().joined(separator: "\n")
        + "\n")
  }

  @Test func aMediaQueuedTwiceIsNamedByItemWhereItsNameWouldMislead() throws {
    // The second A is item 2; its load A#2 resolves by token. An A#1 report
    // after A#2 was issued still means item 1; item2#1 is spelled by item.
    let actions: [FuzzAction] = [
      .send(.queue(["A", "A"])), .send(.ready(Load(1, 1))), .send(.reachedEnd(Load(1, 1))),
      .send(.ready(Load(2, 2))), .send(.stalled(Load(2, 1))),
    ]
    let fuzzCase = FuzzCase(actions)
    #expect(
      fuzzCase.lines == [
        "queue(A A)", "ready(A#1)", "ended(A#1)", "ready(A#2)", "stalled(item2#1)",
      ])
    #expect(try FailureFile.parseCase(fuzzCase.text).actions == actions)
  }

  @Test func theEngineLineComesFirstAndOnce() {
    for text in ["play(A)\nengine preload=yes\n", "engine preload=maybe\n"] {
      #expect(throws: FuzzParseError.self) { try FailureFile.parseCase(text, file: "f.txt") }
    }
    #expect(throws: FuzzParseError.self) { try FailureFile.parse("engine preload=yes\nplay(A)\n") }
  }

  @Test(arguments: [
    (
      "play(A)\nbogus\n",
      "f.txt:2:1: error: expected an action such as queue(A B), play(A), pause, ready(A#1), reentrant ready(A#1), deliver; got `bogus`"
    ),
    ("ready(A)\n", "f.txt:1:7: error: expected a load such as A#1; got `A`"),
    ("  seek(12)\n", "f.txt:1:8: error: expected a time such as 1000ms; got `12`"),
    ("remove(x)\n", "f.txt:1:8: error: expected a position such as 2; got `x`"),
    ("rate(fast)\n", "f.txt:1:6: error: expected a rate such as 1.5x; got `fast`"),
    ("repeat(twice)\n", "f.txt:1:8: error: expected off, one or all; got `twice`"),
    (
      "reentrant pause\n", "f.txt:1:1: error: `reentrant` needs an engine report such as ready(A#1)"
    ),
    (
      "failed(A#1, gone)\n",
      "f.txt:1:13: error: expected a reason (network, decoding, unsupported, notFound, timeout, behindLiveWindow, engine(N)); got `gone`"
    ),
    ("seeked(A#1, 2)\n", "f.txt:1:8: error: expected seek#N; got `2`"),
  ])
  func badLinesSayWhereAndWhat(_ text: String, _ message: String) {
    #expect(throws: FuzzParseError.self) { try FailureFile.parse(text, file: "f.txt") }
    do {
      _ = try FailureFile.parse(text, file: "f.txt")
    } catch {
      #expect(error.description == message)
    }
  }
}
