import PlayerEngine
import PlayerState

/// Everything one run of the benchmark measured.
struct Results {
  var options: Options
  var mix = EventStream.Mix()
  var reducer = Sample()
  var driver = Sample()
  var driverThreaded = Sample()
  var naive = Sample()
  /// Per round, Playhead's driver rate over the naive rate: a paired ratio
  /// that cancels most of the noise a shared machine adds to both.
  var driverOverNaive = Sample()
  var reducerOverNaive = Sample()
  var reducerAllocations: UInt64?
  var driverAllocations: UInt64?
  var naiveAllocations: UInt64?
  /// Events sent from the threads that the player did not process, summed over rounds.
  var lostEvents: UInt64 = 0
  var maxQueued = 0
  var checksum: UInt64 = 0
  var fuzz: FuzzFigures?
  var memory: MemoryFigures?

  /// Each value's size and stride, in bytes: the size is what a value
  /// takes alone, the stride what it takes in an array (the size rounded up
  /// to its alignment).
  var sizes: [(name: String, size: Int, stride: Int)] {
    [
      ("PlaybackState", MemoryLayout<PlaybackState>.size, MemoryLayout<PlaybackState>.stride),
      ("PlaybackEvent", MemoryLayout<PlaybackEvent>.size, MemoryLayout<PlaybackEvent>.stride),
      ("Transition", MemoryLayout<Transition>.size, MemoryLayout<Transition>.stride),
      ("EngineCommand", MemoryLayout<EngineCommand>.size, MemoryLayout<EngineCommand>.stride),
    ]
  }
}

/// Runs every workload on one stream, interleaved round by round so that a
/// noisy neighbour slows all of them alike and the ratios hold.
struct Benchmark {
  let options: Options
  let progress: (String) -> Void

  /// Runs one workload once over the stream, untimed, and returns its checksum.
  static func profile(_ workload: Options.Workload, options: Options) -> UInt64 {
    let events = EventStream.generate(count: options.events, seed: options.seed).events
    switch workload {
    case .reducer: return Workloads.reducer(events)
    case .driver: return Workloads.driver(events)
    case .naive: return Workloads.naive(events)
    }
  }

  func run() -> Results {
    var results = Results(options: options)
    progress("generating \(options.events) events (seed \(options.seed))")
    let stream = EventStream.generate(count: options.events, seed: options.seed)
    let events = stream.events
    results.mix = stream.mix

    // Counted before any thread is started: the counter is process-wide.
    progress("counting allocations")
    var checksum: UInt64 = 0
    results.reducerAllocations = AllocationCounter.count { checksum &+= Workloads.reducer(events) }
    results.driverAllocations = AllocationCounter.count { checksum &+= Workloads.driver(events) }
    results.naiveAllocations = AllocationCounter.count { checksum &+= Workloads.naive(events) }

    let count = events.count
    for round in 1...options.runs {
      progress("round \(round)/\(options.runs)")
      let reducer = eventsPerSecond(count) { checksum &+= Workloads.reducer(events) }
      let driver = eventsPerSecond(count) { checksum &+= Workloads.driver(events) }
      let naive = eventsPerSecond(count) { checksum &+= Workloads.naive(events) }
      let threaded = Workloads.driver(events, threads: options.threads)
      results.reducer.add(reducer)
      results.driver.add(driver)
      results.naive.add(naive)
      results.driverOverNaive.add(driver / naive)
      results.reducerOverNaive.add(reducer / naive)
      results.driverThreaded.add(Double(count) / threaded.elapsed.seconds)
      results.lostEvents += UInt64(count) - min(UInt64(count), threaded.processed)
      results.maxQueued = max(results.maxQueued, threaded.maxQueued)
      checksum &+= threaded.processed
    }
    results.checksum = checksum

    progress("fuzz figures")
    results.fuzz = FuzzBenchmark.run(options, progress: progress)
    results.memory = MemoryBenchmark.run(options, progress: progress)
    return results
  }
}
