#!/usr/bin/env bash
# Checks the OSS-Fuzz / ClusterFuzzLite build on this machine, without Docker: what
# `infra/helper.py build_fuzzers` and `run_fuzzer` do with gcr.io/oss-fuzz-base/base-builder-swift.
#
#   Fuzz/oss-fuzz/verify.sh [seconds] [Fuzzer...]      (default: 30, every …Fuzzer built)
#
# 1. Sets the image's environment: SRC (the repository's parent), OUT and WORK (fresh
#    directories), SANITIZER (address unless set; thread and coverage also build),
#    FUZZING_ENGINE=libfuzzer, ARCHITECTURE=x86_64, CFLAGS and CXXFLAGS as the image's
#    `compile` sets them for the sanitizer, and SWIFTFLAGS exactly as precompile_swift
#    computes them from those (this machine's toolchain, /opt/swift, on PATH).
# 2. Runs .clusterfuzzlite/build.sh (the script OSS-Fuzz and ClusterFuzzLite run) and checks
#    that $OUT holds PlayerFuzzer, ScenarioFuzzer and FilesFuzzer, each with its seed corpus
#    zip, the scenario and files fuzzers with their .dict and .options, and EngineFuzzer.
# 3. Runs every …Fuzzer in $OUT (or those named) from its seed corpus with its .dict and the
#    flags of its .options (as ClusterFuzz passes them): PlayerFuzzer for `seconds`, the others
#    half as long (at least 1 s) when none is named, each named one for `seconds`.
#
# A crash prints the fuzzer's log and `Reproduce with: <fuzzer> <input>`, keeps the work
# directory and exits 1; bad usage exits 2. Environment: PLAYHEAD_LIBFUZZER_DIR (work
# directory, kept; default a temp directory removed after a pass), PLAYHEAD_LIBFUZZER_JOBS
# (parallel fuzzing processes per fuzzer, default 1), PLAYHEAD_LIBFUZZER_PARALLEL (fuzzers run
# at once, default 1; .ci/run runs two, on a machine whose other core is free by then),
# PLAYHEAD_FUZZ_CONFIGURATION and
# PLAYHEAD_FUZZ_SCRATCH (passed to build.sh: debug or release, SwiftPM scratch path).
set -euo pipefail
cd "$(dirname "$0")/../.."
root="$PWD"
[ -d /opt/swift/usr/bin ] && export PATH="/opt/swift/usr/bin:$PATH"

seconds="${1:-30}"
[ "$#" -gt 0 ] && shift
case "$seconds" in ''|*[!0-9]*|0)
  echo "verify.sh: seconds must be a whole number above 0, got '$seconds'" >&2; exit 2 ;;
esac
named=("$@")
for fuzzer in "${named[@]}"; do
  case "$fuzzer" in *Fuzzer) ;; *)
    echo "verify.sh: fuzzers are named like PlayerFuzzer (an executable product of Fuzz/FuzzTesting), got '$fuzzer'" >&2
    exit 2 ;;
  esac
done
jobs="${PLAYHEAD_LIBFUZZER_JOBS:-1}"
case "$jobs" in ''|*[!0-9]*|0) echo "verify.sh: PLAYHEAD_LIBFUZZER_JOBS must be a whole number above 0, got '$jobs'" >&2; exit 2 ;; esac

# 1. The base image's environment.
work_root="${PLAYHEAD_LIBFUZZER_DIR:-$(mktemp -d /tmp/playhead-oss-fuzz.XXXXXX)}"
mkdir -p "$work_root/out" "$work_root/work"
export SRC
SRC="$(dirname "$root")"
export OUT="$work_root/out" WORK="$work_root/work"
export SANITIZER="${SANITIZER:-address}" FUZZING_ENGINE=libfuzzer ARCHITECTURE=x86_64
common="-O1 -fno-omit-frame-pointer -gline-tables-only -DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION"
case "$SANITIZER" in
  address) sanitizer_flags="-fsanitize=address -fsanitize-address-use-after-scope" ;;
  thread) sanitizer_flags="-fsanitize=thread" ;;
  coverage) sanitizer_flags="-fprofile-instr-generate -fcoverage-mapping" ;;
  *) echo "verify.sh: SANITIZER must be address, thread or coverage (what OSS-Fuzz builds for Swift), got '$SANITIZER'" >&2; exit 2 ;;
