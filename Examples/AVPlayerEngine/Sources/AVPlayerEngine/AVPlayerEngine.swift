#if canImport(AVFoundation)
  import AVPlayerEngineCore
  import Foundation
  public import PlayerEngine
  public import PlayerState
  import os

  /// A ``PlaybackEngine`` over one `AVQueuePlayer`, for Apple platforms.
  ///
  /// Each load gets its own `AVPlayerItem` and its own `ItemMachine` (the pure core,
  /// tested on Linux), which decides every report; this class and its coordinator only
  /// observe AVFoundation, turn what they see into the core's facts, and perform the
  /// core's actions on the main actor.
  ///
  /// | AVFoundation | report |
  /// | --- | --- |
  /// | item `status` `.readyToPlay`, and for streamed media `isPlaybackLikelyToKeepUp` or `isPlaybackBufferFull` (or the player already `.playing`) | `ready(L)`, once |
  /// | item `status` `.failed` (before or after ready) | `failed(L, reason)` from `item.error` |
  /// | `failedToPlayToEndTimeNotification` | `failed(L, reason)` from the notification's error |
  /// | player `status` `.failed` (e.g. media services reset) | `failed(L, reason)` from `player.error` |
  /// | `timeControlStatus` waiting with reason `.toMinimizeStalls`, after ready, user wants play | `stalled(L)` |
  /// | `playbackStalledNotification` while not `.playing` (file-based playback) | `stalled(L)`; `play()` again once it can keep up |
  /// | `timeControlStatus` `.playing` while stalled | `resumed(L)` |
  /// | seek completion of the newest seek, `finished` true or false | `seekCompleted(L, id)` |
  /// | `didPlayToEndTimeNotification` | `reachedEnd(L)` |
  /// | `timeControlStatus` `.paused` after ready, no `pause` asked, not a stall, not the end, no interruption | `pausedBySystem(L)` |
  /// | a live item (`duration` `.indefinite`) after ready, its `seekableTimeRanges` changed | `position(L, currentTime)` then `window(L, start…end)`; a union under 45 s is a zero-length window at its end (live, no DVR) |
  ///
  /// Every failure carries the engine's error as `FailureDetail` (domain, code and
  /// message of the link the reason was decided from). On iOS and tvOS the audio
  /// session's interruptions and route losses reach the player as system events: see
  /// ``forwardSystemEvents(to:)``.
  ///
  /// Only one failure is reported per load, and nothing after it. The reason is
  /// decided from the error's whole underlying-error chain (see the README).
  ///
  /// Commands: `load` makes the item and makes it the queue player's only one (a new
  /// `AVQueuePlayer` first if the old one failed), seeking the item to the load's start position if it
  /// has one (not a load at the live edge: a live item starts there by itself); `start` is `play()` then the rate if it is not 1x, `setRate` sets the rate
  /// while playing, `pause` is `pause()`; `setVolume` sets `AVPlayer.volume` to the current
  /// load's volume (each load keeps its own, full unless told; a ramp while the item plays
  /// is its `AVAudioMix`'s, otherwise a step: see `QueueSlots` and `AudioMixRamp`; the
  /// engine does not declare `.volumeRamp` yet, so a player sends it none); `seek` seeks exactly (zero tolerance), deferred
  /// until the item is `.readyToPlay`; `stop` removes the observers, pauses and removes
  /// the item. `preload` queues the next entry's item in the `AVQueuePlayer`
  /// (`insert(_:after:)`): at the end of the current item the player moves on to it by
  /// itself, with no gap, and the machine's `stop(A) start(P)` then finds `P` current; a
  /// `stop` of the current load before its end advances at once, a `stop` of the queued
  /// one removes its item (see `QueueSlots`).
  ///
  /// Threading: AVFoundation objects are used on the main thread only. `execute` hands
  /// each command to the main queue (which keeps their order), so the main thread must
  /// be free to run. Every AVFoundation callback is a `@Sendable` closure (never
  /// inferred main-actor isolated, which would trap when KVO fires on another thread)
  /// that hops to the main queue. `execute` marks `load` and `stop` at once, and only the
  /// live load's reports pass; no lock is held while reporting. Releasing the engine
  /// pauses the player and removes every observer.
  ///
  /// ```swift
  /// let player = Player(engine: AVPlayerEngine())
  /// player.send(.play("https://example.com/stream.m3u8"))
  /// ```
  public final class AVPlayerEngine: PlaybackEngine {
    private let coordinator = PlayerCoordinator()
    private let gate = ReportGate()
    private let systemEvents = OSAllocatedUnfairLock(initialState: WeakPlayer())

    /// The player that hears the system's events, held weakly (it holds the engine).
    private struct WeakPlayer: Sendable {
      weak var player: Player?
    }

    /// An engine with its own `AVQueuePlayer`, made on the main actor when first needed.
    /// On iOS and tvOS it observes the audio session from now on (see
    /// ``forwardSystemEvents(to:)``).
    public init() {
      #if os(iOS) || os(tvOS) || PLAYHEAD_TYPECHECK_AUDIO_SESSION
        let coordinator = self.coordinator
        let systemEvents = self.systemEvents
        DispatchQueue.main.async {
          MainActor.assumeIsolated {
            coordinator.observeAudioSession { event in
              systemEvents.withLock { $0.player }?.send(.system(event))
            }
          }
        }
      #endif
    }

    /// Sends the audio session's events to `player` (held weakly), on iOS and tvOS:
    ///
    /// | `AVAudioSession` | event |
    /// | --- | --- |
    /// | `interruptionNotification`, `began` | `.system(.interruptionBegan)` |
    /// | `interruptionNotification`, `ended`, options with `.shouldResume` | `.system(.interruptionEnded(shouldResume: true))` |
    /// | `interruptionNotification`, `ended`, without it | `.system(.interruptionEnded(shouldResume: false))` |
    /// | `routeChangeNotification`, reason `.oldDeviceUnavailable` | `.system(.routeLost)` |
    /// | `silenceSecondaryAudioHintNotification`, `begin` | `.system(.duckBegan)` |
    /// | `silenceSecondaryAudioHintNotification`, `end` | `.system(.duckEnded)` |
    ///
    /// Elsewhere (macOS, visionOS) there is no audio session to observe and nothing is
    /// sent. Call it once, right after making the player:
    ///
    /// ```swift
    /// let engine = AVPlayerEngine()
    /// let player = Player(engine: engine)
    /// engine.forwardSystemEvents(to: player)
    /// ```
    /// - Parameter player: the player of this engine.
    public func forwardSystemEvents(to player: Player) {
      systemEvents.withLock { $0.player = player }
    }

    /// Preloads: the next queue entry is queued in the `AVQueuePlayer`, which plays it
    /// with no gap at the end of the current one.
    public var capabilities: EngineCapabilities { .preload }

    /// Executes a command on the main queue; see the type's documentation.
    /// - Parameters:
    ///   - command: what to do; a command for a load that is not the current one is
    ///     ignored.
    ///   - reports: where the reports about the command's load go.
    public func execute(_ command: EngineCommand, reports: ReportSink) {
      switch command {
      case .load(let request): gate.loaded(request.load)
      case .preload(let request): gate.preloaded(request.load)
      case .stop(let load): gate.stopped(load)
      case .start, .setRate, .pause, .seek, .setVolume: break
      }
      let sink = ReportGate.Sink(gate: gate, sink: reports)
      DispatchQueue.main.async { [coordinator] in
        MainActor.assumeIsolated { coordinator.execute(command, reports: sink) }
      }
    }

    deinit {
      // The coordinator owns main-actor objects: shut it down there. The block keeps it
      // alive until then; its observers hold it weakly, so nothing else does.
      let coordinator = self.coordinator
      DispatchQueue.main.async {
        MainActor.assumeIsolated { coordinator.shutDown() }
      }
    }
  }

  /// Admits a report only for a live load (`LiveLoad`): the current one and its preload,
  /// not a growing set of stopped ones.
  ///
  /// `execute` marks `load` and `stop` at once, before the command reaches the main queue.
  /// No lock is held while reporting (the engine contract's `commandFromReportCallback`:
  /// a player may run its next command on the reporting thread), so a report that was
  /// admitted just before a `stop` on another thread can still arrive after it; the
  /// machine ignores it as stale (the kit's absorbed `reportAfterStop`). The live load
  /// sits in an `OSAllocatedUnfairLock` (iOS 16), held only to read or write it.
  final class ReportGate: Sendable {
    /// A report sink that asks the gate first.
    struct Sink: Sendable {
      let gate: ReportGate
      let sink: ReportSink

      /// Sends `report` unless its load has been stopped or replaced.
      func send(_ report: EngineReport) {
        let load = report.load
        if gate.live.withLock({ $0.admits(load) }) { sink.send(report) }
      }
    }

    private let live = OSAllocatedUnfairLock(initialState: LiveLoad<Load>())

    /// `load(L)` was executed: only `L` may report from now on.
    func loaded(_ load: Load) { live.withLock { $0.loaded(load) } }

    /// `preload(P)` was executed: `P` may report too.
    func preloaded(_ load: Load) { live.withLock { $0.preloaded(load) } }

    /// `stop(L)` was executed: `L` is admitted no more.
    func stopped(_ load: Load) { live.withLock { $0.stopped(load) } }
  }
#endif
