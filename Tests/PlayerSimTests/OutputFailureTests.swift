import Foundation
import Testing

/// Runs the built `player-sim` through `/bin/sh`, so a test can point its
/// standard output or error at `/dev/full` or close them (`>&-`, `2>&-`).
private enum RedirectedCLI {
  struct Outcome {
    /// The exit status, or the signal's number when `signalled`.
    var status: Int32
    var signalled: Bool
    /// What reached whichever stream was not redirected.
    var captured: String
  }

  /// `player-sim arguments…` with the shell redirections `redirect` (such as
  /// `>/dev/full`); the stream not redirected is captured: standard error
  /// when `capture` is `2`, standard output when `1`.
  static func run(_ arguments: [String], redirect: String, capture: Int32) throws -> Outcome {
    guard let binary = CLI.binary else { throw CLI.MissingBinary() }
    let captureURL = FileManager.default.temporaryDirectory.appendingPathComponent(
      "player-sim-redirect-\(UUID().uuidString)")
    _ = FileManager.default.createFile(atPath: captureURL.path, contents: nil)
    defer { try? FileManager.default.removeItem(at: captureURL) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    // "$0" is the binary, "$@" the arguments: nothing is parsed by the shell but the redirections.
    process.arguments = ["-c", "exec \"$0\" \"$@\" \(redirect)", binary.path] + arguments
    process.currentDirectoryURL = CLI.root
    var environment = ProcessInfo.processInfo.environment
    environment["NO_COLOR"] = "1"
    process.environment = environment
    let handle = try FileHandle(forWritingTo: captureURL)
    let null = try #require(FileHandle(forReadingAtPath: "/dev/null"))
    if capture == 1 { process.standardOutput = handle } else { process.standardError = handle }
    process.standardInput = null
    try process.run()
    process.waitUntilExit()
    try handle.close()
    return Outcome(
      status: process.terminationStatus,
      signalled: process.terminationReason == .uncaughtSignal,
      captured: String(decoding: try Data(contentsOf: captureURL), as: UTF8.self))
  }
}

/// Issue 23, R9: a write to standard output or error that fails ends the run
/// with exit status 2 and a best-effort message, never a trap (SIGILL was
/// the answer to a failed write to standard error) and never a silent 0 or 1
/// (a failed write to standard output was ignored).
@Suite("CLI: failed writes")
struct OutputFailureTests {
  static let script = "Examples/scenarios/duplicate-ready.play"

  @Test(arguments: ["2>/dev/full", "2>&-"])
  func anErrorThatCannotBeWrittenExitsTwoUntrapped(redirect: String) throws {
    let outcome = try RedirectedCLI.run(
      ["run", "no-such-file.play"], redirect: redirect, capture: 1)
    #expect(!outcome.signalled, "signal \(outcome.status)")
    #expect(outcome.status == 2)
    #expect(outcome.captured.isEmpty)
  }

  @Test(arguments: [
    ["run", "--json", script], ["run", script], ["--version"], ["diagram"],
    ["fuzz", "--seed", "1", "--budget", "20", "--json", "--quiet"],
  ])
  func outputThatCannotBeWrittenExitsTwo(arguments: [String]) throws {
    let outcome = try RedirectedCLI.run(arguments, redirect: ">/dev/full", capture: 2)
    #expect(!outcome.signalled, "signal \(outcome.status)")
    #expect(outcome.status == 2)
    #expect(outcome.captured.contains("player-sim: cannot write standard output"))
  }

  @Test func aFoundFailureWhoseReportCannotBeWrittenExitsTwoNotOne() throws {
    let arguments = ["fuzz", "--seed", "1", "--subject", "twoBools", "--json", "--quiet"]
    // Written, the failure exits 1; lost, nothing was concluded: 2.
    #expect(try CLI.run(arguments).status == 1)
    let outcome = try RedirectedCLI.run(arguments, redirect: ">/dev/full", capture: 2)
    #expect(!outcome.signalled, "signal \(outcome.status)")
    #expect(outcome.status == 2)
  }

  @Test func aClosedStandardOutputExitsTwo() throws {
    let outcome = try RedirectedCLI.run(["run", Self.script], redirect: ">&-", capture: 2)
    #expect(!outcome.signalled, "signal \(outcome.status)")
    #expect(outcome.status == 2)
    #expect(outcome.captured.contains("player-sim: cannot write standard output"))
  }

  @Test func bothStreamsFullStillExitTwoUntrapped() throws {
    let outcome = try RedirectedCLI.run(
      ["run", "--json", Self.script, "no-such-file.play"], redirect: ">/dev/full 2>/dev/full",
      capture: 1)
    #expect(!outcome.signalled, "signal \(outcome.status)")
    #expect(outcome.status == 2)
  }

  @Test func writesThatSucceedKeepTheirExitStatus() throws {
    let outcome = try RedirectedCLI.run(["run", Self.script], redirect: "2>/dev/null", capture: 1)
    #expect(outcome.status == 0)
    #expect(!outcome.captured.isEmpty)
  }
}
