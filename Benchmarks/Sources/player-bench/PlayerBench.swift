import Foundation

/// `swift run -c release player-bench [--json] [--smoke]`: the figures of
/// issue 5, printed as a table or as one JSON object.
@main
struct PlayerBench {
  static func main() {
    let options: Options
    do {
      options = try Options.parse(Array(CommandLine.arguments.dropFirst()))
    } catch {
      printError("player-bench: \(error)")
      exit(2)
    }
    if options.help {
      print(Options.usage)
      return
    }
    #if DEBUG
      printError("player-bench: warning: debug build; build with -c release for real figures")
    #endif
    if let workload = options.profile {
      print(Benchmark.profile(workload, options: options))
      return
    }
    if options.queueEditsOnly {
      let progress = { (line: String) in printError("player-bench: \(line)") }
      let timings = QueueEditBenchmark.timings(sizes: options.queueEditSizes, progress: progress)
      let stalled = options.stalledQueueSizes.map { entries in
        progress("queue edits: a stalled subscriber over \(entries) entries")
        return QueueEditBenchmark.stalled(entries: entries, edits: options.smoke ? 200 : 3_000)
      }
      print(QueueEditBenchmark.table(timings, stalled), terminator: "")
      return
    }
    if options.memoryOnly {
      let memory = MemoryBenchmark.run(options) { printError("player-bench: \($0)") }
      print(options.json ? MemoryReport.json(memory) : MemoryReport.table(memory), terminator: "")
      return
    }
    // Fail before minutes of measuring, not after.
    if let path = options.jsonFile, !FileManager.default.createFile(atPath: path, contents: nil) {
      printError("player-bench: --json-file \(path): cannot create the file")
      exit(1)
    }
    // First, while the heap is small: a reader's peak must not hide in freed memory.
    let readerMemory = ReaderMemory.measure(smoke: options.smoke)
    let benchmark = Benchmark(options: options) { printError("player-bench: \($0)") }
    let results = benchmark.run()
    if let path = options.jsonFile {
      do {
        try Report.json(results).write(toFile: path, atomically: true, encoding: .utf8)
      } catch {
        printError("player-bench: --json-file \(path): cannot write: \(error.localizedDescription)")
        exit(1)
      }
    }
    print(options.json ? Report.json(results) : Report.table(results), terminator: "")
    if !options.json { print(ReaderMemory.table(readerMemory), terminator: "") }
  }

  /// Writes one line to standard error: progress and errors, never results.
  static func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
  }
}
