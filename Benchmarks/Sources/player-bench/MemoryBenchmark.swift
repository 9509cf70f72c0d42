import Foundation
import PlayerEngine
import PlayerState

/// What the driver's memory promises cost, measured (docs/memory.md):
/// a burst of queued events and whether its memory is given back, a flood
/// from many threads, and a subscriber that never reads each stream.
struct MemoryFigures {
  /// A burst queued at once: an engine that sends `events` reports from
  /// inside one `execute`, so every one of them waits in the queue.
  struct Burst {
    var events: Int
    /// Heap bytes held while the whole burst was queued, over the baseline.
    var heapAtPeak: Int?
    /// Heap bytes still held once `send` returned (the burst drained).
    var heapAfterDrain: Int?
    var capacityAtPeak: Int
    var capacityAfterDrain: Int
    var processed: UInt64
  }

  /// A burst queued at once, then a backlog that never empties: each
  /// processed event sends one more while at most `backlog` wait. Only an
  /// empty queue frees its buffer; this measures whether compaction gives
  /// the peak back.
  struct Steady {
    var peak: Int
    var backlog: Int
    /// Events sent to hold the backlog.
    var refills: Int
    var capacityAtPeak: Int
    /// The largest buffer over the second half of the refills.
    var capacityInSteadyState: Int
    /// The fewest events queued over the second half of the refills.
    var queuedInSteadyState: Int
    /// Heap bytes over the baseline at the last refill, the backlog still queued.
    var heapInSteadyState: Int?
    var processed: UInt64
  }

  /// Several threads sending as fast as they can to one player.
  struct Flood {
    var threads: Int
    var sends: Int
    var processed: UInt64
    var maxQueued: Int
    /// The most bytes resident at once during the flood, over the baseline.
    var peakResident: Int?
    /// Bytes resident once every sender returned, over the baseline.
    var residentAfterDrain: Int?
    /// Bytes resident after the C heap was asked to return its free memory.
    var residentAfterTrim: Int?
    var heapAfterDrain: Int?
    var capacityAfterDrain: Int
  }

  /// A subscriber that never reads: how many elements its stream buffers
  /// and what each costs.
  struct Subscriber {
    var stream: String
    var policy: String
    /// Elements the player published to the stream.
    var published: Int
    /// Elements still buffered (published minus dropped).
    var buffered: Int
    var heapWhileBuffered: Int?
    var heapAfterCancel: Int?

    var bytesPerElement: Double? {
      heapWhileBuffered.map { buffered == 0 ? 0 : Double($0) / Double(buffered) }
    }
  }

  /// Size and stride in bytes of what the queue and the streams hold: an
  /// array element takes the stride.
  var sizes: [(name: String, size: Int, stride: Int)] = [
    ("PlaybackEvent", MemoryLayout<PlaybackEvent>.size, MemoryLayout<PlaybackEvent>.stride),
    ("PlaybackState", MemoryLayout<PlaybackState>.size, MemoryLayout<PlaybackState>.stride),
    ("PlayerStep", MemoryLayout<PlayerStep>.size, MemoryLayout<PlayerStep>.stride),
    ("IgnoredReport", MemoryLayout<IgnoredReport>.size, MemoryLayout<IgnoredReport>.stride),
  ]
  var retainedCapacity = Player.retainedQueueCapacityForTesting
  var defaultBufferLimit = Player.defaultBufferLimit
  var burst: Burst
  var steady: Steady
  var flood: Flood
  var subscribers: [Subscriber]
}

enum MemoryBenchmark {
  static func run(_ options: Options, progress: (String) -> Void) -> MemoryFigures {
    progress("memory: a burst of \(options.burstEvents) queued events")
    let burst = burst(events: options.burstEvents)
    progress("memory: a backlog of 100 held after that burst")
    let steady = steady(peak: options.burstEvents, backlog: 100, refills: 100_000)
    progress("memory: \(options.threads) threads x \(options.floodSends) sends")
    let flood = flood(threads: options.threads, sendsPerThread: options.floodSends)
    if ProcessInfo.processInfo.environment["DBG"] != nil {
      for _ in 0..<3 {
        let f = Self.flood(threads: options.threads, sendsPerThread: options.floodSends)
        print("again", f.residentAfterDrain ?? 0, f.residentAfterTrim ?? 0, f.peakResident ?? 0)
      }
      print(ProcessMemory.resident() ?? 0)
      let smaps = (try? String(contentsOfFile: "/proc/self/smaps", encoding: .utf8)) ?? ""
      var current = ""
      for line in smaps.split(separator: "\n") {
        if line.first?.isHexDigit == true && line.contains("-") { current = String(line) }
        if line.hasPrefix("Rss:") {
          let kb = Int(line.split(whereSeparator: \.isWhitespace)[1]) ?? 0
          if kb > 300 { print(kb, current) }
        }
      }
    }
    progress("memory: subscribers that never read")
    var subscribers: [MemoryFigures.Subscriber] = []
    for policy in [StreamProbe.Policy.default, .unbounded] {
      for stream in StreamProbe.Stream.allCases {
        subscribers.append(StreamProbe.measure(stream, policy, rounds: options.subscriberEvents))
      }
    }
    return MemoryFigures(burst: burst, steady: steady, flood: flood, subscribers: subscribers)
  }

  /// An engine that, asked to load, reports `ready` for that load `count`
  /// times from inside `execute`, where the player is busy, so that all of
  /// them are queued at once; then it reads the heap and the queue.
  private final class BurstEngine: PlaybackEngine {
    struct Reading {
      var heap: Int?
      var capacity = 0
    }
    let count: Int
    let player = Locked<Player?>(nil)
    let reading = Locked(Reading())

