import AVPlayerEngineCore
import PlayerState
import Testing

/// A documented AVFoundation sequence and the reports and player calls it must produce.
struct Sequence: CustomTestStringConvertible, Sendable {
  let name: String
  var streamed = false
  let steps: [Step]
  let expected: [String]

  var testDescription: String { name }
}

/// The adapter's signal-to-report rules, one documented sequence each (issue 15).
@Suite struct ItemMachineTests {
  static let readiness: [Sequence] = [
    Sequence(
      name: "a local file is ready at readyToPlay",
      steps: [.readyToPlay, .readyToPlay], expected: ["ready(A#1)"]),
    Sequence(
      name: "streamed media is ready once playback can keep up, not at readyToPlay",
      streamed: true, steps: [.readyToPlay, .cannotKeepUp, .keepsUp, .cannotKeepUp, .keepsUp],
      expected: ["ready(A#1)"]),
    Sequence(
      name: "keeping up before readyToPlay waits for readyToPlay",
      streamed: true, steps: [.keepsUp, .readyToPlay], expected: ["ready(A#1)"]),
    Sequence(
      name: "streamed media the player already plays is ready",
      streamed: true, steps: [.readyToPlay, .start, .waiting(.toMinimizeStalls), .playing],
      expected: ["play", "ready(A#1)"]),
  ]

  static let seeks: [Sequence] = [
    Sequence(
      name: "the newest seek ended false by another operation completes",
      steps: [.readyToPlay, .seek(2000, 1), .seekFinished(1, finished: false)],
      expected: ["ready(A#1)", "seek(2000ms, seek#1)", "seeked(A#1, seek#1)"]),
    Sequence(
      name: "a superseded seek's completion is dropped, the newest answers",
      steps: [
        .readyToPlay, .seek(2000, 1), .seek(4000, 2), .seekFinished(1, finished: false),
        .seekFinished(2, finished: true), .seekFinished(2, finished: true),
      ],
      expected: [
        "ready(A#1)", "seek(2000ms, seek#1)", "seek(4000ms, seek#2)", "seeked(A#1, seek#2)",
      ]),
    Sequence(
      name: "a seek while buffering waits for readyToPlay",
      streamed: true,
      steps: [.seek(5000, 1), .readyToPlay, .keepsUp, .seekFinished(1, finished: true)],
      expected: ["seek(5000ms, seek#1)", "ready(A#1)", "seeked(A#1, seek#1)"]),
    Sequence(
      name: "of two seeks while buffering only the newest is sent",
      steps: [.seek(5000, 1), .seek(7000, 2), .readyToPlay, .seekFinished(2, finished: true)],
      expected: ["seek(7000ms, seek#2)", "ready(A#1)", "seeked(A#1, seek#2)"]),
  ]

