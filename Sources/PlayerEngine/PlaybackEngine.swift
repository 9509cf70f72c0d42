public import PlayerState

/// A media back end, as Playhead sees it: something that executes commands
/// and reports back what happened.
///
/// The engine owns no state logic. It never decides to start playing on its
/// own; it says what happened (`ready`, `stalled`, `failed`…) through the
/// sink, tagged with the load the command named, and the ``Player`` decides.
///
/// Threading: ``execute(_:reports:)`` is called on whichever thread is
/// driving the player at the time, one command at a time, never concurrently.
/// It must not block waiting for a report. Reports may be sent from any
/// thread at any time, including synchronously from inside `execute`.
///
/// ```swift
/// final class MyEngine: PlaybackEngine {
///   func execute(_ command: EngineCommand, reports: ReportSink) {
///     switch command {
///     case .load(let request):
///       backend.open(request.media.rawValue, at: request.start) {
///         reports.send(.ready(request.load))
///       }
///     case .preload: break  // only sent to engines with the `.preload` capability
///     case .start(_, let rate): backend.play(rate: rate.multiplier)
///     case .setRate(_, let rate): backend.setRate(rate.multiplier)
///     case .pause: backend.pause()
///     case .seek(let load, let time, let seek):
///       backend.seek(time) { reports.send(.seekCompleted(load, seek)) }
///     case .stop: backend.close()
///     }
///   }
/// }
/// ```
public protocol PlaybackEngine: Sendable {
  /// What the engine can do beyond the basic commands; read once, when a
  /// ``Player`` is created. The default is none.
  var capabilities: EngineCapabilities { get }

  /// Executes one command.
  /// - Parameters:
  ///   - command: what to do, naming the load it is about.
  ///   - reports: where to send reports about that load, now or later, from any thread.
  func execute(_ command: EngineCommand, reports: ReportSink)
}

extension PlaybackEngine {
  /// No capabilities beyond the basic commands.
  public var capabilities: EngineCapabilities { [] }
}

/// What an engine can do beyond `load`, `start`, `pause`, `seek`, `stop` and `setRate`.
public struct EngineCapabilities: OptionSet, Hashable, Sendable {
  /// The bits.
  public let rawValue: UInt32

  /// Capabilities from their bits.
  public init(rawValue: UInt32) { self.rawValue = rawValue }

  /// The engine can load the next queue entry while the current one plays
  /// (``PlayerState/EngineCommand/preload(_:)``), so two loads are live at once and the
  /// next entry starts without a gap. Without it, entries load one after another.
  public static let preload = EngineCapabilities(rawValue: 1 << 0)
  /// The engine ramps a load's volume over the `ramp` of
  /// ``PlayerState/EngineCommand/setVolume(_:_:ramp:)``, from the level it is
  /// at. Without it the player never fades nor crossfades
  /// (``PlayerState/PlayerConfiguration/fade`` and
  /// ``PlayerState/PlayerConfiguration/crossfade`` are set to zero), so the
  /// engine is never sent a ramp.
  public static let volumeRamp = EngineCapabilities(rawValue: 1 << 1)
}

extension PlayerConfiguration {
  /// These settings as an engine with `capabilities` can carry them out:
  /// `canPreload` from ``EngineCapabilities/preload``, no fade without
  /// ``EngineCapabilities/volumeRamp``, and no crossfade without both (two
  /// audible loads, each ramped).
  func fitted(to capabilities: EngineCapabilities) -> PlayerConfiguration {
    var fitted = self
    fitted.canPreload = capabilities.contains(.preload)
    if !capabilities.contains(.volumeRamp) { fitted.fade = .zero }
    if !capabilities.isSuperset(of: [.preload, .volumeRamp]) { fitted.crossfade = .zero }
    return fitted
  }
}

/// Where an engine sends its reports. Cheap to copy and to keep; safe to use
/// from any thread, after the player is gone too (the report is then dropped).
public struct ReportSink: Sendable {
  // A player's sink holds it weakly (the engine may keep the sink, and the
  // player keeps the engine) and is made without allocating, once per event.
  private weak var player: Player?
  private let forward: (@Sendable (EngineReport) -> Void)?

  init(player: Player) {
    self.player = player
    forward = nil
  }

  /// A sink that hands each report to a closure: for players other than
  /// ``Player`` (a harness, a test double, a model under test).
  /// - Parameter send: called with each report, on the reporting thread.
  public init(_ send: @escaping @Sendable (EngineReport) -> Void) {
    player = nil
    forward = send
  }

  /// Sends a report to the player. Returns at once: the report is queued if
  /// the player is busy, including when called from inside `execute`.
  /// - Parameter report: what happened, tagged with the load it is about.
  public func send(_ report: EngineReport) {
    if let forward {
      forward(report)
    } else {
      player?.send(.engine(report))
    }
  }
}
