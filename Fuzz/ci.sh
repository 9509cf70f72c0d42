#!/usr/bin/env bash
# The fuzz part of CI, called by .ci/run from the repository root (which has built player-sim in
# release by then; this script builds it otherwise). `Fuzz/ci.sh threads`: the multi-threaded
# campaign alone; `Fuzz/ci.sh libfuzzer`: step 2 alone. .ci/run runs this script with
# PLAYHEAD_LIBFUZZER_SECONDS=0 (step 1 and the proofs) in the background after its release
# build, beside the ASan tests, the examples, the TSan tests and `Fuzz/ci.sh libfuzzer`.
#
#   1. CampaignTests' campaign, in release player-sim (none of it in debug since 2026-12-03):
#      property tests of Playhead's Player with fixed seeds, 100,000 cases each
#      (PLAYHEAD_FUZZ_CASES: a count, not seconds, so that the coverage it must
#      reach is the same on any machine), requiring every declared transition and every
#      available (state × event × variant) to be exercised: `player-sim fuzz --seed S --budget
#      100000 --require-coverage`, one process a seed side by side (randomRunsWithFullCoverage's
#      cases and verdict; 16.6 CPU-s in release against about 195 in debug); every sequence of at
#      most 3 events, `player-sim explore --depth 3` (exhaustiveExploration: with the queue's
#      alphabet no fixpoint, bounded; 1 CPU-s); the multi-threaded mode, `player-sim fuzz
#      --threads 4 --rounds 200 --seed S` (threadsAtOnce: 200 rounds of 4 threads, 500 events a
#      thread). Its senders meet at a barrier after every event and line up before the next; since
#      2026-12-03 a sender that has spun 1,000 turns yields its core to the ones still to line
#      up, where it spun up to 20,000 turns holding it: 200 rounds in release, this 2-core
#      machine at load 5, 53 CPU-s and 34 s (were 163 CPU-s and 380 s at load 7). `Fuzz/ci.sh
#      threads` runs only it; PLAYHEAD_FUZZ_THREADS=0 leaves it out of this script.
#   2. libFuzzer: Fuzz/oss-fuzz/verify.sh builds the fuzzing package Fuzz/FuzzTesting
#      exactly as OSS-Fuzz and ClusterFuzzLite do (.clusterfuzzlite/build.sh with
#      precompile_swift's SWIFTFLAGS: -sanitize=fuzzer,address, static Swift runtime),
#      checks every fuzzer, seed corpus, dictionary and options file is in $OUT, and runs
#      the player for PLAYHEAD_LIBFUZZER_SECONDS and every other fuzzer half that
#
# Long campaigns: PLAYHEAD_FUZZ_CASES (cases per seed, default 100000; set it empty to
# run for PLAYHEAD_FUZZ_BUDGET seconds instead), PLAYHEAD_FUZZ_BUDGET (seconds per seed, default 60),
# PLAYHEAD_FUZZ_SEEDS (seeds run at once, default 2), PLAYHEAD_FUZZ_SEED (first
# seed, default 1), PLAYHEAD_LIBFUZZER_SECONDS (per target, default half the
# budget; 0 skips libFuzzer), PLAYHEAD_LIBFUZZER_JOBS, PLAYHEAD_FUZZ_CONFIGURATION
# (the fuzzers' build: debug, the default, or release), PLAYHEAD_FUZZ_THREADS (0 leaves the
# multi-threaded campaign to `Fuzz/ci.sh threads`; 1, the default, runs it). PLAYHEAD_FUZZ_SCRATCH sets
# --scratch-path (the fuzzing package builds under its fuzz-testing subdirectory).
#
# Sharded (a CI matrix, docs/fuzzing.md "Fuzzing at scale"): PLAYHEAD_FUZZ_SHARD=I/N
# replaces step 1 by `player-sim fuzz --seed PLAYHEAD_FUZZ_SEED --shard I/N --budget
# PLAYHEAD_FUZZ_BUDGET s --require-coverage`, the cases whose index is I modulo N, so N jobs
# with the same seed share no case; player-sim is built with
# PLAYHEAD_FUZZ_SHARD_CONFIGURATION (release by default). libFuzzer is then skipped unless
# PLAYHEAD_LIBFUZZER_SECONDS is set (continuous libFuzzer is ClusterFuzzLite's job).
set -euo pipefail
cd "$(dirname "$0")/.."
[ -d /opt/swift/usr/bin ] && export PATH="/opt/swift/usr/bin:$PATH"

