/// How far the engine has got with the current load, as reported by the engine.
///
/// This is the engine's side of the state. The user's side is
/// ``PlaybackState/playWhenReady``; whether media is playing is derived from both.
public enum EngineStage: Hashable, Sendable, Codable {
  /// First buffering after `load`; not yet ready.
  case buffering
  /// Ready: playing if the user wants to play, paused otherwise.
  case ready
  /// Rebuffering after having been ready.
  case stalled
  /// Reached the end of the media.
  case ended
  /// Failed; the load has been stopped.
  case failed(FailureReason)
  /// Failed for want of the network, and stopped; a new load of the same entry
  /// follows when the network is back or the backoff timer expires
  /// (``PlayerConfiguration/retry``).
  case waitingForNetwork
}

/// Everything the machine knows about the current load.
public struct Session: Hashable, Sendable, Codable {
  /// The current load: its queue entry and issued token.
  public var load: Load
  /// How far the engine has got.
  public var stage: EngineStage
  /// The newest seek issued for this load (0 when none was).
  public var lastSeek: SeekID
  /// The newest watchdog armed for this load (0 when none was).
  public var lastWatchdog: WatchdogID
  /// The last known position: where the load started, the newest seek's
  /// target, or the newest position report. A reload resumes here.
  public var position: MediaTime
  /// The elapsed anchor: the position at the newest discontinuity (the load's
  /// start, a seek when issued, a replay, a change of the published rate — a
  /// start, pause, stall or its end, a rate change), never moved by a position
  /// report. A lock screen extrapolates from it (``PlaybackState/nowPlaying``).
  public var anchor: MediaTime
  /// The duration or the live window, whichever the engine reported: one
  /// stored field, since a load never has both (any window drops the
  /// duration), so the session stays small enough to copy cheaply.
  var extent: Extent

  /// The duration, if the engine reported one with `ready`; nil for a live load.
  public var duration: MediaTime? {
    get {
      if case .duration(let duration) = extent { return duration }
      return nil
    }
    set {
      if let newValue {
        extent = .duration(newValue)
      } else if case .duration = extent {
        extent = .none
      }
    }
  }
  /// The live window the engine last reported for this load, nil while none
  /// was: on-demand media (docs/machine.md, "Live and DVR streams"). Setting
  /// one drops the duration.
  public var window: LiveWindow? {
    get {
      if case .window(let window) = extent { return window }
      return nil
    }
    set {
      if let newValue {
        extent = .window(newValue)
      } else if case .window = extent {
        extent = .none
      }
    }
  }
  /// Whether ``lastSeek`` is still waiting for its completion report.
  public var seekPending: Bool
  /// What the newest timer (``lastWatchdog``) was armed for; meaningless
  /// while none was (``lastWatchdog`` 0). An expiry is dispatched on this,
  /// never on the stage.
  public var timerPurpose: TimerPurpose
  /// Whether the engine reported that the system paused this load on its own
  /// (``EngineReport/pausedBySystem(_:)``). Per load: a new load starts without it.
  public var systemPaused: Bool
  /// Reloads made for want of the network since this entry last became ready.
  public var networkAttempts: UInt8
  /// Whether the engine is fading this load out into the user's pause: told
  /// to ramp its volume to 0 and not yet paused. The pause follows at the
  /// fade's expiry (``TimerPurpose/fadeOut``, the newest timer), or at once
  /// if anything silences the load first.
  public var fadingOut: Bool
  /// Whether the load was opened at its live edge (``LoadRequest/atLiveEdge``)
  /// and no window or position has been reported for it yet: until then
  /// ``position`` is the offset behind the edge it was asked to start at.
  public var openedAtLiveEdge: Bool
  /// Whether this live load reached its live edge playing (a report at or
  /// past the window's end, or a seek there) and has not left it since (a
  /// seek elsewhere, a pause, a stall): the engine plays it at 1x at most.
  public var playsAtEdge: Bool
  /// What kind of media this load is, from its window.
  public var kind: StreamKind { StreamKind(window: window) }

  /// Describes a session. Any combination can be built, but only the
  /// reducer's own results are reachable (see
  /// ``PlaybackState/invariantViolation``), and the reducer requires one.
  /// A load has a duration or a window, never both: given both, the window is kept.
  ///
  /// `anchor` nil means the position. `timerPurpose` nil means the purpose the reducer would have armed the
  /// newest timer with in `stage`: a backoff while waiting for the network, a
  /// stall watchdog while stalled, else the load watchdog.
  public init(
    load: Load, stage: EngineStage, lastSeek: SeekID = SeekID(0), seekPending: Bool = false,
    lastWatchdog: WatchdogID = WatchdogID(0), position: MediaTime = .zero,
    duration: MediaTime? = nil, systemPaused: Bool = false, networkAttempts: UInt8 = 0,
    timerPurpose: TimerPurpose? = nil, anchor: MediaTime? = nil, fadingOut: Bool = false,
    window: LiveWindow? = nil, openedAtLiveEdge: Bool = false, playsAtEdge: Bool = false
  ) {
    self.openedAtLiveEdge = openedAtLiveEdge
    self.playsAtEdge = playsAtEdge
    self.timerPurpose = timerPurpose ?? Self.purpose(armedIn: stage)
    self.load = load
    self.stage = stage
    self.lastSeek = lastSeek
    self.seekPending = seekPending
    self.lastWatchdog = lastWatchdog
    self.position = position
    self.anchor = anchor ?? position
    self.systemPaused = systemPaused
    self.networkAttempts = networkAttempts
    self.fadingOut = fadingOut
    // A window wins over a duration: a live load has none.
    self.extent = window.map(Extent.window) ?? duration.map(Extent.duration) ?? .none
  }

