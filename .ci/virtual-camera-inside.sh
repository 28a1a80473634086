#!/bin/bash
# The virtual camera (issue 26) against real consumers, run inside the vivid VM by
# .ci/capture-integration.sh: `live` writes the try-on to the v4l2loopback output device
# /dev/video2 (exclusive_caps=1, as browsers need it), fed frame by frame through a pipe on its
# standard input (`--input -`), and ffmpeg's v4l2 input and our own `record` read it back.
#
#   virtual-camera-inside.sh OUT LORGNETTE FRAMES_DIR
#
# Frames are sent one at a time and each must arrive at the consumer before the next is sent, so
# "every delivered frame is received" is checked frame by frame, not as a total that could hide
# a loss behind a duplicate. Exit status 1 on any failure; files for the host's checks go to OUT.
set -uo pipefail
OUT=$1 LORGNETTE=$2 FRAMES=$3
DEV=/dev/video2
status=0
fail() { echo "FAIL (virtual camera): $*" >&2; status=1; }
[ -e $DEV ] || { echo "FAIL (virtual camera): no $DEV (v4l2loopback with two devices?)" >&2; exit 1; }
W=320 H=320 FRAME_BYTES=$((320 * 320 * 2))
frames=("$FRAMES"/f_*.jpg)
sent=0
send() { cat "${frames[$sent]}" >&4; sent=$((sent + 1)); }
size() { stat -c %s "$1" 2>/dev/null || echo 0; }
# Waits up to $2 tenths of a second for file $1 to reach $3 bytes.
await_size() { for _ in $(seq "$2"); do [ "$(size "$1")" -ge "$3" ] && return 0; sleep 0.1; done; return 1; }

echo "=== virtual camera: devices lists $DEV as an output device"
"$LORGNETTE" devices --json > "$OUT/vc-devices.json" || fail "devices --json"
grep -q "\"path\" : \"$DEV\"" "$OUT/vc-devices.json" || fail "devices --json does not list $DEV"
"$LORGNETTE" devices | sed -n '/^Output devices/,$p'

echo "=== virtual camera: wrong devices give one-line errors"
"$LORGNETTE" live --input demo --frames 1 --output /dev/video0 2> "$OUT/vc-capture.err" && fail "live wrote to a capture device"
cat "$OUT/vc-capture.err"; grep -q "not a video output device" "$OUT/vc-capture.err" || fail "capture-only device not named"
"$LORGNETTE" live --input demo --frames 1 --output /dev/video9 2> "$OUT/vc-missing.err" && fail "live wrote to a missing device"
cat "$OUT/vc-missing.err"; grep -q "no video device at /dev/video9" "$OUT/vc-missing.err" || fail "missing device not named"

echo "=== virtual camera: live --input - --output $DEV (YUYV), frames sent one by one"
# The FIFO lives in the VM's own RAM overlay: the 9p folder shared with the host cannot hold one.
FIFO=$(mktemp -u /var/tmp/vc-in.XXXXXX)
mkfifo "$FIFO" || { echo "FAIL (virtual camera): mkfifo $FIFO" >&2; exit 1; }
exec 4<>"$FIFO"
# (4>&-: live must not hold the FIFO's write end itself, or it never sees the end of its input.)
"$LORGNETTE" live --input - --output $DEV < "$FIFO" > "$OUT/vc-live.out" 2> "$OUT/vc-live.err" 4>&- &
LIVE=$!
# The first frame sets the format; with exclusive_caps=1 the node then turns into a camera.
send
for _ in $(seq 300); do v4l2-ctl -d $DEV -D 2>/dev/null | grep -A3 "Device Caps" | grep -q "Video Capture" && break; sleep 0.1; done
v4l2-ctl -d $DEV --get-fmt-video 2>/dev/null | grep -E "Width|Pixel Format" | tr -s ' '

