import Foundation
import PlayerFuzz

/// One random fuzz run (`Fuzzer.run`) with progress on standard error.
struct FuzzRun {
  let subject: FuzzSubject
  let configuration: FuzzConfiguration
  let quiet: Bool

  func execute(save path: String?) -> ExitStatus {
    let progress = Progress(quiet: quiet, unit: "cases", found: "failures found")
    let result = Fuzzer.run(subject, configuration) { counts in
      progress.update(done: counts.cases, total: nil, found: 0)
    }
    progress.finish()
    Terminal.out(result.description)
    guard let failure = result.failure else { return result.passed ? .success : .failure }
    if let path {
      do {
        try Data(FailureFile.format(failure).utf8).write(to: URL(fileURLWithPath: path))
        Terminal.error("player-sim: saved the failure to \(path); replay it with --replay \(path)")
      } catch {
        Terminal.error("player-sim: cannot write '\(path)': \(error.localizedDescription)")
        return .usage
      }
    }
    return .failure
  }
}
