#!/usr/bin/env bash
# Issue 23 item 6 by hand: draws every shared glasses model with our renderer and with three.js
# (headless Chromium, Debian libjs-three) at yaw 0, 25 and 60, prints silhouette IoU and the frame
# parts' mean colours, and keeps the pictures: NAME-yawY.png (ours left, three.js right) and
# NAME-yawY-masks.png (red: our silhouette, green: three.js's, yellow: both, blue: our lenses).
#   Tests/RenderingTests/ThreeReference/render.sh [OUTPUT_FOLDER]   (default /tmp/three-reference)
# Needs: chromium, libjs-three (.ci/setup --test), ../shared/data/glasses beside the repository.
set -euo pipefail
cd "$(dirname "$0")/../../.."
out="${1:-/tmp/three-reference}"
swift build --build-tests
THREE_REFERENCE_OUT="$out" swift test --skip-build --filter ThreeReferenceTests 2>&1 | grep -E "three.js|✘|passed|failed"
echo "pictures in $out"
