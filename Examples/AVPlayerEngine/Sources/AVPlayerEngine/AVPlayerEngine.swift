#if canImport(AVFoundation)
  import AVFoundation
  import Foundation
  public import PlayerEngine
  public import PlayerState
  import Synchronization

  /// A ``PlaybackEngine`` over one `AVPlayer`, for Apple platforms.
  ///
  /// Each load gets its own `AVPlayerItem`; the item's object identity is the
  /// load's identity. Every observation (KVO, notification, seek completion)
  /// is registered with the load it belongs to and, when it fires, reports
  /// only if its item is still the player's current item and the load has not
  /// been stopped. So a callback from a replaced item can never speak for
  /// the new load: identity, not timing, decides.
  ///
  /// | AVFoundation callback | report |
  /// | --- | --- |
  /// | item `status` → `.readyToPlay` (KVO), first time | `ready(L)` |
  /// | item `status` → `.failed` (KVO) | `failed(L, reason)` from `item.error` |
  /// | `AVPlayerItemPlaybackStalled` notification | `stalled(L)` |
  /// | item `isPlaybackLikelyToKeepUp` → true (KVO) while stalled | `resumed(L)` |
  /// | `seek(to:…completionHandler:)` with `finished == true` | `seekCompleted(L, id)` (a seek interrupted by a newer one reports nothing) |
  /// | `AVPlayerItemDidPlayToEndTime` notification | `reachedEnd(L)` |
  /// | `AVPlayerItemFailedToPlayToEndTime` notification | `failed(L, reason)` |
  ///
  /// Commands: `load` makes the item and `replaceCurrentItem(with:)`; `start`
  /// is `play()`, `pause` is `pause()`, `seek` seeks exactly (zero
  /// tolerance), `stop` removes the observers and the item.
  ///
  /// Threading: AVFoundation objects are used on the main thread only. Every
  /// callback closure is `@Sendable` (never inferred main-actor isolated,
  /// which would trap when KVO fires on another thread) and hops to the main
  /// queue. `execute` marks a `stop` at once (so nothing is reported once it
  /// returns) and hands every command to the main queue, which keeps their
  /// order. The main thread must therefore be free to run (an app's is).
  public final class AVPlayerEngine: PlaybackEngine {
    private let coordinator = Coordinator()
    private let gate = ReportGate()

    /// An engine with its own `AVPlayer`.
    public init() {}

    /// Executes a command on the main queue; see the type's documentation.
    public func execute(_ command: EngineCommand, reports: ReportSink) {
      if case .stop(let load) = command { gate.stop(load) }
      DispatchQueue.main.async { [coordinator, gate] in
        MainActor.assumeIsolated {
          coordinator.execute(command, reports: ReportGate.Sink(gate: gate, sink: reports))
        }
      }
    }
  }

  /// Makes "no report after stop" exact: a report is sent under a recursive
  /// lock only if its load is not stopped, and `stop` marks the load under the
  /// same lock (recursive, because a player may run `stop` on the reporting
  /// thread, from inside the report).
  final class ReportGate: Sendable {
    struct Sink: Sendable {
      let gate: ReportGate
      let sink: ReportSink

      func send(_ report: EngineReport) {
        gate.lock.lock()
        defer { gate.lock.unlock() }
        if !gate.stopped.withLock({ $0.contains(report.load) }) { sink.send(report) }
      }
    }

    private let lock = NSRecursiveLock()
    private let stopped = Mutex<Set<Load>>([])

    func stop(_ load: Load) {
      lock.lock()
      defer { lock.unlock() }
      _ = stopped.withLock { $0.insert(load) }
    }
  }

  /// Owns the `AVPlayer` and the current item; main thread only.
  @MainActor
  final class Coordinator {
    private struct Current {
      let load: Load
      let item: AVPlayerItem
      var answered = false
      var stalled = false
      var observations: [NSKeyValueObservation] = []
      var notifications: [any NSObjectProtocol] = []
    }

    // Made on first use, on the main actor (the initialiser runs off it).
    private lazy var player = AVPlayer()
    private var current: Current?

    nonisolated init() {}

    func execute(_ command: EngineCommand, reports: ReportGate.Sink) {
      if case .load(let load) = command { return open(load, reports) }
      guard let current, current.load == command.load else { return }  // not the current load
      switch command {
      case .load: break
      case .start: player.play()
      case .pause: player.pause()
      case .seek(let load, let time, let seek):
        let target = CMTime(value: time.milliseconds, timescale: 1000)
        player.seek(to: target, toleranceBefore: .zero, toleranceAfter: .zero) {
          @Sendable finished in
          guard finished else { return }  // interrupted by a newer seek, which will report
          DispatchQueue.main.async { [weak self] in
            MainActor.assumeIsolated {
              guard self?.isCurrent(load) == true else { return }
              reports.send(.seekCompleted(load, seek))
            }
          }
        }
      case .stop: close()
      }
    }

    private func isCurrent(_ load: Load) -> Bool { current?.load == load }

    private func open(_ load: Load, _ reports: ReportGate.Sink) {
      close()  // the machine stops the old load first; this is a safety net
      let url =
        load.media.rawValue.contains("://")
        ? URL(string: load.media.rawValue) : URL(fileURLWithPath: load.media.rawValue)
      guard let url else { return reports.send(.failed(load, .notFound)) }
      let item = AVPlayerItem(url: url)
      var entry = Current(load: load, item: item)
      // KVO fires on whichever thread changed the property: hop to main, then
      // ask whether this item still speaks for this load. (The handlers hold
      // the coordinator until `close` invalidates them.)
      entry.observations.append(
        item.observe(\.status, options: [.new]) { @Sendable _, _ in
          DispatchQueue.main.async { [weak self] in
            MainActor.assumeIsolated { self?.statusChanged(load, reports) }
          }
        })
      entry.observations.append(
        item.observe(\.isPlaybackLikelyToKeepUp, options: [.new]) { @Sendable _, _ in
          DispatchQueue.main.async { [weak self] in
            MainActor.assumeIsolated { self?.keepUpChanged(load, reports) }
          }
        })
      let names: [Notification.Name] = [
        .AVPlayerItemPlaybackStalled, .AVPlayerItemDidPlayToEndTime,
        .AVPlayerItemFailedToPlayToEndTime,
      ]
      for name in names {
        entry.notifications.append(
          NotificationCenter.default.addObserver(forName: name, object: item, queue: .main) {
            [weak self] _ in
            MainActor.assumeIsolated { self?.notified(name, load, reports) }
          })
      }
      current = entry
      player.replaceCurrentItem(with: item)
    }

    private func close() {
      guard let entry = current else { return }
      current = nil
      entry.observations.forEach { $0.invalidate() }
      entry.notifications.forEach { NotificationCenter.default.removeObserver($0) }
      player.pause()
      player.replaceCurrentItem(with: nil)
    }

    private func statusChanged(_ load: Load, _ reports: ReportGate.Sink) {
      guard var entry = current, entry.load == load, !entry.answered else { return }
      switch entry.item.status {
      case .readyToPlay:
        entry.answered = true
        current = entry
        reports.send(.ready(load))
      case .failed:
        entry.answered = true
        current = entry
        reports.send(.failed(load, reason()))
      default:
        break
      }
    }

    private func stalled(_ load: Load, _ reports: ReportGate.Sink) {
      guard var entry = current, entry.load == load, entry.answered, !entry.stalled else { return }
      entry.stalled = true
      current = entry
      reports.send(.stalled(load))
    }

    private func keepUpChanged(_ load: Load, _ reports: ReportGate.Sink) {
      guard var entry = current, entry.load == load, entry.stalled,
        entry.item.isPlaybackLikelyToKeepUp
      else { return }
      entry.stalled = false
      current = entry
      reports.send(.resumed(load))
    }

    private func notified(_ name: Notification.Name, _ load: Load, _ reports: ReportGate.Sink) {
      guard isCurrent(load) else { return }
      switch name {
      case .AVPlayerItemPlaybackStalled: stalled(load, reports)
      case .AVPlayerItemDidPlayToEndTime: reports.send(.reachedEnd(load))
      case .AVPlayerItemFailedToPlayToEndTime: reports.send(.failed(load, reason()))
      default: break
      }
    }

    /// The failure reason for the current item's error.
    private func reason() -> FailureReason {
      guard let error = current?.item.error as NSError? else { return .engine(code: 0) }
      switch (error.domain, error.code) {
      case (NSURLErrorDomain, NSURLErrorFileDoesNotExist),
        (NSURLErrorDomain, NSURLErrorResourceUnavailable),
        (NSCocoaErrorDomain, NSFileReadNoSuchFileError):
        return .notFound
      case (NSURLErrorDomain, _):
        return .network
      case (AVFoundationErrorDomain, AVError.Code.fileFormatNotRecognized.rawValue),
        (AVFoundationErrorDomain, AVError.Code.decoderNotFound.rawValue),
        (AVFoundationErrorDomain, AVError.Code.formatUnsupported.rawValue):
        return .unsupported
      case (AVFoundationErrorDomain, AVError.Code.decodeFailed.rawValue):
        return .decoding
      default:
        return .engine(code: Int32(clamping: error.code))
      }
    }
  }
#endif
