// libFuzzer entry point for the engine contract: bytes -> a command sequence
// (an EngineFuzzScript, issued the way the machine issues identities) -> sent
// to player-sim's FakeMediaEngine on its virtual clock, every report judged by
// PlayerTesting's contract checker (the same judge as EngineConformance). A
// broken promise traps, with the script and the violation printed, so
// libFuzzer keeps the input.
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

/// Reads the input (its first 256 bytes) as a command sequence: each byte pair
/// is one step. The first byte's low 3 bits pick the command (0 load, 1
/// preload beside a live load, else load; 2 start, 3 pause, 4-5 seek, 6-7
/// stop) and its high bits the live load it names (or a load's start); the
/// second byte the delay (even: 0 ms, odd: up to ~0.5 s) and the media or
/// seek target. Tokens and seek ids are issued as the machine issues them,
/// so every input is a valid script.
private func script(_ bytes: [UInt8]) -> EngineFuzzScript {
  var steps: [EngineFuzzScript.Step] = []
  var nextToken: UInt32 = 1
  var live: [Load] = []  // loads opened and not stopped, oldest first
  var seeks: [LoadToken: UInt32] = [:]
  let allMedia = media + unplayable
  let positions: [MediaTime] = [.zero, .milliseconds(10), .milliseconds(100), .milliseconds(250)]
  var index = 0
  while index + 1 < bytes.count, steps.count < 64 {
    let (op, arg) = (bytes[index], bytes[index + 1])
    index += 2
    // Delays: 0 ms half the time, else up to ~0.5 s in uneven steps.
    let delay: Duration = arg & 1 == 0 ? .zero : .milliseconds(Int64(arg >> 1) * 4)
    let target = live.isEmpty ? nil : live[Int(op >> 3) % live.count]
    let command: EngineCommand
    let kind = op & 7
    if kind <= 1 || target == nil {
      let load = Load(item: ItemID(nextToken), token: LoadToken(nextToken))
      let chosen = allMedia[Int(arg >> 1) % allMedia.count]
      let preload = kind == 1 && !live.isEmpty
      let request = LoadRequest(load: load, media: chosen, start: positions[Int(op >> 3) % 4])
      command = preload ? .preload(request) : .load(request)
      nextToken += 1
      live.append(load)
    } else if let load = target {
      switch kind {
      case 2:
        command = .start(load)
      case 3:
        command = .pause(load)
      case 4, 5:
        let id = seeks[load.token, default: 0] + 1
        seeks[load.token] = id
        command = .seek(load, to: positions[Int(arg >> 1) % positions.count], SeekID(id))
      default:
        command = .stop(load)
        live.removeAll { $0 == load }
      }
    } else {
      continue  // unreachable: target is nil only in the branch above
    }
    steps.append(EngineFuzzScript.Step(delay: delay, command))
  }
  return EngineFuzzScript(steps: steps, media: allMedia)
}

private let fuzzer = EngineFuzzer(
  .init(media: media, unplayableMedia: unplayable, timeout: .seconds(5), reportsKept: 200))

@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: min(size, 256))) } ?? []
  let commands = script(bytes)
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
