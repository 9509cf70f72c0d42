import Dispatch
import Foundation
import MallocCounter
import PlayerEngine
import PlayerState

/// An engine that does nothing: what remains is the cost of Playhead itself.
struct NoOpEngine: PlaybackEngine {
  func execute(_ command: EngineCommand, reports: ReportSink) {}
}

/// An engine that does nothing and declares `.preload`, for the queue workload.
struct NoOpPreloadingEngine: PlaybackEngine {
  var capabilities: EngineCapabilities { .preload }
  func execute(_ command: EngineCommand, reports: ReportSink) {}
}

/// An engine that does nothing and declares `.preload` and `.volumeRamp`, so
/// the driver keeps a crossfade (it turns one off for an engine without both).
struct NoOpCrossfadingEngine: PlaybackEngine {
  var capabilities: EngineCapabilities { [.preload, .volumeRamp] }
  func execute(_ command: EngineCommand, reports: ReportSink) {}
}

/// The workloads the benchmark times, each fed the same pre-generated events.
/// Each returns a checksum that the benchmark prints, so that the optimizer
/// cannot drop the work.
enum Workloads {
  /// The pure reducer, from idle, over every event.
  ///
  /// Only `transition(on:)` is timed: the commands are not read, because
  /// reading `commands.count` costs more than the reduction itself today
  /// (see docs/benchmarks.md); whether an event was accepted feeds the checksum.
  static func reducer(
    _ events: [PlaybackEvent], from start: PlaybackState = PlaybackState()
  ) -> UInt64 {
    var state = start
    var checksum: UInt64 = 0
    for event in events {
      let transition = state.transition(on: event)
      checksum &+= transition.ignored == nil ? 1 : 0
      state = transition.next
    }
    return checksum &+ UInt64(state.issuedLoads)
  }

  /// The reducer in place, `handle(_:into:)`, from idle, over every event:
  /// the form the driver uses, with no state copied per event.
  static func reducerInPlace(
    _ events: [PlaybackEvent], from start: PlaybackState = PlaybackState()
  ) -> UInt64 {
    var state = start
    var effects = Effects()
    var checksum: UInt64 = 0
    for event in events {
      state.handle(event, into: &effects)
      checksum &+= effects.ignored == nil ? 1 : 0
    }
    return checksum &+ UInt64(state.issuedLoads)
  }

  /// The reducer in place plus what a remote control reads from each step
  /// (issue 22): the step's ``Notifications`` and ``PlaybackState/nowPlaying``;
  /// with `commands`, also ``PlaybackState/availableCommands`` (O(1), read from the rules' guards).
  static func controls(
    _ events: [PlaybackEvent], commands: Bool = false, from start: PlaybackState = PlaybackState()
  ) -> UInt64 {
    var state = start
    var effects = Effects()
    var checksum: UInt64 = 0
    for event in events {
      let before = state
      state.handle(event, into: &effects)
      let notifications = Notifications(
        before: before, event: event, after: state, ignored: effects.ignored)
      if let change = notifications.entryChanged, case .entryChanged = change.kind {
        checksum &+= 3
      }
      if notifications.queueEnded != nil { checksum &+= 5 }
      if notifications.playIntentChanged != nil { checksum &+= 7 }
      if let now = state.nowPlaying { checksum &+= UInt64(bitPattern: now.elapsed.milliseconds) }
      if commands { checksum &+= UInt64(state.availableCommands.rawValue) }
    }
    return checksum &+ UInt64(state.issuedLoads)
  }

  /// The pure reducer over the queue stream, from ``QueueStream/initialState``.
  static func queueReducer(_ events: [PlaybackEvent]) -> UInt64 {
    reducer(events, from: QueueStream.initialState)
  }

  /// The reducer in place over the queue stream: `handle(_:into:)`.
  static func queueReducerInPlace(_ events: [PlaybackEvent]) -> UInt64 {
    reducerInPlace(events, from: QueueStream.initialState)
  }

