public import PlayerEngine
public import PlayerState

/// An engine for tests: records every command it receives, in order, and
/// answers with scripted reports immediately (re-entrantly, from inside
/// `execute`), later (when the test calls ``deliverPending()``), or never.
///
/// ```swift
/// let spy = SpyEngine()                       // answers nothing by itself
/// let player = Player(engine: spy)
/// player.send(.play("A"))
/// player.send(.stop)
/// spy.report(.ready(Load(1, 1)))             // A#1: the late callback
/// #expect(spy.commands.map(\.kind) == [.load, .stop])
/// ```
public final class SpyEngine: PlaybackEngine {
  /// When a scripted report is sent.
  public enum Timing: Hashable, Sendable {
    /// From inside `execute`, before it returns: the re-entrant case.
    case immediately
    /// When the test calls ``SpyEngine/deliverPending()``.
    case later
  }

  /// A report the spy sends in answer to a command.
  public struct Reply: Hashable, Sendable {
    /// The report.
    public var report: EngineReport
    /// When it is sent.
    public var timing: Timing

    /// A reply.
    public init(_ report: EngineReport, _ timing: Timing) {
      self.report = report
      self.timing = timing
    }
  }

  private struct Log {
    var commands: [EngineCommand] = []
    var pending: [(EngineReport, ReportSink)] = []
    var sink: ReportSink?
    /// Loads received and not yet stopped; tracked for a contract-keeping spy.
    var live: Set<Load> = []
  }

  private let replies: @Sendable (EngineCommand) -> [Reply]
  private let keepsContract: Bool
  /// What the spy declares it can do; `[.preload]` makes a ``Player`` preload the next entry.
  public let capabilities: EngineCapabilities
  private let log = Locked(Log())

  /// A spy that answers each command with the replies the closure returns.
  /// - Parameters:
  ///   - keepsContract: when true, the spy keeps the engine contract whatever
  ///     the script says: it sends replies only about loads it received and
  ///     has not stopped, and `stop` discards the stopped load's queued
  ///     replies. When false (the default) it sends exactly what the script
  ///     says, late callbacks after `stop` included: the hostile engine.
  ///   - capabilities: what the spy declares it can do; none by default.
  ///   - replies: the script; by default the spy never answers.
  public init(
    keepsContract: Bool = false, capabilities: EngineCapabilities = [],
    replies: @escaping @Sendable (EngineCommand) -> [Reply] = { _ in [] }
  ) {
    self.capabilities = capabilities
    self.keepsContract = keepsContract
    self.replies = replies
  }

  /// A spy that answers every `load` with `ready` for the same load, and every
  /// `seek` with its completion, with the given timing.
  public static func cooperative(_ timing: Timing) -> SpyEngine {
    SpyEngine { command in
      switch command {
      case .load(let request), .preload(let request): [Reply(.ready(request.load), timing)]
      case .seek(let load, _, let seek): [Reply(.seekCompleted(load, seek), timing)]
      case .start, .setRate, .pause, .stop, .setVolume: []
      }
    }
  }

  /// A spy that answers like ``cooperative(_:)`` but keeps the engine
  /// contract: it answers only loads it received and has not stopped, and a
  /// `stop` discards the load's queued `.later` replies. It passes
  /// ``EngineConformance``; ``cooperative(_:)`` does not, on purpose: its
  /// `.later` replies are the late callbacks that tests of the machine need.
  public static func conforming(_ timing: Timing) -> SpyEngine {
    SpyEngine(keepsContract: true) { command in
      switch command {
      case .load(let request), .preload(let request): [Reply(.ready(request.load), timing)]
      case .seek(let load, _, let seek): [Reply(.seekCompleted(load, seek), timing)]
      case .start, .setRate, .pause, .stop, .setVolume: []
      }
    }
  }

  /// Records the command, then sends or queues its scripted replies.
  public func execute(_ command: EngineCommand, reports: ReportSink) {
    var answers = replies(command)
    log.withLock { log in
      log.commands.append(command)
      log.sink = reports
      if keepsContract {
        switch command {
        case .load(let request), .preload(let request):
          log.live.insert(request.load)
        case .stop(let load):
          log.live.remove(load)
          log.pending.removeAll { $0.0.load == load }
        case .start, .setRate, .pause, .seek, .setVolume:
          break
        }
        answers.removeAll { !log.live.contains($0.report.load) }
      }
      for answer in answers where answer.timing == .later {
        log.pending.append((answer.report, reports))
      }
    }
    for answer in answers where answer.timing == .immediately {
      reports.send(answer.report)
    }
  }

  /// Every command received so far, in order.
  public var commands: [EngineCommand] { log.withLock { $0.commands } }

  /// The commands received so far in their compact forms, as in `["load(A#1)", "stop(A#1)"]`.
  /// A load prints with the media of the `load` or `preload` request that opened its entry
  /// (`item7#3` if none was received).
  public var commandLog: [String] {
    var media: [ItemID: MediaID] = [:]
    return commands.map { command in
      switch command {
      case .load(let request), .preload(let request): media[request.load.item] = request.media
      case .start, .setRate, .pause, .seek, .stop, .setVolume: break
      }
      return command.description(naming: { media[$0] })
    }
  }

  /// How many `.later` replies wait for ``deliverPending()``.
  public var pendingCount: Int { log.withLock { $0.pending.count } }

  /// Sends every queued `.later` reply, oldest first, from the calling thread.
  /// Replies queued while delivering wait for the next call.
  public func deliverPending() {
    let due = log.withLock { log in
      defer { log.pending.removeAll() }
      return log.pending
    }
    for (report, sink) in due {
      // A reply queued before a re-entrant `stop` of its load must not follow it.
      if keepsContract, !log.withLock({ $0.live.contains(report.load) }) { continue }
      sink.send(report)
    }
  }

  /// Sends a report now, from the calling thread, through the sink of the
  /// last command: a late, duplicate or forged callback, as a test wants it.
  /// Does nothing before the first command.
  public func report(_ report: EngineReport) {
    let sink = log.withLock { $0.sink }
    sink?.send(report)
  }

  /// Forgets the recorded commands (queued replies stay queued).
  public func clearCommands() {
    log.withLock { $0.commands.removeAll() }
  }
}
