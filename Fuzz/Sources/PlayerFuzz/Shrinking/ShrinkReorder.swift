/// The passes a Hypothesis-class shrinker adds to deleting chunks (issue 39, item 2): deleting
/// two actions that are not adjacent, and swapping two neighbours so that another action can go.
/// On a back end's own driver (25 planted mistakes × 20 seeds), 2 of 460 runs stopped one and
/// two actions above the minimal case, where only a pair deleted together, or a report moved
/// before an intent, reached it. Both run only when every other pass is stuck, only on cases of at
/// most ``pairPassLimit`` actions, and only on a failure: a passing run never shrinks.
extension Shrinker.Search {
  /// The longest case the pair and swap passes try: 24 actions (276 pairs, 552 swaps).
  static let pairPassLimit = 24

  /// Deletes two actions that are not adjacent (adjacent ones are a chunk, ``deleteChunks()``),
  /// as written and with the later reports re-aimed by role: two edits that cancel only together
  /// (an insert and its remove, a pause and its resume with a report between). From the back,
  /// as ``deleteChunks()``; kept when the case still fails.
  mutating func deletePairs() -> Bool {
    let count = best.actions.count
    guard count >= 3, count <= Self.pairPassLimit else { return false }
    for second in (2..<count).reversed() {
      for first in (0..<(second - 1)).reversed() {
        guard !exhausted else { return false }
        var candidate = best.actions
        candidate.remove(at: second)
        candidate.remove(at: first)
        if attempt(candidate, shorter: true)
          || attempt(repaired(candidate, deleting: [first, second]), shorter: true)
        {
          return true
        }
      }
    }
    return false
  }

  /// Swaps two neighbours, then deletes one action of the swapped case (each, from the back):
  /// a report that matters only before an intent, a drain between two commands, an order a
  /// LIFO inbox reverses. Kept only when the case gets shorter, so swaps never cycle.
  mutating func swapNeighbours() -> Bool {
    let count = best.actions.count
    guard count >= 3, count <= Self.pairPassLimit else { return false }
    for index in (0..<(count - 1)).reversed() {
      var swapped = best.actions
      swapped.swapAt(index, index + 1)
      for removed in (0..<count).reversed() {
        guard !exhausted else { return false }
        var candidate = swapped
        candidate.remove(at: removed)
        if attempt(candidate, shorter: true) { return true }
      }
    }
    return false
  }

  /// `candidate` (``best`` without the actions at `deleted`, in increasing order) with each
  /// later report re-aimed at the load that plays the role it played in ``best``.
  private func repaired(_ candidate: [FuzzAction], deleting deleted: [Int]) -> [FuzzAction] {
    let roles = Shrinker.roles(best.actions, setup: setup)
    let seeks = Shrinker.seekRoles(best.actions, setup: setup)
    var origin = Array(best.actions.indices)
    for index in deleted.reversed() { origin.remove(at: index) }
    guard origin.count == candidate.count else { return candidate }
    return Shrinker.aim(
      candidate, roles: origin.map { roles[$0] }, seeks: origin.map { seeks[$0] }, setup: setup)
  }
}
