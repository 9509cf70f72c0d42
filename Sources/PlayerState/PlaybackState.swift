/// How far the engine has got with the current load, as reported by the engine.
///
/// This is the engine's side of the state. The user's side is
/// ``Session/playWhenReady``; whether media is playing is derived from both.
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
}

/// Everything the machine knows about the current load.
public struct Session: Hashable, Sendable, Codable {
  /// The current load: media and issued token.
  public var load: Load
  /// How far the engine has got.
  public var stage: EngineStage
  /// The user's intent: play when ready (true) or stay paused (false).
  public var playWhenReady: Bool
  /// The newest seek issued for this load (0 when none was).
  public var lastSeek: SeekID
  /// Whether ``lastSeek`` is still waiting for its completion report.
  public var seekPending: Bool
  /// The newest watchdog armed for this load (0 when none was).
  public var lastWatchdog: WatchdogID

  /// Describes a session. The reducer is total, so any combination is allowed,
  /// but only the reducer's own results are reachable.
  public init(
    load: Load, stage: EngineStage, playWhenReady: Bool, lastSeek: SeekID = SeekID(0),
    seekPending: Bool = false, lastWatchdog: WatchdogID = WatchdogID(0)
  ) {
    self.load = load
    self.stage = stage
    self.playWhenReady = playWhenReady
    self.lastSeek = lastSeek
    self.seekPending = seekPending
    self.lastWatchdog = lastWatchdog
  }
}

/// The named states a player is in, derived from the engine's stage and the user's intent.
public enum StateKind: String, Hashable, Sendable, Codable, CaseIterable {
  /// Nothing loaded.
  case idle
  /// First buffering of a load.
  case buffering
  /// Ready and the user wants to play.
  case playing
  /// Ready and the user wants to be paused.
  case paused
  /// Rebuffering after having been ready.
  case stalled
  /// At the end of the media.
  case ended
  /// The load failed.
  case failed
}

/// The whole state of one player: the current session, if any, and the
/// counter that issues load tokens.
///
/// A value: equatable, hashable, sendable and codable. Reduce it with
/// ``transition(on:)`` or ``reduce(_:_:)``.
///
/// ```swift
/// var state = PlaybackState()
/// let step = state.transition(on: .play("A"))
/// print(step.next)       // buffering(A#1, autoplay)
/// print(step.commands)   // load(A#1)
/// ```
public struct PlaybackState: Hashable, Sendable, CustomStringConvertible {
  /// The current load, or nil when idle.
  public var session: Session?
  /// The newest load token issued (0 before the first load). Kept across
  /// `stop`, so every load of a player gets a token never used before.
  public var issuedLoads: UInt32

  /// The idle state of a new player.
  public init() {
    session = nil
    issuedLoads = 0
  }

  /// A state with the given session and counter.
  /// - Parameters:
  ///   - session: the current load, or nil for idle.
  ///   - issuedLoads: the newest issued token; at least the session's token.
  public init(session: Session?, issuedLoads: UInt32) {
    self.session = session
    self.issuedLoads = issuedLoads
  }

  /// The named state.
  public var kind: StateKind {
    guard let session else { return .idle }
    switch session.stage {
    case .buffering: return .buffering
    case .ready: return session.playWhenReady ? .playing : .paused
    case .stalled: return .stalled
    case .ended: return .ended
    case .failed: return .failed
    }
  }

  /// Whether media is playing: the engine is ready and the user wants to play.
  public var isPlaying: Bool {
    guard let session else { return false }
    return session.stage == .ready && session.playWhenReady
  }

  /// The current load, if any.
  public var load: Load? { session?.load }

  /// The compact form: `idle`, `buffering(A#2, autoplay)`, `playing(A#2)`,
  /// `stalled(A#2, paused)`, `failed(A#2, network)`; a pending seek adds `seek#N`.
  public var description: String {
    guard let session else { return "idle" }
    var parts = [session.load.description]
    switch session.stage {
    case .buffering:
      parts.append(session.playWhenReady ? "autoplay" : "paused")
    case .stalled:
      if !session.playWhenReady { parts.append("paused") }
    case .ended, .failed:
      if session.playWhenReady { parts.append("autoplay") }
    case .ready:
      break
    }
    if case .failed(let reason) = session.stage { parts.insert(reason.description, at: 1) }
    if session.seekPending { parts.append(session.lastSeek.description) }
    return "\(kind.rawValue)(\(parts.joined(separator: ", ")))"
  }
}

extension PlaybackState: Codable {
  /// The version written by ``encode(to:)``; ``init(from:)`` rejects others.
  public static let codingVersion = 1

  private enum CodingKeys: String, CodingKey {
    case version, session, issuedLoads
  }

  /// Decodes a state written by ``encode(to:)``.
  /// - Throws: `DecodingError.dataCorrupted` for an unknown version, or a
  ///   state the reducer cannot produce (``invariantViolation``).
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let version = try container.decode(Int.self, forKey: .version)
    guard version == Self.codingVersion else {
      throw DecodingError.dataCorruptedError(
        forKey: .version, in: container,
        debugDescription:
          "unsupported PlaybackState version \(version); expected \(Self.codingVersion)")
    }
    session = try container.decodeIfPresent(Session.self, forKey: .session)
    issuedLoads = try container.decode(UInt32.self, forKey: .issuedLoads)
    if let violation = invariantViolation {
      throw DecodingError.dataCorruptedError(
        forKey: .session, in: container, debugDescription: "unreachable state: \(violation)")
    }
  }

  /// Encodes the state with a `version` field.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(Self.codingVersion, forKey: .version)
    try container.encodeIfPresent(session, forKey: .session)
    try container.encode(issuedLoads, forKey: .issuedLoads)
  }
}

extension PlaybackState {
  /// The first rule that no state produced by the reducer can break, broken
  /// by this one; nil for every reachable state.
  ///
  /// Written down once (docs/machine.md, "Invariants") and checked in two
  /// places: the decoder refuses a state that breaks one, and the tests check
  /// every state the reducer returns.
  public var invariantViolation: String? {
    guard let session else { return nil }
    let token = session.load.token.rawValue
    if token == 0 || token > issuedLoads {
      return "session token \(token) was never issued (issuedLoads \(issuedLoads))"
    }
    if session.lastWatchdog.rawValue == 0 {
      return "a session without a watchdog (one is armed with every load)"
    }
    if session.seekPending {
      if session.lastSeek.rawValue == 0 { return "a seek is pending but none was issued" }
      switch session.stage {
      case .ended: return "a seek is pending in stage ended"
      case .failed: return "a seek is pending in stage failed"
      case .buffering, .ready, .stalled: break
      }
    }
    return nil
  }
}