budget="${PLAYHEAD_FUZZ_BUDGET:-60}"
seeds="${PLAYHEAD_FUZZ_SEEDS:-2}"
cases="${PLAYHEAD_FUZZ_CASES-100000}"
case "$cases" in *[!0-9]*) echo "fuzz: PLAYHEAD_FUZZ_CASES must be a whole number or empty, got '$cases'" >&2; exit 2 ;; esac
seed="${PLAYHEAD_FUZZ_SEED:-1}"
shard="${PLAYHEAD_FUZZ_SHARD:-}"
if [ -n "$shard" ]; then
  libfuzzer_seconds="${PLAYHEAD_LIBFUZZER_SECONDS:-0}"
else
  libfuzzer_seconds="${PLAYHEAD_LIBFUZZER_SECONDS:-$(( ${budget%.*} / 2 ))}"
fi
case "$libfuzzer_seconds" in ''|*[!0-9]*) echo "fuzz: PLAYHEAD_LIBFUZZER_SECONDS must be a whole number, got '$libfuzzer_seconds'" >&2; exit 2 ;; esac
scratch=()
[ -n "${PLAYHEAD_FUZZ_SCRATCH:-}" ] && scratch=(--scratch-path "$PLAYHEAD_FUZZ_SCRATCH")
threads="${PLAYHEAD_FUZZ_THREADS:-1}"
case "$threads" in 0|1) ;; *) echo "fuzz: PLAYHEAD_FUZZ_THREADS must be 0 or 1, got '$threads'" >&2; exit 2 ;; esac
part="${1:-all}"
case "$part" in all|threads|libfuzzer) ;; *) echo "fuzz: expected no argument, 'threads' or 'libfuzzer', got '$part'" >&2; exit 2 ;; esac
started=$(date +%s)

# Builds player-sim in release (nothing to do when .ci/run built it) and sets $bin.
release_player_sim() {
  local build=(swift build "${scratch[@]}" -c release --product player-sim)
  if ! "${build[@]}" 2>&1 | { grep -vE '^\[[0-9]+/[0-9]+\]' || true; }; then
    echo "fuzz: building player-sim (release) failed: ${build[*]}" >&2
    exit 1
  fi
  bin="$(swift build "${scratch[@]}" -c release --show-bin-path)"
}
# Runs one player-sim command (release); prints its output, and the command to reproduce it if it fails.
campaign() {
  local out status=0
  out="$("$bin/player-sim" "$@" --quiet 2>&1)" || status=$?
  echo "$out"
  if [ "$status" -ne 0 ]; then
    echo "fuzz: FAILED (exit $status, the output above). Reproduce with:" >&2
    echo "  swift run -c release player-sim $*" >&2
    return 1
  fi
}
# CampaignTests/threadsAtOnce in release: ConcurrentFuzz.run(seed: S, rounds: 200, threads: 4,
# eventsPerThread: 500). `Fuzz/ci.sh threads` runs only this.
threads_campaign() {
  echo "fuzz: 200 rounds of 4 threads at once (player-sim fuzz --threads 4 --rounds 200 --seed $seed, release)"
  campaign fuzz --threads 4 --rounds 200 --seed "$seed"
}
# Step 2, libFuzzer (`Fuzz/ci.sh libfuzzer` runs only it; .ci/run: at its end).
libfuzzer() {
  echo "fuzz: libFuzzer, the OSS-Fuzz build (Fuzz/oss-fuzz/verify.sh): $libfuzzer_seconds s for the player, half that for each other fuzzer"
  if ! Fuzz/oss-fuzz/verify.sh "$libfuzzer_seconds"; then
    echo "fuzz: libFuzzer FAILED (the crashing input and its replay command are printed above). Reproduce the step with:" >&2
    echo "  Fuzz/oss-fuzz/verify.sh $libfuzzer_seconds" >&2
    exit 1
  fi
}
if [ "$part" = libfuzzer ]; then
  if [ "$libfuzzer_seconds" -eq 0 ]; then
    echo "fuzz: libFuzzer skipped (PLAYHEAD_LIBFUZZER_SECONDS=0)"
    exit 0
  fi
  libfuzzer
  echo "fuzz: libFuzzer passed in $(( $(date +%s) - started )) s"
  exit 0
