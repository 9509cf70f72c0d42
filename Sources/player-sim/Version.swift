import PlayerEngine

/// The version `player-sim --version` and the completion scripts print:
/// Playhead's own, `playheadVersion` in Sources/PlayerEngine/Version.swift,
/// the one constant the release steps in CHANGELOG.md set.
let playerSimVersion = playheadVersion
