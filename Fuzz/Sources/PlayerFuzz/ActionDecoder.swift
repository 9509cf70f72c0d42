import PlayerState
import PlayerTesting

/// Turns bytes into fuzz actions: the one decoder behind both the seeded
/// runner (bytes from ``RandomBytes``) and the libFuzzer target (bytes from
/// the fuzzer).
///
/// Decoding is online: each action's identities are chosen relative to what
/// the contract model has seen issued so far (the current load, an earlier
/// one, a token never issued, the same token with another media; the newest,
/// a superseded or a never-issued seek or watchdog id), so that a report stays
/// meaningful however the case has gone. In swarm mode, each case first reads
/// a mask that disables some event kinds, identities and delivery modes, so
/// that rare orderings (many stalls, no user stop, only late reports) come up.
public struct ActionDecoder: Sendable {
  /// What the decoder may choose from in the current case.
  public struct Mask: Hashable, Sendable {
    /// Enabled event kinds, plus `deliver` (bit 13).
    public var kinds: UInt16
    /// Enabled variations: bit 0 re-entrant, 1 later, 2 earlier token,
    /// 3 never-issued token, 4 mismatched media, 5 superseded or never-issued ids.
    public var variations: UInt8

    /// Everything enabled.
    public static let all = Mask(kinds: 0x3FFF, variations: 0x3F)

    /// The enabled choices, worked out once per case; nil stands for `deliver`.
    let enabled: [EventKind?]

    /// A mask.
    public init(kinds: UInt16, variations: UInt8) {
      self.kinds = kinds | 1  // play always stays on: without it nothing happens
      self.variations = variations
      var enabled: [EventKind?] = []
      for (bit, choice) in ActionDecoder.choices.enumerated() where self.kinds & (1 << bit) != 0 {
        enabled.append(choice)
      }
      self.enabled = enabled
    }
  }

  /// The longest case, in actions.
  public private(set) var maxLength: Int
  /// Whether each case disables a random part of the alphabet.
  public var swarm: Bool

  /// A decoder.
  /// - Parameters:
  ///   - maxLength: the longest case, in actions.
  ///   - swarm: whether each case disables a random part of the alphabet.
  public init(maxLength: Int = 32, swarm: Bool = true) {
    self.maxLength = max(1, maxLength)
    self.swarm = swarm
  }

  /// Reads a case header: its length and its swarm mask.
  public func header(from source: inout some ByteSource) -> (length: Int, mask: Mask) {
    let high = Int(source.nextByte())
    let length = (high << 8 | Int(source.nextByte())) % maxLength + 1
    guard swarm else { return (length, .all) }
    let kinds = UInt16(source.nextByte()) | UInt16(source.nextByte()) << 8
    // Each kind is disabled with probability 1/4, so most of the alphabet stays.
    let more = UInt16(source.nextByte()) | UInt16(source.nextByte()) << 8
    return (length, Mask(kinds: kinds | more, variations: source.nextByte() | source.nextByte()))
  }

  fileprivate static let choices: [EventKind?] = EventKind.allCases + [nil]

  private static let reasons: [FailureReason] = [
    .network, .decoding, .notFound, .engine(code: -11800),
  ]

  /// The next action, chosen with `source` relative to `model`.
  /// - Parameters:
  ///   - model: the contract's view of what has been issued so far.
  ///   - held: how many reports wait for a `deliver`.
  ///   - mask: the case's mask.
  ///   - source: where the choices come from.
  public func next(
    after model: ContractModel, held: Int, mask: Mask, from source: inout some ByteSource
  ) -> FuzzAction {
    let enabled = mask.enabled
    var position = Int(source.nextByte()) % enabled.count
    // `deliver` with nothing held back would do nothing: take the next choice.
    if enabled[position] == nil, held == 0 { position = (position + 1) % enabled.count }
    guard let kind = enabled[position] else { return .deliver }
    let detail = source.nextByte()
    let on = { (bit: UInt8) in mask.variations & (1 << bit) != 0 }
    let current = model.current?.load ?? model.newest ?? Load("A", 1)
    let other: MediaID = current.media == "A" ? "B" : "A"

    func load(_ byte: UInt8) -> Load {
      switch byte % 10 {
      case 6 where on(2), 7 where on(2): model.previous ?? Load(current.media, 0)
      case 8 where on(3): Load(media: current.media, token: LoadToken(model.issued &+ 1))
      case 9 where on(4): Load(media: other, token: current.token)
      default: current
      }
    }
    func id(_ newest: UInt32, _ byte: UInt8) -> UInt32 {
      let newest = max(newest, 1)
      switch byte % 6 {
      case 4 where on(5): return newest &- 1
      case 5 where on(5): return newest &+ 1
      default: return newest
      }
    }
    func report(_ report: EngineReport) -> FuzzAction {
      switch detail % 8 {
      case 5 where on(0), 6 where on(0): .reentrant(report)
      case 7 where on(1): .later(report)
      default: .send(.engine(report))
      }
    }
    let target = load(detail >> 3)
    switch kind {
    case .play:
      switch detail % 3 {
      case 0: return .send(.play(current.media))
      case 1: return .send(.play("A"))
      default: return .send(.play("B"))
      }
    case .pause: return .send(.pause)
    case .resume: return .send(.resume)
    case .stop: return .send(.stop)
    case .retry: return .send(.retry)
    case .seek: return .send(.seek(to: .milliseconds(Int64(detail % 3) * 2500)))
    case .ready: return report(.ready(target))
    case .stalled: return report(.stalled(target))
    case .resumed: return report(.resumed(target))
    case .ended: return report(.reachedEnd(target))
    case .failed:
      return report(.failed(target, Self.reasons[Int(source.nextByte()) % Self.reasons.count]))
    case .seeked:
      let seek = id(model.current?.lastSeek ?? 0, source.nextByte())
      return report(.seekCompleted(target, SeekID(seek)))
    case .timeout:
      let watchdog = id(model.current?.lastWatchdog ?? 1, source.nextByte())
      return .send(.watchdogExpired(target, WatchdogID(watchdog)))
    }
  }
}
