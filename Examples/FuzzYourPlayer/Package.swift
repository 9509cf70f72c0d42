// swift-tools-version: 6.0
import PackageDescription

// Fuzzing a player that is not Playhead's `Player`: MiniPlayer, a hand-written
// driver (its own event queue, its own process-wide load ids, its own watchdog
// scheduling, its own lock) over PlayerState's reducer, checked by PlayerFuzz in
// every mode from its tests; and SingleItemPlayer, a single-item player written
// without the reducer, fuzzed within the single-item core (`features: .core`).
// Uses the root package by path.
let settings: [SwiftSetting] = [
  .enableUpcomingFeature("ExistentialAny"),
  .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
  name: "FuzzYourPlayer",
  // MiniPlayer locks with Synchronization.Mutex (macOS 15 / iOS 18); Playhead's
  // own libraries keep the iOS 16 floor with their own lock.
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  dependencies: [
    .package(name: "Playhead", path: "../..")
  ],
  targets: [
    .target(
      name: "MiniPlayer",
      dependencies: [
        .product(name: "PlayerState", package: "Playhead"),
        .product(name: "PlayerEngine", package: "Playhead"),
      ],
      swiftSettings: settings),
    .testTarget(
      name: "MiniPlayerTests",
      dependencies: ["MiniPlayer", .product(name: "PlayerFuzz", package: "Playhead")],
      swiftSettings: settings),
  ]
)
