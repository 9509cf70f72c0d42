import Dispatch
import PlayerEngine
import PlayerState

/// The app's engine adapter over a fake back end that "plays" tones: every
/// piece of the back end's state lives on one serial `DispatchQueue`, the way
/// most adapters are written. `execute` enters the queue with `queue.async`
/// (never `queue.sync`: a `Player` runs the next command inside a report
/// callback, which here is on the queue), and reports are sent from the queue.
///
/// A tone is ready 20 ms after its load, reports its position every 100 ms
/// of media while playing, and ends after `length`.
final class ToneEngine: PlaybackEngine, @unchecked Sendable {
  // Safe: `current`, `position`, `rate`, `volume` and `ticking` are read and written only
  // inside blocks running on `queue` (a serial queue): `execute` and the timers
  // below touch them in `queue.async`/`queue.asyncAfter` blocks and nowhere else.
  private let queue = DispatchQueue(label: "tone-engine")
  private let length: MediaTime
  private var current: Load?
  private var position = MediaTime.zero
  private var rate = 0.0
  /// The current tone's loudness, 0 to 1 (a real back end would scale its samples).
  private var volume = 1.0
  private var ticking = false

  /// A back end whose every tone lasts `length`.
  init(length: MediaTime = .seconds(1)) { self.length = length }

  func execute(_ command: EngineCommand, reports: ReportSink) {
    queue.async { self.apply(command, reports) }
  }

  /// On `queue` only.
  private func apply(_ command: EngineCommand, _ reports: ReportSink) {
    switch command {
    case .load(let request):
      current = request.load
      position = request.start
      rate = 0
      if request.media == "missing.wav" {
        queue.asyncAfter(deadline: .now() + .milliseconds(20)) {
          reports.send(.failed(request.load, .notFound))
        }
        return
      }
      queue.asyncAfter(deadline: .now() + .milliseconds(20)) { [length] in
        guard self.current == request.load else { return }
        reports.send(.ready(request.load, duration: length))
      }
    case .preload:
      break  // this engine does not declare `.preload`
    case .start(let load, let newRate), .setRate(let load, let newRate):
      guard current == load else { return }
      rate = newRate.multiplier
      tick(reports)
    case .pause(let load):
      if current == load { rate = 0 }
    case .seek(let load, let time, let seek):
      guard current == load else { return }
      position = min(time, length)
      reports.send(.seekCompleted(load, seek))
    case .stop(let load):
      if current == load { current = nil }
    case .setVolume(let load, let level, _):
      if current == load { volume = level.level }
    }
  }

  /// Moves the tone on every 50 ms of wall-clock time while it plays. On `queue` only.
  private func tick(_ reports: ReportSink) {
    guard !ticking else { return }
    ticking = true
    queue.asyncAfter(deadline: .now() + .milliseconds(50)) {
      self.ticking = false
      guard let load = self.current, self.rate > 0 else { return }
      self.position = min(self.position + MediaTime(.milliseconds(50)) * self.rate, self.length)
      if self.position >= self.length {
        self.current = nil
        reports.send(.reachedEnd(load))
      } else {
        reports.send(.position(load, self.position))
        self.tick(reports)
      }
    }
  }
}