  /// The driver over the queue stream, with a no-op engine that preloads.
  static func queueDriver(_ events: [PlaybackEvent]) -> UInt64 {
    let player = Player(engine: NoOpPreloadingEngine())
    for event in events { player.send(event) }
    let statistics = player.statistics
    return statistics.processed &+ statistics.ignoredReports &+ UInt64(player.state.issuedLoads)
  }

  /// The pure reducer over the crossfade stream, from ``CrossfadeStream/initialState``.
  static func crossfadeReducer(_ events: [PlaybackEvent]) -> UInt64 {
    reducer(events, from: CrossfadeStream.initialState)
  }

  /// The reducer in place over the crossfade stream: `handle(_:into:)`.
  static func crossfadeReducerInPlace(_ events: [PlaybackEvent]) -> UInt64 {
    reducerInPlace(events, from: CrossfadeStream.initialState)
  }

  /// Timers for the crossfade driver that never fire: the stream carries its
  /// own timer expiries (the fade's end among them), as it does for the
  /// reducer, so the run stays the same events in the same order. Without a
  /// policy the driver would arm a Dispatch timer for each fade, whose late
  /// expiry would land during the measurement from another thread.
  static let streamTimers = WatchdogPolicy(timeout: .seconds(3_600), now: { .zero }) { _, _ in
    .uncancellable
  }

  /// The driver over the crossfade stream, with a no-op engine that preloads
  /// and ramps and ``streamTimers``.
  static func crossfadeDriver(_ events: [PlaybackEvent]) -> UInt64 {
    let player = Player(
      engine: NoOpCrossfadingEngine(), configuration: CrossfadeStream.initialState.configuration,
      watchdog: streamTimers)
    for event in events { player.send(event) }
    let statistics = player.statistics
    return statistics.processed &+ statistics.ignoredReports &+ UInt64(player.state.issuedLoads)
  }

  /// The pure reducer over the live stream, from ``LiveStream/initialState``.
  static func liveReducer(_ events: [PlaybackEvent]) -> UInt64 {
    reducer(events, from: LiveStream.initialState)
  }

  /// The reducer in place over the live stream: `handle(_:into:)`.
  static func liveReducerInPlace(_ events: [PlaybackEvent]) -> UInt64 {
    reducerInPlace(events, from: LiveStream.initialState)
  }

  /// The driver over the live stream, with a no-op engine and ``streamTimers``
  /// (the stream carries its watchdogs' expiries).
  static func liveDriver(_ events: [PlaybackEvent]) -> UInt64 {
    let player = Player(
      engine: NoOpEngine(), configuration: LiveStream.initialState.configuration,
      watchdog: streamTimers)
    for event in events { player.send(event) }
    let statistics = player.statistics
    return statistics.processed &+ statistics.ignoredReports &+ UInt64(player.state.issuedLoads)
  }

  /// Heap allocations over the live stream in each form (``LiveAllocations``):
  /// the window reports apart, and for the driver the steps that arm a timer
  /// (a reload's watchdog among them) apart from those.
  static func liveAllocations(_ stream: LiveStream) -> LiveAllocations? {
    let events = stream.events
    let reducerEvents = stream.events.countsByKind(without: stream.windowReports)
    var state = LiveStream.initialState
    let copying = allocationsByKind(events, apart: [stream.windowReports, []]) {
      state = state.transition(on: $0).next
    }
    state = LiveStream.initialState
    var effects = Effects()
    let inPlace = allocationsByKind(events, apart: [stream.windowReports, []]) {
      state.handle($0, into: &effects)
    }
    let timers = Set(stream.timerSteps)
    let driverWindows = stream.windowReports.filter { !timers.contains($0) }
    let player = Player(
      engine: NoOpEngine(), configuration: LiveStream.initialState.configuration,
      watchdog: streamTimers)
    let driver = allocationsByKind(events, apart: [driverWindows, stream.timerSteps]) {
      player.send($0)
    }
    guard let copying, let inPlace, let driver else { return nil }
    return LiveAllocations(
      reducer: .init(copying, events: reducerEvents, windows: stream.windowReports.count),
      inPlace: .init(inPlace, events: reducerEvents, windows: stream.windowReports.count),
      driver: .init(
        driver, events: stream.events.countsByKind(without: driverWindows + stream.timerSteps),
        windows: driverWindows.count, timerStepCount: stream.timerSteps.count))
  }

