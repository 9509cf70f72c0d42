import PlayerState

extension Shrinker {
  /// The action about each of `known` instead of its own, then its own token
  /// with each of their items, then with each seek or watchdog id 0…3 instead of its own.
  static func identities(of action: FuzzAction, _ known: [Load]) -> [FuzzAction] {
    guard let old = action.load else { return [] }
    var out = known.filter { $0 != old }.map { action.renaming(old, to: $0) }
    // The same token with another known load's item: a report about a preload
    // the deletion of its `ready` left unissued can name the current entry instead.
    for load in known where load.item != old.item && load.token != old.token {
      let variant = action.renaming(old, to: Load(item: load.item, token: old.token))
      if !out.contains(variant) { out.append(variant) }
    }
    for id: UInt32 in 0...3 {
      switch action {
      case .send(.watchdogExpired(let load, let watchdog)) where watchdog.rawValue != id:
        out.append(.send(.watchdogExpired(load, WatchdogID(id))))
      case .send(.engine(.seekCompleted(let load, let seek))) where seek.rawValue != id:
        out.append(.send(.seekCompleted(load, SeekID(id))))
      case .reentrant(.seekCompleted(let load, let seek)) where seek.rawValue != id:
        out.append(.reentrant(.seekCompleted(load, SeekID(id))))
      case .later(.seekCompleted(let load, let seek)) where seek.rawValue != id:
        out.append(.later(.seekCompleted(load, SeekID(id))))
      default: break
      }
    }
    return out
  }

  /// The same report (same delivery, same load) of the other common kinds;
  /// a position report to `past`, a time past the case's `previous` threshold.
  static func kinds(of action: FuzzAction, past: MediaTime) -> [FuzzAction] {
    guard let load = action.load, case .engine = action.event else { return [] }
    let reports: [EngineReport] = [
      .ready(load), .stalled(load), .reachedEnd(load), .position(load, past),
    ]
    return reports.map { action.with($0) }.filter { $0 != action }
  }

  /// The intents ``Search/replaceIntents()`` tries in place of another:
  /// one of each kind, with the smallest arguments.
  static let alphabet: [UserIntent] = [
    .play("A"), .replaceQueue(["A", "B"]), .replaceQueue(["A", "B", "C"]),
    .replaceQueue(["A", "B"], playWhenReady: false),
    .replaceQueue(["A"], playWhenReady: false), .append(["A"]), .insert(["A"], at: 0),
    .insert(["A"], at: 1), .remove(at: 0), .remove(at: 1), .move(from: 0, to: 1), .jump(to: 0),
    .jump(to: 1), .next, .previous, .setRepeat(.one), .setRepeat(.all), .setRepeat(.off),
    .setShuffle(seed: 1), .setShuffle(seed: nil), .clear, .pause, .resume, .stop,
    .seek(to: .zero), .retry,
  ]

  /// A load from a position, `play(A, from: t)`, as the second entry of a
  /// queue of two from the same position: `previous` then has an entry to go
  /// back to, so the position against the case's threshold decides (one
  /// action where `play` needed `repeat(all)` too). Empty for other intents.
  static func positioned(_ intent: UserIntent) -> [UserIntent] {
    switch intent {
    case .play(let media, let time) where time != .zero:
      return [.replaceQueue([media, media], start: 1, from: time)]
    case .replaceQueue(let list, _, let time, let play) where list.count == 1 && time != .zero:
      return [.replaceQueue(list + list, start: 1, from: time, playWhenReady: play)]
    default:
      return []
    }
  }

  /// New queues that reach what `model` holds in one intent: its entries, the
  /// current one loaded from its last known position (and from 0), and with
  /// an entry before a first current one, so that `previous` has one to go
  /// back to (a position reached through `ready`, `ended` or a seek, said as
  /// where the load starts).
  static func reached(_ model: ContractModel) -> [UserIntent] {
    guard let at = model.position else { return [] }
    let media = model.entries.map(\.media)
    let from = MediaTime.milliseconds(max(model.current?.position ?? 0, 0))
    let play = model.playWhenReady
    var out: [UserIntent] = [.replaceQueue(media, start: at, from: from, playWhenReady: play)]
    if at == 0 {
      out.append(.replaceQueue([media[0]] + media, start: 1, from: from, playWhenReady: play))
    }
    if from != .zero { out.append(.replaceQueue(media, start: at, playWhenReady: play)) }
    return out
  }

