import Testing

@testable import PlayerFuzz

/// The explorer's rows, kept compactly (issue 39, item 4a): every letter reads back as written.
@Suite struct SearchRowsTests {
  @Test func everyLetterReadsBackAsWritten() {
    // 40 rows of 37 letters (not a multiple of 16: the last word of kinds is partly used),
    // a SplitMix64 stream deciding each letter: not applicable, back to the row's own state
    // (with the row's usual output or another), or another state.
    var seed: UInt64 = 7
    func next() -> UInt64 {
      seed &+= 0x9E37_79B9_7F4A_7C15
      var value = seed
      value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
      value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
      return value ^ (value >> 31)
    }
    let width = 37
    var rows = SearchRows(width: width)
    var written: [([Int32], [UInt32])] = []
    for state in 0..<40 {
      var targets: [Int32] = []
      var outputs: [UInt32] = []
      for _ in 0..<width {
        switch next() % 4 {
        case 0:
          targets.append(-1)
          outputs.append(0)
        case 1:
          targets.append(Int32(state))
          outputs.append(5)
        case 2:
          targets.append(Int32(state))
          outputs.append(UInt32(truncatingIfNeeded: next()))
        default:
          targets.append(Int32(next() % 40))
          outputs.append(UInt32(truncatingIfNeeded: next()))
        }
      }
      rows.append(targets: targets, outputs: outputs)
      written.append((targets, outputs))
    }
    #expect(rows.count == 40)
    var mismatches = 0
    var targets = [Int32](repeating: 0, count: width)
    var outputs = [UInt32](repeating: 0, count: width)
    for state in 0..<40 {
      rows.decode(state, into: &targets, &outputs)
      if targets != written[state].0 || outputs != written[state].1 { mismatches += 1 }
      for letter in 0..<width {
        let entry = rows.entry(Int32(state), letter)
        if entry.target != written[state].0[letter] || entry.output != written[state].1[letter] {
          mismatches += 1
        }
      }
    }
    #expect(mismatches == 0)
  }
}
