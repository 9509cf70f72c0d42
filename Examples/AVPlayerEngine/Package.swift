// swift-tools-version: 6.0
import PackageDescription

// A PlaybackEngine adapter over AVPlayer for Apple platforms. The source is
// behind `#if canImport(AVFoundation)`: on Linux the module builds empty.
let package = Package(
  name: "AVPlayerEngine",
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .visionOS(.v2)],
  products: [
    .library(name: "AVPlayerEngine", targets: ["AVPlayerEngine"])
  ],
  dependencies: [
    .package(name: "Playhead", path: "../..")
  ],
  targets: [
    .target(
      name: "AVPlayerEngine",
      dependencies: [.product(name: "PlayerEngine", package: "Playhead")],
      swiftSettings: [
        .enableUpcomingFeature("ExistentialAny"),
        .enableUpcomingFeature("InternalImportsByDefault"),
      ])
  ]
)
