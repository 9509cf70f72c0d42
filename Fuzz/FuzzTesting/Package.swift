// swift-tools-version: 6.0
import PackageDescription

// libFuzzer targets for Playhead, in the shape OSS-Fuzz's Swift support expects
// (like swift-protobuf's FuzzTesting/): one executable target per entry point,
// named …Fuzzer, each defining `LLVMFuzzerTestOneInput`. Build them with
//
//   swift build -c debug -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library
//
// OSS-Fuzz and ClusterFuzzLite build it with .clusterfuzzlite/build.sh (precompile_swift's
// SWIFTFLAGS add the static Swift runtime), which copies every executable product named
// …Fuzzer to $OUT; Fuzz/oss-fuzz/verify.sh (CI) and Fuzz/libfuzzer.sh run that build here.
// Uses the root package by path; the root's Package.swift knows nothing of this one.
let settings: [SwiftSetting] = [
  .enableUpcomingFeature("ExistentialAny"),
  .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
  name: "FuzzTesting",
  platforms: [.macOS(.v13)],
  dependencies: [
    .package(name: "Playhead", path: "../..")
  ],
  targets: [
    // libFuzzer's driver entry, declared for Swift (see include/CLibFuzzer.h).
    .target(name: "CLibFuzzer"),
    // The player against the contract: bytes through the one ActionDecoder.
    .executableTarget(
      name: "PlayerFuzzer",
      dependencies: ["CLibFuzzer", .product(name: "PlayerFuzz", package: "Playhead")],
      swiftSettings: settings),
    // player-sim's scenario parser on any bytes.
    .executableTarget(
      name: "ScenarioFuzzer",
      dependencies: ["CLibFuzzer", .product(name: "PlayerSimulation", package: "Playhead")],
      swiftSettings: settings),
    // player-sim's file readers and the scenario runner, and saved-failure replays.
    .executableTarget(
      name: "FilesFuzzer",
      dependencies: [
        "CLibFuzzer",
        .product(name: "PlayerSimulation", package: "Playhead"),
        .product(name: "PlayerFuzz", package: "Playhead"),
      ],
      swiftSettings: settings),
    // States from outside: bytes -> a JSON PlaybackState -> every event kind ->
    // every description, never a trap.
    .executableTarget(
      name: "StateFuzzer",
      dependencies: ["CLibFuzzer", .product(name: "PlayerState", package: "Playhead")],
      swiftSettings: settings),
    // The engine contract on player-sim's fake engine: bytes -> engine commands, every
    // report judged by the conformance kit's record.
    .executableTarget(
      name: "EngineFuzzer",
      dependencies: [
        "CLibFuzzer",
        .product(name: "PlayerTesting", package: "Playhead"),
        .product(name: "PlayerSimulation", package: "Playhead"),
      ],
      swiftSettings: settings),
  ]
)
