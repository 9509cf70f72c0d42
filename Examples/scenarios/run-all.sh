#!/bin/sh
# Runs every scenario in this directory with the built player-sim and fails if
# any fails (an expect that does not hold, or a script that does not parse).
#
# Usage: Examples/scenarios/run-all.sh [PATH-TO-player-sim]
# Without an argument it builds player-sim with `swift build` and uses that.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)

if [ $# -ge 1 ]; then
  sim=$1
else
  bin=$(cd "$root" && swift build --product player-sim --show-bin-path)
  (cd "$root" && swift build --product player-sim >/dev/null)
  sim="$bin/player-sim"
fi

if [ ! -x "$sim" ]; then
  echo "run-all.sh: player-sim not found at '$sim'; expected a built binary" >&2
  exit 2
fi

failed=0
count=0
for script in "$here"/*.play; do
  count=$((count + 1))
  if "$sim" run --quiet "$script" >/dev/null; then
    echo "ok    $(basename "$script")"
  else
    status=$?
    echo "FAIL  $(basename "$script") (exit $status)"
    failed=$((failed + 1))
  fi
done

if [ "$count" -lt 10 ]; then
  echo "run-all.sh: only $count scenarios in $here; expected at least 10" >&2
  exit 1
fi
echo "$((count - failed))/$count scenarios passed"
[ "$failed" -eq 0 ]
