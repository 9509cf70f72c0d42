#!/bin/bash -eu
# OSS-Fuzz's build script for Playhead (copy this directory to projects/playhead in
# google/oss-fuzz). The build itself is the repository's own .clusterfuzzlite/build.sh, shared
# with ClusterFuzzLite, so the two cannot drift; the Dockerfile clones the repository to
# $SRC/playhead and makes it the WORKDIR.
exec bash "$SRC/playhead/.clusterfuzzlite/build.sh"
