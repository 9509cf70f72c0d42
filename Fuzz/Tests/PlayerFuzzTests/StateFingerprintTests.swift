import Testing

@testable import PlayerFuzz

/// The explorer's visited set keeps a 128-bit fingerprint per state (issue 39, item 4a):
/// the same in every process (not `Hasher`'s per-process seed), so shards and runs agree,
/// and the collision estimate printed as TLC prints it.
@Suite struct StateFingerprintTests {
  /// Written out from an independent implementation of the same rounds (Python), so the
  /// values pin the function itself, not only its determinism within one process.
  @Test(
    arguments: [
      ([], 0xb810_443b_6713_ee02, 0xc4ad_2d25_5c08_0a8c),
      ([0], 0x090d_6e18_d24f_de8c, 0xbb8c_8959_3ec9_1974),
      ([0, 0], 0x108f_b69d_f9ce_9c9e, 0xbed6_55dc_048c_3b02),
      ([3, -8, 1, -1, 7], 0xbc24_eee3_86e6_108e, 0x9f5c_348a_2830_ae49),
    ] as [([Int32], UInt64, UInt64)])
  func aKeyHasTheSameFingerprintInEveryProcess(codes: [Int32], high: UInt64, low: UInt64) {
    let fingerprint = StateFingerprint(codes)
    #expect(fingerprint.high == high)
    #expect(fingerprint.low == low)
  }

  @Test func keysThatDifferInOneCodeOrInLengthDiffer() {
    // Every key of one or two codes from -64 to 63, and their lengths: no two alike.
    var keys: [[Int32]] = [[]]
    for first in Int32(-64)...63 {
      keys.append([first])
      for second in Int32(-64)...63 { keys.append([first, second]) }
    }
    #expect(Set(keys.map(StateFingerprint.init)).count == 16_513)
  }

  @Test func theVisitedSetNumbersStatesInOrderAndCountsLookups() {
    var visited = VisitedStates()
    func visit(_ codes: [Int32], raw: AnyHashable? = nil) -> String {
      let (id, new) = visited.insert(StateKey(codes: codes, raw: raw))
      return "\(id) \(new ? "new" : "seen")"
    }
    #expect(visit([1, 2]) == "0 new")
    #expect(visit([2, 1]) == "1 new")
    #expect(visit([1, 2]) == "0 seen")
    // A key with no canonical form is kept whole, apart from the fingerprints.
    #expect(visit([1, 2], raw: "raw") == "2 new")
    #expect(visit([1, 2], raw: "raw") == "2 seen")
    #expect(visited.count == 3)
    #expect(visited.generated == 5)
    #expect(visited.fingerprinted == 2)
    #expect(visited.isState(StateKey(codes: [2, 1], raw: nil), 1))
    #expect(visited[StateKey(codes: [9], raw: nil)] == nil)
  }

  @Test func theCollisionEstimateIsTLCs() {
    // 10^6 distinct states, 10^8 generated: 10^6 × 99 × 10^6 / 2^128.
    let estimate = StateFingerprint.collisionProbability(
      distinct: 1_000_000, generated: 100_000_000)
    #expect(StateFingerprint.scientific(estimate) == "2.9E-25")
    #expect(StateFingerprint.collisionProbability(distinct: 5, generated: 5) == 0)
    #expect(StateFingerprint.scientific(0) == "0")
    #expect(StateFingerprint.scientific(0.999_96) == "1.0E0")
    #expect(StateFingerprint.scientific(1.234e-7) == "1.2E-7")
  }
}
