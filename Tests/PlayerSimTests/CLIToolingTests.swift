import Foundation
import PlayerEngine
import Testing

/// End to end: `--version`, `completions`, the `--json` lines of `fuzz` and
/// `explore`, and the exit statuses added by issue 14.
@Suite struct CLIToolingTests {
  @Test func versionComesFromOneConstant() throws {
    let output = try CLI.run(["--version"])
    #expect(output.status == 0)
    // Exactly the constant the release steps set (Sources/PlayerEngine/Version.swift).
    #expect(output.stdout == "player-sim " + playheadVersion + "\n")
    // A release version (`0.2.0`) or the next one in development (`0.3.0-dev`).
    #expect(playheadVersion.wholeMatch(of: /[0-9]+\.[0-9]+\.[0-9]+(-dev)?/) != nil)
    let extra = try CLI.run(["--version", "x"])
    #expect(extra.status == 2)
    #expect(
      extra.stderr == "player-sim: unexpected argument 'x' for '--version'; expected nothing\n")
  }

  @Test func bashCompletionsPassBashSyntaxCheck() throws {
    let output = try CLI.run(["completions", "bash"])
    #expect(output.status == 0)
    #expect(output.stdout.contains("complete -o default -F _player_sim player-sim"))
    #expect(output.stdout.contains("--require-coverage"))
    let script = try CLI.scratchFile("player-sim.bash", Data(output.stdout.utf8))
    let check = Process()
    check.executableURL = URL(fileURLWithPath: "/bin/bash")
    check.arguments = ["-n", script]
    try check.run()
    check.waitUntilExit()
    #expect(check.terminationStatus == 0)
  }

  @Test func bashCompletionsComplete() throws {
    let output = try CLI.run(["completions", "bash"])
    let script = try CLI.scratchFile("player-sim.bash", Data(output.stdout.utf8))
    // Sources the script and asks it what follows `player-sim fuzz --sub`.
    let probe = """
      source '\(script)'
      COMP_WORDS=(player-sim fuzz --sub); COMP_CWORD=2; _player_sim; echo "${COMPREPLY[*]}"
      COMP_WORDS=(player-sim ex); COMP_CWORD=1; _player_sim; echo "${COMPREPLY[*]}"
      COMP_WORDS=(player-sim diagram --format ''); COMP_CWORD=3; _player_sim; echo "${COMPREPLY[*]}"
      """
    let check = Process()
    check.executableURL = URL(fileURLWithPath: "/bin/bash")
    check.arguments = ["-c", probe]
    let pipe = Pipe()
    check.standardOutput = pipe
    try check.run()
    let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    check.waitUntilExit()
    #expect(text == "--subject\nexplore\ndot mermaid table\n")
  }

  @Test(arguments: ["zsh", "fish"]) func otherShells(_ shell: String) throws {
    let output = try CLI.run(["completions", shell])
    #expect(output.status == 0)
    #expect(output.stdout.contains(shell == "fish" ? "-l max-length" : "--max-length"))
    #expect(output.stdout.contains("twoBools"))
  }

  @Test func unknownShellIsUsage() throws {
    let output = try CLI.run(["completions", "tcsh"])
    #expect(output.status == 2)
    #expect(
      output.stderr
        == "player-sim: unknown shell 'tcsh' for 'completions'; expected one of bash, zsh, fish\n")
  }

  @Test func fuzzJSONFindsTheSeedsBugWithItsActions() throws {
    let output = try CLI.run([
      "fuzz", "--seed", "1", "--subject", "twoBools", "--json", "--quiet",
    ])
    #expect(output.status == 1)
    let lines = output.stdout.split(separator: "\n").map(String.init)
    #expect(lines.count == 2)
    let failure = try #require(try Self.object(lines[0])["failure"] as? [String: Any])
    #expect(
      Set(failure.keys) == [
        "subject", "property", "summary", "origin", "seed", "case", "violation", "actions",
        "original_length", "timeline", "test",
      ])
    #expect(failure["property"] as? String == "startOnlyWhenReadyAndWanted")
    #expect(failure["seed"] as? String == "1")
    #expect(
      failure["actions"] as? [String] == [
        "engine preload=no retry=off previous=0ms watchdog=2500ms", "queue(A, paused)",
        "ready(A#1)",
      ])
    let result = try #require(try Self.object(lines[1])["result"] as? [String: Any])
    #expect(result["passed"] as? Bool == false)
    #expect(result["seed"] as? String == "1")
    #expect(result["command"] as? String == "fuzz")
  }

  @Test func fuzzJSONPassingRunIsOneResultLine() throws {
    let output = try CLI.run(["fuzz", "--seed", "7", "--budget", "20", "--json", "--quiet"])
    #expect(output.status == 0)
    let lines = output.stdout.split(separator: "\n").map(String.init)
    #expect(lines.count == 1)
    let result = try #require(try Self.object(lines[0])["result"] as? [String: Any])
    #expect(
      Set(result.keys) == [
        "command", "mode", "subject", "seed", "budget", "cases", "events", "seconds", "exercised",
        "unexercised", "passed",
      ])
    #expect(result["cases"] as? Int == 20)
    #expect(result["passed"] as? Bool == true)
  }

  @Test func exploreJSONAndTheBoundedStatus() throws {
    let shallow = try CLI.run(["explore", "--depth", "2", "--json", "--quiet"])
    #expect(shallow.status == 0)  // no fixpoint at depth 2 with the queue alphabet, nothing broken
    let result = try #require(try Self.object(shallow.stdout)["result"] as? [String: Any])
    #expect(result["depth"] as? Int == 2)
    #expect(result["complete"] as? Bool == false)
    #expect(result["bounded"] as? Bool == false)
    #expect(result["passed"] as? Bool == true)

    let found = try CLI.run([
      "explore", "--depth", "4", "--subject", "stopNotSent", "--json", "--quiet",
    ])
    #expect(found.status == 1)
    let lines = found.stdout.split(separator: "\n").map(String.init)
    #expect(lines.count == 2)
    let failure = try #require(try Self.object(lines[0])["failure"] as? [String: Any])
    #expect(failure["origin"] as? String == "exhaustive search, depth 2")
  }

  @Test func explorationCutShortIsBoundedNotAFailure() throws {
    // 1 ms cannot finish depth 12: the run stops early with nothing broken.
    let output = try CLI.run(["explore", "--depth", "12", "--seconds", "0.001", "--quiet"])
    #expect(output.status == 3)
    #expect(output.lines.contains { $0.hasPrefix("bounded: --seconds ran out after depth ") })
    let json = try CLI.run(["explore", "--depth", "12", "--seconds", "0.001", "--json", "--quiet"])
    #expect(json.status == 3)
    let result = try #require(try Self.object(json.stdout)["result"] as? [String: Any])
    #expect(result["bounded"] as? Bool == true)
    #expect(result["max_depth"] as? Int == 12)
  }

  @Test func runJSONCarriesTheFullFailure() throws {
    let script =
      "media A\nmedia B\n" + String(repeating: "play A\nplay B\n", count: 200)
      + "expect commands none\n"
    let output = try CLI.run(["run", "--json", "-"], input: script)
    #expect(output.status == 1)
    let last = try #require(output.stdout.split(separator: "\n").last.map(String.init))
    let failure = try #require(try Self.object(last)["expect_failed"] as? [String: Any])
    #expect(failure["line"] as? Int == 403)
    let found = try #require(failure["found"] as? String)
    #expect(found.hasPrefix("commands load(A#1) stop(A#1) load(B#2)"))
    #expect(found.hasSuffix("stop(A#399) load(B#400)"))
    // Standard error gets the same failure, cut with a marker.
    #expect(output.stderr.contains("… ("))
    #expect(output.stderr.hasSuffix(" more characters)\n"))
  }

  static func object(_ line: String) throws -> [String: Any] {
    try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
  }
}
