// libFuzzer entry point for the player: bytes -> fuzz case (through the same
// ActionDecoder as the seeded runner) -> checked against the contract.
// Built by Fuzz/libfuzzer.sh, not by SwiftPM.
import PlayerFuzz

/// The decoder the seeded runner uses, with room for long inputs.
let decoder = ActionDecoder(maxLength: 256, swarm: true)

@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
  var source = BufferBytes(bytes)
  let (runner, violation) = Fuzzer.runCase(.player, decoder, &source)
  guard let violation else { return 0 }
  let canPreload = runner.model.canPreload
  let outcome = Shrinker.shrink(
    .player, runner.trace, violation: violation, canPreload: canPreload)
  let failure = FuzzFailure(
    subject: "Player", origin: .given, original: runner.trace, actions: outcome.actions,
    violation: outcome.violation, shrinkAttempts: outcome.attempts,
    timeline: Fuzzer.timeline(.player, FuzzCase(outcome.actions, canPreload: canPreload)),
    canPreload: canPreload)
  print(failure.report)
  // libFuzzer saves the input that crashed: replay it with the same binary.
  fatalError("Playhead contract violated: \(failure.property)")
}
