#!/usr/bin/env bash
# Issue 23 item 5 over every shared glasses model, not only the Khronos sunglasses that
# Tests/RenderingTests/SpeckleTests.swift renders: `lorgnette view` at 1280x960 and at 4x that
# (5120x3840, yaw 0, 25, 60, -25), then census.py counts speckles (the test's definition) and how
# many of them the 4x4-supersampled render does not have (brighter than it by > 30 levels).
#   Bench/Speckles/census.sh LORGNETTE_BINARY [OUTPUT_FOLDER]   (default /tmp/speckle-census)
# Needs: imagemagick (convert), python3-numpy, ../shared/data/glasses beside the repository.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
bin="$1"; out="${2:-/tmp/speckle-census}"
glasses="$repo/../shared/data/glasses"
export LORGNETTE_MODELS="${LORGNETTE_MODELS:-$repo/Models}"
mkdir -p "$out"
for model in "$glasses"/*/*.glb "$glasses"/*/*.gltf; do
  name="$(basename "$(dirname "$model")")"
  for yaw in 0 25 60 -25; do
    for size in 1280x960 5120x3840; do
      f="$out/${name}_y${yaw}_$size"
      [ -f "$f.ppm" ] && continue
      "$bin" view "$model" -o "$f.png" --size "$size" --yaw "$yaw" > /dev/null
      convert "$f.png" "$f.ppm" && rm "$f.png"
    done
  done
done
python3 "$here/census.py" "$out"
