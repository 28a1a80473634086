#!/usr/bin/env bash
# Issue 24 item 3: an ID-1 card composited into the real dev clips at the tracked forehead
# (`lorgnette eval card`: perspective, anti-aliased rounded corners, motion blur, the forehead's
# light, sensor noise, JPEG), the card detector's corners against the drawn ones, tilted cards
# (20° about the face's x axis) rejected, and `measure --scale card` on each composited clip (one PD
# with its band; the iris-scale PD of the same clip beside it). The detector reads the composited
# frames in colour, as `measure --scale card` hands them to it, and `eval card` prints its thread CPU
# per frame (add `--edges luma` to an `eval card` line for the grey-only detector). Needs python3
# and a release build:
#   swift build -c release --product lorgnette
#   Bench/RealClips/card_composite.sh [../shared/data/videos/*.mjpeg]
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
bin=${LORGNETTE:-$here/.build/release/lorgnette}
OUT=${OUT:-$(mktemp -d /tmp/card_composite.XXXXXX)}
clips=("$@")
[ ${#clips[@]} -gt 0 ] || clips=("$here"/../shared/data/videos/*.mjpeg)
mkdir -p "$OUT"

pd() {  # scale file -> "pd ± band (n frames)" or "refused: reason"
    if "$bin" measure --input "$2" --scale "$1" --json >"$OUT/$(basename "$2" .mjpeg).$1.json" 2>"$OUT/$(basename "$2" .mjpeg).$1.err"; then
        python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); p=r["pd_far_mm"]; print("%.2f ± %.2f (SD %.2f, %d frames)" % (p["value"], (p["ci95"][1]-p["ci95"][0])/2, p["sd"], r["frames_used"]))' "$OUT/$(basename "$2" .mjpeg).$1.json"
    else
        echo "refused: $(tail -1 "$OUT/$(basename "$2" .mjpeg).$1.err")"
    fi
}

for clip in "${clips[@]}"; do
    name=$(basename "$clip" .mjpeg)
    echo "== $name"
    "$bin" eval card --input "$clip" --output "$OUT/${name}_card.mjpeg" --tsv "$OUT/${name}_card.tsv" 2>/dev/null
    "$bin" eval card --input "$clip" --tilt 20 --output "$OUT/${name}_tilt20.mjpeg" 2>/dev/null
    echo "card scale on the composited clip: $(pd card "$OUT/${name}_card.mjpeg")"
    echo "iris scale on the composited clip: $(pd iris "$OUT/${name}_card.mjpeg")"
    echo "card scale on the tilted clip:     $(pd card "$OUT/${name}_tilt20.mjpeg")"
done
echo "outputs in $OUT"
