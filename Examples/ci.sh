#!/usr/bin/env bash
# The examples' CI (issue 6), called by .ci/run. Runs as root on a fresh
# Debian machine with CI=true: installs GStreamer with apt-get, then
#   1. builds and runs Examples/Basic and compares its output with expected-output.txt,
#   2. runs the tests of Examples/GStreamerEngine (real pipelines, the conformance kit, a live HLS
#      stream made by hlssink2 and served by python3's http.server on 127.0.0.1, and the
#      engine fuzzer against playbin for 60 s: PLAYHEAD_ENGINE_FUZZ_SECONDS changes it), and its
#      MPRIS tests on a private D-Bus session bus (dbus-run-session) driven by playerctl,
#   3. runs the tests of Examples/AVPlayerEngine's pure core (its shell is empty off Apple
#      platforms) and type-checks the shell against AVFoundation and MediaPlayer stubs
#      (ShellTypecheck),
#   4. runs the tests of Examples/FuzzYourPlayer (a hand-written player fuzzed in every mode,
#      a single-item one within the core (features none); their planted bugs caught),
#   5. builds, tests and runs Examples/FirstApp (issue 40's newcomer app).
# Any compiler warning in the examples fails it, as in the root build.
# Basic, GStreamerEngine, AVPlayerEngine, FuzzYourPlayer and FirstApp build in one scratch path,
# Examples/.build (swift build --scratch-path): Playhead's modules, the same sources with the same
# flags in each, compile once instead of four times (PlayerState and PlayerEngine alone: about 18
# CPU-s a time). ShellTypecheck keeps its own: its stub modules named AVFoundation, os and
# MediaPlayer would make `canImport(AVFoundation)` true for the others.
# `Examples/ci.sh install` only installs the packages (as root; nothing if they are there):
# .ci/run runs it in the background from its start, so this script skips apt-get.
set -euo pipefail
cd "$(dirname "$0")"
[ -d /opt/swift/usr/bin ] && export PATH="/opt/swift/usr/bin:$PATH"

step() { printf '\n==> Examples: %s\n' "$*"; }
started=$(date +%s)
log=$(mktemp)
trap 'rm -f "$log"' EXIT

# Fails if the build output in $log has a compiler warning.
no_warnings() {
  if grep -E '^/.*: warning: ' "$log"; then
    echo "Examples/ci.sh: $1 printed compiler warnings (listed above)." >&2
    exit 1
  fi
}

# gstreamer1.0-plugins-bad: hlssink2 and mpegtsmux, which make the live HLS stream the live tests
# play (issue 38; plugins-good's hlsdemux2 and souphttpsrc play it).
packages=(pkg-config libgstreamer1.0-dev gstreamer1.0-plugins-base gstreamer1.0-plugins-good gstreamer1.0-plugins-bad playerctl dbus-daemon)
# True when every package in "${packages[@]}" is installed (dpkg's status, not only known).
installed() {
  local status
  status="$(dpkg-query -W -f='${Status}\n' "${packages[@]}" 2>/dev/null)" || return 1
  [ "$(grep -c '^install ok installed$' <<<"$status")" -eq "${#packages[@]}" ]
}
step "install ${packages[*]}"
if installed; then
  # .ci/run starts `Examples/ci.sh install` in the background at its beginning (the download
  # and unpacking overlap the build) and waits for it before this script.
  echo "already installed"
