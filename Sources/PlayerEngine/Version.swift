/// Playhead's version, in semantic-versioning form: the one place a release
/// changes it (`player-sim --version` prints it).
///
/// On `main` between releases it is the next version with a `-dev` suffix. A
/// release commit drops the suffix; once that commit is on `main` it is
/// tagged with the bare version (`0.2.0`, no `v`), and the next commit on
/// `main` sets the next `-dev` version. The release steps are in CHANGELOG.md.
package let playheadVersion = "0.3.0-dev"