fi
if [ "$part" = threads ]; then
  release_player_sim
  threads_campaign || exit 1
  echo "fuzz: the multi-threaded campaign passed in $(( $(date +%s) - started )) s"
  exit 0
fi

if [ -n "$shard" ]; then
  configuration="${PLAYHEAD_FUZZ_SHARD_CONFIGURATION:-release}"
  case "$configuration" in debug|release) ;; *) echo "fuzz: PLAYHEAD_FUZZ_SHARD_CONFIGURATION must be debug or release, got '$configuration'" >&2; exit 2 ;; esac
  echo "fuzz: seed $seed, shard $shard, $budget s (player-sim, $configuration)"
  build=(swift build "${scratch[@]}" -c "$configuration" --product player-sim)
  if ! "${build[@]}" 2>&1 | { grep -vE '^\[[0-9]+/[0-9]+\]' || true; }; then
    echo "fuzz: building player-sim failed: ${build[*]}" >&2
    exit 1
  fi
  bin="$(swift build "${scratch[@]}" -c "$configuration" --show-bin-path)"
  run=(fuzz --seed "$seed" --shard "$shard" --budget "${budget}s" --require-coverage --quiet)
  status=0
  "$bin/player-sim" "${run[@]}" || status=$?
  if [ "$status" -eq 2 ]; then
    echo "fuzz: bad PLAYHEAD_FUZZ_SHARD, PLAYHEAD_FUZZ_SEED or PLAYHEAD_FUZZ_BUDGET (the error is above)" >&2
    exit 2
  elif [ "$status" -ne 0 ]; then
    echo "fuzz: FAILED. Reproduce the shard with:" >&2
    echo "  swift run -c $configuration player-sim ${run[*]}" >&2
    echo "  (a broken property also printed 'replay this case alone: …' above: that one case, no shard)" >&2
    exit 1
  fi