  /// The intents ``Search/replaceWindows()`` tries in place of a window of
  /// adjacent actions: `play` of each media the case's intents name (A
  /// first, at most four) and of one they do not name (a new item, as a
  /// skip or a reload of another entry gives), then the skips and transport
  /// intents.
  static func windowIntents(_ actions: [FuzzAction]) -> [UserIntent] {
    var media: [MediaID] = ["A"]
    for action in actions {
      guard case .send(.user(let intent)) = action else { continue }
      let named: [MediaID]
      switch intent {
      case .play(let one, _): named = [one]
      case .replaceQueue(let list, _, _, _), .append(let list), .insert(let list, _): named = list
      default: named = []
      }
      for one in named where !media.contains(one) && media.count < 4 { media.append(one) }
    }
    if let new = (["B", "C", "D", "E"] as [MediaID]).first(where: { !media.contains($0) }) {
      media.append(new)
    }
    return media.map { UserIntent.play($0) } + [.next, .previous, .stop, .retry, .resume, .pause]
  }

  /// Other ways to say an intent, no longer: `play(A)` as a paused queue, and
  /// from a position as the second entry of a queue of two (so that
  /// `previous` has an entry to go back to), a queue or jump from `past` (past
  /// the case's `previous` threshold), a queue paused, a seek to `past`.
  static func variants(of intent: UserIntent, past: MediaTime) -> [UserIntent] {
    // An edit right after the first entry: it drops that entry's preload
    // and (insert) preloads another, which a skip or a new queue did in two
    // steps; or the simplest load of all, `play(A)`.
    let edits: [UserIntent] = [.insert(["A"], at: 1), .remove(at: 1), .play("A")].filter {
      $0 != intent
    }
    return edits + sameKind(intent, past: past)
  }

  private static func sameKind(_ intent: UserIntent, past: MediaTime) -> [UserIntent] {
    switch intent {
    case .play(let media, let time):
      let variants: [UserIntent] = [
        .replaceQueue([media], start: 0, from: time, playWhenReady: false),
        .play(media, from: past),
      ]
      // From a position: the second of two, so `previous` can go back or restart.
      return variants
    case .replaceQueue(let list, let start, let time, let play):
      return [
        .replaceQueue(list, start: start, from: time, playWhenReady: !play),
        .replaceQueue(list, start: start, from: past, playWhenReady: play),
      ]
    case .jump(let to, _):
      return [.jump(to: to, from: past)]
    case .seek(let time) where time != past:
      // A seek somewhere else than where the load is: one action where a
      // position report (or a load from a time) and a seek to 0 took two.
      return [.seek(to: past)]
    default:
      return []
    }
  }

  /// The intent an action sends, for merging: a user's own, or `pause` for
  /// the route lost (which acts as the user's pause).
  static func intent(of action: FuzzAction) -> UserIntent? {
    switch action {
    case .send(.user(let intent)): intent
    case .send(.system(.routeLost)): .pause
    default: nil
    }
  }

  /// One intent that does what `first` then `second` do, when there is one.
  static func merged(_ first: UserIntent, _ second: UserIntent) -> [UserIntent] {
    switch (first, second) {
    case (.replaceQueue(let list, let start, let time, _), .pause):
      return [.replaceQueue(list, start: start, from: time, playWhenReady: false)]
    case (.play(let media, let time), .pause):
      return [.replaceQueue([media], start: 0, from: time, playWhenReady: false)]
    case (.replaceQueue(let list, _, _, let play), .jump(let to, let time))
    where list.indices.contains(to):
      return [.replaceQueue(list, start: to, from: time, playWhenReady: play)]
    case (.replaceQueue(let list, let start, .zero, let play), .seek(let time)):
      return [.replaceQueue(list, start: start, from: time, playWhenReady: play)]
    case (.play(let media, .zero), .seek(let time)):
      return [.play(media, from: time)]
    case (.replaceQueue(let list, let start, _, let play), .next) where start + 1 < list.count:
      return [.replaceQueue(list, start: start + 1, playWhenReady: play)]
    case (.replaceQueue(let list, let start, let time, let play), .append(let more)):
      return [.replaceQueue(list + more, start: start, from: time, playWhenReady: play)]
    case (.play(let media, let time), .append(let more)),
      (.play(let media, let time), .insert(let more, 1)):
      return [.replaceQueue([media] + more, start: 0, from: time)]
    case (.replaceQueue(let list, let start, let time, let play), .insert(let more, let at))
    where at == list.count:
      return [.replaceQueue(list + more, start: start, from: time, playWhenReady: play)]
    case (.append(let list), .append(let more)), (.insert(let list, 0), .append(let more)):
      // Right on an empty queue only; elsewhere the candidate simply fails.
      return [.append(list + more)]
    case (.append(let list), .insert(let more, let at)),
      (.insert(let list, 0), .insert(let more, let at)):
      // Two edits of an empty queue: one append of the entries they leave.
      guard at >= 0, at <= list.count else { return [] }
      var entries = list
      entries.insert(contentsOf: more, at: at)
      return [.append(entries)]
    case (.replaceQueue(let list, let start, let time, let play), .move(let from, let to))
    where from == start && list.indices.contains(to):
      var moved = list
      moved.insert(moved.remove(at: from), at: to)
      return [.replaceQueue(moved, start: to, from: time, playWhenReady: play)]
    case (.append(let list), .resume), (.insert(let list, _), .resume):
      return list.isEmpty ? [] : [.replaceQueue(list)]
    default:
      return []
    }
  }

