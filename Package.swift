// swift-tools-version: 6.0
import PackageDescription

let settings: [SwiftSetting] = [
  .enableUpcomingFeature("ExistentialAny"),
  .enableUpcomingFeature("InternalImportsByDefault"),
]

// `.ci/sanitizers` sets PLAYHEAD_SANITIZER for its AddressSanitizer and ThreadSanitizer builds,
// which run no suite of the pure reducer's (PlayerState is the standard library only, one thread,
// values; its header says why): those builds leave PlayerStateTests out, about 30 CPU-s each.
// Every other build, the README's `swift test` included, has every test target.
let sanitizerBuild = Context.environment["PLAYHEAD_SANITIZER"] != nil
// The same builds leave out the explorer's suites, which neither sanitizer runs (one player on
// one thread; `.ci/sanitizers`, `explorer_suites` and `explorer_cli`, says why).
let explorerSuites =
  sanitizerBuild
  ? [
    "CompleteExplorationTests", "ExplorerTests", "ExploreFeaturesTests", "ExploreShardTests",
    "ClassPartitionTests", "ExplorerReachTests", "ExploreHeldRestoreTests", "SearchMemoryTests",
    "ExploreRestoreTests", "BehaviouralClassesTests", "ExploreVolumeTests", "BoundedFeaturesTests",
    "KeyCoarseningTests", "StateFingerprintTests", "SearchRowsTests", "ExplorationLimitTests",
    "ExploredObservablesTests", "ExploreFadeTests", "ExploreCrossfadeTests",
  ].map { "\($0).swift" } : []
let explorerCLISuites =
  sanitizerBuild ? ["ExploreScopeCLITests.swift", "ShardCLITests.swift"] : []

let package = Package(
  name: "Playhead",
  // The floor every product supports: `Duration` and `AsyncStream.makeStream` need
  // macOS 13 / iOS 16. Locks are the package's own `Locked` (pthread), not
  // `Synchronization.Mutex` (macOS 15 / iOS 18). `.ci/platform-floor` checks the sources.
  platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
  products: [
    .library(name: "PlayerState", targets: ["PlayerState"]),
    .library(name: "PlayerEngine", targets: ["PlayerEngine"]),
    .library(name: "PlayerObservation", targets: ["PlayerObservation"]),
    .library(name: "PlayerTesting", targets: ["PlayerTesting"]),
    .library(name: "PlayerSimulation", targets: ["PlayerSimulation"]),
    .library(name: "PlayerFuzz", targets: ["PlayerFuzz"]),
    .executable(name: "player-sim", targets: ["player-sim"]),
  ],
  targets: [
    // Layer 1. The pure machine: standard library only.
    .target(name: "PlayerState", swiftSettings: settings),
    // Layer 2. The engine protocol and the driver.
    .target(name: "PlayerEngine", dependencies: ["PlayerState"], swiftSettings: settings),
    // Layer 3, for apps: the player as an observable model for SwiftUI (Observation on
    // iOS 17 / macOS 14, ObservableObject below). A product of its own, so an app that does
    // not want it does not link the Observation module.
    .target(name: "PlayerObservation", dependencies: ["PlayerEngine"], swiftSettings: settings),
    // Test support a back end links from its tests only: spy engine, conformance kit.
    .target(name: "PlayerTesting", dependencies: ["PlayerEngine"], swiftSettings: settings),
    // Fake media over a virtual clock, and the scenario language.
    .target(
      name: "PlayerSimulation", dependencies: ["PlayerEngine", "PlayerTesting"],
      swiftSettings: settings),
    // The property-based harness: generators, oracle, shrinking, exploration.
    .target(
      name: "PlayerFuzz", dependencies: ["PlayerEngine", "PlayerTesting"],
      path: "Fuzz/Sources/PlayerFuzz", swiftSettings: settings),
    // The command-line front end.
    .executableTarget(
      name: "player-sim", dependencies: ["PlayerSimulation", "PlayerFuzz"], swiftSettings: settings),
    // Benchmarks: run with `swift run -c release player-bench`.
    .executableTarget(
      name: "player-bench",
      dependencies: [
        "PlayerEngine", "PlayerTesting", "PlayerFuzz", "PlayerSimulation", "MallocCounter",
      ],
      path: "Benchmarks/Sources/player-bench", swiftSettings: settings),
    // Counts malloc calls in the benchmark process (Linux/glibc), for allocations per event.
    .target(name: "MallocCounter", path: "Benchmarks/Sources/MallocCounter"),

    .testTarget(
      name: "PlayerEngineTests", dependencies: ["PlayerEngine", "PlayerTesting"],
      swiftSettings: settings),
    .testTarget(
      name: "PlayerObservationTests",
      dependencies: ["PlayerObservation", "PlayerTesting", "PlayerSimulation"],
      swiftSettings: settings),
    .testTarget(
      name: "PlayerTestingTests", dependencies: ["PlayerTesting", "PlayerSimulation"],
      swiftSettings: settings),
    .testTarget(
      name: "PlayerFuzzTests", dependencies: ["PlayerFuzz"], path: "Fuzz/Tests/PlayerFuzzTests",
      exclude: explorerSuites, swiftSettings: settings),
    .testTarget(
      name: "PlayerSimTests", dependencies: ["PlayerSimulation", "PlayerTesting", "player-sim"],
      exclude: explorerCLISuites, swiftSettings: settings),
  ]
    + (sanitizerBuild
      ? []
      : [
        .testTarget(
          name: "PlayerStateTests", dependencies: ["PlayerState"], exclude: ["Golden"],
          swiftSettings: settings)
      ])
)
