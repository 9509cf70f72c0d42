public import PlayerState

/// A failing case, shrunk, with everything a developer needs to reproduce it:
/// the seed, the minimal sequence as a timeline, and a Swift Testing test.
public struct FuzzFailure: Sendable, CustomStringConvertible {
  /// Where the case came from.
  public enum Origin: Hashable, Sendable, CustomStringConvertible {
    /// Case `caseIndex` of a random run seeded with `seed`.
    case random(seed: UInt64, caseIndex: Int, caseSeed: UInt64)
    /// Breadth-first exploration, at this depth.
    case exhaustive(depth: Int)
    /// A case given by the caller (a saved failure, a scenario).
    case given

    /// `seed 42, case 17 (case seed 0x…)`, `exhaustive search, depth 3`, `given case`.
    public var description: String {
      switch self {
      case .random(let seed, let index, let caseSeed):
        "seed \(seed), case \(index) (case seed 0x\(String(caseSeed, radix: 16)))"
      case .exhaustive(let depth): "exhaustive search, depth \(depth)"
      case .given: "given case"
      }
    }
  }

  /// The subject's name.
  public var subject: String
  /// The Swift expression that names the subject in a test
  /// (``FuzzSubject/swiftExpression``), or nil when the subject has none.
  public var subjectExpression: String?
  /// Where the case came from.
  public var origin: Origin
  /// The case as found, before shrinking.
  public var original: [FuzzAction]
  /// The minimal case.
  public var actions: [FuzzAction]
  /// What the minimal case breaks.
  public var violation: FuzzViolation
  /// How many candidates the shrinker replayed.
  public var shrinkAttempts: Int
  /// The minimal case as a numbered timeline (see `Fuzzer.timeline(_:_:)`).
  public var timeline: String
  /// Whether the engine declared `.preload`.
  public var canPreload: Bool {
    get { setup.canPreload }
    set { setup.canPreload = newValue }
  }
  /// The player's retry policy in the case.
  public var retry: RetryPolicy {
    get { setup.retry }
    set { setup.retry = newValue }
  }
  /// What the case ran with besides its actions (``FuzzCase/header`` spells it).
  package var setup: FuzzSetup
  /// Why the case is not shrunk, when its shrunk form did not replay from its saved text
  /// (``Shrinker/Outcome/note``); printed under the case's length.
  package var shrinkNote: String?

  /// Describes a failure.
  public init(
    subject: String, origin: Origin, original: [FuzzAction], actions: [FuzzAction],
    violation: FuzzViolation, shrinkAttempts: Int, timeline: String, canPreload: Bool = false,
    retry: RetryPolicy = .standard
  ) {
    setup = FuzzSetup(canPreload: canPreload, retry: retry)
    self.subject = subject
    self.origin = origin
    self.original = original
    self.actions = actions
    self.violation = violation
    self.shrinkAttempts = shrinkAttempts
    self.timeline = timeline
    self.subjectExpression = nil
  }

  /// Describes a failure of `subject`, so that ``swiftTest`` replays on it.
  public init(
    subject: FuzzSubject, origin: Origin, original: [FuzzAction], actions: [FuzzAction],
    violation: FuzzViolation, shrinkAttempts: Int, timeline: String, canPreload: Bool = false,
    retry: RetryPolicy = .standard
  ) {
    self.init(
      subject: subject.name, origin: origin, original: original, actions: actions,
      violation: violation, shrinkAttempts: shrinkAttempts, timeline: timeline,
      canPreload: canPreload, retry: retry)
    subjectExpression = subject.swiftExpression
  }

  /// Describes a failure of `subject` in a case set up as `setup` says.
  package init(
    subject: FuzzSubject, origin: Origin, original: [FuzzAction], actions: [FuzzAction],
    violation: FuzzViolation, shrinkAttempts: Int, timeline: String, setup: FuzzSetup
  ) {
    self.init(
      subject: subject, origin: origin, original: original, actions: actions,
      violation: violation, shrinkAttempts: shrinkAttempts, timeline: timeline)
    self.setup = setup
  }

  /// The expression the printed test replays on: ``subjectExpression``, or an
  /// editor placeholder that does not compile until it is filled in.
  var replaySubject: String { subjectExpression ?? "<#FuzzSubject for \(subject)#>" }

  /// The property that broke.
  public var property: FuzzProperty { violation.property }

  /// The minimal case with its engine.
  public var fuzzCase: FuzzCase { FuzzCase(actions, setup: setup) }