  /// Heap allocations over the live stream in each form: the reducer
  /// (`transition(on:)`), in place (`handle(_:into:)`), the driver.
  struct LiveAllocations {
    /// One form's counts: per class of event (``EventKind`` order) without
    /// the events counted apart, and those: the window reports (for the
    /// driver, those that arm no timer) and, for the driver, the steps that
    /// arm a timer.
    struct Form {
      var byKind: [UInt64]
      /// The events of each class that `byKind` counts.
      var events: [Int]
      var windows: UInt64
      /// How many window reports `windows` counts.
      var windowCount: Int
      var timerSteps: UInt64
      /// How many steps `timerSteps` counts (0: none were apart).
      var timerStepCount: Int

      init(
        _ counts: (byKind: [UInt64], apart: [UInt64]), events: [Int], windows: Int,
        timerStepCount: Int = 0
      ) {
        byKind = counts.byKind
        self.events = events
        self.windows = counts.apart[0]
        windowCount = windows
        timerSteps = counts.apart[1]
        self.timerStepCount = timerStepCount
      }
    }

    var reducer: Form
    var inPlace: Form
    var driver: Form
  }

  /// Heap allocations per class of event (indexed by ``EventKind``) while
  /// `step` reduces each event on its own, with the events at the indexes of
  /// each list in `apart` (ascending, disjoint) counted apart, one total per
  /// list; nil when allocations cannot be counted.
  static func allocationsByKind(
    _ events: [PlaybackEvent], apart: [[Int]], _ step: (PlaybackEvent) -> Void
  ) -> (byKind: [UInt64], apart: [UInt64])? {
    guard AllocationCounter.isAvailable else { return nil }
    var counts = [UInt64](repeating: 0, count: EventKind.allCases.count)
    var apartCounts = [UInt64](repeating: 0, count: apart.count)
    var nextApart = [Int](repeating: 0, count: apart.count)
    for index in events.indices {
      let event = events[index]
      let before = playhead_bench_allocations()
      step(event)
      let calls = playhead_bench_allocations() &- before
      var counted = false
      for list in apart.indices where nextApart[list] < apart[list].count {
        if apart[list][nextApart[list]] == index {
          apartCounts[list] &+= calls
          nextApart[list] += 1
          counted = true
        }
      }
      if !counted { counts[EventKind(event).rawValue] &+= calls }
    }
    return (counts, apartCounts)
  }

  /// Heap allocations over the crossfade stream in each form (``CrossfadeAllocations``).
  static func crossfadeAllocations(_ stream: CrossfadeStream) -> CrossfadeAllocations? {
    let events = stream.events
    // The reducer arms no timer itself (a request is a value): only the driver's are apart.
    let reducerApart = [stream.crossfadeStarts, []]
    let reducerEvents = stream.events.countsByKind(without: stream.crossfadeStarts)
    var state = CrossfadeStream.initialState
    let copying = allocationsByKind(events, apart: reducerApart) {
      state = state.transition(on: $0).next
    }
    state = CrossfadeStream.initialState
    var effects = Effects()
    let inPlace = allocationsByKind(events, apart: reducerApart) {
      state.handle($0, into: &effects)
    }
    let player = Player(
      engine: NoOpCrossfadingEngine(), configuration: CrossfadeStream.initialState.configuration,
      watchdog: streamTimers)
    let driver = allocationsByKind(events, apart: [stream.crossfadeStarts, stream.timerSteps]) {
      player.send($0)
    }
    guard let copying, let inPlace, let driver else { return nil }
    return CrossfadeAllocations(
      reducer: .init(copying, events: reducerEvents),
      inPlace: .init(inPlace, events: reducerEvents),
      driver: .init(
        driver,
        events: stream.events.countsByKind(without: stream.crossfadeStarts + stream.timerSteps),
        timerStepCount: stream.timerSteps.count))
  }