else
  # 1a. The random runs, in release: `player-sim fuzz --seed S --budget N --require-coverage` is
  # Fuzzer.run(.player, FuzzConfiguration(seed: S, budget: .cases(N), requireFullCoverage: true)),
  # what CampaignTests/randomRunsWithFullCoverage runs (same cases, same oracle, same coverage
  # required; the sources have no assert or #if DEBUG, so debug checks nothing more), about ten
  # times faster. One process a seed, side by side, as the test ran one thread a seed.
  # The release build is the one the explorer (below) and Benchmarks/ci.sh use.
  if [ -n "$cases" ]; then each="$cases cases"; per="$cases"; else each="$budget s"; per="${budget}s"; fi
  last=$(( seed + seeds - 1 ))
  echo "fuzz: random runs, seeds $seed..$last, $each each, full coverage required (player-sim fuzz, release)"
  release_player_sim
  pids=()
  logs=()
  for ((s = seed; s <= last; s++)); do
    logs+=("$(mktemp /tmp/playhead-fuzz-seed.XXXXXX)")
    "$bin/player-sim" fuzz --seed "$s" --budget "$per" --require-coverage --quiet >"${logs[-1]}" 2>&1 &
    pids+=($!)
  done
  failed=()
  for i in "${!pids[@]}"; do
    status=0
    wait "${pids[$i]}" || status=$?
    cat "${logs[$i]}"
    rm -f "${logs[$i]}"
    [ "$status" -eq 0 ] || failed+=("$(( seed + i ))")
  done
  if [ "${#failed[@]}" -gt 0 ]; then
    echo "fuzz: random runs FAILED (seed ${failed[*]}; the output is above). Reproduce with:" >&2
    for s in "${failed[@]}"; do
      echo "  swift run -c release player-sim fuzz --seed $s --budget $per --require-coverage" >&2
    done
    echo "  (a broken property also printed 'replay this case alone: …' above: that one case)" >&2
    exit 1
  fi

  # 1b. The rest of CampaignTests, in the same release player-sim (until 2026-12-03 in the debug
  # build, by swift test): exhaustiveExploration is `explore --depth 3` (Explorer.explore(.player,
  # maxDepth: 3); fails on a counterexample) and threadsAtOnce is `fuzz --threads 4 --rounds 200
  # --seed S` (ConcurrentFuzz.run(seed: S, rounds: 200, threads: 4, eventsPerThread: 500); fails on
  # a violation). fixedWorkAgainstThePlayer is a measurement that would run seed 1's first cases
  # again: it proves nothing more.
  echo "fuzz: every sequence of at most 3 events (player-sim explore --depth 3, release)"
  campaign explore --depth 3 || exit 1
  if [ "$threads" = 1 ]; then
    threads_campaign || exit 1
  else
    echo "fuzz: the multi-threaded campaign is not run here (PLAYHEAD_FUZZ_THREADS=0; .ci/run runs Fuzz/ci.sh threads)"
  fi
fi

