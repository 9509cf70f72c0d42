/// What an engine needs to open a load: the load, its media and where to start.
public struct LoadRequest: Hashable, Sendable, Codable, CustomStringConvertible {
  /// The load, under which every report about it must be sent.
  public let load: Load
  /// The caller's media for the load's queue entry.
  public let media: MediaID
  /// Where to start, zero for the beginning (for a live stream, the
  /// engine's default position: the live edge).
  public let start: MediaTime
  /// Whether to start at the live edge, whatever the stream's window holds:
  /// the machine's reload of a load it knows is live (one that fell behind
  /// its window, waited for the network, or whose broadcast ended), with
  /// `start` zero; or a relaunch of a DVR stream saved behind its edge
  /// (``PlaybackSnapshot/liveOffset``), with `start` that far behind the edge
  /// (the start of the window if it is shorter).
  public let atLiveEdge: Bool

  /// Describes a load request.
  public init(load: Load, media: MediaID, start: MediaTime = .zero, atLiveEdge: Bool = false) {
    self.load = load
    self.media = media
    self.start = start
    self.atLiveEdge = atLiveEdge
  }

  private enum CodingKeys: String, CodingKey { case load, media, start, atLiveEdge }

  /// Decodes a request; one written before live streams starts where it says.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      load: try container.decode(Load.self, forKey: .load),
      media: try container.decode(MediaID.self, forKey: .media),
      start: try container.decode(MediaTime.self, forKey: .start),
      atLiveEdge: try container.decodeIfPresent(Bool.self, forKey: .atLiveEdge) ?? false)
  }

  /// Encodes the request; `atLiveEdge` only when set, so requests are
  /// written as before live streams otherwise.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(load, forKey: .load)
    try container.encode(media, forKey: .media)
    try container.encode(start, forKey: .start)
    if atLiveEdge { try container.encode(atLiveEdge, forKey: .atLiveEdge) }
  }

  /// `A#2`, `A#2, from 12000ms` when it starts past zero, `A#2, at live edge`,
  /// or `A#2, 30000ms behind live edge`.
  public var description: String {
    let name = "\(media)#\(load.token)"
    if atLiveEdge {
      return start == .zero ? "\(name), at live edge" : "\(name), \(start) behind live edge"
    }
    return start == .zero ? name : "\(name), from \(start)"
  }
}

/// What the machine tells the engine to do. Commands are data: the reducer
/// returns them, and only a driver executes them.
public enum EngineCommand: Hashable, Sendable, Codable, CustomStringConvertible {
  /// Start loading (buffering) this media under this load. Do not start playing.
  case load(LoadRequest)
  /// Load the next entry ahead, under its own token, while the current one
  /// plays; start it only when told (`start`). Sent only to engines that can preload.
  case preload(LoadRequest)
  /// Start or continue playing, at this rate.
  case start(Load, rate: PlaybackRate = .normal)
  /// Change the rate of a load that is playing.
  case setRate(Load, PlaybackRate)
  /// Pause playback.
  case pause(Load)
  /// Move to a position; report `seekCompleted` with this seek id when done.
  case seek(Load, to: MediaTime, SeekID)
  /// Stop and release the load; send no more reports for its token.
  case stop(Load)
  /// Set the load's volume, ramping from where it is over `ramp` (zero: at
  /// once). No report follows. A new load starts at full volume (1) in the
  /// engine; the machine sends this after opening a load whenever its
  /// effective volume is not full, and to every live load when it changes
  /// (docs/machine.md, "Volume, mute and ducking"). The ramp is kept to the
  /// millisecond.
  case setVolume(Load, Volume, ramp: Duration = .zero)

  /// The load the command is about.
  public var load: Load {
    switch self {
    case .load(let request), .preload(let request): request.load
    case .start(let load, _), .setRate(let load, _), .pause(let load), .seek(let load, _, _),
      .stop(let load), .setVolume(let load, _, _):
      load
    }
  }

  /// The same command about another load: how a driver that numbers the
  /// engine's loads its own way re-tags a command on its way out (the twin of
  /// ``EngineReport/withLoad(_:)`` on the way back).
  ///
  /// ```swift
  /// // The machine names its own tokens; this engine wants its ids.
  /// engine.execute(command.withLoad(engineLoad(for: command.load)), reports: sink)
  /// ```
  /// - Parameter load: the load the returned command is about.
  /// - Returns: this command, about `load`.
  public func withLoad(_ load: Load) -> EngineCommand {
    switch self {
    case .load(let request):
      .load(
        LoadRequest(
          load: load, media: request.media, start: request.start, atLiveEdge: request.atLiveEdge))
    case .preload(let request):
      .preload(
        LoadRequest(
          load: load, media: request.media, start: request.start, atLiveEdge: request.atLiveEdge))
    case .start(_, let rate): .start(load, rate: rate)
    case .setRate(_, let rate): .setRate(load, rate)
    case .pause: .pause(load)
    case .seek(_, let time, let id): .seek(load, to: time, id)
    case .stop: .stop(load)
    case .setVolume(_, let volume, let ramp): .setVolume(load, volume, ramp: ramp)
    }
  }

