#!/usr/bin/env bash
# The fuzz part of CI, called by .ci/run from the repository root after the
# package's own `swift test` (so the debug build is already there).
#
#   1. property tests of Playhead's Player with fixed seeds for about a minute,
#      requiring every declared transition to be exercised; exhaustive
#      exploration to depth 3 (with the queue's alphabet there is no fixpoint at a
#      useful depth: it checks every sequence of at most 3 events and says it is
#      not complete); the multi-threaded mode
#   2. libFuzzer on the player, and (half the time each) on player-sim's
#      scenario parser and on its file readers and runner: the executables of the
#      fuzzing package Fuzz/FuzzTesting, built through SwiftPM by Fuzz/libfuzzer.sh
#      (swift build -c debug -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library)
#
# Long campaigns: PLAYHEAD_FUZZ_BUDGET (seconds per seed, default 60),
# PLAYHEAD_FUZZ_SEEDS (seeds run at once, default 2), PLAYHEAD_FUZZ_SEED (first
# seed, default 1), PLAYHEAD_LIBFUZZER_SECONDS (per target, default half the
# budget), PLAYHEAD_LIBFUZZER_JOBS, PLAYHEAD_LIBFUZZER_CONFIGURATION (debug, the
# default, or release). PLAYHEAD_FUZZ_SCRATCH sets --scratch-path (the fuzzing
# package builds under its fuzz-testing subdirectory).
set -euo pipefail
cd "$(dirname "$0")/.."
[ -d /opt/swift/usr/bin ] && export PATH="/opt/swift/usr/bin:$PATH"

budget="${PLAYHEAD_FUZZ_BUDGET:-60}"
seeds="${PLAYHEAD_FUZZ_SEEDS:-2}"
seed="${PLAYHEAD_FUZZ_SEED:-1}"
libfuzzer_seconds="${PLAYHEAD_LIBFUZZER_SECONDS:-$(( ${budget%.*} / 2 ))}"
scratch=()
[ -n "${PLAYHEAD_FUZZ_SCRATCH:-}" ] && scratch=(--scratch-path "$PLAYHEAD_FUZZ_SCRATCH")
started=$(date +%s)
log="$(mktemp /tmp/playhead-fuzz-campaign.XXXXXX)"

reproduce="PLAYHEAD_FUZZ_BUDGET=$budget PLAYHEAD_FUZZ_SEEDS=$seeds PLAYHEAD_FUZZ_SEED=$seed swift test --filter PlayerFuzzTests.CampaignTests"
echo "fuzz: property campaign, seeds $seed..$(( seed + seeds - 1 )), $budget s each"
if ! PLAYHEAD_FUZZ_BUDGET="$budget" PLAYHEAD_FUZZ_SEEDS="$seeds" PLAYHEAD_FUZZ_SEED="$seed" \
    swift test "${scratch[@]}" --filter PlayerFuzzTests.CampaignTests 2>&1 | tee "$log" \
    | grep -vE '^\[[0-9]+/[0-9]+\]|^Test Suite|^	 Executed'; then
  :
fi
if grep -qE '✘|error:' "$log" || ! grep -q '✔ Test run' "$log"; then
  echo "fuzz: FAILED. Reproduce with:" >&2
  echo "  $reproduce" >&2
  exit 1
fi
rm -f "$log"

echo "fuzz: libFuzzer, $libfuzzer_seconds s for the player, half that each for scenario and files"
if ! Fuzz/libfuzzer.sh "$libfuzzer_seconds" all; then
  echo "fuzz: libFuzzer FAILED (the crashing input and its replay command are printed above). Reproduce with:" >&2
  echo "  Fuzz/libfuzzer.sh $libfuzzer_seconds all" >&2
  exit 1
fi
echo "fuzz: passed in $(( $(date +%s) - started )) s"