  /// Heap allocations of `transition(on:)` over a stream from `state`, per
  /// class of event (indexed by ``EventKind``), each event counted on its
  /// own; nil when allocations cannot be counted.
  static func allocationsByKind(_ events: [PlaybackEvent], from state: PlaybackState) -> [UInt64]? {
    guard AllocationCounter.isAvailable else { return nil }
    var counts = [UInt64](repeating: 0, count: EventKind.allCases.count)
    var state = state
    for event in events {
      let kind = EventKind(event).rawValue
      let before = playhead_bench_allocations()
      let transition = state.transition(on: event)
      state = transition.next
      counts[kind] &+= playhead_bench_allocations() &- before
    }
    return counts
  }

  /// The driver with a no-op engine, every event sent from the calling thread.
  static func driver(_ events: [PlaybackEvent]) -> UInt64 {
    let player = Player(engine: NoOpEngine())
    for event in events { player.send(event) }
    let statistics = player.statistics
    return statistics.processed &+ statistics.ignoredReports &+ UInt64(player.state.issuedLoads)
  }

  /// Heap allocations over the crossfade stream in each form: the reducer
  /// (`transition(on:)`), in place (`handle(_:into:)`), the driver.
  struct CrossfadeAllocations {
    /// One form's counts: per class of event (``EventKind`` order) without
    /// the events counted apart, and those: the position reports that start
    /// a crossfade (``CrossfadeStream/crossfadeStarts``) and, for the driver,
    /// the other steps that arm a timer (``CrossfadeStream/timerSteps``).
    struct Form {
      var byKind: [UInt64]
      /// The events of each class that `byKind` counts.
      var events: [Int]
      var crossfadeStarts: UInt64
      var timerSteps: UInt64
      /// How many steps `timerSteps` counts (0: none were apart).
      var timerStepCount: Int

      init(_ counts: (byKind: [UInt64], apart: [UInt64]), events: [Int], timerStepCount: Int = 0) {
        byKind = counts.byKind
        self.events = events
        crossfadeStarts = counts.apart[0]
        timerSteps = counts.apart[1]
        self.timerStepCount = timerStepCount
      }
    }

    var reducer: Form
    var inPlace: Form
    var driver: Form
  }

  /// The result of sending a stream to one player from several threads at once.
  struct Concurrent {
    var elapsed: Duration
    var processed: UInt64
    var maxQueued: Int
  }

  /// The driver with a no-op engine, the events split into `threads`
  /// contiguous slices, each sent by its own thread. The clock runs from the
  /// moment all threads are released until the last one has returned; a
  /// sender returns only once its event is processed or queued behind the
  /// thread that is draining, and the drainer returns only once the queue is
  /// empty, so when every thread has returned every event has been reduced.
  static func driver(_ events: [PlaybackEvent], threads: Int) -> Concurrent {
    let player = Player(engine: NoOpEngine())
    let ready = DispatchSemaphore(value: 0)
    let go = DispatchSemaphore(value: 0)
    let done = DispatchSemaphore(value: 0)
    let size = (events.count + threads - 1) / threads
    for index in 0..<threads {
      let slice = events[min(index * size, events.count)..<min((index + 1) * size, events.count)]
      let thread = Thread {
        ready.signal()
        go.wait()
        for event in slice { player.send(event) }
        done.signal()
      }
      thread.start()
    }
    for _ in 0..<threads { ready.wait() }
    let clock = ContinuousClock()
    let start = clock.now
    for _ in 0..<threads { go.signal() }
    for _ in 0..<threads { done.wait() }
    let elapsed = clock.now - start
    let statistics = player.statistics
    return Concurrent(
      elapsed: elapsed, processed: statistics.processed, maxQueued: statistics.maxQueued)
  }

  /// The naive baseline over the same events.
  static func naive(_ events: [PlaybackEvent]) -> UInt64 {
    let player = NaivePlayer(engine: NoOpNaiveEngine())
    for event in events { player.handle(event) }
    return UInt64(player.engineCalls) &+ (player.isPlaying ? 1 : 0) &+ (player.isBuffering ? 2 : 0)
  }
}
