package import PlayerState

/// What one case runs with besides its actions: whether the engine preloads,
/// the player's configuration (the `previous` threshold and the retry policy),
/// the timeout of the harness's watchdog clock, and the state the player starts
/// from. Each random case draws one (``ActionDecoder/setup(from:inputs:)``); the
/// contract model reads it, so no default of `PlayerConfiguration` is built
/// into the oracle; a saved case spells it on its engine line (``FuzzCase/header``).
package struct FuzzSetup: Hashable, Sendable {
  /// Whether the engine declares the `.preload` capability.
  package var canPreload: Bool
  /// `PlayerConfiguration.previousThreshold`: past it, `previous` restarts the entry.
  package var previousThreshold: MediaTime
  /// `PlayerConfiguration.retry`: how a load that failed for want of the network is retried.
  package var retry: RetryPolicy
  /// The timeout of the harness's watchdog clock (``FuzzEngine/watchdog``): the
  /// delay every load and stall watchdog must be scheduled with.
  package var watchdogTimeout: MediaTime
  /// `PlayerConfiguration.ducking`: what a duck of the system does (lower the
  /// volume to a level, or pause as an interruption).
  package var ducking: DuckPolicy = PlayerConfiguration().ducking
  /// `PlayerConfiguration.fade`, in milliseconds: zero (off) unless the case
  /// runs with ``FuzzFeatures/fade`` against a subject that does fades, then
  /// ``fadeOn``; the engine declares `EngineCapabilities.volumeRamp` exactly then.
  package var fadeLength: MediaTime = .zero
  /// `PlayerConfiguration.crossfade`: zero (off) unless the case runs with
  /// ``FuzzFeatures/crossfade`` against a subject that does crossfade and its
  /// engine preloads, then ``crossfadeOn``; the engine declares
  /// `EngineCapabilities.volumeRamp` then (the driver turns a crossfade off
  /// without `.preload` and `.volumeRamp`).
  package var crossfadeLength: MediaTime = .zero
  /// The state the player starts from (its configuration is this setup's),
  /// or nil for a new player (``FuzzStart``).
  package var start: PlaybackState?
  /// The features the case was generated within (``FuzzFeatures``): the
  /// shrinker keeps its candidates within them. Not part of a saved case.
  package var features: FuzzFeatures = .all

  /// A setup; each part defaults to what a new `PlayerConfiguration` and the
  /// harness's clock say.
  package init(
    canPreload: Bool = false,
    previousThreshold: MediaTime = PlayerConfiguration().previousThreshold,
    retry: RetryPolicy = PlayerConfiguration().retry,
    watchdogTimeout: MediaTime = Self.defaultTimeout, start: PlaybackState? = nil
  ) {
    self.start = start
    self.canPreload = canPreload
    self.previousThreshold = previousThreshold
    self.retry = retry
    self.watchdogTimeout = watchdogTimeout
  }

  /// The watchdog timeout of a case that does not say one: 10 s.
  package static let defaultTimeout = MediaTime.seconds(10)
  /// The fade of a case with ``FuzzFeatures/fade``: 200 ms.
  package static let fadeOn = MediaTime.milliseconds(200)
  /// The crossfade of a case with ``FuzzFeatures/crossfade``: 1 s.
  package static let crossfadeOn = MediaTime.seconds(1)

  /// The player's configuration for this case.
  package var configuration: PlayerConfiguration {
    PlayerConfiguration(
      canPreload: canPreload, previousThreshold: previousThreshold, retry: retry, ducking: ducking,
      fade: fadeLength.duration, crossfade: crossfadeLength.duration)
  }

  /// The state the player starts from: ``start`` or a new player's, with this
  /// case's configuration.
  package var state: PlaybackState {
    guard var state = start else { return PlaybackState(configuration: configuration) }
    state.configuration = configuration
    return state
  }

  /// Whether every part but the engine's capability is the default (an engine
  /// line with `preload=` alone).
  package var isDefaultConfiguration: Bool {
    previousThreshold == PlayerConfiguration().previousThreshold
      && retry == PlayerConfiguration().retry && watchdogTimeout == Self.defaultTimeout
      && ducking == PlayerConfiguration().ducking && fadeLength == .zero && crossfadeLength == .zero
      && start == nil
  }
}

extension ContractModel {
  /// A model of a new player set up as `setup` says.
  package init(_ setup: FuzzSetup) {
    if let start = setup.start {
      self.init(
        start: start, canPreload: setup.canPreload, retry: setup.retry,
        previousThreshold: setup.previousThreshold, ducking: setup.ducking,
        fade: setup.fadeLength, crossfade: setup.crossfadeLength)
    } else {
      self.init(
        canPreload: setup.canPreload, retry: setup.retry,
        previousThreshold: setup.previousThreshold, ducking: setup.ducking,
        fade: setup.fadeLength, crossfade: setup.crossfadeLength)
    }
  }
}
