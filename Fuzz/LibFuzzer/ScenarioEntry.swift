// libFuzzer entry point for player-sim's scenario parser: any bytes must give
// a scenario or a ScenarioError, never a trap. Built by Fuzz/libfuzzer.sh.
import PlayerSimulation

@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
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
