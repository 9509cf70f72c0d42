import MallocCounter

/// Counts heap allocations made while a closure runs: measured through the
/// `malloc` wrappers of the MallocCounter target, never assumed.
///
/// The counter is process-wide, so the closure must run while no other
/// thread allocates; the benchmark measures allocations on the main thread
/// with no other thread started yet.
enum AllocationCounter {
  /// Whether counts are real: the wrappers are linked in (Linux with glibc)
  /// and a calibration of known allocations moved the counter as expected.
  static let isAvailable: Bool = {
    guard playhead_bench_counting_allocations() != 0 else { return false }
    final class Box {
      let value: Int
      init(_ value: Int) { self.value = value }
    }
    var boxes: [Box] = []
    boxes.reserveCapacity(1000)
    let before = playhead_bench_allocations()
    for index in 0..<1000 { boxes.append(Box(index)) }
    let counted = playhead_bench_allocations() - before
    // 1000 class instances are 1000 heap allocations; anything else means the
    // wrappers are not on the Swift runtime's path and the counts would lie.
    return counted == 1000 && boxes.count == 1000
  }()

  /// The number of allocation calls made while `body` ran, or nil if
  /// allocations cannot be counted on this platform.
  static func count(_ body: () -> Void) -> UInt64? {
    guard isAvailable else { return nil }
    let before = playhead_bench_allocations()
    body()
    return playhead_bench_allocations() - before
  }
}