    init(count: Int) { self.count = count }

    func execute(_ command: EngineCommand, reports: ReportSink) {
      guard case .load(let request) = command else { return }
      for _ in 0..<count { reports.send(.ready(request.load)) }
      let capacity = player.withLock { $0?.pendingCapacityForTesting } ?? 0
      let heap = ProcessMemory.heapInUse()
      reading.withLock { $0 = Reading(heap: heap, capacity: capacity) }
    }
  }

  static func burst(events: Int) -> MemoryFigures.Burst {
    let engine = BurstEngine(count: events)
    let player = Player(engine: engine)
    engine.player.withLock { $0 = player }
    let before = ProcessMemory.heapInUse()
    player.send(.play("A"))
    let after = ProcessMemory.heapInUse()
    let peak = engine.reading.withLock { $0 }
    engine.player.withLock { $0 = nil }
    return MemoryFigures.Burst(
      events: events, heapAtPeak: difference(peak.heap, before),
      heapAfterDrain: difference(after, before), capacityAtPeak: peak.capacity,
      capacityAfterDrain: player.pendingCapacityForTesting,
      processed: player.statistics.processed)
  }

  /// The burst of ``burst(events:)``, then, from `onStep` (so each send is
  /// queued behind the event being processed), one more report for every
  /// processed event while at most `backlog` are queued, `refills` times.
  static func steady(peak: Int, backlog: Int, refills: Int) -> MemoryFigures.Steady {
    struct Probe {
      var peakCapacity = 0
      var refills = 0
      var steadyCapacity = 0
      var steadyQueued = Int.max
      var heap: Int?
    }
    let engine = BurstEngine(count: peak)
    let current = Locked<Player?>(nil)
    let probe = Locked(Probe())
    let player = Player(engine: engine) { _ in
      guard let player = current.withLock({ $0 }) else { return }
      let queued = player.pendingCountForTesting
      let capacity = player.pendingCapacityForTesting
      let refill = probe.withLock { probe -> Bool in
        probe.peakCapacity = max(probe.peakCapacity, capacity)
        guard queued <= backlog, probe.refills < refills else { return false }
        probe.refills += 1
        if probe.refills > refills / 2 {
          probe.steadyCapacity = max(probe.steadyCapacity, capacity)
          probe.steadyQueued = min(probe.steadyQueued, queued)
        }
        return true
      }
      guard refill else { return }
      player.send(.pause)  // acted on once, then `noEffect`: no command
      if probe.withLock({ $0.refills }) == refills {
        let heap = ProcessMemory.heapInUse()
        probe.withLock { $0.heap = heap }
      }
    }
    engine.player.withLock { $0 = player }
    current.withLock { $0 = player }
    let before = ProcessMemory.heapInUse()
    player.send(.play("A"))
    current.withLock { $0 = nil }
    engine.player.withLock { $0 = nil }
    let seen = probe.withLock { $0 }
    return MemoryFigures.Steady(
      peak: peak, backlog: backlog, refills: seen.refills,
      capacityAtPeak: max(seen.peakCapacity, engine.reading.withLock { $0.capacity }),
      capacityInSteadyState: seen.steadyCapacity,
      queuedInSteadyState: seen.steadyQueued == Int.max ? 0 : seen.steadyQueued,
      heapInSteadyState: difference(seen.heap, before), processed: player.statistics.processed)
  }

  /// `threads` threads, released together, each sending `sendsPerThread`
  /// events from a small cycle (so the events themselves take no memory).
  static func flood(threads: Int, sendsPerThread: Int) -> MemoryFigures.Flood {
    let player = Player(engine: NoOpEngine())
    let cycle: [PlaybackEvent] = [
      .play("A"), .ready(Load(1, 1)), .pause, .resume, .stalled(Load(1, 1)),
      .resumed(Load(1, 1)), .seek(to: .seconds(1)), .ready(Load(1, 99)), .stop,
    ]
    let ready = DispatchSemaphore(value: 0)
    let go = DispatchSemaphore(value: 0)
    let done = DispatchSemaphore(value: 0)
    for _ in 0..<threads {
      Thread {
        ready.signal()
        go.wait()
        for index in 0..<sendsPerThread { player.send(cycle[index % cycle.count]) }
        done.signal()
      }.start()
    }
    for _ in 0..<threads { ready.wait() }
    let residentBefore = ProcessMemory.resident()
    let heapBefore = ProcessMemory.heapInUse()
    let peakReset = ProcessMemory.resetPeak()
    for _ in 0..<threads { go.signal() }
    for _ in 0..<threads { done.wait() }
    let peak = peakReset ? ProcessMemory.peakResident() : nil
    let statistics = player.statistics
    let residentAfterDrain = difference(ProcessMemory.resident(), residentBefore)
    let heapAfterDrain = difference(ProcessMemory.heapInUse(), heapBefore)
    let trimmed = ProcessMemory.trimHeap()
    return MemoryFigures.Flood(
      threads: threads, sends: threads * sendsPerThread, processed: statistics.processed,
      maxQueued: statistics.maxQueued, peakResident: difference(peak, residentBefore),
      residentAfterDrain: residentAfterDrain,
      residentAfterTrim: trimmed ? difference(ProcessMemory.resident(), residentBefore) : nil,
      heapAfterDrain: heapAfterDrain,
      capacityAfterDrain: player.pendingCapacityForTesting)
  }

  static func difference(_ value: Int?, _ baseline: Int?) -> Int? {
    guard let value, let baseline else { return nil }
    return value - baseline
  }
}
