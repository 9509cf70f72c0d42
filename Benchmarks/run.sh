#!/usr/bin/env bash
# Builds player-bench in release, runs the full benchmark once, and writes
# docs/benchmarks.md: date, machine, Swift version, the exact command, the
# table, the JSON, and the analysis kept in Benchmarks/analysis.md.
#
#   Benchmarks/run.sh                 # full run (a few minutes)
#   Benchmarks/run.sh --events 500000 # any player-bench option is passed on
#
# SCRATCH sets the build directory (default .build).
set -euo pipefail
cd "$(dirname "$0")/.."
[ -d /opt/swift/usr/bin ] && export PATH="/opt/swift/usr/bin:$PATH"

scratch="${SCRATCH:-.build}"
out=docs/benchmarks.md
json_file="$(mktemp)"
table_file="$(mktemp)"
trap 'rm -f "$json_file" "$table_file"' EXIT

echo "==> swift build -c release --product player-bench" >&2
swift build -c release --scratch-path "$scratch" --product player-bench >&2
bin="$(swift build -c release --scratch-path "$scratch" --show-bin-path)/player-bench"

load_before="$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime)"
args_text="${*:+ $*}"
command="$(basename "$bin") --json-file FILE$args_text"
echo "==> $command" >&2
started=$(date +%s)
"$bin" --json-file "$json_file" "$@" >"$table_file"
seconds=$(( $(date +%s) - started ))
load_after="$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime)"

cores="$(getconf _NPROCESSORS_ONLN 2>/dev/null || sysctl -n hw.ncpu)"
cpu="$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2- | sed 's/^ *//' || sysctl -n machdep.cpu.brand_string)"
swift_version="$(swift --version 2>&1 | head -1)"

{
  echo "# Benchmarks"
  echo
  echo "Written by \`Benchmarks/run.sh\`; do not edit by hand (edit \`Benchmarks/analysis.md\`)."
  echo
  echo "- Date: $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "- Machine: $cores cores, ${cpu:-unknown CPU}, $(uname -sm)"
  echo "- Swift: $swift_version"
  echo "- Commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet -- Sources 2>/dev/null || echo " (Sources modified)")"
  echo "- Command: \`Benchmarks/run.sh$args_text\` (builds with \`swift build -c release\`, then runs \`$command\`), $seconds s"
  echo "- Load average (1, 5, 15 min) before: $load_before; after: $load_after." \
    "The machine is shared: figures above 1 per core mean other work ran during the measurement," \
    "which lowers absolute rates; ratios measured round by round (paired) hold better."
  echo
  echo "## Results"
  echo
  echo '```'
  cat "$table_file"
  echo '```'
  echo
  echo "<details><summary>JSON (<code>--json</code>)</summary>"
  echo
  echo '```json'
  cat "$json_file"
  echo '```'
  echo
  echo "</details>"
  echo
  cat Benchmarks/analysis.md
} >"$out"
echo "==> wrote $out" >&2
