#!/bin/bash -eu
# Builds Playhead's libFuzzer targets for OSS-Fuzz and ClusterFuzzLite: the one build script
# of both (Fuzz/oss-fuzz/build.sh runs this file from the OSS-Fuzz checkout).
#
# Conventions of gcr.io/oss-fuzz-base/base-builder-swift, whose `compile` runs this with
# SRC, OUT, WORK, SANITIZER (address, thread or coverage), FUZZING_ENGINE (libfuzzer),
# CFLAGS and CXXFLAGS set, in the WORKDIR of the Dockerfile (the repository's root):
#
#   . precompile_swift     sets SWIFTFLAGS: -Xswiftc -parse-as-library -Xswiftc -static-stdlib
#                          --static-swift-stdlib -Xswiftc -sanitize=fuzzer,$SANITIZER
#                          --sanitize=$SANITIZER, and -Xcc=/-Xcxx= for each of CFLAGS/CXXFLAGS
#   swift build -c debug $SWIFTFLAGS      in Fuzz/FuzzTesting (the fuzzing package)
#
# then copies to $OUT every executable product of Fuzz/FuzzTesting whose name ends in Fuzzer
# (PlayerFuzzer, ScenarioFuzzer, FilesFuzzer, and any added later), each with what exists of
#
#   <Name>_seed_corpus.zip   Fuzz/Corpus/<name>/ (player); the scenario seeds (Fuzz/Corpus/scenario
#                            and Examples/scenarios) for scenario; for files, those scripts after a
#                            0 byte and the saved failures (Fuzz/Failures) after a 1 byte (its
#                            first byte picks the reader)
#   <Name>.dict, .options    Fuzz/FuzzTesting/Options/<name>.dict and .options
#
# where <name> is the fuzzer's name without "Fuzzer", lowercased. Where the image has no
# precompile_swift (this machine), the caller sets SWIFTFLAGS: Fuzz/oss-fuzz/verify.sh sets
# it exactly as precompile_swift does. Optional: PLAYHEAD_FUZZ_CONFIGURATION (debug, the
# default and what OSS-Fuzz's Swift guide builds, or release), PLAYHEAD_FUZZ_SCRATCH (SwiftPM
# scratch path; the fuzzing package builds under its fuzz-testing subdirectory).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# In the repository (.clusterfuzzlite/, or called by Fuzz/oss-fuzz/build.sh) the root is one
# up; copied to $SRC/build.sh by the Dockerfile, it is the WORKDIR.
if [ -d "$here/../Fuzz/FuzzTesting" ]; then root="$(cd "$here/.." && pwd)"; else root="$PWD"; fi
package="$root/Fuzz/FuzzTesting"
if [ ! -f "$package/Package.swift" ]; then
  echo "build.sh: no fuzzing package at $package; run from the repository's root (the Dockerfile's WORKDIR)" >&2
  exit 1
fi

: "${OUT:?build.sh: OUT is not set (the directory that receives the fuzzers)}"
mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"
if command -v precompile_swift >/dev/null 2>&1; then
  # shellcheck disable=SC1091
  . precompile_swift
fi
: "${SWIFTFLAGS:?build.sh: SWIFTFLAGS is not set: run in gcr.io/oss-fuzz-base/base-builder-swift (precompile_swift sets it) or through Fuzz/oss-fuzz/verify.sh}"

configuration="${PLAYHEAD_FUZZ_CONFIGURATION:-debug}"
case "$configuration" in debug|release) ;; *)
  echo "build.sh: PLAYHEAD_FUZZ_CONFIGURATION must be debug or release, got '$configuration'" >&2
  exit 1 ;;