esac
coverage_flags="-fsanitize=fuzzer-no-link"
[ "$SANITIZER" = coverage ] && coverage_flags=""
export CFLAGS="$common $sanitizer_flags $coverage_flags"
export CXXFLAGS="$CFLAGS -stdlib=libc++"

# precompile_swift, as in google/oss-fuzz infra/base-images/base-builder-swift (the
# symbolizer it copies is the toolchain's here).
[ -x /opt/swift/usr/bin/llvm-symbolizer ] && cp /opt/swift/usr/bin/llvm-symbolizer "$OUT/llvm-symbolizer"
SWIFTFLAGS="-Xswiftc -parse-as-library -Xswiftc -static-stdlib --static-swift-stdlib"
if [ "$SANITIZER" = "coverage" ]; then
  SWIFTFLAGS="$SWIFTFLAGS -Xswiftc -profile-generate -Xswiftc -profile-coverage-mapping -Xswiftc -sanitize=fuzzer"
else
  SWIFTFLAGS="$SWIFTFLAGS -Xswiftc -sanitize=fuzzer,$SANITIZER --sanitize=$SANITIZER"
  for f in $CFLAGS; do SWIFTFLAGS="$SWIFTFLAGS -Xcc=$f"; done
  for f in $CXXFLAGS; do SWIFTFLAGS="$SWIFTFLAGS -Xcxx=$f"; done
fi
export SWIFTFLAGS

# 2. The build, as `compile` runs it: from the repository's root (the Dockerfile's WORKDIR).
started=$(date +%s)
echo "verify: SANITIZER=$SANITIZER FUZZING_ENGINE=$FUZZING_ENGINE OUT=$OUT"
echo "verify: SWIFTFLAGS=$SWIFTFLAGS"
if ! bash .clusterfuzzlite/build.sh >"$WORK/build.log" 2>&1; then
  tail -n 60 "$WORK/build.log" >&2
  echo "verify: FAILED: .clusterfuzzlite/build.sh did not build (log above, whole in $WORK/build.log)" >&2
  exit 1
fi
grep '^build.sh: ' "$WORK/build.log"
echo "verify: built in $(( $(date +%s) - started )) s"

missing=()
for expected in PlayerFuzzer:seed_corpus.zip ScenarioFuzzer:seed_corpus.zip ScenarioFuzzer.dict \
  ScenarioFuzzer.options FilesFuzzer:seed_corpus.zip FilesFuzzer.dict FilesFuzzer.options \
  EngineFuzzer; do
  fuzzer="${expected%%[:.]*}"
  [ -x "$OUT/$fuzzer" ] || missing+=("$fuzzer (executable)")
  case "$expected" in
    *:*) [ -s "$OUT/${fuzzer}_${expected#*:}" ] || missing+=("${fuzzer}_${expected#*:}") ;;
    *) [ -s "$OUT/$expected" ] || missing+=("$expected") ;;
  esac
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "verify: FAILED: build.sh left out of $OUT: $(printf '%s\n' "${missing[@]}" | sort -u | paste -sd, -)" >&2
  exit 1
fi

# 3. Run each fuzzer.
fuzzers=("${named[@]}")
if [ "${#fuzzers[@]}" -eq 0 ]; then
  while IFS= read -r path; do fuzzers+=("$(basename "$path")"); done \
    < <(find "$OUT" -maxdepth 1 -type f -perm -u+x -name '*Fuzzer' | sort)
