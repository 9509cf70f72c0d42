import PlayerState

// The explorer's alphabet: every event kind, with identities relative to the
// state (roles) and values at every rule boundary, so that a letter means the
// same thing in every state it applies to and two states the canonical
// snapshot merges resolve each letter to the same input up to renaming.

extension Explorer {
  /// The times letters carry, relative to the previous threshold T: the rules
  /// read a time only against 0 (a preload starts only from 0) and T
  /// (`previous` restarts past it), and a reported duration becomes the
  /// position at the end; one representative per class.
  enum Time: Int, CaseIterable, Hashable, Sendable {
    /// The start.
    case zero
    /// Below the threshold: T / 3.
    case below
    /// Exactly the threshold.
    case at
    /// Past the threshold: T + 1 s.
    case above
    /// The duration `ready` reports: T + 2 s.
    case duration

    /// The time for threshold `threshold`.
    func value(_ threshold: MediaTime) -> MediaTime {
      let t = threshold.milliseconds
      switch self {
      case .zero: return .zero
      case .below: return .milliseconds(t / 3)
      case .at: return threshold
      case .above: return .milliseconds(t + 1000)
      case .duration: return .milliseconds(t + 2000)
      }
    }
  }

  /// A media a letter names: one no role refers to, or the current entry's.
  enum Media: Hashable, Sendable { case fresh, current }

  /// A queue position relative to the current entry.
  enum Spot: Hashable, Sendable {
    /// The entry before the current one.
    case before
    /// The current entry (for `insert`: just before it).
    case current
    /// The entry after the current one (for `insert`: just after it).
    case after
    /// One past the last entry (an `insert` there appends; elsewhere invalid).
    case end
    /// Outside the queue for every intent (`insert` at count + 1).
    case outside
  }

