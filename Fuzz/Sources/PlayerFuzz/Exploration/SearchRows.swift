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
///
/// Past ``SearchMemory/residentBytes`` the older rows go to a temporary file
/// in pages (``PagedWords``): a search then holds 8 bytes a row in memory
/// (where it starts), whatever its size. A row is read back from the file
/// only by the differential check of a state reached again by another path,
/// and by the quotient at the fixpoint.
struct SearchRows {
  /// The letters of a row.
  let width: Int
  /// 32-bit words of the letters' kinds, 2 bits a letter.
  private let kindWords: Int
  /// Every row, one after another: the output of the letters that lead back
  /// to the state, the kinds, then the other letters' (target, output) pairs.
  private let words: PagedWords
  /// Where each row starts in ``words``, and its length in words.
  private var starts: [Int] = []
  private var lengths: [UInt32] = []
  /// The row being written (reused).
  private var row: [UInt32] = []

  private static let none: UInt32 = 0
  private static let back: UInt32 = 1
  private static let other: UInt32 = 2

  init(width: Int, memory: SearchMemory = .standard) {
    self.width = max(0, width)
    kindWords = (self.width * 2 + 31) / 32
    words = PagedWords(memory, longestRow: 1 + kindWords + 2 * self.width)
  }

  /// How many rows there are: the states extended.
  var count: Int { starts.count }

  /// How many pages of rows were written to the temporary file.
  var pagesOnFile: Int { words.pagesOnFile }

  /// Adds the row of state `count`: `targets` and `outputs`, ``width`` letters each.
  mutating func append(targets: [Int32], outputs: [UInt32]) {
    let state = Int32(starts.count)
    let backOutput = targets.indices.first { targets[$0] == state }.map { outputs[$0] } ?? 0
    row.removeAll(keepingCapacity: true)
    row.append(backOutput)
    row += repeatElement(0, count: kindWords)
    for letter in 0..<width {
      let kind: UInt32
      if targets[letter] < 0 {
        kind = Self.none
      } else if targets[letter] == state, outputs[letter] == backOutput {
        kind = Self.back
      } else {
        kind = Self.other
        row.append(UInt32(bitPattern: targets[letter]))
        row.append(outputs[letter])
      }
      row[1 + letter / 16] |= kind << UInt32((letter % 16) * 2)
    }
    starts.append(words.append(row))
    lengths.append(UInt32(row.count))
  }

  /// Calls `body` with state `state`'s row.
  private func withRow<Result>(
    _ state: Int, _ body: (UnsafeBufferPointer<UInt32>) -> Result
  ) -> Result {
    words.withWords(starts[state], Int(lengths[state]), body)
  }

  /// The state `letter` leads to from `state` (-1: it does not apply), and the output hash.
  func entry(_ state: Int32, _ letter: Int) -> (target: Int32, output: UInt32) {
    withRow(Int(state)) { row in
      let word = row[1 + letter / 16]
      let shift = UInt32((letter % 16) * 2)
      switch (word >> shift) & 3 {
      case Self.none: return (-1, 0)
      case Self.back: return (state, row[0])
      default:
        // The other letters before this one: the kinds whose high bit is set.
        var rank = 0
        for index in 0..<(letter / 16) {
          rank += (row[1 + index] & 0xAAAA_AAAA).nonzeroBitCount
        }
        let below: UInt32 = shift == 0 ? 0 : (1 << shift) &- 1
        rank += (word & below & 0xAAAA_AAAA).nonzeroBitCount
        let pair = 1 + kindWords + 2 * rank
        return (Int32(bitPattern: row[pair]), row[pair + 1])
      }
    }
  }

  /// The state `letter` leads to from `state`, or -1 when it does not apply.
  func target(_ state: Int32, _ letter: Int) -> Int32 { entry(state, letter).target }

  /// The output hash of `letter` from `state` (0 when it does not apply).
  func output(_ state: Int32, _ letter: Int) -> UInt32 { entry(state, letter).output }

  /// Writes state `state`'s whole row into `targets` and `outputs` (``width`` letters each).
  func decode(_ state: Int, into targets: inout [Int32], _ outputs: inout [UInt32]) {
    withRow(state) { row in
      var pair = 1 + kindWords
      for letter in 0..<width {
        switch (row[1 + letter / 16] >> UInt32((letter % 16) * 2)) & 3 {
        case Self.none:
          targets[letter] = -1
          outputs[letter] = 0
        case Self.back:
          targets[letter] = Int32(state)
          outputs[letter] = row[0]
        default:
          targets[letter] = Int32(bitPattern: row[pair])
          outputs[letter] = row[pair + 1]
          pair += 2
        }
      }
    }
  }
}
