/// How the ``FakeMediaEngine`` misbehaves when hostile, the way real engines do.
///
/// A hostile engine always delivers the callbacks of loads it was told to
/// stop (or that newer loads replaced), late. It also sends some reports
/// twice and answers some commands re-entrantly, from inside `execute`. Which
/// ones is decided by a SplitMix64 generator seeded with ``seed``, so a run
/// is reproducible.
///
/// Most of that is what the machine absorbs (docs/engine-contract.md). With
/// `preload: true` it also calls back for a stopped preload it never
/// started, which breaks the promise `preloadStopIsFinal`: the machine still
/// ignores those reports (the scenarios show it), and the engine fuzzer
/// catches the breach (`EngineFuzzerTests`).
///
/// ```swift
/// let engine = FakeMediaEngine(clock: clock, hostile: HostileMode(seed: 42))
/// ```
public struct HostileMode: Hashable, Sendable {
  /// The seed of the generator that picks the duplicated and re-entrant answers.
  public var seed: UInt64
  /// Chance, in percent (0–100), that a report is sent a second time a little later.
  public var duplicatePercent: Int
  /// Chance, in percent (0–100), that a `load` or `seek` is answered from inside `execute`.
  public var reentrantPercent: Int

  /// A hostile mode.
  /// - Parameters:
  ///   - seed: the generator's seed; 1 by default.
  ///   - duplicatePercent: chance of duplicating a report; 25 by default.
  ///   - reentrantPercent: chance of a re-entrant answer; 25 by default.
  public init(seed: UInt64 = 1, duplicatePercent: Int = 25, reentrantPercent: Int = 25) {
    self.seed = seed
    self.duplicatePercent = min(max(duplicatePercent, 0), 100)
    self.reentrantPercent = min(max(reentrantPercent, 0), 100)
  }
}
