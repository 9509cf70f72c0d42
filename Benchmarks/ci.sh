#!/usr/bin/env bash
# CI for the benchmarks: builds player-bench in release and runs it in smoke
# mode, so that it cannot rot. Not a timing run: smoke sizes are tiny and CI
# machines are noisy; the figures come from Benchmarks/run.sh.
# In .ci/run the release build has already run (in the background, warnings checked there),
# so the build below finds player-bench built and prints no warning again.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -d /opt/swift/usr/bin ] && export PATH="/opt/swift/usr/bin:$PATH"
scratch="${SCRATCH:-.build}"
log="$(mktemp)"
errors="$(mktemp)"
trap 'rm -f "$log" "$errors"' EXIT

swift build -c release --scratch-path "$scratch" --product player-bench 2>&1 | tee "$log"
if grep -E "^/.*: warning: " "$log"; then
  echo "Benchmarks/ci.sh: the release build printed warnings (listed above)." >&2
  exit 1
fi
bin="$(swift build -c release --scratch-path "$scratch" --show-bin-path)/player-bench"

json="$("$bin" --smoke --json)"
echo "$json"
if command -v python3 >/dev/null; then
  python3 -c 'import json, sys; json.load(sys.stdin)' <<<"$json" \
    || { echo "Benchmarks/ci.sh: --json did not print valid JSON." >&2; exit 1; }
fi
for key in reducer_events_per_second reducer_allocations_per_event driver_events_per_second \
  driver_events_per_second_8_threads naive_events_per_second fuzz_checked_events_per_second \
  fuzz_checked_events_per_second_all_cores fuzz_jobs \
  state_size_bytes event_size_bytes fuzz_buggy_players driver_8_threads_lost_events \
  reducer_in_place_events_per_second reducer_over_naive reducer_in_place_over_naive \
  queue_reducer_events_per_second queue_reducer_in_place_events_per_second \
  queue_driver_events_per_second queue_auto_advances queue_gapless_advances \
  load_size_bytes session_size_bytes queue_size_bytes \
  crossfade_reducer_events_per_second crossfade_reducer_in_place_events_per_second \
  crossfade_driver_events_per_second crossfade_starts \
  live_reducer_events_per_second live_reducer_in_place_events_per_second \
  live_driver_events_per_second live_window_reports; do
  if ! grep -q "\"$key\":" <<<"$json"; then
    echo "Benchmarks/ci.sh: the JSON has no \"$key\"." >&2
    exit 1
  fi
done
if ! grep -q '"driver_8_threads_lost_events": 0,' <<<"$json"; then
  echo "Benchmarks/ci.sh: the 8-thread driver lost events." >&2
  exit 1
fi
if ! grep -q '"fuzz_status": "measured",' <<<"$json"; then
  echo "Benchmarks/ci.sh: the fuzz figures were not measured." >&2
  exit 1
fi
# Issue 9: reports, position reports and timers never allocate, on either stream (intents that
# edit the queue may). Each class is counted event by event through transition(on:).
for key in reducer_report reducer_timer queue_report queue_position queue_timer; do
  if ! grep -q "\"${key}_allocations_per_event\": 0," <<<"$json"; then
    echo "Benchmarks/ci.sh: ${key}_allocations_per_event is not 0: a ${key#*_} allocated." >&2
    exit 1
  fi
done
# Issue 37: a crossfade adds no allocation per report. On the crossfade stream, reduced both ways
# (transition(on:) and in place), the position reports that start a crossfade, every other
# position report, report, timer and system event allocate nothing; through the driver too,
# but for the steps that arm a timer, the starts among them (the driver hands a closure to its
# clock for each timer), which are counted apart.
for key in crossfade_start crossfade_position crossfade_report crossfade_timer crossfade_system \
  crossfade_in_place_start crossfade_in_place_position crossfade_in_place_report \
  crossfade_in_place_timer crossfade_in_place_system crossfade_driver_position \
  crossfade_driver_report crossfade_driver_timer crossfade_driver_system; do
  if ! grep -q "\"${key}_allocations_per_event\": 0," <<<"$json"; then
    echo "Benchmarks/ci.sh: ${key}_allocations_per_event is not 0." >&2
    exit 1
  fi
done
# The crossfade stream must start crossfades and end them each way but a failure (rare).
for key in crossfade_starts crossfade_stopped_by_timer crossfade_stopped_by_end \
  crossfade_stopped_early; do
  if grep -q "\"$key\": 0," <<<"$json"; then
    echo "Benchmarks/ci.sh: the crossfade stream has no $key." >&2
    exit 1
  fi
done
# Issue 38: window reports allocate nothing. On the live stream, reduced both ways
# (transition(on:) and in place), the window reports (those that find the load behind its window
# and reload it at the live edge included) and the position reports allocate nothing; through
# the driver too, but for the steps that arm a timer (a reload's watchdog), counted apart.
for key in live_window live_position live_in_place_window live_in_place_position \
  live_driver_window live_driver_position; do
  if ! grep -q "\"${key}_allocations_per_event\": 0," <<<"$json"; then
    echo "Benchmarks/ci.sh: ${key}_allocations_per_event is not 0." >&2
    exit 1
  fi
done
# The live stream must exercise the live rules: windows, falling behind and reloading at the
# edge, going back to live, the rate clamped to 1x at the edge.
for key in live_window_reports live_reloads_at_edge live_fell_behind live_went_live \
  live_rate_clamped_at_edge; do
  if grep -q "\"$key\": 0," <<<"$json"; then
    echo "Benchmarks/ci.sh: the live stream has no $key." >&2
    exit 1
  fi
done
# The queue stream must exercise what it is for: auto-advances, some of them gapless.
for key in queue_auto_advances queue_gapless_advances queue_position_events; do
  if grep -q "\"$key\": 0," <<<"$json"; then
    echo "Benchmarks/ci.sh: the queue stream has no $key." >&2
    exit 1
  fi
done

# Bad input is a one-line error and exit status 2, never a trap.
if "$bin" --events nope 2>"$errors"; then
  echo "Benchmarks/ci.sh: player-bench accepted --events nope." >&2
  exit 1
else
  status=$?
  [ "$status" -eq 2 ] || { echo "Benchmarks/ci.sh: --events nope exited $status, expected 2." >&2; exit 1; }
fi
grep -q "^player-bench: --events: expected an integer of at least 1, got 'nope'$" "$errors"
echo "Benchmarks/ci.sh: smoke run OK"
