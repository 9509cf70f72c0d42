// swift-tools-version: 6.0
import PackageDescription

// The app a newcomer writes in their first hour, from the README and the DocC articles only,
// with the names they would guess (issue 40's acceptance): an engine adapter that serialises on
// a DispatchQueue, `Player(engine:configuration:)`, `.seconds(…)` durations, a rate of 1.5,
// a progress sequence and the observable model; its tests run the conformance kit on the
// adapter and drive the model. Uses the root package by path; Examples/ci.sh builds and runs it.
let package = Package(
  name: "FirstApp",
  platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
  dependencies: [
    .package(name: "Playhead", path: "../..")
  ],
  targets: [
    .executableTarget(
      name: "FirstApp",
      dependencies: [
        .product(name: "PlayerEngine", package: "Playhead"),
        .product(name: "PlayerState", package: "Playhead"),
        .product(name: "PlayerObservation", package: "Playhead"),
      ],
      swiftSettings: [.enableUpcomingFeature("ExistentialAny")]),
    .testTarget(
      name: "FirstAppTests",
      dependencies: ["FirstApp", .product(name: "PlayerTesting", package: "Playhead")],
      swiftSettings: [.enableUpcomingFeature("ExistentialAny")]),
  ]
)