  /// The compact form without names.
  public var description: String { description(naming: { _ in nil }) }

  /// The compact form: `load(A#2)`, `load(A#2, from 12000ms)`, `preload(B#3)`,
  /// `start(A#2)`, `start(A#2, 1.5x)`, `seek(A#2, 2000ms, seek#1)`,
  /// `setVolume(A#2, 0.5)`, `setVolume(A#2, 0.5, ramp 200ms)`.
  /// - Parameter name: the media of an item, if known (load and preload carry theirs).
  public func description(naming name: (ItemID) -> MediaID?) -> String {
    switch self {
    case .load(let request): return "load(\(request))"
    case .preload(let request): return "preload(\(request))"
    case .start(let load, let rate):
      let load = load.description(naming: name)
      return rate == .normal ? "start(\(load))" : "start(\(load), \(rate))"
    case .setRate(let load, let rate): return "rate(\(load.description(naming: name)), \(rate))"
    case .pause(let load): return "pause(\(load.description(naming: name)))"
    case .seek(let load, let time, let seek):
      return "seek(\(load.description(naming: name)), \(time), \(seek))"
    case .stop(let load): return "stop(\(load.description(naming: name)))"
    case .setVolume(let load, let volume, let ramp):
      let head = "setVolume(\(load.description(naming: name)), \(volume)"
      let wait = ClockMilliseconds(ramp)
      return wait == .zero ? "\(head))" : "\(head), ramp \(wait))"
    }
  }
}

