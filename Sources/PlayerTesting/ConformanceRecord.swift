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
  /// Tokens whose `stop` has returned, with the promise a later report breaks.
  var blameAfterStop: [LoadToken: EnginePromise] = [:]
  /// The `ready` and `failed` reports of each load, in arrival order.
  var answers: [LoadToken: [EngineReport]] = [:]
  /// The seek ids sent for each load.
  var seeksSent: [LoadToken: Set<SeekID>] = [:]
  /// The seek completions received for each load, in arrival order.
  var seeksCompleted: [LoadToken: [SeekID]] = [:]
  /// The load whose `ready` makes the kit send `start` from inside the callback.
  var reentrantLoad: Load?
  /// The id of that `start`, once sent.
  var reentrantCommand: Int?
  /// The outcome so far.
  var report = ConformanceReport()

  mutating func sent(_ command: EngineCommand) {
    report.transcript.append(command.description)
    switch command {
    case .load(let load):
      issued[load.token] = load
    case .seek(let load, _, let seek):
      seeksSent[load.token, default: []].insert(seek)
    case .start, .pause, .stop:
      break
    }
    if issued[command.load.token] == nil { neverLoaded.insert(command.load.token) }
  }

  /// Records a report and the promises it breaks, if any.
  mutating func judge(_ engineReport: EngineReport) {
    report.transcript.append(engineReport.description)
    let load = engineReport.load
    let token = load.token
    if let blame = blameAfterStop[token] {
      violate(blame, "\(engineReport) after stop(\(load)) returned")
    } else if neverLoaded.contains(token) {
      violate(.unknownLoadHarmless, "\(engineReport) for a load that was never loaded")
    } else if let issuedLoad = issued[token], issuedLoad != load {
      violate(
        .reportNamesIssuedLoad, "\(engineReport) names token \(token), loaded as \(issuedLoad)")
    } else if issued[token] == nil {
      violate(.reportNamesIssuedLoad, "\(engineReport) names token \(token), never issued")
    }

    switch engineReport {
    case .ready, .failed:
      judgeAnswer(engineReport)
      answers[token, default: []].append(engineReport)
    case .seekCompleted(_, let seek):
      seeksCompleted[token, default: []].append(seek)
      if issued[token] != nil, seeksSent[token]?.contains(seek) != true {
        violate(
          .seekCompletionCarriesSeekID, "\(engineReport), but no seek with that id was sent")
      }
    case .stalled, .resumed, .reachedEnd:
      break
    }
  }

  private mutating func judgeAnswer(_ answer: EngineReport) {
    let earlier = answers[answer.load.token] ?? []
    if let failure = earlier.first(where: { if case .failed = $0 { true } else { false } }) {
      violate(.loadAnsweredOnce, "\(answer) after \(failure)")
    } else if case .ready = answer, !earlier.isEmpty {
      violate(.loadAnsweredOnce, "\(answer) a second time")
    }
  }

  mutating func violate(_ promise: EnginePromise, _ detail: String) {
    report.record(ConformanceViolation(promise, detail))
  }

  // MARK: Conditions the checks wait for

  /// The first `ready` or `failed` of a load, if any.
  func answer(of load: Load) -> EngineReport? { answers[load.token]?.first }

  /// True once a seek completion with this id has arrived for the load.
  func completed(_ seek: SeekID, of load: Load) -> Bool {
    seeksCompleted[load.token]?.contains(seek) == true
  }
}
