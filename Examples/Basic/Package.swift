// swift-tools-version: 6.0
import PackageDescription

// The smallest complete integration of Playhead: an engine adapter over a
// callback-style media library, the Player driving it, and a program that
// observes the state. Uses the root package by path.
let package = Package(
  name: "Basic",
  platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
  dependencies: [
    .package(name: "Playhead", path: "../..")
  ],
  targets: [
    .executableTarget(
      name: "basic",
      dependencies: [.product(name: "PlayerEngine", package: "Playhead")],
      swiftSettings: [
        .enableUpcomingFeature("ExistentialAny"),
        .enableUpcomingFeature("InternalImportsByDefault"),
      ])
  ]
)