fi
status=0
# One fuzzer's run: prints what it found (or its log's tail), and returns 1 when it failed.
run_fuzzer() {
  local fuzzer="$1" fuzzer_seconds="$2" corpus="$WORK/corpus-$1" artifacts="$WORK/artifacts-$1"
  local flags=() code=0 crash
  mkdir -p "$corpus" "$artifacts"
  [ -f "$OUT/${fuzzer}_seed_corpus.zip" ] && unzip -q -o "$OUT/${fuzzer}_seed_corpus.zip" -d "$corpus"
  [ -f "$OUT/$fuzzer.dict" ] && flags+=("-dict=$OUT/$fuzzer.dict")
  if [ -f "$OUT/$fuzzer.options" ]; then
    # The [libfuzzer] section's `key = value` lines, as -key=value.
    while IFS= read -r flag; do flags+=("$flag"); done < <(awk '
      /^[[:space:]]*\[/ { section = $0; gsub(/[][[:space:]]/, "", section); next }
      section == "libfuzzer" && /=/ && !/^[[:space:]]*#/ {
        split($0, kv, "="); gsub(/[[:space:]]/, "", kv[1]); gsub(/[[:space:]]/, "", kv[2])
        print "-" kv[1] "=" kv[2]
      }' "$OUT/$fuzzer.options")
  fi
  [ "$jobs" -gt 1 ] && flags+=("-jobs=$jobs" "-workers=$jobs")
  echo "verify: running $fuzzer for $fuzzer_seconds s ($(ls "$corpus" | wc -l) seeds; ${flags[*]:-no flags})"
  # Run inside a directory of its own: with -jobs, libFuzzer writes fuzz-N.log to the current
  # directory, and fuzzers may run side by side.
  mkdir -p "$WORK/run-$fuzzer"
  (cd "$WORK/run-$fuzzer" && "$OUT/$fuzzer" -max_total_time="$fuzzer_seconds" -print_final_stats=1 \
    -artifact_prefix="$artifacts/" "${flags[@]}" "$corpus" >"$WORK/$fuzzer.log" 2>&1) || code=$?
  if [ "$code" -eq 0 ]; then
    { echo "verify: $fuzzer passed"
      grep -E "^(stat::number_of_executed_units|stat::average_exec_per_sec|stat::new_units_added)" \
        "$WORK/$fuzzer.log" | sed "s/^/  /" || tail -n 5 "$WORK/$fuzzer.log"; }
    return 0
  fi
  tail -n 80 "$WORK/$fuzzer.log" >&2
  crash="$(find "$artifacts" -type f | head -n 1)"
  if [ -n "$crash" ]; then
    echo "verify: FAILED: $fuzzer exited with status $code and saved the input (log: $WORK/$fuzzer.log). Reproduce with:" >&2
    echo "  $OUT/$fuzzer $crash" >&2
  else
    echo "verify: FAILED: $fuzzer exited with status $code before fuzzing (no input saved; log: $WORK/$fuzzer.log)" >&2
  fi
  return 1
}
# PLAYHEAD_LIBFUZZER_PARALLEL fuzzers run at once (1 by default); each one's output is shown
# when it ends, whole. The longest (PlayerFuzzer, `seconds`) starts first.
parallel="${PLAYHEAD_LIBFUZZER_PARALLEL:-1}"
case "$parallel" in ''|*[!0-9]*|0) echo "verify.sh: PLAYHEAD_LIBFUZZER_PARALLEL must be a whole number above 0, got '$parallel'" >&2; exit 2 ;; esac
ordered=()
for fuzzer in "${fuzzers[@]}"; do [ "$fuzzer" = PlayerFuzzer ] && ordered+=("$fuzzer"); done
for fuzzer in "${fuzzers[@]}"; do [ "$fuzzer" != PlayerFuzzer ] && ordered+=("$fuzzer"); done
declare -A running=()  # pid -> fuzzer
# Waits for whichever run ends first, shows its output and adds its verdict to `status`
# (`wait -n -p`: bash 5.1).
finish_one() {
  local pid code=0
  wait -n -p pid "${!running[@]}" || code=$?
  cat "$WORK/${running[$pid]}.out"
  unset "running[$pid]"
  [ "$code" -eq 0 ] || status=1
}
for fuzzer in "${ordered[@]}"; do
  if [ ! -x "$OUT/$fuzzer" ]; then
    echo "verify: FAILED: no $fuzzer in $OUT (built: $(cd "$OUT" && ls -- *Fuzzer | paste -sd' ' -))" >&2
    status=1
    continue
  fi
  fuzzer_seconds="$seconds"
  if [ "${#named[@]}" -eq 0 ] && [ "$fuzzer" != PlayerFuzzer ]; then
    fuzzer_seconds=$(( seconds / 2 > 0 ? seconds / 2 : 1 ))
  fi
  [ "${#running[@]}" -ge "$parallel" ] && finish_one
  run_fuzzer "$fuzzer" "$fuzzer_seconds" >"$WORK/$fuzzer.out" 2>&1 &
  running[$!]="$fuzzer"
done
while [ "${#running[@]}" -gt 0 ]; do finish_one; done
if [ "$status" -eq 0 ]; then
  echo "verify: passed in $(( $(date +%s) - started )) s (${fuzzers[*]})"
  [ -z "${PLAYHEAD_LIBFUZZER_DIR:-}" ] && rm -rf "$work_root"
fi
exit "$status"
