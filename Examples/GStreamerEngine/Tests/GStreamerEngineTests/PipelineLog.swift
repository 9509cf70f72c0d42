import Foundation
import PlayerState
import Synchronization

/// One ordered log of what the engine was told and what its pipelines did, for the fade and
/// crossfade tests on real pipelines: the commands, playbin's `volume` read back after each
/// change, the state a pipeline settled in after a `start` or `pause`, and each release.
final class PipelineLog: Sendable {
  enum Entry: Sendable, Equatable {
    case command(EngineCommand)
    case volume(UInt32, Double)
    case state(UInt32, String)
    case released(UInt32)
  }

  private let entries = Mutex<[Entry]>([])

  func append(_ entry: Entry) { entries.withLock { $0.append(entry) } }
  var all: [Entry] { entries.withLock { $0 } }

  /// Waits (10 s at most) until an entry satisfies `condition`.
  func until(_ what: String, _ condition: @escaping @Sendable (Entry) -> Bool) async throws {
    let deadline = ContinuousClock.now + .seconds(10)
    while !all.contains(where: condition), ContinuousClock.now < deadline {
      try await Task.sleep(for: .milliseconds(5))
    }
    guard all.contains(where: condition) else { throw TimedOut(what: "\(what) in \(all)") }
  }

  /// The index of the first entry equal to `entry`, or the end.
  func index(of entry: Entry) -> Int { all.firstIndex(of: entry) ?? all.count }

  /// The levels load `token`'s pipeline read back, from the `from`-th entry on.
  func levels(of token: UInt32, from: Int = 0) -> [Double] {
    all.dropFirst(from).compactMap { entry in
      if case .volume(token, let level) = entry { level } else { nil }
    }
  }

  /// The indices of the volume entries of load `token` above 0.
  func audible(_ token: UInt32) -> [Int] {
    all.indices.filter { index in
      if case .volume(token, let level) = all[index] { level > 0 } else { false }
    }
  }

  /// The levels a load's pipeline was set to from the `index`-th entry on, up to the first
  /// entry that is not a volume.
  func levels(from index: Int) -> [Double] {
    var levels: [Double] = []
    for entry in all.dropFirst(index) {
      guard case .volume(_, let level) = entry else { break }
      levels.append(level)
    }
    return levels
  }
}
