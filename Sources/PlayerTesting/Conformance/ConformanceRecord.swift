import PlayerState

/// What ``EngineConformance`` has sent and seen, and its judgement of each
/// report at the moment it arrived (a report's timing relative to `stop`
/// cannot be judged afterwards).
struct Record: Sendable {
  /// Ids of the commands whose `execute` has returned.
  var returned: Set<Int> = []
  /// The loads the kit sent `load` for, by token.
  var issued: [LoadToken: Load] = [:]
  /// Tokens the kit named without ever loading them.
  var neverLoaded: Set<LoadToken> = []
  /// Tokens of issued loads whose `stop` has returned: any later report for
  /// them is a late callback, absorbed.
  var stopped: Set<LoadToken> = []
  /// The `ready` and `failed` reports of each load, in arrival order.
  var answers: [LoadToken: [EngineReport]] = [:]
  /// The seek ids sent for each load.
  var seeksSent: [LoadToken: Set<SeekID>] = [:]
  /// The seek completions received for each load, in arrival order.
  var seeksCompleted: [LoadToken: [SeekID]] = [:]
  /// Tokens the kit sent `preload` for.
  var preloads: Set<LoadToken> = []
  /// Tokens the kit sent `start` for.
  var started: Set<LoadToken> = []
  /// The `position` reports of each load, in arrival order.
  var positions: [LoadToken: [MediaTime]] = [:]
  /// The newest well-formed window of each load that reported one: the loads the
  /// machine takes for live.
  var windows: [LoadToken: LiveWindow] = [:]
  /// Loads that reported a malformed window (`start < 0` or `end < start`).
  var malformedWindows: Set<LoadToken> = []
  /// The media of each item the kit loaded or preloaded, to print loads as `A#2`.
  var media: [ItemID: MediaID] = [:]
  /// The media named for items the kit never loaded: the configured media.
  var defaultMedia: MediaID = ""
  /// The load whose `ready` makes the kit send `start` from inside the callback.
  var reentrantLoad: Load?
  /// The id of that `start`, once sent.
  var reentrantCommand: Int?
  /// True while a report callback waits for a command to return (up to the
  /// timeout; twice if it first waits for a command to finish, then for the
  /// one it sent): a command it holds back returns only once it stops.
  var callbackWaits = false
  /// How many times a report callback stopped waiting: a wait that began
  /// before may have seen the command it held back return only after.
  var callbackWaitsEnded = 0
  /// The outcome so far.
  var report = ConformanceReport()
  /// How many reports were judged.
  var judged = 0
  /// The most entries kept in each growing list (the transcript, the failures,
  /// the violations, each load's positions): the engine fuzzer bounds a case's
  /// memory with it; the kit keeps everything.
  var limit = Int.max

  /// A report callback stopped waiting for a command.
  mutating func callbackStoppedWaiting() {
    callbackWaits = false
    callbackWaitsEnded += 1
  }

  /// Appends a line to the transcript, unless it holds ``limit`` lines already.
  private mutating func log(_ line: String) {
    if report.transcript.count < limit { report.transcript.append(line) }
  }

  mutating func sent(_ command: EngineCommand) {
    switch command {
    case .load(let request):
      issued[request.load.token] = request.load
      media[request.load.item] = request.media
    case .preload(let request):
      issued[request.load.token] = request.load
      media[request.load.item] = request.media
      preloads.insert(request.load.token)
    case .seek(let load, _, let seek):
      seeksSent[load.token, default: []].insert(seek)
    case .start(let load, _):
      started.insert(load.token)
    case .setRate, .pause, .stop, .setVolume:
      break
    }
    if issued[command.load.token] == nil { neverLoaded.insert(command.load.token) }
    log(command.description(naming: name))
  }

  /// The media of an item, for printing: `A` in `A#2`.
  func name(_ item: ItemID) -> MediaID? { media[item] ?? defaultMedia }

