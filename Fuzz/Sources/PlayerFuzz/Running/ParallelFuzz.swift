import PlayerEngine
import PlayerState
import PlayerTesting

/// A random run on `FuzzConfiguration.jobs` threads: the run's cases are
/// independent, so each thread runs its own runner on chunks of consecutive
/// case indices, and the chunks are added up in index order. The result is
/// the one thread's: the same first failing case (the lowest failing index,
/// whichever thread found it), and, with a case budget, the same case and
/// event counts, since a chunk past a failure is not counted and every chunk
/// before it is run to its end. Each chunk's observables left unsaid are
/// added up with its counts, so they are one thread's too; so is the coverage
/// of a run that passed (every case ran once), but a failing run's coverage
/// also holds the cases another thread ran past the failure before it was
/// found: a coverage per chunk, allocated and merged, would cost 8 % (its
/// table is large).
enum ParallelFuzz {
  /// Consecutive case indices (of the shard) a thread claims at once: large
  /// enough that the lock is taken rarely, small enough that the threads end
  /// close together and a time budget is checked often (~5 ms of cases).
  static let chunk = 64

  /// One chunk's outcome.
  private struct Chunk: Sendable {
    var cases = 0
    var events = 0
    /// The position (in the shard) of the chunk's failing case, if one failed.
    var failure: Int?
    /// The observables the chunk's cases left unsaid.
    var unsaid: UInt16 = 0
  }

  /// What the threads share, under one lock.
  private struct Shared: Sendable {
    /// The next chunk to claim.
    var next = 0
    /// No chunk is claimed any more (budget spent, deadline passed, or a failure).
    var closed = false
    /// The lowest failing position found so far.
    var failure: Int?
    /// Finished chunks not yet added up, by chunk number.
    var pending: [Int: Chunk] = [:]
    /// Chunks added up so far (0..<folded), and their counts.
    var folded = 0
    var cases = 0
    var events = 0
    /// Whether the added-up prefix ended at a failure.
    var foldedFailure: Int?
    /// The threads' coverages, merged as they finish.
    var coverage = FuzzCoverage()
    /// The added-up chunks' observables left unsaid.
    var unsaid: UInt16 = 0

    /// Adds up the finished chunks that continue the counted prefix.
    mutating func fold() {
      while foldedFailure == nil, let done = pending.removeValue(forKey: folded) {
        cases += done.cases
        events += done.events
        folded += 1
        foldedFailure = done.failure
        unsaid |= done.unsaid
      }
    }
  }

  /// The position's case index in the whole run, or nil past the budget (or on overflow).
  private static func caseIndex(_ position: Int, _ shard: FuzzShard, limit: Int) -> Int? {
    let (offset, overflow) = position.multipliedReportingOverflow(by: shard.count)
    guard !overflow else { return nil }
    let (index, overflowed) = shard.index.addingReportingOverflow(offset)
    guard !overflowed, index < limit else { return nil }
    return index
  }

  /// Runs `configuration`'s cases on `jobs` threads (the calling one among
  /// them, which also calls `progress`).
  /// - Returns: the cases and events counted, the coverage and the
  ///   observables left unsaid, and the first failing case's index, if any.
  static func run(
    _ subject: FuzzSubject, _ configuration: FuzzConfiguration, jobs: Int,
    limit: Int, deadline: ContinuousClock.Instant?,
    progress: ((_ cases: Int, _ events: Int) -> Void)?
  ) -> (cases: Int, events: Int, coverage: FuzzCoverage, unsaid: UInt16, failure: Int?) {
    let shared = Locked(Shared())
    let decoder = ActionDecoder(configuration, for: subject)
    let shard = configuration.shard
    let seed = configuration.seed
    let worker: @Sendable (Int, ((Int, Int) -> Void)?) -> Void = { _, report in
      let clock = ContinuousClock()
      var runner = CaseRunner(subject, canPreload: false)
      var reported = 0
      while true {
        let claimed: Int? = shared.withLock { state in
          if state.closed { return nil }
          if let deadline, clock.now >= deadline { state.closed = true }
          let first = state.next * chunk
          if caseIndex(first, shard, limit: limit) == nil { state.closed = true }
          if state.closed { return nil }
          state.next += 1
          return state.next - 1
        }
        guard let claimed else { break }
        var done = Chunk()
        // The chunk's own unsaid observables, added up in order with its counts.
        runner.unsaid = 0
        for position in claimed * chunk..<(claimed + 1) * chunk {
          guard let index = caseIndex(position, shard, limit: limit) else { break }
          // A failure found before this case (in an earlier chunk) ends the chunk: it is not counted.
          if shared.withLock({ $0.failure.map { $0 < position } ?? false }) { break }
          let caseSeed = SplitMix64.caseSeed(run: seed, case: index)
          var bytes = RandomBytes(seed: caseSeed)
          let violation = Fuzzer.runCase(
            subject, decoder, &bytes, reusing: &runner, costlyReasons: caseSeed & 3 == 0)
          done.cases += 1
          done.events += runner.events
          if violation != nil {
            done.failure = position
            break
          }
        }
        done.unsaid = runner.unsaid
        let counts: (Int, Int) = shared.withLock { state in
          if let failure = done.failure {
            state.failure = min(state.failure ?? failure, failure)
            state.closed = true
          }
          state.pending[claimed] = done
          state.fold()
          return (state.cases, state.events)
        }
        if let report, counts.0 / 1024 > reported / 1024 {
          reported = counts.0
          report(counts.0, counts.1)
        }
      }
      let coverage = runner.coverage
      shared.withLock { $0.coverage.merge(coverage) }
    }
    onThreads(jobs, { thread in worker(thread, nil) }, caller: { worker(0, progress) })
    return shared.withLock { state in
      state.fold()
      let failure = state.foldedFailure.flatMap { caseIndex($0, shard, limit: limit) }
      return (state.cases, state.events, state.coverage, state.unsaid, failure)
    }
  }
}