  /// One letter of the alphabet: an event with identities relative to the state.
  indirect enum Letter: Hashable, Sendable {
    /// `play(M, from: t)`.
    case play(Media, Time)
    /// `replaceQueue` of `count` fresh media, starting at the first entry or
    /// the last, from a time, playing or paused (`count` 0 clears).
    case queue(count: Int, last: Bool, from: Time, paused: Bool)
    /// `append` one fresh media.
    case append
    /// `insert` one fresh media at a spot.
    case insert(Spot)
    /// `remove(at:)` a spot.
    case remove(Spot)
    /// `move` the current entry to the end, the next entry to the front, or an entry onto itself.
    case move(Move)
    /// `jump(to:from:)`.
    case jump(Spot, Time)
    /// An intent without a position or media.
    case intent(UserIntent)
    /// `seek(to:)`.
    case seek(Time)
    /// `setRate`: another rate than the current one (1.5x from 1x, 1x from
    /// any other), the same one, or 0 (invalid). Rates are data the rules
    /// compare only with the current one, so the letters name them that way.
    case rate(Rate)
    /// `ready` of a load, with the duration or without.
    case ready(Reference, duration: Bool)
    /// `stalled`, `resumed`, `ended` or `pausedBySystem` of a load.
    case report(Report, Reference)
    /// `position` of a load at a time.
    case position(Reference, Time)
    /// `failed` of a load for a reason.
    case failed(FailureReason, Reference)
    /// A failure of the current load carrying the engine's own error
    /// (``detail``), which the player must keep as the contract does.
    case failedWithDetail(FailureReason)
    /// A seek completion.
    case seeked(Reference, Relative)
    /// A watchdog expiry.
    case timeout(Reference, Relative)
    /// An event of the operating system (an interruption, the route, the network).
    case system(SystemEvent)
    /// `skip(by: ±Δ)`, Δ the time past the threshold (T + 1 s), sent only
    /// while the position it starts from (the pending seek's target, else the
    /// last known one) is one of the letters' times, so that positions stay
    /// finite: two presses from 0 land past T + 2 s, and a press back from
    /// below T + 1 s is clamped at 0.
    case skip(forward: Bool)
    /// `setPosition(item, t)` of the current entry at a time, past the
    /// duration the letters report, or of another entry (one not current).
    case setPosition(Placement)
    /// The expiry of a sleep countdown: the newest one, an older one, or one
    /// never issued.
    case sleepExpired(Relative)
    /// An intent sent by a remote control (the lock screen, a headset).
    case remote(Letter)
    /// An intent whose first command the engine answers from inside
    /// `execute` (re-entrantly) with one or more reports, in order.
    case answered(Letter, [Answer])
    /// A report the engine holds back until a `deliver`.
    case later(Letter)
    /// The engine sends its held-back reports, oldest first.
    case deliver
    /// The app saves a snapshot, is relaunched from it, or hands playback off
    /// to a new engine (feature `restore`), also while reports are held back:
    /// a relaunch drops them with the old engine; a hand-off leaves them for
    /// the old player, which they reach at the next `deliver` (and which must
    /// send its engine nothing then), as in the random runs. The explorer's
    /// key keeps how many reports wait for the retired player, and every
    /// hand-off it explores is followed by their delivery.
    case lifecycle(FuzzLifecycle)
    /// A letter an ``ExplorationReach`` option adds (ExplorerReach.swift).
    case reach(Reach)
    /// A letter of volume, mute and ducking (feature `volume`, ``volumeLetters``).
    case volume(Sound)
    /// The expiry of the timer of the load fading out into a stop (feature
    /// `fade`, ``fadeLetters``): its own id, the one before, or one never issued.
    /// (The fade into a pause is the current load's newest timer: a `timeout` letter.)
    case fadeEnd(Relative)
    /// A letter of crossfade (feature `crossfade`, ``crossfadeLetters``): a
    /// position report of the current load inside the end's window or just
    /// outside it. The outgoing load's `ended` and `failed` inside its fade and
    /// its timer's expiries are the fade letters (``fadeLetters``); late, after
    /// its `stop`, its `ended` is a stale load's (`.report(.ended, .previous)`).
    case crossfade(Crossfading)
    /// A letter of live streams (feature `live`, ``liveLetters``): a window
    /// report, its times taken from the letters' (so that a search stays finite).
    case live(Living)

    /// Live streams' letters (issue 38), with `T` the letters' threshold
    /// time: every window is made of the letters' times.
    enum Living: Hashable, Sendable {
      /// `window(L, T…T+2s)` of the current load: a DVR window (its first moves
      /// a position below `T` to the edge; a later one the position fell behind
      /// reloads at the edge).
      case dvr
      /// `window(L, T+2s…T+2s)`: live without DVR.
      case still
      /// `window(L, T+1s…T+2s)`: the window slid (shrank) past `T`.
      case slide
      /// `window(L, T/3…T)`: a window that jumps back.
      case jumpBack
      /// `window(L, T+2s…T)`: the engine's bad window (an edge behind the start).
      case bad
      /// `window(P, T…T+2s)` of the preload: the next entry is live.
      case preload
    }

    /// Crossfade's letters.
    enum Crossfading: Hashable, Sendable {
      /// `position(L, D − d/2)` of the current load, `D` the duration the
      /// letters report (T + 2 s): inside the window of the crossfade `d` (at a
      /// rate of 1).
      case inside
      /// `position(L, D − d − 1 ms)`: just outside the window at a rate of 1.
      case outside
    }

    /// Volume's letters. The user's volumes are absolute (the rules compare a
    /// volume only with the current one and 0…1), so the letters reach 1 and
    /// 0.5 only, and a refused one.
    enum Sound: Hashable, Sendable {
      /// `setVolume(0.5)`.
      case half
      /// `setVolume(1)`: back to full.
      case full
      /// `setVolume(1.5)`: outside 0…1, refused (`invalidArgument`).
      case refused
      /// `setMuted(true)`.
      case mute
      /// `setMuted(false)`.
      case unmute
      /// `duckBegan` of the system.
      case duck
      /// `duckEnded` of the system.
      case unduck
    }

    /// The letters of feature `volume`, which a scope with that feature adds
    /// after the others (``alphabet(for:)``), so that the alphabet of every
    /// scope without it is as it was. Built for each search, as
    /// ``alphabet(entries:)`` (an indirect enum's payloads live in boxes).
    static var volumeLetters: [Letter] {
      [
        .volume(.half), .volume(.full), .volume(.refused), .volume(.mute), .volume(.unmute),
        .volume(.duck), .volume(.unduck),
      ]
    }

    /// The letters of feature `fade`, which a scope with that feature adds after
    /// the others (``alphabet(for:)``), so that the alphabet of every scope
    /// without it is as it was.
    static var fadeLetters: [Letter] {
      [
        .fadeEnd(.newest), .fadeEnd(.older), .fadeEnd(.neverIssued), .report(.ended, .leaving),
        .failed(.decoding, .leaving),
      ]
    }

    /// The letters of feature `crossfade`, which a scope with that feature adds
    /// after the others (with the fade letters: the outgoing load's timer, its
    /// `ended` and its `failed`), so that the alphabet of every scope without it
    /// is as it was.
    static var crossfadeLetters: [Letter] {
      [.crossfade(.inside), .crossfade(.outside)]
    }

    /// The letters of feature `live`, which a scope with that feature adds
    /// after the others, so that the alphabet of every scope without it is as
    /// it was: the windows (``Living``), `goToLive` and the engine's
    /// `failed(L, behindLiveWindow)` of the current load. (A position behind a
    /// window is a `position` letter at a time below its start.)
    static var liveLetters: [Letter] {
      [
        .live(.dvr), .live(.still), .live(.slide), .live(.jumpBack), .live(.bad), .live(.preload),
        .intent(.goToLive), .failed(.behindLiveWindow, .current),
      ]
    }

    enum Answer: Hashable, Sendable {
      /// `ready` of the first load (or preload) the intent issues, or of the
      /// load the next intent will create when it issues none.
      case readyFirst
      /// `ready` of the second load or preload the intent issues.
      case readySecond
      case failedFirst
      case stalledFirst
      case seekedNext
      case stalledCurrent
      case readyCurrent
      case endedCurrent
    }

    enum Move: Hashable, Sendable { case currentToEnd, nextFirst, currentOntoItself }
    enum Placement: Hashable, Sendable { case zero, above, pastEnd, otherEntry }
    enum Rate: Hashable, Sendable { case other, same, invalid }
    enum Report: Hashable, Sendable { case stalled, resumed, ended, pausedBySystem }
    enum Reference: Hashable, Sendable {
      case current, preload, previous, older, dropped, upcoming, neverIssued, wrongItem
      /// The load fading out (``ContractModel/leaving``): only the fade's letters name it.
      case leaving
    }
    enum Relative: Hashable, Sendable { case newest, older, neverIssued }

    static let references: [Reference] = [
      .current, .preload, .previous, .older, .dropped, .upcoming, .neverIssued, .wrongItem,
    ]
    static let reasons: [FailureReason] = [
      .network, .decoding, .unsupported, .notFound, .timeout, .engine(code: -11800),
    ]
    /// The engine error the `failedWithDetail` letters carry.
    static let detail = FailureDetail(
      domain: "AVFoundationErrorDomain", code: -11800,
      message: "The operation could not be completed")
    /// The countdown the sleep timer letter arms (a value the rules only
    /// pass to the clock).
    static let sleepDelay = MediaTime.seconds(600)
    /// The media names letters draw fresh media from.
    static let names: [MediaID] = ["A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K", "L"]

    /// A small alphabet for the tests of the search itself (complete in a
    /// moment in debug builds): one entry's core, a seek, positions on both
    /// sides of the threshold, a system pause, an interruption, a network
    /// failure, a held-back `ready` and a re-entrant one. Built for each
    /// search, as ``alphabet(entries:)``.
    static var core: [Letter] {
      [
        .play(.fresh, .zero), .intent(.pause), .intent(.resume), .intent(.stop), .intent(.retry),
        .intent(.previous), .seek(.zero), .seek(.above), .ready(.current, duration: false),
        .ready(.current, duration: true), .report(.stalled, .current), .report(.resumed, .current),
        .report(.ended, .current), .report(.pausedBySystem, .current), .position(.current, .below),
        .position(.current, .above), .seeked(.current, .newest), .failed(.network, .current),
        .failed(.decoding, .current), .timeout(.current, .newest),
        .ready(.previous, duration: false),
        .system(.interruptionBegan), .system(.interruptionEnded(shouldResume: true)),
        .later(.ready(.current, duration: false)), .deliver,
        .answered(.play(.fresh, .zero), [.readyFirst]),
      ]
    }

    /// The restore letters the core alphabet's tests add
    /// (`ExplorationScope.coreRestore`): a relaunch and a hand-off.
    static var coreRestore: [Letter] { [.lifecycle(.relaunch), .lifecycle(.handoff)] }

    /// The alphabet for queues of at most `entries` entries, built for each
    /// search rather than kept in a global: its `answered` and `later` letters
    /// live in boxes that an indirect enum points to through tagged pointers,
    /// which LeakSanitizer reports as leaks when a global holds them until exit.
    static func alphabet(entries: Int) -> [Letter] {
      var letters: [Letter] = [
        .play(.fresh, .zero), .play(.current, .zero), .play(.current, .above),
        .queue(count: 0, last: false, from: .zero, paused: false),
      ]
      for count in 1...max(1, entries) {
        letters.append(.queue(count: count, last: false, from: .zero, paused: false))
      }
      letters.append(.queue(count: max(1, entries), last: true, from: .above, paused: true))
      letters += [
        .append, .insert(.current), .insert(.after), .insert(.outside),
        .remove(.before), .remove(.current), .remove(.after), .remove(.end),
        .move(.currentToEnd), .move(.nextFirst), .move(.currentOntoItself),
        .jump(.after, .zero), .jump(.after, .above), .jump(.before, .zero), .jump(.current, .below),
        .jump(.end, .zero),
        .intent(.next), .intent(.previous), .intent(.setRepeat(.off)), .intent(.setRepeat(.one)),
        .intent(.setRepeat(.all)), .intent(.setShuffle(seed: 1)), .intent(.setShuffle(seed: nil)),
        .rate(.other), .rate(.same), .rate(.invalid),
        .intent(.clear), .intent(.pause), .intent(.resume), .intent(.stop), .intent(.retry),
      ]
      for time in Time.allCases { letters.append(.seek(time)) }
      letters += [
        .ready(.current, duration: false), .ready(.current, duration: true),
        .ready(.preload, duration: false), .ready(.preload, duration: true),
      ]
      for reference in references.dropFirst(2) {
        letters.append(.ready(reference, duration: false))
      }
      for report: Report in [.stalled, .resumed, .ended, .pausedBySystem] {
        for reference in references { letters.append(.report(report, reference)) }
      }
      for time in Time.allCases { letters.append(.position(.current, time)) }
      for reference in references.dropFirst() { letters.append(.position(reference, .above)) }
      letters += [
        .system(.interruptionBegan), .system(.interruptionEnded(shouldResume: true)),
        .system(.interruptionEnded(shouldResume: false)), .system(.routeLost),
        .system(.networkLost), .system(.networkAvailable),
      ]
      // The remote controls and the sleep timer (features `controls` and `sleepTimer`).
      letters += [
        .intent(.toggle), .skip(forward: true), .skip(forward: false), .setPosition(.zero),
        .setPosition(.above), .setPosition(.pastEnd), .setPosition(.otherEntry),
        .remote(.intent(.toggle)), .remote(.intent(.next)), .remote(.skip(forward: true)),
        .intent(.setSleepTimer(.after(sleepDelay.duration))), .intent(.setSleepTimer(.endOfEntry)),
        .intent(.setSleepTimer(.endOfQueue)), .intent(.setSleepTimer(.afterEntries(2))),
        .intent(.setSleepTimer(.afterEntries(0))), .intent(.setSleepTimer(nil)),
        .sleepExpired(.newest), .sleepExpired(.older), .sleepExpired(.neverIssued),
      ]
      // Restore (feature `restore`): a snapshot taken, a relaunch, a hand-off.
      letters += [.lifecycle(.snapshot), .lifecycle(.relaunch), .lifecycle(.handoff)]
      for reference in references { letters.append(.failed(.network, reference)) }
      for reason in reasons.dropFirst() { letters.append(.failed(reason, .current)) }
      // With the engine's error: a network failure waits (or fails) keeping it, another fails.
      letters += [.failedWithDetail(.network), .failedWithDetail(.decoding)]
      for relative: Relative in [.newest, .older, .neverIssued] {
        letters.append(.seeked(.current, relative))
        letters.append(.timeout(.current, relative))
      }
      for reference in references.dropFirst() {
        letters.append(.seeked(reference, .newest))
        letters.append(.timeout(reference, .newest))
      }
      let queue = Letter.queue(count: max(1, entries), last: false, from: .zero, paused: false)
      letters += [
        .answered(.play(.fresh, .zero), [.readyFirst]),
        .answered(queue, [.readyFirst]),
        .answered(queue, [.readyFirst, .readySecond]),
        .answered(.play(.fresh, .zero), [.failedFirst]),
        .answered(.play(.fresh, .zero), [.readyFirst, .stalledFirst]),
        .answered(.play(.fresh, .zero), [.endedCurrent, .readyFirst]),
        .answered(.intent(.retry), [.readyFirst]),
        .answered(.intent(.next), [.readyFirst]),
        .answered(.intent(.next), [.endedCurrent, .readyFirst]),
        .answered(.intent(.previous), [.readyFirst]),
        .answered(.jump(.after, .zero), [.readyFirst]),
        .answered(.remove(.current), [.readyFirst]),
        .answered(.seek(.zero), [.seekedNext]),
        .answered(.seek(.zero), [.seekedNext, .stalledCurrent]),
        .answered(.intent(.resume), [.stalledCurrent]),
        .answered(.intent(.stop), [.readyCurrent]),
        .answered(.intent(.pause), [.readyCurrent]),
        .answered(.intent(.pause), [.endedCurrent]),
        .answered(.intent(.setRepeat(.one)), [.readyCurrent]),
      ]
      for late: Letter in [
        .ready(.current, duration: false), .report(.ended, .current), .report(.stalled, .current),
        .report(.resumed, .current), .failed(.network, .current), .ready(.preload, duration: false),
        .report(.pausedBySystem, .current), .ready(.upcoming, duration: false),
        .seeked(.current, .newest),
      ] {
        letters.append(.later(late))
      }
      letters.append(.deliver)
      return letters
    }
  }

