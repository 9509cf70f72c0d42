#!/usr/bin/env bash
# Instructions per event of each workload, with valgrind's callgrind: independent of the
# machine's load, so these are the figures to compare when timings are noisy.
#
#   Benchmarks/profile.sh [EVENTS]      # default 100000
#
# Builds player-bench in release, runs `player-bench --profile W --events EVENTS` under
# callgrind for every workload, and prints the inclusive instruction count of the workload
# function (stream generation excluded) divided by EVENTS. Needs valgrind (apt-get install
# valgrind). The build has DWARF 4 debug information (valgrind 3.19, Debian 12's, cannot read
# the toolchain's default DWARF 5) in its own directory: SCRATCH, default .build/callgrind.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -d /opt/swift/usr/bin ] && export PATH="/opt/swift/usr/bin:$PATH"
events="${1:-100000}"
scratch="${SCRATCH:-.build/callgrind}"
flags=(-c release --scratch-path "$scratch" -Xswiftc -g -Xswiftc -dwarf-version=4 -Xcc -gdwarf-4)
swift build "${flags[@]}" --product player-bench >&2
bin="$(swift build "${flags[@]}" --show-bin-path)/player-bench"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
printf '%-16s %12s\n' workload Ir/event
for workload in naive reducer in-place driver queue queue-in-place queue-driver crossfade \
  crossfade-in-place crossfade-driver live live-in-place live-driver; do
  valgrind --tool=callgrind --callgrind-out-file="$out/$workload" \
    "$bin" --profile "$workload" --events "$events" >/dev/null 2>&1
  # The workload function's inclusive cost: the largest among `Workloads.*` (a merged
  # body, `…Tm`, may hold it instead of the function itself).
  ir="$(callgrind_annotate --inclusive=yes "$out/$workload" 2>/dev/null \
    | grep 'WorkloadsO' | grep -v 'generate' | awk '{gsub(",", "", $1); print $1}' \
    | sort -n | tail -1)"
  printf '%-16s %12d\n' "$workload" "$((ir / events))"
done