  /// The full report: seed, property, expected and actual logs, the minimal
  /// timeline, and a ready-to-paste Swift Testing test.
  public var report: String {
    """
    FAILED \(subject): \(violation.property) (\(violation.property.summary))
    found by: \(origin)
    \(violation)
    minimal case: \(actions.count) action\(actions.count == 1 ? "" : "s") (shrunk from \(original.count) in \(shrinkAttempts) replays)\(shrinkNote.map { "; \($0)" } ?? ""):
    \(timeline)
    as a saved failure (FailureFile.save(failure, in: DIRECTORY) writes it; FailureFile.parseCase reads it):
    \(([fuzzCase.header] + fuzzCase.lines).map { "  \($0)" }.joined(separator: "\n"))
    as a Swift Testing test:
    \(swiftTest)
    """
  }

  /// Same as ``report``.
  public var description: String { report }

  /// A Swift Testing test that reproduces the case on the subject that failed.
  ///
  /// For Playhead's `Player` (``FuzzSubject/player``), when every action is a
  /// direct send, the test uses only `Player` and `SpyEngine` and asserts the
  /// contract's command log and state literally. Otherwise it replays the case
  /// through the harness on ``subjectExpression`` (your subject's
  /// ``FuzzSubject/swiftExpression``; a subject without one gets an editor
  /// placeholder, so the test cannot silently run on another player). It
  /// fails while the bug is there.
  public var swiftTest: String {
    let name = "fuzz_\(violation.property.rawValue)_\(actions.count)"
    let direct =
      subjectExpression == ".player"
      && actions.allSatisfy { if case .send = $0 { true } else { false } }
    var model = ContractModel(setup)
    var commands: [EngineCommand] = []
    if direct, !canPreload, setup.isDefaultConfiguration, violation.step <= actions.count {
      for action in actions {
        if let event = action.event { model.apply(event, commands: &commands) }
      }
      let log = commands.map { "\"\(model.describe($0))\"" }.joined(separator: ", ")
      return """
        @Test func \(name)() {
          // Found by PlayerFuzz (\(origin)): \(violation.property).
          let spy = SpyEngine()
          let player = Player(engine: spy)
        \(actions.compactMap(\.event).map { "  player.send(\(Self.swiftSource($0)))" }.joined(separator: "\n"))
          #expect(spy.commandLog == [\(log)])
          #expect(player.state.kind == .\(model.kind))
          #expect(player.state.isPlaying == \(model.engineIsPlaying))
        }
        """
    }
    return """
      @Test func \(name)() throws {
        // Found by PlayerFuzz in \(subject) (\(origin)): \(violation.property).
        let fuzzCase = try FailureFile.parseCase(\"\"\"
      \(([fuzzCase.header] + fuzzCase.lines).map { "    \($0)" }.joined(separator: "\n"))
          \"\"\")
        let failure = Fuzzer.check(\(replaySubject), fuzzCase)
        #expect(failure == nil, "\\(failure?.report ?? "")")
      }
      """
  }