  static let stalls: [Sequence] = [
    Sequence(
      name: "a wait right after start is a stall; playing again ends it",
      streamed: true,
      steps: [
        .readyToPlay, .keepsUp, .start, .waiting(.evaluatingBufferingRate),
        .waiting(.toMinimizeStalls), .playing,
      ],
      expected: ["ready(A#1)", "play", "stalled(A#1)", "resumed(A#1)"]),
    Sequence(
      name: "evaluating the buffering rate is not a stall",
      streamed: true,
      steps: [.readyToPlay, .keepsUp, .start, .waiting(.evaluatingBufferingRate), .playing],
      expected: ["ready(A#1)", "play"]),
    Sequence(
      name: "a prediction of keeping up does not end a stall; playing does",
      streamed: true,
      steps: [
        .readyToPlay, .keepsUp, .start, .playing, .cannotKeepUp, .waiting(.toMinimizeStalls),
        .keepsUp, .playing,
      ],
      expected: ["ready(A#1)", "play", "stalled(A#1)", "resumed(A#1)"]),
    Sequence(
      name: "a stall in file playback: stalled, play() once it can keep up, resumed when playing",
      steps: [
        .readyToPlay, .start, .playing, .cannotKeepUp, .stalledNotification(now: .paused),
        .keepsUp, .keepsUp, .playing,
      ],
      expected: ["ready(A#1)", "play", "stalled(A#1)", "play", "resumed(A#1)"]),
    Sequence(
      name: "a stalled notification handled after playback went on is not a stall",
      steps: [.readyToPlay, .start, .playing, .stalledNotification(now: .playing)],
      expected: ["ready(A#1)", "play"]),
    Sequence(
      name: "paused by the user during a stall: resumed once it can keep up",
      streamed: true,
      steps: [
        .readyToPlay, .keepsUp, .start, .playing, .cannotKeepUp, .waiting(.toMinimizeStalls),
        .pause, .paused, .keepsUp,
      ],
      expected: ["ready(A#1)", "play", "stalled(A#1)", "pause", "resumed(A#1)"]),
    Sequence(
      name: "a paused player does not stall",
      streamed: true,
      steps: [
        .readyToPlay, .keepsUp, .waiting(.toMinimizeStalls), .stalledNotification(now: .paused),
      ],
      expected: ["ready(A#1)"]),
  ]

