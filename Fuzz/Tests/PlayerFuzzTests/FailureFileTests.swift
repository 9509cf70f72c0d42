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
    let actions = try FailureFile.parse(text, file: name)
    #expect(!actions.isEmpty)
    let failure = Fuzzer.check(.player, actions)
    #expect(failure == nil, "\(failure?.report ?? "")")
    // Each saved case exposes at least one buggy player: it is a real test.
    let caught = BuggyPlayer.catalog.filter { Fuzzer.check($0.subject, actions) != nil }
    #expect(!caught.isEmpty, "\(name) catches no buggy player")
  }

  @Test func everyActionFormRoundTrips() throws {
    let text = """
      # a comment, then every form
      play(A)
      pause
      resume
      stop
      seek(2500ms)
      retry
      ready(A#1)
      stalled(B#2)
      resumed(A#1)
      seeked(A#1, seek#2)
      ended(A#1)
      failed(A#1, engine(-11800))
      failed(A#1, notFound)
      timeout(A#1, watchdog#3)
      reentrant ready(A#2)
      later ended(A#1)
      deliver
      """
    let actions = try FailureFile.parse(text)
    #expect(actions.count == 17)
    #expect(actions[4] == .send(.seek(to: .milliseconds(2500))))
    #expect(actions[11] == .send(.failed(Load("A", 1), .engine(code: -11800))))
    #expect(actions[14] == .reentrant(.ready(Load("A", 2))))
    #expect(
      FailureFile.format(actions) == text.split(separator: "\n").dropFirst().joined(separator: "\n")
        + "\n")
  }

  @Test(arguments: [
    (
      "play(A)\nbogus\n",
      "f.txt:2:1: error: expected an action such as play(A), pause, ready(A#1), reentrant ready(A#1), deliver; got `bogus`"
    ),
    ("ready(A)\n", "f.txt:1:7: error: expected a load such as A#1; got `A`"),
    ("  seek(12)\n", "f.txt:1:8: error: expected a time such as 1000ms; got `12`"),
    (
      "reentrant pause\n", "f.txt:1:1: error: `reentrant` needs an engine report such as ready(A#1)"
    ),
    (
      "failed(A#1, gone)\n",
      "f.txt:1:8: error: expected a reason (network, decoding, unsupported, notFound, timeout, engine(N)); got `gone`"
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
