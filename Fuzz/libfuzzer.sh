#!/usr/bin/env bash
# Builds the libFuzzer targets of the fuzzing package Fuzz/FuzzTesting (SwiftPM
# executables named …Fuzzer, the shape OSS-Fuzz's Swift support expects) with
#
#   swift build -c debug -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library
#
# and runs them for a while with the checked-in seed corpora.
#
#   Fuzz/libfuzzer.sh [seconds] [player|scenario|files|all]     (default: 30 all)
#
# Targets: player (PlayerFuzzer: the Player against the contract), scenario
# (ScenarioFuzzer: the scenario parser), files (FilesFuzzer: player-sim's file
# readers and the scenario runner: bytes read as `run FILE` or `fuzz --replay
# FILE` reads them, then run). With `all`, the player gets the seconds and
# scenario and files half each, so `all` takes twice the seconds. The scenario
# and files targets take inputs up to 64 KB under an RSS limit: reading must
# stay proportional to the input.
#
# Environment: PLAYHEAD_LIBFUZZER_DIR (work directory for corpora, logs and
# crashes, default a fresh temp dir), PLAYHEAD_LIBFUZZER_SANITIZERS (default
# fuzzer,address), PLAYHEAD_LIBFUZZER_CONFIGURATION (debug, the default, or
# release), PLAYHEAD_LIBFUZZER_JOBS (parallel fuzzing processes, default 1),
# PLAYHEAD_FUZZ_SCRATCH (SwiftPM --scratch-path; default Fuzz/FuzzTesting/.build).
# A crash prints the shrunk report and leaves the input in the work directory;
# replay it with the command printed at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -d /opt/swift/usr/bin ] && export PATH="/opt/swift/usr/bin:$PATH"

seconds="${1:-30}"
which="${2:-all}"
case "$seconds" in ''|*[!0-9]*) echo "libfuzzer.sh: seconds must be a whole number, got '$seconds'" >&2; exit 2;; esac
case "$which" in player|scenario|files|all) ;; *) echo "libfuzzer.sh: target must be player, scenario, files or all, got '$which'" >&2; exit 2;; esac

work="${PLAYHEAD_LIBFUZZER_DIR:-$(mktemp -d /tmp/playhead-libfuzzer.XXXXXX)}"
sanitizers="${PLAYHEAD_LIBFUZZER_SANITIZERS:-fuzzer,address}"
configuration="${PLAYHEAD_LIBFUZZER_CONFIGURATION:-debug}"
jobs="${PLAYHEAD_LIBFUZZER_JOBS:-1}"
case "$configuration" in debug|release) ;; *) echo "libfuzzer.sh: PLAYHEAD_LIBFUZZER_CONFIGURATION must be debug or release, got '$configuration'" >&2; exit 2;; esac
mkdir -p "$work"
package=Fuzz/FuzzTesting
scratch=()
[ -n "${PLAYHEAD_FUZZ_SCRATCH:-}" ] && scratch=(--scratch-path "$PLAYHEAD_FUZZ_SCRATCH/fuzz-testing")
build=(swift build --package-path "$package" "${scratch[@]}" -c "$configuration"
  -Xswiftc "-sanitize=$sanitizers" -Xswiftc -parse-as-library)

targets=()
case "$which" in
  all) targets=(player scenario files) ;;
  *) targets=("$which") ;;
esac
binary() {
  case "$1" in player) echo PlayerFuzzer ;; scenario) echo ScenarioFuzzer ;; files) echo FilesFuzzer ;; esac
}

started=$(date +%s)
echo "libfuzzer: ${build[*]} (targets: ${targets[*]})"
# The linker's "cannot export local symbol __asan_*" chatter goes to the build
# log, which is printed only when the build fails.
log="$work/build.log"
for target in "${targets[@]}"; do
  product="$(binary "$target")"
  if ! "${build[@]}" --product "$product" >>"$log" 2>&1; then
    grep -v "annot export local symbol" "$log" | tail -n 40 >&2
    echo "libfuzzer: building $product failed: ${build[*]} --product $product" >&2
    exit 1
  fi
done
bin="$("${build[@]}" --show-bin-path)"
echo "libfuzzer: built ${targets[*]} in $(( $(date +%s) - started )) s into $bin"

status=0
for target in "${targets[@]}"; do
  corpus="$work/corpus-$target"
  mkdir -p "$corpus" "$work/artifacts-$target"
  target_seconds="$seconds"
  options=()
  case "$target" in
    player)
      cp Fuzz/Corpus/player/* "$corpus"/ 2>/dev/null || true ;;
    scenario)
      cp Fuzz/Corpus/scenario/* "$corpus"/ 2>/dev/null || true
      options=(-max_len=65536 -rss_limit_mb=1536 -malloc_limit_mb=256) ;;
    files)
      # The first byte picks the reader: even a scenario script, odd a saved failure.
      for seed in Fuzz/Corpus/scenario/*; do
        { printf '\000'; cat "$seed"; } >"$corpus/script-$(basename "$seed")"
      done
      for seed in Fuzz/Failures/*.txt; do
        { printf '\001'; cat "$seed"; } >"$corpus/failure-$(basename "$seed")"
      done
      options=(-max_len=65536 -rss_limit_mb=1536 -malloc_limit_mb=256) ;;
  esac
  if [ "$which" = all ] && [ "$target" != player ]; then
    target_seconds=$(( seconds / 2 > 0 ? seconds / 2 : 1 ))
  fi
  echo "libfuzzer: running $target for $target_seconds s (corpus $corpus, options ${options[*]:-default})"
  parallel=()
  [ "$jobs" -gt 1 ] && parallel=(-jobs="$jobs" -workers="$jobs")
  # Run inside the work directory: with -jobs, libFuzzer writes fuzz-N.log to the current one.
  if ! (cd "$work" && "$bin/$(binary "$target")" -max_total_time="$target_seconds" "${options[@]}" "${parallel[@]}" \
      -print_final_stats=1 -artifact_prefix="$work/artifacts-$target/" "$corpus" \
      >"$work/$target.log" 2>&1); then
    status=1
    tail -n 80 "$work/$target.log"
    crash=$(ls "$work/artifacts-$target"/* 2>/dev/null | head -n 1 || true)
    echo "libfuzzer: $target FAILED. Reproduce with: $bin/$(binary "$target") $crash" >&2
  else
    grep -E "^(#[0-9]+.*DONE|stat::number_of_executed_units|stat::average_exec_per_sec|stat::new_units_added)" "$work/$target.log" || tail -n 5 "$work/$target.log"
  fi
done
# A passing run leaves nothing behind unless the caller chose the directory.
if [ "$status" -eq 0 ] && [ -z "${PLAYHEAD_LIBFUZZER_DIR:-}" ]; then rm -rf "$work"; fi
exit "$status"
