import AVPlayerEngineCore
import PlayerState
import Testing

/// Issue 38, item 4: a live item's seekable ranges as the machine's window, its position
/// before each window, and the load request's start at the live edge.
@Suite struct LiveStreamTests {
  /// A named timing and the window it must give (nil: not live).
  struct Case: CustomTestStringConvertible, Sendable {
    let name: String
    let timing: ItemTiming
    let window: SeekableSpan?

    var testDescription: String { name }

    init(_ name: String, _ timing: ItemTiming, _ window: (Int64, Int64)?) {
      self.name = name
      self.timing = timing
      self.window = window.map { SeekableSpan(start: $0.0, end: $0.1) }
    }
  }

  static func timing(_ duration: ItemDuration, _ ranges: [(Int64, Int64)], at now: Int64?)
    -> ItemTiming
  {
    ItemTiming(
      duration: duration, seekable: ranges.map { SeekableSpan(start: $0.0, end: $0.1) },
      currentTime: now)
  }

  static let windows: [Case] = [
    Case("on-demand media has no window", timing(.known(120_000), [(0, 120_000)], at: 5000), nil),
    Case("a duration not loaded yet has no window", timing(.unknown, [], at: nil), nil),
    Case(
      "a DVR range of an hour is the window",
      timing(.indefinite, [(5000, 3_605_000)], at: 3_600_000),
      (5000, 3_605_000)),
    Case(
      "exactly the minimum is DVR", timing(.indefinite, [(10_000, 55_000)], at: 55_000),
      (10_000, 55_000)),
    Case(
      "a range shorter than the minimum is live without DVR, at its end",
      timing(.indefinite, [(10_000, 54_999)], at: 54_000), (54_999, 54_999)),
    Case(
      "a sliver of non-rounded segments (Pillarbox #57) is live without DVR",
      timing(.indefinite, [(6000, 6006)], at: 6000), (6006, 6006)),
    Case(
      "ranges split by a discontinuity: their union",
      timing(.indefinite, [(0, 30_000), (32_000, 90_000)], at: 80_000), (0, 90_000)),
    Case(
      "a live stream with no seekable range (Icecast): zero length at the current time",
      timing(.indefinite, [], at: 42_000), (42_000, 42_000)),
    Case("no range and no current time: at 0", timing(.indefinite, [], at: nil), (0, 0)),
  ]

  @Test(arguments: windows)
  func window(_ item: Case) {
    #expect(LiveWindowRule().window(for: item.timing) == item.window)
  }