esac
scratch=()
[ -n "${PLAYHEAD_FUZZ_SCRATCH:-}" ] && scratch=(--scratch-path "$PLAYHEAD_FUZZ_SCRATCH/fuzz-testing")
# SWIFTFLAGS is a list of words by design (precompile_swift builds it that way). It is the
# variable for packages of tools version below 6.2, as Fuzz/FuzzTesting/Package.swift (6.0) is;
# precompile_swift's SWIFT6_2FLAGS would be the one for 6.2 and later.
# shellcheck disable=SC2086
build=(swift build --package-path "$package" "${scratch[@]}" -c "$configuration" $SWIFTFLAGS)

echo "build.sh: ${build[*]}"
# The static Swift runtime and the sanitizers make the linker warn about exporting local
# __asan_* symbols and about mktemp in Foundation; both are harmless and filtered out.
if ! "${build[@]}" 2>&1 | { grep -vE "annot export local symbol|the use of .mktemp. is dangerous" || true; }; then
  echo "build.sh: the build failed: ${build[*]}" >&2
  exit 1
fi
bin="$("${build[@]}" --show-bin-path)"

# Seeds and zips, built under WORK (the image's scratch directory) or a temp directory.
staging="$(mktemp -d "${WORK:-/tmp}/playhead-seeds.XXXXXX")"
trap 'rm -rf "$staging"' EXIT
zip_directory() {  # zip_directory DIR ZIP: the files of DIR, flat, into ZIP
  rm -f "$2"
  if command -v zip >/dev/null 2>&1; then
    (cd "$1" && zip -q -X -r "$2" .)
  else
    python3 -c 'import os, sys, zipfile
with zipfile.ZipFile(sys.argv[2], "w") as z:
    for name in sorted(os.listdir(sys.argv[1])):
        z.write(os.path.join(sys.argv[1], name), name)' "$1" "$2"
  fi
}
scenario_seeds() {  # every scenario seed, named by where it comes from
  for seed in "$root"/Fuzz/Corpus/scenario/*.play "$root"/Examples/scenarios/*.play; do
    [ -f "$seed" ] || continue
    echo "$seed"
  done
}
seed_name() { echo "$(basename "$(dirname "$1")")-$(basename "$1")"; }

fuzzers=()
while IFS= read -r path; do
  fuzzers+=("$(basename "$path")")
done < <(find "$bin" -maxdepth 1 -type f -perm -u+x -name '*Fuzzer' | sort)
if [ "${#fuzzers[@]}" -eq 0 ]; then
  echo "build.sh: the build made no …Fuzzer executable in $bin" >&2
  exit 1
fi

for fuzzer in "${fuzzers[@]}"; do
  name="$(echo "${fuzzer%Fuzzer}" | tr '[:upper:]' '[:lower:]')"
  cp "$bin/$fuzzer" "$OUT/$fuzzer"
  seeds="$staging/$name"
  mkdir -p "$seeds"
  case "$name" in
    scenario)
      while IFS= read -r seed; do cp "$seed" "$seeds/$(seed_name "$seed")"; done < <(scenario_seeds) ;;
    files)
      while IFS= read -r seed; do
        { printf '\000'; cat "$seed"; } >"$seeds/script-$(seed_name "$seed")"
      done < <(scenario_seeds)
      for seed in "$root"/Fuzz/Failures/*.txt; do
        [ -f "$seed" ] || continue
        { printf '\001'; cat "$seed"; } >"$seeds/failure-$(basename "$seed")"
      done ;;
    *)
      if [ -d "$root/Fuzz/Corpus/$name" ]; then cp "$root/Fuzz/Corpus/$name"/* "$seeds"/; fi ;;
  esac
  extras=""
  if [ -n "$(ls -A "$seeds")" ]; then
    zip_directory "$seeds" "$OUT/${fuzzer}_seed_corpus.zip"
    extras+=" seed corpus ($(ls "$seeds" | wc -l) inputs)"
  fi
  for kind in dict options; do
    if [ -f "$package/Options/$name.$kind" ]; then
      cp -L "$package/Options/$name.$kind" "$OUT/$fuzzer.$kind"
      extras+=" .$kind"
    fi
  done
  echo "build.sh: $OUT/$fuzzer${extras:+ with$extras}"
done
