import PlayerState
import Testing

/// One accepted transition, with its expected outcome written out.
struct TransitionCase: CustomTestStringConvertible, Sendable {
  let state: PlaybackState
  let event: PlaybackEvent
  let next: String
  let commands: String
  let watchdog: String?

  init(
    _ state: PlaybackState, _ event: PlaybackEvent, _ next: String, _ commands: String,
    watchdog: String? = nil
  ) {
    self.state = state
    self.event = event
    self.next = next
    self.commands = commands
    self.watchdog = watchdog
  }

  var testDescription: String { "\(state) + \(event)" }
}

/// Every accepted transition of the table, with literal expected state, commands and watchdog.
let transitionCases: [TransitionCase] = [
  // idle
  .init(
    idle2, .play("A"), "buffering(A#3, autoplay)", "load(A#3)",
    watchdog: "watchdog(A#3, watchdog#1)"),
  // buffering
  .init(
    fixture(.buffering), .play("B"), "buffering(B#3, autoplay)", "stop(A#2) load(B#3)",
    watchdog: "watchdog(B#3, watchdog#1)"),
  .init(fixture(.buffering), .pause, "buffering(A#2, paused)", "none"),
  .init(fixture(.buffering), .stop, "idle", "stop(A#2)"),
  .init(
    fixture(.buffering), .seek(to: .seconds(1)), "buffering(A#2, autoplay, seek#2)",
    "seek(A#2, 1000ms, seek#2)"),
  .init(fixture(.buffering), .ready(a2), "playing(A#2)", "start(A#2)"),
  .init(
    fixture(.buffering), .failed(a2, .network), "waiting(A#2, network, attempt 1, autoplay)",
    "stop(A#2)", watchdog: "backoff(A#2, watchdog#2, 1000ms)"),
  .init(
    fixture(.buffering), .watchdogExpired(a2, WatchdogID(1)), "failed(A#2, timeout, autoplay)",
    "stop(A#2)"),
  .init(
    fixture(.buffering, seekPending: true), .seekCompleted(a2, SeekID(1)),
    "buffering(A#2, autoplay)", "none"),
  .init(fixture(.buffering, play: false), .play("A"), "buffering(A#2, autoplay)", "none"),
  .init(fixture(.buffering, play: false), .resume, "buffering(A#2, autoplay)", "none"),
  .init(fixture(.buffering, play: false), .ready(a2), "paused(A#2)", "none"),
  // playing
  .init(
    fixture(.ready), .play("B"), "buffering(B#3, autoplay)", "stop(A#2) load(B#3)",
    watchdog: "watchdog(B#3, watchdog#1)"),
  .init(fixture(.ready), .pause, "paused(A#2)", "pause(A#2)"),
  .init(fixture(.ready), .stop, "idle", "stop(A#2)"),
  .init(
    fixture(.ready), .seek(to: .seconds(1)), "playing(A#2, seek#2)", "seek(A#2, 1000ms, seek#2)"),
  .init(
    fixture(.ready), .stalled(a2), "stalled(A#2)", "none", watchdog: "watchdog(A#2, watchdog#2)"),
  .init(fixture(.ready), .reachedEnd(a2), "ended(A#2, autoplay)", "none"),
  .init(
    fixture(.ready), .failed(a2, .network), "waiting(A#2, network, attempt 1, autoplay)",
    "stop(A#2)", watchdog: "backoff(A#2, watchdog#2, 1000ms)"),
  .init(fixture(.ready, seekPending: true), .seekCompleted(a2, SeekID(1)), "playing(A#2)", "none"),
  // paused
  .init(fixture(.ready, play: false), .play("A"), "playing(A#2)", "start(A#2)"),
  .init(
    fixture(.ready, play: false), .play("B"), "buffering(B#3, autoplay)", "stop(A#2) load(B#3)",
    watchdog: "watchdog(B#3, watchdog#1)"),
  .init(fixture(.ready, play: false), .resume, "playing(A#2)", "start(A#2)"),
  .init(fixture(.ready, play: false), .stop, "idle", "stop(A#2)"),
  .init(
    fixture(.ready, play: false), .seek(to: .seconds(1)), "paused(A#2, seek#2)",
    "seek(A#2, 1000ms, seek#2)"),
  .init(
    fixture(.ready, play: false), .stalled(a2), "stalled(A#2, paused)", "none",
    watchdog: "watchdog(A#2, watchdog#2)"),
  .init(fixture(.ready, play: false), .reachedEnd(a2), "ended(A#2)", "none"),
  .init(
    fixture(.ready, play: false), .failed(a2, .network), "waiting(A#2, network, attempt 1)",
    "stop(A#2)", watchdog: "backoff(A#2, watchdog#2, 1000ms)"),
  .init(
    fixture(.ready, play: false, seekPending: true), .seekCompleted(a2, SeekID(1)), "paused(A#2)",
    "none"),
  // stalled
  .init(
    fixture(.stalled), .play("B"), "buffering(B#3, autoplay)", "stop(A#2) load(B#3)",
    watchdog: "watchdog(B#3, watchdog#1)"),
  .init(fixture(.stalled), .pause, "stalled(A#2, paused)", "pause(A#2)"),
  .init(fixture(.stalled), .stop, "idle", "stop(A#2)"),
  .init(
    fixture(.stalled), .seek(to: .seconds(1)), "stalled(A#2, seek#2)", "seek(A#2, 1000ms, seek#2)"),
  .init(fixture(.stalled), .resumed(a2), "playing(A#2)", "none"),
  .init(fixture(.stalled), .reachedEnd(a2), "ended(A#2, autoplay)", "none"),
  .init(
    fixture(.stalled), .failed(a2, .network), "waiting(A#2, network, attempt 1, autoplay)",
    "stop(A#2)", watchdog: "backoff(A#2, watchdog#2, 1000ms)"),
  .init(
    fixture(.stalled), .watchdogExpired(a2, WatchdogID(1)), "failed(A#2, timeout, autoplay)",
    "stop(A#2)"),
  .init(
    fixture(.stalled, seekPending: true), .seekCompleted(a2, SeekID(1)), "stalled(A#2)", "none"),
  .init(fixture(.stalled, play: false), .play("A"), "stalled(A#2)", "start(A#2)"),
  .init(fixture(.stalled, play: false), .resume, "stalled(A#2)", "start(A#2)"),
  .init(fixture(.stalled, play: false), .resumed(a2), "paused(A#2)", "none"),
  // ended
  .init(fixture(.ended), .play("A"), "playing(A#2, seek#2)", "seek(A#2, 0ms, seek#2) start(A#2)"),
  .init(
    fixture(.ended), .play("B"), "buffering(B#3, autoplay)", "stop(A#2) load(B#3)",
    watchdog: "watchdog(B#3, watchdog#1)"),
  .init(fixture(.ended), .pause, "ended(A#2)", "none"),
  .init(fixture(.ended), .resume, "playing(A#2, seek#2)", "seek(A#2, 0ms, seek#2) start(A#2)"),
  .init(fixture(.ended), .stop, "idle", "stop(A#2)"),
  .init(
    fixture(.ended), .seek(to: .seconds(1)), "playing(A#2, seek#2)",
    "seek(A#2, 1000ms, seek#2) start(A#2)"),
  .init(fixture(.ended), .failed(a2, .network), "failed(A#2, network, autoplay)", "stop(A#2)"),
  .init(
    fixture(.ended, play: false), .seek(to: .seconds(1)), "paused(A#2, seek#2)",
    "seek(A#2, 1000ms, seek#2)"),
  // failed
  .init(
    fixture(.failed(.network)), .play("A"), "buffering(A#3, autoplay)", "load(A#3)",
    watchdog: "watchdog(A#3, watchdog#1)"),
  .init(fixture(.failed(.network)), .pause, "failed(A#2, network)", "none"),
  .init(fixture(.failed(.network)), .stop, "idle", "none"),
  .init(
    fixture(.failed(.network)), .retry, "buffering(A#3, autoplay)", "load(A#3)",
    watchdog: "watchdog(A#3, watchdog#1)"),
  .init(fixture(.failed(.network), play: false), .resume, "failed(A#2, network, autoplay)", "none"),
  // The queue A B C: edits, navigation, position, rate.
  .init(
    idleEmpty, .queue(["D", "E"]), "buffering(D#3, autoplay)", "load(D#3)",
    watchdog: "watchdog(D#3, watchdog#1)"),
  .init(
    idleEmpty, .user(.append(["D"])), "idle", "none"),
  .init(
    idleEmpty, .user(.setRepeat(.one)), "idle", "none"),
  .init(
    idleEmpty, .user(.setShuffle(seed: 7)), "idle", "none"),
  .init(
    idleEmpty, .user(.setRate(PlaybackRate(thousandths: 1500))), "idle", "none"),
  .init(
    idleQueued, .user(.insert(["D"], at: 1)), "idle", "none"),
  .init(
    idleQueued, .user(.remove(at: 0)), "idle", "none"),
  .init(
    idleQueued, .user(.move(from: 2, to: 1)), "idle", "none"),
  .init(
    idleQueued, .user(.jump(to: 2)), "idle", "none"),
  .init(
    idleQueued, .next, "idle", "none"),
  .init(
    idleQueued, .user(.clear), "idle", "none"),
  .init(
    idleQueued, .resume, "buffering(A#3, autoplay)", "load(A#3)",
    watchdog: "watchdog(A#3, watchdog#1)"),
  .init(
    queued(.buffering), .queue(["D", "E"]), "buffering(D#3, autoplay)", "stop(A#2) load(D#3)",
    watchdog: "watchdog(D#3, watchdog#1)"),
  .init(
    queued(.buffering), .user(.append(["D"])), "buffering(A#2, autoplay)", "none"),
  .init(
    queued(.buffering), .user(.insert(["D"], at: 1)), "buffering(A#2, autoplay)", "none"),
  .init(
    queued(.buffering), .user(.remove(at: 0)), "buffering(B#3, autoplay)", "stop(A#2) load(B#3)",
    watchdog: "watchdog(B#3, watchdog#1)"),
  .init(
    queued(.buffering), .user(.remove(at: 1)), "buffering(A#2, autoplay)", "none"),
  .init(
    queued(.buffering), .user(.move(from: 2, to: 1)), "buffering(A#2, autoplay)", "none"),
  .init(
    queued(.buffering), .user(.jump(to: 0)), "buffering(A#2, autoplay, seek#2)",
    "seek(A#2, 0ms, seek#2)"),
  .init(
    queued(.buffering), .user(.jump(to: 2)), "buffering(C#3, autoplay)", "stop(A#2) load(C#3)",
    watchdog: "watchdog(C#3, watchdog#1)"),
  .init(
    queued(.buffering), .next, "buffering(B#3, autoplay)", "stop(A#2) load(B#3)",
    watchdog: "watchdog(B#3, watchdog#1)"),
  .init(
    queued(.buffering), .previous, "buffering(A#2, autoplay, seek#2)", "seek(A#2, 0ms, seek#2)"),
  .init(
    queued(.buffering), .user(.setRepeat(.one)), "buffering(A#2, autoplay)", "none"),
  .init(
    queued(.buffering), .user(.setShuffle(seed: 7)), "buffering(A#2, autoplay)", "none"),
  .init(
    queued(.buffering), .user(.setRate(PlaybackRate(thousandths: 1500))),
    "buffering(A#2, autoplay)", "none"),
  .init(
    queued(.buffering), .user(.clear), "idle", "stop(A#2)"),
  .init(
    queued(.buffering), .position(a2, .seconds(5)), "buffering(A#2, autoplay)", "none"),
  .init(
    queued(.ready), .queue(["D", "E"]), "buffering(D#3, autoplay)", "stop(A#2) load(D#3)",
    watchdog: "watchdog(D#3, watchdog#1)"),
  .init(
    queued(.ready), .user(.append(["D"])), "playing(A#2)", "none"),
  .init(
    queued(.ready), .user(.insert(["D"], at: 1)), "playing(A#2)", "none"),
  .init(
    queued(.ready), .user(.remove(at: 0)), "buffering(B#3, autoplay)", "stop(A#2) load(B#3)",
    watchdog: "watchdog(B#3, watchdog#1)"),
  .init(
    queued(.ready), .user(.remove(at: 1)), "playing(A#2)", "none"),
  .init(
    queued(.ready), .user(.move(from: 2, to: 1)), "playing(A#2)", "none"),
  .init(
    queued(.ready), .user(.jump(to: 0)), "playing(A#2, seek#2)", "seek(A#2, 0ms, seek#2)"),
  .init(
    queued(.ready), .user(.jump(to: 2)), "buffering(C#3, autoplay)", "stop(A#2) load(C#3)",
    watchdog: "watchdog(C#3, watchdog#1)"),
  .init(
    queued(.ready), .next, "buffering(B#3, autoplay)", "stop(A#2) load(B#3)",
    watchdog: "watchdog(B#3, watchdog#1)"),
  .init(
    queued(.ready), .previous, "playing(A#2, seek#2)", "seek(A#2, 0ms, seek#2)"),
  .init(
    queued(.ready), .user(.setRepeat(.one)), "playing(A#2)", "none"),
  .init(
    queued(.ready), .user(.setShuffle(seed: 7)), "playing(A#2)", "none"),
  .init(
    queued(.ready), .user(.setRate(PlaybackRate(thousandths: 1500))), "playing(A#2)",
    "rate(A#2, 1.5x)"),
  .init(
    queued(.ready), .user(.clear), "idle", "stop(A#2)"),
  .init(
    queued(.ready), .reachedEnd(a2), "buffering(B#3, autoplay)", "stop(A#2) load(B#3)",
    watchdog: "watchdog(B#3, watchdog#1)"),
  .init(
    queued(.ready), .position(a2, .seconds(5)), "playing(A#2)", "none"),
  .init(
    queued(.ready, play: false), .queue(["D", "E"]), "buffering(D#3, autoplay)",
    "stop(A#2) load(D#3)", watchdog: "watchdog(D#3, watchdog#1)"),
  .init(
    queued(.ready, play: false), .user(.append(["D"])), "paused(A#2)", "none"),
  .init(
    queued(.ready, play: false), .user(.insert(["D"], at: 1)), "paused(A#2)", "none"),
  .init(
    queued(.ready, play: false), .user(.remove(at: 0)), "buffering(B#3, paused)",
    "stop(A#2) load(B#3)", watchdog: "watchdog(B#3, watchdog#1)"),
  .init(
    queued(.ready, play: false), .user(.remove(at: 1)), "paused(A#2)", "none"),
  .init(
    queued(.ready, play: false), .user(.move(from: 2, to: 1)), "paused(A#2)", "none"),
  .init(
    queued(.ready, play: false), .user(.jump(to: 0)), "paused(A#2, seek#2)",
    "seek(A#2, 0ms, seek#2)"),
  .init(
    queued(.ready, play: false), .user(.jump(to: 2)), "buffering(C#3, paused)",
    "stop(A#2) load(C#3)", watchdog: "watchdog(C#3, watchdog#1)"),
  .init(
    queued(.ready, play: false), .next, "buffering(B#3, paused)", "stop(A#2) load(B#3)",
    watchdog: "watchdog(B#3, watchdog#1)"),
  .init(
    queued(.ready, play: false), .previous, "paused(A#2, seek#2)", "seek(A#2, 0ms, seek#2)"),
  .init(
    queued(.ready, play: false), .user(.setRepeat(.one)), "paused(A#2)", "none"),
  .init(
    queued(.ready, play: false), .user(.setShuffle(seed: 7)), "paused(A#2)", "none"),
  .init(
    queued(.ready, play: false), .user(.setRate(PlaybackRate(thousandths: 1500))), "paused(A#2)",
    "none"),
  .init(
    queued(.ready, play: false), .user(.clear), "idle", "stop(A#2)"),
  .init(
    queued(.ready, play: false), .reachedEnd(a2), "buffering(B#3, paused)", "stop(A#2) load(B#3)",
    watchdog: "watchdog(B#3, watchdog#1)"),
  .init(
    queued(.ready, play: false), .position(a2, .seconds(5)), "paused(A#2)", "none"),
  .init(
    queued(.stalled), .queue(["D", "E"]), "buffering(D#3, autoplay)", "stop(A#2) load(D#3)",
    watchdog: "watchdog(D#3, watchdog#1)"),
  .init(
    queued(.stalled), .user(.append(["D"])), "stalled(A#2)", "none"),
  .init(
    queued(.stalled), .user(.insert(["D"], at: 1)), "stalled(A#2)", "none"),
  .init(
    queued(.stalled), .user(.remove(at: 0)), "buffering(B#3, autoplay)", "stop(A#2) load(B#3)",
    watchdog: "watchdog(B#3, watchdog#1)"),
  .init(
    queued(.stalled), .user(.remove(at: 1)), "stalled(A#2)", "none"),
  .init(
    queued(.stalled), .user(.move(from: 2, to: 1)), "stalled(A#2)", "none"),
  .init(
    queued(.stalled), .user(.jump(to: 0)), "stalled(A#2, seek#2)", "seek(A#2, 0ms, seek#2)"),
  .init(
    queued(.stalled), .user(.jump(to: 2)), "buffering(C#3, autoplay)", "stop(A#2) load(C#3)",
    watchdog: "watchdog(C#3, watchdog#1)"),
  .init(
    queued(.stalled), .next, "buffering(B#3, autoplay)", "stop(A#2) load(B#3)",
    watchdog: "watchdog(B#3, watchdog#1)"),
  .init(
    queued(.stalled), .previous, "stalled(A#2, seek#2)", "seek(A#2, 0ms, seek#2)"),
  .init(
    queued(.stalled), .user(.setRepeat(.one)), "stalled(A#2)", "none"),
  .init(
    queued(.stalled), .user(.setShuffle(seed: 7)), "stalled(A#2)", "none"),
  .init(
    queued(.stalled), .user(.setRate(PlaybackRate(thousandths: 1500))), "stalled(A#2)",
    "rate(A#2, 1.5x)"),
  .init(
    queued(.stalled), .user(.clear), "idle", "stop(A#2)"),
  .init(
    queued(.stalled), .reachedEnd(a2), "buffering(B#3, autoplay)", "stop(A#2) load(B#3)",
    watchdog: "watchdog(B#3, watchdog#1)"),
  .init(
    queued(.stalled), .position(a2, .seconds(5)), "stalled(A#2)", "none"),
  .init(
    queued(.stalled, play: false), .user(.setRate(PlaybackRate(thousandths: 1500))),
    "stalled(A#2, paused)", "none"),
  .init(
    queued(.ended), .queue(["D", "E"]), "buffering(D#3, autoplay)", "stop(A#2) load(D#3)",
    watchdog: "watchdog(D#3, watchdog#1)"),
  .init(
    queued(.ended), .user(.append(["D"])), "ended(A#2, autoplay)", "none"),
  .init(
    queued(.ended), .user(.insert(["D"], at: 1)), "ended(A#2, autoplay)", "none"),
  .init(
    queued(.ended), .user(.remove(at: 0)), "buffering(B#3, autoplay)", "stop(A#2) load(B#3)",
    watchdog: "watchdog(B#3, watchdog#1)"),
  .init(
    queued(.ended), .user(.remove(at: 1)), "ended(A#2, autoplay)", "none"),
  .init(
    queued(.ended), .user(.move(from: 2, to: 1)), "ended(A#2, autoplay)", "none"),
  .init(
    queued(.ended), .user(.jump(to: 0)), "playing(A#2, seek#2)", "seek(A#2, 0ms, seek#2) start(A#2)"
  ),
  .init(
    queued(.ended), .user(.jump(to: 2)), "buffering(C#3, autoplay)", "stop(A#2) load(C#3)",
    watchdog: "watchdog(C#3, watchdog#1)"),
  .init(
    queued(.ended), .next, "buffering(B#3, autoplay)", "stop(A#2) load(B#3)",
    watchdog: "watchdog(B#3, watchdog#1)"),
  .init(
    queued(.ended), .previous, "playing(A#2, seek#2)", "seek(A#2, 0ms, seek#2) start(A#2)"),
  .init(
    queued(.ended), .user(.setRepeat(.one)), "ended(A#2, autoplay)", "none"),
  .init(
    queued(.ended), .user(.setShuffle(seed: 7)), "ended(A#2, autoplay)", "none"),
  .init(
    queued(.ended), .user(.setRate(PlaybackRate(thousandths: 1500))), "ended(A#2, autoplay)", "none"
  ),
  .init(
    queued(.ended), .user(.clear), "idle", "stop(A#2)"),
  .init(
    queued(.ended), .position(a2, .seconds(5)), "ended(A#2, autoplay)", "none"),
  .init(
    queued(.ended, play: false), .user(.jump(to: 0)), "paused(A#2, seek#2)",
    "seek(A#2, 0ms, seek#2)"),
  .init(
    queued(.ended, play: false), .previous, "paused(A#2, seek#2)", "seek(A#2, 0ms, seek#2)"),
  .init(
    queued(.failed(.network)), .queue(["D", "E"]), "buffering(D#3, autoplay)", "load(D#3)",
    watchdog: "watchdog(D#3, watchdog#1)"),
  .init(
    queued(.failed(.network)), .user(.append(["D"])), "failed(A#2, network, autoplay)", "none"),
  .init(
    queued(.failed(.network)), .user(.insert(["D"], at: 1)), "failed(A#2, network, autoplay)",
    "none"),
  .init(
    queued(.failed(.network)), .user(.remove(at: 0)), "buffering(B#3, autoplay)", "load(B#3)",
    watchdog: "watchdog(B#3, watchdog#1)"),
  .init(
    queued(.failed(.network)), .user(.remove(at: 1)), "failed(A#2, network, autoplay)", "none"),
  .init(
    queued(.failed(.network)), .user(.move(from: 2, to: 1)), "failed(A#2, network, autoplay)",
    "none"),
  .init(
    queued(.failed(.network)), .user(.jump(to: 0)), "buffering(A#3, autoplay)", "load(A#3)",
    watchdog: "watchdog(A#3, watchdog#1)"),
  .init(
    queued(.failed(.network)), .next, "buffering(B#3, autoplay)", "load(B#3)",
    watchdog: "watchdog(B#3, watchdog#1)"),
  .init(
    queued(.failed(.network)), .previous, "buffering(A#3, autoplay)", "load(A#3)",
    watchdog: "watchdog(A#3, watchdog#1)"),
  .init(
    queued(.failed(.network)), .user(.setRepeat(.one)), "failed(A#2, network, autoplay)", "none"),
  .init(
    queued(.failed(.network)), .user(.setShuffle(seed: 7)), "failed(A#2, network, autoplay)", "none"
  ),
  .init(
    queued(.failed(.network)), .user(.setRate(PlaybackRate(thousandths: 1500))),
    "failed(A#2, network, autoplay)", "none"),
  .init(
    queued(.failed(.network)), .user(.clear), "idle", "none"),
  .init(
    preloading(.buffering), .play("A"), "buffering(A#4, autoplay)", "stop(A#2) stop(B#3) load(A#4)",
    watchdog: "watchdog(A#4, watchdog#1)"),
  .init(
    preloading(.buffering), .queue(["D", "E"]), "buffering(D#4, autoplay)",
    "stop(A#2) stop(B#3) load(D#4)", watchdog: "watchdog(D#4, watchdog#1)"),
  .init(
    preloading(.buffering), .user(.insert(["D"], at: 1)), "playing(A#2, preloading D#4)",
    "stop(B#3) preload(D#4)"),
  .init(
    preloading(.buffering), .user(.remove(at: 0)), "buffering(B#3, autoplay)", "stop(A#2)",
    watchdog: "watchdog(B#3, watchdog#1)"),
  .init(
    preloading(.buffering), .user(.remove(at: 1)), "playing(A#2, preloading C#4)",
    "stop(B#3) preload(C#4)"),
  .init(
    preloading(.buffering), .user(.move(from: 2, to: 1)), "playing(A#2, preloading C#4)",
    "stop(B#3) preload(C#4)"),
  .init(
    preloading(.buffering), .user(.jump(to: 2)), "buffering(C#4, autoplay)",
    "stop(A#2) stop(B#3) load(C#4)", watchdog: "watchdog(C#4, watchdog#1)"),
  .init(
    preloading(.buffering), .next, "buffering(B#3, autoplay)", "stop(A#2)",
    watchdog: "watchdog(B#3, watchdog#1)"),
  .init(
    preloading(.buffering), .user(.setRepeat(.one)), "playing(A#2)", "stop(B#3)"),
  .init(
    preloading(.buffering), .user(.clear), "idle", "stop(A#2) stop(B#3)"),
  .init(
    preloading(.buffering), .stop, "idle", "stop(A#2) stop(B#3)"),
  .init(
    preloading(.buffering), .reachedEnd(a2), "buffering(B#3, autoplay)", "stop(A#2)",
    watchdog: "watchdog(B#3, watchdog#1)"),
  .init(
    preloading(.buffering), .failed(a2, .network),
    "waiting(A#2, network, attempt 1, autoplay)", "stop(A#2) stop(B#3)",
    watchdog: "backoff(A#2, watchdog#2, 1000ms)"),
  .init(
    preloading(.buffering), .ready(b3), "playing(A#2, preloaded B#3)", "none"),
  .init(
    preloading(.buffering), .failed(b3, .network), "playing(A#2, preload failed B#3)", "stop(B#3)"),
  .init(
    preloading(.buffering, play: false), .play("A"), "buffering(A#4, autoplay)",
    "stop(A#2) stop(B#3) load(A#4)", watchdog: "watchdog(A#4, watchdog#1)"),
  .init(
    preloading(.buffering, play: false), .queue(["D", "E"]), "buffering(D#4, autoplay)",
    "stop(A#2) stop(B#3) load(D#4)", watchdog: "watchdog(D#4, watchdog#1)"),
  .init(
    preloading(.buffering, play: false), .user(.insert(["D"], at: 1)),
    "paused(A#2, preloading D#4)", "stop(B#3) preload(D#4)"),
  .init(
    preloading(.buffering, play: false), .user(.remove(at: 0)), "buffering(B#3, paused)",
    "stop(A#2)", watchdog: "watchdog(B#3, watchdog#1)"),
  .init(
    preloading(.buffering, play: false), .user(.remove(at: 1)), "paused(A#2, preloading C#4)",
    "stop(B#3) preload(C#4)"),
  .init(
    preloading(.buffering, play: false), .user(.move(from: 2, to: 1)),
    "paused(A#2, preloading C#4)", "stop(B#3) preload(C#4)"),
  .init(
    preloading(.buffering, play: false), .user(.jump(to: 2)), "buffering(C#4, paused)",
    "stop(A#2) stop(B#3) load(C#4)", watchdog: "watchdog(C#4, watchdog#1)"),
  .init(
    preloading(.buffering, play: false), .next, "buffering(B#3, paused)", "stop(A#2)",
    watchdog: "watchdog(B#3, watchdog#1)"),
  .init(
    preloading(.buffering, play: false), .user(.setRepeat(.one)), "paused(A#2)", "stop(B#3)"),
  .init(
    preloading(.buffering, play: false), .user(.clear), "idle", "stop(A#2) stop(B#3)"),
  .init(
    preloading(.buffering, play: false), .stop, "idle", "stop(A#2) stop(B#3)"),
  .init(
    preloading(.buffering, play: false), .reachedEnd(a2), "buffering(B#3, paused)", "stop(A#2)",
    watchdog: "watchdog(B#3, watchdog#1)"),
  .init(
    preloading(.buffering, play: false), .failed(a2, .network),
    "waiting(A#2, network, attempt 1)", "stop(A#2) stop(B#3)",
    watchdog: "backoff(A#2, watchdog#2, 1000ms)"),
  .init(
    preloading(.buffering, play: false), .ready(b3), "paused(A#2, preloaded B#3)", "none"),
  .init(
    preloading(.buffering, play: false), .failed(b3, .network), "paused(A#2, preload failed B#3)",
    "stop(B#3)"),
  .init(
    preloading(.ready), .user(.remove(at: 0)), "playing(B#3, preloading C#4)",
    "stop(A#2) start(B#3) preload(C#4)"),
  .init(
    preloading(.ready), .next, "playing(B#3, preloading C#4)", "stop(A#2) start(B#3) preload(C#4)"),
  .init(
    preloading(.ready), .reachedEnd(a2), "playing(B#3, preloading C#4)",
    "stop(A#2) start(B#3) preload(C#4)"),
  .init(
    preloading(.ready, play: false), .next, "paused(B#3, preloading C#4)", "stop(A#2) preload(C#4)"),
  .init(
    preloading(.ready, play: false), .reachedEnd(a2), "paused(B#3, preloading C#4)",
    "stop(A#2) preload(C#4)"),
  // The system: interruptions, a lost output route, the network, and failure classes
  .init(idleEmpty, .system(.interruptionBegan), "idle", "none"),
  .init(queued(.buffering), .failed(a2, .decoding), "failed(A#2, decoding, autoplay)", "stop(A#2)"),
  .init(
    queued(.buffering), .system(.interruptionBegan), "buffering(A#2, autoplay, interrupted)", "none"
  ),
  .init(queued(.buffering), .system(.routeLost), "buffering(A#2, paused)", "none"),
  .init(
    queued(.buffering), .system(.networkLost), "waiting(A#2, network, attempt 1, autoplay)",
    "stop(A#2)", watchdog: "backoff(A#2, watchdog#2, 1000ms)"),
  .init(queued(.ready), .failed(a2, .decoding), "failed(A#2, decoding, autoplay)", "stop(A#2)"),
  .init(queued(.ready), .engine(.pausedBySystem(a2)), "suppressed(A#2, system pause)", "none"),
  .init(queued(.ready), .system(.interruptionBegan), "suppressed(A#2, interrupted)", "pause(A#2)"),
  .init(queued(.ready), .system(.routeLost), "paused(A#2)", "pause(A#2)"),
  .init(queued(.ready, play: false), .failed(a2, .decoding), "failed(A#2, decoding)", "stop(A#2)"),
  .init(
    queued(.ready, play: false), .system(.interruptionBegan), "paused(A#2, interrupted)", "none"),
  .init(queued(.stalled), .failed(a2, .decoding), "failed(A#2, decoding, autoplay)", "stop(A#2)"),
  .init(queued(.stalled), .engine(.pausedBySystem(a2)), "stalled(A#2, system pause)", "none"),
  .init(queued(.stalled), .system(.interruptionBegan), "stalled(A#2, interrupted)", "pause(A#2)"),
  .init(queued(.stalled), .system(.routeLost), "stalled(A#2, paused)", "pause(A#2)"),
  .init(
    queued(.stalled), .system(.networkLost), "waiting(A#2, network, attempt 1, autoplay)",
    "stop(A#2)", watchdog: "backoff(A#2, watchdog#2, 1000ms)"),
  .init(
    queued(.stalled, play: false), .system(.interruptionBegan), "stalled(A#2, paused, interrupted)",
    "none"),
  .init(queued(.ended), .system(.interruptionBegan), "ended(A#2, autoplay, interrupted)", "none"),
  .init(queued(.ended), .system(.routeLost), "ended(A#2)", "none"),
  .init(
    queued(.failed(.network)), .system(.interruptionBegan),
    "failed(A#2, network, autoplay, interrupted)", "none"),
  .init(queued(.failed(.network)), .system(.routeLost), "failed(A#2, network)", "none"),
  .init(
    queued(.waitingForNetwork), .play("A"), "buffering(A#3, autoplay)", "load(A#3)",
    watchdog: "watchdog(A#3, watchdog#1)"),
  .init(
    queued(.waitingForNetwork), .queue(["D", "E"]), "buffering(D#3, autoplay)", "load(D#3)",
    watchdog: "watchdog(D#3, watchdog#1)"),
  .init(
    queued(.waitingForNetwork), .user(.append(["D"])), "waiting(A#2, network, attempt 1, autoplay)",
    "none"),
  .init(
    queued(.waitingForNetwork), .user(.insert(["D"], at: 1)),
    "waiting(A#2, network, attempt 1, autoplay)", "none"),
  .init(
    queued(.waitingForNetwork), .user(.remove(at: 0)), "buffering(B#3, autoplay)", "load(B#3)",
    watchdog: "watchdog(B#3, watchdog#1)"),
  .init(
    queued(.waitingForNetwork), .user(.remove(at: 1)), "waiting(A#2, network, attempt 1, autoplay)",
    "none"),
  .init(
    queued(.waitingForNetwork), .user(.move(from: 2, to: 1)),
    "waiting(A#2, network, attempt 1, autoplay)", "none"),
  .init(
    queued(.waitingForNetwork), .user(.jump(to: 0)), "buffering(A#3, autoplay)", "load(A#3)",
    watchdog: "watchdog(A#3, watchdog#1)"),
  .init(
    queued(.waitingForNetwork), .next, "buffering(B#3, autoplay)", "load(B#3)",
    watchdog: "watchdog(B#3, watchdog#1)"),
  .init(
    queued(.waitingForNetwork), .previous, "buffering(A#3, autoplay)", "load(A#3)",
    watchdog: "watchdog(A#3, watchdog#1)"),
  .init(
    queued(.waitingForNetwork), .user(.setRepeat(.one)),
    "waiting(A#2, network, attempt 1, autoplay)", "none"),
  .init(
    queued(.waitingForNetwork), .user(.setShuffle(seed: 7)),
    "waiting(A#2, network, attempt 1, autoplay)", "none"),
  .init(
    queued(.waitingForNetwork), .user(.setRate(PlaybackRate(thousandths: 1500))),
    "waiting(A#2, network, attempt 1, autoplay)", "none"),
  .init(queued(.waitingForNetwork), .user(.clear), "idle", "none"),
  .init(queued(.waitingForNetwork), .pause, "waiting(A#2, network, attempt 1)", "none"),
  .init(queued(.waitingForNetwork), .stop, "idle", "none"),
  .init(
    queued(.waitingForNetwork), .retry, "buffering(A#3, autoplay)", "load(A#3, from 10000ms)",
    watchdog: "watchdog(A#3, watchdog#1)"),
  .init(
    queued(.waitingForNetwork), .watchdogExpired(a2, WatchdogID(1)), "buffering(A#3, autoplay)",
    "load(A#3, from 10000ms)", watchdog: "watchdog(A#3, watchdog#1)"),
  .init(
    queued(.waitingForNetwork), .system(.interruptionBegan),
    "waiting(A#2, network, attempt 1, autoplay, interrupted)", "none"),
  .init(
    queued(.waitingForNetwork), .system(.routeLost), "waiting(A#2, network, attempt 1)", "none"),
  .init(
    queued(.waitingForNetwork), .system(.networkAvailable), "buffering(A#3, autoplay)",
    "load(A#3, from 10000ms)", watchdog: "watchdog(A#3, watchdog#1)"),
  .init(
    queued(.waitingForNetwork, play: false), .resume, "waiting(A#2, network, attempt 1, autoplay)",
    "none"),
  .init(queued(.buffering, interrupted: true), .ready(a2), "suppressed(A#2, interrupted)", "none"),
  .init(
    queued(.buffering, interrupted: true), .system(.interruptionEnded(shouldResume: true)),
    "buffering(A#2, autoplay)", "none"),
  .init(
    queued(.ready, interrupted: true), .play("A"), "buffering(A#3, autoplay, interrupted)",
    "stop(A#2) load(A#3)", watchdog: "watchdog(A#3, watchdog#1)"),
  .init(
    queued(.ready, interrupted: true), .queue(["D", "E"]), "buffering(D#3, autoplay, interrupted)",
    "stop(A#2) load(D#3)", watchdog: "watchdog(D#3, watchdog#1)"),
  .init(
    queued(.ready, interrupted: true), .user(.append(["D"])), "suppressed(A#2, interrupted)", "none"
  ),
  .init(
    queued(.ready, interrupted: true), .user(.insert(["D"], at: 1)), "suppressed(A#2, interrupted)",
    "none"),
  .init(
    queued(.ready, interrupted: true), .user(.remove(at: 0)),
    "buffering(B#3, autoplay, interrupted)", "stop(A#2) load(B#3)",
    watchdog: "watchdog(B#3, watchdog#1)"),
  .init(
    queued(.ready, interrupted: true), .user(.remove(at: 1)), "suppressed(A#2, interrupted)", "none"
  ),
  .init(
    queued(.ready, interrupted: true), .user(.move(from: 2, to: 1)), "suppressed(A#2, interrupted)",
    "none"),
  .init(
    queued(.ready, interrupted: true), .user(.jump(to: 0)), "suppressed(A#2, interrupted, seek#2)",
    "seek(A#2, 0ms, seek#2)"),
  .init(
    queued(.ready, interrupted: true), .user(.jump(to: 2)), "buffering(C#3, autoplay, interrupted)",
    "stop(A#2) load(C#3)", watchdog: "watchdog(C#3, watchdog#1)"),
  .init(
    queued(.ready, interrupted: true), .next, "buffering(B#3, autoplay, interrupted)",
    "stop(A#2) load(B#3)", watchdog: "watchdog(B#3, watchdog#1)"),
  .init(
    queued(.ready, interrupted: true), .previous, "suppressed(A#2, interrupted, seek#2)",
    "seek(A#2, 0ms, seek#2)"),
  .init(
    queued(.ready, interrupted: true), .user(.setRepeat(.one)), "suppressed(A#2, interrupted)",
    "none"),
  .init(
    queued(.ready, interrupted: true), .user(.setShuffle(seed: 7)), "suppressed(A#2, interrupted)",
    "none"),
  .init(
    queued(.ready, interrupted: true), .user(.setRate(PlaybackRate(thousandths: 1500))),
    "suppressed(A#2, interrupted)", "none"),
  .init(queued(.ready, interrupted: true), .user(.clear), "idle", "stop(A#2)"),
  .init(queued(.ready, interrupted: true), .pause, "paused(A#2, interrupted)", "none"),
  .init(queued(.ready, interrupted: true), .stop, "idle", "stop(A#2)"),
  .init(
    queued(.ready, interrupted: true), .seek(to: .seconds(1)),
    "suppressed(A#2, interrupted, seek#2)", "seek(A#2, 1000ms, seek#2)"),
  .init(
    queued(.ready, interrupted: true), .stalled(a2), "stalled(A#2, interrupted)", "none",
    watchdog: "watchdog(A#2, watchdog#2)"),
  .init(
    queued(.ready, interrupted: true), .reachedEnd(a2), "buffering(B#3, autoplay, interrupted)",
    "stop(A#2) load(B#3)", watchdog: "watchdog(B#3, watchdog#1)"),
  .init(
    queued(.ready, interrupted: true), .failed(a2, .network),
    "waiting(A#2, network, attempt 1, autoplay, interrupted)", "stop(A#2)",
    watchdog: "backoff(A#2, watchdog#2, 1000ms)"),
  .init(
    queued(.ready, interrupted: true), .failed(a2, .decoding),
    "failed(A#2, decoding, autoplay, interrupted)", "stop(A#2)"),
  .init(
    queued(.ready, interrupted: true), .position(a2, .seconds(5)), "suppressed(A#2, interrupted)",
    "none"),
  .init(
    queued(.ready, interrupted: true), .system(.interruptionEnded(shouldResume: true)),
    "playing(A#2)", "start(A#2)"),
  .init(
    queued(.ready, interrupted: true), .system(.interruptionEnded(shouldResume: false)),
    "paused(A#2)", "none"),
  .init(queued(.ready, interrupted: true), .system(.routeLost), "paused(A#2, interrupted)", "none"),
  .init(
    queued(.ready, play: false, interrupted: true), .resume, "suppressed(A#2, interrupted)", "none"),
  .init(
    queued(.ready, play: false, interrupted: true), .system(.interruptionEnded(shouldResume: true)),
    "paused(A#2)", "none"),
  .init(queued(.stalled, interrupted: true), .pause, "stalled(A#2, paused, interrupted)", "none"),
  .init(queued(.stalled, interrupted: true), .resumed(a2), "suppressed(A#2, interrupted)", "none"),
  .init(
    queued(.stalled, interrupted: true), .system(.interruptionEnded(shouldResume: true)),
    "stalled(A#2)", "start(A#2)"),
  .init(
    queued(.stalled, interrupted: true), .system(.interruptionEnded(shouldResume: false)),
    "stalled(A#2, paused)", "none"),
  .init(
    queued(.stalled, interrupted: true), .system(.routeLost), "stalled(A#2, paused, interrupted)",
    "none"),
  .init(
    queued(.stalled, play: false, interrupted: true), .resume, "stalled(A#2, interrupted)", "none"),
  .init(queued(.ready, systemPaused: true), .resume, "playing(A#2)", "start(A#2)"),
  .init(
    queued(.ready, systemPaused: true), .system(.interruptionBegan), "suppressed(A#2, interrupted)",
    "none"),
  .init(
    preloading(.buffering), .failed(a2, .decoding), "failed(A#2, decoding, autoplay)",
    "stop(A#2) stop(B#3)"),
  .init(
    preloading(.buffering, play: false), .failed(a2, .decoding), "failed(A#2, decoding)",
    "stop(A#2) stop(B#3)"),  // The remote-control intents (issue 22): toggle, skip, setPosition.
  .init(
    idleABC, .toggle, "buffering(A#3, autoplay)", "load(A#3)", watchdog: "watchdog(A#3, watchdog#1)"
  ),
  .init(queued(.buffering), .toggle, "buffering(A#2, paused)", "none"),
  .init(
    queued(.buffering), .skip(by: .seconds(15)), "buffering(A#2, autoplay, seek#2)",
    "seek(A#2, 25000ms, seek#2)"),
  .init(
    queued(.buffering), .user(.setPosition(ItemID(1), .seconds(1))),
    "buffering(A#2, autoplay, seek#2)", "seek(A#2, 1000ms, seek#2)"),
  .init(queued(.ready), .toggle, "paused(A#2)", "pause(A#2)"),
  .init(
    queued(.ready), .skip(by: .seconds(15)), "playing(A#2, seek#2)", "seek(A#2, 25000ms, seek#2)"),
  .init(
    queued(.ready), .user(.setPosition(ItemID(1), .seconds(1))), "playing(A#2, seek#2)",
    "seek(A#2, 1000ms, seek#2)"),
  .init(queued(.ready, play: false), .toggle, "playing(A#2)", "start(A#2)"),
  .init(
    queued(.ready, play: false), .skip(by: .seconds(15)), "paused(A#2, seek#2)",
    "seek(A#2, 25000ms, seek#2)"),
  .init(
    queued(.ready, play: false), .user(.setPosition(ItemID(1), .seconds(1))), "paused(A#2, seek#2)",
    "seek(A#2, 1000ms, seek#2)"),
  .init(queued(.stalled), .toggle, "stalled(A#2, paused)", "pause(A#2)"),
  .init(
    queued(.stalled), .skip(by: .seconds(15)), "stalled(A#2, seek#2)", "seek(A#2, 25000ms, seek#2)"),
  .init(
    queued(.stalled), .user(.setPosition(ItemID(1), .seconds(1))), "stalled(A#2, seek#2)",
    "seek(A#2, 1000ms, seek#2)"),
  .init(queued(.stalled, play: false), .toggle, "stalled(A#2)", "start(A#2)"),
  .init(queued(.ended), .toggle, "playing(A#2, seek#2)", "seek(A#2, 0ms, seek#2) start(A#2)"),
  .init(
    queued(.ended), .skip(by: .seconds(15)), "playing(A#2, seek#2)",
    "seek(A#2, 25000ms, seek#2) start(A#2)"),
  .init(
    queued(.ended), .user(.setPosition(ItemID(1), .seconds(1))), "playing(A#2, seek#2)",
    "seek(A#2, 1000ms, seek#2) start(A#2)"),
  .init(
    queued(.ended, play: false), .skip(by: .seconds(15)), "paused(A#2, seek#2)",
    "seek(A#2, 25000ms, seek#2)"),
  .init(
    queued(.ended, play: false), .user(.setPosition(ItemID(1), .seconds(1))), "paused(A#2, seek#2)",
    "seek(A#2, 1000ms, seek#2)"),
  .init(
    queued(.failed(.network)), .toggle, "buffering(A#3, autoplay)", "load(A#3, from 10000ms)",
    watchdog: "watchdog(A#3, watchdog#1)"),
  .init(queued(.waitingForNetwork), .toggle, "waiting(A#2, network, attempt 1)", "none"),
  .init(
    queued(.ready, interrupted: true), .skip(by: .seconds(15)),
    "suppressed(A#2, interrupted, seek#2)", "seek(A#2, 25000ms, seek#2)"),
  .init(
    queued(.ready, interrupted: true), .user(.setPosition(ItemID(1), .seconds(1))),
    "suppressed(A#2, interrupted, seek#2)", "seek(A#2, 1000ms, seek#2)"),
  .init(
    queued(.ready, play: false, interrupted: true), .toggle, "suppressed(A#2, interrupted)", "none"),
  .init(
    queued(.stalled, play: false, interrupted: true), .toggle, "stalled(A#2, interrupted)", "none"),
  .init(queued(.ready, systemPaused: true), .toggle, "playing(A#2)", "start(A#2)"),
]

