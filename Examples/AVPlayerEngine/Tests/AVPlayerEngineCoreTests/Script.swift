import AVPlayerEngineCore
import PlayerState

/// One input to an ``ItemMachine`` in a test sequence: a machine command or a fact.
enum Step: Sendable, CustomStringConvertible {
  case command(ItemCommand<SeekID>)
  case fact(ItemFact<SeekID>)

  static let start = Step.command(.start)
  static let pause = Step.command(.pause)
  static func seek(_ milliseconds: Int64, _ id: UInt32) -> Step {
    .command(.seek(to: milliseconds, SeekID(id)))
  }
  static let readyToPlay = Step.fact(.itemStatus(.readyToPlay))
  static func itemFailed(_ error: AVErrorDetail) -> Step { .fact(.itemStatus(.failed(error))) }
  static let keepsUp = Step.fact(.bufferingChanged(canKeepUp: true))
  static let cannotKeepUp = Step.fact(.bufferingChanged(canKeepUp: false))
  static let playing = Step.fact(.timeControl(.playing))
  static let paused = Step.fact(.timeControl(.paused))
  static func waiting(_ reason: WaitingReason) -> Step { .fact(.timeControl(.waiting(reason))) }
  static func stalledNotification(now: TimeControl) -> Step { .fact(.playbackStalled(now: now)) }
  static func seekFinished(_ id: UInt32, finished: Bool) -> Step {
    .fact(.seekFinished(SeekID(id), finished: finished))
  }
  static let playedToEnd = Step.fact(.playedToEnd)
  static let pausedAtEnd = Step.fact(.pausedAtEnd)
  static func failedToPlayToEnd(_ error: AVErrorDetail) -> Step {
    .fact(.failedToPlayToEnd(error))
  }
  static func playerFailed(_ error: AVErrorDetail) -> Step { .fact(.playerFailed(error)) }
  /// A live item's timing: `duration` `.indefinite`, these seekable ranges (start, end in
  /// milliseconds), its current time.
  static func live(_ ranges: [(Int64, Int64)], at now: Int64?) -> Step {
    .fact(
      .timing(
        ItemTiming(
          duration: .indefinite, seekable: ranges.map { SeekableSpan(start: $0.0, end: $0.1) },
          currentTime: now)))
  }
  /// An on-demand item's timing: a known duration, seekable from 0 to it.
  static func onDemand(_ duration: Int64, at now: Int64) -> Step {
    .fact(
      .timing(
        ItemTiming(
          duration: .known(duration), seekable: [SeekableSpan(start: 0, end: duration)],
          currentTime: now)))
  }

  var description: String {
    switch self {
    case .command(let command): "\(command)"
    case .fact(let fact): "\(fact)"
    }
  }
}

/// Runs steps through a fresh machine for load `A#1` and prints what it asks for: each
/// report as the machine prints it (`ready(A#1)`, `failed(A#1, network)`), each player
/// call as `play`, `pause`, `seek(2000ms, seek#1)`.
func run(_ steps: [Step], streamed: Bool) -> [String] {
  var machine = ItemMachine<SeekID>(streamed: streamed)
  let load = Load(1, 1)
  var lines: [String] = []
  for step in steps {
    let actions =
      switch step {
      case .command(let command): machine.execute(command)
      case .fact(let fact): machine.observe(fact)
      }
    for action in actions {
      switch action {
      case .report(let signal):
        lines.append(signal.report(about: load).description(naming: { _ in "A" }))
      case .play: lines.append("play")
      case .pause: lines.append("pause")
      case .seek(let position, let seek): lines.append("seek(\(position)ms, \(seek))")
      }
    }
  }
  return lines
}

/// Error chains as AVFoundation delivers them (shapes from Apple's documentation, WWDC
/// 2017 session 514 and logs developers have published).
enum Errors {
  static func av(_ code: Int, _ message: String, over under: AVErrorDetail? = nil)
    -> AVErrorDetail
  {
    AVErrorDetail(
      domain: "AVFoundationErrorDomain", code: code, message: message, underlying: under)
  }
  static func url(_ code: Int, _ message: String, over under: AVErrorDetail? = nil)
    -> AVErrorDetail
  {
    AVErrorDetail(domain: "NSURLErrorDomain", code: code, message: message, underlying: under)
  }
  static func coreMedia(_ code: Int, _ message: String) -> AVErrorDetail {
    AVErrorDetail(domain: "CoreMediaErrorDomain", code: code, message: message)
  }
  static func osStatus(_ code: Int) -> AVErrorDetail {
    AVErrorDetail(domain: "NSOSStatusErrorDomain", code: code, message: "(null)")
  }
  static func posix(_ code: Int, _ message: String) -> AVErrorDetail {
    AVErrorDetail(domain: "NSPOSIXErrorDomain", code: code, message: message)
  }

  /// An HLS playlist answered 404.
  static let hls404 = av(
    -11863, "Cannot Open", over: coreMedia(-12938, "HTTP 404: File Not Found"))
  /// The connection went away during playback.
  static let offline = av(
    -11800, "The operation could not be completed",
    over: url(-1009, "The Internet connection appears to be offline."))
  /// A local file that is not there.
  static let missingFile = url(
    -1100, "The requested URL was not found on this server.",
    over: posix(2, "No such file or directory"))
  /// The media server process died and came back.
  static let servicesReset = av(-11819, "Cannot Complete Action", over: osStatus(-12178))
}
