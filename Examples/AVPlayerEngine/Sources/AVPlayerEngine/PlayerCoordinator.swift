#if canImport(AVFoundation)
  import AVFoundation
  import AVPlayerEngineCore
  import Foundation
  import PlayerState

  /// Owns the `AVPlayer` and the current load's item; main actor only.
  ///
  /// It decides nothing: every command and every AVFoundation callback goes through the
  /// current load's `ItemMachine`, and the coordinator performs what comes back. A
  /// callback names the session it was registered for by serial number (never by the
  /// item's address, which a new item may reuse), and counts only while that session
  /// is current.
  @MainActor
  final class PlayerCoordinator {
    /// One load: its item, its machine, and the observers registered for it.
    private struct Session {
      let serial: UInt64
      let load: Load
      let item: AVPlayerItem
      var machine: ItemMachine<SeekID>
      let reports: ReportGate.Sink
      var observations: [NSKeyValueObservation] = []
      var notifications: [any NSObjectProtocol] = []
    }

    private var player: AVPlayer?
    private var playerObservations: [NSKeyValueObservation] = []
    private var current: Session?
    private var lastSerial: UInt64 = 0

    // Runs off the main actor (the engine is made anywhere); touches nothing.
    nonisolated init() {}

    func execute(_ command: EngineCommand, reports: ReportGate.Sink) {
      switch command {
      case .load(let load):
        open(load, reports)
      case .stop(let load):
        if current?.load == load { close() }
      case .start, .pause, .seek:
        guard var session = current, session.load == command.load,
          let itemCommand = ItemCommand(command)
        else { return }  // not the current load: ignored
        let actions = session.machine.execute(itemCommand)
        current = session
        perform(actions, session)
      }
    }

    /// Pauses, removes every observer and releases the player (the engine is gone).
    func shutDown() {
      close()
      retirePlayer()
    }

    // MARK: Loads

    private func open(_ load: Load, _ reports: ReportGate.Sink) {
      close()  // the machine stops the old load first; this is a safety net
      guard let url = MediaURL.url(for: load.media.rawValue) else {
        let error = AVErrorDetail(
          domain: NSURLErrorDomain, code: NSURLErrorBadURL,
          message: "not a URL or file path: \(load.media.rawValue)")
        return reports.send(ItemSignal<SeekID>.failed(error).report(about: load))
      }
      let player = livePlayer()
      let item = AVPlayerItem(url: url)
      lastSerial &+= 1
      var session = Session(
        serial: lastSerial, load: load, item: item,
        machine: ItemMachine(streamed: !url.isFileURL), reports: reports)
      observe(item, into: &session)
      current = session
      player.replaceCurrentItem(with: item)
    }

    private func close() {
      guard let session = current else { return }
      current = nil
      session.observations.forEach { $0.invalidate() }
      session.notifications.forEach { NotificationCenter.default.removeObserver($0) }
      player?.pause()
      player?.replaceCurrentItem(with: nil)  // also ends its pending seeks (`false`)
    }

    // MARK: Facts in, actions out

    /// Feeds a fact to the machine of session `serial`, if it is still current.
    private func deliver(_ fact: ItemFact<SeekID>, to serial: UInt64) {
      guard var session = current, session.serial == serial else { return }
      let actions = session.machine.observe(fact)
      current = session
      perform(actions, session)
    }

    private func perform(_ actions: [ItemAction<SeekID>], _ session: Session) {
      for action in actions {
        switch action {
        case .report(let signal):
          session.reports.send(signal.report(about: session.load))
        case .play:
          player?.play()
        case .pause:
          player?.pause()
        case .seek(let milliseconds, let seek):
          let serial = session.serial
          player?.seek(
            to: CMTime(value: milliseconds, timescale: 1000), toleranceBefore: .zero,
            toleranceAfter: .zero
          ) { @Sendable [weak self] finished in
            PlayerCoordinator.onMain(self) {
              $0.deliver(.seekFinished(seek, finished: finished), to: serial)
            }
          }
        }
      }
    }

    /// Runs `body` on the main queue with the coordinator, if it still exists. Callable
    /// from any thread: AVFoundation calls back on threads of its choosing.
    nonisolated static func onMain(
      _ coordinator: PlayerCoordinator?,
      _ body: @escaping @Sendable @MainActor (PlayerCoordinator) -> Void
    ) {
      guard let coordinator else { return }
      DispatchQueue.main.async {
        MainActor.assumeIsolated { body(coordinator) }
      }
    }

    // MARK: Observers

    /// Registers the item's observers. Each handler only hops to the main queue; there
    /// it reads the *current* values (a KVO change's `new` may be stale by then).
    private func observe(_ item: AVPlayerItem, into session: inout Session) {
      let serial = session.serial
      let itemChanged: @Sendable @MainActor (PlayerCoordinator) -> Void = {
        $0.itemChanged(serial)
      }
      session.observations = [
        item.observe(\.status, options: [.new]) { @Sendable [weak self] _, _ in
          PlayerCoordinator.onMain(self, itemChanged)
        },
        item.observe(\.isPlaybackLikelyToKeepUp, options: [.new]) { @Sendable [weak self] _, _ in
          PlayerCoordinator.onMain(self, itemChanged)
        },
        item.observe(\.isPlaybackBufferFull, options: [.new]) { @Sendable [weak self] _, _ in
          PlayerCoordinator.onMain(self, itemChanged)
        },
      ]
      let center = NotificationCenter.default
      session.notifications = [
        center.addObserver(
          forName: AVPlayerItem.playbackStalledNotification, object: item, queue: nil
        ) { @Sendable [weak self] _ in
          PlayerCoordinator.onMain(self) {
            $0.deliver(.playbackStalled(now: $0.timeControl()), to: serial)
          }
        },
        center.addObserver(
          forName: AVPlayerItem.didPlayToEndTimeNotification, object: item, queue: nil
        ) { @Sendable [weak self] _ in
          PlayerCoordinator.onMain(self) { $0.deliver(.playedToEnd, to: serial) }
        },
        center.addObserver(
          forName: AVPlayerItem.failedToPlayToEndTimeNotification, object: item, queue: nil
        ) { @Sendable [weak self] notification in
          // Read the error here, on the posting thread: a value crosses, not the note.
          let error = AVErrorDetail(
            orMissing: notification.userInfo?[AVPlayerItemFailedToPlayToEndTimeErrorKey]
              as? any Error)
          PlayerCoordinator.onMain(self) { $0.deliver(.failedToPlayToEnd(error), to: serial) }
        },
      ]
    }

    /// The item's status and buffering, read now, fed to its machine.
    private func itemChanged(_ serial: UInt64) {
      guard let item = current?.item, current?.serial == serial else { return }
      switch item.status {
      case .readyToPlay: deliver(.itemStatus(.readyToPlay), to: serial)
      case .failed: deliver(.itemStatus(.failed(AVErrorDetail(orMissing: item.error))), to: serial)
      case .unknown: break
      @unknown default: break
      }
      let canKeepUp = item.isPlaybackLikelyToKeepUp || item.isPlaybackBufferFull
      deliver(.bufferingChanged(canKeepUp: canKeepUp), to: serial)
    }

    /// The player's status and time control, read now, fed to the current machine.
    private func playerChanged() {
      guard let player, let serial = current?.serial else { return }
      if player.status == .failed {
        deliver(.playerFailed(AVErrorDetail(orMissing: player.error)), to: serial)
      }
      deliver(.timeControl(timeControl()), to: serial)
    }

    /// `timeControlStatus` and `reasonForWaitingToPlay`, as the core spells them.
    private func timeControl() -> TimeControl {
      guard let player else { return .paused }
      switch player.timeControlStatus {
      case .paused: return .paused
      case .playing: return .playing
      case .waitingToPlayAtSpecifiedRate:
        let reason = player.reasonForWaitingToPlay
        if reason == .toMinimizeStalls { return .waiting(.toMinimizeStalls) }
        if reason == .evaluatingBufferingRate { return .waiting(.evaluatingBufferingRate) }
        if reason == .noItemToPlay { return .waiting(.noItemToPlay) }
        return .waiting(.other)
      @unknown default: return .waiting(.other)
      }
    }

    // MARK: The player

    /// The player, made now if there is none or the old one failed: a failed `AVPlayer`
    /// cannot play again, and every later load would hang until the watchdog.
    private func livePlayer() -> AVPlayer {
      if let player, player.status != .failed { return player }
      retirePlayer()
      let player = AVPlayer()
      player.actionAtItemEnd = .pause
      player.automaticallyWaitsToMinimizeStalling = true  // the default; the core relies on it
      let playerChanged: @Sendable @MainActor (PlayerCoordinator) -> Void = { $0.playerChanged() }
      playerObservations = [
        player.observe(\.status, options: [.new]) { @Sendable [weak self] _, _ in
          PlayerCoordinator.onMain(self, playerChanged)
        },
        player.observe(\.timeControlStatus, options: [.new]) { @Sendable [weak self] _, _ in
          PlayerCoordinator.onMain(self, playerChanged)
        },
        // The reason changes while the status stays waiting (evaluating → to minimize stalls).
        player.observe(\.reasonForWaitingToPlay, options: [.new]) { @Sendable [weak self] _, _ in
          PlayerCoordinator.onMain(self, playerChanged)
        },
      ]
      self.player = player
      return player
    }

    private func retirePlayer() {
      playerObservations.forEach { $0.invalidate() }
      playerObservations = []
      player?.pause()
      player?.replaceCurrentItem(with: nil)
      player = nil
    }
  }
#endif