@Suite("Transition table")
struct TransitionTests {
  @Test("accepted transition", arguments: transitionCases + sleepTimerCases + liveCases)
  func accepted(_ example: TransitionCase) {
    let transition = example.state.transition(on: example.event)
    #expect(transition.ignored == nil)
    #expect(transition.next.invariantViolation == nil)
    #expect(transition.next.description == example.next)
    let (commands, watchdog) = printed(transition, from: example.state)
    #expect(commands == example.commands)
    #expect(watchdog == example.watchdog)
  }

  @Test func everyRowOfTheTableHasALiteralCase() {
    let covered = Set(
      (transitionCases + sleepTimerCases + liveCases).map {
        TransitionTable.Row(
          before: $0.state, event: $0.event, transition: $0.state.transition(on: $0.event))
      })
    let missing = TransitionTable.accepted.filter { !covered.contains($0) }
    #expect(missing.map(\.description) == [])
    #expect(TransitionTable.accepted.count == 333)
  }

  @Test func newLoadsKeepCountingAfterStop() {
    let result = run([.play("A"), .stop, .play("A"), .stop, .play("B")])
    #expect(result.state.description == "buffering(B#3, autoplay)")
    #expect(result.state.issuedLoads == 3)
    #expect(result.commands == ["load(A#1)", "stop(A#1)", "load(A#2)", "stop(A#2)", "load(B#3)"])
  }

