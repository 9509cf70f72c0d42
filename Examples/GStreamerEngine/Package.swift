// swift-tools-version: 6.0
import PackageDescription

// A real engine for Playhead on Linux: a PlaybackEngine adapter over
// GStreamer's playbin. It is its own package so that the root package stays
// free of dependencies; it uses the root by path.
//
// Linux only, so no `platforms`: its locks are `Synchronization.Mutex`, which
// needs iOS 18 / macOS 15, above the root package's floor (iOS 16 / macOS 13),
// and it is built and tested on Linux only (README, "Platforms").
let settings: [SwiftSetting] = [
  .enableUpcomingFeature("ExistentialAny"),
  .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
  name: "GStreamerEngine",
  products: [
    .library(name: "GStreamerEngine", targets: ["GStreamerEngine"]),
    .library(name: "PlayheadMPRIS", targets: ["PlayheadMPRIS"]),
  ],
  dependencies: [
    .package(name: "Playhead", path: "../..")
  ],
  targets: [
    // GStreamer's C API, found with pkg-config; shim.h wraps the macros and
    // variadic functions Swift cannot call.
    .systemLibrary(
      name: "CGStreamer", pkgConfig: "gstreamer-1.0",
      providers: [.apt(["libgstreamer1.0-dev"])]),
    .target(
      name: "GStreamerEngine",
      dependencies: [
        "CGStreamer",
        .product(name: "PlayerEngine", package: "Playhead"),
      ],
      swiftSettings: settings),
    // GIO's GDBus (gio-2.0, which GStreamer already depends on), found with pkg-config;
    // shim.h wraps the interface vtable, G_VARIANT_TYPE and g_variant_new.
    .systemLibrary(
      name: "CGio", pkgConfig: "gio-2.0",
      providers: [.apt(["libglib2.0-dev"])]),
    // An MPRIS 2 player on the D-Bus session bus for any Player (not only GStreamer's).
    .target(
      name: "PlayheadMPRIS",
      dependencies: [
        "CGio",
        .product(name: "PlayerEngine", package: "Playhead"),
      ],
      swiftSettings: settings),
    .testTarget(
      name: "GStreamerEngineTests",
      dependencies: [
        "GStreamerEngine",
        // The MPRIS tests: the pure mapping, and playerctl against the real engine.
        "PlayheadMPRIS",
        // The tests encode their Ogg/Vorbis and FLAC media with GStreamer itself.
        "CGStreamer",
        .product(name: "PlayerEngine", package: "Playhead"),
        .product(name: "PlayerTesting", package: "Playhead"),
      ],
      swiftSettings: settings),
  ]
)
