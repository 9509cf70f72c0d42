// libFuzzer entry point for the player: bytes -> fuzz case (through the same
// ActionDecoder as the seeded runner) -> checked against the contract on
// Playhead's Player (LibFuzzerEntry takes any FuzzSubject).
import CLibFuzzer
import PlayerFuzz

@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  LibFuzzerEntry.testOneInput(.player, data, size)
}

/// The entry SwiftPM links as `main` (see CLibFuzzer.h): runs libFuzzer on ``testOneInput(_:_:)``.
@_cdecl("PlayerFuzzer_main")
func fuzzerMain(
  _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> CInt {
  var argc = argc
  var argv = argv
  return LLVMFuzzerRunDriver(&argc, &argv) { data, size in testOneInput(data, size) }
}