  /// A load in its compact form, `A#2`.
  func name(_ load: Load) -> String { load.description(naming: name) }

  /// A command in its compact form, `start(A#2)`.
  func describe(_ command: EngineCommand) -> String { command.description(naming: name) }

  /// A report in its compact form, `ready(A#2)`.
  func describe(_ report: EngineReport) -> String { report.description(naming: name) }

  /// Records a report: the promise it breaks, or the absorbed breach it is,
  /// if any.
  /// - Parameters:
  ///   - engineReport: the report.
  ///   - insideExecute: the command whose `execute` was running on the
  ///     reporting thread when the report came, if any.
  mutating func judge(_ engineReport: EngineReport, insideExecute: EngineCommand?) {
    let text = engineReport.description(naming: name)
    judged += 1
    log(text)
    if let command = insideExecute {
      let commandText = command.description(naming: name)
      report.note(.reportFromInsideExecute, "\(text) from inside execute(\(commandText))")
    }
    let load = engineReport.load
    let token = load.token
    if neverLoaded.contains(token) {
      return report.note(.reportForUnloadedToken, "\(text) for a load never loaded")
    }
    guard let issuedLoad = issued[token] else {
      return violate(.reportNamesIssuedLoad, "\(text) names token \(token), never issued")
    }
    guard issuedLoad == load else {
      return violate(
        .reportNamesIssuedLoad, "\(text) names token \(token), loaded as \(name(issuedLoad))")
    }
    let unstartedPreload = preloads.contains(token) && !started.contains(token)
    if stopped.contains(token) {
      if unstartedPreload {
        return violate(
          .preloadStopIsFinal, "\(text) after stop(\(name(load))) of the preload returned")
      }
      return report.note(.reportAfterStop, "\(text) after stop(\(name(load))) returned")
    }

    switch engineReport {
    case .ready, .failed:
      if isRepeated(answer: engineReport) {
        let earlier = (answers[token] ?? []).map { $0.description(naming: name) }.joined(
          separator: ", ")
        report.note(.repeatedReport, "\(text) after \(earlier)")
      } else if case .ready(_, _?) = engineReport, let window = windows[token] {
        let windowText = EngineReport.window(load, window).description(naming: name)
        report.note(.durationForLiveLoad, "\(text) of a live load, after \(windowText)")
      }
      answers[token, default: []].append(engineReport)
      if case .failed = engineReport, report.failures.count < limit {
        report.failures.append(engineReport)
      }
    case .seekCompleted(_, let seek):
      if seeksCompleted[token]?.contains(seek) == true {
        report.note(.repeatedReport, "\(text) a second time")
      } else if seeksSent[token]?.contains(seek) != true {
        violate(
          .seekCompletionCarriesSeekID, "\(text), but no seek with that id was sent")
      }
      seeksCompleted[token, default: []].append(seek)
    case .position(_, let time):
      if unstartedPreload {
        violate(
          .positionNamesPlayingLoad, "\(text) names the preload \(name(load)), never started")
      }
      if positions[token, default: []].count < limit { positions[token, default: []].append(time) }
    case .pausedBySystem:
      // Like a position: only a load that is playing can be paused by the system.
      if !started.contains(token) {
        let what = preloads.contains(token) ? "the preload" : "the load"
        violate(
          .systemPauseNamesPlayingLoad, "\(text) names \(what) \(name(load)), never started")
      }
    case .window(_, let window):
      judge(window, of: token, text)
    case .stalled, .resumed, .reachedEnd:
      break
    }
  }