# --- Complete small-scope exploration (issue 21, item 1; Fuzz/Sources/PlayerFuzz/Exploration).
# Proofs that must hold (release player-sim, every configuration class of their features, to a
# fixpoint; reports delivered as sent but in the last); each must print `complete for …` or CI fails:
#   explore --entries 1 --held 1 --features network,restore     the single-item core and the
#                                                                network, all 8 retry × threshold
#                                                                classes, with relaunch and
#                                                                hand-off, a report held back
#                                                                (one at a time)        (~155 CPU-s)
#   explore --entries 1 --held 0 --features controls,restore    + the remote controls,
#                                                                relaunch and hand-off   (~6 CPU-s)
#   explore --entries 1 --held 0 --features sleepTimer,restore  + the sleep timer, the same (~40 CPU-s)
#   explore --entries 2 --held 0 --features queue,restore       two entries, the queue  (~164 CPU-s)
#   explore --entries 1 --held 0 --features volume,restore      volume, mute and ducking (issue
#                                                                37): both thresholds × both duck
#                                                                policies (lower 0.2, pause), with
#                                                                relaunch and hand-off (50,688
#                                                                states, ~40 CPU-s; it contains
#                                                                `--features volume`, 50,368)
#   explore --entries 1 --held 0 --features fade                fades (issue 37, item 2): the
#                                                                pause, resume and stop fades, their
#                                                                timers, stale expiries (4,500
#                                                                states, ~4 CPU-s)
#   explore --entries 1 --held 0 --features volume,fade,restore fades with volume, mute and ducks,
#                                                                relaunch and hand-off (71,040
#                                                                states, ~59 CPU-s; volume,restore
#                                                                stays: it pauses without fades)
#   explore --entries 1 --held 0 --features crossfade           crossfade (issue 37, item 3) at
#                                                                one entry, with the preloading
#                                                                classes it brings: its letters, the
#                                                                leaving load's end, failure and
#                                                                timer (7,416 states, ~6 CPU-s; a
#                                                                crossfade itself needs two entries:
#                                                                `--entries 2 --held 0 --features
#                                                                queue,crossfade`, complete, 521,136
#                                                                states, 847 CPU-s, 61 MB, runs by
#                                                                hand or in the sharded workflow;
#                                                                CI runs it bounded below)
#   explore --entries 1 --held 0 --features live                live and DVR streams (issue 38) at
#                                                                one entry: the windows (DVR, live,
#                                                                slid, jumped back, bad), goToLive,
#                                                                the engine's behindLiveWindow, the
#                                                                fall-behind reload at the edge and
#                                                                the rate at the edge (13,280
#                                                                states, ~11 CPU-s, 36 MB)
#   explore --entries 1 --held 0 --features controls \
#     --reach atDuration,nearExhaustion                          the remote controls with a
#                                                                setPosition exactly at the
#                                                                duration, from a new player and
#                                                                from two start states with ids
#                                                                one or two short of their last
#                                                                (12,328 states, ~8 CPU-s)
# and, bounded, `explore --entries 2 --held 0 --features queue,crossfade --depth 6 --shard 2/4`:
# every sequence of at most 6 letters over two entries in the crossfade class with the 0 ms
# threshold and the 1 s watchdog (a crossfade starts at the fourth letter: a queue, two readies,
# a position in the window; 38,588 states, ~20 CPU-s; the complete search of the scope is the
# 847 CPU-s above), in the background group;
# and, bounded (every sequence of at most 5 letters, no fixpoint: the complete search takes
# minutes a class), `explore --entries 2 --held 0 --features queue --reach
# removeBefore,shuffleDraw --depth 5`: two entries and the two three-entry letters, a removal
# before the current entry with one after it and a shuffle that draws (33,648 states, ~13
# CPU-s; it must end `bounded`, exit 3, with no property broken). Issue 39, item 3: the
# explorer's reach (docs/fuzzing.md, "What the explorer reaches beyond its letters").
# (each step's ignore reasons and notifications compared since 2026-12-03 evening; the restore
# rows contain the ones without it, which ran here before. A complete search over an alphabet
# checks every sequence over a part of it within the same scope and class: `--features none`
# (3,532 states, 4 CPU-s), which ran first until 2026-12-03 night, is within both of the first
# two rows. The network row, since then, proves the retry classes other than `off` (1 attempt,
# cap reached, standard) in release: CompleteExplorationTests, which searched four classes with
# a report held back in debug (80 CPU-s), now searches one.)
# (The held-report row, since 2026-12-03 late night, is the first in CI with a late report: the
# race Playhead exists to prevent. It contains `--held 1 --features none`, 41,016 states, 44
# CPU-s; `controls` with a held report takes 75 CPU-s, `system` 133, so they are not run.
# Since 2026-12-04 the network row holds a report back too: late backoff expiries, watchdogs
# and engine reports against every retry class, 193,440 states, where `--held 0` (which it
# contains: every sequence that holds nothing back) had 14,512 and 18 CPU-s. Later that day it
# took restore's letters in as well, `--held 1 --features network,restore` (214,576 states,
# 155 CPU-s): it contains both that row and the held-report row with restore, `--held 1
# --features restore` (45,772 states, 40 s), which ran last in the background until then, for
# the CPU the two took, and proves their letters interleaved: a relaunch or a hand-off while a
# backoff is pending or a report is held.)
# (CPU-s measured 2026-12-03 on this 2-core machine, volume's 2026-12-07; docs/fuzzing.md,
# "Exploration".) The network, controls and reach rows run here; sleepTimer, queue and volume
# run one after the other in the background, beside the libFuzzer step below (one libFuzzer
# process at a time; .ci/run runs this script without it, beside its own tests), their verdict
# judged after it (finish_explore). PLAYHEAD_EXPLORE_SECONDS bounds each search (default 900; a search that
# runs out of time is not complete and fails CI); 0 skips the exploration.
explore_seconds="${PLAYHEAD_EXPLORE_SECONDS:-900}"
case "$explore_seconds" in ''|*[!0-9]*) echo "fuzz: PLAYHEAD_EXPLORE_SECONDS must be a whole number, got '$explore_seconds'" >&2; exit 2 ;; esac
# Runs one proof (its explore arguments), prints its verdict; returns non-zero with the command
# to reproduce it unless the search says `complete`.
prove() {
  local out status=0
  out="$("$explore_bin/player-sim" explore "$@" --seconds "$explore_seconds" --quiet 2>&1)" || status=$?
  echo "fuzz: explore $*:"
  echo "$out" | grep -v '^  [a-z]* --' || true
  if [ "$status" -ne 0 ] || ! grep -q '^complete for queues' <<<"$out"; then
    echo "fuzz: explore $* is not complete (exit $status; a property broke, the snapshot is unsound, or time ran out). Reproduce with:" >&2
    echo "  swift run -c release player-sim explore $*" >&2
    return 1
  fi
}
# Runs one bounded proof (its explore arguments, with --depth): every sequence up to the depth,
# no fixpoint; it must end `bounded` (exit 3) with no property broken.
prove_bounded() {
  local out status=0
  out="$("$explore_bin/player-sim" explore "$@" --quiet 2>&1)" || status=$?
  echo "fuzz: explore $* (bounded):"
  echo "$out" | grep -E '^(total|not complete|complete)' || true
  if [ "$status" -ne 3 ]; then
    echo "fuzz: explore $* did not end bounded (exit $status; 1: a property broke). Reproduce with:" >&2
    echo "  swift run -c release player-sim explore $*" >&2
    return 1
  fi
}
if [ "$explore_seconds" -gt 0 ]; then
  if ! swift build "${scratch[@]}" -c release --product player-sim 2>&1 | { grep -vE '^\[[0-9]+/[0-9]+\]' || true; }; then
    echo "fuzz: building player-sim (release) failed" >&2
    exit 1
  fi
  explore_bin="$(swift build "${scratch[@]}" -c release --show-bin-path)"
  # These proofs run beside the ones below from the start (since 2026-12-07: they waited for
  # them, 213 s after 350 s, and were the last thing CI waited for): two searches at a time,
  # one on each core once the rest of CI is done.
  explore_log="$(mktemp /tmp/playhead-fuzz-explore.XXXXXX)"
  (
    prove --entries 1 --held 0 --features sleepTimer,restore \
      && prove --entries 2 --held 0 --features queue,restore \
      && prove --entries 1 --held 0 --features volume,restore \
      && prove --entries 1 --held 0 --features fade \
      && prove --entries 1 --held 0 --features volume,fade,restore \
      && prove --entries 1 --held 0 --features crossfade \
      && prove --entries 1 --held 0 --features live \
      && prove_bounded --entries 2 --held 0 --features queue,crossfade --depth 6 --shard 2/4
  ) >"$explore_log" 2>&1 &
  explore_pid=$!
  trap '[ -z "${explore_pid:-}" ] || kill "$explore_pid" 2>/dev/null || true; rm -f "$explore_log"' EXIT
  prove --entries 1 --held 1 --features network,restore || exit 1
  prove --entries 1 --held 0 --features controls,restore || exit 1
  prove --entries 1 --held 0 --features controls --reach atDuration,nearExhaustion || exit 1
  prove_bounded --entries 2 --held 0 --features queue --reach removeBefore,shuffleDraw --depth 5 \
    || exit 1
fi

# Waits for the proofs started in the background above and judges them (nothing if skipped).
finish_explore() {
  [ -n "${explore_pid:-}" ] || return 0
  local explore_status=0
  wait "$explore_pid" || explore_status=$?
  explore_pid=""
  cat "$explore_log"
  rm -f "$explore_log"
  if [ "$explore_status" -ne 0 ]; then
    echo "fuzz: exploration FAILED (the verdict and the command to reproduce it are above)" >&2
    exit 1
  fi
}
# --- end of exploration (finish_explore judges the proofs run in the background)

if [ "$libfuzzer_seconds" -gt 0 ]; then
  libfuzzer
elif [ -z "$shard" ]; then
  echo "fuzz: libFuzzer is not run here (PLAYHEAD_LIBFUZZER_SECONDS=0; .ci/run runs it as Fuzz/ci.sh libfuzzer)"
fi
finish_explore
echo "fuzz: passed in $(( $(date +%s) - started )) s"