  /// Simpler versions of one action, most preferred first.
  static func simpler(_ action: FuzzAction, _ model: ContractModel) -> [FuzzAction] {
    var out: [FuzzAction] = []
    switch action {
    case .deliver, .lifecycle:
      return []
    case .reentrant(let report), .later(let report):
      out.append(.send(.engine(report)))
      out += simpler(report, model).map { action.with($0) }
    case .send(.engine(let report)):
      out += simpler(report, model).map { .send(.engine($0)) }
    case .send(.user(.play(let media, let time))):
      if time != .zero { out.append(.send(.play(media))) }
      if media != "A" { out.append(.send(.play("A", from: time))) }
    case .send(.user(.replaceQueue(let media, let start, let time, let play))):
      if media.count == 1 { out.append(.send(.play(media[0], from: time))) }
      if time != .zero {
        out.append(.send(.queue(media, start: start, playWhenReady: play)))
      }
      if start > 0, start < media.count {
        out.append(.send(.queue(Array(media[start...]), from: time, playWhenReady: play)))
      }
      for index in media.indices where media.count > 1 && index != start {
        var shorter = media
        shorter.remove(at: index)
        out.append(
          .send(
            .queue(
              shorter, start: index < start ? start - 1 : start, from: time, playWhenReady: play)))
      }
      if media.contains(where: { $0 != "A" }) {
        out.append(
          .send(.queue(media.map { _ in "A" }, start: start, from: time, playWhenReady: play)))
      }
    case .send(.user(.jump(let to, let time))) where time != .zero:
      out.append(.send(.user(.jump(to: to))))
    case .send(.user(.append(let media))) where media.count > 1:
      for index in media.indices {
        var shorter = media
        shorter.remove(at: index)
        out.append(.send(.user(.append(shorter))))
      }
    case .send(.user(.insert(let media, let at))):
      for index in media.indices where media.count > 1 {
        var shorter = media
        shorter.remove(at: index)
        out.append(.send(.user(.insert(shorter, at: at))))
      }
      if at > 0 { out.append(.send(.user(.insert(media, at: 0)))) }
    case .send(.user(.seek(let time))) where time != .zero:
      out.append(.send(.seek(to: .zero)))
    case .send(.watchdogExpired(let load, let id)):
      let newest = WatchdogID(model.current?.lastWatchdog ?? 1)
      for candidate in loads(load, model) { out.append(.send(.watchdogExpired(candidate, id))) }
      if id != newest { out.append(.send(.watchdogExpired(load, newest))) }
    case .send(.system(.interruptionEnded(shouldResume: false))):
      out.append(.send(.system(.interruptionEnded(shouldResume: true))))
    case .send(.remote(let intent)):
      // The same intent from the user first: the source rarely matters.
      out.append(.send(.user(intent)))
    case .send(.user(.skip(let delta))):
      // A skip is a seek from the target: the plain seek first.
      out.append(.send(.seek(to: .zero)))
      if delta != .seconds(15) { out.append(.send(.skip(by: .seconds(15)))) }
    case .send(.user(.setPosition(_, let time))):
      out.append(.send(.seek(to: time)))
    case .send(.user(.toggle)):
      out += [.send(.pause), .send(.resume)]
    case .send(.user), .send(.system):
      break
    }
    return out
  }

