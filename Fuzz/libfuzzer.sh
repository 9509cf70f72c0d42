#!/usr/bin/env bash
# Builds the libFuzzer targets with `swiftc -sanitize=fuzzer,address` and runs
# them for a while with the checked-in seed corpora.
#
#   Fuzz/libfuzzer.sh [seconds] [player|scenario|all]     (default: 30 all)
#
# Environment: PLAYHEAD_LIBFUZZER_DIR (build and work directory, default a
# fresh temp dir), PLAYHEAD_LIBFUZZER_SANITIZERS (default fuzzer,address),
# PLAYHEAD_LIBFUZZER_JOBS (parallel fuzzing processes, default 1).
# A crash prints the shrunk report and leaves the input in the work directory;
# replay it with the command printed at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -d /opt/swift/usr/bin ] && export PATH="/opt/swift/usr/bin:$PATH"

seconds="${1:-30}"
which="${2:-all}"
case "$seconds" in ''|*[!0-9]*) echo "libfuzzer.sh: seconds must be a whole number, got '$seconds'" >&2; exit 2;; esac
case "$which" in player|scenario|all) ;; *) echo "libfuzzer.sh: target must be player, scenario or all, got '$which'" >&2; exit 2;; esac

work="${PLAYHEAD_LIBFUZZER_DIR:-$(mktemp -d /tmp/playhead-libfuzzer.XXXXXX)}"
sanitizers="${PLAYHEAD_LIBFUZZER_SANITIZERS:-fuzzer,address}"
jobs="${PLAYHEAD_LIBFUZZER_JOBS:-1}"
mkdir -p "$work/lib"
flags=(-O -swift-version 6 -parse-as-library -sanitize="$sanitizers" -package-name playhead
  -enable-upcoming-feature ExistentialAny -enable-upcoming-feature InternalImportsByDefault
  -I "$work/lib" -L "$work/lib")

# One static library per module, in dependency order, so that each keeps its
# own module name and access control (concatenating sources would not).
# The linker's "cannot export local symbol __asan_*" chatter goes to the build
# log, which is printed only when a step fails.
log="$work/build.log"
run() {
  if ! "$@" >>"$log" 2>&1; then
    grep -v "Cannot export local symbol" "$log" | tail -n 40 >&2
    echo "libfuzzer: build step failed: $*" >&2
    exit 1
  fi
}
module() {
  local name="$1" dir="$2"; shift 2
  run swiftc "${flags[@]}" -module-name "$name" -emit-module -emit-module-path "$work/lib/$name.swiftmodule" \
    -emit-library -static -o "$work/lib/lib$name.a" "$dir"/*.swift "$@"
}

started=$(date +%s)
echo "libfuzzer: building into $work (sanitizers: $sanitizers)"
module PlayerState Sources/PlayerState
module PlayerEngine Sources/PlayerEngine -lPlayerState
module PlayerTesting Sources/PlayerTesting -lPlayerEngine -lPlayerState

targets=()
if [ "$which" != scenario ]; then
  module PlayerFuzz Fuzz/Sources/PlayerFuzz -lPlayerTesting -lPlayerEngine -lPlayerState
  run swiftc "${flags[@]}" -module-name PlayerLibFuzzer Fuzz/LibFuzzer/PlayerEntry.swift \
    -lPlayerFuzz -lPlayerTesting -lPlayerEngine -lPlayerState -lswiftSynchronization -o "$work/fuzz-player"
  targets+=(player)
fi
if [ "$which" != player ]; then
  if [ -f Sources/PlayerSimulation/ScenarioParser.swift ]; then
    module PlayerSimulation Sources/PlayerSimulation -lPlayerTesting -lPlayerEngine -lPlayerState
    run swiftc "${flags[@]}" -module-name ScenarioLibFuzzer Fuzz/LibFuzzer/ScenarioEntry.swift \
      -lPlayerSimulation -lPlayerEngine -lPlayerState -lswiftSynchronization -lFoundation -o "$work/fuzz-scenario"
    targets+=(scenario)
  else
    echo "libfuzzer: Sources/PlayerSimulation has no ScenarioParser; skipping the scenario target"
  fi
fi
echo "libfuzzer: built ${targets[*]} in $(( $(date +%s) - started )) s"

status=0
for target in "${targets[@]}"; do
  corpus="$work/corpus-$target"
  mkdir -p "$corpus" "$work/artifacts-$target"
  cp Fuzz/Corpus/"$target"/* "$corpus"/ 2>/dev/null || true
  echo "libfuzzer: running $target for $seconds s (corpus $corpus, seeds from Fuzz/Corpus/$target)"
  parallel=()
  [ "$jobs" -gt 1 ] && parallel=(-jobs="$jobs" -workers="$jobs")
  # Run inside the work directory: with -jobs, libFuzzer writes fuzz-N.log to the current one.
  if ! (cd "$work" && "$work/fuzz-$target" -max_total_time="$seconds" "${parallel[@]}" \
      -print_final_stats=1 -artifact_prefix="$work/artifacts-$target/" "$corpus" \
      >"$work/$target.log" 2>&1); then
    status=1
    tail -n 80 "$work/$target.log"
    crash=$(ls "$work/artifacts-$target"/* 2>/dev/null | head -n 1 || true)
    echo "libfuzzer: $target FAILED. Reproduce with: $work/fuzz-$target $crash" >&2
  else
    grep -E "^(#[0-9]+.*DONE|stat::number_of_executed_units|stat::average_exec_per_sec|stat::new_units_added)" "$work/$target.log" || tail -n 5 "$work/$target.log"
  fi
done
# A passing run leaves nothing behind unless the caller chose the directory.
if [ "$status" -eq 0 ] && [ -z "${PLAYHEAD_LIBFUZZER_DIR:-}" ]; then rm -rf "$work"; fi
exit "$status"
