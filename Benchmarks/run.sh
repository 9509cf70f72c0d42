#!/usr/bin/env bash
# Builds player-bench in release, runs the full benchmark once, writes its JSON
# to docs/benchmarks.json, and rewrites the section of docs/benchmarks.md between
# its two run.sh markers: date, machine, Swift version, the exact command and the
# table. The rest of docs/benchmarks.md (how to read the figures, where the time
# goes) is written by hand; the history of the figures is CHANGELOG.md's.
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
json_out=docs/benchmarks.json
begin='<!-- Benchmarks/run.sh rewrites from here to its end marker; edit the rest of the page by hand. -->'
end='<!-- Benchmarks/run.sh: end of its section -->'
if [ "$(grep -cxF -e "$begin" -e "$end" "$out")" -ne 2 ]; then
  echo "Benchmarks/run.sh: $out needs its two marker lines, once each:" >&2
  printf '  %s\n' "$begin" "$end" >&2
  exit 1
fi
json_file="$(mktemp)"
table_file="$(mktemp)"
section_file="$(mktemp)"
trap 'rm -f "$json_file" "$table_file" "$section_file"' EXIT

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
  echo "$begin"
  echo
  echo "Written by \`Benchmarks/run.sh\`, with the run's JSON in [benchmarks.json](benchmarks.json)."
  echo
  echo "- Date: $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "- Machine: $cores cores, ${cpu:-unknown CPU}, $(uname -sm)"
  echo "- Swift: $swift_version"
  echo "- Commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet -- Sources 2>/dev/null || echo " (Sources modified)")"
  echo "- Command: \`Benchmarks/run.sh$args_text\` (builds with \`swift build -c release\`, then runs"
  echo "  \`$command\`), $seconds s"
  echo "- Load average (1, 5, 15 min) before: $load_before; after: $load_after."
  echo
  echo "The machine is shared: figures above 1 per core mean other work ran during the measurement,"
  echo "which lowers absolute rates; ratios measured round by round (paired) hold better."
  echo
  echo '```'
  cat "$table_file"
  echo '```'
  echo
  echo "$end"
} >"$section_file"
# Everything before the first marker and after the second stays as it is.
python3 - "$out" "$section_file" "$begin" "$end" <<'PY'
import sys
out, section, begin, end = sys.argv[1:]
text = open(out).read()
start = text.index(begin + "\n")
stop = text.index(end + "\n", start) + len(end) + 1
open(out, "w").write(text[:start] + open(section).read() + text[stop:])
PY
cp "$json_file" "$json_out"
echo "==> wrote $json_out and the latest run in $out" >&2