  /// The purpose the reducer arms a timer with in `stage`.
  static func purpose(armedIn stage: EngineStage) -> TimerPurpose {
    switch stage {
    case .waitingForNetwork: .networkBackoff
    case .stalled: .stallWatchdog
    case .buffering, .ready, .ended, .failed: .loadWatchdog
    }
  }
}

/// What the engine reported of a load's extent (``Session/duration`` and
/// ``Session/window`` read it).
enum Extent: Hashable, Sendable {
  /// Neither yet.
  case none
  /// On-demand media of this duration.
  case duration(MediaTime)
  /// Live media with this window.
  case window(LiveWindow)
}

/// A load fading out before its `stop`: one the user stopped while it played
/// (``PlayerConfiguration/fade``; the state is idle already), or the outgoing
/// load of a crossfade (``PlayerConfiguration/crossfade``). It is stopped
/// once: at its timer's expiry, at its own end, or at once when a step
/// opens a new load (or, for a crossfade's, leaves, pauses or holds the
/// current entry) first.
public struct FadingLoad: Hashable, Sendable, Codable {
  /// The load fading out; its `ended` or `failed` stops it, and every
  /// other report about it is stale.
  public var load: Load
  /// The fade's timer (``TimerPurpose/fadeOut``); its expiry stops the load.
  public var timer: WatchdogID

  /// Names a load fading out and its timer.
  public init(load: Load, timer: WatchdogID) {
    self.load = load
    self.timer = timer
  }
}

extension Session {
  private enum CodingKeys: String, CodingKey {
    case load, stage, lastSeek, seekPending, lastWatchdog, position, duration, systemPaused,
      networkAttempts, timerPurpose, anchor, fadingOut, window, openedAtLiveEdge, playsAtEdge
  }

  /// Decodes a session; one written before timers stated their purpose gets
  /// the purpose its stage implies, one written before the elapsed anchor
  /// its position as the anchor (see ``init(load:stage:lastSeek:seekPending:lastWatchdog:position:duration:systemPaused:networkAttempts:timerPurpose:anchor:fadingOut:window:openedAtLiveEdge:playsAtEdge:)``),
  /// one written before fades no fade, and one written before live streams no window.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      load: try container.decode(Load.self, forKey: .load),
      stage: try container.decode(EngineStage.self, forKey: .stage),
      lastSeek: try container.decode(SeekID.self, forKey: .lastSeek),
      seekPending: try container.decode(Bool.self, forKey: .seekPending),
      lastWatchdog: try container.decode(WatchdogID.self, forKey: .lastWatchdog),
      position: try container.decode(MediaTime.self, forKey: .position),
      duration: try container.decodeIfPresent(MediaTime.self, forKey: .duration),
      systemPaused: try container.decode(Bool.self, forKey: .systemPaused),
      networkAttempts: try container.decode(UInt8.self, forKey: .networkAttempts),
      timerPurpose: try container.decodeIfPresent(TimerPurpose.self, forKey: .timerPurpose),
      anchor: try container.decodeIfPresent(MediaTime.self, forKey: .anchor),
      fadingOut: try container.decodeIfPresent(Bool.self, forKey: .fadingOut) ?? false,
      window: try container.decodeIfPresent(LiveWindow.self, forKey: .window),
      openedAtLiveEdge: try container.decodeIfPresent(Bool.self, forKey: .openedAtLiveEdge)
        ?? false,
      playsAtEdge: try container.decodeIfPresent(Bool.self, forKey: .playsAtEdge) ?? false)
  }

  /// Encodes the session; `fadingOut` only while true and `window` only when
  /// known, so sessions without them are written as before they existed.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(load, forKey: .load)
    try container.encode(stage, forKey: .stage)
    try container.encode(lastSeek, forKey: .lastSeek)
    try container.encode(seekPending, forKey: .seekPending)
    try container.encode(lastWatchdog, forKey: .lastWatchdog)
    try container.encode(position, forKey: .position)
    try container.encodeIfPresent(duration, forKey: .duration)
    try container.encode(systemPaused, forKey: .systemPaused)
    try container.encode(networkAttempts, forKey: .networkAttempts)
    try container.encode(timerPurpose, forKey: .timerPurpose)
    try container.encode(anchor, forKey: .anchor)
    if fadingOut { try container.encode(fadingOut, forKey: .fadingOut) }
    try container.encodeIfPresent(window, forKey: .window)
    if openedAtLiveEdge { try container.encode(openedAtLiveEdge, forKey: .openedAtLiveEdge) }
    if playsAtEdge { try container.encode(playsAtEdge, forKey: .playsAtEdge) }
  }
}

/// How far the engine has got with a preload.
public enum PreloadStage: Hashable, Sendable, Codable {
  /// Buffering the next entry.
  case buffering
  /// Ready to start the moment the current entry ends.
  case ready
  /// The preload failed and was stopped; the entry gets a plain load when its turn comes.
  case failed(FailureReason)
  /// The preload reported a live window: it was stopped, and the entry gets a
  /// plain load, at its live edge, when its turn comes (docs/machine.md,
  /// "Live and DVR streams").
  case live

  /// Whether the preload was stopped (failed, or live): it is never started.
  var isStopped: Bool {
    switch self {
    case .failed, .live: true
    case .buffering, .ready: false
    }
  }
}

/// The next entry, loaded ahead under its own token while the current one plays (gapless).
public struct Preload: Hashable, Sendable, Codable {
  /// The preloading load.
  public var load: Load
  /// How far it has got.
  public var stage: PreloadStage
  /// The duration, if the engine reported one with its `ready`.
  public var duration: MediaTime?

  /// Describes a preload.
  public init(load: Load, stage: PreloadStage, duration: MediaTime? = nil) {
    self.load = load
    self.stage = stage
    self.duration = duration
  }
}
