// swift-tools-version: 6.0
import PackageDescription

// Type-checks the AVFoundation shell on Linux against a stub of the AVFoundation API it
// uses (Sources/AVFoundation, Sources/os: the Swift signatures of the iOS 16 SDK as
// documented, bodies empty). It proves the shell's Swift (syntax, types, strict
// concurrency, no warnings), not its behaviour, and not that the stub matches the real
// SDK: that needs a build on a Mac. Run: `swift build` here (Examples/ci.sh does).
let settings: [SwiftSetting] = [
  .enableUpcomingFeature("ExistentialAny"),
  .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
  name: "ShellTypecheck",
  dependencies: [.package(name: "Playhead", path: "../../..")],
  targets: [
    .target(name: "AVFoundation", path: "Sources/AVFoundation"),
    .target(name: "os", path: "Sources/os"),
    .target(name: "MediaPlayer", path: "Sources/MediaPlayer"),
    // Symbolic links to ../Sources: the very files the real package builds.
    .target(
      name: "AVPlayerEngineCore",
      dependencies: [.product(name: "PlayerState", package: "Playhead")],
      swiftSettings: settings),
    .target(
      name: "AVPlayerEngine",
      dependencies: [
        "AVFoundation", "os", "MediaPlayer", "AVPlayerEngineCore",
        .product(name: "PlayerEngine", package: "Playhead"),
      ],
      // Type-checks the iOS/tvOS audio session code too (behind os(iOS) || os(tvOS)).
      swiftSettings: settings + [.define("PLAYHEAD_TYPECHECK_AUDIO_SESSION")]),
  ]
)
