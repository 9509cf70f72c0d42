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
  /// The reducer in place, `handle(_:into:)`: the driver's form.
  var reducerInPlace = Sample()
  var reducerInPlaceOverNaive = Sample()
  var reducerInPlaceAllocations: UInt64?
  /// The reducer in place with each step's notifications and now playing
  /// derived (issue 22), and with the available commands too.
  var controls = Sample()
  var controlsWithCommands = Sample()
  var controlsAllocations: UInt64?
  /// Heap allocations of the reducer per class of event (``EventKind`` order),
  /// and how many events of each class the stream holds.
  var reducerAllocationsByKind: [UInt64]?
  var eventsByKind: [Int] = []
  var queueMix = QueueStream.Mix()
  var queueReducer = Sample()
  var queueReducerInPlace = Sample()
  var queueDriver = Sample()
  var queueAllocationsByKind: [UInt64]?
  var queueEventsByKind: [Int] = []
  /// The crossfade stream (issue 37, item 3): its mix, rates and allocations.
  var crossfadeMix = CrossfadeStream.Mix()
  var crossfadeReducer = Sample()
  var crossfadeReducerInPlace = Sample()
  var crossfadeDriver = Sample()
  var crossfadeAllocations: Workloads.CrossfadeAllocations?
  /// The live stream (issue 38): its mix, rates and allocations.
  var liveMix = LiveStream.Mix()
  var liveReducer = Sample()
  var liveReducerInPlace = Sample()
  var liveDriver = Sample()
  var liveAllocations: Workloads.LiveAllocations?
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
      ("Load", MemoryLayout<Load>.size, MemoryLayout<Load>.stride),
      ("Session", MemoryLayout<Session>.size, MemoryLayout<Session>.stride),
      ("PlayQueue", MemoryLayout<PlayQueue>.size, MemoryLayout<PlayQueue>.stride),
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
    switch workload {
    case .queue, .queueInPlace, .queueDriver:
      let events = QueueStream.generate(count: options.events, seed: options.seed).events
      switch workload {
      case .queueInPlace: return Workloads.queueReducerInPlace(events)
      case .queueDriver: return Workloads.queueDriver(events)
      default: return Workloads.queueReducer(events)
      }
    case .crossfade, .crossfadeInPlace, .crossfadeDriver:
      let events = CrossfadeStream.generate(count: options.events, seed: options.seed).events
      switch workload {
      case .crossfadeInPlace: return Workloads.crossfadeReducerInPlace(events)
      case .crossfadeDriver: return Workloads.crossfadeDriver(events)
      default: return Workloads.crossfadeReducer(events)
      }
    case .live, .liveInPlace, .liveDriver:
      let events = LiveStream.generate(count: options.events, seed: options.seed).events
      switch workload {
      case .liveInPlace: return Workloads.liveReducerInPlace(events)
      case .liveDriver: return Workloads.liveDriver(events)
      default: return Workloads.liveReducer(events)
      }
    case .reducer, .inPlace, .driver, .naive:
      let events = EventStream.generate(count: options.events, seed: options.seed).events
      switch workload {
      case .inPlace: return Workloads.reducerInPlace(events)
      case .driver: return Workloads.driver(events)
      case .naive: return Workloads.naive(events)
      default: return Workloads.reducer(events)
      }
    }
  }

  func run() -> Results {
    var results = Results(options: options)
    progress("generating \(options.events) events (seed \(options.seed))")
    let stream = EventStream.generate(count: options.events, seed: options.seed)
    let events = stream.events
    results.mix = stream.mix
    progress("generating \(options.events) queue events (seed \(options.seed))")
    let queueStream = QueueStream.generate(count: options.events, seed: options.seed)
    let queueEvents = queueStream.events
    results.queueMix = queueStream.mix
    progress("generating \(options.events) crossfade events (seed \(options.seed))")
    let crossfadeStream = CrossfadeStream.generate(count: options.events, seed: options.seed)
    let crossfadeEvents = crossfadeStream.events
    results.crossfadeMix = crossfadeStream.mix
    progress("generating \(options.events) live events (seed \(options.seed))")
    let liveStream = LiveStream.generate(count: options.events, seed: options.seed)
    let liveEvents = liveStream.events
    results.liveMix = liveStream.mix

    // Counted before any thread is started: the counter is process-wide.
    progress("counting allocations")
    var checksum: UInt64 = 0
    results.reducerAllocations = AllocationCounter.count { checksum &+= Workloads.reducer(events) }
    results.driverAllocations = AllocationCounter.count { checksum &+= Workloads.driver(events) }
    results.naiveAllocations = AllocationCounter.count { checksum &+= Workloads.naive(events) }
    results.reducerInPlaceAllocations = AllocationCounter.count {
      checksum &+= Workloads.reducerInPlace(events)
    }
    results.controlsAllocations = AllocationCounter.count {
      checksum &+= Workloads.controls(events)
    }
    results.reducerAllocationsByKind = Workloads.allocationsByKind(events, from: PlaybackState())
    results.eventsByKind = events.countsByKind
    results.queueAllocationsByKind = Workloads.allocationsByKind(
      queueEvents, from: QueueStream.initialState)
    results.queueEventsByKind = queueEvents.countsByKind
    results.crossfadeAllocations = Workloads.crossfadeAllocations(crossfadeStream)
    results.liveAllocations = Workloads.liveAllocations(liveStream)

    let count = events.count
    for round in 1...options.runs {
      progress("round \(round)/\(options.runs)")
      let reducer = eventsPerSecond(count) { checksum &+= Workloads.reducer(events) }
      let driver = eventsPerSecond(count) { checksum &+= Workloads.driver(events) }
      let naive = eventsPerSecond(count) { checksum &+= Workloads.naive(events) }
      let inPlace = eventsPerSecond(count) { checksum &+= Workloads.reducerInPlace(events) }
      let controls = eventsPerSecond(count) { checksum &+= Workloads.controls(events) }
      let withCommands = eventsPerSecond(count) {
        checksum &+= Workloads.controls(events, commands: true)
      }
      let queueReducer = eventsPerSecond(count) { checksum &+= Workloads.queueReducer(queueEvents) }
      let queueInPlace = eventsPerSecond(count) {
        checksum &+= Workloads.queueReducerInPlace(queueEvents)
      }
      let queueDriver = eventsPerSecond(count) { checksum &+= Workloads.queueDriver(queueEvents) }
      let crossfadeReducer = eventsPerSecond(count) {
        checksum &+= Workloads.crossfadeReducer(crossfadeEvents)
      }
      let crossfadeInPlace = eventsPerSecond(count) {
        checksum &+= Workloads.crossfadeReducerInPlace(crossfadeEvents)
      }
      let crossfadeDriver = eventsPerSecond(count) {
        checksum &+= Workloads.crossfadeDriver(crossfadeEvents)
      }
      let liveReducer = eventsPerSecond(count) { checksum &+= Workloads.liveReducer(liveEvents) }
      let liveInPlace = eventsPerSecond(count) {
        checksum &+= Workloads.liveReducerInPlace(liveEvents)
      }
      let liveDriver = eventsPerSecond(count) { checksum &+= Workloads.liveDriver(liveEvents) }
      let threaded = Workloads.driver(events, threads: options.threads)
      results.reducer.add(reducer)
      results.driver.add(driver)
      results.naive.add(naive)
      results.driverOverNaive.add(driver / naive)
      results.reducerOverNaive.add(reducer / naive)
      results.reducerInPlace.add(inPlace)
      results.controls.add(controls)
      results.controlsWithCommands.add(withCommands)
      results.reducerInPlaceOverNaive.add(inPlace / naive)
      results.queueReducer.add(queueReducer)
      results.queueReducerInPlace.add(queueInPlace)
      results.queueDriver.add(queueDriver)
      results.crossfadeReducer.add(crossfadeReducer)
      results.crossfadeReducerInPlace.add(crossfadeInPlace)
      results.crossfadeDriver.add(crossfadeDriver)
      results.liveReducer.add(liveReducer)
      results.liveReducerInPlace.add(liveInPlace)
      results.liveDriver.add(liveDriver)
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