  /// Judges a window report of a load neither stopped nor unknown
  /// (``EnginePromise/windowIsWellFormed``), keeps it if well formed, and notes a
  /// duration the load's `ready` carried before its first window
  /// (``AbsorbedBreach/durationForLiveLoad``).
  private mutating func judge(_ window: LiveWindow, of token: LoadToken, _ text: String) {
    report.markChecked(.windowIsWellFormed)
    if window.start < .zero || window.end < window.start {
      malformedWindows.insert(token)
      let problem = window.start < .zero ? "a negative start" : "its live edge before its start"
      return violate(.windowIsWellFormed, "\(text) has \(problem)")
    }
    let first = windows[token] == nil
    windows[token] = window
    guard first, let ready = answers[token]?.first, case .ready(_, _?) = ready else { return }
    report.note(.durationForLiveLoad, "\(describe(ready)) of a live load, before \(text)")
  }

  /// True for a second answer, except one `failed` after `ready` (a later failure).
  private func isRepeated(answer: EngineReport) -> Bool {
    let earlier = answers[answer.load.token] ?? []
    if earlier.isEmpty { return false }
    if case .failed = answer, earlier.count == 1, case .ready = earlier[0] { return false }
    return true
  }

  mutating func violate(_ promise: EnginePromise, _ detail: String) {
    if report.violations.count < limit { report.record(ConformanceViolation(promise, detail)) }
  }

  // MARK: Passive checks at the end of a command sequence

  /// Judges what must have happened once every command has returned and the
  /// engine had its time: every load and preload not stopped is answered
  /// (``EnginePromise/loadAnswered``, ``EnginePromise/preloadAnswered``); a
  /// `load` (not a `preload`, as in the kit) of media in `unplayable` is not answered `ready`
  /// (``EnginePromise/unplayableMediaFails``); and the newest seek of every
  /// load answered `ready`, never `failed`, and not stopped, completed with its
  /// own id (``EnginePromise/seekCompletionCarriesSeekID``). Loads in token order.
  /// - Parameters:
  ///   - unplayable: media whose loads must fail.
  ///   - within: how long the engine had, as in `within 5 seconds`.
  mutating func judgeOutstanding(unplayable: Set<MediaID>, within: String) {
    for (token, load) in issued.sorted(by: { $0.key < $1.key }) where !stopped.contains(token) {
      let answers = self.answers[token] ?? []
      guard let first = answers.first else {
        let promise: EnginePromise = preloads.contains(token) ? .preloadAnswered : .loadAnswered
        let command = preloads.contains(token) ? "preload" : "load"
        violate(promise, "\(command)(\(name(load))) got no ready or failed \(within)")
        continue
      }
      guard case .ready = first else { continue }
      // A preload's decoding errors may show only once it plays (`failed` after `ready`).
      if !preloads.contains(token), let media = media[load.item], unplayable.contains(media) {
        violate(.unplayableMediaFails, "load(\(name(load))) was answered ready(\(name(load)))")
        continue
      }
      let failed = answers.contains { if case .failed = $0 { true } else { false } }
      guard !failed, let newest = seeksSent[token]?.max(), !completed(newest, of: load) else {
        continue
      }
      violate(
        .seekCompletionCarriesSeekID,
        "seek(\(name(load)), \(newest)) got no seeked(\(name(load)), \(newest)) \(within)")
    }
  }

  /// True when ``judgeOutstanding(unplayable:within:)`` would find nothing
  /// missing: every live load answered and every newest seek of a live, ready
  /// load completed. What a real-time wait waits for.
  var nothingOutstanding: Bool {
    for (token, load) in issued where !stopped.contains(token) {
      guard let answers = self.answers[token], let first = answers.first else { return false }
      guard case .ready = first else { continue }
      let failed = answers.contains { if case .failed = $0 { true } else { false } }
      if !failed, let newest = seeksSent[token]?.max(), !completed(newest, of: load) {
        return false
      }
    }
    return true
  }

  // MARK: Conditions the checks wait for

  /// The first `ready` or `failed` of a load, if any.
  func answer(of load: Load) -> EngineReport? { answers[load.token]?.first }

  /// True once a seek completion with this id has arrived for the load.
  func completed(_ seek: SeekID, of load: Load) -> Bool {
    seeksCompleted[load.token]?.contains(seek) == true
  }
}