  /// What a letter is resolved against: the contract's state, the scope and
  /// the configuration's threshold.
  struct LetterContext {
    var model: ContractModel
    /// Held-back reports waiting for the current player.
    var held: [EngineReport]
    /// Held-back reports waiting for the player a hand-off retired.
    var retired: Int
    /// The most queue entries.
    var entries: Int
    /// The most held-back reports.
    var maxHeld: Int
    /// The previous threshold the times are relative to.
    var threshold: MediaTime
    /// Media that no entry, no load a role names and no held report refers
    /// to: renamed away by the canonical snapshot, so which ones they are
    /// does not matter.
    private var unused: [MediaID]

    init(
      model: ContractModel, held: [EngineReport], retired: Int = 0, entries: Int, maxHeld: Int,
      threshold: MediaTime
    ) {
      self.model = model
      self.held = held
      self.retired = retired
      self.entries = entries
      self.maxHeld = maxHeld
      self.threshold = threshold
      var used = model.entries.map(\.media)
      for load in Explorer.roleLoads(model) + held.map(\.load) {
        if let load, let media = model.media[load.item] { used.append(media) }
      }
      // At least three: a letter of ``ExplorationReach`` queues three whatever the scope.
      unused = Array(Letter.names.lazy.filter { !used.contains($0) }.prefix(max(3, entries)))
    }

