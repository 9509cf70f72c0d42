import Foundation
import PlayerFuzz
import PlayerState
import Testing

/// A user's failures are saved where the user says, named after the subject and origin,
/// never overwritten, and read back as the same case.
@Suite struct FailureSaveTests {
  /// A fresh directory under the system's temporary directory.
  static func scratch() -> String {
    let path = (NSTemporaryDirectory() as NSString).appendingPathComponent(
      "playhead-save-\(UUID().uuidString)")
    return path
  }

  /// The twoBools catalog player's failure on its minimal case: `queue(A, paused)`, `ready(A#1)`.
  static func failure() throws -> FuzzFailure {
    let actions = try FailureFile.parse("queue(A, paused)\nready(A#1)\n")
    let failure = Fuzzer.check(BuggyPlayer(.twoBools).subject, actions)
    return try #require(failure)
  }

  @Test func savesUnderTheGivenDirectoryAndReadsBack() throws {
    let directory = Self.scratch() + "/Tests/Failures"
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let failure = try Self.failure()
    let path = try FailureFile.save(failure, in: directory)
    #expect(path == directory + "/twoBools-given.txt")
    let text = try String(contentsOfFile: path, encoding: .utf8)
    #expect(text == FailureFile.format(failure))
    let saved = try FailureFile.parseCase(text, file: path)
    #expect(saved.actions == failure.actions)
    #expect(Fuzzer.check(BuggyPlayer(.twoBools).subject, saved) != nil)
    #expect(Fuzzer.check(.player, saved) == nil)
  }

  @Test func neverOverwritesAnEarlierFailure() throws {
    let directory = Self.scratch()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let failure = try Self.failure()
    let first = try FailureFile.save(failure, in: directory)
    let second = try FailureFile.save(failure, in: directory)
    let third = try FailureFile.save(failure, in: directory)
    #expect(first.hasSuffix("/twoBools-given.txt"))
    #expect(second.hasSuffix("/twoBools-given-2.txt"))
    #expect(third.hasSuffix("/twoBools-given-3.txt"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory).count == 3)
  }

  @Test func aDirectoryThatIsAFileIsAClearError() throws {
    let file = Self.scratch()
    defer { try? FileManager.default.removeItem(atPath: file) }
    #expect(FileManager.default.createFile(atPath: file, contents: Data("x".utf8)))
    let failure = try Self.failure()
    do {
      try FailureFile.save(failure, in: file + "/Failures")
      Issue.record("saved under a regular file")
    } catch {
      #expect(error.path == file + "/Failures")
      #expect(error.description.hasPrefix("cannot save the failure to \(file)/Failures: "))
    }
    // The file in the way is left as it was.
    #expect(try String(contentsOfFile: file, encoding: .utf8) == "x")
  }
}
