#!/usr/bin/env bash
# Issue 24 item 5: PD on the dev clips as a user would run it, and its invariance to mirroring,
# resolution and the half of the clip used. Prints one table row per clip (and writes the JSON of
# every run into $OUT). Needs ffmpeg and python3, and a release build:
#   swift build -c release --product lorgnette
#   Bench/RealClips/pd_invariance.sh [../shared/data/videos/*.mjpeg]
# Variants: ffmpeg -vf hflip (re-encoded at -q:v 2), -vf scale=iw/2:ih/2 (same), and the first and
# second halves of the frames cut from the stream without re-encoding. "reenc" is the clip only
# re-encoded at -q:v 2, to tell the JPEG generation from the mirroring.
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
bin=${LORGNETTE:-$here/.build/release/lorgnette}
OUT=${OUT:-$(mktemp -d /tmp/pd_invariance.XXXXXX)}
clips=("$@")
[ ${#clips[@]} -gt 0 ] || clips=("$here"/../shared/data/videos/*.mjpeg)
mkdir -p "$OUT"

run() {  # name file -> writes $OUT/name.json, prints "pd sd n monoR monoL" or "refused: reason"
    if "$bin" measure --input "$2" --json >"$OUT/$1.json" 2>"$OUT/$1.err"; then
        python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print("%.2f %.2f %d %.2f %.2f" % (r["pd_far_mm"]["value"], r["pd_far_mm"]["sd"], r["frames_used"], r["mono_pd_mm"]["right"]["value"], r["mono_pd_mm"]["left"]["value"]))' "$OUT/$1.json"
    else
        echo "refused: $(tail -1 "$OUT/$1.err")"
    fi
}

split_halves() {  # in.mjpeg first.mjpeg second.mjpeg: cut at the middle frame, bytes as they are
    python3 - "$1" "$2" "$3" <<'PY'
import sys
data = open(sys.argv[1], "rb").read()
frames, i = [], 0
while True:
    s = data.find(b"\xff\xd8", i)
    if s < 0: break
    e = data.find(b"\xff\xd9", s + 2)
    # A frame ends at the EOI that is followed by the next SOI (or the end of the stream).
    while e >= 0 and not (e + 2 == len(data) or data[e + 2:e + 4] == b"\xff\xd8"):
        e = data.find(b"\xff\xd9", e + 2)
    if e < 0: break
    frames.append(data[s:e + 2]); i = e + 2
h = len(frames) // 2
open(sys.argv[2], "wb").write(b"".join(frames[:h])); open(sys.argv[3], "wb").write(b"".join(frames[h:]))
PY
}

printf "%-22s %-28s %-28s %-28s %-28s %-28s %-28s\n" clip "far PD, SD, N, monoR, monoL" reenc mirrored half-res "first half" "second half"
for clip in "${clips[@]}"; do
    name=$(basename "$clip" .mjpeg)
    ffmpeg -loglevel error -y -f mjpeg -i "$clip" -q:v 2 -f mjpeg "$OUT/$name.reenc.mjpeg"
    ffmpeg -loglevel error -y -f mjpeg -i "$clip" -vf hflip -q:v 2 -f mjpeg "$OUT/$name.hflip.mjpeg"
    ffmpeg -loglevel error -y -f mjpeg -i "$clip" -vf scale=iw/2:ih/2 -q:v 2 -f mjpeg "$OUT/$name.half.mjpeg"
    split_halves "$clip" "$OUT/$name.first.mjpeg" "$OUT/$name.second.mjpeg"
    printf "%-22s %-28s %-28s %-28s %-28s %-28s %-28s\n" "$name" "$(run "$name" "$clip")" "$(run "$name.reenc" "$OUT/$name.reenc.mjpeg")" \
        "$(run "$name.hflip" "$OUT/$name.hflip.mjpeg")" "$(run "$name.half" "$OUT/$name.half.mjpeg")" \
        "$(run "$name.first" "$OUT/$name.first.mjpeg")" "$(run "$name.second" "$OUT/$name.second.mjpeg")"
done
echo "runs in $OUT"