  private static func simpler(_ report: EngineReport, _ model: ContractModel) -> [EngineReport] {
    var out = loads(report.load, model).map { report.withLoad($0) }
    if case .seekCompleted(let load, let seek) = report {
      let newest = SeekID(max(model.current?.lastSeek ?? 1, 1))
      if seek != newest { out.append(.seekCompleted(load, newest)) }
    }
    if case .failed(let load, let reason, let detail) = report {
      // Without the engine's error first, then the plainest class.
      if detail != nil { out.append(.failed(load, reason)) }
      if reason != .network { out.append(.failed(load, .network, detail: detail)) }
    }
    if case .ready(let load, .some) = report { out.append(.ready(load)) }
    if case .window(let load, let window) = report {
      // Live streams (issue 38): live without DVR at the same edge (a live load saves no
      // position, seeks nowhere, plays at 1x at once), then the engine's own word that the
      // load fell behind (what a later window behind the position does, in one report).
      if window.start != window.end, window.start >= .zero, window.end >= .zero {
        out.append(.window(load, LiveWindow(start: window.end, end: window.end)))
      }
      out.append(.failed(load, .behindLiveWindow))
    }
    if case .ready(let load, nil) = report, model.crossfade > 0, load == model.current?.load {
      // A duration long enough to crossfade, so that the entry that crossfaded can be the
      // first one (the steps that led to another can go).
      out.append(.ready(load, duration: .seconds(10)))
    }
    if case .position(let load, let time) = report, model.crossfade > 0,
      let duration = model.current?.duration, time.milliseconds != duration
    {
      // At the end of the known duration: inside a crossfade's window at any rate, so that a
      // rate change the window needed can go.
      out.append(.position(load, .milliseconds(duration)))
    }
    return out
  }

  /// The current load, then the preload, when they differ from `load`.
  private static func loads(_ load: Load, _ model: ContractModel) -> [Load] {
    var out: [Load] = []
    if let current = model.current?.load ?? model.newest, current != load { out.append(current) }
    if let preload = model.preload?.load, preload != load { out.append(preload) }
    return out
  }
}

extension FuzzAction {
  /// The seek id a seek completion names.
  var seek: SeekID? {
    if case .engine(.seekCompleted(_, let seek))? = event { return seek }
    return nil
  }

  /// The same seek completion naming another seek.
  func withSeek(_ id: SeekID) -> FuzzAction {
    guard case .engine(.seekCompleted(let load, _))? = event else { return self }
    return with(.seekCompleted(load, id))
  }

  /// The same action with `old` replaced by `new` wherever it names a load.
  func renaming(_ old: Load, to new: Load) -> FuzzAction {
    switch self {
    case .send(.watchdogExpired(old, let id)): .send(.watchdogExpired(new, id))
    case .send(.engine(let report)) where report.load == old: .send(.engine(report.withLoad(new)))
    case .reentrant(let report) where report.load == old: .reentrant(report.withLoad(new))
    case .later(let report) where report.load == old: .later(report.withLoad(new))
    default: self
    }
  }

  /// The same action with media `old` replaced by `new` in every intent.
  func renamingMedia(_ old: MediaID, to new: MediaID) -> FuzzAction {
    func swap(_ list: [MediaID]) -> [MediaID] { list.map { $0 == old ? new : $0 } }
    switch self {
    case .send(.user(.play(old, let time))): return .send(.play(new, from: time))
    case .send(.user(.replaceQueue(let list, let start, let time, let play))):
      return .send(.queue(swap(list), start: start, from: time, playWhenReady: play))
    case .send(.user(.append(let list))): return .send(.user(.append(swap(list))))
    case .send(.user(.insert(let list, let at))): return .send(.user(.insert(swap(list), at: at)))
    default: return self
    }
  }

  /// The same delivery with another report.
  func with(_ report: EngineReport) -> FuzzAction {
    switch self {
    case .reentrant: .reentrant(report)
    case .later: .later(report)
    case .send, .deliver, .lifecycle: .send(.engine(report))
    }
  }
}

extension FuzzAction {
  /// Whether the action sends one of the system's events.
  var isSystemEvent: Bool {
    if case .send(.system) = self { return true }
    return false
  }
}
