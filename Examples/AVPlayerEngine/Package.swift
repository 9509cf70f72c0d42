// swift-tools-version: 6.0
import PackageDescription

// A PlaybackEngine adapter over AVPlayer for Apple platforms, in two layers:
//   AVPlayerEngineCore  what AVFoundation said -> which reports to send and which
//                       deferred player calls to make. Pure (standard library and
//                       PlayerState), builds everywhere, tested on Linux.
//   AVPlayerEngine      the shell: observes AVPlayer/AVPlayerItem, turns what it sees
//                       into the core's facts, performs the core's actions on the main
//                       actor. Behind `#if canImport(AVFoundation)`: empty on Linux.
let settings: [SwiftSetting] = [
  .enableUpcomingFeature("ExistentialAny"),
  .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
  name: "AVPlayerEngine",
  // The root package's floor on these four platforms; the adapter uses nothing newer
  // (OSAllocatedUnfairLock is iOS 16 / macOS 13). Not watchOS, which the root supports: the
  // adapter was neither written nor checked for watchOS's audio-only playback rules.
  platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .visionOS(.v1)],
  products: [
    .library(name: "AVPlayerEngine", targets: ["AVPlayerEngine"])
  ],
  dependencies: [
    .package(name: "Playhead", path: "../..")
  ],
  targets: [
    .target(
      name: "AVPlayerEngineCore",
      dependencies: [.product(name: "PlayerState", package: "Playhead")],
      swiftSettings: settings),
    .target(
      name: "AVPlayerEngine",
      dependencies: [
        "AVPlayerEngineCore",
        .product(name: "PlayerEngine", package: "Playhead"),
      ],
      swiftSettings: settings),
    .testTarget(
      name: "AVPlayerEngineCoreTests",
      dependencies: [
        "AVPlayerEngine",
        "AVPlayerEngineCore",
        .product(name: "PlayerState", package: "Playhead"),
      ],
      swiftSettings: settings),
  ]
)
