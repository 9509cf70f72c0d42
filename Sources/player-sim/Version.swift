/// The version `player-sim --version` prints.
///
/// The one place the release bumps. (Issue 12 adds `playheadVersion` in
/// PlayerEngine; when it lands, this constant should read from it.)
let playerSimVersion = "0.2.0-dev"