  @Test func theMinimumIsTheCallers() {
    let item = Self.timing(.indefinite, [(0, 20_000)], at: 20_000)
    #expect(
      LiveWindowRule(minimumDVRWindow: 10_000).window(for: item)
        == SeekableSpan(start: 0, end: 20_000))
    #expect(
      LiveWindowRule(minimumDVRWindow: 0).window(for: Self.timing(.indefinite, [(7, 7)], at: 7))
        == SeekableSpan(start: 7, end: 7))
  }

  @Test func secondsBecomeWholeMilliseconds() {
    #expect(ItemTiming.milliseconds(seconds: 12.3456) == 12_346)
    #expect(ItemTiming.milliseconds(seconds: -0.5) == -500)
    #expect(ItemTiming.milliseconds(seconds: .nan) == nil)
    #expect(ItemTiming.milliseconds(seconds: .infinity) == nil)
    #expect(ItemTiming.milliseconds(seconds: 1e16) == nil)
  }

  static let sequences: [Sequence] = [
    Sequence(
      name: "a DVR item's window follows ready, its position just before it",
      streamed: true,
      steps: [
        .live([(0, 60_000)], at: nil), .readyToPlay, .live([(0, 60_000)], at: 60_000), .keepsUp,
      ],
      expected: ["ready(A#1)", "position(A#1, 60000ms)", "window(A#1, 0ms…60000ms)"]),
    Sequence(
      name: "a window that slides is reported again, the same window is not",
      steps: [
        .readyToPlay, .start, .playing, .live([(0, 60_000)], at: 59_000),
        .live([(0, 60_000)], at: 61_000), .live([(6000, 66_000)], at: 65_500),
      ],
      expected: [
        "ready(A#1)", "play", "position(A#1, 59000ms)", "window(A#1, 0ms…60000ms)",
        "position(A#1, 65500ms)", "window(A#1, 6000ms…66000ms)",
      ]),
    Sequence(
      name: "paused, the position stays while the window's start passes it",
      steps: [
        .readyToPlay, .live([(0, 60_000)], at: 30_000), .pause, .paused,
        .live([(40_000, 100_000)], at: 30_000),
      ],
      expected: [
        "ready(A#1)", "position(A#1, 30000ms)", "window(A#1, 0ms…60000ms)", "pause",
        "position(A#1, 30000ms)", "window(A#1, 40000ms…100000ms)",
      ]),
    Sequence(
      name: "a live stream without DVR is a window of zero length at its edge",
      steps: [.readyToPlay, .live([(20_000, 38_000)], at: 37_000)],
      expected: ["ready(A#1)", "position(A#1, 37000ms)", "window(A#1, 38000ms…38000ms)"]),
    Sequence(
      name: "on-demand media reports no window and no position",
      steps: [
        .readyToPlay, .onDemand(120_000, at: 0), .start, .playing, .onDemand(120_000, at: 5000),
      ],
      expected: ["ready(A#1)", "play"]),
    Sequence(
      name: "no window after the broadcast ended, nor after a failure",
      steps: [
        .readyToPlay, .live([(0, 60_000)], at: 60_000), .playedToEnd,
        .live([(5000, 65_000)], at: 60_000), .itemFailed(Errors.offline),
        .live([(9000, 69_000)], at: 60_000),
      ],
      expected: [
        "ready(A#1)", "position(A#1, 60000ms)", "window(A#1, 0ms…60000ms)", "ended(A#1)",
        #"failed(A#1, network, NSURLErrorDomain -1009 "The Internet connection appears to be offline.")"#,
      ]),
  ]

  @Test(arguments: sequences)
  func sequence(_ sequence: Sequence) {
    #expect(run(sequence.steps, streamed: sequence.streamed) == sequence.expected)
  }

  /// A load at the live edge, or from 0, is not seeked: the item starts at its default
  /// position (the live edge for a live stream).
  @Test func theLoadsStartSeek() {
    let load = Load(1, 1)
    #expect(LoadRequest(load: load, media: "A", start: .zero, atLiveEdge: true).initialSeek == nil)
    #expect(
      LoadRequest(load: load, media: "A", start: .seconds(5), atLiveEdge: true).initialSeek == nil)
    #expect(LoadRequest(load: load, media: "A").initialSeek == nil)
    #expect(LoadRequest(load: load, media: "A", start: .seconds(5)).initialSeek == 5000)
  }

  /// End to end through the machine: the core's reports about a paused DVR load whose
  /// window's start passes its position make the machine reload it at the live edge
  /// (the position, reported first, is still inside the window it knows; the new window
  /// is not), once: the old load's later reports are stale.
  @Test func aPausedDVRLoadThatFellBehindReloadsAtTheEdge() {
    var item = ItemMachine<SeekID>(streamed: false)
    let load = Load(1, 1)
    var state = PlaybackState().transition(on: .queue(["A"])).next
    var log: [String] = []
    func deliver(_ actions: [ItemAction<SeekID>]) {
      for case .report(let signal) in actions {
        let step = state.transition(on: .engine(signal.report(about: load)))
        state = step.next
        log.append(
          signal.report(about: load).description(naming: { _ in "A" }) + " -> "
            + (step.ignored.map { "ignored \($0)" }
              ?? step.commands.map { $0.description(naming: { _ in "A" }) }.joined(separator: " ")))
      }
    }
    deliver(item.observe(.itemStatus(.readyToPlay)))
    deliver(item.observe(Self.live([(0, 60_000)], at: 60_000)))
    state = state.transition(on: .pause).next
    deliver(item.execute(.pause))
    deliver(item.observe(.timeControl(.paused)))
    deliver(item.observe(Self.live([(30_000, 90_000)], at: 60_000)))
    deliver(item.observe(Self.live([(70_000, 130_000)], at: 60_000)))
    deliver(item.observe(Self.live([(80_000, 140_000)], at: 60_000)))
    #expect(
      log == [
        "ready(A#1) -> start(A#1)", "position(A#1, 60000ms) -> ",
        "window(A#1, 0ms…60000ms) -> ", "position(A#1, 60000ms) -> ",
        "window(A#1, 30000ms…90000ms) -> ", "position(A#1, 60000ms) -> ",
        "window(A#1, 70000ms…130000ms) -> stop(A#1) load(A#2, at live edge)",
        "position(A#1, 60000ms) -> ignored stale load token",
        "window(A#1, 80000ms…140000ms) -> ignored stale load token",
      ])
  }

  static func live(_ ranges: [(Int64, Int64)], at now: Int64) -> ItemFact<SeekID> {
    .timing(
      ItemTiming(
        duration: .indefinite, seekable: ranges.map { SeekableSpan(start: $0.0, end: $0.1) },
        currentTime: now))
  }
}
