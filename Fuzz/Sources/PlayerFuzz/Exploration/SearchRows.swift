/// The rows of a search: for each state extended, in the order extended (a
/// state's number), the state each letter leads to (-1: the letter does not
/// apply) and a hash of what the step gave out. What the differential check
/// compares with, and what the quotient (``behaviouralClasses(_:)``) reads.
///
/// Kept compactly, since the rows are most of what a search holds: in a row
/// most letters do not apply, or lead back to the state with one output (a
/// stale report, ignored), so a row keeps that output, 2 bits a letter (does
/// not apply, back to the state with that output, or other) and a (target,
/// output) pair for each other letter, in order: about 40 + 8 × (other
/// letters) bytes, where the whole row is 8 a letter (1,520 at two entries).
struct SearchRows {
  /// The letters of a row.
  let width: Int
  /// 32-bit words of the letters' kinds, 2 bits a letter.
  private let kindWords: Int
  /// Every row, one after another: the output of the letters that lead back
  /// to the state, the kinds, then the other letters' (target, output) pairs.
  private var words: [UInt32] = []
  /// Where each row starts in ``words``.
  private var starts: [Int] = []

  private static let none: UInt32 = 0
  private static let back: UInt32 = 1
  private static let other: UInt32 = 2

  init(width: Int) {
    self.width = max(0, width)
    kindWords = (self.width * 2 + 31) / 32
  }

  /// How many rows there are: the states extended.
  var count: Int { starts.count }

  /// Adds the row of state `count`: `targets` and `outputs`, ``width`` letters each.
  mutating func append(targets: [Int32], outputs: [UInt32]) {
    let state = Int32(starts.count)
    let start = words.count
    starts.append(start)
    let backOutput = targets.indices.first { targets[$0] == state }.map { outputs[$0] } ?? 0
    words.append(backOutput)
    words += repeatElement(0, count: kindWords)
    for letter in 0..<width {
      let kind: UInt32
      if targets[letter] < 0 {
        kind = Self.none
      } else if targets[letter] == state, outputs[letter] == backOutput {
        kind = Self.back
      } else {
        kind = Self.other
        words.append(UInt32(bitPattern: targets[letter]))
        words.append(outputs[letter])
      }
      words[start + 1 + letter / 16] |= kind << UInt32((letter % 16) * 2)
    }
  }

  /// The state `letter` leads to from `state` (-1: it does not apply), and the output hash.
  func entry(_ state: Int32, _ letter: Int) -> (target: Int32, output: UInt32) {
    let start = starts[Int(state)]
    let word = words[start + 1 + letter / 16]
    let shift = UInt32((letter % 16) * 2)
    switch (word >> shift) & 3 {
    case Self.none: return (-1, 0)
    case Self.back: return (state, words[start])
    default:
      // The other letters before this one: the kinds whose high bit is set.
      var rank = 0
      for index in 0..<(letter / 16) {
        rank += (words[start + 1 + index] & 0xAAAA_AAAA).nonzeroBitCount
      }
      let below: UInt32 = shift == 0 ? 0 : (1 << shift) &- 1
      rank += (word & below & 0xAAAA_AAAA).nonzeroBitCount
      let pair = start + 1 + kindWords + 2 * rank
      return (Int32(bitPattern: words[pair]), words[pair + 1])
    }
  }

  /// The state `letter` leads to from `state`, or -1 when it does not apply.
  func target(_ state: Int32, _ letter: Int) -> Int32 { entry(state, letter).target }

  /// The output hash of `letter` from `state` (0 when it does not apply).
  func output(_ state: Int32, _ letter: Int) -> UInt32 { entry(state, letter).output }

  /// Writes state `state`'s whole row into `targets` and `outputs` (``width`` letters each).
  func decode(_ state: Int, into targets: inout [Int32], _ outputs: inout [UInt32]) {
    let start = starts[state]
    var pair = start + 1 + kindWords
    for letter in 0..<width {
      switch (words[start + 1 + letter / 16] >> UInt32((letter % 16) * 2)) & 3 {
      case Self.none:
        targets[letter] = -1
        outputs[letter] = 0
      case Self.back:
        targets[letter] = Int32(state)
        outputs[letter] = words[start]
      default:
        targets[letter] = Int32(bitPattern: words[pair])
        outputs[letter] = words[pair + 1]
        pair += 2
      }
    }
  }
}
