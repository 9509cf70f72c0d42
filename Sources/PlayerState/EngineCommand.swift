/// What the machine tells the engine to do. Commands are data: the reducer
/// returns them, and only a driver executes them.
public enum EngineCommand: Hashable, Sendable, Codable, CustomStringConvertible {
  /// Start loading (buffering) this media under this token. Do not start playing.
  case load(Load)
  /// Start or continue playing.
  case start(Load)
  /// Pause playback.
  case pause(Load)
  /// Move to a position; report `seekCompleted` with this seek id when done.
  case seek(Load, to: MediaTime, SeekID)
  /// Stop and release the load; send no more reports for its token.
  case stop(Load)

  /// The load the command is about.
  public var load: Load {
    switch self {
    case .load(let load), .start(let load), .pause(let load), .seek(let load, _, _),
      .stop(let load):
      load
    }
  }

  /// The compact form: `load(A#2)`, `start(A#2)`, `seek(A#2, 2000ms, seek#1)`.
  public var description: String {
    switch self {
    case .load(let load): "load(\(load))"
    case .start(let load): "start(\(load))"
    case .pause(let load): "pause(\(load))"
    case .seek(let load, let time, let seek): "seek(\(load), \(time), \(seek))"
    case .stop(let load): "stop(\(load))"
    }
  }
}

/// The engine commands of one transition: at most two, stored inline.
///
/// A transition never implies more than two commands (switching media is
/// `stop` then `load`; replaying from the end is `seek` then `start`), so the
/// list lives in the transition value and reducing an event allocates nothing.
/// Returning an `Array` instead measured about 3x slower here.
public struct CommandList: RandomAccessCollection, Hashable, Sendable, Codable,
  CustomStringConvertible
{
  private var first: EngineCommand?
  private var second: EngineCommand?
  // Stored, not derived from the optionals: testing `first == nil` copies and
  // destroys the command, which measured ~110 instructions per `endIndex`.
  private var stored: UInt8 = 0

  /// No commands.
  public init() {}

  /// The given commands, in order.
  /// - Precondition: at most two commands.
  public init(_ commands: EngineCommand...) {
    precondition(commands.count <= 2, "a transition carries at most two commands")
    for command in commands { append(command) }
  }

  /// Adds a command at the end.
  /// - Precondition: the list holds fewer than two commands. The reducer is
  ///   the only caller that must uphold this, and no transition needs three.
  public mutating func append(_ command: EngineCommand) {
    if stored == 0 {
      first = command
      stored = 1
    } else if stored == 1 {
      second = command
      stored = 2
    } else {
      preconditionFailure("a transition carries at most two commands; got a third: \(command)")
    }
  }

  /// 0.
  public var startIndex: Int { 0 }

  /// The number of commands: 0, 1 or 2.
  public var endIndex: Int { Int(stored) }

  /// The command at `position`.
  public subscript(position: Int) -> EngineCommand {
    switch position {
    case 0: if let first { return first }
    case 1: if let second { return second }
    default: break
    }
    preconditionFailure("command index \(position) out of range 0..<\(endIndex)")
  }

  /// Decodes a JSON array of at most two commands.
  /// - Throws: `DecodingError.dataCorrupted` for more than two.
  public init(from decoder: any Decoder) throws {
    var container = try decoder.unkeyedContainer()
    while !container.isAtEnd {
      let command = try container.decode(EngineCommand.self)
      guard count < 2 else {
        throw DecodingError.dataCorruptedError(
          in: container, debugDescription: "a transition carries at most two commands")
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
  public var description: String {
    isEmpty ? "none" : map(\.description).joined(separator: " ")
  }
}
