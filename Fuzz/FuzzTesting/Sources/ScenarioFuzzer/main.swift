// libFuzzer entry point for player-sim's scenario parser: any bytes must give
// a scenario or a ScenarioError, never a trap.
import CLibFuzzer
import PlayerSimulation

@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
  let text = String(decoding: bytes, as: UTF8.self)
  do {
    _ = try ScenarioParser.parse(text, file: "fuzz.scenario")
  } catch {
    // A positioned one-line error is the expected answer to bad input.
    _ = error.description
  }
  return 0
}

/// The entry SwiftPM links as `main` (see CLibFuzzer.h): runs libFuzzer on ``testOneInput(_:_:)``.
@_cdecl("ScenarioFuzzer_main")
func fuzzerMain(
  _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> CInt {
  var argc = argc
  var argv = argv
  return LLVMFuzzerRunDriver(&argc, &argv) { data, size in testOneInput(data, size) }
}