  static let endsAndFailures: [Sequence] = [
    Sequence(
      name: "the end is reported each time, also after a seek back",
      steps: [
        .readyToPlay, .start, .playing, .playedToEnd, .paused, .seek(0, 1), .start,
        .seekFinished(1, finished: true), .playing, .playedToEnd,
      ],
      expected: [
        "ready(A#1)", "play", "ended(A#1)", "seek(0ms, seek#1)", "play", "seeked(A#1, seek#1)",
        "ended(A#1)",
      ]),
    Sequence(
      name: "an end during a stall ends the stall",
      streamed: true,
      steps: [
        .readyToPlay, .keepsUp, .start, .waiting(.toMinimizeStalls), .playedToEnd, .paused,
      ],
      expected: ["ready(A#1)", "play", "stalled(A#1)", "ended(A#1)"]),
    Sequence(
      name: "an end before ready is not reported",
      streamed: true, steps: [.readyToPlay, .playedToEnd], expected: []),
    Sequence(
      name: "a failure before ready, then silence",
      steps: [.itemFailed(Errors.missingFile), .readyToPlay, .start, .seek(1000, 1)],
      expected: [#"failed(A#1, notFound, NSPOSIXErrorDomain 2 "No such file or directory")"#]),
    Sequence(
      name: "a failure after ready is reported, once",
      steps: [
        .readyToPlay, .start, .playing, .itemFailed(Errors.offline),
        .failedToPlayToEnd(Errors.offline), .playedToEnd, .seekFinished(1, finished: true),
      ],
      expected: [
        "ready(A#1)", "play",
        #"failed(A#1, network, NSURLErrorDomain -1009 "The Internet connection appears to be offline.")"#,
      ]),
    Sequence(
      name: "a failed-to-play-to-end notification reports the error it carries",
      streamed: true,
      steps: [.readyToPlay, .keepsUp, .start, .playing, .failedToPlayToEnd(Errors.hls404)],
      expected: [
        "ready(A#1)", "play",
        #"failed(A#1, notFound, CoreMediaErrorDomain -12938 "HTTP 404: File Not Found")"#,
      ]),
    Sequence(
      name: "the player failing (media services reset) fails the load",
      steps: [.readyToPlay, .start, .playerFailed(Errors.servicesReset), .playing],
      expected: [
        "ready(A#1)", "play",
        #"failed(A#1, engine(-11819), AVFoundationErrorDomain -11819 "Cannot Complete Action")"#,
      ]),
    Sequence(
      name: "a failure without an error is still a failure",
      steps: [.itemFailed(.missing)],
      expected: [#"failed(A#1, engine(0), Playhead.AVPlayerEngine 0 "AVFoundation gave no error")"#]
    ),
  ]

  static let systemPauses: [Sequence] = [
    Sequence(
      name: "the player pausing by itself while playing is a system pause, once",
      steps: [.readyToPlay, .keepsUp, .start, .playing, .paused, .paused],
      expected: ["ready(A#1)", "play", "pausedBySystem(A#1)"]),
    Sequence(
      name: "a pause the machine asked for is not a system pause",
      steps: [.readyToPlay, .keepsUp, .start, .playing, .pause, .paused],
      expected: ["ready(A#1)", "play", "pause"]),
    Sequence(
      name: "after a system pause, the next start plays, and a new drop is reported again",
      steps: [
        .readyToPlay, .keepsUp, .start, .playing, .paused, .start, .playing, .paused,
      ],
      expected: [
        "ready(A#1)", "play", "pausedBySystem(A#1)", "play", "pausedBySystem(A#1)",
      ]),
    Sequence(
      name: "the pause at the item's end is not a system pause, whichever comes first",
      steps: [
        .readyToPlay, .keepsUp, .start, .playing, .pausedAtEnd, .paused, .playedToEnd,
      ],
      expected: ["ready(A#1)", "play", "ended(A#1)"]),
    Sequence(
      name: "a drop to paused in a file stall (cannot keep up) is the stall's",
      steps: [
        .readyToPlay, .keepsUp, .start, .playing, .cannotKeepUp, .paused,
        .stalledNotification(now: .paused),
      ],
      expected: ["ready(A#1)", "play", "stalled(A#1)"]),
    Sequence(
      name: "during an audio session interruption the pause is the interruption's",
      steps: [
        .readyToPlay, .keepsUp, .start, .playing, .fact(.interruption(active: true)), .paused,
        .fact(.interruption(active: false)), .start, .playing, .paused,
      ],
      expected: ["ready(A#1)", "play", "play", "pausedBySystem(A#1)"]),
    Sequence(
      name: "a paused player before ready or before start is not system-paused",
      streamed: true,
      steps: [.readyToPlay, .playing, .paused, .keepsUp, .paused],
      expected: ["ready(A#1)"]),
    Sequence(
      name: "a system pause during a stall is the stall's",
      streamed: true,
      steps: [
        .readyToPlay, .keepsUp, .start, .playing, .cannotKeepUp, .waiting(.toMinimizeStalls),
        .paused,
      ],
      expected: ["ready(A#1)", "play", "stalled(A#1)"]),
    Sequence(
      name: "an interruption during a stall: no play() of the adapter's own, even after it",
      streamed: true,
      steps: [
        .readyToPlay, .keepsUp, .start, .playing, .cannotKeepUp, .waiting(.toMinimizeStalls),
        .fact(.interruption(active: true)), .paused, .keepsUp, .fact(.interruption(active: false)),
        .start, .playing,
      ],
      expected: ["ready(A#1)", "play", "stalled(A#1)", "play", "resumed(A#1)"]),
  ]

  @Test(arguments: readiness + seeks + stalls + endsAndFailures + systemPauses)
  func sequence(_ sequence: Sequence) {
    #expect(run(sequence.steps, streamed: sequence.streamed) == sequence.expected)
  }

  @Test func commandsMapToTheItemsPart() {
    let load = Load(1, 1)
    #expect(ItemCommand(.start(load)) == .start)
    #expect(ItemCommand(.pause(load)) == .pause)
    #expect(ItemCommand(.seek(load, to: .seconds(2), SeekID(3))) == .seek(to: 2000, SeekID(3)))
    #expect(ItemCommand(.start(load, rate: PlaybackRate(thousandths: 1_500))) == .start)
    #expect(ItemCommand(.load(LoadRequest(load: load, media: "A"))) == nil)
    #expect(ItemCommand(.preload(LoadRequest(load: load, media: "A"))) == nil)
    #expect(ItemCommand(.setRate(load, .normal)) == nil)
    #expect(ItemCommand(.stop(load)) == nil)
  }
}
