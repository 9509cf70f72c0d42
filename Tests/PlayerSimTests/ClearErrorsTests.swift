import Foundation
import Testing

/// Errors that said too little or too late (issue 23, R13): each now names the
/// problem and the limit at once, with exit status 2, before any work is done.
@Suite struct ClearErrorsTests {
  @Test(arguments: [
    ("0", "<stdin>:2:44: error: attempt 0; expected an attempt from 1 to 255"),
    ("300", "<stdin>:2:44: error: number '300' too large; expected an attempt of at most 255"),
    (
      "99999999999",
      "<stdin>:2:44: error: number '99999999999' too large; expected an attempt of at most 255"
    ),
  ])
  func anAttemptNoStatePrintsIsAParseError(_ attempt: String, _ message: String) throws {
    let output = try CLI.run(
      ["run", "-"], input: "media A\nexpect state waiting(A#1, network, attempt \(attempt))\n")
    #expect(output.status == 2)
    #expect(output.stderr.hasPrefix(message), "\(output.stderr)")
  }

  @Test(arguments: [
    (
      "failed A#1 network",
      "2:19: error: found 'network'; expected an option key=value, such as reason=network"
    ),
    ("ready A#1 3s", "2:18: error: found '3s'; expected an option key=value, such as duration=3s"),
    ("timeout A#1 2", "2:20: error: found '2'; expected an option key=value, such as watchdog=2"),
    ("seeked A#1 1", "2:19: error: found '1'; expected an option key=value, such as seek=1"),
    (
      "stalled A#1 now",
      "2:20: error: found 'now'; expected the end of the line ('stalled' takes no option)"
    ),
    (
      "position A#1 2s soon",
      "2:24: error: found 'soon'; expected the end of the line ('position' takes no option)"
    ),
  ])
  func aReportOptionErrorGivesItsOwnKindsExample(_ line: String, _ message: String) throws {
    let output = try CLI.run(["run", "-"], input: "media A\nreport \(line)\n")
    #expect(output.status == 2)
    #expect(output.stderr.hasPrefix("<stdin>:" + message), "\(output.stderr)")
  }

  @Test(arguments: [
    (["explore", "--seconds", "99999999"], "'--seconds' of 'explore'"),
    (["fuzz", "--budget", "10000001s"], "'--budget' of 'fuzz'"),
  ])
  func theSecondsLimitIsSaid(_ arguments: [String], _ flag: String) throws {
    let output = try CLI.run(arguments)
    #expect(output.status == 2)
    #expect(
      output.stderr
        == "player-sim: bad value '\(arguments[2])' for \(flag); expected at most 10000000 seconds (about 115 days)\n"
    )
    let zero = try CLI.run([arguments[0], arguments[1], arguments[0] == "fuzz" ? "0s" : "0"])
    #expect(zero.stderr.contains("(at most 10000000 seconds)"), "\(zero.stderr)")
  }

  /// Runs `player-sim` through the shell, for redirections `Process` cannot make.
  static func shell(_ command: String) throws -> (status: Int32, stderr: String) {
    let binary = try #require(CLI.binary)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", command.replacingOccurrences(of: "player-sim", with: binary.path)]
    let err = Pipe()
    process.standardError = err
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    let data = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }

  @Test func aDirectoryOnStandardInputIsSaidSo() throws {
    let directory = FileManager.default.temporaryDirectory.path
    let output = try Self.shell("player-sim run - < '\(directory)'")
    #expect(output.status == 2)
    #expect(
      output.stderr
        == "<stdin>:1:1: error: a directory on standard input; expected a scenario file\n")
  }

  @Test func aClosedStandardInputIsSaidSo() throws {
    let output = try Self.shell("player-sim run - <&-")
    #expect(output.status == 2)
    #expect(
      output.stderr.hasPrefix("<stdin>:1:1: error: standard input is closed"), "\(output.stderr)")
  }

  @Test(arguments: [
    ("", "expected a file path, such as failure.txt"),
    ("/", "it is a directory; expected a file path"),
    ("/no/such/directory/failure.txt", "no directory '/no/such/directory'"),
  ])
  func aSavePathIsCheckedBeforeTheRun(_ path: String, _ message: String) throws {
    // A budget of a million cases: the error must come before any of them.
    let output = try CLI.run(["fuzz", "--seed", "1", "--budget", "1000000", "--save", path])
    #expect(output.status == 2)
    #expect(output.stdout == "")
    #expect(output.stderr.hasPrefix("player-sim: bad value '\(path)' for '--save' of 'fuzz'; "))
    #expect(output.stderr.contains(message), "\(output.stderr)")
  }

  @Test func aFailureFoundStaysExitOneWhenItCannotBeSaved() throws {
    let output = try CLI.run([
      "fuzz", "--seed", "1", "--subject", "twoBools", "--save", "/dev/full", "--quiet",
    ])
    #expect(output.status == 1)
    #expect(output.stderr.contains("the failure above was not saved: cannot write '/dev/full'"))
  }

  @Test(arguments: [
    ["fuzz", "--shard", "0/2", "--shard", "1/2"],
    ["fuzz", "--seed", "1", "--seed=2"],
    ["run", "--seed", "1", "--seed", "1", "x.play"],
  ])
  func aFlagGivenTwiceIsRefused(_ arguments: [String]) throws {
    let output = try CLI.run(arguments)
    let flag = arguments[1]
    #expect(output.status == 2)
    #expect(
      output.stderr.hasPrefix("player-sim: flag '\(flag)' of '\(arguments[0])' given twice"),
      "\(output.stderr)")
  }

  @Test func aSwitchGivenTwiceIsHarmless() throws {
    let path = try CLI.scratchFile("a.play", Data("media A\n".utf8))
    #expect(try CLI.run(["run", "--quiet", "--quiet", path]).status == 0)
  }
}