  @Test func seekIdsRestartForEachLoad() {
    let result = run([
      .play("A"), .seek(to: .seconds(1)), .seek(to: .seconds(2)), .play("B"), .seek(to: .zero),
    ])
    #expect(result.state.description == "buffering(B#2, autoplay, seek#1)")
    #expect(
      result.commands == [
        "load(A#1)", "seek(A#1, 1000ms, seek#1)", "seek(A#1, 2000ms, seek#2)", "stop(A#1)",
        "load(B#2)", "seek(B#2, 0ms, seek#1)",
      ])
  }

  @Test func stallsArmNewWatchdogsAndOldOnesAreStale() {
    let a1 = Load(1, 1)
    let result = run([
      .play("A"), .ready(a1), .stalled(a1), .resumed(a1), .stalled(a1),
      .watchdogExpired(a1, WatchdogID(1)), .watchdogExpired(a1, WatchdogID(2)),
    ])
    #expect(result.state.description == "stalled(A#1)")
    #expect(result.state.session?.lastWatchdog == WatchdogID(3))
    let expiry = result.state.transition(on: .watchdogExpired(a1, WatchdogID(3)))
    #expect(expiry.next.description == "failed(A#1, timeout, autoplay)")
    #expect(printed(expiry, from: result.state).commands == "stop(A#1)")
  }

  @Test func derivedIsPlayingNeedsBothReadyAndIntent() {
    #expect(fixture(.ready, play: true).isPlaying == true)
    #expect(fixture(.ready, play: false).isPlaying == false)
    #expect(fixture(.buffering, play: true).isPlaying == false)
    #expect(fixture(.stalled, play: true).isPlaying == false)
    #expect(fixture(.ended, play: true).isPlaying == false)
    #expect(idle2.isPlaying == false)
  }

  @Test func pureReduceAgreesWithTransition() {
    let state = PlaybackState.reduce(PlaybackState(), .play("A"))
    #expect(
      state
        == PlaybackState(
          queue: PlayQueue(entries: [QueueEntry(item: ItemID(1), media: "A")], current: 0),
          session: Session(
            load: Load(1, 1), stage: .buffering, lastWatchdog: WatchdogID(1)),
          playWhenReady: true, issuedLoads: 1, issuedItems: 1))
    #expect(state == PlaybackState().transition(on: .play("A")).next)
  }
}