  /// The Swift expression for an event, as in `.ready(Load(1, 2))`.
  public static func swiftSource(_ event: PlaybackEvent) -> String {
    func load(_ load: Load) -> String { "Load(\(load.item.rawValue), \(load.token.rawValue))" }
    func reason(_ reason: FailureReason) -> String {
      if case .engine(let code) = reason { return ".engine(code: \(code))" }
      return ".\(reason)"
    }
    func time(_ time: MediaTime) -> String { ".milliseconds(\(time.milliseconds))" }
    func from(_ value: MediaTime) -> String { value == .zero ? "" : ", from: \(time(value))" }
    func list(_ media: [MediaID]) -> String {
      "[" + media.map { "\"\($0)\"" }.joined(separator: ", ") + "]"
    }
    func quoted(_ text: String) -> String {
      var escaped = ""
      for character in text {
        switch character {
        case "\\": escaped += "\\\\"
        case "\"": escaped += "\\\""
        case "\n": escaped += "\\n"
        case "\r": escaped += "\\r"
        default: escaped.append(character)
        }
      }
      return "\"\(escaped)\""
    }
    switch event {
    case .user(.play(let media, let start)): return ".play(\"\(media)\"\(from(start)))"
    case .user(.replaceQueue(let media, let start, let at, let play)):
      return ".queue(\(list(media)), start: \(start)\(from(at)), playWhenReady: \(play))"
    case .user(.append(let media)): return ".user(.append(\(list(media))))"
    case .user(.insert(let media, let at)): return ".user(.insert(\(list(media)), at: \(at)))"
    case .user(.remove(let at)): return ".user(.remove(at: \(at)))"
    case .user(.move(let from, let to)): return ".user(.move(from: \(from), to: \(to)))"
    case .user(.jump(let to, let start)): return ".user(.jump(to: \(to)\(from(start))))"
    case .user(.next): return ".next"
    case .user(.previous): return ".previous"
    case .user(.setRepeat(let mode)): return ".user(.setRepeat(.\(mode.rawValue)))"
    case .user(.setShuffle(let seed)):
      return ".user(.setShuffle(seed: \(seed.map { String($0) } ?? "nil")))"
    case .user(.setRate(let rate)):
      return ".user(.setRate(PlaybackRate(thousandths: \(rate.thousandths))))"
    case .user(.clear): return ".user(.clear)"
    case .user(.pause): return ".pause"
    case .user(.resume): return ".resume"
    case .user(.stop): return ".stop"
    case .user(.retry): return ".retry"
    case .user(.seek(let at)): return ".seek(to: \(time(at)))"
    case .user(.toggle): return ".toggle"
    case .user(.skip(let delta)): return ".skip(by: \(time(delta)))"
    case .user(.setPosition(let item, let at)):
      return ".user(.setPosition(ItemID(\(item.rawValue)), \(time(at))))"
    case .user(.setSleepTimer(let timer)):
      let spelled: String
      switch timer {
      case nil: spelled = "nil"
      case .after(let delay)?: spelled = ".after(\(time(MediaTime(delay))))"
      case .afterEntries(let count)?: spelled = ".afterEntries(\(count))"
      case let other?: spelled = ".\(other)"
      }
      return ".user(.setSleepTimer(\(spelled)))"
    case .remote(let intent):
      // The user's spelling, re-rooted: the shorthands are `UserIntent` cases too,
      // except `.queue`, which is `.replaceQueue` there.
      let user = swiftSource(.user(intent))
      if user.hasPrefix(".user(") { return ".remote(" + user.dropFirst(6) }
      if user.hasPrefix(".queue(") { return ".remote(.replaceQueue(" + user.dropFirst(7) + ")" }
      return ".remote(\(user))"
    case .engine(.ready(let l, let duration)):
      return ".ready(\(load(l))\(duration.map { ", duration: \(time($0))" } ?? ""))"
    case .engine(.stalled(let l)): return ".stalled(\(load(l)))"
    case .engine(.resumed(let l)): return ".resumed(\(load(l)))"
    case .engine(.reachedEnd(let l)): return ".reachedEnd(\(load(l)))"
    case .engine(.seekCompleted(let l, let seek)):
      return ".seekCompleted(\(load(l)), SeekID(\(seek.rawValue)))"
    case .engine(.failed(let l, let r, let detail)):
      guard let detail else { return ".failed(\(load(l)), \(reason(r)))" }
      return
        ".engine(.failed(\(load(l)), \(reason(r)), detail: FailureDetail(domain: \(quoted(detail.domain)), code: \(detail.code), message: \(quoted(detail.message)))))"
    case .engine(.pausedBySystem(let l)): return ".engine(.pausedBySystem(\(load(l))))"
    case .engine(.window(let l, let w)):
      return ".window(\(load(l)), LiveWindow(start: \(time(w.start)), end: \(time(w.end))))"
    case .user(.goToLive): return ".goToLive"
    case .system(.interruptionBegan): return ".system(.interruptionBegan)"
    case .system(.interruptionEnded(let resume)):
      return ".system(.interruptionEnded(shouldResume: \(resume)))"
    case .system(.routeLost): return ".system(.routeLost)"
    case .system(.networkLost): return ".system(.networkLost)"
    case .system(.networkAvailable): return ".system(.networkAvailable)"
    case .user(.setVolume(let volume)):
      return ".setVolume(Volume(thousandths: \(volume.thousandths)))"
    case .user(.setMuted(let muted)): return muted ? ".mute" : ".unmute"
    case .system(.duckBegan): return ".system(.duckBegan)"
    case .system(.duckEnded): return ".system(.duckEnded)"
    case .system(.sleepTimerExpired(let id)):
      return ".system(.sleepTimerExpired(SleepTimerID(\(id.rawValue))))"
    case .engine(.position(let l, let at)): return ".position(\(load(l)), \(time(at)))"
    case .watchdogExpired(let l, let id):
      return ".watchdogExpired(\(load(l)), WatchdogID(\(id.rawValue)))"
    }
  }
}