    func time(_ time: Time) -> MediaTime { time.value(threshold) }

    /// Whether `milliseconds` is one of the letters' times.
    func isLetterTime(_ milliseconds: Int64) -> Bool {
      Time.allCases.contains { $0.value(threshold).milliseconds == milliseconds }
    }

    /// `count` fresh media (as many as there are, at most the scope's entries).
    func fresh(_ count: Int) -> [MediaID] { Array(unused.prefix(count)) }
  }
}

extension Explorer.Letter {
  /// The actions of this letter in `context`, or nil when the letter does not
  /// apply: it names a load or an entry that does not exist, it would make
  /// the queue longer than the scope allows, it would arm a report that no
  /// command fires (its intent sends nothing), hold more than the scope
  /// allows (the retired player's reports count), or deliver nothing.
  func actions(in context: Explorer.LetterContext) -> [FuzzAction]? {
    let model = context.model
    switch self {
    case .deliver: return context.held.isEmpty && context.retired == 0 ? nil : [.deliver]
    case .lifecycle(let step): return [.lifecycle(step)]
    case .later(let letter):
      guard context.held.count + context.retired < context.maxHeld,
        case .engine(let report)? = letter.event(in: context)
      else { return nil }
      return [.later(report)]
    case .answered(let letter, let answers):
      guard case .user(let intent)? = letter.event(in: context) else { return nil }
      var probe = model
      var commands: [EngineCommand] = []
      probe.apply(.user(intent), commands: &commands)
      guard !commands.isEmpty else { return nil }
      let loads = commands.compactMap { command -> Load? in
        switch command {
        case .load(let request), .preload(let request): request.load
        default: nil
        }
      }
      let current = model.current?.load
      let first = loads.first ?? ActionDecoder.upcoming(after: model, 0)
      var reports: [EngineReport] = []
      for answer in answers {
        switch answer {
        case .readyFirst: reports.append(.ready(first))
        case .readySecond:
          guard loads.count >= 2 else { return nil }
          reports.append(.ready(loads[1]))
        case .failedFirst: reports.append(.failed(first, .network))
        case .stalledFirst: reports.append(.stalled(first))
        case .seekedNext:
          guard let current else { return nil }
          reports.append(.seekCompleted(current, SeekID((model.current?.lastSeek ?? 0) &+ 1)))
        case .stalledCurrent:
          guard let current else { return nil }
          reports.append(.stalled(current))
        case .readyCurrent:
          guard let current else { return nil }
          reports.append(.ready(current))
        case .endedCurrent:
          guard let current else { return nil }
          reports.append(.reachedEnd(current))
        }
      }
      return reports.map { .reentrant($0) } + [.send(.user(intent))]
    default:
      return event(in: context).map { [.send($0)] }
    }
  }

