import Foundation
import Testing

/// `player-sim fuzz --jobs N`: a random run's cases on N threads.
@Suite struct FuzzJobsCLITests {
  @Test func twoJobsPrintWhatOneJobPrints() throws {
    for jobs in ["1", "2"] {
      let output = try CLI.run([
        "fuzz", "--seed", "1", "--budget", "300", "--jobs", jobs, "--quiet",
      ])
      #expect(output.status == 0)
      #expect(output.stderr == "")
      #expect(
        output.lines.first?.hasPrefix("fuzz Player: seed 1, 300 cases, 4571 events in ") == true)
      #expect(
        output.lines.dropFirst().first
          == "passed: every property held; 237 of 333 declared transitions exercised")
    }
  }

  @Test(arguments: ["bash", "zsh", "fish"]) func jobsIsCompleted(_ shell: String) throws {
    let output = try CLI.run(["completions", shell])
    #expect(output.status == 0)
    #expect(output.stdout.contains(shell == "fish" ? "-l jobs" : "--jobs"))
  }

  @Test(arguments: [
    (
      ["fuzz", "--jobs", "0"],
      "player-sim: bad value '0' for '--jobs' of 'fuzz'; expected a whole number from 1 to 64"
    ),
    (
      ["fuzz", "--jobs", "two"],
      "player-sim: bad value 'two' for '--jobs' of 'fuzz'; expected a whole number from 1 to 64"
    ),
    (
      ["fuzz", "--jobs", "65"],
      "player-sim: bad value '65' for '--jobs' of 'fuzz'; expected a whole number from 1 to 64"
    ),
    (
      ["fuzz", "--jobs", "2", "--threads", "2"],
      "player-sim: '--jobs' and '--threads' of 'fuzz' cannot be combined; --jobs runs a random run's independent cases on several threads"
    ),
    (
      ["fuzz", "--jobs", "2", "--replay", "saved.txt"],
      "player-sim: '--jobs' and '--replay' of 'fuzz' cannot be combined; --jobs runs a random run's independent cases on several threads"
    ),
  ])
  func badJobsExitTwo(arguments: [String], message: String) throws {
    let output = try CLI.run(arguments)
    #expect(output.status == 2)
    #expect(output.stderr == message + "\n")
    #expect(output.stdout == "")
  }
}