elif [ "$(id -u)" = 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q
  apt-get install -y -q --no-install-recommends "${packages[@]}"
else
  echo "Examples/ci.sh: ${packages[*]} are missing and this is not root: install them with apt-get" >&2
  exit 1
fi
if [ "${1:-}" = install ]; then
  exit 0
fi

shared=(--scratch-path "$PWD/.build")
# Builds example $1 in directory $2 with `swift build` and the arguments after them; fails, with
# the command to reproduce it, if the build fails or prints a warning.
build() {
  local name="$1" dir="$2"
  shift 2
  if ! (cd "$dir" && swift build "$@" 2>&1 | tee "$log"); then
    echo "Examples/ci.sh: building $name failed (its output above). Reproduce with:" >&2
    echo "  cd Examples/$dir && swift build${*:+ $*}" >&2
    exit 1
  fi
  no_warnings "$name"
}
# Runs the command after $1 (a name) and $2 (a directory) in that directory; fails, with the
# command to reproduce it, if it fails.
check() {
  local name="$1" dir="$2"
  shift 2
  if ! (cd "$dir" && "$@"); then
    echo "Examples/ci.sh: $name failed (its output above). Reproduce with:" >&2
    echo "  cd Examples/$dir && $*" >&2
    exit 1
  fi
}

step "Basic: build, run, compare with expected-output.txt"
build Basic Basic "${shared[@]}"
basic="$(cd Basic && swift build "${shared[@]}" --show-bin-path)/basic"
if ! "$basic" | diff -u Basic/expected-output.txt -; then
  echo "Examples/ci.sh: Basic's output differs from Basic/expected-output.txt (diff above). Reproduce with:" >&2
  echo "  cd Examples/Basic && swift run basic | diff -u expected-output.txt -" >&2
  exit 1
fi

step "GStreamerEngine: swift test (real pipelines, the conformance kit, the engine fuzzer)"
build GStreamerEngine GStreamerEngine "${shared[@]}" --build-tests
# PLAYHEAD_REQUIRE_LIVE=1: the live HLS tests fail, not skip, if hlssink2 or python3 is missing.
check "GStreamerEngine's tests" GStreamerEngine env PLAYHEAD_REQUIRE_LIVE=1 \
  swift test "${shared[@]}" --skip-build --skip EngineFuzzTests
# The engine fuzzer on its own: its real-time rhythms and figures are not shared with other suites.
check "GStreamerEngine's engine fuzzer" GStreamerEngine \
  swift test "${shared[@]}" --skip-build --filter EngineFuzzTests

# MPRIS (issue 22, item 6): the GStreamer player exported on a private session bus and driven
# by playerctl (Debian's package). dbus-run-session starts the bus for the tests only;
# PLAYHEAD_REQUIRE_MPRIS=1 makes the playerctl test fail, not skip, if the bus or playerctl is missing.
step "GStreamerEngine: MPRIS driven by playerctl (dbus-run-session)"
check "GStreamerEngine's MPRIS tests" GStreamerEngine env PLAYHEAD_REQUIRE_MPRIS=1 PLAYHEAD_REQUIRE_LIVE=1 \
  dbus-run-session -- swift test "${shared[@]}" --skip-build --filter MPRIS

step "AVPlayerEngine: swift test (the pure core; the AVFoundation shell is empty here)"
build AVPlayerEngine AVPlayerEngine "${shared[@]}" --build-tests
check "AVPlayerEngine's tests" AVPlayerEngine swift test "${shared[@]}" --skip-build

step "AVPlayerEngine: type-check the shell against the AVFoundation stub"
build ShellTypecheck AVPlayerEngine/ShellTypecheck

step "FuzzYourPlayer: swift test (MiniPlayer in every PlayerFuzz mode, its planted bug caught)"
build FuzzYourPlayer FuzzYourPlayer "${shared[@]}" --build-tests
check "FuzzYourPlayer's tests" FuzzYourPlayer swift test "${shared[@]}" --skip-build

# Issue 40's acceptance: the app a newcomer writes from the README and the DocC articles, with the
# names they would guess; it must build with no warning, its tests pass (the conformance kit on
# its serial-queue adapter, the observable model), and its run end by its sleep timer.
step "FirstApp: build, test and run the newcomer's app"
build FirstApp FirstApp "${shared[@]}" --build-tests
check "FirstApp's tests" FirstApp swift test "${shared[@]}" --skip-build
first_app="$(cd FirstApp && swift build "${shared[@]}" --show-bin-path)/FirstApp"
first_app_output="$("$first_app")"
printf '%s\n' "$first_app_output"
if ! grep -qx 'stopped by the sleep timer: true' <<<"$first_app_output"; then
  echo "Examples/ci.sh: FirstApp did not end by its sleep timer (output above). Reproduce with:" >&2
  echo "  cd Examples/FirstApp && swift run FirstApp" >&2
  exit 1
fi

step "examples finished in $(($(date +%s) - started)) s"