echo "=== consumer 1: ffmpeg's v4l2 input"
ffmpeg -nostdin -v error -f v4l2 -input_format yuyv422 -i $DEV -fps_mode passthrough -f rawvideo -flush_packets 1 -y "$OUT/vc-ffmpeg.yuv" 4>&- &
FF=$!
# Until ffmpeg has its first frame, keep sending (it takes a while to start under emulation).
for _ in $(seq 20); do send; await_size "$OUT/vc-ffmpeg.yuv" 100 $FRAME_BYTES && break; done
[ "$(size "$OUT/vc-ffmpeg.yuv")" -ge $FRAME_BYTES ] || fail "ffmpeg received nothing"
# From now on every frame sent must arrive, exactly one per frame (-fps_mode passthrough: ffmpeg
# would otherwise repeat frames to keep the device's nominal 30 fps).
got=$(( $(size "$OUT/vc-ffmpeg.yuv") / FRAME_BYTES ))
for _ in $(seq 6); do
  send
  if ! await_size "$OUT/vc-ffmpeg.yuv" 300 $(( (got + 1) * FRAME_BYTES )); then fail "frame $sent did not reach ffmpeg"; break; fi
  got=$((got + 1))
done
sleep 1
if [ "$(size "$OUT/vc-ffmpeg.yuv")" -eq $((got * FRAME_BYTES)) ]; then
  echo "ffmpeg received $got frames ($W x $H YUYV), one per frame sent"
else
  fail "ffmpeg has $(size "$OUT/vc-ffmpeg.yuv") bytes, expected $got frames of $FRAME_BYTES"
fi

echo "=== consumer 1 leaves; the try-on goes on without a consumer"
kill -INT $FF; wait $FF 2>/dev/null
for _ in 1 2 3; do send; sleep 1; done
kill -0 $LIVE 2>/dev/null || fail "live stopped when its consumer left"

echo "=== a second writer is refused while live writes"
"$LORGNETTE" live --input demo --frames 1 --output $DEV 2> "$OUT/vc-busy.err" 4>&- && fail "a second live wrote to $DEV"
cat "$OUT/vc-busy.err"; grep -q "busy" "$OUT/vc-busy.err" || fail "busy device not reported as busy"

echo "=== consumer 2 comes back: lorgnette record"
"$LORGNETTE" record --device $DEV --size ${W}x${H} --frames 3 --timeout 60 -o "$OUT/vc-record.avi" > "$OUT/vc-record.out" 2> "$OUT/vc-record.err" 4>&- &
REC=$!
for _ in $(seq 30); do kill -0 $REC 2>/dev/null || break; send; sleep 1.5; done
wait $REC || { fail "record from $DEV failed"; cat "$OUT/vc-record.err" >&2; }
cat "$OUT/vc-record.out"

echo "=== end of input: live ends cleanly with its summary"
exec 4>&-
wait $LIVE; live_status=$?
cat "$OUT/vc-live.out" "$OUT/vc-live.err" | grep -v "^libv4l2"
[ $live_status -eq 0 ] || fail "live exited with $live_status"
summary=$(grep -h "frames delivered" "$OUT/vc-live.out" "$OUT/vc-live.err")
delivered=$(sed -E 's/.*: ([0-9]+) frames delivered.*/\1/' <<< "$summary")
superseded=$(sed -E 's/.* ([0-9]+) superseded.*/\1/' <<< "$summary")
echo "sent $sent frames; live delivered $delivered, superseded $superseded"
[ "$((delivered + superseded))" -eq "$sent" ] || fail "delivered + superseded ($delivered + $superseded) != frames sent ($sent)"
grep -q "YUYV 320x320" <<< "$summary" || fail "summary does not give the negotiated format: $summary"

echo "=== MJPEG output format"
"$LORGNETTE" live --input demo:320x240 --frames 4 --output $DEV --output-format mjpeg > "$OUT/vc-mjpeg.out" 2> "$OUT/vc-mjpeg.err" || fail "live --output-format mjpeg"
cat "$OUT/vc-mjpeg.out"; grep -q "MJPG 320x240.*4 frames delivered" "$OUT/vc-mjpeg.out" || fail "MJPEG format not negotiated"
echo "=== I420 output format"
"$LORGNETTE" live --input demo:320x240 --frames 4 --output $DEV --output-format i420 > "$OUT/vc-i420.out" 2> "$OUT/vc-i420.err" || fail "live --output-format i420"
cat "$OUT/vc-i420.out"; grep -q "YU12 320x240.*4 frames delivered" "$OUT/vc-i420.out" || fail "I420 format not negotiated"
# After every writer left, the device is an output device again (STREAMON marked us as the writer).
"$LORGNETTE" devices --json | grep -q "\"path\" : \"$DEV\"" || fail "$DEV is no longer an output device after live left"
exit $status
