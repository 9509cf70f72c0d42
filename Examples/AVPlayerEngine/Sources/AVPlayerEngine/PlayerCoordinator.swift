#if canImport(AVFoundation)
  import AVFoundation
  import AVPlayerEngineCore
  import Foundation
  import PlayerState

  /// Owns the `AVQueuePlayer`, the current load's item and the queued preload's; main
  /// actor only.
  ///
  /// It decides nothing: every command and every AVFoundation callback goes through the
  /// load's `ItemMachine` (the player's own state through the current load's only), the
  /// queue player's items follow `QueueSlots`, and the coordinator performs what comes
  /// back. A callback names the session it was registered for by serial number (never
  /// by the item's address, which a new item may reuse), and counts only while that
  /// session is live.
  @MainActor
  final class PlayerCoordinator {
    /// One load: its item, its machine, and the observers registered for it.
    private struct Session {
      let serial: UInt64
      let load: Load
      let item: AVPlayerItem
      var machine: ItemMachine<SeekID>
      let reports: ReportGate.Sink
      /// The rate of the newest `start` or `setRate`, applied after each `play()`.
      var rate = PlaybackRate.normal
      var observations: [NSKeyValueObservation] = []
      var notifications: [any NSObjectProtocol] = []
    }

    private var player: AVQueuePlayer?
    private var playerObservations: [NSKeyValueObservation] = []
    /// The live loads' sessions: the current item's and the queued preload's.
    private var sessions: [Load: Session] = [:]
    /// Which load's item is current and which is queued after it.
    private var slots = QueueSlots<Load>()
    private var lastSerial: UInt64 = 0
    /// An audio session interruption is active (iOS, tvOS: `observeAudioSession`).
    private var interrupted = false
    /// The audio session's notification registrations (iOS, tvOS), removed at shut down.
    var audioSessionObservers: [any NSObjectProtocol] = []

    // Runs off the main actor (the engine is made anywhere); touches nothing.
    nonisolated init() {}

    func execute(_ command: EngineCommand, reports: ReportGate.Sink) {
      switch command {
      case .load(let request):
        open(request, reports, preload: false)
      case .preload(let request):
        open(request, reports, preload: true)
      case .stop(let load):
        let item = sessions[load]?.item
        retire(load)
        perform(slots.stop(load), stoppedItem: item)
      case .setRate(let load, let rate):
        guard slots.current == load, var session = sessions[load] else { return }
        session.rate = rate
        sessions[load] = session
        if player?.timeControlStatus != .paused { player?.rate = Float(rate.multiplier) }
      case .setVolume(let load, let volume, let ramp):
        // AVPlayer's volume is the player's: QueueSlots keeps each load's and sets the
        // current one's; a ramp of the current item while it plays is its audio mix's.
        perform(slots.setVolume(load, volume, ramp: ramp, playing: mixablePlayback()))
      case .start, .pause, .seek:
        guard slots.current == command.load, var session = sessions[command.load],
          let itemCommand = ItemCommand(command)
        else { return }  // not the current load: ignored
        if case .start(_, let rate) = command { session.rate = rate }
        let actions = session.machine.execute(itemCommand)
        sessions[command.load] = session
        perform(actions, session)
      }
    }

    func shutDown() {
      audioSessionObservers.forEach { NotificationCenter.default.removeObserver($0) }
      audioSessionObservers = []
      for load in Array(sessions.keys) { retire(load) }
      slots = QueueSlots()
      retirePlayer()
    }

    /// The audio session said something: every live load's machine learns whether an
    /// interruption is active (a pause the player makes during one is the interruption's).
    func sessionNoticed(_ notice: SessionNotice) {
      guard let active = notice.interruption else { return }
      interrupted = active
      for serial in sessions.values.map(\.serial) {
        deliver(.interruption(active: active), to: serial)
      }
    }

    // MARK: Loads

    /// A `load` (the item replaces everything) or a `preload` (the item is queued after
    /// the current one; with nothing current, it is loaded instead).
    private func open(_ request: LoadRequest, _ reports: ReportGate.Sink, preload: Bool) {
      let load = request.load
      guard let url = MediaURL.url(for: request.media.rawValue) else {
        let error = AVErrorDetail(
          domain: NSURLErrorDomain, code: NSURLErrorBadURL,
          message: "not a URL or file path: \(request.media.rawValue)")
        return reports.send(ItemSignal<SeekID>.failed(error).report(about: load))
      }
      if !preload {
        // The machine stops the old loads first; this is a safety net.
        for old in Array(sessions.keys) { retire(old) }
      }
      _ = livePlayer()
      let item = AVPlayerItem(url: url)
      lastSerial &+= 1
      var session = Session(
        serial: lastSerial, load: load, item: item,
        machine: ItemMachine(streamed: !url.isFileURL), reports: reports)
      if interrupted { _ = session.machine.observe(.interruption(active: true)) }
      observe(item, into: &session)
      sessions[load] = session
      let calls = (preload ? slots.preload(load) : nil) ?? slots.load(load)
      perform(calls)
      if let start = request.initialSeek {
        // A load from a start position (a retry, a jump, a restored DVR position): the item
        // starts there. A load at the live edge is not seeked: a live item starts there.
        item.seek(to: CMTime(value: start, timescale: 1000), completionHandler: nil)
      }
    }

    /// Forgets a load's session: its observers go, and nothing it observes counts.
    private func retire(_ load: Load) {
      guard let session = sessions.removeValue(forKey: load) else { return }
      session.observations.forEach { $0.invalidate() }
      session.notifications.forEach { NotificationCenter.default.removeObserver($0) }
    }

    /// Performs `QueueSlots`' calls on the queue player. `stoppedItem` is the item of the
    /// load just stopped (its session is gone).
    private func perform(_ calls: [QueueSlots<Load>.Call], stoppedItem: AVPlayerItem? = nil) {
      guard let player else { return }
      for call in calls {
        switch call {
        case .replaceAll(let load):
          player.removeAllItems()  // also ends the old item's pending seeks (`false`)
          if let item = sessions[load]?.item { player.insert(item, after: nil) }
        case .insertAfterCurrent(let load):
          if let item = sessions[load]?.item { player.insert(item, after: player.currentItem) }
        case .remove(let load):
          if let item = sessions[load]?.item ?? stoppedItem { player.remove(item) }
        case .advance:
          player.advanceToNextItem()
        case .clear:
          player.pause()
          player.removeAllItems()
        case .advanceAtEnd(let advances):
          player.actionAtItemEnd = advances ? .advance : .pause
        case .setVolume(let volume):
          if player.currentItem?.audioMix != nil { player.currentItem?.audioMix = nil }
          player.volume = Float(volume.level)
        case .rampVolume(let ramp):
          player.volume = 1
          player.currentItem?.audioMix = Self.audioMix(ramp, tracks: audioTracks())
        }
      }
    }

    /// The current item's time and rate while it plays and its audio tracks are known (an
    /// audio mix can ramp it); nil otherwise (a ramp is then a step).
    private func mixablePlayback() -> (time: MediaTime, rate: PlaybackRate)? {
      guard let player, player.timeControlStatus == .playing, let item = player.currentItem,
        !audioTracks().isEmpty
      else { return nil }
      let time = item.currentTime()
      guard time.isNumeric else { return nil }
      let rate = slots.current.flatMap { sessions[$0]?.rate } ?? .normal
      return (.milliseconds((time.seconds * 1000).rounded()), rate)
    }

    /// The current item's audio tracks, as its asset describes them (none for a stream that
    /// does not, such as HLS: it takes no audio mix).
    private func audioTracks() -> [AVAssetTrack] {
      (player?.currentItem?.tracks ?? []).compactMap(\.assetTrack).filter { $0.mediaType == .audio }
    }

    /// An audio mix that plays `ramp` on each of `tracks`.
    private static func audioMix(_ ramp: AudioMixRamp, tracks: [AVAssetTrack]) -> AVAudioMix {
      let mix = AVMutableAudioMix()
      let range = CMTimeRange(
        start: CMTime(value: ramp.start.milliseconds, timescale: 1000),
        duration: CMTime(value: ramp.length.milliseconds, timescale: 1000))
      mix.inputParameters = tracks.map { track in
        let parameters = AVMutableAudioMixInputParameters(track: track)
        parameters.setVolumeRamp(
          fromStartVolume: Float(ramp.from.level), toEndVolume: Float(ramp.to.level),
          timeRange: range)
        return parameters
      }
      return mix
    }

    /// The session observing with `serial`, if it is still live.
    private func session(_ serial: UInt64) -> Session? {
      sessions.values.first { $0.serial == serial }
    }

    // MARK: Facts in, actions out

    /// Feeds a fact to the machine of session `serial`, if it is still live.
    private func deliver(_ fact: ItemFact<SeekID>, to serial: UInt64) {
      guard var session = session(serial) else { return }
      let actions = session.machine.observe(fact)
      sessions[session.load] = session
      perform(actions, session)
    }

    /// The current item played to its end. With a preload queued, the queue player has
    /// moved on to it by itself: that load is current from now on (the machine answers
    /// the `reachedEnd` with `stop` of this load and `start` of that one).
    private func playedToEnd(_ serial: UInt64) {
      guard let session = session(serial), session.load == slots.current else { return }
      let advanced = slots.playedToEnd()
      if let advanced { perform(advanced.calls) }  // the next load's volume
      deliver(.playedToEnd, to: serial)
      if let next = advanced?.next, let nextSerial = sessions[next]?.serial {
        deliver(.timeControl(timeControl()), to: nextSerial)
      }
    }

    private func perform(_ actions: [ItemAction<SeekID>], _ session: Session) {
      for action in actions {
        switch action {
        case .report(let signal):
          session.reports.send(signal.report(about: session.load))
        case .play:
          player?.play()
          if session.rate != .normal { player?.rate = Float(session.rate.multiplier) }
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
        // A live item's window: it moves with each playlist refresh.
        item.observe(\.seekableTimeRanges, options: [.new]) { @Sendable [weak self] _, _ in
          PlayerCoordinator.onMain(self, itemChanged)
        },
        item.observe(\.duration, options: [.new]) { @Sendable [weak self] _, _ in
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
          PlayerCoordinator.onMain(self) { $0.playedToEnd(serial) }
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
      guard let item = session(serial)?.item else { return }
      switch item.status {
      case .readyToPlay: deliver(.itemStatus(.readyToPlay), to: serial)
      case .failed: deliver(.itemStatus(.failed(AVErrorDetail(orMissing: item.error))), to: serial)
      case .unknown: break
      @unknown default: break
      }
      let canKeepUp = item.isPlaybackLikelyToKeepUp || item.isPlaybackBufferFull
      deliver(.bufferingChanged(canKeepUp: canKeepUp), to: serial)
      deliver(.timing(Self.timing(of: item)), to: serial)
    }

    /// The item's duration, seekable ranges and current time, read now, in milliseconds.
    private static func timing(of item: AVPlayerItem) -> ItemTiming {
      let duration: ItemDuration =
        if item.duration.isIndefinite {
          .indefinite
        } else if let known = milliseconds(item.duration) {
          .known(known)
        } else {
          .unknown
        }
      let seekable = item.seekableTimeRanges.map(\.timeRangeValue).compactMap { range in
        milliseconds(range.start).flatMap { start in
          milliseconds(range.end).map { SeekableSpan(start: start, end: $0) }
        }
      }
      return ItemTiming(
        duration: duration, seekable: seekable, currentTime: milliseconds(item.currentTime()))
    }

    /// A numeric time in whole milliseconds; nil otherwise.
    private static func milliseconds(_ time: CMTime) -> MediaPosition? {
      time.isNumeric ? ItemTiming.milliseconds(seconds: time.seconds) : nil
    }

    /// The player's status and time control, read now, fed to the current machine.
    /// The player's state belongs to the current item's load only.
    private func playerChanged() {
      guard let player, let current = slots.current, let serial = sessions[current]?.serial
      else { return }
      if player.status == .failed {
        deliver(.playerFailed(AVErrorDetail(orMissing: player.error)), to: serial)
      }
      if player.timeControlStatus == .paused, let item = sessions[current]?.item,
        Self.isAtEnd(item)
      {
        deliver(.pausedAtEnd, to: serial)
      }
      deliver(.timeControl(timeControl()), to: serial)
    }

    /// Whether the item's current time has reached its duration (a pause there is the
    /// end's). False while either is not a number (an unknown or indefinite duration).
    private static func isAtEnd(_ item: AVPlayerItem) -> Bool {
      let now = item.currentTime()
      let duration = item.duration
      return now.isNumeric && duration.isNumeric && now.seconds >= duration.seconds
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
    private func livePlayer() -> AVQueuePlayer {
      if let player, player.status != .failed { return player }
      retirePlayer()
      let player = AVQueuePlayer()
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
      player?.removeAllItems()
      player = nil
    }
  }
#endif
