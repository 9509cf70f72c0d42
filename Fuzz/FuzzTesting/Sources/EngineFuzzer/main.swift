// libFuzzer entry point for the engine contract: bytes -> a command sequence
// (an EngineFuzzScript from EngineFuzzer.generate(bytes:), the seeded fuzzer's
// own generator with its choices read from the input) -> sent to player-sim's
// FakeMediaEngine on its virtual clock, every report judged by PlayerTesting's
// contract checker (the same judge as EngineConformance). A broken promise
// traps, with the script and the violation printed, so libFuzzer keeps the input.
import CLibFuzzer
import PlayerSimulation
import PlayerState
import PlayerTesting

/// The media the bytes choose among: two that play (one short, so it ends
/// while commands still come), and one that fails.
private let media: [MediaID] = ["A", "B"]
private let unplayable: [MediaID] = ["broken"]
private let profiles: [MediaID: MediaProfile] = [
  "B": MediaProfile(readyAfter: .milliseconds(5), duration: .milliseconds(300)),
  "broken": MediaProfile(failAfter: .milliseconds(30), failureReason: .decoding),
]

/// The seeded engine fuzzer's generator, reading its choices from the input:
/// at most 64 commands, issued as the machine issues them (so every input is a
/// script a player could send), with seeks and load starts among these positions.
private let fuzzer = EngineFuzzer(
  .init(
    media: media, unplayableMedia: unplayable,
    seekPositions: [.zero, .milliseconds(10), .milliseconds(100), .milliseconds(250)],
    commandsPerCase: 64, timeout: .seconds(5), reportsKept: 200))

@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: min(size, 256))) } ?? []
  let commands = fuzzer.generate(bytes: bytes)
  let clock = VirtualClock()
  // Preloading, so the preload promises are checked too.
  let engine = FakeMediaEngine(clock: clock, profiles: profiles, preload: true)
  let outcome = fuzzer.check(commands, engine: engine) { clock.advance(by: $0) }
  if !outcome.violations.isEmpty {
    fatalError("engine contract broken:\n\(outcome)\nscript:\n\(commands)")
  }
  return 0
}

/// The entry SwiftPM links as `main` (see CLibFuzzer.h): runs libFuzzer on ``testOneInput(_:_:)``.
@_cdecl("EngineFuzzer_main")
func fuzzerMain(
  _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> CInt {
  var argc = argc
  var argv = argv
  return LLVMFuzzerRunDriver(&argc, &argv) { data, size in testOneInput(data, size) }
}