/// The engine commands of one transition: at most five, stored inline.
///
/// A transition implies few commands (switching entries is `stop` then `load`;
/// replaying from the end is `seek` then `start`; advancing gaplessly is
/// `stop`, `start` of the preloaded entry and `preload` of the one after; a
/// new queue stops the current load and the preload; a load opened while the
/// effective volume is not 1 adds its `setVolume` last; a fade-in is
/// `setVolume` to 0, `start` and a ramp up, and the preload it lets in adds two
/// more), and opens at most one load (`load` or `preload`). So the list lives
/// in the transition value as five plain 24-byte slots plus the one media
/// name, and reducing an event
/// allocates nothing and copies no string unless it opens a load. Returning
/// an `Array` instead measured about 3x slower here; storing four optional
/// `EngineCommand`s cost ~60 instructions per event in copies and destroys.
public struct CommandList: RandomAccessCollection, Hashable, Sendable, Codable,
  CustomStringConvertible
{
  /// One command without its media: plain data, so the list copies as bytes.
  private struct Slot {
    var kind: CommandKind
    var load: Load
    /// A load's start, a seek's target or a volume ramp.
    var time: MediaTime
    /// A seek's id, a rate's or a volume's thousandths; 1 for a load at the live edge.
    var number: UInt32

    static var empty: Slot { Slot(kind: .stop, load: Load(0, 0), time: .zero, number: 0) }
  }

  private var slots = (Slot.empty, Slot.empty, Slot.empty, Slot.empty, Slot.empty)
  /// The media of the list's one `load` or `preload`.
  private var media: MediaID?
  private var stored: UInt8 = 0

  /// No commands.
  public init() {}

  /// The given commands, in order.
  /// - Precondition: at most five commands, at most one of them a `load` or `preload`.
  public init(_ commands: EngineCommand...) {
    precondition(commands.count <= Self.capacity, "a transition carries at most five commands")
    for command in commands { append(command) }
  }

  /// Empties the list; its slots are reused.
  public mutating func removeAll() {
    stored = 0
    // Tested first: assigning nil to an empty optional string still calls
    // the runtime's release (~15 instructions per event on the hot path).
    if media != nil { media = nil }
  }

  /// The most commands one transition carries.
  public static let capacity = 5

  /// Adds a command at the end.
  /// - Precondition: the list holds fewer than five commands, and at most one
  ///   `load` or `preload`. The reducer is the only caller that must uphold
  ///   this; no transition needs more than five commands (a fade-in beside
  ///   the preload it lets in: docs/machine.md, "Fades"), nor opens two
  ///   loads, and the fuzz harness checks it.
  @inline(__always)
  public mutating func append(_ command: EngineCommand) {
    var slot = Slot.empty
    switch command {
    case .load(let request), .preload(let request):
      precondition(media == nil, "a transition opens at most one load; got a second: \(command)")
      slot = Slot(
        kind: command.kind, load: request.load, time: request.start,
        number: request.atLiveEdge ? 1 : 0)
      media = request.media
    case .start(let load, let rate), .setRate(let load, let rate):
      slot = Slot(
        kind: command.kind, load: load, time: .zero, number: UInt32(bitPattern: rate.thousandths))
    case .pause(let load), .stop(let load):
      slot = Slot(kind: command.kind, load: load, time: .zero, number: 0)
    case .seek(let load, let time, let seek):
      slot = Slot(kind: .seek, load: load, time: time, number: seek.rawValue)
    case .setVolume(let load, let volume, let ramp):
      slot = Slot(
        kind: .volume, load: load, time: ClockMilliseconds(ramp),
        number: UInt32(bitPattern: volume.thousandths))
    }
    switch stored {
    case 0: slots.0 = slot
    case 1: slots.1 = slot
    case 2: slots.2 = slot
    case 3: slots.3 = slot
    case 4: slots.4 = slot
    default:
      preconditionFailure("a transition carries at most five commands; got a sixth: \(command)")
    }
    stored += 1
  }

  /// Adds a `load` (or a `preload`, when `preload`) without building the
  /// `EngineCommand` first: the reducer's path, which retains the media name
  /// once instead of three times (request, command, list).
  /// - Precondition: as ``append(_:)``.
  mutating func appendOpening(
    _ load: Load, media name: MediaID, start: MediaTime, preload: Bool = false,
    atLiveEdge: Bool = false
  ) {
    precondition(media == nil && stored < 5, "a transition opens at most one load")
    let slot = Slot(
      kind: preload ? .preload : .load, load: load, time: start, number: atLiveEdge ? 1 : 0)
    switch stored {
    case 0: slots.0 = slot
    case 1: slots.1 = slot
    case 2: slots.2 = slot
    case 3: slots.3 = slot
    default: slots.4 = slot
    }
    media = name
    stored += 1
  }

  /// Whether the list holds a `load` or a `preload` (at most one): one check
  /// on the hot path.
  var opensLoad: Bool { media != nil }

  /// The load the list's `load` or `preload` opens, if it holds one.
  var openedLoad: Load? {
    guard media != nil else { return nil }
    for index in 0..<Int(stored) {
      let slot =
        switch index {
        case 0: slots.0
        case 1: slots.1
        case 2: slots.2
        case 3: slots.3
        default: slots.4
        }
      if slot.kind == .load || slot.kind == .preload { return slot.load }
    }
    return nil
  }

  /// 0.
  public var startIndex: Int { 0 }

  /// The number of commands: 0 to 5.
  public var endIndex: Int { Int(stored) }

  /// The command at `position`.
  public subscript(position: Int) -> EngineCommand {
    precondition(position >= 0 && position < endIndex, "command index \(position) out of range")
    let slot =
      switch position {
      case 0: slots.0
      case 1: slots.1
      case 2: slots.2
      case 3: slots.3
      default: slots.4
      }
    let rate = PlaybackRate(thousandths: Int32(bitPattern: slot.number))
    switch slot.kind {
    case .load, .preload:
      let request = LoadRequest(
        load: slot.load, media: media ?? "", start: slot.time, atLiveEdge: slot.number == 1)
      return slot.kind == .load ? .load(request) : .preload(request)
    case .start: return .start(slot.load, rate: rate)
    case .rate: return .setRate(slot.load, rate)
    case .pause: return .pause(slot.load)
    case .seek: return .seek(slot.load, to: slot.time, SeekID(slot.number))
    case .stop: return .stop(slot.load)
    case .volume:
      return .setVolume(
        slot.load, Volume(thousandths: Int32(bitPattern: slot.number)), ramp: slot.time.duration)
    }
  }

  /// Whether both lists hold the same commands in the same order.
  public static func == (lhs: CommandList, rhs: CommandList) -> Bool {
    lhs.elementsEqual(rhs)
  }

  /// Hashes the commands in order.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(count)
    for command in self { hasher.combine(command) }
  }

  /// Decodes a JSON array of at most five commands, at most one a `load` or `preload`.
  /// - Throws: `DecodingError.dataCorrupted` for more than five, or two loads.
  public init(from decoder: any Decoder) throws {
    var container = try decoder.unkeyedContainer()
    while !container.isAtEnd {
      let command = try container.decode(EngineCommand.self)
      guard count < Self.capacity else {
        throw DecodingError.dataCorruptedError(
          in: container, debugDescription: "a transition carries at most five commands")
      }
      if command.kind == .load || command.kind == .preload, media != nil {
        throw DecodingError.dataCorruptedError(
          in: container, debugDescription: "a transition opens at most one load")
      }
      append(command)
    }
  }

  /// Encodes the commands as an array, in order.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.unkeyedContainer()
    for command in self { try container.encode(command) }
  }

  /// The commands separated by spaces, or `none`.
  public var description: String { description(naming: { _ in nil }) }

  /// The commands separated by spaces, or `none`, naming items where `name` knows them.
  public func description(naming name: (ItemID) -> MediaID?) -> String {
    isEmpty ? "none" : map { $0.description(naming: name) }.joined(separator: " ")
  }
}