  /// The load `reference` names after `model`, or nil when there is none.
  static func load(_ reference: Reference, after model: ContractModel) -> Load? {
    switch reference {
    case .current: return model.current?.load
    case .preload: return model.preload?.load
    // A stopped load of any kind is the same to the rules (`staleLoad`): the
    // older and the dropped one fall back to the previous one when there is
    // none, so which of them exist is not part of the state.
    case .previous: return Explorer.previous(model)
    case .older: return Explorer.older(model) ?? Explorer.previous(model)
    case .dropped: return model.dropped ?? Explorer.previous(model)
    case .leaving: return model.leaving?.load
    case .upcoming: return ActionDecoder.upcoming(after: model, 0)
    case .neverIssued:
      // Past the next token (the upcoming load's); none when the tokens run out first.
      guard model.issued <= UInt32.max - 2 else { return nil }
      let item = model.current?.load.item ?? ItemID(max(model.issuedItems, 1))
      return Load(item: item, token: LoadToken(model.issued + 2))
    case .wrongItem:
      guard let newest = model.current?.load ?? model.newest else { return nil }
      let other =
        model.entries.first { $0.item != newest.item }?.item ?? ItemID(model.issuedItems &+ 1)
      return Load(item: other, token: newest.token)
    }
  }

  /// The event this letter sends in `context`, or nil when it names nothing
  /// or leaves the scope.
  func event(in context: Explorer.LetterContext) -> PlaybackEvent? {
    let model = context.model
    func id(_ newest: UInt32, _ relative: Relative) -> UInt32? {
      switch relative {
      case .newest: return newest >= 1 ? newest : nil
      case .older: return newest >= 2 ? newest &- 1 : nil
      case .neverIssued: return newest &+ 1
      }
    }
    let at = model.position ?? 0
    let count = model.entries.count
    let room = context.entries - count
    func index(_ spot: Explorer.Spot) -> Int? {
      switch spot {
      case .before: return at >= 1 ? at - 1 : nil
      case .current: return at
      case .after: return at + 1
      case .end: return count
      case .outside: return count + 1
      }
    }
    switch self {
    case .play(let media, let time):
      let name: MediaID
      switch media {
      case .fresh:
        guard let fresh = context.fresh(1).first else { return nil }
        name = fresh
      case .current:
        guard let position = model.position else { return nil }
        name = model.entries[position].media
      }
      return .user(.play(name, from: context.time(time)))
    case .queue(let size, let last, let time, let paused):
      guard size <= context.entries else { return nil }
      let media = context.fresh(size)
      guard media.count == size else { return nil }
      return .user(
        .replaceQueue(
          media, start: last ? max(size - 1, 0) : 0, from: context.time(time),
          playWhenReady: !paused))
    case .append:
      guard room >= 1, let fresh = context.fresh(1).first else { return nil }
      return .user(.append([fresh]))
    case .insert(let spot):
      // An insert outside the queue is refused whatever the room.
      guard let index = index(spot), spot == .outside || room >= 1, index <= count + 1,
        let fresh = context.fresh(1).first
      else { return nil }
      return .user(.insert([fresh], at: index))
    case .remove(let spot):
      guard spot != .outside, let index = index(spot), spot == .end || index < count else {
        return nil
      }
      return .user(.remove(at: index))
    case .move(.currentToEnd):
      guard count >= 1 else { return nil }
      return .user(.move(from: at, to: count - 1))
    case .move(.nextFirst):
      guard at + 1 < count else { return nil }
      return .user(.move(from: at + 1, to: 0))
    case .move(.currentOntoItself):
      guard count >= 1 else { return nil }
      return .user(.move(from: at, to: at))
    case .jump(let spot, let time):
      guard let index = index(spot), spot == .end || index < count else { return nil }
      return .user(.jump(to: index, from: context.time(time)))
    case .intent(let intent): return .user(intent)
    case .seek(let time): return .user(.seek(to: context.time(time)))
    case .rate(.other):
      let other = model.rate == .normal ? PlaybackRate(thousandths: 1500) : .normal
      return .user(.setRate(other))
    case .rate(.same): return .user(.setRate(model.rate))
    case .rate(.invalid): return .user(.setRate(PlaybackRate(thousandths: 0)))
    case .ready(let reference, let withDuration):
      guard let load = Self.load(reference, after: model) else { return nil }
      return .engine(.ready(load, duration: withDuration ? context.time(.duration) : nil))
    case .report(let report, let reference):
      guard let load = Self.load(reference, after: model) else { return nil }
      switch report {
      case .stalled: return .stalled(load)
      case .resumed: return .resumed(load)
      case .ended: return .reachedEnd(load)
      case .pausedBySystem: return .engine(.pausedBySystem(load))
      }
    case .position(let reference, let time):
      return Self.load(reference, after: model).map { .position($0, context.time(time)) }
    case .system(let event): return .system(event)
    case .failed(let reason, let reference):
      return Self.load(reference, after: model).map { .failed($0, reason) }
    case .failedWithDetail(let reason):
      return Self.load(.current, after: model).map {
        .engine(.failed($0, reason, detail: Self.detail))
      }
    case .seeked(let reference, let relative):
      guard let load = Self.load(reference, after: model) else { return nil }
      // A stopped load ignores every seek completion alike (`unexpected`):
      // its seek ids are not part of the canonical state, so one letter.
      if reference == .current, model.current?.stage.isStopped == true {
        return relative == .newest ? .seekCompleted(load, SeekID(1)) : nil
      }
      let newest = reference == .current ? model.current?.lastSeek ?? 0 : 1
      return id(newest, relative).map { .seekCompleted(load, SeekID($0)) }
    case .timeout(let reference, let relative):
      guard let load = Self.load(reference, after: model) else { return nil }
      // A failed load ignores every expiry alike (`staleWatchdog`): one letter.
      if reference == .current, model.current?.stage == .failed {
        return relative == .newest ? .watchdogExpired(load, WatchdogID(1)) : nil
      }
      let newest = reference == .current ? model.current?.lastWatchdog ?? 0 : 1
      return id(newest, relative).map { .watchdogExpired(load, WatchdogID($0)) }
    case .skip(let forward):
      guard let session = model.current, !session.stage.isStopped,
        context.isLetterTime(session.position)
      else { return nil }
      let delta = context.time(.above).milliseconds
      return .user(.skip(by: .milliseconds(forward ? delta : -delta)))
    case .setPosition(let placement):
      guard let position = model.position else { return nil }
      let time: MediaTime
      var item = model.entries[position].item
      switch placement {
      case .zero: time = .zero
      case .above: time = context.time(.above)
      case .pastEnd: time = .milliseconds(context.time(.duration).milliseconds + 1000)
      case .otherEntry:
        time = .zero
        item =
          model.entries.first { $0.item != item }?.item ?? ItemID(model.issuedItems &+ 1)
      }
      return .user(.setPosition(item, time))
    case .sleepExpired(let relative):
      // Only the armed countdown's expiry counts; every other is stale alike
      // (`staleWatchdog`), so the countdown ids are not part of the canonical
      // state: unless a countdown is armed there is one letter, a never-issued
      // id; while one is, the one before it may be 0, which no countdown had.
      let issued = model.issuedSleep
      guard case .after = model.sleep else {
        guard relative == .neverIssued else { return nil }
        return .system(.sleepTimerExpired(SleepTimerID(issued &+ 1)))
      }
      let id: UInt32
      switch relative {
      case .newest: id = issued
      case .older: id = issued &- 1
      case .neverIssued: id = issued &+ 1
      }
      return .system(.sleepTimerExpired(SleepTimerID(id)))
    case .remote(let letter):
      guard case .user(let intent)? = letter.event(in: context) else { return nil }
      return .remote(intent)
    case .reach(let reach): return reach.event(in: context)
    case .volume(let sound):
      switch sound {
      case .half: return .user(.setVolume(Volume(thousandths: 500)))
      case .full: return .user(.setVolume(Volume(thousandths: 1000)))
      case .refused: return .user(.setVolume(Volume(thousandths: 1500)))
      case .mute: return .user(.setMuted(true))
      case .unmute: return .user(.setMuted(false))
      case .duck: return .system(.duckBegan)
      case .unduck: return .system(.duckEnded)
      }
    case .fadeEnd(let relative):
      guard let leaving = model.leaving else { return nil }
      return id(leaving.timer, relative).map { .watchdogExpired(leaving.load, WatchdogID($0)) }
    case .crossfade(let letter):
      // Around the end of the duration the letters report (whatever this load reported:
      // the key keeps no duration, so a letter must not read one); only in a class that
      // crossfades (a constant of the class).
      guard model.crossfade > 0, let load = Self.load(.current, after: model) else { return nil }
      let duration = context.time(.duration).milliseconds
      let time =
        letter == .inside ? duration - model.crossfade / 2 : duration - model.crossfade - 1
      return .position(load, .milliseconds(max(time, 0)))
    case .live(let letter):
      let at = context.time(.at)
      let edge = context.time(.duration)
      guard letter != .preload else {
        return Self.load(.preload, after: model).map {
          .engine(.window($0, LiveWindow(start: at, end: edge)))
        }
      }
      guard let load = Self.load(.current, after: model) else { return nil }
      let window: LiveWindow
      switch letter {
      case .dvr, .preload: window = LiveWindow(start: at, end: edge)
      case .still: window = LiveWindow(start: edge, end: edge)
      case .slide: window = LiveWindow(start: context.time(.above), end: edge)
      case .jumpBack: window = LiveWindow(start: context.time(.below), end: at)
      case .bad: window = LiveWindow(start: edge, end: at)
      }
      return .engine(.window(load, window))
    case .answered, .later, .deliver, .lifecycle:
      return nil
    }
  }
}

