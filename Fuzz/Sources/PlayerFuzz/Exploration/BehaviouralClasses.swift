// How much smaller a complete search could have been: its states merged
// further into the classes that no sequence of letters tells apart.

/// The number of classes of the coarsest partition of a search graph's states
/// in which two states of one class give, letter by letter, the same output
/// and go to states of one class (or the letter applies to neither): the
/// graph's bisimulation quotient, found by partition refinement (the naive
/// form of Kanellakis and Smolka's: each round splits every class on its
/// states' rows, until no class splits).
///
/// A canonical snapshot can merge no more than this without merging states
/// that behave differently, so `states / classes` bounds what a coarser key
/// could save. Outputs are compared as the hashes the rows hold, so two
/// outputs whose hashes collide count as the same: the figure is exact up to
/// such collisions, and never too large.
/// - Parameters:
///   - successors: row by row, `width` letters a row, the state each letter
///     leads to (an index into the rows), or -1 where it does not apply.
///   - outputs: in the same shape, a hash of what each step gave out.
///   - width: the letters of a row.
/// - Returns: the number of classes; 0 for no states.
/// - Complexity: O(rounds × states × width) time, with rounds at most the
///   number of classes; O(states) memory besides the rows.
package func behaviouralClasses(successors: [Int32], outputs: [UInt32], width: Int) -> Int {
  guard width > 0, successors.count == outputs.count else { return 0 }
  var rows = SearchRows(width: width)
  for row in stride(from: 0, to: successors.count - successors.count % width, by: width) {
    rows.append(
      targets: Array(successors[row..<row + width]), outputs: Array(outputs[row..<row + width]))
  }
  return behaviouralClasses(rows)
}

/// ``behaviouralClasses(successors:outputs:width:)`` over a search's compact rows, each
/// decoded as it is read.
func behaviouralClasses(_ rows: SearchRows) -> Int {
  let width = rows.width
  let count = rows.count
  guard width > 0, count > 0 else { return 0 }
  var block = [Int32](repeating: 0, count: count)
  var targets = [Int32](repeating: -1, count: width)
  var outputs = [UInt32](repeating: 0, count: width)
  var otherTargets = targets
  var otherOutputs = outputs
  var classes = 1
  while true {
    var next = [Int32](repeating: 0, count: count)
    // A round's new classes by their rows' hash, each with one state standing for it.
    var standing: [Int: [Int32]] = [:]
    var found: Int32 = 0
    for state in 0..<count {
      rows.decode(state, into: &targets, &outputs)
      var hasher = Hasher()
      hasher.combine(block[state])
      for letter in 0..<width {
        let target = targets[letter]
        hasher.combine(outputs[letter])
        hasher.combine(target < 0 ? -1 : block[Int(target)])
      }
      let hash = hasher.finalize()
      let alike = standing[hash]?.first { other in
        guard block[Int(other)] == block[state] else { return false }
        rows.decode(Int(other), into: &otherTargets, &otherOutputs)
        for letter in 0..<width {
          let lhs = otherTargets[letter]
          let rhs = targets[letter]
          guard otherOutputs[letter] == outputs[letter], (lhs < 0) == (rhs < 0)
          else { return false }
          if lhs >= 0, block[Int(lhs)] != block[Int(rhs)] { return false }
        }
        return true
      }
      if let alike {
        next[state] = next[Int(alike)]
      } else {
        next[state] = found
        found += 1
        standing[hash, default: []].append(Int32(state))
      }
    }
    // A round only splits classes (each state's old class is in its row), so
    // an unchanged count is an unchanged partition.
    if Int(found) == classes { return classes }
    classes = Int(found)
    block = next
  }
}
