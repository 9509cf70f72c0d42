/// libFuzzer's entry for any player: a `…Fuzzer` executable's
/// `LLVMFuzzerTestOneInput` calls ``testOneInput(_:_:_:)`` with its subject
/// (Fuzz/FuzzTesting/Sources/PlayerFuzzer is Playhead's; Examples/FuzzYourPlayer
/// has one for a player of your own).
///
/// ```swift
/// @_cdecl("LLVMFuzzerTestOneInput")
/// func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
///   LibFuzzerEntry.testOneInput(MySubjects.player, data, size)
/// }
/// ```
public enum LibFuzzerEntry {
  /// The decoder libFuzzer inputs go through: the seeded runner's, with room for long inputs.
  package static let decoder = ActionDecoder(maxLength: 256, swarm: true)

  /// Decodes the input into a case (the same `ActionDecoder` as the seeded
  /// runs) and checks it on a fresh player made by `subject`. On a violation it
  /// shrinks the case, prints the report (with the Swift test that replays it
  /// on `subject`) and stops the process with `fatalError`, which is how
  /// libFuzzer learns that the input is a finding and saves it.
  /// - Parameters:
  ///   - subject: the player under test.
  ///   - data: libFuzzer's input.
  ///   - size: its length in bytes.
  /// - Returns: 0 when every property held.
  public static func testOneInput(
    _ subject: FuzzSubject, _ data: UnsafePointer<UInt8>?, _ size: Int
  ) -> Int32 {
    testOneInput(subject, features: .all, data, size)
  }

  /// ``testOneInput(_:_:_:)`` for a player that implements part of the
  /// contract: the input decodes into a case within `features` only (the
  /// same bytes give another case than with every feature), and a failure
  /// shrinks within them.
  /// - Parameters:
  ///   - subject: the player under test.
  ///   - features: what the player implements beyond the single-item core.
  ///   - data: libFuzzer's input.
  ///   - size: its length in bytes.
  /// - Returns: 0 when every property held.
  public static func testOneInput(
    _ subject: FuzzSubject, features: FuzzFeatures, _ data: UnsafePointer<UInt8>?, _ size: Int
  ) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    var source = BufferBytes(bytes)
    var decoder = decoder
    if features != .all { decoder.features = features }
    if subject.restore == nil, decoder.features.contains(.restore) {
      decoder.features.remove(.restore)
    }
    if !subject.inputs.contains(.sleepTimer), decoder.features.contains(.sleepTimer) {
      decoder.features.remove(.sleepTimer)
    }
    if !subject.inputs.contains(.volume), decoder.features.contains(.volume) {
      decoder.features.remove(.volume)
    }
    let (runner, violation) = Fuzzer.runCase(subject, decoder, &source)
    guard let violation else { return 0 }
    // The case's whole setup (engine, configuration, start state, features).
    let setup = runner.setup
    let outcome = Shrinker.shrink(subject, runner.trace, violation: violation, setup: setup)
    var failure = FuzzFailure(
      subject: subject, origin: .given, original: runner.trace, actions: outcome.actions,
      violation: outcome.violation, shrinkAttempts: outcome.attempts,
      timeline: Fuzzer.timeline(subject, FuzzCase(outcome.actions, setup: outcome.setup)),
      setup: outcome.setup)
    failure.shrinkNote = outcome.note
    print(failure.report)
    // libFuzzer saves the input that crashed: replay it with the same binary.
    fatalError("\(subject.name) violated the contract: \(failure.property)")
  }
}
