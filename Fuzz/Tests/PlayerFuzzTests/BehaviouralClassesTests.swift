import PlayerEngine
import PlayerFuzz
import PlayerState
import Testing

/// How many of a complete search's states behave differently
/// (``Exploration/distinctStates``): the search graph's bisimulation quotient,
/// on small graphs written out by hand and on a real search.
@Suite struct BehaviouralClassesTests {
  /// Rows of two letters (`a`, `b`): for each state, `(target, output)` per letter, nil where the
  /// letter does not apply.
  static func classes(_ rows: [[(Int32, UInt32)?]]) -> Int {
    let width = rows.first?.count ?? 0
    var successors: [Int32] = []
    var outputs: [UInt32] = []
    for row in rows {
      for cell in row {
        successors.append(cell?.0 ?? -1)
        outputs.append(cell?.1 ?? 0)
      }
    }
    return behaviouralClasses(successors: successors, outputs: outputs, width: width)
  }

  @Test func twoStatesThatDoTheSameAreOneClass() {
    // 1 and 2 both answer `a` with output 5 into 3 and have no `b`.
    let rows: [[(Int32, UInt32)?]] = [
      [(1, 1), (2, 1)],
      [(3, 5), nil],
      [(3, 5), nil],
      [(3, 0), (3, 0)],
    ]
    #expect(Self.classes(rows) == 3)
  }

  @Test func anotherOutputOrALetterThatDoesNotApplyTellsThemApart() {
    var rows: [[(Int32, UInt32)?]] = [
      [(1, 1), (2, 1)],
      [(3, 5), nil],
      [(3, 6), nil],
      [(3, 0), (3, 0)],
    ]
    #expect(Self.classes(rows) == 4)
    rows[2] = [(3, 5), (3, 0)]
    #expect(Self.classes(rows) == 4)
  }

  @Test func aDifferenceTwoStepsAheadTakesRoundsToFind() {
    // 0 → 1 → 2 → 2 and 3 → 4 → 5 → 5, all silent, except that 5 answers with 7:
    // 3 and 4 differ from 0, 1 and 2 only by what lies ahead (three rounds), and
    // 0, 1 and 2 stay one class.
    let rows: [[(Int32, UInt32)?]] = [
      [(1, 0)], [(2, 0)], [(2, 0)],
      [(4, 0)], [(5, 0)], [(5, 7)],
    ]
    #expect(Self.classes(rows) == 4)
  }

  @Test func noStatesAreNoClasses() {
    #expect(behaviouralClasses(successors: [], outputs: [], width: 3) == 0)
    #expect(behaviouralClasses(successors: [0], outputs: [0, 0], width: 1) == 0)
  }

  @Test func aCompleteSearchCountsItsDistinctStatesAndABoundedOneDoesNot() throws {
    var scope = ExplorationScope(
      entries: 1, held: 0,
      configurations: [ExplorationConfiguration(canPreload: true, retry: .oneAttempt)])
    scope.coreAlphabet = true
    let proof = Explorer.explore(.player, scope: scope)
    #expect(proof.complete, "\(proof)")
    let result = try #require(proof.results.first)
    #expect(result.states == 1_380)
    #expect(result.distinctStates == 608)
    #expect(result.summaryLine.hasSuffix(", complete (608 states distinct in behaviour)"))
    // Every step compared everything, the Player's ignore reasons and notifications included.
    #expect(proof.notCompared == [])
    #expect(!proof.description.contains("not compared"))
    scope.maxDepth = 2
    let bounded = try #require(Explorer.explore(.player, scope: scope).results.first)
    #expect(!bounded.fixpoint)
    #expect(bounded.distinctStates == nil)
  }
}