extension Explorer {
  /// The newest issued load that is neither current nor preloading (the one just left).
  static func previous(_ model: ContractModel) -> Load? {
    issuedLoad(FuzzCoverage.Variant.newestStale(model), model)
  }

  /// The newest issued load older than ``previous(_:)`` that is neither
  /// current nor preloading.
  static func older(_ model: ContractModel) -> Load? {
    var token = FuzzCoverage.Variant.newestStale(model)
    guard token > 1 else { return nil }
    token -= 1
    while token > 0,
      token == model.current?.load.token.rawValue || token == model.preload?.load.token.rawValue
        || token == model.leaving?.load.token.rawValue
    {
      token -= 1
    }
    return issuedLoad(token, model)
  }

  /// The load issued with `token`, or nil when none was.
  static func issuedLoad(_ token: UInt32, _ model: ContractModel) -> Load? {
    // From a start state (``ExplorationReach/nearExhaustion``) the tokens it had issued have no
    // known item: only those issued since, the current load's and the preload's are named.
    guard token >= 1, let item = model.item(ofToken: token) else { return nil }
    return Load(item: item, token: LoadToken(token))
  }

  /// The loads the letters name by role besides the current one and the
  /// preload: the previous, the older and the dropped one.
  static func roleLoads(_ model: ContractModel) -> [Load?] {
    [model.current?.load, model.preload?.load, previous(model), older(model), model.dropped]
  }
}
