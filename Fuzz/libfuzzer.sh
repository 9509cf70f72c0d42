#!/usr/bin/env bash
# Runs Playhead's libFuzzer targets locally, by short name. The build and the runs are
# Fuzz/oss-fuzz/verify.sh's (the OSS-Fuzz / ClusterFuzzLite build, .clusterfuzzlite/build.sh,
# with the base image's flags); this script only maps names and the older variables onto it.
#
#   Fuzz/libfuzzer.sh [seconds] [player|scenario|files|all|<Name>]     (default: 30 all)
#
# Targets: player (PlayerFuzzer: the Player against the contract), scenario (ScenarioFuzzer:
# the scenario parser), files (FilesFuzzer: player-sim's file readers and the scenario
# runner), any other lowercased …Fuzzer product of Fuzz/FuzzTesting (engine for
# EngineFuzzer), or all: the player gets the seconds, every other fuzzer half.
#
# Environment: PLAYHEAD_LIBFUZZER_DIR (work directory, kept), PLAYHEAD_LIBFUZZER_JOBS
# (parallel fuzzing processes), PLAYHEAD_LIBFUZZER_CONFIGURATION (debug, the default, or
# release: use release for long campaigns on the player, about 6 times faster),
# PLAYHEAD_LIBFUZZER_SANITIZERS (fuzzer,address, the default, or fuzzer,thread),
# PLAYHEAD_FUZZ_SCRATCH (SwiftPM scratch path). A crash prints the input and the command
# that replays it.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-30}"
which="${2:-all}"
case "$seconds" in ''|*[!0-9]*) echo "libfuzzer.sh: seconds must be a whole number, got '$seconds'" >&2; exit 2;; esac
case "$which" in
  all) fuzzers=() ;;
  *[!a-z]*|'') echo "libfuzzer.sh: target must be player, scenario, files, all or another fuzzer's lowercased short name, got '$which'" >&2; exit 2 ;;
  *) fuzzers=("$(printf '%s' "${which:0:1}" | tr '[:lower:]' '[:upper:]')${which:1}Fuzzer") ;;
esac
sanitizers="${PLAYHEAD_LIBFUZZER_SANITIZERS:-fuzzer,address}"
case "$sanitizers" in
  fuzzer,address|fuzzer,thread) ;;
  *) echo "libfuzzer.sh: PLAYHEAD_LIBFUZZER_SANITIZERS must be fuzzer,address or fuzzer,thread, got '$sanitizers'" >&2; exit 2 ;;
esac
export SANITIZER="${sanitizers#fuzzer,}"
export PLAYHEAD_FUZZ_CONFIGURATION="${PLAYHEAD_LIBFUZZER_CONFIGURATION:-debug}"
exec Fuzz/oss-fuzz/verify.sh "$seconds" "${fuzzers[@]}"
