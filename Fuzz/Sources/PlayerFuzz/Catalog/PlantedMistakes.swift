/// The shape the harness's own catalogs share (issue 39, item 5): players with one planted
/// mistake each, a value per mistake, named after it, each a subject to fuzz.
/// ``BuggyPlayer`` plants a mistake a serial run finds; ``RacyPlayer`` a race only the
/// concurrent mode (``ConcurrentFuzz``) can.
package protocol PlantedMistakes: Hashable, Sendable, CustomStringConvertible {
  /// The mistakes, one case each, named as the docs and the saved tests name them.
  associatedtype Mistake: RawRepresentable<String>, CaseIterable, Hashable, Sendable

  /// The player with `mistake` planted.
  init(_ mistake: Mistake)

  /// The mistake planted.
  var mistake: Mistake { get }

  /// The player as the fuzz subject its mode runs.
  var subject: FuzzSubject { get }
}

extension PlantedMistakes {
  /// Every player of the catalog, one per mistake, in declaration order.
  package static var catalog: [Self] { Mistake.allCases.map(Self.init) }

  /// The mistake's name, as in `twoBools` or `lostWakeUp`.
  package var name: String { mistake.rawValue }

  /// The mistake's name.
  package var description: String { name }
}
